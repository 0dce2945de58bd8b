// SPDX-License-Identifier: GPL-2.0
/* Numbers of the members of jansson objects, checked before conversion. */
#include "json_number.h"

double member_num(const json_t *obj, const char *key, double def)
{
	json_t *j = json_object_get(obj, key);

	return json_is_number(j) ? json_number_value(j) : def;
}

long long member_int(const json_t *obj, const char *key, long long def, long long min,
		     long long max, bool *bad)
{
	json_t *j = json_object_get(obj, key);
	double v;

	if (!json_is_number(j))
		return def;
	v = json_number_value(j);
	/* NaN fails both; 2^63 itself does not fit */
	if (!(v >= (double)min && v < (double)max + 1.0) || v != (double)(long long)v) {
		*bad = true;
		return def;
	}
	return (long long)v;
}
