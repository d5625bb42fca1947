// SPDX-License-Identifier: MIT
/*
 * test_hpa_report: `ssdlab hpa`'s text, JSON and --set sizes (cli/hpa_report.c) over the state
 * of a scripted drive (hpa_drive.h). Hand-worked: 1,000,000 sectors of 512 bytes (native max
 * LBA 999,999, 512,000,000 bytes); 80% -> 800,000 sectors -> max LBA 799,999; "400000000"
 * bytes -> 781,250 sectors -> 781,249; "200m" = 209,715,200 bytes -> 409,600 sectors ->
 * 409,599; 100% -> 999,999; 511 bytes is less than a sector; 600,000,000 bytes is more than
 * the drive; an HPA at 899,999 hides 100,000 x 512 = 51,200,000 bytes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "cli/hpa_report.h"

#include "hpa_drive.h"

static struct ata_hpa_state probe(struct hpa_drive *d)
{
	struct ioctl_ops ops = {.sg_io = hpa_drive_sg_io, .ctx = d};
	struct ata_hpa_state st;
	char err[256];

	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), 0);
	return st;
}

static void test_target(void **state)
{
	(void)state;
	struct hpa_drive d = {.native_max_lba = 999999, .current_max_lba = 999999};
	struct ata_hpa_state st = probe(&d);
	static const struct {
		const char *spec;
		int ret;
		uint64_t max;
	} rows[] = {
	    {"80%", 0, 799999},	 {"400000000", 0, 781249}, {"200m", 0, 409599},
	    {"100%", 0, 999999}, {"511", -ERANGE, 0},	   {"600000000", -ERANGE, 0},
	    {"0%", -EINVAL, 0},	 {"101%", -EINVAL, 0},	   {"lots", -EINVAL, 0},
	};
	char err[256];

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		uint64_t max = 12345;
		assert_int_equal(hpa_report_target(&st, rows[i].spec, &max, err, sizeof err),
				 rows[i].ret);
		assert_int_equal(max, rows[i].ret ? 12345 : rows[i].max);
	}
}

static void test_text_json(void **state)
{
	(void)state;
	struct hpa_drive d = {.native_max_lba = 999999, .current_max_lba = 899999, .frozen = true};
	struct ata_hpa_state st = probe(&d);
	char buf[4096] = "";
	FILE *f = fmemopen(buf, sizeof buf, "w");
	struct json_object *j, *v;

	assert_non_null(f);
	hpa_report_text(f, "/dev/sdz", &st);
	fclose(f);
	assert_non_null(strstr(buf, "/dev/sdz: SCRIPTED HPA DRIVE (serial HPA0001)"));
	assert_non_null(strstr(buf, "native max    LBA 999999 (1000000 sectors, 512000000 bytes)"));
	assert_non_null(strstr(buf, "current max   LBA 899999 (900000 sectors, 460800000 bytes)"));
	assert_non_null(strstr(buf, "hidden        51200000 bytes"));
	assert_non_null(strstr(buf, "method        HPA"));
	assert_non_null(strstr(buf, "DCO           not supported"));
	assert_non_null(strstr(buf, "security      frozen"));
	j = hpa_report_json("/dev/sdz", &st, "refused");
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "hidden_bytes", &v));
	assert_int_equal(json_object_get_uint64(v), 51200000);
	assert_true(json_object_object_get_ex(j, "method", &v));
	assert_string_equal(json_object_get_string(v), "HPA");
	assert_true(json_object_object_get_ex(j, "native_max_lba", &v));
	assert_int_equal(json_object_get_uint64(v), 999999);
	assert_true(json_object_object_get_ex(j, "refusal", &v));
	assert_string_equal(json_object_get_string(v), "refused");
	json_object_put(j);
	/* no refusal and no DCO page: JSON nulls */
	j = hpa_report_json("/dev/sdz", &st, NULL);
	assert_non_null(j);
	assert_true(json_object_object_get_ex(j, "refusal", &v));
	assert_null(v);
	json_object_put(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_target),
	    cmocka_unit_test(test_text_json),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
