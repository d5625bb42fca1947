/* SPDX-License-Identifier: MIT */
/*
 * test_jsonnum: JSON numbers of the results directory: shortest round-trip text, integers
 * without a fraction, null for NaN/infinity, '.' under a comma-decimal locale (when de_DE.UTF-8
 * is installed; tests/integration/locale_test.sh installs it), and the getters' refusals.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "base/jsonnum.h"

static const struct {
	double v;
	const char *text; /* as serialized by json-c; NULL = JSON null */
} cases[] = {
    {0.1, "0.1"},
    {0.3, "0.3"},
    {-0.3, "-0.3"},
    {1.0 / 3.0, "0.3333333333333333"},	/* 16 digits read back; 15 do not */
    {0.1 + 0.2, "0.30000000000000004"}, /* needs all 17 */
    {100, "100"},
    {-0.0, "0"},
    {4294967296.0 * 4096, "17592186044416"},
    {9007199254740992.0, "9007199254740992"}, /* 2^53: still an integer */
    {1e300, "1e+300"},
    {2.5e-7, "2.5e-07"},
    {NAN, NULL},
    {INFINITY, NULL},
    {-INFINITY, NULL},
};

static void check_cases(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct json_object *o = jsonnum_new(cases[i].v), *back;
		const char *t;

		if (!cases[i].text) {
			assert_null(o);
			continue;
		}
		assert_non_null(o);
		t = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
		if (strcmp(t, cases[i].text))
			fail_msg("%.17g printed as %s, expected %s", cases[i].v, t, cases[i].text);
		/* Reads back bit-identical. */
		back = json_tokener_parse(t);
		assert_non_null(back);
		assert_true(json_object_get_double(back) == cases[i].v);
		json_object_put(back);
		json_object_put(o);
	}
}

static void test_format(void **state)
{
	(void)state;
	check_cases();
}

static void test_format_comma_locale(void **state)
{
	char buf[16];

	(void)state;
	if (!setlocale(LC_ALL, "de_DE.UTF-8")) {
		print_message("de_DE.UTF-8 is not installed (tests/integration/locale_test.sh generates it)\n");
		skip();
	}
	snprintf(buf, sizeof(buf), "%.1f", 0.5);
	assert_string_equal(buf, "0,5"); /* the premise */
	check_cases();
	assert_string_equal(jsonnum_fmt(0.25, buf, sizeof(buf)), "0.25");
	setlocale(LC_ALL, "C");
}

static void test_get(void **state)
{
	struct json_object *o = json_tokener_parse(
	    "{\"i\": 42, \"d\": 1.5, \"big\": 18446744073709551615, \"neg\": -1, \"s\": \"7\","
	    " \"n\": null, \"whole\": 3.0}");
	double d = -1;
	uint64_t u = 7;

	(void)state;
	assert_non_null(o);
	assert_int_equal(jsonnum_get(o, "i", &d), 0);
	assert_true(d == 42);
	assert_int_equal(jsonnum_get(o, "d", &d), 0);
	assert_true(d == 1.5);
	assert_int_equal(jsonnum_get_u64(o, "big", &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(jsonnum_get_u64(o, "whole", &u), 0);
	assert_true(u == 3);
	u = 7;
	assert_int_equal(jsonnum_get_u64(o, "neg", &u), -EINVAL);
	assert_int_equal(jsonnum_get_u64(o, "d", &u), -EINVAL);
	assert_int_equal(jsonnum_get_u64(o, "s", &u), -EINVAL);
	assert_int_equal(jsonnum_get(o, "s", &d), -EINVAL);
	assert_int_equal(jsonnum_get(o, "n", &d), -ENOENT);
	assert_int_equal(jsonnum_get(o, "missing", &d), -ENOENT);
	assert_int_equal(jsonnum_get(NULL, "i", &d), -EINVAL);
	assert_true(u == 7 && d == 1.5); /* untouched by the failures */
	json_object_put(o);
}

/* jsonnum_add and jsonnum_push take their value in every case; NULL is a JSON null. */
static void test_add_push(void **state)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();

	(void)state;
	assert_non_null(o);
	assert_non_null(a);
	assert_int_equal(jsonnum_push(a, jsonnum_new(0.5)), 0);
	assert_int_equal(jsonnum_push(a, jsonnum_new(NAN)), 0);
	assert_int_equal(jsonnum_add(o, "a", a), 0);
	assert_int_equal(jsonnum_add(o, "n", NULL), 0);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"a\":[0.5,null],\"n\":null}");
	json_object_put(o);
}

/* The build helpers keep the first error and free every later value; NaN is null, not an
 * error; a NULL value or container (json-c out of memory) is -ENOMEM. */
static void test_build(void **state)
{
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	int e = 0;

	(void)state;
	assert_non_null(o);
	assert_non_null(a);
	jsonnum_build_num(o, "x", 2.5, &e);
	jsonnum_build_num(o, "nan", NAN, &e);
	jsonnum_build_push(a, json_object_new_int(1), &e);
	jsonnum_build_add(o, "a", a, &e);
	assert_int_equal(e, 0);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    "{\"x\":2.5,\"nan\":null,\"a\":[1]}");
	jsonnum_build_add(o, "failed", NULL, &e); /* a value json-c could not make */
	assert_int_equal(e, -ENOMEM);
	jsonnum_build_add(o, "later", json_object_new_int(3), &e); /* freed, not added */
	jsonnum_build_num(o, "later_num", 1, &e);
	jsonnum_build_push(NULL, json_object_new_int(4), &e);
	assert_int_equal(e, -ENOMEM);
	assert_int_equal(json_object_object_length(o), 3);
	e = 0;
	jsonnum_build_num(NULL, "x", 1, &e); /* a container json-c could not make */
	assert_int_equal(e, -ENOMEM);
	e = 0;
	jsonnum_build_push(NULL, json_object_new_int(5), &e);
	assert_int_equal(e, -ENOMEM);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_format),
	    cmocka_unit_test(test_format_comma_locale),
	    cmocka_unit_test(test_get),
	    cmocka_unit_test(test_add_push),
	    cmocka_unit_test(test_build),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
