/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small file helpers shared by the robustness tests run in the guest
 * (debugfs-fuzz.c, stress-flip.c).  Included once per program.
 */
#ifndef FF_ROBUST_IO_H
#define FF_ROBUST_IO_H

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Read @path into @buf (NUL-terminated).  Return: its length or -errno. */
static ssize_t read_file(const char *path, char *buf, size_t size)
{
	ssize_t n, len = 0;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	while ((size_t)len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			len = -errno;
			break;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	if (len >= 0)
		buf[len] = '\0';
	return len;
}

/* Write the string @val to @path in one write().  Return: 0 or -errno. */
static int write_str(const char *path, const char *val)
{
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != strlen(val))
		ret = -EIO;
	close(fd);
	return ret;
}

#endif /* FF_ROBUST_IO_H */
