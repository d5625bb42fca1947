// SPDX-License-Identifier: MIT
/*
 * test_ata_purge: host/ata_purge and the devchange kind `security` against a scripted SATA drive
 * (ata_sec_drive.h: a state machine of the SECURITY and SANITIZE feature sets). Expected values
 * worked by hand from the ATA layouts:
 *   - CDBs (SAT-3 12.2.2): SANITIZE is 48-bit non-data: byte 1 = 3 << 1 | 1 = 0x07; byte 2 0x00,
 *     or 0x20 (CK_COND) for SANITIZE STATUS EXT; feature 0x0012 -> byte 4; the key "BkEr"
 *     0x426B4572 in LBA 31:0 -> bytes 7 (31:24) 0x42, 8 (7:0) 0x72, 10 (15:8) 0x45, 12 (23:16)
 *     0x6B; device 0x40; command 0xB4 in byte 14. The SECURITY commands with a block are 28-bit
 *     PIO-out: byte 1 = 5 << 1 = 0x0a, byte 2 = BYT_BLOK 0x04 | T_LENGTH 2 = 0x06 (T_DIR 0: to the
 *     drive), count 1 in byte 6; ERASE PREPARE is non-data: 0x06, 0x00.
 *   - The block (ACS-3 7.45.3): word 0 = 0x0002 for an enhanced erase of the user password
 *     (bytes 02 00), the password "ssdlab-purge" (12 bytes) from byte 2, zeroes after.
 *   - Timeouts: word 90 = 0x000F -> 15 x 2 = 30 min, x2 + 30 min = 90 min = 5,400,000 ms;
 *     word 89 = 0x8100 (bit 15: bits 14:0 = 256) -> 512 min, x2 + 30 = 1054 min = 63,240,000 ms;
 *     no estimate: 1,000,000 sectors x 512 = 512,000,000 bytes / 30,000,000 = 17 s (integer)
 *     + 1,800 s = 1,817,000 ms.
 *   - Sanitize progress over 4 polls: LBA 16384, 32768, 49152 of 65536 -> 0.25, 0.5, 0.75, then 1.
 */
#include <errno.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "host/ata_purge.h"
#include "targets/devchange_security.h"

#include "ata_sec_drive.h"

struct poll_log {
	double seen[16];
	int n, waits;
};

static void no_wait(void *ctx, uint64_t ns)
{
	struct poll_log *l = ctx;
	assert_int_equal(ns, 1000000000ull);
	l->waits++;
}

static void log_progress(void *ctx, double f)
{
	struct poll_log *l = ctx;
	assert_true(l->n < 16);
	l->seen[l->n++] = f;
}

static struct ioctl_ops drive_ops(struct sec_drive *d)
{
	return (struct ioctl_ops){.sg_io = sec_drive_sg_io, .ctx = d};
}

static void caps_of(struct sec_drive *d, struct ata_purge_caps *caps)
{
	struct ioctl_ops ops = drive_ops(d);
	uint8_t id[512];
	char err[256];
	assert_int_equal(ata_identify_read(&ops, 7, id, err, sizeof err), 0);
	ata_purge_caps_decode(id, caps);
}

static void test_sanitize_block_completes(void **state)
{
	(void)state;
	struct sec_drive d = {.polls_total = 4};
	struct ioctl_ops ops = drive_ops(&d);
	struct poll_log log = {0};
	struct ata_poll poll = {
	    .interval_ns = 1000000000ull, .wait = no_wait, .progress = log_progress, .ctx = &log};
	struct ata_purge_caps caps;
	char err[256] = "";
	static const uint8_t start[16] = {0x85, 0x07, 0x00, 0x00, 0x12, 0x00, 0x00, 0x42,
					  0x72, 0x00, 0x45, 0x00, 0x6b, 0x40, 0xb4, 0x00};
	static const uint8_t status[16] = {0x85, 0x07, 0x20, 0x00, 0x00, 0x00, 0x00, 0x00,
					   0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0xb4, 0x00};

	caps_of(&d, &caps);
	assert_true(caps.sanitize && caps.sanitize_block && caps.sanitize_crypto);
	assert_false(caps.sanitize_overwrite);
	assert_int_equal(ata_purge_check(&caps, "sata", ATA_PURGE_SANITIZE_BLOCK, err, sizeof err),
			 0);
	assert_int_equal(
	    ata_purge_check(&caps, "sata", ATA_PURGE_SANITIZE_OVERWRITE, err, sizeof err),
	    -EOPNOTSUPP);

	d.n = 0;
	assert_int_equal(
	    ata_sanitize_run(&ops, 7, ATA_PURGE_SANITIZE_BLOCK, &poll, err, sizeof err), 0);
	assert_int_equal(d.sanitized, 1);
	assert_int_equal(d.n, 5); /* the start and 4 polls */
	assert_memory_equal(d.cdb[0], start, 16);
	for (int i = 1; i < 5; i++)
		assert_memory_equal(d.cdb[i], status, 16);
	assert_int_equal(log.n, 4);
	assert_true(log.seen[0] == 0.25 && log.seen[1] == 0.5 && log.seen[2] == 0.75 &&
		    log.seen[3] == 1.0);
	assert_int_equal(log.waits, 3);
}

static void test_sanitize_fails(void **state)
{
	(void)state;
	struct sec_drive d = {.polls_total = 3, .fail_sanitize = true};
	struct ioctl_ops ops = drive_ops(&d);
	struct poll_log log = {0};
	struct ata_poll poll = {.interval_ns = 1000000000ull, .wait = no_wait, .ctx = &log};
	struct ata_sanitize_status st;
	char err[256] = "";

	assert_int_equal(
	    ata_sanitize_run(&ops, 7, ATA_PURGE_SANITIZE_CRYPTO, &poll, err, sizeof err), -EIO);
	assert_non_null(
	    strstr(err, "SANITIZE CRYPTO SCRAMBLE EXT failed: sanitize command unsuccessful"));
	assert_int_equal(d.sanitized, 0);
	/* the failed state stays: a later status read says so, with the reason */
	assert_int_equal(ata_sanitize_status_read(&ops, 7, false, &st, err, sizeof err), 0);
	assert_true(st.failed);
	assert_int_equal(st.reason, 1);
	assert_false(st.completed_ok);
}

static bool stop_after_two(void *ctx)
{
	struct poll_log *l = ctx;
	return l->n >= 2;
}

/* SIGINT while polling: -EINTR after the second progress (50%), the drive carries on. */
static void test_sanitize_stop(void **state)
{
	(void)state;
	struct sec_drive d = {.polls_total = 4};
	struct ioctl_ops ops = drive_ops(&d);
	struct poll_log log = {0};
	struct ata_poll poll = {.interval_ns = 1000000000ull,
				.wait = no_wait,
				.progress = log_progress,
				.stop = stop_after_two,
				.ctx = &log};
	char err[256] = "";

	assert_int_equal(
	    ata_sanitize_run(&ops, 7, ATA_PURGE_SANITIZE_BLOCK, &poll, err, sizeof err), -EINTR);
	assert_non_null(strstr(err, "stopped waiting at 50.0%"));
	assert_int_equal(d.san, 1);
	assert_int_equal(log.waits, 1);
}

static void test_security_erase_happy(void **state)
{
	(void)state;
	struct sec_drive d = {.enhanced = true, .erase_w89 = 0x8100, .erase_w90 = 0x000f};
	struct ioctl_ops ops = drive_ops(&d);
	struct devchange_ctx c = {
	    .ops = &ops, .fd = 7, .path = "/dev/sdz", .transport = DRIVEDB_ATA};
	const struct devchange_kind *k = &devchange_kind_security;
	struct json_object *from = NULL, *to, *after = NULL;
	struct ata_purge_caps caps;
	char err[256] = "", cmd[256];
	static const uint8_t setpw[16] = {0x85, 0x0a, 0x06, 0, 0, 0, 0x01, 0,
					  0,	0,    0,    0, 0, 0, 0xf1, 0};
	static const uint8_t prep[16] = {0x85, 0x06, 0x00, 0, 0, 0, 0x00, 0,
					 0,    0,    0,	   0, 0, 0, 0xf3, 0};
	static const uint8_t erase[16] = {0x85, 0x0a, 0x06, 0, 0, 0, 0x01, 0,
					  0,	0,    0,    0, 0, 0, 0xf4, 0};
	uint8_t block[512] = {0x02, 0x00, 's', 's', 'd', 'l', 'a',
			      'b',  '-',  'p', 'u', 'r', 'g', 'e'};

	caps_of(&d, &caps);
	assert_true(caps.security && caps.enhanced_erase);
	assert_int_equal(caps.erase_minutes, 512);
	assert_int_equal(caps.enhanced_erase_minutes, 30);
	assert_int_equal(ata_security_erase_timeout_ms(&caps, true), 5400000u);
	assert_int_equal(ata_security_erase_timeout_ms(&caps, false), 63240000u);
	assert_int_equal(ata_purge_check(&caps, "sata", ATA_PURGE_SECURITY_ERASE, err, sizeof err),
			 0);

	/* the password as the kind sets it (the journal's "change" line comes from read+describe)
	 */
	assert_int_equal(k->read(&c, &from, err, sizeof err), 0);
	assert_false(json_object_get_boolean(json_object_object_get(from, "password_set")));
	to = devchange_security_value(true, NULL);
	assert_non_null(to);
	assert_int_equal(k->describe(&c, to, cmd, sizeof cmd), 0);
	assert_non_null(strstr(cmd, "SECURITY SET PASSWORD 0xF1"));
	d.n = 0;
	assert_int_equal(k->send(&c, to, err, sizeof err), 0);
	assert_memory_equal(d.cdb[0], setpw, 16);
	assert_true(d.enabled);
	assert_string_equal(d.pw, "ssdlab-purge");
	assert_int_equal(k->read(&c, &after, err, sizeof err), 0);
	assert_true(k->same(after, to));
	json_object_put(after);

	d.n = 0;
	assert_int_equal(ata_security_erase_unit(&ops, 7, NULL, true,
						 ata_security_erase_timeout_ms(&caps, true), err,
						 sizeof err),
			 0);
	assert_int_equal(d.n, 2);
	assert_memory_equal(d.cdb[0], prep, 16);
	assert_memory_equal(d.cdb[1], erase, 16);
	assert_int_equal(d.timeout[1], 5400000u);
	assert_memory_equal(d.block, block, 512);
	assert_int_equal(d.erased_enhanced, 1);
	/* the erase cleared the password: the restore finds the original value */
	assert_false(d.enabled || d.locked);
	assert_int_equal(k->read(&c, &after, err, sizeof err), 0);
	assert_true(k->same(after, from));
	json_object_put(after);
	json_object_put(to);
	json_object_put(from);
}

static void test_frozen_refused(void **state)
{
	(void)state;
	struct sec_drive d = {.frozen = true};
	struct ata_purge_caps caps;
	char err[512] = "";

	caps_of(&d, &caps);
	d.n = 0;
	assert_int_equal(ata_purge_check(&caps, "sata", ATA_PURGE_SECURITY_ERASE, err, sizeof err),
			 -EPERM);
	assert_non_null(strstr(err, "frozen"));
	assert_non_null(strstr(err, "suspend and resume"));
	assert_non_null(strstr(err, "hot-plug"));
	assert_int_equal(d.n, 0); /* the check sends nothing */
	/* sanitize is not part of the security freeze */
	assert_int_equal(ata_purge_check(&caps, "sata", ATA_PURGE_SANITIZE_BLOCK, err, sizeof err),
			 0);
}

static void test_usb_refused(void **state)
{
	(void)state;
	struct sec_drive d = {0};
	struct ata_purge_caps caps;
	char err[512] = "";
	static const enum ata_purge_op ops[] = {ATA_PURGE_SANITIZE_BLOCK, ATA_PURGE_SANITIZE_CRYPTO,
						ATA_PURGE_SECURITY_ERASE};

	caps_of(&d, &caps);
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		assert_int_equal(ata_purge_check(&caps, "usb", ops[i], err, sizeof err),
				 -EOPNOTSUPP);
		assert_non_null(strstr(err, "USB bridge"));
	}
}

static void test_failed_erase_then_restore(void **state)
{
	(void)state;
	struct sec_drive d = {.fail_erase = true, .erase_w89 = 0x0005};
	struct ioctl_ops ops = drive_ops(&d);
	struct devchange_ctx c = {
	    .ops = &ops, .fd = 7, .path = "/dev/sdz", .transport = DRIVEDB_ATA};
	const struct devchange_kind *k = &devchange_kind_security;
	struct json_object *from = NULL, *to, *now = NULL;
	struct ata_purge_caps caps;
	char err[256] = "";
	static const uint8_t unlock[16] = {0x85, 0x0a, 0x06, 0, 0, 0, 0x01, 0,
					   0,	 0,    0,    0, 0, 0, 0xf2, 0};
	static const uint8_t disable[16] = {0x85, 0x0a, 0x06, 0, 0, 0, 0x01, 0,
					    0,	  0,	0,    0, 0, 0, 0xf6, 0};

	caps_of(&d, &caps);
	/* word 89 = 5 -> 10 min, x2 + 30 = 50 min */
	assert_int_equal(ata_security_erase_timeout_ms(&caps, false), 3000000u);
	assert_int_equal(k->read(&c, &from, err, sizeof err), 0);
	to = devchange_security_value(true, NULL);
	assert_int_equal(k->send(&c, to, err, sizeof err), 0);
	assert_int_equal(ata_security_erase_unit(&ops, 7, NULL, false, 3000000u, err, sizeof err),
			 -EIO);
	assert_non_null(strstr(err, "SECURITY ERASE UNIT: ATA error"));
	assert_true(d.locked && d.enabled);

	/* a locked drive refuses every purge until restored */
	caps_of(&d, &caps);
	assert_int_equal(ata_purge_check(&caps, "sata", ATA_PURGE_SANITIZE_BLOCK, err, sizeof err),
			 -EACCES);

	/* the restore (devchange_restore's steps): re-read, differs from the original, send it */
	assert_int_equal(k->read(&c, &now, err, sizeof err), 0);
	assert_false(k->same(now, from));
	json_object_put(now);
	d.n = 0;
	assert_int_equal(k->send(&c, from, err, sizeof err), 0);
	assert_int_equal(d.n, 3); /* IDENTIFY, UNLOCK, DISABLE PASSWORD */
	assert_int_equal(d.cdb[0][14], 0xec);
	assert_memory_equal(d.cdb[1], unlock, 16);
	assert_memory_equal(d.cdb[2], disable, 16);
	assert_false(d.locked || d.enabled);
	assert_int_equal(k->read(&c, &now, err, sizeof err), 0);
	assert_true(k->same(now, from));
	json_object_put(now);
	json_object_put(to);
	json_object_put(from);
}

/* The password set and the drive frozen (SEC6): the restore cannot disable it and says how to
 * unfreeze; nothing is sent but IDENTIFY. */
static void test_restore_frozen(void **state)
{
	(void)state;
	struct sec_drive d = {.enabled = true, .frozen = true, .pw = "ssdlab-purge"};
	struct ioctl_ops ops = drive_ops(&d);
	struct devchange_ctx c = {
	    .ops = &ops, .fd = 7, .path = "/dev/sdz", .transport = DRIVEDB_ATA};
	struct json_object *off = devchange_security_value(false, NULL);
	char err[512] = "";

	assert_int_equal(devchange_kind_security.send(&c, off, err, sizeof err), -EPERM);
	assert_non_null(strstr(err, "frozen"));
	assert_non_null(strstr(err, "suspend and resume"));
	assert_int_equal(d.n, 1);
	assert_int_equal(d.cdb[0][14], 0xec);
	assert_true(d.enabled);
	json_object_put(off);
}

static void test_no_security_and_fallback_timeout(void **state)
{
	(void)state;
	struct sec_drive d = {.no_security = true};
	struct ioctl_ops ops = drive_ops(&d);
	struct devchange_ctx c = {
	    .ops = &ops, .fd = 7, .path = "/dev/sdz", .transport = DRIVEDB_ATA};
	struct json_object *v = NULL;
	struct ata_purge_caps caps;
	char err[256] = "";

	caps_of(&d, &caps);
	assert_int_equal(caps.bytes, 512000000u);
	assert_int_equal(ata_security_erase_timeout_ms(&caps, false), 1817000u);
	assert_int_equal(ata_purge_check(&caps, NULL, ATA_PURGE_SECURITY_ERASE, err, sizeof err),
			 -EOPNOTSUPP);
	assert_int_equal(devchange_kind_security.read(&c, &v, err, sizeof err), -EOPNOTSUPP);
	assert_null(v);
}

static void test_dry_run_sends_nothing(void **state)
{
	(void)state;
	struct sec_drive d = {0};
	struct ioctl_ops ops = drive_ops(&d);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct devchange_ctx c = {.ops = &ops,
				  .fd = 7,
				  .path = "/dev/sdz",
				  .transport = DRIVEDB_ATA,
				  .dry_run = true,
				  .dry_out = out};
	struct json_object *to = devchange_security_value(true, NULL);
	char err[256] = "";

	assert_non_null(out);
	assert_int_equal(devchange_kind_security.send(&c, to, err, sizeof err), 0);
	fclose(out);
	assert_int_equal(d.n, 0);
	assert_non_null(strstr(buf, "SECURITY SET PASSWORD: command 0xf1"));
	assert_non_null(strstr(buf, "PIO-out"));
	assert_non_null(strstr(buf, "CDB 85 0a 06 00 00 00 01 00 00 00 00 00 00 00 f1 00"));
	free(buf);
	json_object_put(to);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sanitize_block_completes),
	    cmocka_unit_test(test_sanitize_fails),
	    cmocka_unit_test(test_sanitize_stop),
	    cmocka_unit_test(test_security_erase_happy),
	    cmocka_unit_test(test_frozen_refused),
	    cmocka_unit_test(test_usb_refused),
	    cmocka_unit_test(test_failed_erase_then_restore),
	    cmocka_unit_test(test_restore_frozen),
	    cmocka_unit_test(test_no_security_and_fallback_timeout),
	    cmocka_unit_test(test_dry_run_sends_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
