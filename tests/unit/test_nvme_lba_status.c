// SPDX-License-Identifier: MIT
/*
 * test_nvme_lba_status: host/nvme_lba_status.h against hand-worked bytes and a scripted
 * controller (nvme_script.h).
 *
 * The command (NVM Command Set 1.0 Figures 107-110), for nsid 1, ATYPE 11h, SLBA 0x123456789,
 * RL 0x42 and a 4096-byte buffer: opcode 0x86, CDW10 = SLBA bits 31:0 = 0x23456789, CDW11 =
 * bits 63:32 = 0x1, CDW12 = MNDW = 4096 / 4 - 1 = 1023 (0's based), CDW13 = 0x11 << 24 | 0x42
 * = 0x11000042.
 *
 * The answer below (Figures 111-112), written out byte by byte: NLSD 3 (bytes 0-3), CMPC 2
 * (byte 4), then three 16-byte entries, DSLBA bytes 0-7, NLB bytes 8-11 (0's based), Status
 * byte 13:
 *   entry 0: DSLBA 10 (0x0a), NLB 29 (0x1d) -> LBAs 10..39, 30 blocks, Status 0x01
 *   entry 1: DSLBA 550 (0x0226), NLB 74 (0x4a) -> LBAs 550..624, 75 blocks, Status 0x02
 *   entry 2: DSLBA 1000 (0x03e8), NLB 9 -> LBAs 1000..1009, 10 blocks, Status 0x00
 * Over the range [0, 1000): entries 0 and 1 fall inside (30 + 75 = 105 blocks, Status ORed
 * 0x03), entry 2 starts at the range's end and adds nothing. Over [20, 600): 20 + 50 = 70.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "host/nvme_lba_status.h"
#include "nvme_script.h"

static const uint8_t answer3[8 + 3 * 16] = {
    0x03, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00,		    /* NLSD 3, CMPC 2 */
    0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1d, 0x00, 0x00, 0x00, /* 10, NLB 29 */
    0x00, 0x01, 0x00, 0x00,					    /* Status 0x01 */
    0x26, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4a, 0x00, 0x00, 0x00, /* 550, NLB 74 */
    0x00, 0x02, 0x00, 0x00,					    /* Status 0x02 */
    0xe8, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, /* 1000, NLB 9 */
    0x00, 0x00, 0x00, 0x00,					    /* Status 0 */
};

static void test_cmd(void **state)
{
	struct nvme_admin_cmd c;
	uint8_t buf[4096];

	(void)state;
	nvme_lba_status_cmd(&c, 1, NVME_LBAS_ATYPE_TRACKED, 0x123456789ull, 0x42, buf, sizeof buf);
	assert_int_equal(c.opcode, 0x86);
	assert_int_equal(c.nsid, 1);
	assert_int_equal(c.cdw10, 0x23456789);
	assert_int_equal(c.cdw11, 0x1);
	assert_int_equal(c.cdw12, 1023);
	assert_int_equal(c.cdw13, 0x11000042);
	assert_int_equal(c.data_len, 4096);
	assert_true(c.addr == (uint64_t)(uintptr_t)buf);
}

static void test_decode(void **state)
{
	struct nvme_lba_status_desc d[4];
	uint32_t nlsd;
	uint8_t cmpc;

	(void)state;
	assert_int_equal(nvme_lba_status_decode(answer3, sizeof answer3, &nlsd, &cmpc, d, 4), 3);
	assert_int_equal(nlsd, 3);
	assert_int_equal(cmpc, 2);
	assert_int_equal(d[0].dslba, 10);
	assert_int_equal(d[0].nlb, 30);
	assert_int_equal(d[0].status, 0x01);
	assert_int_equal(d[1].dslba, 550);
	assert_int_equal(d[1].nlb, 75);
	assert_int_equal(d[1].status, 0x02);
	assert_int_equal(d[2].dslba, 1000);
	assert_int_equal(d[2].nlb, 10);
	/* bounded by max, and by the bytes there are (header + one entry) */
	assert_int_equal(nvme_lba_status_decode(answer3, sizeof answer3, &nlsd, &cmpc, d, 2), 2);
	assert_int_equal(nvme_lba_status_decode(answer3, 8 + 16 + 15, &nlsd, &cmpc, d, 4), 1);
	assert_int_equal(nvme_lba_status_decode(answer3, 4, &nlsd, &cmpc, d, 4), 0);
	assert_int_equal(nlsd, 0);
}

static void test_range_sum(void **state)
{
	struct nvme_script_row row = {.opcode = 0x86, .cdw10 = 0, .data = answer3,
				      .len = sizeof answer3};
	struct nvme_script s = {.rows = &row, .n = 1};
	struct ioctl_ops ops = nvme_script_ops(&s);
	struct nvme_lba_status_sum sum;
	char err[160] = "";

	(void)state;
	assert_int_equal(nvme_lba_status_range(&ops, -1, 1, NVME_LBAS_ATYPE_TRACKED, 0, 1000, &sum,
					       err, sizeof err),
			 0);
	assert_int_equal(sum.blocks, 105);
	assert_int_equal(sum.descriptors, 2);
	assert_int_equal(sum.commands, 1);
	assert_int_equal(sum.status_or, 0x03);
	assert_int_equal(row.seen.cdw13, 0x11000000 | 1000);
	assert_int_equal(row.seen.nsid, 1);
	/* the same answer clipped to [20, 600): LBAs 20..39 and 550..599 */
	row.cdw10 = 20;
	assert_int_equal(nvme_lba_status_range(&ops, -1, 1, NVME_LBAS_ATYPE_TRACKED, 20, 580, &sum,
					       err, sizeof err),
			 0);
	assert_int_equal(sum.blocks, 70);
	assert_int_equal(s.unmatched, 0);
}

/* A range longer than RL holds: 100000 blocks from LBA 0 are 65535 + 34465 blocks. */
static void test_long_range(void **state)
{
	static const uint8_t none[8] = {0, 0, 0, 0, 2, 0, 0, 0}; /* NLSD 0, CMPC 2 */
	struct nvme_script_row rows[2] = {
	    {.opcode = 0x86, .cdw10 = 0, .data = none, .len = sizeof none},
	    {.opcode = 0x86, .cdw10 = 65535, .data = none, .len = sizeof none},
	};
	struct nvme_script s = {.rows = rows, .n = 2};
	struct ioctl_ops ops = nvme_script_ops(&s);
	struct nvme_lba_status_sum sum;
	char err[160] = "";

	(void)state;
	assert_int_equal(nvme_lba_status_range(&ops, -1, 7, NVME_LBAS_ATYPE_ALLOCATED, 0, 100000,
					       &sum, err, sizeof err),
			 0);
	assert_int_equal(sum.commands, 2);
	assert_int_equal(sum.blocks, 0);
	assert_int_equal(rows[0].seen.cdw13, 0x0200ffff);
	assert_int_equal(rows[1].seen.cdw13, 0x02000000 | 34465); /* 100000 - 65535 */
	assert_int_equal(rows[1].seen.nsid, 7);
}

/* CMPC 1: the controller stopped at MNDW; the next command starts after its last entry. */
static void test_incomplete(void **state)
{
	static const uint8_t first[8 + 16] = {
	    0x01, 0, 0, 0, 0x01, 0, 0, 0,			   /* NLSD 1, CMPC 1 */
	    0x64, 0, 0, 0, 0, 0, 0, 0, 0x63, 0, 0, 0, 0, 0, 0, 0, /* 100, NLB 99: 100..199 */
	};
	static const uint8_t second[8 + 16] = {
	    0x01, 0, 0, 0, 0x02, 0, 0, 0,			   /* NLSD 1, CMPC 2 */
	    0x2c, 0x01, 0, 0, 0, 0, 0, 0, 0x09, 0, 0, 0, 0, 0, 0, 0, /* 300, NLB 9: 300..309 */
	};
	static const uint8_t stuck[8] = {0, 0, 0, 0, 1, 0, 0, 0}; /* NLSD 0, CMPC 1 */
	struct nvme_script_row rows[2] = {
	    {.opcode = 0x86, .cdw10 = 0, .data = first, .len = sizeof first},
	    {.opcode = 0x86, .cdw10 = 200, .data = second, .len = sizeof second},
	};
	struct nvme_script s = {.rows = rows, .n = 2};
	struct ioctl_ops ops = nvme_script_ops(&s);
	struct nvme_lba_status_sum sum = {.blocks = 99};
	char err[160] = "";

	(void)state;
	assert_int_equal(nvme_lba_status_range(&ops, -1, 1, NVME_LBAS_ATYPE_ALLOCATED, 0, 1000,
					       &sum, err, sizeof err),
			 0);
	assert_int_equal(sum.commands, 2);
	assert_int_equal(sum.blocks, 110);
	assert_int_equal(rows[1].seen.cdw13, 0x02000000 | 800); /* from 200 to 1000 */
	/* incomplete without an entry: no progress, an error, sum untouched */
	rows[0].data = stuck;
	rows[0].len = sizeof stuck;
	sum.blocks = 99;
	assert_int_equal(nvme_lba_status_range(&ops, -1, 1, NVME_LBAS_ATYPE_ALLOCATED, 0, 1000,
					       &sum, err, sizeof err),
			 -EIO);
	assert_non_null(strstr(err, "without advancing"));
	assert_int_equal(sum.blocks, 99);
}

/* What a controller answers instead of data. */
static void test_errors(void **state)
{
	static const struct {
		int status, rc;
		const char *msg;
	} cases[] = {
	    {0x4001, -EOPNOTSUPP, "Invalid Opcode"}, /* QEMU 7.2: no such command */
	    {0x4002, -EOPNOTSUPP, "Invalid Field"},  /* no such action type (02h on 1.4) */
	    {0x0281, -EIO, "0x281 (failed)"},	     /* Unrecovered Read Error, SCT 2 */
	    {-ENODEV, -ENODEV, "No such device"},   /* the transport */
	};
	struct nvme_script_row row = {.opcode = 0x86, .cdw10 = 5};
	struct nvme_script s = {.rows = &row, .n = 1};
	struct ioctl_ops ops = nvme_script_ops(&s);

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct nvme_lba_status_sum sum = {.descriptors = 42};
		char err[160] = "";

		row.status = cases[i].status;
		assert_int_equal(nvme_lba_status_range(&ops, -1, 1, NVME_LBAS_ATYPE_ALLOCATED, 5, 10,
						       &sum, err, sizeof err),
				 cases[i].rc);
		assert_non_null(strstr(err, "Get LBA Status (ATYPE 02h)"));
		assert_non_null(strstr(err, cases[i].msg));
		assert_int_equal(sum.descriptors, 42);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cmd),		cmocka_unit_test(test_decode),
	    cmocka_unit_test(test_range_sum),	cmocka_unit_test(test_long_range),
	    cmocka_unit_test(test_incomplete), cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
