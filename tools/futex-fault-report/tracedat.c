// SPDX-License-Identifier: GPL-2.0
/*
 * A reader of trace-cmd's version 7 trace.dat (trace-cmd.dat.v7(5)) for
 * what the reporter needs: every record of the top instance, in time order.
 *
 * Why not libtracecmd for these files: libtracecmd 1.3 (trace-cmd 3.1.6)
 * keeps every decompressed chunk of a zstd trace in a list it never frees
 * and searches that list on every page, so a 43 MB trace (777 MB of
 * ring-buffer pages, 16 M records) takes three minutes; converting the
 * file first ("trace-cmd convert") writes the 777 MB out again, which costs
 * seconds.  Here each chunk is decompressed into one buffer per CPU,
 * reused, and its pages are walked in place.  Opening a trace with
 * libtracecmd also parses all of kallsyms (1 MB, 10 ms a trace); here the
 * caller loads it only when it needs a symbol.
 *
 * The metadata goes into a tep handle through libtraceevent's own parsers
 * (header page, event formats, saved command lines).  The ring-buffer pages
 * are walked by the rules libtraceevent's kbuffer follows, without its
 * indirect calls (five times faster), and with every length checked: the
 * file may be anything, and nothing is read outside it.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zstd.h>

#include "ffr.h"
#include "tracedat.h"
#include "util.h"

#define TDAT_MAGIC		"\027\010\104tracing"
#define TDAT_MAX_SECTIONS	256		/* options sections followed (against loops) */
#define TDAT_MAX_BLOCK		(256u << 20)	/* a decompressed chunk or section */
#define TDAT_MAX_CPUS		4096

/* section and option ids, trace-cmd.dat.v7(5) */
enum {
	TDAT_SEC_OPTIONS	= 0,
	TDAT_SEC_BUFFER		= 3,
	TDAT_OPT_DONE		= 0,
	TDAT_OPT_BUFFER		= 3,
	TDAT_OPT_TIME_SHIFT	= 12,
	TDAT_OPT_TSC2NSEC	= 14,
	TDAT_OPT_HEADER_INFO	= 16,
	TDAT_OPT_EVENT_FORMATS	= 18,
	TDAT_OPT_KALLSYMS	= 19,
	TDAT_OPT_CMDLINES	= 21,
	TDAT_SEC_FL_COMPRESS	= 1,
};

/* ring-buffer page and event headers (kernel/trace/ring_buffer.c) */
#define RB_COMMIT_MASK		((1u << 27) - 1)
#define RB_MISSED_EVENTS	(1ull << 31)
#define RB_MISSED_STORED	(1ull << 30)
#define RB_TS_SHIFT		27
#define RB_TS_MSB		(0xf8ull << 56)	/* not in an absolute time stamp */

enum {
	RB_TYPE_DATA_MAX	= 28,	/* 1..28: data of type_len * 4 bytes; 0: length next */
	RB_TYPE_PADDING		= 29,
	RB_TYPE_TIME_EXTEND	= 30,
	RB_TYPE_TIME_STAMP	= 31,
};

struct tdat_cpu {
	int			cpu;
	uint64_t		offset;		/* its data in the file */
	uint64_t		size;
	/* pages not read yet: in the file (uncompressed data) or in buf */
	const unsigned char	*page, *page_end;
	/* compressed data: the next chunk header, the end of the CPU's data */
	const unsigned char	*next_chunk, *end;
	uint32_t		chunks_left;
	unsigned char		*buf;		/* a decompressed chunk or a short page */
	size_t			bufcap;
	/* the page being read */
	const unsigned char	*data;		/* its events, NULL before the first */
	unsigned int		commit;		/* bytes of events */
	unsigned int		off;		/* of the next event header in data */
	unsigned long long	ts;
	long long		lost;		/* events lost before this page */
	struct tdat_rec		rec;
	bool			has_rec;
};

static pthread_mutex_t parse_lock = PTHREAD_MUTEX_INITIALIZER;

void tdat_parse_lock(void)
{
	pthread_mutex_lock(&parse_lock);
}

void tdat_parse_unlock(void)
{
	pthread_mutex_unlock(&parse_lock);
}

/* the file is little-endian (others are left to libtracecmd) */
static inline uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t le64(const unsigned char *p)
{
	return le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* a bounds-checked reader: after a read past end, bad is set and reads give 0 */
struct cursor {
	const unsigned char	*p, *end;
	bool			bad;
};

static bool cur_need(struct cursor *c, size_t n)
{
	if (c->bad || (size_t)(c->end - c->p) < n) {
		c->bad = true;
		c->p = c->end;
		return false;
	}
	return true;
}

static uint16_t cur16(struct cursor *c)
{
	uint16_t v;

	if (!cur_need(c, 2))
		return 0;
	v = c->p[0] | c->p[1] << 8;
	c->p += 2;
	return v;
}

static uint32_t cur32(struct cursor *c)
{
	uint32_t v;

	if (!cur_need(c, 4))
		return 0;
	v = le32(c->p);
	c->p += 4;
	return v;
}

static uint64_t cur64(struct cursor *c)
{
	uint64_t v;

	if (!cur_need(c, 8))
		return 0;
	v = le64(c->p);
	c->p += 8;
	return v;
}

/* a NUL-terminated string inside the data, "" when there is none */
static const char *curstr(struct cursor *c)
{
	const unsigned char *nul;
	const char *s;

	if (c->bad)
		return "";
	nul = memchr(c->p, '\0', c->end - c->p);
	if (!nul) {
		c->bad = true;
		c->p = c->end;
		return "";
	}
	s = (const char *)c->p;
	c->p = nul + 1;
	return s;
}

static int corrupt(struct tdat *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int corrupt(struct tdat *d, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ffr_error(d->path, "corrupt trace (truncated?): %s", msg);
}

/* a compressed block: <compressed size:4> <size:4> <zstd data> */
static int decompress(struct tdat *d, const unsigned char *p, uint64_t avail, unsigned char *out,
		      size_t outcap, uint32_t *outlen)
{
	unsigned long long fsize;
	uint32_t csize, usize;
	size_t ret;

	if (avail < 8)
		return corrupt(d, "compressed block header past the end of its data");
	csize = le32(p);
	usize = le32(p + 4);
	if (csize > avail - 8)
		return corrupt(d, "compressed block of %u bytes past the end of its data", csize);
	if (usize > outcap)
		return corrupt(d, "compressed block of %u bytes, more than %zu", usize, outcap);
	fsize = ZSTD_getFrameContentSize(p + 8, csize);
	if (fsize != ZSTD_CONTENTSIZE_UNKNOWN && fsize != usize)
		return corrupt(d, "compressed block of %u bytes holding %llu", usize, fsize);
	ret = ZSTD_decompressDCtx(d->zctx, out, usize, p + 8, csize);
	if (ZSTD_isError(ret) || ret != usize)
		return corrupt(d, "zstd: %s", ZSTD_isError(ret) ? ZSTD_getErrorName(ret) :
			       "short block");
	*outlen = usize;
	return 0;
}

/*
 * The data of the section at off, of the id expected: in the file, or
 * decompressed into *owned (NUL-terminated, for the text sections).
 */
static int section(struct tdat *d, uint64_t off, unsigned int id, const unsigned char **data,
		   size_t *len, unsigned char **owned)
{
	struct cursor c;
	unsigned int sid, flags;
	uint64_t size;
	uint32_t usize;

	*owned = NULL;
	if (off >= d->size)
		return corrupt(d, "section %u at offset %llu, past the end of the file", id,
			       (unsigned long long)off);
	c = (struct cursor){ d->map + off, d->map + d->size, false };
	sid = cur16(&c);
	flags = cur16(&c);
	cur32(&c);			/* the id of its description string */
	size = cur64(&c);
	if (c.bad || size > (uint64_t)(c.end - c.p))
		return corrupt(d, "section %u runs past the end of the file", id);
	if (sid != id)
		return corrupt(d, "section %u where section %u should be", sid, id);
	if (!(flags & TDAT_SEC_FL_COMPRESS)) {
		*data = c.p;
		*len = size;
		return 0;
	}
	if (!d->zstd)
		return corrupt(d, "compressed section %u in a file without compression", id);
	if (size < 8 || le32(c.p + 4) > TDAT_MAX_BLOCK)
		return corrupt(d, "section %u has a bad compression header", id);
	*owned = xmalloc(le32(c.p + 4) + 1);
	if (decompress(d, c.p, size, *owned, TDAT_MAX_BLOCK, &usize)) {
		free(*owned);
		*owned = NULL;
		return -1;
	}
	(*owned)[usize] = '\0';
	*data = *owned;
	*len = usize;
	return 0;
}

/* BUFFER: <offset:8> <name> <clock> <page size:4> <cpus:4> { <cpu:4> <offset:8> <size:8> } */
static int buffer_option(struct tdat *d, struct cursor *o, uint64_t *flyrecord)
{
	uint64_t off = cur64(o);
	const char *name = curstr(o);
	uint32_t psize, n, i;

	curstr(o);			/* trace clock */
	psize = cur32(o);
	n = cur32(o);
	if (o->bad)
		return corrupt(d, "short BUFFER option");
	if (*name || d->cpus)
		return 0;		/* another instance: not read */
	if (psize != d->page_size)
		return corrupt(d, "BUFFER option with page size %u, the file's is %u", psize,
			       d->page_size);
	if (n > TDAT_MAX_CPUS)
		return corrupt(d, "BUFFER option with %u CPUs", n);
	d->cpus = xcalloc(n ? n : 1, sizeof(*d->cpus));
	d->ncpus = n;
	for (i = 0; i < n; i++) {
		struct tdat_cpu *c = &d->cpus[i];

		c->cpu = cur32(o);
		c->offset = cur64(o);
		c->size = cur64(o);
		if (o->bad)
			return corrupt(d, "short BUFFER option");
		if (c->offset > d->size || c->size > d->size - c->offset)
			return corrupt(d, "CPU %d's data is past the end of the file", c->cpu);
	}
	*flyrecord = off;
	return 0;
}

/* options sections, from the first one on */
static int read_options(struct tdat *d, uint64_t off, uint64_t *flyrecord)
{
	unsigned int n;

	for (n = 0; off; n++) {
		const unsigned char *data;
		unsigned char *owned;
		struct cursor c;
		size_t len;
		int ret = 0;

		if (n == TDAT_MAX_SECTIONS)
			return corrupt(d, "more than %d options sections", TDAT_MAX_SECTIONS);
		if (section(d, off, TDAT_SEC_OPTIONS, &data, &len, &owned))
			return -1;
		c = (struct cursor){ data, data + len, false };
		off = 0;
		while (!ret && c.p < c.end) {
			unsigned int id = cur16(&c);
			uint32_t size = cur32(&c);
			struct cursor o;

			if (c.bad || size > (size_t)(c.end - c.p)) {
				ret = corrupt(d, "option %u runs past its section", id);
				break;
			}
			o = (struct cursor){ c.p, c.p + size, false };
			c.p += size;
			switch (id) {
			case TDAT_OPT_DONE:
				off = cur64(&o);
				c.p = c.end;
				break;
			case TDAT_OPT_BUFFER:
				ret = buffer_option(d, &o, flyrecord);
				break;
			case TDAT_OPT_TIME_SHIFT:
			case TDAT_OPT_TSC2NSEC:
				d->time_shift = true;
				break;
			case TDAT_OPT_HEADER_INFO:
				d->sec_header = cur64(&o);
				break;
			case TDAT_OPT_EVENT_FORMATS:
				d->sec_events = cur64(&o);
				break;
			case TDAT_OPT_KALLSYMS:
				d->sec_kallsyms = cur64(&o);
				break;
			case TDAT_OPT_CMDLINES:
				d->sec_cmdlines = cur64(&o);
				break;
			}
			if (!ret && o.bad)
				ret = corrupt(d, "option %u is too short", id);
		}
		free(owned);
		if (ret)
			return -1;
	}
	return 0;
}

/* the file header: magic, "7", endianness, long size, page size, compression */
static int read_header(struct tdat *d, uint64_t *options)
{
	struct cursor c = { d->map, d->map + d->size, false };
	const char *version, *comp;

	if (d->size < 10 || memcmp(d->map, TDAT_MAGIC, 10))
		return ffr_error(d->path, "not a trace-cmd trace (no trace.dat magic)");
	c.p += 10;
	version = curstr(&c);
	if (!c.bad && strcmp(version, "7"))
		return TDAT_UNSUPPORTED;
	if (!cur_need(&c, 2))
		return corrupt(d, "short file header");
	if (c.p[0] != 0)
		return TDAT_UNSUPPORTED;	/* big-endian */
	c.p += 2;			/* endianness, user space long size */
	d->page_size = cur32(&c);
	comp = curstr(&c);
	curstr(&c);			/* compression version */
	*options = cur64(&c);
	if (c.bad)
		return corrupt(d, "short file header");
	if (d->page_size < 1024 || d->page_size > (1u << 20) ||
	    (d->page_size & (d->page_size - 1)))
		return corrupt(d, "page size %u", d->page_size);
	if (!strcmp(comp, "zstd"))
		d->zstd = true;
	else if (strcmp(comp, "none"))
		return TDAT_UNSUPPORTED;	/* zlib */
	return 0;
}

/* the header, options and flyrecord section of the file in d->map */
static int tdat_init(struct tdat *d)
{
	uint64_t options = 0, flyrecord = 0;
	struct cursor c;
	unsigned int flags;
	int ret;

	d->zctx = ZSTD_createDCtx();
	if (!d->zctx)
		return ffr_error(d->path, "out of memory");
	ret = read_header(d, &options);
	if (!ret)
		ret = read_options(d, options, &flyrecord);
	if (!ret && !d->cpus)
		ret = TDAT_UNSUPPORTED;		/* latency trace, no flyrecord data */
	if (!ret && d->time_shift && d->ncpus > 1)
		ret = TDAT_UNSUPPORTED;		/* per-CPU clock corrections */
	if (ret)
		return ret;

	/* the flyrecord section's flags say whether the CPU data is compressed */
	if (flyrecord >= d->size)
		return corrupt(d, "flyrecord section past the end of the file");
	c = (struct cursor){ d->map + flyrecord, d->map + d->size, false };
	if (cur16(&c) != TDAT_SEC_BUFFER || c.bad)
		return corrupt(d, "no flyrecord section where the BUFFER option says");
	flags = cur16(&c);
	d->cpu_compressed = flags & TDAT_SEC_FL_COMPRESS;
	if (d->cpu_compressed && !d->zstd)
		return corrupt(d, "compressed flyrecord data in a file without compression");
	return 0;
}

int tdat_open(struct tdat *d, const char *path)
{
	struct stat st;
	void *map;
	int fd, ret;

	memset(d, 0, sizeof(*d));
	d->path = path;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ffr_error(path, "%s", strerror(errno));
	if (fstat(fd, &st)) {
		ret = ffr_error(path, "%s", strerror(errno));
		close(fd);
		return ret;
	}
	if (!S_ISREG(st.st_mode) || !st.st_size) {
		close(fd);
		return ffr_error(path, "empty or not a regular file");
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return ffr_error(path, "mmap: %s", strerror(errno));
	madvise(map, st.st_size, MADV_SEQUENTIAL);
	d->map = map;
	d->size = st.st_size;
	d->mapped = true;
	ret = tdat_init(d);
	if (ret)
		tdat_close(d);
	return ret;
}

int tdat_open_mem(struct tdat *d, const char *name, const void *buf, size_t size)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->path = name;
	d->map = buf;
	d->size = size;
	ret = tdat_init(d);
	if (ret)
		tdat_close(d);
	return ret;
}

void tdat_close(struct tdat *d)
{
	unsigned int i;

	for (i = 0; i < d->ncpus; i++)
		free(d->cpus[i].buf);
	free(d->cpus);
	if (d->mapped)
		munmap((void *)d->map, d->size);
	ZSTD_freeDCtx(d->zctx);
	if (d->tep)
		tep_free(d->tep);
	memset(d, 0, sizeof(*d));
}

/* ------------------------------------------------------------ metadata */

/* "header_page\0" <size:8> <format of the page header> "header_event\0" ... */
static int header_page(struct tdat *d)
{
	const unsigned char *data;
	unsigned char *owned;
	struct cursor c;
	uint64_t size;
	size_t len;
	char *text;
	int ret = 0;

	if (!d->sec_header)
		return corrupt(d, "no header page");
	if (section(d, d->sec_header, TDAT_OPT_HEADER_INFO, &data, &len, &owned))
		return -1;
	c = (struct cursor){ data, data + len, false };
	if (!cur_need(&c, 12) || memcmp(c.p, "header_page", 12)) {
		ret = corrupt(d, "no header page");
		goto out;
	}
	c.p += 12;
	size = cur64(&c);
	if (c.bad || size > (uint64_t)(c.end - c.p)) {
		ret = corrupt(d, "header page past the end of its section");
		goto out;
	}
	/* the parser wants a writable, NUL-terminated string */
	text = xstrndup((const char *)c.p, size);
	tep_parse_header_page(d->tep, text, size, 8);
	free(text);
	d->long_size = tep_get_header_page_size(d->tep);
	if (d->long_size != 4 && d->long_size != 8)
		ret = corrupt(d, "the header page's commit field has %u bytes", d->long_size);
	else if (tep_get_header_timestamp_size(d->tep) != 8)
		ret = corrupt(d, "the header page's time stamp is not 8 bytes");
out:
	free(owned);
	return ret;
}

static bool wanted(const char *const *systems, const char *sys)
{
	if (!systems)
		return true;
	for (; *systems; systems++)
		if (!strcmp(*systems, sys))
			return true;
	return false;
}

/* "<digits>;" at *p, moved past */
static bool number_then(const char **p, const char *end, char after)
{
	const char *q = *p;

	while (q < end && *q >= '0' && *q <= '9')
		q++;
	if (q == *p || q >= end || *q != after)
		return false;
	*p = q + 1;
	return true;
}

static bool ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/*
 * A field declaration as the kernel writes it, "<type> <name>": words
 * separated by one space, the last the name (an identifier, then "[N]"
 * for an array), the others the type's, made of identifiers, '*' and
 * "[]" or "[N]" after an identifier ("const char *const *", "char[]").
 */
static bool declaration(const char *p, const char *end)
{
	bool name = false;
	int words = 0;

	while (p < end) {
		if (words && *p++ != ' ')
			return false;
		if (p >= end || *p == ' ' || *p == '[')
			return false;
		name = true;		/* so far the word could be the name */
		while (p < end && *p != ' ') {
			if (*p == '*') {
				name = false;
				p++;
			} else if (ident_char(*p)) {
				if (*p >= '0' && *p <= '9')
					return false;	/* not an identifier */
				while (p < end && ident_char(*p))
					p++;
				while (p < end && *p == '[') {
					for (p++; p < end && *p >= '0' && *p <= '9'; p++)
						;
					if (p >= end || *p++ != ']')
						return false;
				}
			} else {
				return false;
			}
		}
		words++;
	}
	return words >= 2 && name;
}

/*
 * "<tab>field:<declaration>;<tab>offset:N;<tab>size:N;[<tab>signed:N;]", as
 * kernel/trace/trace_events.c writes it.
 */
static bool field_line(const char *p, const char *end)
{
	const char *semi;

	if (end - p < 7 || memcmp(p, "\tfield:", 7))
		return false;
	p += 7;
	semi = memchr(p, ';', end - p);
	if (!semi || !declaration(p, semi))
		return false;
	p = semi;
	if (end - p < 9 || memcmp(p, ";\toffset:", 9))
		return false;
	p += 9;
	if (!number_then(&p, end, ';') || end - p < 6 || memcmp(p, "\tsize:", 6))
		return false;
	p += 6;
	if (!number_then(&p, end, ';'))
		return false;
	if (p < end && (end - p < 8 || memcmp(p, "\tsigned:", 8)))
		return false;
	p += 8;
	return p >= end || (number_then(&p, end, ';') && p == end);
}

/*
 * The print fmt's brackets balance outside its string literals, which end:
 * libtraceevent 1.7.1 dereferences NULL on a cut one ("", __print_symbolic(REC->r).
 * Other malformed argument lists crash it too; those are not guarded against
 * (it would take its grammar), see fuzz/README.md.
 */
static bool balanced(const char *p, const char *end)
{
	char stack[64];
	int depth = 0;

	for (; p < end; p++) {
		switch (*p) {
		case '"':
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\')
					p++;
			if (p >= end)
				return false;
			break;
		case '(':
		case '[':
		case '{':
			if (depth == sizeof(stack))
				return false;
			stack[depth++] = *p == '(' ? ')' : *p == '[' ? ']' : '}';
			break;
		case ')':
		case ']':
		case '}':
			if (!depth || stack[--depth] != *p)
				return false;
			break;
		case '\0':
			return false;
		}
	}
	return !depth;
}

/*
 * libtraceevent 1.7.1 leaks or crashes on some malformed field declarations
 * (found by fuzzing: a '"', a byte that is not printable, a NUL, an
 * unclosed '[', a declaration of one word).  So what comes before the print
 * fmt is checked first to be what the kernel writes: "name:", "ID:" and
 * "format:" lines, and field lines as field_line() says; and the fields the
 * print fmt reads must be among them.  A format that is not is left out, as one
 * that does not parse.
 */
/* is name (len bytes) a field declared in the lines from text to end? */
static bool declared(const char *text, const char *end, const char *name, size_t len)
{
	const char *p, *nl, *semi, *w;

	for (p = text; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end + 1 - p);
		if (strncmp(p, "\tfield:", 7))
			continue;
		semi = memchr(p, ';', nl - p);
		for (w = semi; w[-1] != ' '; w--)
			;
		if ((size_t)(semi - w) >= len && !memcmp(w, name, len) &&
		    (semi - w == (long)len || w[len] == '['))
			return true;
	}
	return false;
}

/*
 * Every REC->field the print fmt reads is declared: libtraceevent 1.7.1
 * dereferences NULL on a __print_symbolic() of a field the format lacks.
 */
static bool fields_declared(const char *text, const char *fmt, const char *end)
{
	const char *p = fmt, *q;

	while ((p = memmem(p, end - p, "REC->", 5))) {
		for (p += 5, q = p; q < end && ident_char(*q); q++)
			;
		if (!declared(text, fmt, p, q - p))
			return false;
		p = q;
	}
	return true;
}

static bool sane_format(const char *text, size_t size)
{
	const char *end = memmem(text, size, "\nprint fmt:", 11), *p, *nl;

	if (!end || !balanced(end, text + size))
		return false;
	for (p = text; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end + 1 - p);
		if (nl == p)
			continue;
		if (!strncmp(p, "name: ", 6) || !strncmp(p, "ID: ", 4) ||
		    !strncmp(p, "format:", 7)) {
			if (memchr(p, '\0', nl - p) || memchr(p, '"', nl - p))
				return false;
			continue;
		}
		if (!field_line(p, nl))
			return false;
	}
	return fields_declared(text, end, text + size);
}

/* <systems:4> { <name> <count:4> { <size:8> <format> } } */
static int event_formats(struct tdat *d, const char *const *systems)
{
	const unsigned char *data;
	unsigned char *owned;
	struct cursor c;
	uint32_t nsys, i, n, k;
	size_t len;
	int ret = 0;

	if (!d->sec_events)
		return corrupt(d, "no event formats");
	if (section(d, d->sec_events, TDAT_OPT_EVENT_FORMATS, &data, &len, &owned))
		return -1;
	c = (struct cursor){ data, data + len, false };
	nsys = cur32(&c);
	for (i = 0; i < nsys && !c.bad; i++) {
		const char *sys = curstr(&c);
		bool want = wanted(systems, sys);

		n = cur32(&c);
		for (k = 0; k < n && !c.bad; k++) {
			uint64_t size = cur64(&c);

			if (size > (uint64_t)(c.end - c.p)) {
				c.bad = true;
				break;
			}
			/* like libtracecmd, a format that does not parse is left out */
			if (want && sane_format((const char *)c.p, size))
				tep_parse_event(d->tep, (const char *)c.p, size, sys);
			c.p += size;
		}
	}
	if (c.bad)
		ret = corrupt(d, "event formats past the end of their section");
	free(owned);
	return ret;
}

/* <size:8> <saved_cmdlines text> */
static int cmdlines(struct tdat *d)
{
	const unsigned char *data;
	unsigned char *owned;
	struct cursor c;
	uint64_t size;
	size_t len;
	char *text;
	int ret = 0;

	if (!d->sec_cmdlines)
		return 0;
	if (section(d, d->sec_cmdlines, TDAT_OPT_CMDLINES, &data, &len, &owned))
		return -1;
	c = (struct cursor){ data, data + len, false };
	size = cur64(&c);
	if (c.bad || size > (uint64_t)(c.end - c.p)) {
		ret = corrupt(d, "saved command lines past the end of their section");
	} else {
		text = xstrndup((const char *)c.p, size);
		tep_parse_saved_cmdlines(d->tep, text);
		free(text);
	}
	free(owned);
	return ret;
}

int tdat_load_meta(struct tdat *d, const char *const *systems)
{
	int ret;

	d->tep = tep_alloc();
	if (!d->tep)
		return ffr_error(d->path, "out of memory");
	tep_set_file_bigendian(d->tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(d->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_page_size(d->tep, d->page_size);
	tep_set_cpus(d->tep, d->ncpus);
	tdat_parse_lock();
	ret = header_page(d);
	if (!ret)
		ret = event_formats(d, systems);
	if (!ret)
		ret = cmdlines(d);
	tdat_parse_unlock();
	if (!ret)
		tep_set_long_size(d->tep, d->long_size);
	return ret;
}

char *tdat_kallsyms(struct tdat *d, size_t *len, int *err)
{
	const unsigned char *data;
	unsigned char *owned;
	struct cursor c;
	uint32_t size;
	size_t slen;
	char *text = NULL;

	*err = 0;
	if (!d->sec_kallsyms)
		return NULL;
	if (section(d, d->sec_kallsyms, TDAT_OPT_KALLSYMS, &data, &slen, &owned)) {
		*err = -1;
		return NULL;
	}
	c = (struct cursor){ data, data + slen, false };
	size = cur32(&c);
	if (c.bad || size > (size_t)(c.end - c.p)) {
		*err = corrupt(d, "kallsyms past the end of their section");
	} else {
		text = xstrndup((const char *)c.p, size);
		if (len)
			*len = strlen(text);
	}
	free(owned);
	return text;
}

const void *tdat_kallsyms_raw(struct tdat *d, size_t *len)
{
	uint64_t off = d->sec_kallsyms, size;

	if (!off || off >= d->size || d->size - off < 16)
		return NULL;
	size = le64(d->map + off + 8);
	if (size > d->size - off - 16)
		return NULL;
	*len = 16 + size;
	return d->map + off;
}

/* ------------------------------------------------------------ records */

static int next_chunk(struct tdat *d, struct tdat_cpu *c)
{
	const unsigned char *p = c->next_chunk;
	uint32_t csize, usize;

	if (c->end - p < 8)
		return corrupt(d, "CPU %d: chunk header past the end of its data", c->cpu);
	csize = le32(p);
	usize = le32(p + 4);
	if (csize > (size_t)(c->end - p - 8))
		return corrupt(d, "CPU %d: chunk past the end of its data", c->cpu);
	if (usize % d->page_size || usize > TDAT_MAX_BLOCK)
		return corrupt(d, "CPU %d: chunk of %u bytes, not whole pages", c->cpu, usize);
	if (usize > c->bufcap) {
		free(c->buf);
		c->buf = xmalloc(usize);
		c->bufcap = usize;
	}
	if (decompress(d, p, c->end - p, c->buf, c->bufcap, &usize))
		return -1;
	c->page = c->buf;
	c->page_end = c->buf + usize;
	c->next_chunk = p + 8 + csize;
	c->chunks_left--;
	return 0;
}

/*
 * Page header: <time stamp:8> <commit:long>, commit holding the size of the
 * events and, in its top bits, whether events were lost before the page
 * (and whether their count follows the events).
 */
static int load_page(struct tdat *d, struct tdat_cpu *c, const unsigned char *p)
{
	unsigned int hdr = 8 + d->long_size, room = d->page_size - hdr;
	uint64_t flags = d->long_size == 8 ? le64(p + 8) : le32(p + 8);

	c->ts = le64(p);
	c->commit = flags & RB_COMMIT_MASK;
	if (c->commit > room)
		return corrupt(d, "CPU %d: page with %u bytes of events, room for %u", c->cpu,
			       c->commit, room);
	c->data = p + hdr;
	c->off = 0;
	c->lost = 0;
	if (flags & RB_MISSED_EVENTS) {
		c->lost = -1;
		if (flags & RB_MISSED_STORED) {
			if (room - c->commit < d->long_size)
				return corrupt(d, "CPU %d: lost-events count past the page",
					       c->cpu);
			/* kbuffer_missed_events() returns an int */
			c->lost = (int)(d->long_size == 8 ? le64(c->data + c->commit) :
					le32(c->data + c->commit));
		}
	}
	return 0;
}

/* 1: c->data is the next page; 0: no more pages */
static int next_page(struct tdat *d, struct tdat_cpu *c)
{
	const unsigned char *p;
	size_t avail;

	while (c->page >= c->page_end) {
		if (!d->cpu_compressed || !c->chunks_left)
			return 0;
		if (next_chunk(d, c))
			return -1;
	}
	avail = c->page_end - c->page;
	p = c->page;
	if (avail < d->page_size) {
		/* uncompressed data ending in a partial page: read it zero-padded */
		if (!c->buf) {
			c->buf = xcalloc(1, d->page_size);
			c->bufcap = d->page_size;
		}
		memset(c->buf, 0, d->page_size);
		memcpy(c->buf, p, avail);
		p = c->buf;
		c->page = c->page_end;
	} else {
		c->page += d->page_size;
	}
	if (load_page(d, c, p))
		return -1;
	return 1;
}

/*
 * The next data event of the page into c->rec: 1, or 0 at the end of the
 * page.  Event header: <type_len:5 time_delta:27>; type_len 1..28 is a data
 * event of type_len * 4 bytes, 0 one whose length comes next, then the
 * padding, time-extend and absolute time-stamp entries.
 */
static int page_record(struct tdat *d, struct tdat_cpu *c)
{
	while (c->off < c->commit) {
		const unsigned char *e = c->data + c->off;
		unsigned int room = c->commit - c->off, type, delta, len, hlen;
		uint32_t h, a = 0;

		if (room < 4)
			return corrupt(d, "CPU %d: event header past the page's events", c->cpu);
		h = le32(e);
		type = h & 31;
		delta = h >> 5;
		if (type == RB_TYPE_PADDING && !delta)
			return 0;		/* the rest of the page is padding */
		if (type > RB_TYPE_DATA_MAX || type == 0) {
			if (room < 8)
				return corrupt(d, "CPU %d: event header past the page's events",
					       c->cpu);
			a = le32(e + 4);
		}
		switch (type) {
		case RB_TYPE_PADDING:		/* a discarded event */
			c->ts += delta;
			if (a > room - 4)
				return 0;
			c->off += 4 + a;
			if (!a)
				return corrupt(d, "CPU %d: empty discarded event", c->cpu);
			continue;
		case RB_TYPE_TIME_EXTEND:
			c->ts += ((unsigned long long)a << RB_TS_SHIFT) + delta;
			c->off += 8;
			continue;
		case RB_TYPE_TIME_STAMP:
			c->ts = ((unsigned long long)a << RB_TS_SHIFT | delta) |
				(c->ts & RB_TS_MSB);
			c->off += 8;
			continue;
		case 0:
			if (a < 4)
				return corrupt(d, "CPU %d: event of length %u", c->cpu, a);
			len = (a - 4 + 3) & ~3u;
			hlen = 8;
			break;
		default:
			len = type * 4;
			hlen = 4;
			break;
		}
		if (len > room - hlen)
			return corrupt(d, "CPU %d: event of %u bytes past the page's events",
				       c->cpu, len);
		c->ts += delta;
		c->rec.data = e + hlen;
		c->rec.size = len;
		c->rec.ts = c->ts;
		c->rec.cpu = c->cpu;
		/* as kbuffer: only an event at the very start of the page has the count */
		c->rec.missed = c->off ? 0 : c->lost;
		c->off += hlen + len;
		return 1;
	}
	return 0;
}

/* the CPU's next record into c->rec: 1, 0 at its end, -1 on corrupt data */
static int cpu_next(struct tdat *d, struct tdat_cpu *c)
{
	int ret;

	for (;;) {
		if (c->data) {
			ret = page_record(d, c);
			if (ret)
				return ret;
		}
		ret = next_page(d, c);
		if (ret <= 0) {
			c->data = NULL;
			return ret;
		}
	}
}

static int cpu_start(struct tdat *d, struct tdat_cpu *c)
{
	const unsigned char *p = d->map + c->offset;

	c->data = NULL;
	if (!d->cpu_compressed) {
		c->page = p;
		c->page_end = p + c->size;
		return 0;
	}
	c->page = c->page_end = NULL;
	c->chunks_left = 0;
	if (!c->size)
		return 0;
	/* <count:4> then the chunks, which the size counts */
	if (d->size - c->offset < 4 || c->size > d->size - c->offset - 4)
		return corrupt(d, "CPU %d: chunks past the end of the file", c->cpu);
	c->chunks_left = le32(p);
	c->next_chunk = p + 4;
	c->end = p + 4 + c->size;
	return 0;
}

int tdat_iterate(struct tdat *d, tdat_record_fn fn, void *ctx)
{
	struct tdat_cpu *c, *best;
	unsigned int i;
	int ret;

	if (!d->long_size)
		return ffr_error(d->path, "tdat_iterate() before tdat_load_meta()");
	for (i = 0; i < d->ncpus; i++)
		if (cpu_start(d, &d->cpus[i]))
			return -1;
	if (d->ncpus == 1) {
		c = &d->cpus[0];
		while ((ret = cpu_next(d, c)) > 0) {
			ret = fn(ctx, &c->rec);
			if (ret < 0)
				return ret;
		}
		return ret;
	}

	for (i = 0; i < d->ncpus; i++) {
		ret = cpu_next(d, &d->cpus[i]);
		if (ret < 0)
			return ret;
		d->cpus[i].has_rec = ret;
	}
	for (;;) {
		/* the earliest record; on a tie the CPU listed first, like libtracecmd */
		best = NULL;
		for (i = 0; i < d->ncpus; i++) {
			c = &d->cpus[i];
			if (c->has_rec && (!best || c->rec.ts < best->rec.ts))
				best = c;
		}
		if (!best)
			return 0;
		ret = fn(ctx, &best->rec);
		if (ret < 0)
			return ret;
		ret = cpu_next(d, best);
		if (ret < 0)
			return ret;
		best->has_rec = ret;
	}
}
