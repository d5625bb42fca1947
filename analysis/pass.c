/* SPDX-License-Identifier: MIT */
/*
 * pass: the helpers every analysis pass shares (pass.h): the error text and the checked adds of
 * integer and string members.
 */
#include "analysis/pass.h"

#include <stdarg.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "base/jsonnum.h"

/* The caller's error text, through the one helper (base/errmsg.h). */
void pass_err(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	(void)errmsg_vset(err, len, 0, fmt, ap);
	va_end(ap);
}

int pass_add_int(struct json_object *o, const char *key, int64_t v)
{
	return jsonnum_add(o, key, json_object_new_int64(v));
}

int pass_add_str(struct json_object *o, const char *key, const char *s)
{
	return jsonnum_add(o, key, s ? json_object_new_string(s) : NULL);
}
