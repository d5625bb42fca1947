// SPDX-License-Identifier: MIT
/*
 * test_ata_cmd: host/ata_cmd, ata_identify and ata_live through a scripted SG_IO table (no
 * LD_PRELOAD, no drive). Every expected number is worked by hand here:
 *   - CDBs (SAT-3 12.2.2): byte 1 = protocol << 1 | EXTEND (PIO-in 4 -> 0x08, 48-bit 0x09;
 *     non-data 3 -> 0x06, 48-bit 0x07); byte 2 = 0x0e for a 512-byte read (T_DIR 0x08 |
 *     BYT_BLOK 0x04 | T_LENGTH 2) or 0x20 (CK_COND) for a command that returns registers;
 *     SMART's 4Fh/C2h in LBA 15:8 / 23:16 = bytes 10 / 12; READ LOG EXT log 0x04 page 0x07 ->
 *     LBA 0x0704 -> bytes 8 = 0x04, 10 = 0x07.
 *   - IDENTIFY built word by word: 1,000,000 sectors (0x000F4240 in words 100-101), word 106
 *     0x6003 -> 2^3 = 8 logical sectors of 512 bytes per 4096-byte physical one, ...
 *   - READ NATIVE MAX EXT answering LBA 0x000100000FFF against 0x100000000 user sectors
 *     (current max 0xFFFFFFFF): 0x1000 sectors hidden = 4096 x 512 = 2,097,152 bytes.
 *   - Device Statistics: qword flags in byte 7 (0xC0 supported + valid -> present; 0x80
 *     supported only, 0x40 valid only, 0x00 -> absent); 0x11 in byte 6 (bits 55:48) is not
 *     part of the 48-bit value.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "host/ata_cmd.h"
#include "host/ata_identify.h"
#include "host/ata_live.h"

#include "ata_script.h"

static void test_cdbs(void **state)
{
	(void)state;
	static const struct {
		struct ata_cmd (*make)(void);
		uint8_t cdb[16];
	} rows[] = {
	    {ata_cmd_identify, {0x85, 0x08, 0x0e, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xec, 0}},
	    {ata_cmd_smart_read_data, {0x85, 0x08, 0x0e, 0, 0xd0, 0, 1, 0, 0, 0, 0x4f, 0, 0xc2, 0, 0xb0, 0}},
	    {ata_cmd_smart_read_thresholds, {0x85, 0x08, 0x0e, 0, 0xd1, 0, 1, 0, 0, 0, 0x4f, 0, 0xc2, 0, 0xb0, 0}},
	    {ata_cmd_smart_return_status, {0x85, 0x06, 0x20, 0, 0xda, 0, 0, 0, 0, 0, 0x4f, 0, 0xc2, 0, 0xb0, 0}},
	    {ata_cmd_read_native_max_ext, {0x85, 0x07, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x40, 0x27, 0}},
	};
	uint8_t cdb[16];
	char line[320];

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct ata_cmd c = rows[i].make();
		ata_cmd_cdb(&c, cdb);
		assert_memory_equal(cdb, rows[i].cdb, 16);
	}
	struct ata_cmd c = ata_cmd_read_log_ext(0x04, 0x07);
	const uint8_t want[16] = {0x85, 0x09, 0x0e, 0, 0, 0, 1, 0, 0x04, 0, 0x07, 0, 0, 0, 0x2f, 0};
	ata_cmd_cdb(&c, cdb);
	assert_memory_equal(cdb, want, 16);
	/* --dry-run's line comes from the same struct: name, fields and the same bytes */
	ata_cmd_describe(&c, line, sizeof line);
	assert_non_null(strstr(line, "READ LOG EXT: command 0x2f"));
	assert_non_null(strstr(line, "lba 0x000000000704"));
	assert_non_null(strstr(line, "CDB 85 09 0e 00 00 00 01 00 04 00 07 00 00 00 2f 00"));
}

static void test_identify_decode(void **state)
{
	(void)state;
	uint8_t id[512];
	struct ata_identity d;

	build_identify(id, true);
	ata_identify_decode(id, &d);
	assert_string_equal(d.model, ATA_SCRIPT_MODEL);
	assert_string_equal(d.serial, "SER123");
	assert_string_equal(d.firmware, "FW01");
	assert_int_equal(d.major_version, 10);
	assert_string_equal(d.major_name, "ACS-3");
	assert_true(d.lba48);
	assert_int_equal(d.user_sectors, 1000000);
	assert_int_equal(d.logical_sector, 512);
	assert_int_equal(d.physical_sector, 4096);
	assert_true(d.smart_supported && d.smart_enabled);
	assert_true(d.write_cache_supported && !d.write_cache_enabled);
	assert_true(d.hpa_supported && d.hpa_enabled);
	assert_true(d.gpl);
	assert_true(d.trim && d.trim_drat && d.trim_rzat);
	assert_true(d.security_supported && !d.security_enabled && d.security_frozen && !d.security_locked);
	assert_true(d.sanitize && d.sanitize_block_erase && d.sanitize_crypto && !d.sanitize_overwrite);
	assert_true(d.sata_valid && d.hipm);
	assert_true(d.dipm_supported && d.dipm_enabled);
	assert_true(d.devslp_supported && !d.devslp_enabled);
}

static void test_hpa(void **state)
{
	(void)state;
	uint8_t id[512], sb[22];
	struct ata_identity d;
	struct ata_hpa h;

	build_identify(id, true);
	put_w(id, 100, 0); /* 0x100000000 user sectors: current max LBA 0xFFFFFFFF */
	put_w(id, 101, 0);
	put_w(id, 102, 1);
	ata_identify_decode(id, &d);
	build_sense(sb, 0x01, 0x50, 0, 0x000100000fffull, true);
	struct reply r[] = {{ATA_OP_READ_NATIVE_MAX_EXT, 0, -1, NULL, sb, sizeof sb, 0}};
	struct script s = {.r = r, .n = 1};
	const struct ioctl_ops ops = {.sg_io = scripted_sg_io, .ctx = &s};

	ata_hpa_read(&ops, 7, &d, &h);
	assert_true(h.known);
	assert_int_equal(h.native_max_lba, 0x000100000fffull);
	assert_int_equal(h.current_max_lba, 0xffffffffull);
	assert_int_equal(h.hidden_bytes, 2097152);
	/* without the EXTEND bit the high LBA bytes are not trusted */
	build_sense(sb, 0x01, 0x50, 0, 0x000100000fffull, false);
	ata_hpa_read(&ops, 7, &d, &h);
	assert_false(h.known);
	assert_non_null(strstr(h.why, "high bytes"));
	/* a drive that aborts it: unknown, with the ATA error as the reason */
	build_sense(sb, 0x0b, 0x51, 0x04, 0, true);
	ata_hpa_read(&ops, 7, &d, &h);
	assert_false(h.known);
	assert_non_null(strstr(h.why, "command aborted"));
}

/* One SMART attribute entry at index i: id, flags, current, worst, raw48 LE. */
static void put_attr(uint8_t *data, unsigned i, uint8_t id, uint8_t cur, uint64_t raw)
{
	uint8_t *e = data + 2 + 12 * i;
	e[0] = id;
	e[1] = 0x03;
	e[3] = cur;
	e[4] = cur;
	for (int b = 0; b < 6; b++)
		e[5 + b] = (uint8_t)(raw >> (8 * b));
}

static void put_q(uint8_t *page, unsigned off, uint8_t flags, uint64_t v)
{
	for (int b = 0; b < 7; b++)
		page[off + (unsigned)b] = (uint8_t)(v >> (8 * b));
	page[off + 7] = flags;
}

static void test_live_read(void **state)
{
	(void)state;
	static uint8_t id[512], data[512], thr[512], list[512], p1[512], p7[512], sb[22];
	static struct ata_live l;
	struct ata_smart again;
	char err[256];

	build_identify(id, true);
	memset(data, 0, sizeof data);
	put_attr(data, 0, 5, 100, 3);
	put_attr(data, 1, 9, 98, 0x123456);
	put_attr(data, 2, 241, 99, 1000);
	memset(thr, 0, sizeof thr);
	thr[2] = 5, thr[3] = 10; /* id 5 threshold 10 */
	/* SMART RETURN STATUS: F4h/2Ch in LBA mid/high = threshold exceeded */
	build_sense(sb, 0x01, 0x50, 0, 0x2cf400, false);
	memset(list, 0, sizeof list);
	list[0] = 1, list[2] = 0x00, list[8] = 3, list[9] = 0x00, list[10] = 0x01, list[11] = 0x07;
	memset(p1, 0, sizeof p1);
	p1[0] = 1, p1[2] = 0x01;
	put_q(p1, 0x08, 0xc0, 7);			   /* power-on resets: present */
	put_q(p1, 0x10, 0x40, 99);			   /* valid, not supported: absent */
	put_q(p1, 0x18, 0xc0, 0x11123456789abcull);	   /* present, bits 55:48 dropped */
	put_q(p1, 0x28, 0x80, 5555);			   /* supported, not valid: absent */
	put_q(p1, 0x30, 0x00, 6666);			   /* neither: absent */
	memset(p7, 0, sizeof p7);
	p7[0] = 1, p7[2] = 0x07;
	put_q(p7, 0x08, 0xc0, 5);			   /* percentage used 5 */
	struct reply r[] = {
	    {ATA_OP_IDENTIFY, 0, -1, id, NULL, 0, 0},
	    {ATA_OP_SMART, ATA_SMART_RETURN_STATUS, -1, NULL, sb, sizeof sb, 0},
	    {ATA_OP_SMART, ATA_SMART_READ_DATA, -1, data, NULL, 0, 0},
	    {ATA_OP_SMART, ATA_SMART_READ_THRESHOLDS, -1, thr, NULL, 0, 0},
	    {ATA_OP_READ_LOG_EXT, 0, 0x00, list, NULL, 0, 0},
	    {ATA_OP_READ_LOG_EXT, 0, 0x01, p1, NULL, 0, 0},
	    {ATA_OP_READ_LOG_EXT, 0, 0x07, p7, NULL, 0, 0},
	};
	struct script s = {.r = r, .n = sizeof r / sizeof r[0]};
	const struct ioctl_ops ops = {.sg_io = scripted_sg_io, .ctx = &s};

	assert_int_equal(ata_live_read(&ops, 7, &l, err, sizeof err), 0);
	/* the commands, in the order ata_live_plan() names them */
	struct ata_cmd plan[8];
	assert_int_equal(ata_live_plan(plan, 8), 7);
	assert_int_equal(s.calls, 7);
	for (int i = 0; i < 7; i++) {
		uint8_t cdb[16];
		ata_cmd_cdb(&plan[i], cdb);
		assert_memory_equal(s.seen[i], cdb, 16);
	}
	assert_string_equal(l.smart.model, ATA_SCRIPT_MODEL);
	assert_true(l.smart.status_valid);
	assert_false(l.smart.status_good);
	assert_int_equal(l.smart.n, 3);
	assert_int_equal(ata_smart_find(&l.smart, 9)->raw, 0x123456);
	assert_int_equal(ata_smart_find(&l.smart, 5)->threshold, 10);
	assert_true(ata_smart_find(&l.smart, 5)->threshold_valid);
	assert_false(ata_smart_find(&l.smart, 9)->threshold_valid);
	/* the blob: IDFY, SMST, SMDT, SMTH = 3 x (8 + 512) + 8 + 4 bytes, and it decodes alone */
	assert_int_equal(l.blob_len, 1572);
	assert_memory_equal(l.blob, "IDFY\0\0\x02\0", 8);
	assert_int_equal(ata_smart_decode_blob(l.blob, l.blob_len, &again, err, sizeof err), 0);
	assert_int_equal(again.n, 3);
	assert_false(again.status_good);
	/* counters: the attributes and the Device Statistics that are supported and valid */
	assert_int_equal(devcounters_get(&l.dc, "ata:5")->value, 3);
	assert_int_equal(devcounters_get(&l.dc, "ata:241")->value, 1000);
	assert_true(l.devstat_read);
	assert_int_equal(devcounters_get(&l.dc, "ata:devstat.1.0x08")->value, 7);
	assert_int_equal(devcounters_get(&l.dc, "ata:devstat.1.0x18")->value, 0x123456789abcull);
	assert_null(devcounters_get(&l.dc, "ata:devstat.1.0x10"));
	assert_null(devcounters_get(&l.dc, "ata:devstat.1.0x28"));
	assert_null(devcounters_get(&l.dc, "ata:devstat.1.0x30"));
	assert_int_equal(devcounters_get(&l.dc, "ata:devstat.7.0x08")->value, 5);
	assert_int_equal(l.dc.n, 3 + 3);

	/* without GPL in IDENTIFY no READ LOG EXT is sent, and the note says why */
	build_identify(id, false);
	s.calls = 0;
	assert_int_equal(ata_live_read(&ops, 7, &l, err, sizeof err), 0);
	assert_int_equal(s.calls, 4);
	assert_false(l.devstat_read);
	assert_non_null(strstr(l.devstat_note, "General Purpose Logging"));
	assert_null(devcounters_get(&l.dc, "ata:devstat.1.0x18"));
	/* SMART not supported: -EOPNOTSUPP after IDENTIFY alone */
	put_w(id, 82, 0x0422);
	s.calls = 0;
	assert_int_equal(ata_live_read(&ops, 7, &l, err, sizeof err), -EOPNOTSUPP);
	assert_int_equal(s.calls, 1);
	assert_non_null(strstr(err, "no SMART"));
}

static void test_errors(void **state)
{
	(void)state;
	uint8_t buf[512], sb[22], fixed[18];
	struct ata_regs regs;
	char err[256];
	struct ata_cmd c = ata_cmd_identify();

	/* an ATA error in the status return descriptor: ABRT */
	build_sense(sb, 0x0b, 0x51, 0x04, 0, false);
	struct reply r1[] = {{ATA_OP_IDENTIFY, 0, -1, NULL, sb, sizeof sb, 0}};
	struct script s = {.r = r1, .n = 1};
	struct ioctl_ops ops = {.sg_io = scripted_sg_io, .ctx = &s};
	assert_int_equal(ata_cmd_send(&ops, 7, &c, buf, &regs, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "IDENTIFY DEVICE: ATA error: status 0x51, error 0x04"));
	assert_non_null(strstr(err, "aborted"));

	/* a SCSI error in fixed-format sense (ILLEGAL REQUEST, invalid opcode 20h/00h) */
	memset(fixed, 0, sizeof fixed);
	fixed[0] = 0x70, fixed[2] = 0x05, fixed[7] = 10, fixed[12] = 0x20;
	struct reply r2[] = {{ATA_OP_IDENTIFY, 0, -1, NULL, fixed, sizeof fixed, 0}};
	s = (struct script){.r = r2, .n = 1};
	assert_int_equal(ata_cmd_send(&ops, 7, &c, buf, &regs, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "sense key 0x5, ASC 0x20"));

	/* the ioctl itself fails: its errno, named */
	struct reply r3[] = {{ATA_OP_IDENTIFY, 0, -1, NULL, NULL, 0, -EPERM}};
	s = (struct script){.r = r3, .n = 1};
	assert_int_equal(ata_cmd_send(&ops, 7, &c, buf, &regs, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "SG_IO"));

	/* a CK_COND command that gets no registers back */
	struct ata_cmd st = ata_cmd_smart_return_status();
	struct reply r4[] = {{ATA_OP_SMART, ATA_SMART_RETURN_STATUS, -1, NULL, NULL, 0, 0}};
	s = (struct script){.r = r4, .n = 1};
	assert_int_equal(ata_cmd_send(&ops, 7, &st, NULL, &regs, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "no ATA registers"));

	/* fixed-format sense with SAT's ATA fields: error, status, device, count, LBA 23:0 */
	uint8_t key, asc, ascq;
	memset(fixed, 0, sizeof fixed);
	fixed[0] = 0xf0, fixed[2] = 0x01, fixed[3] = 0x00, fixed[4] = 0x50, fixed[5] = 0x40, fixed[6] = 0x01;
	fixed[9] = 0x00, fixed[10] = 0x4f, fixed[11] = 0xc2, fixed[12] = 0x00, fixed[13] = 0x1d;
	assert_int_equal(ata_sense_parse(fixed, sizeof fixed, &regs, &key, &asc, &ascq), 1);
	assert_int_equal(key, 1);
	assert_int_equal(ascq, 0x1d);
	assert_int_equal(regs.status, 0x50);
	assert_int_equal(regs.lba, 0xc24f00);
	assert_false(regs.ext);
	/* EXTEND with LBA UPPER NONZERO clear: LBA 47:24 are zero, the LBA is whole */
	fixed[8] = 0x80;
	assert_int_equal(ata_sense_parse(fixed, sizeof fixed, &regs, &key, &asc, &ascq), 1);
	assert_true(regs.ext);
	fixed[8] = 0xa0; /* LBA UPPER NONZERO: not whole */
	assert_int_equal(ata_sense_parse(fixed, sizeof fixed, &regs, &key, &asc, &ascq), 1);
	assert_false(regs.ext);
}

static void test_devstat_header(void **state)
{
	(void)state;
	uint8_t p[512];
	struct devcounters dc;

	memset(p, 0, sizeof p);
	p[2] = 0x01;
	devcounters_init(&dc);
	assert_int_equal(ata_devstat_counters(p, 0x07, &dc), -EINVAL);
	assert_int_equal(dc.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cdbs),	     cmocka_unit_test(test_identify_decode),
	    cmocka_unit_test(test_hpa),		     cmocka_unit_test(test_live_read),
	    cmocka_unit_test(test_errors),	     cmocka_unit_test(test_devstat_header),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
