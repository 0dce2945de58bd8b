/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers of the members of jansson objects. */
#ifndef FFR_JSON_NUMBER_H
#define FFR_JSON_NUMBER_H

#include <stdbool.h>

#include <jansson.h>

/*
 * The documents are loaded with JSON_DECODE_INT_AS_REAL: every number is a
 * double, as gcov writes them ("count": 5 or 5.0).
 *
 * member_num(): the number member key of obj; def if obj is not an object,
 * or the member is absent or not a number.
 * member_int(): the same as an integer in [min, max].  A number that is not
 * an integer in that range gives def too and sets *bad: converting it to an
 * integer type is undefined.
 */
double member_num(const json_t *obj, const char *key, double def);
long long member_int(const json_t *obj, const char *key, long long def, long long min,
		     long long max, bool *bad);

#endif /* FFR_JSON_NUMBER_H */
