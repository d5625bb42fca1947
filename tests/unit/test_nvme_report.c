// SPDX-License-Identifier: MIT
/*
 * test_nvme_report: cli/nvme_report (the NVMe parts of `info` and `smart`) through a scripted
 * admin table. An Intel controller (VID 0x8086) with endurance groups (CTRATT 0x10), VWC present
 * and enabled, APST supported and disabled, SANICAP 0x5 (crypto + overwrite), WCTEMP 0x0164 =
 * 356 K = 82.85 C, CCTEMP 0 (not reported); its namespace uses format 1 of 2 (FLBAS 0x01; LBAF1 =
 * 0x010c0008 -> 4096 B data, 8 B metadata, RP 1), ENDGID 3. Logs: 0x09 for LSI 3 (cdw11 0x00030000)
 * with DUW 4000 and MUW 10000; 0xC0 with a GUID of zeroes (absent, the GUID in the reason); 0xCA
 * with a 0xF4 record of raw 2500. The JSON and text say exactly these values.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/nvme_report.h"
#include "nvme_script.h"

static uint8_t ctrl[4096], ns[4096], endu[512], ocp[512], intel[512];

static struct nvme_script_row rows[] = {
	{.opcode = 0x06, .cdw10 = 0x01, .data = ctrl, .len = 4096},
	{.opcode = 0x06, .cdw10 = 0x00, .data = ns, .len = 4096},
	{.opcode = 0x0a, .cdw10 = 0x06, .result = 1},
	{.opcode = 0x0a, .cdw10 = 0x0c, .result = 0},
	{.opcode = 0x02, .cdw10 = 0x007f0009, .data = endu, .len = 512},
	{.opcode = 0x02, .cdw10 = 0x007f00c0, .data = ocp, .len = 512},
	{.opcode = 0x02, .cdw10 = 0x007f00ca, .data = intel, .len = 512},
};

static int setup(void **state)
{
	(void)state;
	memset(ctrl, 0, sizeof ctrl);
	nvme_put_le(ctrl, 0x8086, 2);
	memcpy(ctrl + 4, "SN1", 3);
	memcpy(ctrl + 24, "MODEL X", 7);
	nvme_put_le(ctrl + 96, 0x10, 4);
	ctrl[265] = 1;				/* APSTA */
	nvme_put_le(ctrl + 266, 0x0164, 2);	/* WCTEMP 356 K */
	nvme_put_le(ctrl + 328, 0x5, 4);	/* SANICAP */
	ctrl[525] = 1;				/* VWC present */
	memset(ns, 0, sizeof ns);
	ns[25] = 1;
	ns[26] = 0x01;
	nvme_put_le(ns + 102, 3, 2);
	nvme_put_le(ns + 128, 0x02090000, 4);
	nvme_put_le(ns + 132, 0x010c0008, 4);
	memset(endu, 0, sizeof endu);
	nvme_put_le(endu + 64, 4000, 8);
	nvme_put_le(endu + 80, 10000, 8);
	memset(ocp, 0, sizeof ocp);
	memset(intel, 0, sizeof intel);
	intel[0] = 0xf4;
	nvme_put_le(intel + 5, 2500, 6);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		rows[i].calls = 0;
	return 0;
}

static char *text_of(void (*fn)(FILE *, const void *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

static void ident_text(FILE *f, const void *id)
{
	nvme_report_ident_text(f, id);
}

static void logs_text(FILE *f, const void *lg)
{
	nvme_report_logs_text(f, lg);
}

static struct json_object *path(struct json_object *o, const char *a, const char *b, const char *c)
{
	struct json_object *x = o;
	const char *k[3] = {a, b, c};

	for (int i = 0; i < 3 && k[i]; i++)
		if (!json_object_object_get_ex(x, k[i], &x))
			fail_msg("no key %s", k[i]);
	return x;
}

static void test_ident(void **state)
{
	(void)state;
	struct nvme_script s = {.rows = rows, .n = sizeof rows / sizeof rows[0]};
	struct ioctl_ops ops = nvme_script_ops(&s);
	struct drive_ident_nvme id;
	struct json_object *o = json_object_new_object();
	char *t;

	drive_ident_nvme_fd(&ops, 5, 2, &id);
	assert_true(id.ok);
	assert_int_equal(rows[1].seen.nsid, 2);
	assert_int_equal(id.vwc_enabled, 1);
	assert_int_equal(id.apst_enabled, 0);
	assert_int_equal(drive_ident_nvme_json(o, &id), 0);
	assert_string_equal(json_object_get_string(path(o, "nvme_identify", "model", NULL)), "MODEL X");
	assert_int_equal(json_object_get_int(path(o, "nvme_identify", "lba_format", "data_bytes")), 4096);
	assert_int_equal(json_object_get_int(path(o, "nvme_identify", "lba_format", "metadata_bytes")), 8);
	assert_int_equal(json_object_get_int(path(o, "nvme_identify", "lba_format", "relative_performance")), 1);
	assert_int_equal(json_object_array_length(path(o, "nvme_identify", "lba_formats", NULL)), 2);
	assert_int_equal(json_object_get_int(path(o, "nvme_identify", "endgid", NULL)), 3);
	assert_true(json_object_get_boolean(path(o, "nvme_identify", "volatile_write_cache", "enabled")));
	assert_false(json_object_get_boolean(path(o, "nvme_identify", "apst", "enabled")));
	assert_true(json_object_get_boolean(path(o, "nvme_identify", "apst", "supported")));
	assert_string_equal(json_object_to_json_string_ext(path(o, "nvme_identify", "capabilities", "sanitize"),
							   JSON_C_TO_STRING_PLAIN),
			    "[\"crypto\",\"overwrite\"]");
	assert_true(json_object_get_boolean(path(o, "nvme_identify", "capabilities", "endurance_groups")));
	assert_float_equal(json_object_get_double(path(o, "nvme_identify", "warning_temp_c", NULL)), 82.85, 1e-9);
	assert_null(path(o, "nvme_identify", "critical_temp_c", NULL)); /* not reported: null */
	json_object_put(o);

	t = text_of(ident_text, &id);
	assert_non_null(strstr(t, "  LBA format    #1: 4096 B data, 8 B metadata, relative performance 1; of #0 512+0 rp2 #1 4096+8 rp1\n"));
	assert_non_null(strstr(t, "  VWC           present yes, enabled yes\n"));
	assert_non_null(strstr(t, "  APST          supported yes, enabled no\n"));
	assert_non_null(strstr(t, "sanitize crypto overwrite,"));
	assert_non_null(strstr(t, "  temperature   warning 82.85 C, critical not reported\n"));
	free(t);

	/* Identify failing: the reason, not an exit */
	rows[0].status = -EACCES;
	drive_ident_nvme_fd(&ops, 5, 2, &id);
	rows[0].status = 0;
	assert_false(id.ok);
	assert_string_equal(id.err, "Identify Controller: Permission denied");
	o = json_object_new_object();
	assert_int_equal(drive_ident_nvme_json(o, &id), 0);
	assert_string_equal(json_object_get_string(path(o, "nvme_identify", "error", NULL)), id.err);
	json_object_put(o);
}

static void test_logs(void **state)
{
	(void)state;
	struct nvme_script s = {.rows = rows, .n = sizeof rows / sizeof rows[0]};
	struct ioctl_ops ops = nvme_script_ops(&s);
	struct nvme_report_logs *lg = malloc(sizeof *lg);
	struct json_object *raw = json_object_new_object();
	char *t;

	assert_non_null(lg);
	nvme_report_logs_read(&ops, 5, 2, lg);
	assert_int_equal(s.unmatched, 0);
	assert_int_equal(rows[4].seen.cdw11, 0x00030000);
	assert_int_equal(nvme_report_logs_json(raw, lg), 0);
	assert_true(json_object_get_boolean(path(raw, "endurance_group", "present", NULL)));
	assert_string_equal(json_object_get_string(path(raw, "endurance_group", "counters", "media_units_written")),
			    "10000");
	assert_string_equal(json_object_get_string(path(raw, "endurance_group", "counters", "data_units_written")),
			    "4000");
	assert_false(json_object_get_boolean(path(raw, "ocp_c0", "present", NULL)));
	assert_string_equal(json_object_get_string(path(raw, "ocp_c0", "reason", NULL)),
			    "log page GUID 00000000000000000000000000000000 is not the OCP SMART/Health Extended one");
	assert_int_equal(json_object_object_length(path(raw, "ocp_c0", "counters", NULL)), 0);
	assert_string_equal(json_object_get_string(path(raw, "intel_ca", "counters", "nand_bytes_written")), "2500");
	assert_int_equal(json_object_get_int(path(raw, "intel_ca", "log_id", NULL)), 0xca);
	assert_null(path(raw, "intel_ca", "reason", NULL));
	json_object_put(raw);

	t = text_of(logs_text, lg);
	assert_non_null(strstr(t, "Endurance Group Information log (0x09)\n"));
	assert_non_null(strstr(t, "  media_units_written      10000 x 512000 bytes\n"));
	assert_non_null(strstr(t, "OCP SMART/Health Extended log (0xC0): absent: log page GUID 0000"));
	assert_non_null(strstr(t, "  nand_bytes_written       2500 x 32 MiB (unverified unit)\n"));
	free(t);
	free(lg);
}

static void test_dry(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	nvme_report_smart_dry(f, 7);
	fclose(f);
	/* six commands, each one line; the namespace's Identify names nsid 7 */
	int lines = 0;
	for (char *p = buf; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 6);
	assert_non_null(strstr(buf, "opcode 0x06 (Identify), nsid 0x00000007, cdw10 0x00000000 (CNS 0x00 Namespace"));
	assert_non_null(strstr(buf, "cdw10 0x007f00ca (log id 0xca Intel vendor SMART, NUMDL 127)"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_ident, setup),
		cmocka_unit_test_setup(test_logs, setup),
		cmocka_unit_test(test_dry),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
