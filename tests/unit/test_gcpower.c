/* SPDX-License-Identifier: MIT */
/*
 * test_gcpower: the power states reported with a GC result (analysis/gcpower.h), from hand-made
 * manifests: the runner's own record (manifest.power_states) copied as is and preferred; an NVMe
 * drive's identify APST {supported, enabled} as enabled, disabled, not supported or unknown; a
 * SATA drive's HIPM/DIPM/DevSleep; the virtual SSD ("none"); a file ("unknown").
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "analysis/gcpower.h"

static struct json_object *power(const char *manifest)
{
	struct json_object *m = manifest ? json_tokener_parse(manifest) : NULL, *o;
	int e = 0;

	if (manifest)
		assert_non_null(m);
	o = gcpower_json(m, &e);
	assert_int_equal(e, 0);
	assert_non_null(o);
	json_object_put(m);
	return o;
}

static const char *str(struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool is_null(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) && !v;
}

#define NVME(sup, en)                                                                              \
	"{\"target\": {\"kind\": \"uring\", \"drive\": {\"transport\": \"nvme\", "                 \
	"\"nvme_identify\":"                                                                       \
	" {\"apst\": {\"supported\": " sup ", \"enabled\": " en "}}}}}"

static void test_nvme_apst(void **state)
{
	static const struct {
		const char *m, *want;
	} c[] = {
	    {NVME("true", "true"), "enabled"},
	    {NVME("true", "false"), "disabled"},
	    {NVME("true", "null"), "unknown"}, /* Get Features refused */
	    {NVME("false", "false"), "not_supported"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct json_object *o = power(c[i].m);

		assert_string_equal(str(o, "apst"), c[i].want);
		assert_string_equal(str(o, "source"), "drive.nvme_identify");
		assert_non_null(str(o, "note"));
		json_object_put(o);
	}
}

static void test_ata(void **state)
{
	struct json_object *o, *d, *v;

	(void)state;
	o = power(
	    "{\"target\": {\"kind\": \"uring\", \"drive\": {\"transport\": \"sata\", \"ata\": "
	    "{\"hipm\": {\"supported\": true, \"enabled\": true}, \"dipm\": {\"supported\": "
	    "true, \"enabled\": false}}}}}");
	assert_string_equal(str(o, "apst"), "not_applicable");
	assert_string_equal(str(o, "alpm"), "in_use");
	assert_string_equal(str(o, "source"), "drive.ata");
	assert_true(json_object_object_get_ex(o, "dipm", &d));
	assert_true(json_object_object_get_ex(d, "enabled", &v));
	assert_false(json_object_get_boolean(v));
	assert_true(is_null(o, "devslp")); /* absent in the manifest: unknown */
	json_object_put(o);
	o = power("{\"target\": {\"drive\": {\"ata\": {\"hipm\": {\"supported\": false, "
		  "\"enabled\": false}}}}}");
	assert_string_equal(str(o, "alpm"), "not_in_use");
	json_object_put(o);
	o = power("{\"target\": {\"drive\": {\"ata\": {}}}}"); /* words 76-79 absent */
	assert_string_equal(str(o, "alpm"), "unknown");
	json_object_put(o);
}

static void test_recorded_wins(void **state)
{
	struct json_object *o, *r, *v;

	(void)state;
	/* the runner's record and the identify disagree: the record is what was in force */
	o = power("{\"power_states\": {\"apst\": false, \"ps\": 0}, \"target\": {\"kind\": "
		  "\"uring\", \"drive\": {\"nvme_identify\": {\"apst\": {\"supported\": true, "
		  "\"enabled\": true}}}}}");
	assert_string_equal(str(o, "apst"), "recorded");
	assert_string_equal(str(o, "source"), "manifest.power_states");
	assert_true(json_object_object_get_ex(o, "recorded", &r));
	assert_true(json_object_object_get_ex(r, "ps", &v));
	assert_int_equal(json_object_get_int(v), 0);
	assert_true(json_object_object_get_ex(r, "apst", &v));
	assert_false(json_object_get_boolean(v));
	json_object_put(o);
}

static void test_sim_and_unknown(void **state)
{
	struct json_object *o;

	(void)state;
	o = power("{\"target\": {\"kind\": \"sim\"}}");
	assert_string_equal(str(o, "apst"), "none");
	assert_true(is_null(o, "source"));
	json_object_put(o);
	o = power("{\"target\": {\"kind\": \"uring\"}}"); /* a file: no drive */
	assert_string_equal(str(o, "apst"), "unknown");
	json_object_put(o);
	o = power(NULL);
	assert_string_equal(str(o, "apst"), "unknown");
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nvme_apst),
	    cmocka_unit_test(test_ata),
	    cmocka_unit_test(test_recorded_wins),
	    cmocka_unit_test(test_sim_and_unknown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
