// SPDX-License-Identifier: MIT
/*
 * test_nvme_logs: host/nvme_logs through a scripted admin table, pages built here byte by byte:
 *   - Endurance Group log 0x09 for ENDGID 0x0102: Get Log Page nsid 0, cdw10 = 0x09 | 127 << 16
 *     = 0x007f0009 (NUMD = 512/4 - 1 = 127), cdw11 = LSI << 16 = 0x01020000. Page: spare 99,
 *     threshold 10, used 7, DUR 10000, DUW 20000, MUW 60000 (so MUW/DUW = 3), host writes
 *     123456. MUW 0 is left out ("unknown"), never a 0.
 *   - Not asked for: CTRATT bit 4 clear, ENDGID 0, a non-Intel vendor for 0xCA.
 *   - OCP 0xC0 (nsid 0xffffffff, cdw10 0x007f00c0): right GUID (bytes 496.. C5 AF 10 28 EA BF F2
 *     A4 9C 4F 6F 7C C9 14 D5 AF, the reference's) -> physical media written 2^32 + 5 =
 *     4,294,967,301 bytes, read 1234, version 3; the GUID reversed -> absent with the GUID it
 *     found; status 0x4002 (Invalid Field, DNR) -> absent "not supported"; a high half -> overflow.
 *   - Intel 0xCA (cdw10 0x007f00ca): a 0xAB record ignored, 0xF4 raw 100000, 0xF5 raw 50000.
 *   - A transport failure is an error, a status other than Invalid Field an absent log.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "host/nvme_admin.h"
#include "host/nvme_logs.h"
#include "nvme_script.h"

static const uint8_t ocp_guid[16] = {0xC5, 0xAF, 0x10, 0x28, 0xEA, 0xBF, 0xF2, 0xA4,
				     0x9C, 0x4F, 0x6F, 0x7C, 0xC9, 0x14, 0xD5, 0xAF};
static uint8_t endu[512], ocp[512], intel[512];

static void build_pages(void)
{
	memset(endu, 0, sizeof endu);
	endu[3] = 99;
	endu[4] = 10;
	endu[5] = 7;
	nvme_put_le(endu + 48, 10000, 8);
	nvme_put_le(endu + 64, 20000, 8);
	nvme_put_le(endu + 80, 60000, 8);
	nvme_put_le(endu + 112, 123456, 8);

	memset(ocp, 0, sizeof ocp);
	nvme_put_le(ocp + 0, 0x100000005ull, 8);
	nvme_put_le(ocp + 16, 1234, 8);
	nvme_put_le(ocp + 494, 3, 2);
	memcpy(ocp + 496, ocp_guid, 16);

	memset(intel, 0, sizeof intel);
	intel[0] = 0xab; /* program fail count: not a write counter */
	nvme_put_le(intel + 5, 77, 6);
	intel[12] = 0xf4;
	intel[15] = 100; /* normalized */
	nvme_put_le(intel + 17, 100000, 6);
	intel[24] = 0xf5;
	intel[27] = 100;
	nvme_put_le(intel + 29, 50000, 6);
}

static uint64_t get(const struct devcounters *dc, const char *key)
{
	const struct devcounter *c = devcounters_get(dc, key);
	if (!c)
		fail_msg("no counter %s", key);
	return c->value;
}

static void test_lsi_cmd(void **state)
{
	(void)state;
	uint8_t buf[512];
	struct nvme_admin_cmd c;
	char d[512];

	nvme_get_log_lsi_cmd(&c, 0, NVME_LOG_ENDURANCE, 0x0102, buf, sizeof buf);
	assert_int_equal(c.opcode, 0x02);
	assert_int_equal(c.nsid, 0);
	assert_int_equal(c.cdw10, 0x007f0009);
	assert_int_equal(c.cdw11, 0x01020000);
	nvme_cmd_describe(&c, d, sizeof d);
	assert_non_null(strstr(d, "cdw10 0x007f0009 (log id 0x09 Endurance Group Information, NUMDL 127), "
				  "cdw11 0x01020000 (NUMDU 0, log specific id 258)"));
}

static void test_all_three(void **state)
{
	(void)state;
	struct nvme_script_row rows[] = {
		{.opcode = 0x02, .cdw10 = 0x007f0009, .data = endu, .len = 512},
		{.opcode = 0x02, .cdw10 = 0x007f00c0, .data = ocp, .len = 512},
		{.opcode = 0x02, .cdw10 = 0x007f00ca, .data = intel, .len = 512},
	};
	struct nvme_script s = {.rows = rows, .n = 3};
	struct ioctl_ops ops = nvme_script_ops(&s);
	struct nvme_id_ctrl c = {.vid = 0x8086, .ctratt = 0x10};
	struct nvme_id_ns ns = {.endgid = 0x0102};
	struct nvme_log_state st[3];
	struct devcounters dc;
	char err[128] = "";

	build_pages();
	devcounters_init(&dc);
	assert_int_equal(nvme_extra_logs_read(&ops, 3, &c, &ns, &dc, st, err, sizeof err), 0);
	assert_int_equal(s.unmatched, 0);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(rows[i].calls, 1);
		assert_true(st[i].present);
	}
	assert_int_equal(rows[0].seen.nsid, 0);
	assert_int_equal(rows[0].seen.cdw11, 0x01020000);
	assert_int_equal(rows[1].seen.nsid, 0xffffffffu);
	assert_int_equal(rows[2].seen.nsid, 0xffffffffu);
	assert_int_equal(st[0].lid, 0x09);
	assert_string_equal(st[0].reason, "");

	assert_int_equal(get(&dc, "nvme:endurance.available_spare"), 99);
	assert_int_equal(get(&dc, "nvme:endurance.spare_threshold"), 10);
	assert_int_equal(get(&dc, "nvme:endurance.percentage_used"), 7);
	assert_int_equal(get(&dc, "nvme:endurance.data_units_read"), 10000);
	assert_int_equal(get(&dc, "nvme:endurance.data_units_written"), 20000);
	assert_int_equal(get(&dc, "nvme:endurance.media_units_written"), 60000);
	assert_int_equal(get(&dc, "nvme:endurance.host_write_cmds"), 123456);
	assert_int_equal(get(&dc, "nvme:endurance.media_units_written") / get(&dc, "nvme:endurance.data_units_written"), 3);

	assert_true(get(&dc, "nvme:ocp_c0.physical_media_written") == 4294967301ull);
	assert_int_equal(get(&dc, "nvme:ocp_c0.physical_media_read"), 1234);
	assert_int_equal(get(&dc, "nvme:ocp_c0.log_page_version"), 3);
	assert_null(devcounters_get(&dc, "nvme:ocp_c0.physical_media_written.overflow"));

	assert_int_equal(get(&dc, "nvme:intel_ca.nand_bytes_written"), 100000);
	assert_int_equal(get(&dc, "nvme:intel_ca.host_bytes_written"), 50000);
}

static void test_not_asked(void **state)
{
	(void)state;
	struct nvme_script_row rows[] = {{.opcode = 0x02, .cdw10 = 0x007f00c0, .status = 0x4002}};
	struct nvme_script s = {.rows = rows, .n = 1};
	struct ioctl_ops ops = nvme_script_ops(&s);
	/* QEMU's controller: vendor 0x1b36, no endurance groups */
	struct nvme_id_ctrl c = {.vid = 0x1b36, .ctratt = 0};
	struct nvme_id_ns ns = {.endgid = 1};
	struct nvme_log_state st[3];
	struct devcounters dc;
	char err[128] = "";

	devcounters_init(&dc);
	assert_int_equal(nvme_extra_logs_read(&ops, 3, &c, &ns, &dc, st, err, sizeof err), 0);
	assert_int_equal(s.calls, 1); /* only 0xC0 was asked */
	assert_false(st[0].present);
	assert_non_null(strstr(st[0].reason, "CTRATT bit 4"));
	assert_false(st[1].present);
	assert_string_equal(st[1].reason, "not supported (NVMe status 0x4002)");
	assert_false(st[2].present);
	assert_non_null(strstr(st[2].reason, "0x1b36 is not Intel"));
	assert_int_equal(dc.n, 0);

	/* endurance groups, but the namespace names none */
	c.ctratt = 0x10;
	ns.endgid = 0;
	s.calls = 0;
	assert_int_equal(nvme_extra_logs_read(&ops, 3, &c, &ns, &dc, st, err, sizeof err), 0);
	assert_int_equal(s.calls, 1);
	assert_non_null(strstr(st[0].reason, "ENDGID 0"));
	/* Invalid Log Page (SCT 1, SC 0x09) is "not supported" as well */
	rows[0].status = 0x109;
	assert_int_equal(nvme_extra_logs_read(&ops, 3, &c, &ns, &dc, st, err, sizeof err), 0);
	assert_non_null(strstr(st[1].reason, "not supported"));
	/* another status: absent with that status */
	rows[0].status = 0x0006; /* Internal Error */
	assert_int_equal(nvme_extra_logs_read(&ops, 3, &c, &ns, &dc, st, err, sizeof err), 0);
	assert_string_equal(st[1].reason, "NVMe status 0x6");
	/* a transport failure is an error */
	rows[0].status = -EIO;
	assert_int_equal(nvme_extra_logs_read(&ops, 3, &c, &ns, &dc, st, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "Get Log Page 0xc0"));
}

static void test_wrong_guid(void **state)
{
	(void)state;
	struct devcounters dc;
	char why[160] = "";

	build_pages();
	for (int i = 0; i < 16; i++)
		ocp[496 + i] = ocp_guid[15 - i];
	devcounters_init(&dc);
	assert_int_equal(nvme_ocp_c0_counters(ocp, &dc, why, sizeof why), -ENOENT);
	assert_string_equal(why, "log page GUID afd514c97c6f4f9ca4f2bfea2810afc5 is not the OCP SMART/Health "
				 "Extended one");
	assert_int_equal(dc.n, 0);

	/* through the reader: absent with that reason */
	struct nvme_script_row rows[] = {{.opcode = 0x02, .cdw10 = 0x007f00c0, .data = ocp, .len = 512}};
	struct nvme_script s = {.rows = rows, .n = 1};
	struct ioctl_ops ops = nvme_script_ops(&s);
	struct nvme_id_ctrl c = {.vid = 0x144d};
	struct nvme_log_state st[3];
	char err[128] = "";
	assert_int_equal(nvme_extra_logs_read(&ops, 3, &c, NULL, &dc, st, err, sizeof err), 0);
	assert_false(st[1].present);
	assert_string_equal(st[1].reason, why);
}

static void test_overflow_and_unknown(void **state)
{
	(void)state;
	struct devcounters dc;
	char why[160] = "";
	bool unknown = false;

	build_pages();
	ocp[8] = 1; /* bytes 8..15: the high half of physical media written */
	devcounters_init(&dc);
	assert_int_equal(nvme_ocp_c0_counters(ocp, &dc, why, sizeof why), 0);
	assert_true(get(&dc, "nvme:ocp_c0.physical_media_written") == UINT64_MAX);
	assert_int_equal(get(&dc, "nvme:ocp_c0.physical_media_written.overflow"), 1);

	memset(endu + 80, 0, 16);
	devcounters_init(&dc);
	assert_int_equal(nvme_endurance_counters(endu, &dc, &unknown), 0);
	assert_true(unknown);
	assert_null(devcounters_get(&dc, "nvme:endurance.media_units_written"));
	assert_int_equal(get(&dc, "nvme:endurance.data_units_written"), 20000);

	struct nvme_script_row rows[] = {{.opcode = 0x02, .cdw10 = 0x007f0009, .data = endu, .len = 512},
					 {.opcode = 0x02, .cdw10 = 0x007f00c0, .status = 0x4002}};
	struct nvme_script s = {.rows = rows, .n = 2};
	struct ioctl_ops ops = nvme_script_ops(&s);
	struct nvme_id_ctrl c = {.vid = 0x1344, .ctratt = 0x10};
	struct nvme_id_ns ns = {.endgid = 1};
	struct nvme_log_state st[3];
	char err[128] = "";
	devcounters_init(&dc);
	assert_int_equal(nvme_extra_logs_read(&ops, 3, &c, &ns, &dc, st, err, sizeof err), 0);
	assert_int_equal(rows[0].seen.cdw11, 0x00010000);
	assert_true(st[0].present);
	assert_non_null(strstr(st[0].reason, "media units written 0"));

	/* Intel log with neither write record */
	memset(intel, 0, sizeof intel);
	intel[0] = 0xab;
	assert_int_equal(nvme_intel_ca_counters(intel, &dc, why, sizeof why), -ENOENT);
	assert_non_null(strstr(why, "no 0xF4/0xF5"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lsi_cmd),
		cmocka_unit_test(test_all_three),
		cmocka_unit_test(test_not_asked),
		cmocka_unit_test(test_wrong_guid),
		cmocka_unit_test(test_overflow_and_unknown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
