// SPDX-License-Identifier: MIT
/*
 * test_nvme_ident: host/nvme_ident through a scripted admin table, against pages built here
 * byte by byte with hand-worked values:
 *   - Identify Controller (opcode 0x06, nsid 0, cdw10 = CNS 1 = 0x00000001, 4096 bytes): VID
 *     0x8086; SN/MN/FR with their space padding removed; CTRATT 0x10 (endurance groups); OACS
 *     0x000f (security, format, firmware, namespace management); LPA 0x03; APSTA 1; WCTEMP
 *     0x0157 = 343 K = 69.85 C, CCTEMP 0x0161 = 353 K; TNVMCAP 1,000,204,886,016 bytes
 *     (= 1,953,525,168 x 512); SANICAP 0x3 (crypto + block erase); FNA 0x04; VWC 0x07.
 *   - Identify Namespace (nsid 1, cdw10 0): NSZE 1,953,525,168; NUSE 1000; NLBAF 1 (two
 *     formats); FLBAS 0x01 -> format 1 in use; LBAF0 = 0x02090000 -> 512 B data (2^9), no
 *     metadata, RP 2; LBAF1 = 0x000c0008 -> 4096 B, 8 B metadata, RP 0; ENDGID 0x0102 = 258.
 *     With NLBAF 19 (20 formats), FLBAS 0x31: index 1 | (01b << 4) = 17, extended metadata.
 *   - Get Features (opcode 0x0a): VWC cdw10 0x06, no data; APST cdw10 0x0c with its 256-byte
 *     table; completion dword 0 bit 0 is the enable bit; Invalid Field (0x4002) -> -EOPNOTSUPP.
 *   - Every command prints its fields (nvme_cmd_describe) as hand-written here.
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
#include "host/nvme_ident.h"
#include "nvme_script.h"

static uint8_t ctrl_page[NVME_IDENTIFY_LEN], ns_page[NVME_IDENTIFY_LEN];

static void build_ctrl(void)
{
	nvme_script_build_ctrl(ctrl_page);
}

static void build_ns(void)
{
	nvme_script_build_ns(ns_page);
}

static void test_identify_controller(void **state)
{
	(void)state;
	struct nvme_script_row rows[] = {{.opcode = 0x06, .cdw10 = 0x01, .data = ctrl_page, .len = NVME_IDENTIFY_LEN}};
	struct nvme_script s = {.rows = rows, .n = 1};
	struct ioctl_ops ops = nvme_script_ops(&s);
	struct nvme_id_ctrl c;
	char err[128] = "";

	build_ctrl();
	assert_int_equal(nvme_id_ctrl_read(&ops, 3, &c, err, sizeof err), 0);
	assert_int_equal(rows[0].calls, 1);
	assert_int_equal(rows[0].seen.nsid, 0);
	assert_int_equal(rows[0].seen.data_len, 4096);
	assert_int_equal(c.vid, 0x8086);
	assert_string_equal(c.sn, "PHLJ91230ABC1P0FGN");
	assert_string_equal(c.mn, "INTEL SSDPE2KX010T8");
	assert_string_equal(c.fr, "VDV10131");
	assert_true(c.ctratt & NVME_CTRATT_ENDGRP);
	assert_int_equal(c.oacs, 0x000f);
	assert_true(c.oacs & NVME_OACS_SECURITY);
	assert_true(c.oacs & NVME_OACS_FORMAT);
	assert_true(c.oacs & NVME_OACS_NS_MGMT);
	assert_int_equal(c.lpa, 0x03);
	assert_int_equal(c.apsta, 1);
	assert_int_equal(c.wctemp_k, 343);
	assert_float_equal(c.wctemp_k - 273.15, 69.85, 1e-9);
	assert_int_equal(c.cctemp_k, 353);
	assert_true(c.tnvmcap == 1000204886016ull);
	assert_false(c.tnvmcap_overflow);
	assert_int_equal(c.sanicap, 0x3);
	assert_int_equal(c.fna, 0x04);
	assert_int_equal(c.vwc, 0x07);
}

static void test_identify_namespace(void **state)
{
	(void)state;
	struct nvme_script_row rows[] = {{.opcode = 0x06, .cdw10 = 0x00, .data = ns_page, .len = NVME_IDENTIFY_LEN}};
	struct nvme_script s = {.rows = rows, .n = 1};
	struct ioctl_ops ops = nvme_script_ops(&s);
	struct nvme_id_ns ns;
	char err[128] = "";

	build_ns();
	ns_page[33] = 0x09; /* DLFEAT: Write Zeroes may deallocate (bit 3), reads zeroes (001) */
	assert_int_equal(nvme_id_ns_read(&ops, 3, 1, &ns, err, sizeof err), 0);
	assert_int_equal(rows[0].seen.nsid, 1);
	assert_int_equal(ns.dlfeat, 0x09);
	assert_int_equal(ns.dlfeat & NVME_DLFEAT_READ_MASK, NVME_DLFEAT_READ_ZEROES);
	assert_true(ns.nsze == 1953525168ull);
	assert_true(ns.nuse == 1000);
	assert_int_equal(ns.nlbaf, 2);
	assert_int_equal(ns.lbaf_in_use, 1);
	assert_false(ns.extended_metadata);
	assert_int_equal(ns.lbaf[0].lbads, 9);
	assert_int_equal(ns.lbaf[0].ms, 0);
	assert_int_equal(ns.lbaf[0].rp, 2);
	assert_int_equal(ns.lbaf[1].lbads, 12);
	assert_int_equal(ns.lbaf[1].ms, 8);
	assert_int_equal(ns.lbaf[1].rp, 0);
	assert_int_equal(ns.endgid, 258);
	assert_true(ns.nvmcap == 1000204886016ull);

	/* more than 16 formats: FLBAS bits 6:5 are the index's high bits */
	ns_page[25] = 19;
	ns_page[26] = 0x31;
	nvme_id_ns_decode(ns_page, &ns);
	assert_int_equal(ns.nlbaf, 20);
	assert_int_equal(ns.lbaf_in_use, 17);
	assert_true(ns.extended_metadata);
}

static void test_identify_errors(void **state)
{
	(void)state;
	struct nvme_script_row rows[] = {{.opcode = 0x06, .cdw10 = 0x01, .status = -ENOTTY},
					 {.opcode = 0x06, .cdw10 = 0x00, .status = 0x000b}};
	struct nvme_script s = {.rows = rows, .n = 2};
	struct ioctl_ops ops = nvme_script_ops(&s);
	struct nvme_id_ctrl c = {.vid = 7};
	struct nvme_id_ns ns = {.endgid = 9};
	char err[128] = "";

	assert_int_equal(nvme_id_ctrl_read(&ops, 3, &c, err, sizeof err), -ENOTTY);
	assert_non_null(strstr(err, "Identify Controller"));
	assert_int_equal(c.vid, 7); /* untouched */
	assert_int_equal(nvme_id_ns_read(&ops, 3, 5, &ns, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "NVMe status 0xb"));
	assert_int_equal(ns.endgid, 9);
}

static void test_features(void **state)
{
	(void)state;
	struct nvme_script_row rows[] = {{.opcode = 0x0a, .cdw10 = 0x06, .result = 0x1},
					 {.opcode = 0x0a, .cdw10 = 0x0c, .result = 0x0}};
	struct nvme_script s = {.rows = rows, .n = 2};
	struct ioctl_ops ops = nvme_script_ops(&s);
	char err[128] = "";

	assert_int_equal(nvme_feature_enabled(&ops, 3, NVME_FEAT_VWC, err, sizeof err), 1);
	assert_int_equal(rows[0].seen.data_len, 0);
	assert_int_equal(rows[0].seen.nsid, 0);
	assert_int_equal(nvme_feature_enabled(&ops, 3, NVME_FEAT_APST, err, sizeof err), 0);
	assert_int_equal(rows[1].seen.data_len, 256);
	rows[1].result = 0x1;
	assert_int_equal(nvme_feature_enabled(&ops, 3, NVME_FEAT_APST, err, sizeof err), 1);
	rows[0].status = 0x4002; /* Invalid Field with DNR: no volatile write cache */
	assert_int_equal(nvme_feature_enabled(&ops, 3, NVME_FEAT_VWC, err, sizeof err), -EOPNOTSUPP);
	assert_non_null(strstr(err, "not supported"));
}

static void test_describe(void **state)
{
	(void)state;
	uint8_t buf[NVME_IDENTIFY_LEN];
	struct nvme_admin_cmd c;
	char d[512];

	nvme_identify_cmd(&c, 0, NVME_CNS_CTRL, buf);
	nvme_cmd_describe(&c, d, sizeof d);
	assert_string_equal(d, "NVMe admin opcode 0x06 (Identify), nsid 0x00000000, cdw10 0x00000001 (CNS 0x01 "
			       "Controller, CNTID 0), cdw11 0x00000000, cdw12 0x00000000, cdw13 0x00000000, "
			       "cdw14 0x00000000, cdw15 0x00000000, data_len 4096");
	nvme_identify_cmd(&c, 1, NVME_CNS_NS, buf);
	nvme_cmd_describe(&c, d, sizeof d);
	assert_non_null(strstr(d, "nsid 0x00000001, cdw10 0x00000000 (CNS 0x00 Namespace, CNTID 0)"));
	nvme_get_features_cmd(&c, NVME_FEAT_APST, buf, 256);
	nvme_cmd_describe(&c, d, sizeof d);
	assert_non_null(strstr(d, "opcode 0x0a (Get Features), nsid 0x00000000, cdw10 0x0000000c (FID 0x0c "
				  "Autonomous Power State Transition, SEL 0 current)"));
	assert_non_null(strstr(d, "data_len 256"));
	nvme_get_log_cmd(&c, NVME_NSID_ALL, 0x02, buf, 512);
	nvme_cmd_describe(&c, d, sizeof d);
	assert_non_null(strstr(d, "opcode 0x02 (Get Log Page), nsid 0xffffffff, cdw10 0x007f0002 (log id 0x02 "
				  "SMART/Health, NUMDL 127), cdw11 0x00000000 (NUMDU 0, log specific id 0)"));
	/* a short buffer is cut, never overrun */
	nvme_cmd_describe(&c, d, 20);
	assert_int_equal(strlen(d), 19);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_identify_controller),
		cmocka_unit_test(test_identify_namespace),
		cmocka_unit_test(test_identify_errors),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_describe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
