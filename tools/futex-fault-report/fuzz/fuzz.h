/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the fuzz targets: the fixture they take their setup from
 * ($FFR_FUZZ_FIXTURE, a tests/report/fixture.tar.xz unpacked), messages
 * swallowed (a target's input is mostly invalid: errors are the expected
 * answer), a scratch file per process.
 */
#ifndef FFR_FUZZ_H
#define FFR_FUZZ_H

#include <ftw.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../report.h"
#include "../util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static inline const char *fuzz_fixture(const char *rel)
{
	static char path[4096];
	const char *fx = getenv("FFR_FUZZ_FIXTURE");

	if (!fx || !*fx) {
		fprintf(stderr, "fuzz: set FFR_FUZZ_FIXTURE to an unpacked tests/report/fixture.tar.xz\n");
		exit(2);
	}
	snprintf(path, sizeof(path), "%s/%s", fx, rel);
	return path;
}

static char *fuzz_scratch_path;

static inline int fuzz_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline void fuzz_cleanup(void)
{
	nftw(fuzz_scratch_path, fuzz_rm, 8, FTW_DEPTH | FTW_PHYS);
}

/*
 * A file or directory on tmpfs (if there is one) named after the target and
 * the process, removed at exit; one per target.
 */
static inline char *fuzz_scratch(const char *name)
{
	const char *base = access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm";

	fuzz_scratch_path = xasprintf("%s/ffr-fuzz-%d-%s", base, (int)getpid(), name);
	atexit(fuzz_cleanup);
	return fuzz_scratch_path;
}

static inline void fuzz_write(const char *path, const void *data, size_t size)
{
	FILE *f = fopen(path, "w");

	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f)) {
		perror(path);
		abort();
	}
}

#endif /* FFR_FUZZ_H */
