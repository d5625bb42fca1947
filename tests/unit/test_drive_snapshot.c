// SPDX-License-Identifier: MIT
/*
 * test_drive_snapshot: targets/drive_snapshot through a scripted ioctl table (no LD_PRELOAD) and
 * a hand-made drive database. Every expected number is worked by hand here:
 *   - the agree loop: data units written 100, 101, 101 -> 3 reads, settled, 101 x 512,000 =
 *     51,712,000 bytes; 100..104 never agreeing -> the bound (5 reads), settled false, the last
 *     read (104 x 512,000 = 53,248,000); a temperature that moves alone does not count;
 *   - the mapping: 32 MiB units (SLC + TLC, one unverified), bytes (an NVMe "first" list whose
 *     first counter reads 0), Micron pages, a drive without an entry (candidates), QEMU's
 *     controller with no NAND counter (the reason);
 *   - during I/O (the ramp-end snapshot): one read, no wait, not settled;
 *   - the database by path (tests pass another file) and a broken one (file:line:col);
 *   - a file target: no TARGET_CAP_COUNTERS, snapshots "none" with raw.no_counters_reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/nvme_admin.h"
#include "targets/drive_snapshot.h"
#include "targets/target.h"

/* ---- a scripted NVMe controller ------------------------------------------------------- */

struct script {
	const uint64_t *duw; /* data units written per call (the last repeats) */
	const unsigned *temp_k;
	size_t n;
	int calls;
};

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int scripted_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct script *s = ctx;
	uint8_t *pg = (uint8_t *)(uintptr_t)cmd->addr;
	size_t i = (size_t)s->calls < s->n ? (size_t)s->calls : s->n - 1;

	assert_int_equal(fd, 42);
	/* The extra-logs row (optional) asks Identify first: a blank controller (no endurance
	 * groups, not Intel), so only OCP 0xC0 is asked for, and this drive lacks it (Invalid
	 * Field), as QEMU answers. Neither counts as a SMART read. */
	if (cmd->opcode == 0x06) {
		memset(pg, 0, cmd->data_len);
		return 0;
	}
	assert_int_equal(cmd->opcode, NVME_ADMIN_GET_LOG_PAGE);
	if ((cmd->cdw10 & 0xff) == 0xc0)
		return 0x4002;
	assert_int_equal(cmd->cdw10 & 0xff, NVME_LOG_SMART);
	assert_int_equal(cmd->nsid, NVME_NSID_ALL);
	s->calls++;
	memset(pg, 0, cmd->data_len);
	put_le(pg + 1, s->temp_k ? s->temp_k[i] : 323, 2);
	pg[3] = 100;			/* available spare % */
	pg[5] = 1;			/* percentage used */
	put_le(pg + 32, 7, 8);		/* data units read */
	put_le(pg + 48, s->duw[i], 8);	/* data units written */
	put_le(pg + 192, 4, 4);		/* warning temperature minutes */
	put_le(pg + 216, 2, 4);		/* thermal management 1 transitions */
	put_le(pg + 220, 1, 4);		/* ... 2 */
	return 0;
}

static const char qemu_db[] = "drives:\n"
			      "  - name: NVMe generic\n"
			      "    match: ''\n"
			      "    transport: nvme\n"
			      "    host: {counter: 'nvme:smart.data_units_written', unit: 512000B}\n"
			      "    nand: [{counter: 'nvme:ocp_c0.physical_media_written', unit: 1B},\n"
			      "           {counter: 'nvme:endurance.media_units_written', unit: 1GB, verified: false}]\n"
			      "    nand_combine: first\n"
			      "    source: a test document\n";

static struct drivedb *load(const char *text)
{
	struct drivedb *db = NULL;
	struct ydoc_error err = {0};
	char buf[512];

	if (drivedb_load_string(text, strlen(text), "test.yaml", &db, &err))
		fail_msg("%s", ydoc_error_format(&err, buf, sizeof buf));
	return db;
}

static const struct counter *must(const struct snapshot *s, const char *name)
{
	const struct counter *c = snapshot_get(s, name);

	if (!c)
		fail_msg("counter %s missing", name);
	return c;
}

static struct json_object *raw_get(const struct snapshot *s, const char *key)
{
	struct json_object *v = NULL;

	assert_non_null(s->raw);
	if (!json_object_object_get_ex(s->raw, key, &v))
		fail_msg("raw.%s missing", key);
	return v;
}

/* Takes one settled snapshot of the scripted controller. */
static int take(struct script *sc, unsigned max_reads, bool during_io, struct snapshot *s,
		const struct drivedb *db)
{
	struct ioctl_ops ops = {.admin = scripted_admin, .ctx = sc};
	struct drive_snapshot_cfg cfg = {
		.ops = &ops, .fd = 42, .transport = DRIVEDB_NVME, .nsid = 1, .model = "QEMU NVMe Ctrl", .db = db,
		/* no real waiting in a unit test */
		.opts = {.settle_ns = UINT64_MAX, .interval_ns = UINT64_MAX, .max_reads = max_reads},
	};
	struct drive_snapshot *ds = NULL;
	char err[256] = "";
	int r;

	snapshot_init(s, "none");
	r = drive_snapshot_open(&cfg, &ds, err, sizeof err);
	assert_int_equal(r, 0);
	r = drive_snapshot_take(ds, during_io, s, err, sizeof err);
	drive_snapshot_free(ds);
	return r;
}

static void test_agree_after_change(void **state)
{
	static const uint64_t duw[] = {100, 101, 101, 999};
	struct script sc = {.duw = duw, .n = 4};
	struct drivedb *db = load(qemu_db);
	struct snapshot s;

	(void)state;
	assert_int_equal(take(&sc, 5, false, &s, db), 0);
	assert_int_equal(sc.calls, 3);
	assert_string_equal(s.source, "nvme-smart");
	assert_int_equal(json_object_get_int(raw_get(&s, "reads")), 3);
	assert_true(json_object_get_boolean(raw_get(&s, "settled")));
	assert_int_equal(json_object_get_int(raw_get(&s, "max_reads")), 5);
	assert_true(must(&s, "host_bytes_written")->value == 51712000.0);
	assert_true(must(&s, "host_bytes_written_resolution")->value == 512000.0);
	snapshot_release(&s);
	drivedb_free(db);
}

static void test_never_settles(void **state)
{
	static const uint64_t duw[] = {100, 101, 102, 103, 104, 105};
	struct script sc = {.duw = duw, .n = 6};
	struct drivedb *db = load(qemu_db);
	struct snapshot s;

	(void)state;
	assert_int_equal(take(&sc, 5, false, &s, db), 0);
	assert_int_equal(sc.calls, 5);
	assert_int_equal(json_object_get_int(raw_get(&s, "reads")), 5);
	assert_false(json_object_get_boolean(raw_get(&s, "settled")));
	assert_true(must(&s, "host_bytes_written")->value == 53248000.0);
	snapshot_release(&s);
	drivedb_free(db);
}

/* During I/O (the ramp-end snapshot, from inside a job): one read, no wait, not settled. */
static void test_during_io(void **state)
{
	static const uint64_t duw[] = {200, 201, 202};
	struct script sc = {.duw = duw, .n = 3};
	struct drivedb *db = load(qemu_db);
	struct snapshot s;

	(void)state;
	assert_int_equal(take(&sc, 5, true, &s, db), 0);
	assert_int_equal(sc.calls, 1);
	assert_int_equal(json_object_get_int(raw_get(&s, "reads")), 1);
	assert_false(json_object_get_boolean(raw_get(&s, "settled")));
	assert_true(json_object_get_boolean(raw_get(&s, "during_io")));
	assert_true(must(&s, "host_bytes_written")->value == 102400000.0); /* 200 x 512,000 */
	snapshot_release(&s);
	drivedb_free(db);
}

/* A temperature moves on its own: it must not keep the counters from agreeing. */
static void test_temperature_ignored(void **state)
{
	static const uint64_t duw[] = {50, 50};
	static const unsigned temp[] = {323, 325};
	struct script sc = {.duw = duw, .temp_k = temp, .n = 2};
	struct drivedb *db = load(qemu_db);
	struct snapshot s;

	(void)state;
	assert_int_equal(take(&sc, 5, false, &s, db), 0);
	assert_int_equal(sc.calls, 2);
	assert_true(json_object_get_boolean(raw_get(&s, "settled")));
	/* the last read's: 325 K - 273.15 = 51.85 C */
	assert_true(must(&s, "temperature_c")->value > 51.849 && must(&s, "temperature_c")->value < 51.851);
	snapshot_release(&s);
	drivedb_free(db);
}

/* QEMU's controller: the generic entry, neither NAND log: WA has no NAND counter, and why. */
static void test_qemu_mapping(void **state)
{
	static const uint64_t duw[] = {16};
	struct script sc = {.duw = duw, .n = 1};
	struct drivedb *db = load(qemu_db);
	struct json_object *d, *v;
	struct snapshot s;

	(void)state;
	assert_int_equal(take(&sc, 1, false, &s, db), 0);
	assert_int_equal(sc.calls, 1);
	assert_true(json_object_get_boolean(raw_get(&s, "settled")));
	assert_true(must(&s, "host_bytes_written")->value == 8192000.0); /* 16 x 512,000 */
	assert_true(must(&s, "host_bytes_read")->value == 3584000.0);	  /* 7 x 512,000 */
	assert_null(snapshot_get(&s, "nand_bytes_written"));
	assert_true(must(&s, "percentage_used")->value == 1);
	assert_true(must(&s, "available_spare")->value == 100);
	assert_true(must(&s, "thermal_transitions")->value == 3); /* 2 + 1 */
	assert_true(must(&s, "warning_temp_minutes")->value == 4);
	assert_string_equal(json_object_get_string(raw_get(&s, "no_nand_reason")),
			    "no NAND-write counter known for QEMU NVMe Ctrl");
	assert_string_equal(json_object_get_string(raw_get(&s, "model")), "QEMU NVMe Ctrl");
	d = raw_get(&s, "drivedb");
	assert_true(json_object_object_get_ex(d, "name", &v));
	assert_string_equal(json_object_get_string(v), "NVMe generic");
	assert_true(json_object_object_get_ex(d, "compresses", &v));
	assert_false(json_object_get_boolean(v));
	/* every devcounters key, exactly */
	assert_true(json_object_object_get_ex(raw_get(&s, "counters"), "nvme:smart.data_units_written", &v));
	assert_int_equal(json_object_get_uint64(v), 16);
	/* the names `smart --json` always printed */
	assert_string_equal(json_object_get_string(raw_get(&s, "data_units_written")), "16");
	assert_int_equal(json_object_get_int(raw_get(&s, "thermal_transitions_1")), 2);
	snapshot_release(&s);
	drivedb_free(db);
}

static void put(struct devcounters *dc, const char *key, uint64_t v)
{
	assert_int_equal(devcounters_set(dc, key, v), 0);
}

static const char ata_db[] =
	"drives:\n"
	"  - name: SMI test\n"
	"    match: '^SMI'\n"
	"    transport: ata\n"
	"    host: {counter: 'ata:241', unit: 32MiB}\n"
	"    nand: [{counter: 'ata:245', unit: 32MiB, part: tlc},\n"
	"           {counter: 'ata:246', unit: 32MiB, part: slc, verified: false}]\n"
	"    nand_combine: sum\n"
	"    source: a test document\n"
	"  - name: Micron test\n"
	"    match: '^Micron'\n"
	"    transport: ata\n"
	"    host: {counter: 'ata:246', unit: 512B}\n"
	"    host_pages: {counter: 'ata:247', unit: page}\n"
	"    nand: [{counter: 'ata:248', unit: page}]\n"
	"    wa: pages_ratio\n"
	"    source: a test document\n"
	"  - name: SandForce test\n"
	"    match: '^SF'\n"
	"    transport: ata\n"
	"    host: {counter: 'ata:241', unit: 1GiB}\n"
	"    nand: [{counter: 'ata:233', unit: 1GiB}]\n"
	"    compresses: true\n"
	"    source: a test document\n";

/* 32 MiB = 33,554,432 bytes. SLC and TLC apart, summed; the sum known to two units. */
static void test_map_32mib_parts(void **state)
{
	struct drivedb *db = load(ata_db);
	const struct drivedb_entry *e = drivedb_lookup(db, DRIVEDB_ATA, "SMI 256GB");
	struct devcounters dc;
	struct json_object *u, *v;
	struct snapshot s;

	(void)state;
	assert_non_null(e);
	assert_int_equal(e->nand[0].part, DRIVEDB_PART_TLC);
	assert_int_equal(e->nand[1].part, DRIVEDB_PART_SLC);
	devcounters_init(&dc);
	put(&dc, "ata:241", 1000);
	put(&dc, "ata:245", 1500);
	put(&dc, "ata:246", 700);
	put(&dc, "ata:194", 0x1e0026); /* temperature 38 C in the low byte, min/max above */
	snapshot_init(&s, "ata-smart");
	assert_int_equal(drive_snapshot_build(&dc, DRIVEDB_ATA, "SMI 256GB", 512, e, &s), 0);
	assert_true(must(&s, "host_bytes_written")->value == 33554432000.0);
	assert_true(must(&s, "host_bytes_written_resolution")->value == 33554432.0);
	assert_true(must(&s, "nand_bytes_written")->value == 73819750400.0);	/* 2200 units */
	assert_true(must(&s, "nand_bytes_written_resolution")->value == 67108864.0); /* two counters */
	assert_true(must(&s, "nand_bytes_written_tlc")->value == 50331648000.0);
	assert_true(must(&s, "nand_bytes_written_slc")->value == 23488102400.0);
	assert_true(must(&s, "temperature_c")->value == 38);
	assert_false(json_object_object_get_ex(s.raw, "no_nand_reason", NULL));
	assert_true(json_object_object_get_ex(raw_get(&s, "drivedb"), "unverified", &u));
	assert_int_equal(json_object_array_length(u), 1);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(u, 0)), "32MiB");
	assert_true(json_object_object_get_ex(raw_get(&s, "drivedb"), "source", &v));
	assert_string_equal(json_object_get_string(v), "a test document");
	snapshot_release(&s);
	drivedb_free(db);
}

/* Micron: page counters stay pages; host bytes from the sector counter (20480 x 512). */
static void test_map_pages(void **state)
{
	struct drivedb *db = load(ata_db);
	const struct drivedb_entry *e = drivedb_lookup(db, DRIVEDB_ATA, "Micron_5300");
	struct devcounters dc;
	struct snapshot s;

	(void)state;
	devcounters_init(&dc);
	put(&dc, "ata:246", 20480);
	put(&dc, "ata:247", 300);
	put(&dc, "ata:248", 150);
	snapshot_init(&s, "ata-smart");
	assert_int_equal(drive_snapshot_build(&dc, DRIVEDB_ATA, "Micron_5300", 512, e, &s), 0);
	assert_true(must(&s, "host_bytes_written")->value == 10485760.0);
	assert_true(must(&s, "host_bytes_written_resolution")->value == 512.0);
	assert_true(must(&s, "host_pages_written")->value == 300);
	assert_string_equal(must(&s, "host_pages_written")->unit, "pages");
	assert_true(must(&s, "ftl_pages_written")->value == 150);
	assert_null(snapshot_get(&s, "nand_bytes_written"));
	assert_null(snapshot_get(&s, "nand_bytes_written_resolution"));
	assert_false(json_object_object_get_ex(s.raw, "no_nand_reason", NULL));
	snapshot_release(&s);
	drivedb_free(db);
}

/* Bytes: an NVMe "first" list whose OCP counter reads 0 (unknown) falls to the next one. */
static void test_map_first_nonzero(void **state)
{
	struct drivedb *db = load(qemu_db);
	const struct drivedb_entry *e = drivedb_lookup(db, DRIVEDB_NVME, "Some NVMe");
	struct devcounters dc;
	struct json_object *v;
	struct snapshot s;

	(void)state;
	devcounters_init(&dc);
	put(&dc, "nvme:smart.data_units_written", 3);
	put(&dc, "nvme:ocp_c0.physical_media_written", 0);
	put(&dc, "nvme:endurance.media_units_written", 2);
	snapshot_init(&s, "nvme-smart");
	assert_int_equal(drive_snapshot_build(&dc, DRIVEDB_NVME, "Some NVMe", 0, e, &s), 0);
	assert_true(must(&s, "host_bytes_written")->value == 1536000.0);
	assert_true(must(&s, "nand_bytes_written")->value == 2e9);
	assert_true(must(&s, "nand_bytes_written_resolution")->value == 1e9);
	assert_string_equal(json_object_get_string(raw_get(&s, "nand_counter")),
			    "nvme:endurance.media_units_written");
	assert_true(json_object_object_get_ex(raw_get(&s, "drivedb"), "unverified", &v));
	assert_string_equal(json_object_get_string(json_object_array_get_idx(v, 0)), "1GB");
	snapshot_release(&s);

	/* with the OCP byte counter present: exact to the byte */
	put(&dc, "nvme:ocp_c0.physical_media_written", 1600000);
	snapshot_init(&s, "nvme-smart");
	assert_int_equal(drive_snapshot_build(&dc, DRIVEDB_NVME, "Some NVMe", 0, e, &s), 0);
	assert_true(must(&s, "nand_bytes_written")->value == 1600000.0);
	assert_true(must(&s, "nand_bytes_written_resolution")->value == 1.0);
	snapshot_release(&s);
	drivedb_free(db);
}

/* No entry: no NAND reason, and the host-write candidates raw for the analysis to infer. */
static void test_map_no_entry(void **state)
{
	struct drivedb *db = load(ata_db);
	const struct drivedb_entry *e = drivedb_lookup(db, DRIVEDB_ATA, "UNKNOWN X");
	struct devcounters dc;
	struct json_object *cand, *v;
	struct snapshot s;

	(void)state;
	assert_null(e);
	devcounters_init(&dc);
	put(&dc, "ata:241", 12345);
	put(&dc, "ata:devstat.1.0x18", 99);
	put(&dc, "ata:9", 1000);
	snapshot_init(&s, "ata-smart");
	assert_int_equal(drive_snapshot_build(&dc, DRIVEDB_ATA, "UNKNOWN X", 0, NULL, &s), 0);
	assert_null(snapshot_get(&s, "host_bytes_written"));
	assert_true(json_object_object_get_ex(s.raw, "drivedb", &v));
	assert_null(v);
	assert_string_equal(json_object_get_string(raw_get(&s, "no_nand_reason")),
			    "no NAND-write counter known for UNKNOWN X");
	cand = raw_get(&s, "host_write_candidates");
	assert_int_equal(json_object_object_length(cand), 2);
	assert_true(json_object_object_get_ex(cand, "ata:241", &v));
	assert_int_equal(json_object_get_uint64(v), 12345);
	assert_true(json_object_object_get_ex(cand, "ata:devstat.1.0x18", &v));
	assert_int_equal(json_object_get_uint64(v), 99);
	snapshot_release(&s);
	drivedb_free(db);
}

/* A 128-bit counter past 64 bits is never mapped (its delta would be wrong). */
static void test_map_overflow(void **state)
{
	struct devcounters dc;
	struct snapshot s;

	(void)state;
	devcounters_init(&dc);
	put(&dc, "nvme:smart.data_units_written", UINT64_MAX);
	put(&dc, "nvme:smart.data_units_written.overflow", 1);
	snapshot_init(&s, "nvme-smart");
	assert_int_equal(drive_snapshot_build(&dc, DRIVEDB_NVME, "Big", 0, NULL, &s), 0);
	assert_null(snapshot_get(&s, "host_bytes_written"));
	assert_true(json_object_get_boolean(raw_get(&s, "overflow")));
	snapshot_release(&s);
}

/* The database by path (what target_open_opts.drivedb_path passes), and a broken one. */
static void test_drivedb_path(void **state)
{
	static const uint64_t duw[] = {1};
	struct script sc = {.duw = duw, .n = 1};
	struct ioctl_ops ops = {.admin = scripted_admin, .ctx = &sc};
	char path[] = "/tmp/ssdlab-dbXXXXXX", err[512] = "";
	struct drive_snapshot_cfg cfg = {.ops = &ops, .fd = 42, .transport = DRIVEDB_NVME, .model = "QEMU NVMe Ctrl",
					 .drivedb_path = path};
	struct drive_snapshot *ds = NULL;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, qemu_db, strlen(qemu_db)), (ssize_t)strlen(qemu_db));
	close(fd);
	assert_int_equal(drive_snapshot_open(&cfg, &ds, err, sizeof err), 0);
	assert_string_equal(drive_snapshot_entry(ds)->name, "NVMe generic");
	drive_snapshot_free(ds);
	ds = NULL;

	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_true(write(fd, "drives:\n  - name: x\n    match: a\n", 33) == 33);
	close(fd);
	assert_int_equal(drive_snapshot_open(&cfg, &ds, err, sizeof err), -EINVAL);
	assert_null(ds);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, ":2:")); /* the entry's line */
	unlink(path);

	/* SATA has its reader row (the ATA live reader): one, required, source ata-smart */
	size_t n;
	const struct drive_snapshot_reader *row = drive_snapshot_readers(DRIVEDB_ATA, &n);
	assert_non_null(row);
	assert_int_equal(n, 1);
	assert_string_equal(row->source, "ata-smart");
	assert_true(row->required);
}

/* A file target has no counters: no TARGET_CAP_COUNTERS, snapshots "none" with the reason. */
static void test_file_target_none(void **state)
{
	char path[] = "/tmp/ssdlab-snapXXXXXX", err[256] = "";
	struct target_open_opts o = {.writable = true};
	struct target *t = NULL;
	struct json_object *why;
	struct snapshot s;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	close(fd);
	if (target_open(path, &o, &t, err, sizeof err)) {
		unlink(path);
		skip(); /* a file system without O_DIRECT (tmpfs): nothing to check here */
	}
	assert_false(target_caps(t) & TARGET_CAP_COUNTERS);
	snapshot_init(&s, "sim");
	assert_int_equal(target_snapshot(t, &s), 0);
	assert_string_equal(s.source, "none");
	assert_int_equal(s.n, 0);
	assert_true(json_object_object_get_ex(s.raw, "no_counters_reason", &why));
	assert_string_equal(json_object_get_string(why), "a file has no drive counters");
	snapshot_release(&s);
	target_close(t);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_agree_after_change), cmocka_unit_test(test_never_settles),
		cmocka_unit_test(test_during_io),
		cmocka_unit_test(test_temperature_ignored), cmocka_unit_test(test_qemu_mapping),
		cmocka_unit_test(test_map_32mib_parts),	    cmocka_unit_test(test_map_pages),
		cmocka_unit_test(test_map_first_nonzero),   cmocka_unit_test(test_map_no_entry),
		cmocka_unit_test(test_map_overflow),	    cmocka_unit_test(test_drivedb_path),
		cmocka_unit_test(test_file_target_none),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
