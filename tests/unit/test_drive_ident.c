// SPDX-License-Identifier: MIT
/*
 * test_drive_ident: host/drive_ident (the identity `info`, the manifests and the confirmation
 * share) through scripted ioctl tables, with the pages of nvme_script.h and ata_script.h:
 *   - NVMe: Identify Controller says model "INTEL SSDPE2KX010T8", serial "PHLJ91230ABC1P0FGN",
 *     firmware "VDV10131", VWC 0x07 (present: Get Features VWC is asked; its answer 1 = enabled),
 *     APSTA 1 (APST asked; answer 0 = disabled). Identify Namespace 1: FLBAS 0x01 -> format #1,
 *     LBAF1 0x000c0008 -> 2^12 = 4096 B data, 8 B metadata. So the manifest's drive says
 *     source nvme-identify, those strings, nsid 1, lba_format {index 1, 4096, 8}, and the
 *     confirmation line "namespace 1, LBA format #1 (4096 B data, 8 B metadata)".
 *   - SATA: IDENTIFY with 1,000,000 user sectors (current max LBA 999,999), 512-byte logical
 *     sectors; READ NATIVE MAX EXT answers LBA 0xFFFFF = 1,048,575: an HPA hides
 *     (1,048,575 - 999,999) x 512 = 48,576 x 512 = 24,870,912 bytes.
 *   - Refusals (EACCES from the admin ioctl, EPERM from SG_IO): the sysfs identity stays, source
 *     "sysfs", with the reason; a drive of another transport is sent nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/drive_ident.h"
#include "host/safety.h"
#include "targets/target.h"

#include "ata_script.h"
#include "nvme_script.h"

static uint8_t ctrl[NVME_IDENTIFY_LEN], ns[NVME_IDENTIFY_LEN];

/* What sysfs said (drive_ident_sysfs' part), hand-set: the tests feed the drive's part. */
static void sysfs_part(struct drive_ident *d, enum drive_ident_kind kind, const char *transport)
{
	memset(d, 0, sizeof *d);
	d->kind = kind;
	snprintf(d->transport, sizeof d->transport, "%s", transport);
	snprintf(d->model, sizeof d->model, "SYSFS MODEL");
	snprintf(d->serial, sizeof d->serial, "SYSFS-SERIAL");
	snprintf(d->firmware, sizeof d->firmware, "SYSFW");
	d->capacity = 512000000;
	d->nsid = kind == DRIVE_IDENT_NVME ? 1 : 0;
}

static struct json_object *get(struct json_object *o, const char *path)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof buf, "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k; k = strtok_r(NULL, ".", &save))
		if (!json_object_object_get_ex(o, k, &o))
			fail_msg("no key %s in %s", k, path);
	return o;
}

static const char *str(struct json_object *o, const char *path)
{
	return json_object_get_string(get(o, path));
}

static int64_t num(struct json_object *o, const char *path)
{
	return json_object_get_int64(get(o, path));
}

static bool has(struct json_object *o, const char *key)
{
	return json_object_object_get_ex(o, key, NULL);
}

/* A controller answering Identify Controller and Namespace with the pages, VWC enabled (1)
 * and APST disabled (0). */
static void nvme_answers(struct nvme_script_row rows[4])
{
	const struct nvme_script_row r[4] = {
		{.opcode = 0x06, .cdw10 = 0x01, .data = ctrl, .len = NVME_IDENTIFY_LEN},
		{.opcode = 0x06, .cdw10 = 0x00, .data = ns, .len = NVME_IDENTIFY_LEN},
		{.opcode = 0x0a, .cdw10 = 0x06, .result = 1},
		{.opcode = 0x0a, .cdw10 = 0x0c, .result = 0},
	};

	memcpy(rows, r, sizeof r);
}

static void nvme_drive(struct drive_ident *d, struct nvme_script_row *rows, int nrows)
{
	struct nvme_script s = {.rows = rows, .n = nrows};
	struct ioctl_ops ops = nvme_script_ops(&s);

	nvme_script_build_ctrl(ctrl);
	nvme_script_build_ns(ns);
	sysfs_part(d, DRIVE_IDENT_NVME, "nvme");
	drive_ident_ask(&ops, 3, d);
	assert_int_equal(s.unmatched, 0);
}

static void test_nvme(void **state)
{
	(void)state;
	struct nvme_script_row rows[4];
	struct drive_ident d;
	char sum[256];

	nvme_answers(rows);
	nvme_drive(&d, rows, 4);
	for (int i = 0; i < 4; i++)
		assert_int_equal(rows[i].calls, 1);
	assert_int_equal(rows[1].seen.nsid, 1);
	assert_true(d.read);
	assert_string_equal(drive_ident_model(&d), "INTEL SSDPE2KX010T8");
	assert_string_equal(drive_ident_serial(&d), "PHLJ91230ABC1P0FGN");
	assert_string_equal(drive_ident_firmware(&d), "VDV10131");

	struct json_object *o = drive_ident_to_json(&d);
	assert_non_null(o);
	assert_string_equal(str(o, "transport"), "nvme");
	assert_string_equal(str(o, "source"), "nvme-identify");
	assert_true(json_object_get_boolean(get(o, "read")));
	assert_null(get(o, "reason"));
	assert_string_equal(str(o, "model"), "INTEL SSDPE2KX010T8");
	assert_string_equal(str(o, "serial"), "PHLJ91230ABC1P0FGN");
	assert_string_equal(str(o, "firmware"), "VDV10131");
	assert_int_equal(num(o, "capacity"), 512000000);
	assert_int_equal(num(o, "nsid"), 1);
	/* info's own object, unchanged */
	assert_int_equal(num(o, "nvme_identify.lba_format.index"), 1);
	assert_int_equal(num(o, "nvme_identify.lba_format.data_bytes"), 4096);
	assert_int_equal(num(o, "nvme_identify.lba_format.metadata_bytes"), 8);
	assert_true(json_object_get_boolean(get(o, "nvme_identify.volatile_write_cache.enabled")));
	assert_false(json_object_get_boolean(get(o, "nvme_identify.apst.enabled")));
	assert_false(has(o, "ata"));
	json_object_put(o);

	drive_ident_summary(&d, sum, sizeof sum);
	assert_string_equal(sum, "transport nvme, namespace 1, LBA format #1 (4096 B data, 8 B metadata)");
}

static void test_nvme_refused(void **state)
{
	(void)state;
	struct nvme_script_row rows[] = {{.opcode = 0x06, .cdw10 = 0x01, .status = -EACCES}};
	struct drive_ident d;
	char sum[512];

	nvme_drive(&d, rows, 1);
	assert_false(d.read);
	assert_non_null(strstr(d.reason, strerror(EACCES)));
	struct json_object *o = drive_ident_to_json(&d);
	assert_non_null(o);
	assert_string_equal(str(o, "source"), "sysfs");
	assert_false(json_object_get_boolean(get(o, "read")));
	assert_string_equal(str(o, "reason"), d.reason);
	assert_string_equal(str(o, "model"), "SYSFS MODEL");
	assert_string_equal(str(o, "serial"), "SYSFS-SERIAL");
	assert_string_equal(str(o, "firmware"), "SYSFW");
	assert_string_equal(str(o, "nvme_identify.error"), d.reason);
	json_object_put(o);
	drive_ident_summary(&d, sum, sizeof sum);
	assert_non_null(strstr(sum, "transport nvme; the drive's own identity not read: "));
}

static void sata_drive(struct drive_ident *d, struct script *s)
{
	const struct ioctl_ops ops = {.sg_io = scripted_sg_io, .ctx = s};

	sysfs_part(d, DRIVE_IDENT_SATA, "sata");
	snprintf(d->alpm, sizeof d->alpm, "med_power_with_dipm");
	drive_ident_ask(&ops, 7, d);
}

static void test_sata_hpa(void **state)
{
	(void)state;
	uint8_t id[512], sb[22];
	struct drive_ident d;
	char sum[256];

	build_identify(id, true);
	build_sense(sb, 0x01, 0x50, 0, 0xfffff, true);
	const struct reply r[] = {
		{ATA_OP_IDENTIFY, 0, -1, id, NULL, 0, 0},
		{ATA_OP_READ_NATIVE_MAX_EXT, 0, -1, NULL, sb, sizeof sb, 0},
	};
	struct script s = {.r = r, .n = 2};

	sata_drive(&d, &s);
	assert_int_equal(s.calls, 2);
	assert_true(d.read);
	struct json_object *o = drive_ident_to_json(&d);
	assert_non_null(o);
	assert_string_equal(str(o, "source"), "ata-identify");
	assert_string_equal(str(o, "model"), ATA_SCRIPT_MODEL);
	assert_string_equal(str(o, "serial"), "SER123");
	assert_string_equal(str(o, "firmware"), "FW01");
	assert_string_equal(str(o, "ata.hpa.state"), "active");
	assert_int_equal(num(o, "ata.hpa.current_max_lba"), 999999);
	assert_int_equal(num(o, "ata.hpa.native_max_lba"), 1048575);
	assert_int_equal(num(o, "ata.hpa.hidden_bytes"), 24870912);
	assert_int_equal(num(o, "ata.logical_sector_size"), 512);
	/* HIPM supported (word 76 bit 9) and med_power_with_dipm uses it */
	assert_true(json_object_get_boolean(get(o, "ata.hipm.enabled")));
	assert_false(has(o, "nvme_identify") || has(o, "nsid"));
	json_object_put(o);
	drive_ident_summary(&d, sum, sizeof sum);
	assert_string_equal(sum, "transport sata, HPA active: hides 24870912 bytes (native max LBA 1048575, "
				 "current 999999)");
	/* native max = current max: no HPA */
	build_sense(sb, 0x01, 0x50, 0, 999999, true);
	s.calls = 0;
	sata_drive(&d, &s);
	drive_ident_summary(&d, sum, sizeof sum);
	assert_string_equal(sum, "transport sata, HPA none (native max LBA 999999 = current)");
}

static void test_sata_refused(void **state)
{
	(void)state;
	const struct reply r[] = {{ATA_OP_IDENTIFY, 0, -1, NULL, NULL, 0, -EPERM}};
	struct script s = {.r = r, .n = 1};
	struct drive_ident d;

	sata_drive(&d, &s);
	assert_int_equal(s.calls, 1); /* no READ NATIVE MAX after a refused IDENTIFY */
	assert_false(d.read);
	assert_non_null(strstr(d.reason, "CAP_SYS_RAWIO"));
	struct json_object *o = drive_ident_to_json(&d);
	assert_string_equal(str(o, "source"), "sysfs");
	assert_string_equal(str(o, "serial"), "SYSFS-SERIAL");
	assert_false(json_object_get_boolean(get(o, "ata.read")));
	assert_string_equal(str(o, "ata.reason"), d.reason);
	json_object_put(o);
}

static int never_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	(void)ctx, (void)fd, (void)cmd;
	fail_msg("an admin command was sent to a loop device");
	return -EIO;
}

static int never_sg_io(void *ctx, int fd, struct sg_io_hdr *h)
{
	(void)ctx, (void)fd, (void)h;
	fail_msg("SG_IO was sent to a loop device");
	return -EIO;
}

static void test_other(void **state)
{
	(void)state;
	const struct ioctl_ops ops = {.admin = never_admin, .sg_io = never_sg_io};
	struct drive_ident d;

	sysfs_part(&d, DRIVE_IDENT_OTHER, "loop");
	drive_ident_ask(&ops, 3, &d);
	assert_false(d.read);
	struct json_object *o = drive_ident_to_json(&d);
	assert_string_equal(str(o, "transport"), "loop");
	assert_string_equal(str(o, "source"), "sysfs");
	assert_string_equal(str(o, "model"), "SYSFS MODEL");
	assert_false(has(o, "ata") || has(o, "nvme_identify"));
	json_object_put(o);
	char sum[512];
	drive_ident_summary(&d, sum, sizeof sum);
	assert_string_equal(sum, "not an NVMe or SATA drive: not asked");
}

/* target.drive in the manifest and `io --json`: present only when the identity was read */
static void test_target_json(void **state)
{
	(void)state;
	struct nvme_script_row rows[4];
	struct target_info *ti = calloc(1, sizeof *ti);

	assert_non_null(ti);
	ti->kind = TARGET_KIND_BLOCKDEV;
	snprintf(ti->path, sizeof ti->path, "/dev/nvme0n1");
	struct json_object *o = target_info_to_json(ti, NULL);
	assert_false(has(o, "drive"));
	json_object_put(o);
	nvme_answers(rows);
	nvme_drive(&ti->drive, rows, 4);
	ti->has_drive = true;
	o = target_info_to_json(ti, NULL);
	assert_string_equal(str(o, "drive.serial"), "PHLJ91230ABC1P0FGN");
	assert_int_equal(num(o, "drive.nvme_identify.lba_format.data_bytes"), 4096);
	json_object_put(o);
	free(ti);
}

struct fake_tty {
	char prompt[8192];
	const char *answer;
};

static bool yes_tty(void *ctx, int fd)
{
	(void)ctx, (void)fd;
	return true;
}

static int record_ask(void *ctx, const char *prompt, char *answer, size_t len)
{
	struct fake_tty *f = ctx;

	snprintf(f->prompt, sizeof f->prompt, "%s", prompt);
	snprintf(answer, len, "%s", f->answer);
	return 0;
}

/* The confirmation names the drive as the manifest does: prompt and refusal. A regular file
 * stands in for the device (the in-use checks pass on it); its path is what is typed. */
static void test_confirmation(void **state)
{
	(void)state;
	struct nvme_script_row rows[4];
	char path[] = "/tmp/ssdlab-drive-ident-XXXXXX", reason[4096];
	struct drive_ident d;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	nvme_answers(rows);
	nvme_drive(&d, rows, 4);
	struct safety_target t = {.kind = SAFETY_FILE, .path = path, .model = "SYSFS MODEL", .serial = "",
				  .wwn = "", .capacity = 4096, .drive = &d};
	struct fake_tty f = {.answer = path};
	struct safety_sys sys = {.ctx = &f, .isatty = yes_tty, .ask = record_ask};
	struct safety_opts o = {.allow_prompt = true, .sys = &sys};

	assert_int_equal(safety_confirm_destructive(&t, "write", &o, reason, sizeof reason), 0);
	assert_non_null(strstr(f.prompt, "  model   INTEL SSDPE2KX010T8\n"));
	assert_non_null(strstr(f.prompt, "  firmware VDV10131\n"));
	assert_non_null(strstr(f.prompt, "  drive   transport nvme, namespace 1, LBA format #1 (4096 B data, "
					 "8 B metadata)\n"));
	assert_non_null(strstr(f.prompt, "  size    4 KiB (4096 bytes)\n"));
	/* no terminal: the refusal says the same */
	o.allow_prompt = false;
	assert_int_equal(safety_confirm_destructive(&t, "write", &o, reason, sizeof reason), -EPERM);
	assert_non_null(strstr(reason, "INTEL SSDPE2KX010T8, serial PHLJ91230ABC1P0FGN, firmware VDV10131, 4 KiB; "
				       "transport nvme, namespace 1, LBA format #1 (4096 B data, 8 B metadata)"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvme),	      cmocka_unit_test(test_nvme_refused),
		cmocka_unit_test(test_sata_hpa),      cmocka_unit_test(test_sata_refused),
		cmocka_unit_test(test_other),	      cmocka_unit_test(test_target_json),
		cmocka_unit_test(test_confirmation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
