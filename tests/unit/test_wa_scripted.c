// SPDX-License-Identifier: MIT
/*
 * test_wa_scripted: write amplification end to end for what QEMU's drives lack (issue 11,
 * "Scripted snapshots"). A scripted drive answers the ioctl table (SG_IO for ATA, NVMe admin
 * commands) from counters that advance between "phase boundaries"; targets/drive_snapshot takes
 * each boundary's snapshot as the runner does (reads until two agree), the results writer stores
 * them beside a record of the bytes ssdlab "wrote", and analysis/analyze reads the directory
 * back into summary.json's wa entries. The drive database is the project's own
 * (profiles/drives/drives.yaml), so its units are what is checked.
 *
 * The interval rule (analysis/wa.h): a counter of unit u read as a delta d has a true delta in
 * (d - u, d + u), so WA = N / H lies in [max(N - rn, 0) / (H + rh), (N + rn) / (H - rh)]; for
 * page counters (Micron) WA = (P + F) / P in [1 + (F - 1) / (P + 1), 1 + (F + 1) / (P - 1)].
 * Every value below is worked out by hand beside its drive.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>
#include <json-c/json_pointer.h>

#include "analysis/analyze.h"
#include "host/ata_cmd.h"
#include "host/nvme_admin.h"
#include "host/nvme_logs.h"
#include "results/results.h"
#include "targets/drive_snapshot.h"
#include "summary_check.h"
#include "testutil.h"

#define MiB (1024.0 * 1024.0)
#define GiB (1024.0 * MiB)
#define FD 9

/* ---- the scripted drive ------------------------------------------------------------------- */

/*
 * One counter of the drive. Keys: "ata:ID" (an attribute's raw value), "ds1:0xOO" / "ds7:0xOO"
 * (a Device Statistics qword of page 1 / 7, flags in its byte 7), "nvme:duw" (SMART/Health data
 * units written), "ocp:pmw" (OCP C0 physical media written, bytes), "eg:muw" (Endurance Group
 * media units written). A new value set with a lag of k is shown only from the (k+1)-th read
 * after it: the first k reads still show the old one (a drive that counts in batches).
 */
struct field {
	char key[16];
	uint64_t shown, next;
	int lag;
	uint8_t flags;
};

struct drive {
	struct field f[8];
	size_t n;
	bool gpl;	    /* ATA: IDENTIFY word 84 bit 5, so the Device Statistics are read */
	bool endgrp;	    /* NVMe: CTRATT bit 4 and ENDGID 1: log 0x09 */
	bool ocp;	    /* NVMe: log 0xC0 answered */
	bool ocp_bad_guid;  /* ... with a GUID that is not OCP's */
	int passes;	    /* reads of the whole drive (each starts with IDENTIFY / log 0x02) */
};

static struct field *field(struct drive *d, const char *key)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->f[i].key, key))
			return &d->f[i];
	return NULL;
}

static void set(struct drive *d, const char *key, uint64_t v, uint8_t flags)
{
	struct field *x = field(d, key);

	if (!x) {
		assert_true(d->n < sizeof d->f / sizeof d->f[0]);
		x = &d->f[d->n++];
		snprintf(x->key, sizeof x->key, "%s", key);
	}
	x->shown = x->next = v;
	x->lag = 0;
	x->flags = flags;
}

/* The drive counts delta more; the next `lag` reads do not show it yet. */
static void advance(struct drive *d, const char *key, uint64_t delta, int lag)
{
	struct field *x = field(d, key);

	assert_non_null(x);
	x->next += delta;
	x->lag = lag;
	if (!lag)
		x->shown = x->next;
}

/* A read of the whole drive begins: batches counted long enough ago become visible. */
static void pass_begins(struct drive *d)
{
	d->passes++;
	for (size_t i = 0; i < d->n; i++) {
		if (d->f[i].lag)
			d->f[i].lag--;
		else
			d->f[i].shown = d->f[i].next;
	}
}

static void le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* ---- ATA over SG_IO ------------------------------------------------------------------------- */

static void identify(const struct drive *d, uint8_t *id)
{
	memset(id, 0, 512);
	le(id + 2 * 82, 0x0001, 2);		       /* SMART supported */
	le(id + 2 * 83, 0x4400, 2);		       /* valid, 48-bit */
	le(id + 2 * 84, d->gpl ? 0x4020 : 0x4000, 2); /* General Purpose Logging */
	le(id + 2 * 85, 0x0001, 2);		       /* SMART enabled */
	le(id + 2 * 100, 1000000, 4);
}

/* The attribute table of SMART READ DATA: 12-byte entries from byte 2 (reference D). */
static void smart_data(const struct drive *d, uint8_t *p)
{
	unsigned i = 0;

	memset(p, 0, 512);
	for (size_t k = 0; k < d->n; k++) {
		uint8_t *e = p + 2 + 12 * i;

		if (strncmp(d->f[k].key, "ata:", 4))
			continue;
		e[0] = (uint8_t)atoi(d->f[k].key + 4);
		e[1] = 0x03;
		e[3] = e[4] = 100;
		le(e + 5, d->f[k].shown, 6);
		i++;
	}
}

/* Device Statistics page pg (0: the list of pages 1 and 7). */
static void devstat(const struct drive *d, unsigned pg, uint8_t *p)
{
	char prefix[8];

	memset(p, 0, 512);
	p[0] = 1; /* revision */
	p[2] = (uint8_t)pg;
	if (!pg) {
		p[8] = 2, p[9] = 0x01, p[10] = 0x07;
		return;
	}
	snprintf(prefix, sizeof prefix, "ds%u:", pg);
	for (size_t k = 0; k < d->n; k++) {
		if (strncmp(d->f[k].key, prefix, 4))
			continue;
		unsigned off = (unsigned)strtoul(d->f[k].key + 4, NULL, 16);
		le(p + off, d->f[k].shown, 7);
		p[off + 7] = d->f[k].flags;
	}
}

/* SMART RETURN STATUS: "good" (C2h/4Fh in LBA 23:8) in a descriptor-format sense's ATA Status
 * Return descriptor (SAT-3 12.2.2.6). */
static void good_status(struct sg_io_hdr *h)
{
	uint8_t sb[22] = {0x72, 0x01, 0, 0x1d, 0, 0, 0, 14, 0x09, 0x0c};

	sb[8 + 9] = 0x4f;  /* LBA 15:8 */
	sb[8 + 11] = 0xc2; /* LBA 23:16 */
	sb[8 + 13] = 0x50; /* status: ready */
	assert_true(sizeof sb <= h->mx_sb_len);
	memcpy(h->sbp, sb, sizeof sb);
	h->sb_len_wr = sizeof sb;
	h->status = 0x02;
	h->driver_status = 0x08;
}

static int drive_sg_io(void *ctx, int fd, struct sg_io_hdr *h)
{
	struct drive *d = ctx;
	const uint8_t *cdb = h->cmdp;
	uint8_t *buf = h->dxferp;

	assert_int_equal(fd, FD);
	switch (cdb[14]) {
	case ATA_OP_IDENTIFY:
		pass_begins(d);
		identify(d, buf);
		return 0;
	case ATA_OP_SMART:
		if (cdb[4] == ATA_SMART_RETURN_STATUS)
			good_status(h);
		else if (cdb[4] == ATA_SMART_READ_DATA)
			smart_data(d, buf);
		else
			memset(buf, 0, 512); /* thresholds: none */
		return 0;
	case ATA_OP_READ_LOG_EXT:
		assert_int_equal(cdb[8], 0x04); /* Device Statistics */
		assert_true(d->gpl);
		devstat(d, cdb[10], buf);
		return 0;
	default:
		fail_msg("unscripted ATA command 0x%02x", cdb[14]);
		return -EIO;
	}
}

/* ---- NVMe admin ------------------------------------------------------------------------------- */

static uint64_t shown(struct drive *d, const char *key)
{
	struct field *x = field(d, key);

	return x ? x->shown : 0;
}

static int drive_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct drive *d = ctx;
	uint8_t *p = (uint8_t *)(uintptr_t)cmd->addr;

	assert_int_equal(fd, FD);
	memset(p, 0, cmd->data_len);
	if (cmd->opcode == 0x06) {
		if ((cmd->cdw10 & 0xff) == 0x01 && d->endgrp)
			le(p + 96, 1u << 4, 4); /* Identify Controller: CTRATT Endurance Groups */
		if ((cmd->cdw10 & 0xff) == 0x00 && d->endgrp)
			le(p + 102, 1, 2); /* Identify Namespace: ENDGID 1 */
		return 0;
	}
	assert_int_equal(cmd->opcode, NVME_ADMIN_GET_LOG_PAGE);
	switch (cmd->cdw10 & 0xff) {
	case NVME_LOG_SMART:
		pass_begins(d);
		le(p + 1, 300, 2); /* 300 K */
		le(p + 48, shown(d, "nvme:duw"), 8);
		return 0;
	case NVME_LOG_ENDURANCE:
		if (!d->endgrp)
			return 0x4002;
		assert_int_equal(cmd->cdw11 >> 16, 1); /* the namespace's ENDGID */
		le(p + 80, shown(d, "eg:muw"), 8);
		return 0;
	case NVME_LOG_OCP_C0:
		if (!d->ocp)
			return 0x4002; /* Invalid Field: the drive has no such log */
		le(p + 0, shown(d, "ocp:pmw"), 8);
		memcpy(p + 496, nvme_ocp_c0_guid, 16);
		if (d->ocp_bad_guid)
			p[496] ^= 0xff;
		return 0;
	default:
		return 0x4002;
	}
}

/* ---- one run: snapshots at the boundaries, a write record, the analysis ------------------------ */

struct fixture {
	char *tmp;
	char dir[512];
	int runs;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || !(f->tmp = tu_mkdtemp("wa_scripted")))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	tu_rmtree(f->tmp);
	free(f->tmp);
	free(f);
	return 0;
}

struct run {
	const char *model;
	enum drivedb_transport transport;
	uint32_t sector_bytes; /* ATA: the logical sector size */
	unsigned max_reads;    /* of the settle loop (0: the default, 5) */
	double written;	       /* bytes the phase's record says ssdlab wrote */
	/* what the drive counts during the phase (applied between its start and end) */
	void (*phase)(struct drive *d);
	/* out, from the phase-end snapshot: the reads it took, the drive database entry it was
	 * mapped with and the counter its host bytes came from ("" when none) */
	unsigned end_reads;
	char entry[128], host_counter[32];
};

static void take(struct results *r, struct drive_snapshot *ds, const char *label, int phase,
		 struct run *out)
{
	struct snapshot s;
	struct json_object *v;
	char err[256] = "";

	snapshot_init(&s, "none");
	snprintf(s.label, sizeof s.label, "%s", label);
	if (drive_snapshot_take(ds, false, &s, err, sizeof err))
		fail_msg("snapshot %s: %s", label, err);
	if (out) {
		assert_true(json_object_object_get_ex(s.raw, "reads", &v));
		out->end_reads = (unsigned)json_object_get_int(v);
		snprintf(out->entry, sizeof out->entry, "%s",
			 json_pointer_get(s.raw, "/drivedb/name", &v) ? "" : json_object_get_string(v));
		snprintf(out->host_counter, sizeof out->host_counter, "%s",
			 json_object_object_get_ex(s.raw, "host_counter", &v) ? json_object_get_string(v) : "");
	}
	assert_int_equal(results_write_snapshot(r, &s, phase, 0), 0);
	snapshot_release(&s);
}

static void rec_write(struct results *r, double bytes)
{
	struct results_record rec = {.kind = "precondition", .phase = 0, .phase_kind = "precondition"};
	struct json_object *o = results_record_to_json(&rec), *w = json_object_new_object();

	assert_non_null(o);
	json_object_object_add(o, "bytes_written_total", json_object_new_uint64((uint64_t)bytes));
	json_object_object_add(w, "bytes", json_object_new_uint64((uint64_t)bytes));
	json_object_object_add(o, "write", w);
	assert_int_equal(results_append_record(r, o), 0);
	json_object_put(o);
}

/*
 * run-start and phase-0-start, the phase (the drive counts, the record says what was written),
 * phase-0-end and run-end, each a settled snapshot through the drive's ioctl table and the
 * project's drive database; then analyze. Returns summary.json (json_object_put()).
 */
static struct json_object *run_drive(struct fixture *f, struct drive *d, struct run *rn)
{
	struct ioctl_ops ops = {.ctx = d};
	struct drive_snapshot_cfg cfg = {
		.ops = &ops, .fd = FD, .transport = rn->transport, .model = rn->model, .nsid = 1,
		.sector_bytes = rn->sector_bytes,
		/* no real waiting in a unit test */
		.opts = {.settle_ns = UINT64_MAX, .interval_ns = UINT64_MAX, .max_reads = rn->max_reads},
	};
	struct drive_snapshot *ds = NULL;
	struct json_object *m = json_object_new_object(), *s = NULL;
	struct results *r;
	char err[256] = "";

	if (rn->transport == DRIVEDB_ATA)
		ops.sg_io = drive_sg_io;
	else
		ops.admin = drive_admin;
	snprintf(f->dir, sizeof f->dir, "%s/run%d", f->tmp, f->runs++);
	if (drive_snapshot_open(&cfg, &ds, err, sizeof err))
		fail_msg("drive_snapshot_open: %s", err);
	assert_int_equal(results_create(f->dir, &r), 0);
	json_object_object_add(m, "profile", json_object_new_string("scripted"));
	assert_int_equal(results_write_manifest(r, m, NULL), 0);
	json_object_put(m);
	take(r, ds, "run-start", -1, NULL);
	take(r, ds, "phase-0-start", 0, NULL);
	rn->phase(d);
	rec_write(r, rn->written);
	take(r, ds, "phase-0-end", 0, rn);
	take(r, ds, "run-end", -1, NULL);
	results_close(r);
	drive_snapshot_free(ds);
	if (analyze_dir(f->dir, &s, err, sizeof err))
		fail_msg("analyze %s: %s", f->dir, err);
	return s;
}

/* ---- reading the summary ------------------------------------------------------------------------ */

/* at, num_is, null_is, str_is, bool_is, len_of: summary_check.h */

/* ---- the drives --------------------------------------------------------------------------------- */

/*
 * (a) Micron/Crucial MX500 (the database's "Crucial/Micron client" entry: 246 host sectors of
 * 512 B, 247 host pages, 248 FTL pages). The phase writes 1 GiB: 246 grows by 2,097,152 sectors
 * (1 GiB), 247 by 32,768 pages and 248 by 8,192. WA = (32768 + 8192) / 32768 = 1.25 within
 * [1 + 8191 / 32769, 1 + 8193 / 32767]; the sector counter cross-checks 1 GiB against 1 GiB.
 */
static void micron_phase(struct drive *d)
{
	advance(d, "ata:246", 2097152, 0);
	advance(d, "ata:247", 32768, 0);
	advance(d, "ata:248", 8192, 0);
}

static void test_micron(void **state)
{
	struct drive d = {0};
	struct run rn = {.model = "CT500MX500SSD1", .transport = DRIVEDB_ATA, .sector_bytes = 512,
			 .written = GiB, .phase = micron_phase};
	struct json_object *s;

	set(&d, "ata:246", 20000000, 0);
	set(&d, "ata:247", 1000000, 0);
	set(&d, "ata:248", 400000, 0);
	s = run_drive(*state, &d, &rn);
	assert_string_equal(rn.entry, "Crucial/Micron client (MX100-MX500, BX300/500, M500-M600, 1100/1300)");
	assert_string_equal(rn.host_counter, "ata:246");
	assert_int_equal(rn.end_reads, 2); /* the counters moved before the flush: 2 reads agree */
	num_is(s, "/wa/phases/0/wa", 1.25);
	num_is(s, "/wa/phases/0/interval/0", 1 + 8191.0 / 32769.0);
	num_is(s, "/wa/phases/0/interval/1", 1 + 8193.0 / 32767.0);
	str_is(s, "/wa/phases/0/resolution/unit", "pages");
	num_is(s, "/wa/phases/0/host_pages_written", 32768);
	num_is(s, "/wa/phases/0/ftl_pages_written", 8192);
	num_is(s, "/wa/phases/0/host_check/counter_bytes", GiB);
	num_is(s, "/wa/phases/0/host_check/written_bytes", GiB);
	bool_is(s, "/wa/phases/0/host_check/match", true);
	bool_is(s, "/wa/phases/0/compression", false);
	num_is(s, "/wa/run/wa", 1.25);
	json_object_put(s);
}

/*
 * (b) Samsung enterprise PM871 (the "CM871a/PM871" entry: 241 in 512 B sectors, 249 NAND writes
 * in 1 GiB). The phase writes 64 GiB: 241 grows by 134,217,728 sectors, 249 by 80 GiB.
 * WA = 80 / 64 = 1.25 within [79 GiB / (64 GiB + 512), 81 GiB / (64 GiB - 512)].
 */
static void samsung_phase(struct drive *d)
{
	advance(d, "ata:241", 134217728, 0);
	advance(d, "ata:249", 80, 0);
}

static void samsung_drive(struct drive *d)
{
	set(d, "ata:241", 100000000, 0);
	set(d, "ata:249", 500, 0);
}

static void samsung_wa_is(struct json_object *s, const char *entry)
{
	num_is(s, entry, 1.25);
}

static void test_samsung_enterprise(void **state)
{
	struct drive d = {0};
	struct run rn = {.model = "SAMSUNG MZ7LN256HCHP-000L7", .transport = DRIVEDB_ATA, .sector_bytes = 512,
			 .written = 64 * GiB, .phase = samsung_phase};
	struct json_object *s;

	samsung_drive(&d);
	s = run_drive(*state, &d, &rn);
	assert_string_equal(rn.entry, "Samsung enterprise CM871a/PM871");
	assert_string_equal(rn.host_counter, "ata:241");
	samsung_wa_is(s, "/wa/phases/0/wa");
	num_is(s, "/wa/phases/0/interval/0", 79 * GiB / (64 * GiB + 512));
	num_is(s, "/wa/phases/0/interval/1", 81 * GiB / (64 * GiB - 512));
	num_is(s, "/wa/phases/0/resolution/host", 512);
	num_is(s, "/wa/phases/0/resolution/nand", GiB);
	num_is(s, "/wa/phases/0/host_bytes_written", 64 * GiB);
	num_is(s, "/wa/phases/0/nand_bytes_written", 80 * GiB);
	bool_is(s, "/wa/phases/0/host_check/match", true);
	bool_is(s, "/wa/phases/0/unverified", false);
	json_object_put(s);
}

/*
 * (c) SandForce (Kingston SSDNow V300, the "SandForce-driven" entry: 241 and 233 in 1 GiB, a
 * compressing controller). The phase writes 100 GiB; 241 grows by 100, 233 by 60: WA = 0.6
 * within [59 / 101, 61 / 99] = [0.584, 0.616], wholly below 1: compression.
 */
static void sandforce_phase(struct drive *d)
{
	advance(d, "ata:241", 100, 0);
	advance(d, "ata:233", 60, 0);
}

static void test_sandforce(void **state)
{
	struct drive d = {0};
	struct run rn = {.model = "KINGSTON SV300S37A120G", .transport = DRIVEDB_ATA, .sector_bytes = 512,
			 .written = 100 * GiB, .phase = sandforce_phase};
	struct json_object *s;

	set(&d, "ata:241", 7000, 0);
	set(&d, "ata:233", 6000, 0);
	s = run_drive(*state, &d, &rn);
	assert_string_equal(rn.entry, "SandForce-driven (Kingston, OCZ, Corsair, ...)");
	num_is(s, "/wa/phases/0/wa", 0.6);
	num_is(s, "/wa/phases/0/interval/0", 59.0 / 101.0);
	num_is(s, "/wa/phases/0/interval/1", 61.0 / 99.0);
	num_is(s, "/wa/phases/0/resolution/host", GiB);
	num_is(s, "/wa/phases/0/resolution/nand", GiB);
	bool_is(s, "/wa/phases/0/compression", true);
	bool_is(s, "/wa/phases/0/host_check/match", true);
	json_object_put(s);
}

/*
 * (d) An NVMe drive with the OCP C0 log (the generic NVMe entry: data units of 512,000 bytes,
 * physical media written in bytes). The phase writes 1,024,000,000 bytes = 2000 data units; the
 * media grow by 1,536,000,000 bytes: WA = 1.5 within [(1536000000 - 1) / (1024000000 + 512000),
 * (1536000000 + 1) / (1024000000 - 512000)]. The same log under another GUID is not OCP's: not
 * used, so no NAND counter and the reason names the model.
 */
static void ocp_phase(struct drive *d)
{
	advance(d, "nvme:duw", 2000, 0);
	advance(d, "ocp:pmw", 1536000000, 0);
}

static void test_nvme_ocp(void **state)
{
	struct drive d = {.ocp = true};
	struct run rn = {.model = "ACME NVMe DC1", .transport = DRIVEDB_NVME, .written = 1024000000.0,
			 .phase = ocp_phase};
	struct json_object *s;

	set(&d, "nvme:duw", 10000, 0);
	set(&d, "ocp:pmw", 5000000000000ull, 0);
	s = run_drive(*state, &d, &rn);
	assert_string_equal(rn.entry, "NVMe (OCP C0, then Endurance Group)");
	assert_string_equal(rn.host_counter, "nvme:smart.data_units_written");
	num_is(s, "/wa/phases/0/wa", 1.5);
	num_is(s, "/wa/phases/0/interval/0", (1536000000.0 - 1) / (1024000000.0 + 512000));
	num_is(s, "/wa/phases/0/interval/1", (1536000000.0 + 1) / (1024000000.0 - 512000));
	num_is(s, "/wa/phases/0/resolution/host", 512000);
	num_is(s, "/wa/phases/0/resolution/nand", 1);
	bool_is(s, "/wa/phases/0/host_check/match", true);
	bool_is(s, "/wa/phases/0/unverified", false);
	json_object_put(s);

	memset(&d, 0, sizeof d);
	d.ocp = d.ocp_bad_guid = true;
	set(&d, "nvme:duw", 10000, 0);
	set(&d, "ocp:pmw", 5000000000000ull, 0);
	s = run_drive(*state, &d, &rn);
	null_is(s, "/wa/phases/0/wa");
	str_is(s, "/wa/phases/0/wa_reason", "no NAND-write counter known for ACME NVMe DC1");
	bool_is(s, "/wa/phases/0/host_check/match", true);
	json_object_put(s);
}

/*
 * (e) An NVMe drive with an Endurance Group (CTRATT bit 4, the namespace's ENDGID 1; log 0x09
 * asked with LSI 1) and no OCP log: media units written in the database's 1 GB (10^9 bytes,
 * unverified). The phase writes 80,000 data units = 40,960,000,000 bytes; the media grow by 100
 * units = 10^11 bytes: WA = 10^11 / 4.096 x 10^10 = 2.44140625 within [99 x 10^9 / (40.96 x 10^9
 * + 512000), 101 x 10^9 / (40.96 x 10^9 - 512000)], unverified. A Media Units Written of 0 is
 * "not reported": no NAND counter (never a WA of 0).
 */
static void eg_phase(struct drive *d)
{
	advance(d, "nvme:duw", 80000, 0);
	advance(d, "eg:muw", 100, 0);
}

static void eg_phase_unknown(struct drive *d)
{
	advance(d, "nvme:duw", 80000, 0);
}

static void test_nvme_endurance(void **state)
{
	struct drive d = {.endgrp = true};
	struct run rn = {.model = "ACME NVMe EG1", .transport = DRIVEDB_NVME, .written = 40960000000.0,
			 .phase = eg_phase};
	struct json_object *s;

	set(&d, "nvme:duw", 50000, 0);
	set(&d, "eg:muw", 300, 0);
	s = run_drive(*state, &d, &rn);
	assert_string_equal(rn.entry, "NVMe (OCP C0, then Endurance Group)");
	num_is(s, "/wa/phases/0/wa", 2.44140625);
	num_is(s, "/wa/phases/0/interval/0", 99e9 / (40.96e9 + 512000));
	num_is(s, "/wa/phases/0/interval/1", 101e9 / (40.96e9 - 512000));
	num_is(s, "/wa/phases/0/resolution/nand", 1e9);
	num_is(s, "/wa/phases/0/nand_bytes_written", 1e11);
	bool_is(s, "/wa/phases/0/unverified", true);
	bool_is(s, "/wa/phases/0/host_check/match", true);
	json_object_put(s);

	memset(&d, 0, sizeof d);
	d.endgrp = true;
	set(&d, "nvme:duw", 50000, 0);
	set(&d, "eg:muw", 0, 0);
	rn.phase = eg_phase_unknown;
	s = run_drive(*state, &d, &rn);
	null_is(s, "/wa/phases/0/wa");
	str_is(s, "/wa/phases/0/wa_reason", "no NAND-write counter known for ACME NVMe EG1");
	json_object_put(s);
}

/*
 * (f) Device Statistics flags, on a Phison drive (Kingston A400, the "Phison-driven" entry: 241
 * in 1 GiB, unverified; 233 NAND writes in 1 GiB) with 4096-byte logical sectors. The phase
 * writes 64 GiB: Logical Sectors Written (page 1 offset 0x18) grows by 16,777,216 sectors, 241
 * by 64 and 233 by 96.
 *   - The qword supported and valid (flags 0xC0): it is the host counter, good to one 4096-byte
 *     sector: WA = 96 / 64 = 1.5 within [95 GiB / (64 GiB + 4096), 97 GiB / (64 GiB - 4096)],
 *     and nothing unverified is used.
 *   - Supported but not valid (0x80): not used; the entry's 241 is, good to 1 GiB and
 *     unverified: WA 1.5 within [95 / 65, 97 / 63].
 */
static void phison_phase(struct drive *d)
{
	advance(d, "ds1:0x18", 16777216, 0);
	advance(d, "ata:241", 64, 0);
	advance(d, "ata:233", 96, 0);
}

static void phison_drive(struct drive *d, uint8_t flags)
{
	memset(d, 0, sizeof *d);
	d->gpl = true;
	set(d, "ata:241", 900, 0);
	set(d, "ata:233", 1000, 0);
	set(d, "ds1:0x18", 10000000, flags);
	set(d, "ds7:0x08", 3, 0xc0); /* percentage used */
}

static void test_devstat_flags(void **state)
{
	struct drive d;
	struct run rn = {.model = "KINGSTON SA400S37240G", .transport = DRIVEDB_ATA, .sector_bytes = 4096,
			 .written = 64 * GiB, .phase = phison_phase};
	struct json_object *s;

	phison_drive(&d, 0xc0);
	s = run_drive(*state, &d, &rn);
	assert_string_equal(rn.entry, "Phison-driven (Kingston A400, KIOXIA EXCERIA SATA, ...)");
	assert_string_equal(rn.host_counter, "ata:devstat.1.0x18");
	num_is(s, "/wa/phases/0/wa", 1.5);
	num_is(s, "/wa/phases/0/interval/0", 95 * GiB / (64 * GiB + 4096));
	num_is(s, "/wa/phases/0/interval/1", 97 * GiB / (64 * GiB - 4096));
	num_is(s, "/wa/phases/0/resolution/host", 4096);
	num_is(s, "/wa/phases/0/host_bytes_written", 64 * GiB);
	bool_is(s, "/wa/phases/0/unverified", false);
	bool_is(s, "/wa/phases/0/host_check/match", true);
	json_object_put(s);

	phison_drive(&d, 0x80);
	s = run_drive(*state, &d, &rn);
	assert_string_equal(rn.host_counter, "ata:241");
	num_is(s, "/wa/phases/0/wa", 1.5);
	num_is(s, "/wa/phases/0/interval/0", 95.0 / 65.0);
	num_is(s, "/wa/phases/0/interval/1", 97.0 / 63.0);
	num_is(s, "/wa/phases/0/resolution/host", GiB);
	bool_is(s, "/wa/phases/0/unverified", true);
	json_object_put(s);
}

/*
 * (g) Counters that update late: the Samsung PM871 of (b), whose phase's counts show only from
 * the second read after the flush. The settle loop reads old, new, new: 3 reads, the new values,
 * WA 1.25 as in (b). With max_reads 1 the phase-end snapshot keeps the old values: a host delta
 * of 0 ("no host writes in the window", no WA) and a host check of 0 against the 64 GiB written
 * (no match); only the run-end snapshot, read later, sees the phase (the run's WA 1.25).
 */
static void samsung_late_phase(struct drive *d)
{
	advance(d, "ata:241", 134217728, 1);
	advance(d, "ata:249", 80, 1);
}

static void test_late_counters(void **state)
{
	struct drive d = {0};
	struct run rn = {.model = "SAMSUNG MZ7LN256HCHP-000L7", .transport = DRIVEDB_ATA, .sector_bytes = 512,
			 .written = 64 * GiB, .phase = samsung_late_phase};
	struct json_object *s;

	samsung_drive(&d);
	s = run_drive(*state, &d, &rn);
	assert_int_equal(rn.end_reads, 3);
	samsung_wa_is(s, "/wa/phases/0/wa");
	num_is(s, "/wa/phases/0/interval/0", 79 * GiB / (64 * GiB + 512));
	num_is(s, "/wa/phases/0/interval/1", 81 * GiB / (64 * GiB - 512));
	bool_is(s, "/wa/phases/0/host_check/match", true);
	json_object_put(s);

	memset(&d, 0, sizeof d);
	samsung_drive(&d);
	rn.max_reads = 1;
	s = run_drive(*state, &d, &rn);
	assert_int_equal(rn.end_reads, 1);
	null_is(s, "/wa/phases/0/wa");
	str_is(s, "/wa/phases/0/wa_reason", "no host writes in the window");
	num_is(s, "/wa/phases/0/host_check/counter_bytes", 0);
	bool_is(s, "/wa/phases/0/host_check/match", false);
	samsung_wa_is(s, "/wa/run/wa");
	json_object_put(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_micron, setup, teardown),
		cmocka_unit_test_setup_teardown(test_samsung_enterprise, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sandforce, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nvme_ocp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nvme_endurance, setup, teardown),
		cmocka_unit_test_setup_teardown(test_devstat_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_late_counters, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
