/* SPDX-License-Identifier: MIT */
/*
 * jsonnum: locale-independent, round-trip-exact JSON numbers (see jsonnum.h).
 */
#include "base/jsonnum.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

/* 2^53: every integer up to here is exactly a double. */
#define JSONNUM_EXACT_INT 9007199254740992.0

const char *jsonnum_fmt(double v, char *buf, size_t len)
{
	/*
	 * The "C" locale object for LC_ALL is static in glibc (no allocation); uselocale() switches
	 * only this thread, so printf and strtod agree on '.' without touching the process locale.
	 */
	locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	locale_t old = c ? uselocale(c) : (locale_t)0;

	if (!len)
		goto out;
	if (!isfinite(v)) {
		snprintf(buf, len, "null");
		goto out;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	/* Without a "C" locale object (ENOMEM), printf used the caller's: fix its decimal point. */
	if (!c) {
		char *comma = strchr(buf, ',');

		if (comma)
			*comma = '.';
	}
out:
	if (c) {
		uselocale(old);
		freelocale(c);
	}
	return buf;
}

struct json_object *jsonnum_new(double v)
{
	char buf[40];

	if (!isfinite(v))
		return NULL;
	if (v == floor(v) && fabs(v) <= JSONNUM_EXACT_INT)
		return json_object_new_int64((int64_t)v);
	return json_object_new_double_s(v, jsonnum_fmt(v, buf, sizeof(buf)));
}

static int member(struct json_object *o, const char *key, struct json_object **x)
{
	if (!o || !json_object_is_type(o, json_type_object))
		return -EINVAL;
	if (!json_object_object_get_ex(o, key, x) || !*x)
		return -ENOENT;
	if (!json_object_is_type(*x, json_type_int) && !json_object_is_type(*x, json_type_double))
		return -EINVAL;
	return 0;
}

int jsonnum_get(struct json_object *o, const char *key, double *v)
{
	struct json_object *x;
	int rc = member(o, key, &x);

	if (rc)
		return rc;
	*v = json_object_get_double(x);
	return 0;
}

int jsonnum_get_u64(struct json_object *o, const char *key, uint64_t *v)
{
	struct json_object *x;
	int rc = member(o, key, &x);
	double d;

	if (rc)
		return rc;
	if (json_object_is_type(x, json_type_int)) {
		/* json-c keeps values above INT64_MAX as uint64. */
		if (json_object_get_int64(x) < 0)
			return -EINVAL;
		*v = json_object_get_uint64(x);
		return 0;
	}
	d = json_object_get_double(x);
	if (!(d >= 0) || d != floor(d) || d > JSONNUM_EXACT_INT)
		return -EINVAL;
	*v = (uint64_t)d;
	return 0;
}

int jsonnum_add(struct json_object *o, const char *key, struct json_object *v)
{
	if (json_object_object_add(o, key, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

int jsonnum_push(struct json_object *a, struct json_object *v)
{
	if (json_object_array_add(a, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

void jsonnum_build_add(struct json_object *o, const char *key, struct json_object *v, int *e)
{
	if (!*e && (!o || !v))
		*e = -ENOMEM;
	if (*e) {
		json_object_put(v);
		return;
	}
	*e = jsonnum_add(o, key, v);
}

void jsonnum_build_num(struct json_object *o, const char *key, double v, int *e)
{
	struct json_object *n = jsonnum_new(v);

	/* jsonnum_new returns NULL for a JSON null too: only a finite v makes NULL a failure. */
	if (!*e && (!o || (!n && isfinite(v))))
		*e = -ENOMEM;
	if (*e) {
		json_object_put(n);
		return;
	}
	*e = jsonnum_add(o, key, n);
}

void jsonnum_build_push(struct json_object *a, struct json_object *v, int *e)
{
	if (!*e && (!a || !v))
		*e = -ENOMEM;
	if (*e) {
		json_object_put(v);
		return;
	}
	*e = jsonnum_push(a, v);
}
