// SPDX-License-Identifier: MIT
/*
 * test_ata_hpa: host/ata_hpa and the devchange kind "hpa" (targets/devchange_hpa.c) against a
 * scripted drive that keeps its capacity state (hpa_drive.h). Numbers worked by hand:
 *   - the drive: 1,000,000 sectors of 512 bytes, native max LBA 999,999 = 0x0F423F.
 *   - 80 % of it: 800,000 sectors, max LBA 799,999 = 0x0C34FF; LBA bytes of the CDB (SAT-3
 *     12.2.2, reference E): [8] 7:0 = 0xFF, [10] 15:8 = 0x34, [12] 23:16 = 0x0C, [7] [9] [11]
 *     (31:24, 39:32, 47:40) = 0. Native 0x0F423F: [8] 0x3F, [10] 0x42, [12] 0x0F.
 *   - byte 1: non-data (3) << 1 | EXTEND = 0x07; byte 2: CK_COND 0x20; byte 13: device 0x40.
 *   - SET MAX ADDRESS EXT 0x37, COUNT bit 0 = VV: [6] = 0 volatile, 1 persistent.
 *   - AMAC 0x78 with feature [4] = 0 GET NATIVE, 1 SET ACCESSIBLE, 2 FREEZE (ACS-3 7.6).
 *   - DCO IDENTIFY 0xB1 feature 0xC2, PIO-in (4 << 1 = 0x08), 0x0e, count 1.
 *   - a pre-existing HPA at max LBA 899,999: 100,000 sectors x 512 = 51,200,000 bytes hidden.
 *   - a DCO with max LBA 1,199,999 over a native max of 999,999: the overlay limits it.
 *   - the run's range after a volatile set to 80 %: 800,000 x 512 = 409,600,000 bytes, below
 *     the kernel's 512,000,000.
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
#include <json-c/json.h>

#include "host/ata_hpa.h"
#include "targets/devchange.h"
#include "targets/devchange_hpa.h"
#include "targets/drive_capacity.h"

#include "hpa_drive.h"

#define NATIVE 999999u
#define EIGHTY 799999u

static const uint8_t IDENTIFY_CDB[16] = {0x85, 0x08, 0x0e, 0, 0, 0, 1,	  0,
					 0,    0,    0,	   0, 0, 0, 0xec, 0};
static const uint8_t READ_NATIVE_CDB[16] = {0x85, 0x07, 0x20, 0, 0, 0,	  0,	0,
					    0,	  0,	0,    0, 0, 0x40, 0x27, 0};
static const uint8_t SET80_VOL_CDB[16] = {0x85, 0x07, 0x20, 0, 0,    0,	   0,	 0,
					  0xff, 0,    0x34, 0, 0x0c, 0x40, 0x37, 0};
static const uint8_t SET80_NV_CDB[16] = {0x85, 0x07, 0x20, 0, 0,    0,	  1,	0,
					 0xff, 0,    0x34, 0, 0x0c, 0x40, 0x37, 0};
static const uint8_t RESTORE_NV_CDB[16] = {0x85, 0x07, 0x20, 0, 0,    0,    1,	  0,
					   0x3f, 0,    0x42, 0, 0x0f, 0x40, 0x37, 0};
static const uint8_t GET_NATIVE_CDB[16] = {0x85, 0x07, 0x20, 0, 0, 0,	 0,    0,
					   0,	 0,    0,    0, 0, 0x40, 0x78, 0};
static const uint8_t AMAC_SET80_CDB[16] = {0x85, 0x07, 0x20, 0, 1,    0,    0,	  0,
					   0xff, 0,    0x34, 0, 0x0c, 0x40, 0x78, 0};
static const uint8_t AMAC_RESTORE_CDB[16] = {0x85, 0x07, 0x20, 0, 1,	0,    0,    0,
					     0x3f, 0,	 0x42, 0, 0x0f, 0x40, 0x78, 0};
static const uint8_t AMAC_FREEZE_CDB[16] = {0x85, 0x07, 0x20, 0, 2, 0,	  0,	0,
					    0,	  0,	0,    0, 0, 0x40, 0x78, 0};
static const uint8_t DCO_CDB[16] = {0x85, 0x08, 0x0e, 0, 0xc2, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0xb1, 0};

static struct hpa_drive fresh(void)
{
	struct hpa_drive d;
	memset(&d, 0, sizeof d);
	d.native_max_lba = d.current_max_lba = NATIVE;
	return d;
}

static struct ioctl_ops ops_for(struct hpa_drive *d)
{
	return (struct ioctl_ops){.sg_io = hpa_drive_sg_io, .ctx = d};
}

static struct devchange_ctx ctx_for(const struct ioctl_ops *ops)
{
	return (struct devchange_ctx){
	    .ops = ops, .fd = 7, .path = "/dev/sdz", .transport = DRIVEDB_ATA};
}

static void test_cdbs(void **state)
{
	(void)state;
	uint8_t cdb[16];
	struct ata_cmd c;

	c = ata_cmd_set_max_ext(EIGHTY, true);
	ata_cmd_cdb(&c, cdb);
	assert_memory_equal(cdb, SET80_VOL_CDB, 16);
	c = ata_cmd_set_max_ext(EIGHTY, false);
	ata_cmd_cdb(&c, cdb);
	assert_memory_equal(cdb, SET80_NV_CDB, 16);
	c = ata_cmd_get_native_max_ext();
	ata_cmd_cdb(&c, cdb);
	assert_memory_equal(cdb, GET_NATIVE_CDB, 16);
	c = ata_cmd_set_accessible_max_ext(EIGHTY);
	ata_cmd_cdb(&c, cdb);
	assert_memory_equal(cdb, AMAC_SET80_CDB, 16);
	c = ata_cmd_freeze_accessible_max_ext();
	ata_cmd_cdb(&c, cdb);
	assert_memory_equal(cdb, AMAC_FREEZE_CDB, 16);
	c = ata_cmd_dco_identify();
	ata_cmd_cdb(&c, cdb);
	assert_memory_equal(cdb, DCO_CDB, 16);
}

/* set to 80 % (volatile) and back through the kind row: the commands in order, the state */
static void test_set_restore_hpa(void **state)
{
	(void)state;
	struct hpa_drive d = fresh();
	struct ioctl_ops ops = ops_for(&d);
	struct devchange_ctx c = ctx_for(&ops);
	const struct devchange_kind *k = devchange_kind("hpa");
	struct json_object *from = NULL, *to, *now = NULL;
	char err[256], cmd[512];
	uint64_t m, n;
	bool v;

	assert_non_null(k);
	assert_string_equal(k->id_prefix, "hpa");
	assert_int_equal(k->read(&c, &from, err, sizeof err), 0);
	assert_int_equal(devchange_hpa_parse(from, &m, &n, &v), 0);
	assert_int_equal(m, NATIVE);
	assert_int_equal(n, NATIVE);
	assert_false(v);
	to = devchange_hpa_value(EIGHTY, NATIVE, true);
	assert_false(k->persistent(to));
	assert_true(k->persistent(from));
	assert_int_equal(k->describe(&c, to, cmd, sizeof cmd), 0);
	assert_non_null(strstr(cmd, "READ NATIVE MAX ADDRESS EXT, then SET MAX ADDRESS EXT"));
	assert_non_null(strstr(cmd, "85 07 20 00 00 00 00 00 ff 00 34 00 0c 40 37 00"));
	d.ncdb = 0;
	assert_int_equal(k->send(&c, to, err, sizeof err), 0);
	/* the probe (IDENTIFY, READ NATIVE MAX), then the read right before the set, then the set
	 */
	assert_int_equal(d.ncdb, 4);
	assert_memory_equal(d.cdbs[0], IDENTIFY_CDB, 16);
	assert_memory_equal(d.cdbs[1], READ_NATIVE_CDB, 16);
	assert_memory_equal(d.cdbs[2], READ_NATIVE_CDB, 16);
	assert_memory_equal(d.cdbs[3], SET80_VOL_CDB, 16);
	assert_int_equal(d.current_max_lba, EIGHTY);
	assert_true(d.last_volatile);
	assert_int_equal(k->read(&c, &now, err, sizeof err), 0);
	assert_true(k->same(now, to));
	assert_false(k->same(now, from));
	/* the restore sends `from`: a non-volatile set back to the native max */
	d.ncdb = 0;
	assert_int_equal(k->send(&c, from, err, sizeof err), 0);
	assert_int_equal(d.ncdb, 4);
	assert_memory_equal(d.cdbs[3], RESTORE_NV_CDB, 16);
	assert_int_equal(d.current_max_lba, NATIVE);
	json_object_put(now);
	json_object_put(to);
	json_object_put(from);
}

/* --persistent, then the restore in the same power cycle: the drive aborts the second
 * non-volatile set (hdparm.8) and the kind says so; after a power cycle the restore works */
static void test_persistent_needs_power_cycle(void **state)
{
	(void)state;
	struct hpa_drive d = fresh();
	struct ioctl_ops ops = ops_for(&d);
	struct devchange_ctx c = ctx_for(&ops);
	const struct devchange_kind *k = devchange_kind("hpa");
	struct json_object *to = devchange_hpa_value(EIGHTY, NATIVE, false);
	struct json_object *back = devchange_hpa_value(NATIVE, NATIVE, false);
	char err[256];

	assert_int_equal(k->send(&c, to, err, sizeof err), 0);
	assert_memory_equal(d.cdbs[d.ncdb - 1], SET80_NV_CDB, 16);
	assert_int_equal(k->send(&c, back, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "aborted"));
	assert_int_equal(d.current_max_lba, EIGHTY);
	d.nv_set_this_cycle = false; /* a power cycle */
	assert_int_equal(k->send(&c, back, err, sizeof err), 0);
	assert_int_equal(d.current_max_lba, NATIVE);
	json_object_put(to);
	json_object_put(back);
}

static void test_frozen_locked_usb(void **state)
{
	(void)state;
	struct hpa_drive d = fresh();
	struct ioctl_ops ops = ops_for(&d);
	struct devchange_ctx c = ctx_for(&ops);
	struct ata_hpa_state st;
	struct json_object *to = devchange_hpa_value(EIGHTY, NATIVE, true);
	char err[256], why[256];

	d.frozen = true;
	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), 0);
	assert_true(st.security_frozen);
	assert_int_equal(ata_hpa_refusal(&st, false, EIGHTY, true, false, why, sizeof why), -EPERM);
	assert_non_null(strstr(why, "frozen"));
	assert_non_null(strstr(why, "suspend/resume"));
	d.ncdb = 0;
	assert_int_equal(devchange_kind("hpa")->send(&c, to, err, sizeof err), -EPERM);
	for (int i = 0; i < d.ncdb; i++)
		assert_int_not_equal(d.cdbs[i][14], 0x37); /* no change sent */
	d.frozen = false, d.locked = true;
	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), 0);
	assert_int_equal(ata_hpa_refusal(&st, false, EIGHTY, true, false, why, sizeof why), -EPERM);
	assert_non_null(strstr(why, "locked"));
	d.locked = false;
	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), 0);
	assert_int_equal(ata_hpa_refusal(&st, true, EIGHTY, true, false, why, sizeof why), -EPERM);
	assert_non_null(strstr(why, "USB bridge"));
	assert_int_equal(ata_hpa_refusal(&st, false, EIGHTY, true, false, why, sizeof why), 0);
	assert_int_equal(ata_hpa_refusal(&st, false, NATIVE + 1, true, false, why, sizeof why),
			 -EINVAL);
	/* a bridge that answers ATA PASS-THROUGH with ILLEGAL REQUEST: named, nothing else sent */
	d.no_passthrough = true, d.ncdb = 0;
	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "SCSI sense key 0x5, ASC 0x20"));
	assert_non_null(strstr(err, "USB bridge or SAS HBA"));
	assert_int_equal(d.ncdb, 1);
	json_object_put(to);
}

static void test_dco(void **state)
{
	(void)state;
	struct hpa_drive d = fresh();
	struct ioctl_ops ops = ops_for(&d);
	struct ata_hpa_state st;
	char err[256], why[256];

	d.dco = true, d.dco_max_lba = 1199999;
	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), 0);
	assert_memory_equal(d.cdbs[2], DCO_CDB, 16);
	assert_true(st.dco_supported);
	assert_true(st.dco_known);
	assert_int_equal(st.dco_max_lba, 1199999);
	assert_true(st.dco_limits);
	assert_int_equal(ata_hpa_refusal(&st, false, EIGHTY, true, false, why, sizeof why), -EPERM);
	assert_non_null(
	    strstr(why, "Device Configuration Overlay limits the native max LBA to 999999"));
	/* an overlay that hides nothing is no reason to refuse */
	d.dco_max_lba = NATIVE;
	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), 0);
	assert_false(st.dco_limits);
	assert_int_equal(ata_hpa_refusal(&st, false, EIGHTY, true, false, why, sizeof why), 0);
	/* a drive that aborts DCO IDENTIFY: unknown with the reason, not an error */
	d.fail_op = 0xb1;
	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), 0);
	assert_false(st.dco_known);
	assert_non_null(strstr(st.dco_why, "DEVICE CONFIGURATION IDENTIFY"));
}

static void test_preexisting_hpa(void **state)
{
	(void)state;
	struct hpa_drive d = fresh();
	struct ioctl_ops ops = ops_for(&d);
	struct ata_hpa_state st;
	char err[256], why[256];

	d.current_max_lba = 899999;
	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), 0);
	assert_int_equal(st.method, ATA_HPA_HPA);
	assert_int_equal(st.current_max_lba, 899999);
	assert_int_equal(st.native_max_lba, NATIVE);
	assert_int_equal(st.hidden_bytes, 51200000);
	assert_int_equal(ata_hpa_refusal(&st, false, EIGHTY, true, false, why, sizeof why), -EPERM);
	assert_non_null(strstr(why, "ssdlab did not set"));
	assert_non_null(strstr(why, "51200000 bytes hidden"));
	/* a restore of ssdlab's own change is allowed */
	assert_int_equal(ata_hpa_refusal(&st, false, NATIVE, false, true, why, sizeof why), 0);
}

/* the read goes through, the set is aborted: the error names it, the capacity is unchanged;
 * and SET MAX without the read right before it is aborted by the drive (ACS-2 7.51.1) */
static void test_fails_midway(void **state)
{
	(void)state;
	struct hpa_drive d = fresh();
	struct ioctl_ops ops = ops_for(&d);
	struct ata_regs r;
	struct ata_cmd sm = ata_cmd_set_max_ext(EIGHTY, true);
	char err[256];

	d.fail_op = 0x37;
	assert_int_equal(
	    ata_hpa_set(&ops, 7, ATA_HPA_HPA, EIGHTY, true, false, NULL, err, sizeof err), -EIO);
	assert_int_equal(d.ncdb, 2);
	assert_memory_equal(d.cdbs[0], READ_NATIVE_CDB, 16);
	assert_memory_equal(d.cdbs[1], SET80_VOL_CDB, 16);
	assert_non_null(strstr(err, "SET MAX ADDRESS EXT: ATA error: status 0x51, error 0x04"));
	assert_int_equal(d.current_max_lba, NATIVE);
	d.fail_op = 0;
	d.last_op = 0xec;
	assert_int_equal(ata_cmd_send(&ops, 7, &sm, NULL, &r, err, sizeof err), -EIO);
	assert_int_equal(d.current_max_lba, NATIVE);
	/* a failed read: nothing set */
	d.fail_op = 0x27, d.ncdb = 0;
	assert_int_equal(
	    ata_hpa_set(&ops, 7, ATA_HPA_HPA, EIGHTY, true, false, NULL, err, sizeof err), -EIO);
	assert_int_equal(d.ncdb, 1);
	assert_non_null(strstr(err, "READ NATIVE MAX ADDRESS EXT"));
}

static void test_amac(void **state)
{
	(void)state;
	struct hpa_drive d = fresh();
	struct ioctl_ops ops = ops_for(&d);
	struct devchange_ctx c = ctx_for(&ops);
	const struct devchange_kind *k = devchange_kind("hpa");
	struct ata_hpa_state st;
	struct json_object *vol = devchange_hpa_value(EIGHTY, NATIVE, true);
	struct json_object *per = devchange_hpa_value(EIGHTY, NATIVE, false);
	struct json_object *back = devchange_hpa_value(NATIVE, NATIVE, false);
	char err[256], why[256];

	d.amac = true;
	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), 0);
	assert_int_equal(st.method, ATA_HPA_AMAC);
	assert_string_equal(ata_hpa_method_name(st.method), "AMAC");
	assert_memory_equal(d.cdbs[1], GET_NATIVE_CDB, 16);
	assert_int_equal(st.native_max_lba, NATIVE);
	assert_int_equal(ata_hpa_refusal(&st, false, EIGHTY, true, false, why, sizeof why),
			 -EOPNOTSUPP);
	assert_non_null(strstr(why, "no volatile form"));
	assert_int_equal(k->send(&c, vol, err, sizeof err), -EOPNOTSUPP);
	assert_int_equal(d.current_max_lba, NATIVE);
	d.ncdb = 0;
	assert_int_equal(k->send(&c, per, err, sizeof err), 0);
	assert_int_equal(d.ncdb, 3); /* IDENTIFY, GET NATIVE MAX, SET ACCESSIBLE MAX: no 0x27 */
	assert_memory_equal(d.cdbs[2], AMAC_SET80_CDB, 16);
	assert_int_equal(d.current_max_lba, EIGHTY);
	d.ncdb = 0;
	assert_int_equal(k->send(&c, back, err, sizeof err), 0);
	assert_memory_equal(d.cdbs[2], AMAC_RESTORE_CDB, 16);
	assert_int_equal(d.current_max_lba, NATIVE);
	json_object_put(vol);
	json_object_put(per);
	json_object_put(back);
}

/* a drive that advertises neither method but answers READ NATIVE MAX (as QEMU's AHCI disk):
 * its state is read, a change refused; without the answer, -EOPNOTSUPP */
static void test_no_method(void **state)
{
	(void)state;
	struct hpa_drive d = fresh();
	struct ioctl_ops ops = ops_for(&d);
	struct ata_hpa_state st;
	char err[256], why[256];

	d.no_hpa_bit = true;
	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), 0);
	assert_int_equal(st.method, ATA_HPA_NONE);
	assert_int_equal(st.native_max_lba, NATIVE);
	assert_int_equal(ata_hpa_refusal(&st, false, EIGHTY, true, false, why, sizeof why),
			 -EOPNOTSUPP);
	assert_non_null(strstr(why, "advertises neither HPA"));
	d.fail_op = 0x27;
	assert_int_equal(ata_hpa_probe(&ops, 7, &st, err, sizeof err), -EOPNOTSUPP);
	assert_non_null(strstr(err, "SCRIPTED HPA DRIVE: supports neither HPA nor"));
}

/* the kind in a dry run: prints the commands and sends nothing, IDENTIFY included */
static void test_kind_dry_run(void **state)
{
	(void)state;
	struct hpa_drive d = fresh();
	struct ioctl_ops ops = ops_for(&d);
	struct devchange_ctx c = ctx_for(&ops);
	const struct devchange_kind *k = devchange_kind("hpa");
	struct json_object *vol = devchange_hpa_value(EIGHTY, NATIVE, true);
	struct json_object *per = devchange_hpa_value(EIGHTY, NATIVE, false);
	char buf[4096] = "", cmd[512], err[256];
	FILE *f = fmemopen(buf, sizeof buf, "w");

	assert_non_null(f);
	c.dry_run = true, c.dry_out = f;
	assert_int_equal(k->describe(&c, vol, cmd, sizeof cmd), 0);
	assert_non_null(strstr(cmd, "85 07 20 00 00 00 00 00 ff 00 34 00 0c 40 37 00"));
	assert_int_equal(k->send(&c, vol, err, sizeof err), 0);
	assert_int_equal(k->describe(&c, per, cmd, sizeof cmd), 0);
	assert_non_null(strstr(cmd, "max LBA 799999"));
	assert_int_equal(k->send(&c, per, err, sizeof err), 0);
	fclose(f);
	assert_int_equal(d.ncdb, 0);
	assert_non_null(strstr(buf, "85 07 20 00 00 00 00 00 ff 00 34 00 0c 40 37 00"));
	assert_non_null(strstr(buf, "on an HPA drive:"));
	assert_non_null(strstr(buf, "85 07 20 00 00 00 01 00 ff 00 34 00 0c 40 37 00"));
	assert_non_null(strstr(buf, "on an AMAC drive (ACS-3):"));
	assert_non_null(strstr(buf, "85 07 20 00 01 00 00 00 ff 00 34 00 0c 40 78 00"));
	json_object_put(vol);
	json_object_put(per);
}

/* --dry-run prints the commands with their CDBs and sends nothing */
static void test_dry_run(void **state)
{
	(void)state;
	struct hpa_drive d = fresh();
	struct ioctl_ops ops = ops_for(&d);
	char buf[2048] = "", err[256];
	FILE *f = fmemopen(buf, sizeof buf, "w");

	assert_non_null(f);
	assert_int_equal(ata_hpa_set(&ops, 7, ATA_HPA_HPA, EIGHTY, true, true, f, err, sizeof err),
			 0);
	fclose(f);
	assert_int_equal(d.ncdb, 0);
	assert_non_null(strstr(buf, "READ NATIVE MAX ADDRESS EXT: command 0x27"));
	assert_non_null(strstr(buf,
			       "SET MAX ADDRESS EXT: command 0x37 feature 0x0000 count 0x0000 lba "
			       "0x0000000c34ff"));
	assert_non_null(strstr(buf, "85 07 20 00 00 00 00 00 ff 00 34 00 0c 40 37 00"));
}

/* a volatile set the kernel does not see: ssdlab's range is the drive's; a reset that drops
 * the HPA between phases is caught */
static void test_run_capacity(void **state)
{
	(void)state;
	struct hpa_drive d = fresh();
	struct ioctl_ops ops = ops_for(&d);
	struct target_info *ti = calloc(1, sizeof *ti);
	char err[512];

	assert_non_null(ti);
	d.current_max_lba = EIGHTY;
	ti->kind = TARGET_KIND_BLOCKDEV;
	snprintf(ti->path, sizeof ti->path,
		 "/dev/null"); /* opened; the commands go to the script */
	ti->has_drive = true;
	ti->drive.kind = DRIVE_IDENT_SATA;
	drive_ident_ata_fd(&ops, 7, &ti->drive.ata);
	assert_true(ti->drive.ata.read);
	assert_int_equal(drive_capacity_limit(&ti->drive, 512000000), 409600000);
	assert_int_equal(drive_capacity_limit(&ti->drive, 400000000), 400000000);
	ti->capacity = 409600000;
	assert_int_equal(drive_capacity_recheck(ti, &ops, err, sizeof err), 0);
	d.current_max_lba = NATIVE; /* a host reset dropped the volatile HPA */
	assert_int_equal(drive_capacity_recheck(ti, &ops, err, sizeof err), -ESTALE);
	assert_non_null(strstr(err, "from 800000 to 1000000 sectors"));
	d.fail_op = 0xec; /* not answering: not checked, no failure */
	assert_int_equal(drive_capacity_recheck(ti, &ops, err, sizeof err), 1);
	/* not a SATA drive identified at open: nothing sent */
	d.ncdb = 0;
	ti->drive.kind = DRIVE_IDENT_NVME;
	assert_int_equal(drive_capacity_recheck(ti, &ops, err, sizeof err), 0);
	assert_int_equal(d.ncdb, 0);
	free(ti);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cdbs),
	    cmocka_unit_test(test_set_restore_hpa),
	    cmocka_unit_test(test_persistent_needs_power_cycle),
	    cmocka_unit_test(test_frozen_locked_usb),
	    cmocka_unit_test(test_dco),
	    cmocka_unit_test(test_preexisting_hpa),
	    cmocka_unit_test(test_fails_midway),
	    cmocka_unit_test(test_amac),
	    cmocka_unit_test(test_no_method),
	    cmocka_unit_test(test_dry_run),
	    cmocka_unit_test(test_kind_dry_run),
	    cmocka_unit_test(test_run_capacity),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
