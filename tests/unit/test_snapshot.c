/* SPDX-License-Identifier: MIT */
/*
 * test_snapshot: the counter snapshot format: set/replace/get, capacity and name limits, the
 * JSON round trip (counters, units, raw source data, exact integers above 2^32) and refusal of
 * malformed JSON without touching the output (WA between two snapshots: test_wa).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "results/snapshot.h"

static void test_set_get(void **state)
{
	struct snapshot s;
	char name[32];

	(void)state;
	snapshot_init(&s, "sim");
	assert_string_equal(s.source, "sim");
	assert_int_equal(s.n, 0);
	assert_null(snapshot_get(&s, "host_bytes_written"));
	assert_int_equal(snapshot_set(&s, "host_bytes_written", "bytes", 4096), 0);
	assert_int_equal(snapshot_set(&s, "temperature_c", "celsius", 41.5), 0);
	assert_int_equal(snapshot_set(&s, "host_bytes_written", "bytes", 8192), 0); /* replace */
	assert_int_equal(s.n, 2);
	assert_true(snapshot_get(&s, "host_bytes_written")->value == 8192);
	assert_string_equal(snapshot_get(&s, "temperature_c")->unit, "celsius");
	/* Names that do not fit are refused, not truncated into another counter's name. */
	assert_int_equal(
	    snapshot_set(&s, "a_counter_name_that_is_far_too_long_for_the_field_x", "bytes", 1),
	    -ENAMETOOLONG);
	assert_int_equal(snapshot_set(&s, "", "bytes", 1), -EINVAL);
	for (int i = 2; i < SNAPSHOT_MAX_COUNTERS; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		assert_int_equal(snapshot_set(&s, name, "count", i), 0);
	}
	assert_int_equal(snapshot_set(&s, "one_too_many", "count", 1), -ENOSPC);
	/* Replacing still works when full. */
	assert_int_equal(snapshot_set(&s, "c2", "count", 7), 0);
	assert_true(snapshot_get(&s, "c2")->value == 7);
	snapshot_release(&s);
	snapshot_release(NULL);
}

static void test_json_roundtrip(void **state)
{
	/* 3 PiB + 1: above 2^32 and still an exact double (< 2^53). */
	const double big = 3.0 * 1125899906842624.0 + 1;
	struct snapshot s, t;
	struct json_object *o, *x;
	const char *text;

	(void)state;
	snapshot_init(&s, "nvme-smart");
	snprintf(s.label, sizeof(s.label), "phase-2-end");
	s.target_ns = 123456789012345ull;
	assert_int_equal(snapshot_set(&s, "host_bytes_written", "bytes", big), 0);
	assert_int_equal(snapshot_set(&s, "nand_bytes_written", "bytes", 2 * big), 0);
	assert_int_equal(snapshot_set(&s, "temperature_c", "celsius", 36.6), 0);
	s.raw = json_tokener_parse("{\"log_page_02\": \"00ff\"}");
	assert_non_null(s.raw);

	o = snapshot_to_json(&s);
	assert_non_null(o);
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	/* Integers print as integers, the decimal as the shortest exact form. */
	assert_non_null(strstr(text, "\"value\":3377699720527873,"));
	assert_non_null(strstr(text, "\"value\":36.6,"));
	assert_non_null(strstr(text, "\"schema\":1"));
	/* Through text and back. */
	x = json_tokener_parse(text);
	assert_non_null(x);
	assert_int_equal(snapshot_from_json(x, &t), 0);
	assert_string_equal(t.source, "nvme-smart");
	assert_string_equal(t.label, "phase-2-end");
	assert_true(t.target_ns == 123456789012345ull);
	assert_int_equal(t.n, 3);
	assert_string_equal(t.c[0].name, "host_bytes_written"); /* order kept */
	assert_true(t.c[0].value == big);
	assert_true(t.c[1].value == 2 * big);
	assert_true(t.c[2].value == 36.6);
	assert_string_equal(t.c[2].unit, "celsius");
	assert_non_null(t.raw);
	assert_string_equal(json_object_to_json_string_ext(t.raw, JSON_C_TO_STRING_PLAIN),
			    "{\"log_page_02\":\"00ff\"}");
	/* The same snapshot serializes to the same bytes. */
	json_object_put(o);
	o = snapshot_to_json(&t);
	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN),
			    json_object_to_json_string_ext(x, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	json_object_put(x);
	snapshot_release(&s);
	snapshot_release(&t);
}

static void test_json_invalid(void **state)
{
	static const char *bad[] = {
	    "[]",
	    "{\"source\":\"sim\",\"label\":\"x\",\"target_ns\":0,\"counters\":{}}", /* no schema */
	    "{\"schema\":2,\"source\":\"sim\",\"label\":\"x\",\"target_ns\":0,\"counters\":{}}",
	    "{\"schema\":1,\"source\":\"sim\",\"label\":\"x\",\"target_ns\":-1,\"counters\":{}}",
	    "{\"schema\":1,\"source\":\"sim\",\"label\":\"x\",\"target_ns\":0,\"counters\":[]}",
	    "{\"schema\":1,\"source\":\"sim\",\"label\":\"x\",\"target_ns\":0,"
	    "\"counters\":{\"a\":{\"value\":\"1\",\"unit\":\"bytes\"}}}",
	    "{\"schema\":1,\"source\":\"sim\",\"label\":\"x\",\"target_ns\":0,"
	    "\"counters\":{\"a\":{\"value\":null,\"unit\":\"bytes\"}}}",
	    "{\"schema\":1,\"source\":\"sim\",\"label\":\"x\",\"target_ns\":0,"
	    "\"counters\":{\"a\":{\"value\":1}}}",
	};
	struct snapshot t;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct json_object *o = json_tokener_parse(bad[i]);

		assert_non_null(o);
		memset(&t, 0x5a, sizeof(t));
		if (snapshot_from_json(o, &t) != -EINVAL)
			fail_msg("accepted: %s", bad[i]);
		for (size_t b = 0; b < sizeof(t); b++)
			assert_int_equal(((unsigned char *)&t)[b], 0x5a);
		json_object_put(o);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_set_get),
	    cmocka_unit_test(test_json_roundtrip),
	    cmocka_unit_test(test_json_invalid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
