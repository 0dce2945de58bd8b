/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A reader of trace-cmd's version 7 trace.dat files (trace-cmd.dat.v7(5)),
 * uncompressed or zstd-compressed, for the one thing the reporter does:
 * every record of the top instance, in time order, fast.
 */
#ifndef FFR_TRACEDAT_H
#define FFR_TRACEDAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <event-parse.h>

/* the file is valid but this reader does not handle it: use libtracecmd */
#define TDAT_UNSUPPORTED	1

struct tdat_rec {
	const void		*data;		/* the event's fields */
	unsigned int		size;
	long long		missed;		/* events lost before it, -1 if unknown */
	unsigned long long	ts;
	int			cpu;
};

struct tdat_cpu;

struct tdat {
	const char		*path;
	const unsigned char	*map;		/* the whole file */
	size_t			size;
	bool			mapped;		/* by tdat_open() */
	bool			zstd;		/* compression algorithm of the file */
	bool			cpu_compressed;	/* the flyrecord data is in chunks */
	bool			time_shift;	/* per-CPU clock corrections */
	unsigned int		page_size;
	unsigned int		long_size;	/* the kernel's, from the header page */
	uint64_t		sec_header, sec_events, sec_kallsyms, sec_cmdlines;
	struct tdat_cpu		*cpus;		/* the top instance's CPUs */
	unsigned int		ncpus;
	void			*zctx;
	struct tep_handle	*tep;
};

/*
 * Map the file and read its options.
 * Return: 0, TDAT_UNSUPPORTED (another version, big-endian, zlib, no
 * flyrecord data: nothing has been reported), or -1 after an error message.
 */
int tdat_open(struct tdat *d, const char *path);
/* the same for a file already in memory (buf must outlive d); name for messages */
int tdat_open_mem(struct tdat *d, const char *name, const void *buf, size_t size);

/*
 * Build d->tep from the header page, the formats of the event systems
 * listed (NULL-terminated; NULL for all) and the saved command lines.
 * Return: 0 or -1 after an error message.
 */
int tdat_load_meta(struct tdat *d, const char *const *systems);

/*
 * The KALLSYMS section, NUL-terminated, to be freed; *len (if not NULL)
 * gets its length.  NULL if the trace has none (*err = 0) or on an error
 * (*err = -1, reported).
 */
char *tdat_kallsyms(struct tdat *d, size_t *len, int *err);

/* the KALLSYMS section as stored in the file (maybe compressed), or NULL */
const void *tdat_kallsyms_raw(struct tdat *d, size_t *len);

typedef int (*tdat_record_fn)(void *ctx, const struct tdat_rec *rec);

/*
 * After tdat_load_meta() (the page header's layout comes from the header
 * page), call fn for each record of the top instance, in time order (on equal
 * timestamps, the CPU listed first first), as libtracecmd's
 * tracecmd_iterate_events() does.  A negative return from fn stops.
 * Return: 0, fn's negative return, or -1 after an error message (corrupt data).
 */
int tdat_iterate(struct tdat *d, tdat_record_fn fn, void *ctx);

void tdat_close(struct tdat *d);

/*
 * libtraceevent's format parser keeps its state in globals: every call that
 * parses (event formats, the header page, tracecmd_open()) goes under this
 * lock when traces are read by several threads.
 */
void tdat_parse_lock(void);
void tdat_parse_unlock(void);

#endif /* FFR_TRACEDAT_H */
