// SPDX-License-Identifier: GPL-2.0
/*
 * A recursive-descent JSON reader.  Nodes and strings come from a chunked
 * arena so that a 1 MB gcov document costs a handful of allocations.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "util.h"

#define JSON_MAX_DEPTH	256
#define CHUNK		(256 * 1024)

struct chunk {
	struct chunk	*next;
	size_t		used;
	size_t		size;
	char		data[];
};

struct json_doc {
	struct chunk	*chunks;
	struct json	*root;
	const char	*p;
	const char	*end;
	const char	*start;
	char		*err;
	size_t		errlen;
	bool		failed;
};

static void *arena(struct json_doc *d, size_t size)
{
	struct chunk *c = d->chunks;

	size = (size + 15) & ~(size_t)15;
	if (!c || c->used + size > c->size) {
		size_t n = size > CHUNK ? size : CHUNK;

		c = xmalloc(sizeof(*c) + n);
		c->size = n;
		c->used = 0;
		c->next = d->chunks;
		d->chunks = c;
	}
	c->used += size;
	return c->data + c->used - size;
}

static void fail(struct json_doc *d, const char *what)
{
	const char *q;
	int line = 1;

	if (d->failed)
		return;
	d->failed = true;
	for (q = d->start; q < d->p && q < d->end; q++)
		line += *q == '\n';
	snprintf(d->err, d->errlen, "line %d: %s", line, what);
}

static void skip_ws(struct json_doc *d)
{
	while (d->p < d->end && (*d->p == ' ' || *d->p == '\t' || *d->p == '\n' || *d->p == '\r'))
		d->p++;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void put_utf8(char **o, unsigned int cp)
{
	char *q = *o;

	if (cp < 0x80) {
		*q++ = cp;
	} else if (cp < 0x800) {
		*q++ = 0xc0 | (cp >> 6);
		*q++ = 0x80 | (cp & 0x3f);
	} else if (cp < 0x10000) {
		*q++ = 0xe0 | (cp >> 12);
		*q++ = 0x80 | ((cp >> 6) & 0x3f);
		*q++ = 0x80 | (cp & 0x3f);
	} else {
		*q++ = 0xf0 | (cp >> 18);
		*q++ = 0x80 | ((cp >> 12) & 0x3f);
		*q++ = 0x80 | ((cp >> 6) & 0x3f);
		*q++ = 0x80 | (cp & 0x3f);
	}
	*o = q;
}

/* at the opening quote; the decoded string is never longer than the source */
static char *parse_string(struct json_doc *d)
{
	const char *s = ++d->p;
	char *out, *o;

	while (d->p < d->end && *d->p != '"') {
		if (*d->p == '\\')
			d->p++;
		d->p++;
	}
	if (d->p >= d->end) {
		fail(d, "unterminated string");
		return NULL;
	}
	o = out = arena(d, d->p - s + 1);
	while (s < d->p) {
		unsigned int cp;
		int i, h;

		if ((unsigned char)*s < 0x20) {
			fail(d, "control character in string");
			return NULL;
		}
		if (*s != '\\') {
			*o++ = *s++;
			continue;
		}
		s++;
		switch (*s++) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			cp = 0;
			for (i = 0; i < 4; i++) {
				h = s < d->p ? hexval(*s++) : -1;
				if (h < 0) {
					fail(d, "bad \\u escape");
					return NULL;
				}
				cp = cp << 4 | h;
			}
			/* a lone surrogate becomes U+FFFD; pairs are joined */
			if (cp >= 0xd800 && cp < 0xdc00 && d->p - s >= 6 && s[0] == '\\' &&
			    s[1] == 'u') {
				unsigned int lo = 0;

				for (i = 2; i < 6 && hexval(s[i]) >= 0; i++)
					lo = lo << 4 | hexval(s[i]);
				if (i == 6 && lo >= 0xdc00 && lo < 0xe000) {
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
					s += 6;
				}
			}
			if (cp >= 0xd800 && cp < 0xe000)
				cp = 0xfffd;
			put_utf8(&o, cp);
			break;
		default:
			fail(d, "bad escape in string");
			return NULL;
		}
	}
	*o = '\0';
	d->p++;
	return out;
}

static struct json *parse_value(struct json_doc *d, int depth);

static struct json *node(struct json_doc *d, enum json_type type)
{
	struct json *j = arena(d, sizeof(*j));

	memset(j, 0, sizeof(*j));
	j->type = type;
	return j;
}

static struct json *parse_container(struct json_doc *d, int depth, bool object)
{
	struct json *j = node(d, object ? JSON_OBJECT : JSON_ARRAY);
	struct json **kids = NULL;
	size_t n = 0, cap = 0;
	char close = object ? '}' : ']';

	d->p++;
	skip_ws(d);
	if (d->p < d->end && *d->p == close) {
		d->p++;
		return j;
	}
	for (;;) {
		struct json *kid;
		char *key = NULL;

		skip_ws(d);
		if (object) {
			if (d->p >= d->end || *d->p != '"') {
				fail(d, "expected a member name");
				goto err;
			}
			key = parse_string(d);
			if (!key)
				goto err;
			skip_ws(d);
			if (d->p >= d->end || *d->p != ':') {
				fail(d, "expected ':'");
				goto err;
			}
			d->p++;
		}
		kid = parse_value(d, depth + 1);
		if (!kid)
			goto err;
		kid->key = key;
		grow(&kids, &cap, n + 1, sizeof(*kids));
		kids[n++] = kid;
		skip_ws(d);
		if (d->p < d->end && *d->p == ',') {
			d->p++;
			continue;
		}
		if (d->p < d->end && *d->p == close) {
			d->p++;
			break;
		}
		fail(d, object ? "expected ',' or '}'" : "expected ',' or ']'");
		goto err;
	}
	j->n = n;
	j->kids = arena(d, n * sizeof(*kids));
	memcpy(j->kids, kids, n * sizeof(*kids));
	free(kids);
	return j;
err:
	free(kids);
	return NULL;
}

static bool literal(struct json_doc *d, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(d->end - d->p) < n || memcmp(d->p, word, n))
		return false;
	d->p += n;
	return true;
}

static struct json *parse_value(struct json_doc *d, int depth)
{
	struct json *j;
	char *endp;

	if (depth > JSON_MAX_DEPTH) {
		fail(d, "nested too deeply");
		return NULL;
	}
	skip_ws(d);
	if (d->p >= d->end) {
		fail(d, "unexpected end of input");
		return NULL;
	}
	switch (*d->p) {
	case '{':
		return parse_container(d, depth, true);
	case '[':
		return parse_container(d, depth, false);
	case '"':
		j = node(d, JSON_STRING);
		j->str = parse_string(d);
		return j->str ? j : NULL;
	case 't':
		if (literal(d, "true"))
			return node(d, JSON_TRUE);
		break;
	case 'f':
		if (literal(d, "false"))
			return node(d, JSON_FALSE);
		break;
	case 'n':
		if (literal(d, "null"))
			return node(d, JSON_NULL);
		break;
	default:
		if (*d->p != '-' && (*d->p < '0' || *d->p > '9'))
			break;
		j = node(d, JSON_NUMBER);
		j->num = strtod(d->p, &endp);
		if (endp == d->p)
			break;
		d->p = endp;
		return j;
	}
	fail(d, "unexpected character");
	return NULL;
}

struct json_doc *json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct json_doc *d = xcalloc(1, sizeof(*d));

	d->start = d->p = text;
	d->end = text + len;
	d->err = err;
	d->errlen = errlen;
	d->root = parse_value(d, 0);
	if (d->root) {
		skip_ws(d);
		if (d->p != d->end)
			fail(d, "trailing characters after the document");
	}
	if (d->failed || !d->root) {
		json_free(d);
		return NULL;
	}
	return d;
}

struct json *json_root(struct json_doc *doc)
{
	return doc->root;
}

void json_free(struct json_doc *doc)
{
	struct chunk *c, *next;

	if (!doc)
		return;
	for (c = doc->chunks; c; c = next) {
		next = c->next;
		free(c);
	}
	free(doc);
}

struct json *json_get(const struct json *obj, const char *key)
{
	unsigned int i;

	if (!obj || obj->type != JSON_OBJECT)
		return NULL;
	for (i = 0; i < obj->n; i++)
		if (!strcmp(obj->kids[i]->key, key))
			return obj->kids[i];
	return NULL;
}

double json_num(const struct json *obj, const char *key, double def)
{
	struct json *j = json_get(obj, key);

	return j && j->type == JSON_NUMBER ? j->num : def;
}

long long json_int(const struct json *obj, const char *key, long long def, long long min,
		   long long max, bool *bad)
{
	struct json *j = json_get(obj, key);
	double v;

	if (!j || j->type != JSON_NUMBER)
		return def;
	v = j->num;
	/* NaN fails both; 2^63 itself does not fit */
	if (!(v >= (double)min && v < (double)max + 1.0) || v != (double)(long long)v) {
		*bad = true;
		return def;
	}
	return (long long)v;
}

const char *json_str(const struct json *obj, const char *key)
{
	struct json *j = json_get(obj, key);

	return j && j->type == JSON_STRING ? j->str : NULL;
}
