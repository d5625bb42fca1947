/* SPDX-License-Identifier: MIT */
/* jsonget: see jsonget.h. */
#include "base/jsonget.h"

#include <errno.h>
#include <math.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

const char *jsonget_str(struct json_object *o, const char *key)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_string))
		return NULL;
	return json_object_get_string(x);
}

int jsonget_int(struct json_object *o, const char *key, int64_t *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_int))
		return -EINVAL;
	*v = json_object_get_int64(x);
	return 0;
}

bool jsonget_true(struct json_object *o, const char *key)
{
	struct json_object *x;

	return json_object_object_get_ex(o, key, &x) && json_object_is_type(x, json_type_boolean) &&
	       json_object_get_boolean(x);
}

double jsonget_num(struct json_object *o, const char *key)
{
	double v;

	return jsonnum_get(o, key, &v) ? NAN : v;
}
