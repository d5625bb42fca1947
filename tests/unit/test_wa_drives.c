/* SPDX-License-Identifier: MIT */
/*
 * test_wa_drives: the "wa" pass on real drives' counters (issue 11 point 4), over results
 * directories written here with the results writer: snapshots as the runner's drive snapshot
 * writes them (docs/results-format.md: bytes counters with their resolution, Micron's page
 * counters, raw.drivedb / no_nand_reason / host_write_candidates) and records with the bytes
 * ssdlab wrote. Every WA, interval and byte count below is worked out by hand in the comment
 * beside it; the counters' units are those of the reference's attribute table
 * (../shared/reference/ftl_smart_hpa.md) and profiles/drives/drives.yaml.
 *
 * The interval rule (analysis/wa.h): a counter of unit u read as a delta d has a true delta in
 * (d - u, d + u), so WA = N / H lies in [max(N - rn, 0) / (H + rh), (N + rn) / (H - rh)].
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
#include <gsl/gsl_errno.h>
#include <json-c/json.h>
#include <json-c/json_pointer.h>

#include "analysis/analyze.h"
#include "analysis/wa.h"
#include "results/results.h"
#include "summary_check.h"
#include "testutil.h"

#define KiB 1024.0
#define MiB (1024.0 * KiB)
#define GiB (1024.0 * MiB)

/* ---- building a results directory ------------------------------------------------------------ */

static struct results *run_open(const char *dir)
{
	struct json_object *m = json_object_new_object();
	struct results *r;

	assert_int_equal(results_create(dir, &r), 0);
	json_object_object_add(m, "profile", json_object_new_string("drives"));
	assert_int_equal(results_write_manifest(r, m, NULL), 0);
	json_object_put(m);
	return r;
}

/*
 * A snapshot of `source` with counters given as (name, value) pairs ended by NULL; a name with
 * "pages" is in pages, "resolution"s and the rest in bytes. raw: JSON text or NULL.
 */
static void snap(struct results *r, const char *label, int phase, const char *raw, ...)
{
	struct snapshot s;
	const char *name;
	va_list ap;

	snapshot_init(&s, "ata-smart");
	snprintf(s.label, sizeof(s.label), "%s", label);
	va_start(ap, raw);
	while ((name = va_arg(ap, const char *))) {
		double v = va_arg(ap, double);

		assert_int_equal(
		    snapshot_set(&s, name, strstr(name, "pages") ? "pages" : "bytes", v), 0);
	}
	va_end(ap);
	if (raw) {
		s.raw = json_tokener_parse(raw);
		assert_non_null(s.raw);
	}
	assert_int_equal(results_write_snapshot(r, &s, phase, 0), 0);
	snapshot_release(&s);
}

/* A record of phase that wrote `bytes` (ramp included, and as its measured write bytes). */
static void rec_write(struct results *r, int phase, const char *kind, double bytes)
{
	struct results_record rec = {.kind = kind, .phase = phase, .phase_kind = kind};
	struct json_object *o = results_record_to_json(&rec), *w = json_object_new_object();

	assert_non_null(o);
	json_object_object_add(o, "bytes_written_total", json_object_new_uint64((uint64_t)bytes));
	json_object_object_add(w, "bytes", json_object_new_uint64((uint64_t)bytes));
	json_object_object_add(o, "write", w);
	assert_int_equal(results_append_record(r, o), 0);
	json_object_put(o);
}

static void rec_idle(struct results *r, int phase)
{
	struct results_record rec = {.kind = "idle", .phase = phase, .phase_kind = "idle"};
	struct json_object *o = results_record_to_json(&rec);

	assert_int_equal(results_append_record(r, o), 0);
	json_object_put(o);
}

static struct json_object *analyze(const char *dir)
{
	struct json_object *s = NULL;
	char err[256] = "";

	if (analyze_dir(dir, &s, err, sizeof(err)))
		fail_msg("analyze %s: %s", dir, err);
	return s;
}

/* ---- reading the summary ---------------------------------------------------------------------- */

/* at, num_is, null_is, str_is, bool_is, len_of: summary_check.h */

struct fixture {
	char *tmp;
	char dir[512];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || !(f->tmp = tu_mkdtemp("wa_drives")))
		return -1;
	snprintf(f->dir, sizeof(f->dir), "%s/run", f->tmp);
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

/* ---- the drives --------------------------------------------------------------------------------- */

/*
 * Micron (Crucial M500 family): 247 host pages, 248 FTL pages, 246 host sectors (512 B).
 * Phase 0: 262144 host pages and 65536 FTL pages, 4 GiB of host sectors (8388608 x 512 B), and
 * the records wrote 4 GiB (16 KiB pages). WA = (262144 + 65536) / 262144 = 1.25; each page
 * counter is good to one page: [1 + 65535 / 262145, 1 + 65537 / 262143].
 */
static void test_micron_pages(void **state)
{
	struct fixture *f = *state;
	struct results *r = run_open(f->dir);
	const char *raw = "{\"drivedb\": {\"name\": \"Micron/Crucial M500\", \"source\": \"x\","
			  " \"unverified\": [], \"compresses\": false}}";
	struct json_object *s;

	snap(r, "run-start", -1, raw, "host_pages_written", 1000000.0, "ftl_pages_written",
	     500000.0, "host_bytes_written", 10 * GiB, "host_bytes_written_resolution", 512.0,
	     NULL);
	snap(r, "phase-0-start", 0, raw, "host_pages_written", 1000000.0, "ftl_pages_written",
	     500000.0, "host_bytes_written", 10 * GiB, "host_bytes_written_resolution", 512.0,
	     NULL);
	rec_write(r, 0, "precondition", 4 * GiB);
	snap(r, "phase-0-end", 0, raw, "host_pages_written", 1262144.0, "ftl_pages_written",
	     565536.0, "host_bytes_written", 14 * GiB, "host_bytes_written_resolution", 512.0,
	     NULL);
	snap(r, "run-end", -1, raw, "host_pages_written", 1262144.0, "ftl_pages_written", 565536.0,
	     "host_bytes_written", 14 * GiB, "host_bytes_written_resolution", 512.0, NULL);
	results_close(r);
	s = analyze(f->dir);
	num_is(s, "/wa/phases/0/wa", 1.25);
	num_is(s, "/wa/phases/0/interval/0", 1 + 65535.0 / 262145.0);
	num_is(s, "/wa/phases/0/interval/1", 1 + 65537.0 / 262143.0);
	null_is(s, "/wa/phases/0/wa_reason");
	str_is(s, "/wa/phases/0/resolution/unit", "pages");
	num_is(s, "/wa/phases/0/resolution/host", 1);
	num_is(s, "/wa/phases/0/host_pages_written", 262144);
	num_is(s, "/wa/phases/0/ftl_pages_written", 65536);
	/* The sector counter as the cross-check: 4 GiB both ways. */
	num_is(s, "/wa/phases/0/host_check/counter_bytes", 4 * GiB);
	num_is(s, "/wa/phases/0/host_check/written_bytes", 4 * GiB);
	bool_is(s, "/wa/phases/0/host_check/match", true);
	bool_is(s, "/wa/phases/0/compression", false);
	num_is(s, "/wa/run/wa", 1.25);
	assert_int_equal(len_of(s, "/flags/host_write_mismatch"), 0);
	json_object_put(s);
}

/*
 * Samsung enterprise (PM863/SM863): 241 in 512 B sectors, 249 NAND writes in 1 GiB units (as
 * the snapshot gives them: bytes, resolutions 512 and 1 GiB), with an SLC/TLC split.
 * Phase 0 writes 100 GiB; NAND grows 130 GiB (30 GiB SLC, 100 GiB TLC): WA = 1.3, within
 * [129 GiB / (100 GiB + 512), 131 GiB / (100 GiB - 512)]; SLC 0.3, TLC 1.0.
 * Phase 1 idles: NAND grows 2 GiB more (GC), host nothing: the phase itself has no WA ("no host
 * writes in the window"), and phase 0's wa_with_idle is 132 / 100 = 1.32 within
 * [131 GiB / (100 GiB + 512), 133 GiB / (100 GiB - 512)].
 */
static void test_samsung_enterprise(void **state)
{
	struct fixture *f = *state;
	struct results *r = run_open(f->dir);
	const char *raw = "{\"drivedb\": {\"name\": \"Samsung PM863/SM863\", \"source\": \"x\","
			  " \"unverified\": [], \"compresses\": false}}";
	struct json_object *s;

#define SAMSUNG(label, ph, host, nand, slc, tlc)                                                  \
	snap(r, label, ph, raw, "host_bytes_written", host, "host_bytes_written_resolution", 512.0,  \
	     "nand_bytes_written", nand, "nand_bytes_written_resolution", GiB,                      \
	     "nand_bytes_written_slc", slc, "nand_bytes_written_tlc", tlc, NULL)
	SAMSUNG("run-start", -1, 50 * GiB, 1000 * GiB, 200 * GiB, 800 * GiB);
	SAMSUNG("phase-0-start", 0, 50 * GiB, 1000 * GiB, 200 * GiB, 800 * GiB);
	rec_write(r, 0, "precondition", 100 * GiB);
	SAMSUNG("phase-0-end", 0, 150 * GiB, 1130 * GiB, 230 * GiB, 900 * GiB);
	SAMSUNG("phase-1-start", 1, 150 * GiB, 1130 * GiB, 230 * GiB, 900 * GiB);
	rec_idle(r, 1);
	SAMSUNG("phase-1-end", 1, 150 * GiB, 1132 * GiB, 232 * GiB, 900 * GiB);
	SAMSUNG("run-end", -1, 150 * GiB, 1132 * GiB, 232 * GiB, 900 * GiB);
#undef SAMSUNG
	results_close(r);
	s = analyze(f->dir);
	num_is(s, "/wa/phases/0/wa", 1.3);
	num_is(s, "/wa/phases/0/interval/0", 129 * GiB / (100 * GiB + 512));
	num_is(s, "/wa/phases/0/interval/1", 131 * GiB / (100 * GiB - 512));
	num_is(s, "/wa/phases/0/resolution/host", 512);
	num_is(s, "/wa/phases/0/resolution/nand", GiB);
	num_is(s, "/wa/phases/0/slc/wa", 0.3);
	num_is(s, "/wa/phases/0/tlc/wa", 1.0);
	num_is(s, "/wa/phases/0/slc/nand_bytes_written", 30 * GiB);
	bool_is(s, "/wa/phases/0/host_check/match", true);
	bool_is(s, "/wa/phases/0/unverified", false);
	num_is(s, "/wa/phases/0/wa_with_idle/wa", 1.32);
	num_is(s, "/wa/phases/0/wa_with_idle/interval/0", 131 * GiB / (100 * GiB + 512));
	num_is(s, "/wa/phases/0/wa_with_idle/interval/1", 133 * GiB / (100 * GiB - 512));
	str_is(s, "/wa/phases/0/wa_with_idle/to_label", "phase-1-end");
	null_is(s, "/wa/phases/1/wa");
	str_is(s, "/wa/phases/1/wa_reason", "no host writes in the window");
	null_is(s, "/wa/phases/1/wa_with_idle");
	num_is(s, "/wa/run/wa", 1.32);
	json_object_put(s);
}

/*
 * Intel (320/330 family): 241 host writes and 243 NAND writes, both in 32 MiB units, the NAND
 * unit unverified in the database.
 * Phase 0 is too short: 3 host units (96 MiB; the records say 100 MiB, within one unit) and
 * 4 NAND units: WA could be anywhere in [(128 - 32) / (96 + 32), (128 + 32) / (96 - 32)] =
 * [0.75, 2.5], so wa is null, "delta_below_resolution"; at WA 1 a width of 10% needs H with
 * 2 H (rh + rn) / (H^2 - rh^2) <= 0.1, H >= 10 (64 + sqrt(64^2 + 0.01 x 32^2)) MiB = 40.025 x
 * 32 MiB, so 41 units: 41 x 33554432 = 1375731712 bytes.
 * Phase 1 writes 64 GiB (2048 units) and NAND 80 GiB (2560 units): WA 1.25 within
 * [2559 / 2049, 2561 / 2047].
 */
static void test_intel_short_phase(void **state)
{
	struct fixture *f = *state;
	struct results *r = run_open(f->dir);
	const char *raw = "{\"drivedb\": {\"name\": \"Intel 320\", \"source\": \"x\","
			  " \"unverified\": [\"ata:243\"], \"compresses\": false}}";
	const double u = 32 * MiB;
	struct json_object *s;

#define INTEL(label, ph, host, nand)                                                              \
	snap(r, label, ph, raw, "host_bytes_written", (host) * u, "host_bytes_written_resolution",   \
	     u, "nand_bytes_written", (nand) * u, "nand_bytes_written_resolution", u, NULL)
	INTEL("run-start", -1, 1000.0, 1500.0);
	INTEL("phase-0-start", 0, 1000.0, 1500.0);
	rec_write(r, 0, "precondition", 100 * MiB);
	INTEL("phase-0-end", 0, 1003.0, 1504.0);
	INTEL("phase-1-start", 1, 1003.0, 1504.0);
	rec_write(r, 1, "write_until", 64 * GiB);
	INTEL("phase-1-end", 1, 3051.0, 4064.0);
	INTEL("run-end", -1, 3051.0, 4064.0);
#undef INTEL
	results_close(r);
	s = analyze(f->dir);
	null_is(s, "/wa/phases/0/wa");
	str_is(s, "/wa/phases/0/wa_reason", "delta_below_resolution");
	num_is(s, "/wa/phases/0/bytes_needed", 1375731712.0);
	num_is(s, "/wa/phases/0/interval/0", 0.75);
	num_is(s, "/wa/phases/0/interval/1", 2.5);
	num_is(s, "/wa/phases/0/host_bytes_written", 96 * MiB);
	bool_is(s, "/wa/phases/0/host_check/match", true);
	bool_is(s, "/wa/phases/0/unverified", true);
	num_is(s, "/wa/phases/1/wa", 1.25);
	num_is(s, "/wa/phases/1/interval/0", 2559.0 / 2049.0);
	num_is(s, "/wa/phases/1/interval/1", 2561.0 / 2047.0);
	null_is(s, "/wa/phases/1/wa_reason");
	null_is(s, "/wa/phases/1/bytes_needed");
	assert_int_equal(len_of(s, "/flags/host_write_mismatch"), 0);
	json_object_put(s);
}

/*
 * SandForce (Kingston/Intel 520): 241 and 233 in 1 GiB units, a compressing controller. Phase 0
 * writes 200 GiB and NAND grows 120 GiB: WA 0.6 within [119 / 201, 121 / 199] = [0.592,
 * 0.608], entirely below 1: compression.
 */
static void test_sandforce_compression(void **state)
{
	struct fixture *f = *state;
	struct results *r = run_open(f->dir);
	const char *raw = "{\"drivedb\": {\"name\": \"SandForce\", \"source\": \"x\","
			  " \"unverified\": [], \"compresses\": true}}";
	struct json_object *s;

#define SF(label, ph, host, nand)                                                                 \
	snap(r, label, ph, raw, "host_bytes_written", (host) * GiB,                                  \
	     "host_bytes_written_resolution", GiB, "nand_bytes_written", (nand) * GiB,              \
	     "nand_bytes_written_resolution", GiB, NULL)
	SF("run-start", -1, 7000.0, 6000.0);
	SF("phase-0-start", 0, 7000.0, 6000.0);
	rec_write(r, 0, "precondition", 200 * GiB);
	SF("phase-0-end", 0, 7200.0, 6120.0);
	SF("run-end", -1, 7200.0, 6120.0);
#undef SF
	results_close(r);
	s = analyze(f->dir);
	num_is(s, "/wa/phases/0/wa", 0.6);
	num_is(s, "/wa/phases/0/interval/0", 119.0 / 201.0);
	num_is(s, "/wa/phases/0/interval/1", 121.0 / 199.0);
	bool_is(s, "/wa/phases/0/compression", true);
	bool_is(s, "/wa/phases/0/host_check/match", true);
	json_object_put(s);
}

/*
 * An NVMe drive whose host-write counter disagrees with the records: data units of 512,000 bytes
 * (resolution 512000), 2000 units = 1,024,000,000 bytes, while ssdlab wrote 512 MiB =
 * 536,870,912 (another writer, or a wrong unit): 487,129,088 bytes apart, far beyond one unit:
 * match false, flagged. No NAND counter: wa null with the snapshot's reason.
 */
static void test_host_mismatch(void **state)
{
	struct fixture *f = *state;
	struct results *r = run_open(f->dir);
	const char *raw = "{\"drivedb\": null, \"no_nand_reason\": "
			  "\"no NAND-write counter known for QEMU NVMe Ctrl\"}";
	struct json_object *s;

	snap(r, "run-start", -1, raw, "host_bytes_written", 512000.0 * 100,
	     "host_bytes_written_resolution", 512000.0, NULL);
	snap(r, "phase-0-start", 0, raw, "host_bytes_written", 512000.0 * 100,
	     "host_bytes_written_resolution", 512000.0, NULL);
	rec_write(r, 0, "precondition", 512 * MiB);
	snap(r, "phase-0-end", 0, raw, "host_bytes_written", 512000.0 * 2100,
	     "host_bytes_written_resolution", 512000.0, NULL);
	snap(r, "run-end", -1, raw, "host_bytes_written", 512000.0 * 2100,
	     "host_bytes_written_resolution", 512000.0, NULL);
	results_close(r);
	s = analyze(f->dir);
	null_is(s, "/wa/phases/0/wa");
	str_is(s, "/wa/phases/0/wa_reason", "no NAND-write counter known for QEMU NVMe Ctrl");
	num_is(s, "/wa/phases/0/host_check/counter_bytes", 1024000000.0);
	num_is(s, "/wa/phases/0/host_check/written_bytes", 536870912.0);
	bool_is(s, "/wa/phases/0/host_check/match", false);
	assert_int_equal(len_of(s, "/flags/host_write_mismatch"), 1);
	num_is(s, "/flags/host_write_mismatch/0/phase", 0);
	num_is(s, "/flags/host_write_mismatch/0/resolution", 512000.0);
	/* No database entry but no candidates either: nothing to infer. */
	assert_false(json_object_object_get_ex(at(s, "/wa/phases/0"), "host_unit_inferred", NULL));
	json_object_put(s);
}

/*
 * A drive with no entry: no host_bytes_written counter, only candidates. The records wrote
 * 8 GiB + 5 MiB = 8,595,177,472 bytes. 241 grew by 256: in 32 MiB units 8 GiB, 5 MiB short
 * (within one unit: consistent), ratio 8589934592 / 8595177472; in 512 B, 1 GiB, 1 GB or
 * 512,000 B far off. 233 grew by 9: in 1 GiB units 9 GiB, 1019 MiB over (consistent, but
 * farther). 9 (power-on hours) grew by 1: 1 GiB or 1 GB is 7 GB short: inconsistent. 242 did not
 * move. So 241 in 32 MiB.
 */
static void test_unknown_drive_inferred(void **state)
{
	struct fixture *f = *state;
	struct results *r = run_open(f->dir);
	const char *raw0 = "{\"drivedb\": null, \"no_nand_reason\": \"no NAND-write counter known "
			   "for ACME SSD 1TB\", \"host_write_candidates\": {\"ata:9\": 5000, "
			   "\"ata:233\": \"100\", \"ata:241\": \"12000\", \"ata:242\": 300}}";
	const char *raw1 = "{\"drivedb\": null, \"no_nand_reason\": \"no NAND-write counter known "
			   "for ACME SSD 1TB\", \"host_write_candidates\": {\"ata:9\": 5001, "
			   "\"ata:233\": \"109\", \"ata:241\": \"12256\", \"ata:242\": 300}}";
	struct json_object *s;

	snap(r, "run-start", -1, raw0, NULL);
	snap(r, "phase-0-start", 0, raw0, NULL);
	rec_write(r, 0, "precondition", 8 * GiB + 5 * MiB);
	snap(r, "phase-0-end", 0, raw1, NULL);
	snap(r, "run-end", -1, raw1, NULL);
	results_close(r);
	s = analyze(f->dir);
	null_is(s, "/wa/phases/0/wa");
	str_is(s, "/wa/phases/0/wa_reason", "no host-write counter");
	null_is(s, "/wa/phases/0/host_check");
	str_is(s, "/wa/phases/0/host_unit_inferred/counter", "ata:241");
	str_is(s, "/wa/phases/0/host_unit_inferred/unit", "32MiB");
	num_is(s, "/wa/phases/0/host_unit_inferred/ratio", 8589934592.0 / 8595177472.0);
	str_is(s, "/wa/run/host_unit_inferred/unit", "32MiB");
	json_object_put(s);
}

/*
 * A phase whose first job had a ramp: the entry starts at the ramp-end snapshot (t = 200), so its
 * host check counts that job (started at t = 100, before it) by its measured write bytes,
 * 1.5 GiB, not its 2 GiB with the ramp, and the next job (started at t = 1000, inside the span)
 * whole, 1 GiB: 2.5 GiB, as the 512 B host counter moved from 0.5 GiB to 3 GiB: a match. NAND
 * counts twice the host, both in 512 B units: WA 2.
 */
static void test_ramp_host_check(void **state)
{
	struct fixture *f = *state;
	struct results *r = run_open(f->dir);
	const char *raw = "{\"drivedb\": {\"name\": \"Samsung PM863/SM863\", \"source\": \"x\","
			  " \"unverified\": [], \"compresses\": false}}";
	struct results_record rec = {
	    .kind = "cell", .phase = 0, .phase_kind = "rounds", .round = 1, .cell = "bs=4k"};
	const uint64_t start[2] = {100, 1000}, total[2] = {2u << 30, 1u << 30},
		       measured[2] = {3u << 29, 1u << 30};
	struct json_object *s;

#define RAMP(label, host)                                                                          \
	snap(r, label, 0, raw, "host_bytes_written", host, "host_bytes_written_resolution", 512.0,   \
	     "nand_bytes_written", 2 * (host), "nand_bytes_written_resolution", 512.0, NULL)
	snap(r, "run-start", -1, raw, "host_bytes_written", 0.0, "host_bytes_written_resolution",
	     512.0, "nand_bytes_written", 0.0, "nand_bytes_written_resolution", 512.0, NULL);
	RAMP("phase-0-rounds-start", 0.0);
	for (int i = 0; i < 2; i++) {
		struct json_object *o, *w = json_object_new_object();

		rec.start_ns = start[i];
		rec.end_ns = start[i] + 800;
		rec.round = (unsigned)i + 1;
		o = results_record_to_json(&rec);
		json_object_object_add(o, "bytes_written_total", json_object_new_uint64(total[i]));
		json_object_object_add(w, "bytes", json_object_new_uint64(measured[i]));
		json_object_object_add(o, "write", w);
		assert_int_equal(results_append_record(r, o), 0);
		json_object_put(o);
	}
	RAMP("phase-0-rounds-ramp-end", 0.5 * GiB);
	RAMP("phase-0-rounds-end", 3 * GiB);
#undef RAMP
	results_close(r);
	/* The snapshots' target times: start 0 (the default), ramp end 200, end 1800. */
	{
		char path[600];
		struct json_object *o;

		snprintf(path, sizeof(path), "%s/snapshots/0002-phase-0-rounds-ramp-end.json", f->dir);
		o = json_object_from_file(path);
		assert_non_null(o);
		json_object_object_add(o, "target_ns", json_object_new_int64(200));
		assert_int_equal(json_object_to_file(path, o), 0);
		json_object_put(o);
		snprintf(path, sizeof(path), "%s/snapshots/0003-phase-0-rounds-end.json", f->dir);
		o = json_object_from_file(path);
		assert_non_null(o);
		json_object_object_add(o, "target_ns", json_object_new_int64(1800));
		assert_int_equal(json_object_to_file(path, o), 0);
		json_object_put(o);
	}
	s = analyze(f->dir);
	str_is(s, "/wa/phases/0/from_label", "phase-0-rounds-ramp-end");
	num_is(s, "/wa/phases/0/host_check/counter_bytes", 2.5 * GiB);
	num_is(s, "/wa/phases/0/host_check/written_bytes", 2.5 * GiB);
	num_is(s, "/wa/phases/0/host_check/records", 2);
	bool_is(s, "/wa/phases/0/host_check/match", true);
	num_is(s, "/wa/phases/0/wa", 2.0);
	/* The run counts every record whole: 3 GiB, as the counter says. */
	num_is(s, "/wa/run/host_check/written_bytes", 3 * GiB);
	bool_is(s, "/wa/run/host_check/match", true);
	json_object_put(s);
}

/* The pure rules: the closed forms of the comments above, and the inference's refusals. */
static void test_rules(void **state)
{
	const struct wa_candidate none[] = {{"ata:241", 0}};
	const struct wa_candidate far[] = {{"ata:241", 3}};
	struct wa_inferred inf;

	(void)state;
	/* 41 units of 32 MiB (test_intel_short_phase). */
	assert_true(wa_bytes_needed(32 * MiB, 32 * MiB) == 41 * 32 * MiB);
	/* An exact host counter and a 1 GiB NAND counter: H >= 20 rn = 20 GiB. */
	assert_true(wa_bytes_needed(0, GiB) == 20 * GiB);
	assert_int_equal(WA_PAGES_NEEDED, (int)ceil(10 + sqrt(101)));
	assert_true(wa_host_match(1000, 1000, 0));
	assert_false(wa_host_match(1000, 1001, 0));
	assert_true(wa_host_match(512000.0 * 16, 8 * MiB, 512000)); /* 8192000 vs 8388608 */
	/* Nothing moved, nothing written, or 3 x any unit far from 8 GiB: no inference. */
	assert_int_equal(wa_infer_unit(none, 1, 8 * GiB, &inf), -ENODATA);
	assert_int_equal(wa_infer_unit(far, 1, 0, &inf), -ENODATA);
	assert_int_equal(wa_infer_unit(far, 1, 8 * GiB, &inf), -ENODATA);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_micron_pages, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_samsung_enterprise, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_intel_short_phase, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sandforce_compression, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_host_mismatch, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unknown_drive_inferred, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ramp_host_check, setup, teardown),
	    cmocka_unit_test(test_rules),
	};

	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
