// SPDX-License-Identifier: MIT
/*
 * summary_check: cmocka checks of values in a summary.json (or any JSON) by JSON pointer, shared
 * by the tests that analyze a results directory (test_wa_drives, test_wa_scripted). Include
 * after <cmocka.h>. A number is compared to 1e-12 relative (1e-12 absolute below 1), so a value
 * worked by hand in the same double arithmetic matches.
 */
#ifndef SSDLAB_TEST_SUMMARY_CHECK_H
#define SSDLAB_TEST_SUMMARY_CHECK_H

#include <json-c/json.h>
#include <json-c/json_pointer.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* The value at ptr (NULL for JSON null); fails the test when there is no such key. */
static inline struct json_object *at(struct json_object *o, const char *ptr)
{
	struct json_object *x = NULL;

	if (json_pointer_get(o, ptr, &x))
		fail_msg("no %s in the summary", ptr);
	return x;
}

static inline void num_is(struct json_object *o, const char *ptr, double want)
{
	struct json_object *x = at(o, ptr);
	double got = json_object_get_double(x);

	if (!x)
		fail_msg("%s is null, expected %.17g", ptr, want);
	if (!(fabs(got - want) <= 1e-12 * (fabs(want) > 1 ? fabs(want) : 1)))
		fail_msg("%s = %.17g, expected %.17g", ptr, got, want);
}

static inline void null_is(struct json_object *o, const char *ptr)
{
	if (at(o, ptr))
		fail_msg("%s = %s, expected null", ptr, json_object_to_json_string(at(o, ptr)));
}

static inline void str_is(struct json_object *o, const char *ptr, const char *want)
{
	if (!at(o, ptr))
		fail_msg("%s is null, expected \"%s\"", ptr, want);
	if (strcmp(json_object_get_string(at(o, ptr)), want))
		fail_msg("%s = %s, expected \"%s\"", ptr, json_object_get_string(at(o, ptr)), want);
}

static inline void bool_is(struct json_object *o, const char *ptr, bool want)
{
	if (!at(o, ptr))
		fail_msg("%s is null, expected %d", ptr, want);
	if (json_object_get_boolean(at(o, ptr)) != want)
		fail_msg("%s = %d, expected %d", ptr, !want, want);
}

static inline size_t len_of(struct json_object *o, const char *ptr)
{
	return json_object_array_length(at(o, ptr));
}

#endif
