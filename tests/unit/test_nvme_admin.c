// SPDX-License-Identifier: MIT
/*
 * test_nvme_admin: host/nvme_admin through a scripted ioctl table (no LD_PRELOAD).
 *   - The Get Log Page command: opcode 0x02, nsid, cdw10 = LID | NUMDL << 16 with
 *     NUMD = 512 / 4 - 1 = 127 = 0x7f, so cdw10 = 0x007f0002, cdw11 = 0.
 *   - A 512-byte page built here byte by byte decodes to hand-worked values: temperature
 *     0x0143 = 323 K = 49.85 C; data units written 0x0186a0 = 100000 = 51,200,000,000 bytes;
 *     a non-zero high half flags overflow and keeps the low 64 bits.
 *   - Transport errors and NVMe statuses come back as -errno / -EIO with a message.
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

struct script {
	const uint8_t *page; /* what the "drive" answers */
	int status;	     /* what admin returns */
	struct nvme_admin_cmd seen;
	int calls;
};

static int scripted_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct script *s = ctx;

	assert_int_equal(fd, 42);
	s->seen = *cmd;
	s->calls++;
	if (s->status == 0)
		memcpy((void *)(uintptr_t)cmd->addr, s->page, cmd->data_len);
	return s->status;
}

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void build_page(uint8_t *pg)
{
	memset(pg, 0, NVME_SMART_LOG_LEN);
	pg[0] = 0x02;				/* critical warning: temperature */
	put_le(pg + 1, 0x0143, 2);		/* 323 K */
	pg[3] = 97;				/* available spare % */
	pg[4] = 10;				/* threshold */
	pg[5] = 3;				/* percentage used */
	put_le(pg + 32, 0x30d40, 8);		/* DUR 200000 */
	put_le(pg + 48, 0x186a0, 8);		/* DUW 100000 */
	put_le(pg + 64, 0x112233445566ull, 8);	/* host reads */
	put_le(pg + 80, 0xffffffffffffffffull, 8); /* host writes: low 64 all ones... */
	pg[80 + 8] = 0x01;			/* ...and high half 1: overflow */
	put_le(pg + 192, 75, 4);		/* warning temp minutes */
	put_le(pg + 196, 2, 4);			/* critical temp minutes */
	put_le(pg + 216, 5, 4);			/* TMT1 transitions */
	put_le(pg + 220, 1, 4);			/* TMT2 transitions */
	put_le(pg + 224, 600, 4);
	put_le(pg + 228, 30, 4);
}

static void test_cmd_fields(void **state)
{
	(void)state;
	uint8_t buf[512];
	struct nvme_admin_cmd c;

	nvme_get_log_cmd(&c, 1, NVME_LOG_SMART, buf, sizeof buf);
	assert_int_equal(c.opcode, 0x02);
	assert_int_equal(c.nsid, 1);
	assert_int_equal(c.cdw10, 0x007f0002);
	assert_int_equal(c.cdw11, 0);
	assert_int_equal(c.data_len, 512);
	assert_true(c.addr == (uint64_t)(uintptr_t)buf);
	/* 4 KiB log: NUMD 1023 = 0x3ff */
	uint8_t big[4096];
	nvme_get_log_cmd(&c, NVME_NSID_ALL, 0xc0, big, sizeof big);
	assert_int_equal(c.cdw10, 0x03ff00c0);
	assert_int_equal(c.nsid, 0xffffffffu);
}

static void test_decode(void **state)
{
	(void)state;
	uint8_t pg[NVME_SMART_LOG_LEN];
	struct script s = {.page = pg};
	struct ioctl_ops ops = {.admin = scripted_admin, .ctx = &s};
	struct nvme_smart m;
	char err[128] = "";

	build_page(pg);
	assert_int_equal(nvme_smart_read(&ops, 42, 1, &m, err, sizeof err), 0);
	assert_int_equal(s.calls, 1);
	assert_int_equal(s.seen.opcode, 0x02);
	assert_int_equal(s.seen.cdw10, 0x007f0002);
	assert_int_equal(m.critical_warning, 2);
	assert_float_equal(m.temperature_c, 49.85, 1e-9);
	assert_int_equal(m.available_spare, 97);
	assert_int_equal(m.spare_threshold, 10);
	assert_int_equal(m.percentage_used, 3);
	assert_true(m.data_units_read == 200000);
	assert_true(m.data_units_written == 100000);
	assert_true(m.data_units_written * NVME_DATA_UNIT_BYTES == 51200000000ull);
	assert_false(m.data_units_written_overflow);
	assert_true(m.host_read_cmds == 0x112233445566ull);
	assert_false(m.host_read_cmds_overflow);
	assert_true(m.host_write_cmds == UINT64_MAX);
	assert_true(m.host_write_cmds_overflow);
	assert_int_equal(m.warning_temp_minutes, 75);
	assert_int_equal(m.critical_temp_minutes, 2);
	assert_int_equal(m.thm_transitions[0], 5);
	assert_int_equal(m.thm_transitions[1], 1);
	assert_int_equal(m.thm_seconds[0], 600);
	assert_int_equal(m.thm_seconds[1], 30);
}

/* The neutral counter list (host/devcounters.h): the same values under their keys, the wide
 * counter that overflowed saturated with its ".overflow" key beside it. */
static void test_counters(void **state)
{
	(void)state;
	uint8_t pg[NVME_SMART_LOG_LEN];
	struct nvme_smart m;
	struct devcounters dc, again;

	build_page(pg);
	nvme_smart_decode(pg, &m);
	devcounters_init(&dc);
	assert_int_equal(nvme_smart_counters(&m, &dc), 0);
	assert_true(devcounters_get(&dc, "nvme:smart.data_units_written")->value == 100000);
	assert_true(devcounters_get(&dc, "nvme:smart.data_units_read")->value == 200000);
	assert_true(devcounters_get(&dc, "nvme:smart.temperature_k")->value == 323);
	assert_true(devcounters_get(&dc, "nvme:smart.thm1_transitions")->value == 5);
	assert_true(devcounters_get(&dc, "nvme:smart.percentage_used")->value == 3);
	assert_true(devcounters_get(&dc, "nvme:smart.host_write_cmds")->value == UINT64_MAX);
	assert_true(devcounters_get(&dc, "nvme:smart.host_write_cmds.overflow")->value == 1);
	assert_null(devcounters_get(&dc, "nvme:smart.host_read_cmds.overflow"));
	/* a second decode of the same page agrees; a changed DUW does not */
	devcounters_init(&again);
	assert_int_equal(nvme_smart_counters(&m, &again), 0);
	assert_true(devcounters_equal(&dc, &again));
	assert_int_equal(devcounters_set(&again, "nvme:smart.data_units_written", 100001), 0);
	assert_false(devcounters_equal(&dc, &again));
	/* keys that do not fit are refused, not cut */
	assert_int_equal(devcounters_set(&again, "nvme:smart.a_field_name_much_longer_than_the_key_room", 1),
			 -EINVAL);
	assert_int_equal(devcounters_set(&again, "", 1), -EINVAL);
}

static void test_errors(void **state)
{
	(void)state;
	uint8_t pg[NVME_SMART_LOG_LEN] = {0};
	struct script s = {.page = pg, .status = -ENOTTY};
	struct ioctl_ops ops = {.admin = scripted_admin, .ctx = &s};
	struct nvme_smart m;
	char err[128] = "";

	assert_int_equal(nvme_smart_read(&ops, 42, 1, &m, err, sizeof err), -ENOTTY);
	assert_non_null(strstr(err, "Get Log Page 0x02"));
	s.status = 0x4109; /* an NVMe status (DNR | invalid log page) */
	assert_int_equal(nvme_smart_read(&ops, 42, 1, &m, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "0x4109"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cmd_fields),
	    cmocka_unit_test(test_decode),
	    cmocka_unit_test(test_counters),
	    cmocka_unit_test(test_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
