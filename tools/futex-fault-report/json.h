/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small JSON reader (RFC 8259) for gcov's JSON, the results' run.json and
 * campaign.json, and report.json in the plugin.  The document is parsed into
 * a tree of nodes allocated from one arena, freed at once.
 */
#ifndef FFR_JSON_H
#define FFR_JSON_H

#include <stdbool.h>
#include <stddef.h>

enum json_type {
	JSON_NULL,
	JSON_FALSE,
	JSON_TRUE,
	JSON_NUMBER,
	JSON_STRING,
	JSON_ARRAY,
	JSON_OBJECT,
};

struct json {
	enum json_type	type;
	unsigned int	n;		/* children of an array or object */
	char		*key;		/* member name, inside an object */
	union {
		double		num;
		char		*str;
		struct json	**kids;
	};
};

struct json_doc;

/*
 * Parse text (NUL-terminated, len bytes).  On error returns NULL and
 * writes a message with the line number into err.
 */
struct json_doc *json_parse(const char *text, size_t len, char *err, size_t errlen);
struct json *json_root(struct json_doc *doc);
void json_free(struct json_doc *doc);

/* member of an object, NULL if absent or not an object */
struct json *json_get(const struct json *obj, const char *key);
/* the value of a number member, def if absent or not a number */
double json_num(const struct json *obj, const char *key, double def);
/*
 * The value of a number member as an integer in [min, max]; def if absent
 * or not a number.  A number that is not an integer in that range gives def
 * too and sets *bad: converting it to an integer type is undefined.
 */
long long json_int(const struct json *obj, const char *key, long long def, long long min,
		   long long max, bool *bad);
/* the value of a string member, NULL if absent or not a string */
const char *json_str(const struct json *obj, const char *key);

#endif /* FFR_JSON_H */
