/* SPDX-License-Identifier: MIT */
/*
 * test_analyze: analyze on a synthetic results directory written through results.h, with
 * figures chosen so that every expected number below is worked out by hand:
 *
 *   phase 0 precondition: 100 writes of 4 KiB in 1 s, 100 latencies of 50 ns
 *   phase 1 rounds, 7 rounds x 2 cells, 1 s each:
 *     bs=4k   (tracked, write_iops): 50, 80, 100, 102, 98, 101, 99 writes; each round's
 *             latencies: 9 x 10 ns and 1 x (10 x round) ns
 *     bs=128k 10 writes of 128 KiB, 10 latencies of 100 ns; round 2 flagged host-limited
 *   phase 2 idle (no I/O), then a resume record
 *   snapshots (host, nand bytes): run-start (0,0); phase 0 start (0,0), end (1000,1000);
 *     phase 1 start (1000,1000), end (5000,11000); run-end (5000,11000)
 *   a second tracked series on a cell that never ran
 *
 * Expected: steady state reached over rounds 3..7 (the window of test_ss's "scan" case: avg
 * 100, slope -0.3, intercept 101.5); bs=4k over that window: 500 writes in 5 s = 100 IOPS;
 * latencies merged from 50 samples (45 x 10, 30, 40, 50, 60, 70 ns): mean 14, p90 10, p99 70,
 * where averaging the rounds' p99 would give 50; WA phase 0 = 1, phase 1 = 10000/4000 = 2.5,
 * run = 11000/5000 = 2.2; flags: one series not reached (no data), one host-limited
 * measurement, resumed. The output is byte-for-byte the same on every call and after the
 * directory is moved.
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
#include "analysis/ss_track.h"
#include "cli/headline.h"
#include "base/hist.h"
#include "results/results.h"
#include "run/record.h"
#include "testutil.h"

struct fixture {
	char *tmp, *run;
};

static void job_init(struct job_result *j, uint64_t wios, uint64_t wbytes)
{
	memset(j, 0, sizeof(*j));
	hist_init(&j->d[0].lat);
	hist_init(&j->d[1].lat);
	j->elapsed_ns = 1000000000ull;
	j->d[IO_WRITE].ios = wios;
	j->d[IO_WRITE].bytes = wbytes;
	j->bytes_written_total = wbytes;
	j->cpu_user_s = 0.5;
	snprintf(j->clock_source, sizeof(j->clock_source), "virtual");
}

static void append(struct results *r, const struct results_record *rec,
		   const struct job_result *job)
{
	struct json_object *o = run_record_to_json(rec, job);

	assert_non_null(o);
	assert_int_equal(results_append_record(r, o), 0);
	json_object_put(o);
}

/* A counter snapshot taken at target time t (0: the snapshot's own default). */
static void snap_at(struct results *r, const char *label, int phase, uint64_t t, double host,
		    double nand)
{
	struct snapshot s;

	snapshot_init(&s, "sim");
	snprintf(s.label, sizeof(s.label), "%s", label);
	if (t)
		s.target_ns = t;
	assert_int_equal(snapshot_set(&s, "host_bytes_written", "bytes", host), 0);
	assert_int_equal(snapshot_set(&s, "nand_bytes_written", "bytes", nand), 0);
	assert_int_equal(results_write_snapshot(r, &s, phase, 0), 0);
	snapshot_release(&s);
}

static void build_run(const char *dir)
{
	static const uint64_t tracked[7] = {50, 80, 100, 102, 98, 101, 99};
	struct job_result *j = malloc(sizeof(*j));
	struct json_object *m = json_object_new_object();
	struct ss_params p;
	struct results *r;
	struct results_record rec;

	assert_non_null(j);
	assert_int_equal(results_create(dir, &r), 0);
	ss_params_default(&p);
	json_object_object_add(m, "profile", json_object_new_string("synthetic"));
	assert_int_equal(ss_track_add(m, 1, 0, "bs=4k", "write_iops", &p), 0);
	assert_int_equal(ss_track_add(m, 1, 0, "bs=2k", "iops", &p), 0);
	assert_int_equal(results_write_manifest(r, m, NULL), 0);
	json_object_put(m);

	snap_at(r, "run-start", -1, 0, 0, 0);
	snap_at(r, "phase-0-start", 0, 0, 0, 0);
	job_init(j, 100, 409600);
	for (int i = 0; i < 100; i++)
		hist_add(&j->d[IO_WRITE].lat, 50);
	rec = (struct results_record){
	    .kind = "precondition", .phase = 0, .phase_kind = "precondition"};
	append(r, &rec, j);
	snap_at(r, "phase-0-end", 0, 0, 1000, 1000);

	snap_at(r, "phase-1-start", 1, 0, 1000, 1000);
	for (unsigned round = 1; round <= 7; round++) {
		job_init(j, tracked[round - 1], tracked[round - 1] * 4096);
		for (int i = 0; i < 9; i++)
			hist_add(&j->d[IO_WRITE].lat, 10);
		hist_add(&j->d[IO_WRITE].lat, 10 * round);
		rec = (struct results_record){.kind = "cell",
					      .phase = 1,
					      .phase_kind = "rounds",
					      .round = round,
					      .cell = "bs=4k"};
		append(r, &rec, j);
		job_init(j, 10, 10 * 131072);
		for (int i = 0; i < 10; i++)
			hist_add(&j->d[IO_WRITE].lat, 100);
		rec.cell = "bs=128k";
		rec.flags = round == 2 ? RESULTS_F_HOST_LIMITED : 0;
		append(r, &rec, j);
	}
	snap_at(r, "phase-1-end", 1, 0, 5000, 11000);
	rec = (struct results_record){.kind = "idle", .phase = 2, .phase_kind = "idle"};
	append(r, &rec, NULL);
	rec = (struct results_record){.kind = "resume", .phase = 2, .phase_kind = "idle"};
	{
		struct json_object *o = results_record_to_json(&rec);

		json_object_object_add(o, "gap_wall_ns", json_object_new_int64(5000000000));
		assert_int_equal(results_append_record(r, o), 0);
		json_object_put(o);
	}
	snap_at(r, "run-end", -1, 0, 5000, 11000);
	results_close(r);
	free(j);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->tmp = tu_mkdtemp("analyze");
	if (!f->tmp || asprintf(&f->run, "%s/run", f->tmp) < 0)
		return -1;
	build_run(f->run);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	tu_rmtree(f->tmp);
	free(f->tmp);
	free(f->run);
	free(f);
	return 0;
}

static struct json_object *at(struct json_object *o, const char *ptr)
{
	struct json_object *x = NULL;

	if (json_pointer_get(o, ptr, &x))
		fail_msg("no %s in the summary", ptr);
	return x;
}

static void num_is(struct json_object *o, const char *ptr, double want)
{
	double got = json_object_get_double(at(o, ptr));

	if (!(fabs(got - want) <= 1e-9 * (fabs(want) > 1 ? fabs(want) : 1)))
		fail_msg("%s = %.17g, expected %.17g", ptr, got, want);
}

static void str_is(struct json_object *o, const char *ptr, const char *want)
{
	assert_string_equal(json_object_get_string(at(o, ptr)), want);
}

static char *text_of(struct json_object *o)
{
	return strdup(json_object_to_json_string_ext(
	    o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
}

static void test_expected_summary(void **state)
{
	struct fixture *f = *state;
	struct json_object *s = NULL;
	char err[256] = "";

	assert_int_equal(analyze_dir(f->run, &s, err, sizeof(err)), 0);
	num_is(s, "/schema", 1);
	num_is(s, "/records/count", 17);
	num_is(s, "/records/snapshots", 6);

	/* Steady state of bs=4k write IOPS. */
	str_is(s, "/steady_state/0/cell", "bs=4k");
	str_is(s, "/steady_state/0/verdict", "reached");
	num_is(s, "/steady_state/0/first_round", 3);
	num_is(s, "/steady_state/0/last_round", 7);
	num_is(s, "/steady_state/0/rounds", 7);
	num_is(s, "/steady_state/0/average", 100);
	num_is(s, "/steady_state/0/slope", -0.3);
	num_is(s, "/steady_state/0/intercept", 101.5);
	num_is(s, "/steady_state/0/data_excursion", 4);
	num_is(s, "/steady_state/0/allowed_data_excursion", 20);
	num_is(s, "/steady_state/0/slope_excursion", 1.2);
	num_is(s, "/steady_state/0/values/0", 50);
	num_is(s, "/steady_state/0/values/6", 99);
	num_is(s, "/steady_state/0/round_gaps", 0);
	/* The second series has no records. */
	str_is(s, "/steady_state/1/verdict", "no_data");

	/* Cells, in first-seen order. */
	str_is(s, "/cells/0/kind", "precondition");
	str_is(s, "/cells/0/over", "all_records");
	num_is(s, "/cells/0/write/iops", 100);
	num_is(s, "/cells/0/write/bw_bps", 409600);
	num_is(s, "/cells/0/write/lat_ns/p50", 50);
	str_is(s, "/cells/1/cell", "bs=4k");
	str_is(s, "/cells/1/over", "steady_state_window");
	num_is(s, "/cells/1/records", 5);
	num_is(s, "/cells/1/first_round", 3);
	num_is(s, "/cells/1/write/ios", 500);
	num_is(s, "/cells/1/write/iops", 100);
	num_is(s, "/cells/1/total/iops", 100);
	num_is(s, "/cells/1/read/iops", 0);
	assert_null(at(s, "/cells/1/read/lat_ns"));
	num_is(s, "/cells/1/write/lat_ns/mean", 14);
	num_is(s, "/cells/1/write/lat_ns/p90", 10);
	num_is(s, "/cells/1/write/lat_ns/p99", 70); /* merged, not the rounds' average (50) */
	num_is(s, "/cells/1/write/lat_ns/min", 10);
	num_is(s, "/cells/1/write/lat_ns/max", 70);
	num_is(s, "/cells/1/cpu_user_s", 2.5);
	/* Every round in the per-round table, also those before the window. */
	assert_int_equal(json_object_array_length(at(s, "/cells/1/per_round")), 7);
	num_is(s, "/cells/1/per_round/0/round", 1);
	num_is(s, "/cells/1/per_round/0/iops", 50);
	num_is(s, "/cells/1/per_round/0/bw_bps", 50 * 4096);
	num_is(s, "/cells/1/per_round/6/lat_p99_ns", 70);  /* round 7: 9 x 10 ns, 1 x 70 ns */
	num_is(s, "/cells/1/per_round/6/lat_mean_ns", 16); /* (90 + 70) / 10 */
	assert_int_equal(json_object_array_length(at(s, "/cells/0/per_round")), 1);
	num_is(s, "/cells/0/per_round/0/round", 0);
	str_is(s, "/cells/2/cell", "bs=128k");
	num_is(s, "/cells/2/records", 5);
	num_is(s, "/cells/2/write/iops", 10);
	num_is(s, "/cells/2/write/bw_bps", 1310720);
	num_is(s, "/cells/2/host_limited_records", 0); /* round 2 is outside the window */
	assert_int_equal(json_object_array_length(at(s, "/cells")), 3);

	/* Write amplification. */
	num_is(s, "/wa/phases/0/phase", 0);
	num_is(s, "/wa/phases/0/wa", 1);
	num_is(s, "/wa/phases/1/phase", 1);
	num_is(s, "/wa/phases/1/host_bytes_written", 4000);
	num_is(s, "/wa/phases/1/nand_bytes_written", 10000);
	num_is(s, "/wa/phases/1/wa", 2.5);
	str_is(s, "/wa/phases/1/from_label", "phase-1-start");
	num_is(s, "/wa/run/wa", 2.2);

	/* Flags. */
	assert_int_equal(json_object_array_length(at(s, "/flags/steady_state_not_reached")), 1);
	str_is(s, "/flags/steady_state_not_reached/0/cell", "bs=2k");
	assert_int_equal(json_object_array_length(at(s, "/flags/host_limited")), 1);
	num_is(s, "/flags/host_limited/0/round", 2);
	str_is(s, "/flags/host_limited/0/cell", "bs=128k");
	assert_true(json_object_get_boolean(at(s, "/flags/resumed")));
	num_is(s, "/flags/resumes", 1);
	num_is(s, "/flags/resume_points/0/phase", 2);
	num_is(s, "/flags/resume_points/0/gap_wall_ns", 5e9);
	num_is(s, "/flags/io_errors", 0);
	assert_false(json_object_get_boolean(at(s, "/flags/torn_last_line_dropped")));
	json_object_put(s);
}

static void test_reproducible(void **state)
{
	struct fixture *f = *state;
	struct json_object *a = NULL, *b = NULL;
	char err[256] = "", *ta, *tb, *file, *moved, path[4096];
	FILE *fp;
	size_t n;

	assert_int_equal(analyze_write(f->run, &a, err, sizeof(err)), 0);
	ta = text_of(a);
	/* What was written is the serialized summary plus a newline. */
	snprintf(path, sizeof(path), "%s/summary.json", f->run);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	file = calloc(1, strlen(ta) + 16);
	n = fread(file, 1, strlen(ta) + 15, fp);
	fclose(fp);
	assert_int_equal(n, strlen(ta) + 1);
	assert_memory_equal(file, ta, strlen(ta));

	/* Again, and after moving the directory (summary.json now exists: it is not an input). */
	assert_true(asprintf(&moved, "%s/elsewhere", f->tmp) > 0);
	assert_int_equal(rename(f->run, moved), 0);
	assert_int_equal(analyze_dir(moved, &b, err, sizeof(err)), 0);
	tb = text_of(b);
	assert_string_equal(ta, tb);
	assert_int_equal(rename(moved, f->run), 0);
	free(moved);
	free(ta);
	free(tb);
	free(file);
	json_object_put(a);
	json_object_put(b);
}

static void test_torn_and_corrupt(void **state)
{
	struct fixture *f = *state;
	struct json_object *s = NULL;
	char err[256] = "", path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/records.jsonl", f->run);
	fp = fopen(path, "ab");
	assert_non_null(fp);
	fputs("{\"schema\":1,\"kind\":\"cell\",\"pha", fp);
	fclose(fp);
	assert_int_equal(analyze_dir(f->run, &s, err, sizeof(err)), 0);
	num_is(s, "/records/count", 17);
	assert_true(json_object_get_boolean(at(s, "/flags/torn_last_line_dropped")));
	str_is(s, "/steady_state/0/verdict", "reached");
	json_object_put(s);

	/* Another line after the torn one: corrupt in the middle, refused with the line number. */
	fp = fopen(path, "ab");
	fputs("\n{\"schema\":1,\"kind\":\"idle\",\"phase\":3,\"repeat\":0,\"round\":0,\"cell\":"
	      "\"\"}\n",
	      fp);
	fclose(fp);
	s = NULL;
	assert_int_equal(analyze_dir(f->run, &s, err, sizeof(err)), -EBADMSG);
	assert_null(s);
	assert_non_null(strstr(err, "line 18"));
}

static void test_missing_manifest(void **state)
{
	struct fixture *f = *state;
	struct json_object *s = NULL;
	char err[256] = "", path[4096];

	snprintf(path, sizeof(path), "%s/manifest.json", f->run);
	assert_int_equal(remove(path), 0);
	assert_int_equal(analyze_dir(f->run, &s, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "manifest.json"));
}

static void test_headline(void **state)
{
	struct fixture *f = *state;
	struct json_object *s = NULL;
	char err[256] = "", *buf = NULL;
	size_t len = 0;
	FILE *mem;

	assert_int_equal(analyze_dir(f->run, &s, err, sizeof(err)), 0);
	mem = open_memstream(&buf, &len);
	headline_print_details(s, mem);
	headline_print(s, mem);
	fclose(mem);
	assert_non_null(strstr(buf, "steady state   bs=4k write IOPS 100 (reached in rounds 3-7)"));
	assert_non_null(strstr(buf,
			       "phase 1 bs=4k write_iops: reached, rounds 3-7, average 100.0, "
			       "data excursion 4.0% (max 20%), slope excursion 1.2% (max 10%)"));
	assert_non_null(strstr(buf, "write amplification, phase 1: 2.500"));
	assert_non_null(strstr(buf, "write amplification, whole run: 2.200"));
	assert_non_null(strstr(buf, "FLAG: steady state not reached in 1 tracked series"));
	assert_non_null(strstr(buf, "FLAG: the run was resumed"));
	free(buf);
	json_object_put(s);
}

/*
 * flags.purge_not_pts (issue 9, point 11): purge records that only discarded. Records of this
 * version say pts_purge; older ones are judged by their method (only "sim-reset" was real).
 */
static void test_purge_flags(void **state)
{
	static const char *const lines[] = {
	    /* older versions: a loop device's blkdiscard, the virtual SSD's reset */
	    "{\"schema\":1,\"kind\":\"purge\",\"phase\":3,\"repeat\":0,\"round\":0,\"cell\":\"\","
	    "\"flags\":[],\"method\":\"blkdiscard\"}",
	    "{\"schema\":1,\"kind\":\"purge\",\"phase\":4,\"repeat\":0,\"round\":0,\"cell\":\"\","
	    "\"flags\":[],\"method\":\"sim-reset\"}",
	    /* this version */
	    "{\"schema\":1,\"kind\":\"purge\",\"phase\":5,\"repeat\":1,\"round\":0,\"cell\":\"\","
	    "\"flags\":[],\"method\":\"discard\",\"pts_purge\":false,\"settle_ns\":5000000000}",
	    "{\"schema\":1,\"kind\":\"purge\",\"phase\":6,\"repeat\":0,\"round\":0,\"cell\":\"\","
	    "\"flags\":[],\"method\":\"sim-reset\",\"pts_purge\":true,\"settle_ns\":0}",
	};
	struct fixture *f = *state;
	struct json_object *s = NULL;
	char err[256] = "", path[4096], *buf = NULL;
	size_t len = 0;
	FILE *fp;

	assert_int_equal(analyze_dir(f->run, &s, err, sizeof(err)), 0);
	assert_int_equal(json_object_array_length(at(s, "/flags/purge_not_pts")), 0);
	json_object_put(s);
	snprintf(path, sizeof(path), "%s/records.jsonl", f->run);
	fp = fopen(path, "ab");
	assert_non_null(fp);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		fprintf(fp, "%s\n", lines[i]);
	fclose(fp);
	s = NULL;
	assert_int_equal(analyze_dir(f->run, &s, err, sizeof(err)), 0);
	assert_string_equal(
	    json_object_to_json_string_ext(at(s, "/flags/purge_not_pts"), JSON_C_TO_STRING_PLAIN),
	    "[{\"phase\":3,\"repeat\":0,\"method\":\"blkdiscard\",\"settle_ns\":0},"
	    "{\"phase\":5,\"repeat\":1,\"method\":\"discard\",\"settle_ns\":5000000000}]");
	fp = open_memstream(&buf, &len);
	headline_print(s, fp);
	fclose(fp);
	print_message("%s", buf);
	assert_non_null(strstr(buf, "FLAG: the purge of phase 3 was a full-device discard "
				    "(blkdiscard), not a SNIA PTS purge"));
	assert_non_null(strstr(buf, "FLAG: the purge of phase 5 was a full-device discard, not a "
				    "SNIA PTS purge (no secure erase, sanitize or format); 5.00 s "
				    "settle idle after it"));
	assert_null(strstr(buf, "phase 4 was"));
	assert_null(strstr(buf, "phase 6 was"));
	free(buf);
	json_object_put(s);
}

/*
 * The headline pass on a second synthetic run, worked by hand. Time scale 0.5 (the profile's
 * durations are twice the target's); every measurement 1 s of target time, 4 KiB writes, so
 * IOPS = writes:
 *   phase 0 precondition       in 2 chunks (rounds 1, 2) of 100 and 300 writes: merged into one
 *                              cells entry, 400 writes in 2 s = 200 IOPS, 1638400 bytes;
 *                              snapshots t=0 (0, 0) .. t=2 s (1000, 1000)
 *   phase 1 rounds, cell all   rounds 1-5 at 100 IOPS from t=2 s to t=7 s: steady state
 *                              reached in rounds 1-5, average 100; snapshots phase-1-start t=2 s
 *                              (1000, 1000), phase-1-end t=7 s (5000, 16000): WA in steady
 *                              state (16000 - 1000) / (5000 - 1000) = 3.75
 *   phase 2 idle, 300 s target (600 s of the profile)
 *   phase 3 rounds             250, 160, 120, 105, 95, 101 IOPS: first +150%; back within 10% of
 *                              100 at round 4 (rounds 4-6 inside: 3 in a row), after 3 s of
 *                              target writing = 6 s of the profile,
 *                              (250 + 160 + 120) x 4096 = 2170880 bytes
 *   phase 4 idle, 30 s target  then phase 5: 300, 290 IOPS: +200%, never back
 *   run-end snapshot (8000, 24000): WA over the whole run 24000 / 8000 = 3
 */
static void hl_rec(struct results *r, const char *kind, int phase, unsigned round, uint64_t ios,
		   uint64_t *t, struct json_object *extra_idle)
{
	struct job_result *j = malloc(sizeof(*j));
	struct results_record rec = {.kind = kind, .phase = phase, .round = round,
				     .phase_kind = strcmp(kind, "cell") ? kind : "rounds",
				     .cell = strcmp(kind, "cell") ? "" : "all", .start_ns = *t};
	const struct job_result *job = NULL;
	struct json_object *o;

	assert_non_null(j);
	if (!extra_idle) {
		job_init(j, ios, ios * 4096);
		for (uint64_t i = 0; i < ios; i++)
			hist_add(&j->d[IO_WRITE].lat, 1000);
		job = j;
		*t += 1000000000ull;
	}
	rec.end_ns = *t;
	o = run_record_to_json(&rec, job);
	assert_non_null(o);
	if (extra_idle)
		json_object_object_add(o, "idle_ns", extra_idle);
	else
		json_object_object_add(o, "time_scale", json_object_new_double(0.5));
	assert_int_equal(results_append_record(r, o), 0);
	json_object_put(o);
	free(j);
}

static void build_headline_run(const char *dir)
{
	static const uint64_t after1[] = {250, 160, 120, 105, 95, 101}, after2[] = {300, 290};
	struct json_object *m = json_object_new_object();
	struct results *r;
	struct ss_params p;
	uint64_t t = 0;

	assert_int_equal(results_create(dir, &r), 0);
	ss_params_default(&p);
	assert_int_equal(ss_track_add(m, 1, 0, "all", "iops", &p), 0);
	/* The plan, as far as the headline reads it: phase 1's workload, numbered depth first
	 * (here the body of a repeat, phase 0; the plan need not match the records). */
	json_object_object_add(
	    m, "plan",
	    json_tokener_parse("{\"phases\": [{\"kind\": \"repeat\", \"settings\": {\"phases\": "
			       "[{\"kind\": \"rounds\", \"settings\": {\"base\": {\"rw\": "
			       "\"randwrite\", \"bs\": [{\"bs\": 4096, \"weight\": 1}]}}}]}}]}"));
	assert_int_equal(results_write_manifest(r, m, NULL), 0);
	json_object_put(m);
	snap_at(r, "run-start", -1, 0, 0, 0);
	snap_at(r, "phase-0-start", 0, 0, 0, 0);
	hl_rec(r, "precondition", 0, 1, 100, &t, NULL);
	hl_rec(r, "precondition", 0, 2, 300, &t, NULL);
	snap_at(r, "phase-0-end", 0, t, 1000, 1000);
	snap_at(r, "phase-1-start", 1, t, 1000, 1000);
	for (unsigned round = 1; round <= 5; round++)
		hl_rec(r, "cell", 1, round, 100, &t, NULL);
	snap_at(r, "phase-1-end", 1, t, 5000, 16000);
	hl_rec(r, "idle", 2, 0, 0, &t, json_object_new_int64(300000000000));
	t += 300000000000ull;
	for (unsigned i = 0; i < 6; i++)
		hl_rec(r, "cell", 3, i + 1, after1[i], &t, NULL);
	hl_rec(r, "idle", 4, 0, 0, &t, json_object_new_int64(30000000000));
	t += 30000000000ull;
	for (unsigned i = 0; i < 2; i++)
		hl_rec(r, "cell", 5, i + 1, after2[i], &t, NULL);
	snap_at(r, "run-end", -1, t, 8000, 24000);
	results_close(r);
}

static void test_headline_pass(void **state)
{
	struct fixture *f = *state;
	struct json_object *s = NULL;
	char err[256] = "", dir[4200], *buf = NULL;
	size_t len = 0;
	FILE *mem;

	snprintf(dir, sizeof(dir), "%s/headline", f->tmp);
	build_headline_run(dir);
	assert_int_equal(analyze_dir(dir, &s, err, sizeof(err)), 0);
	/* The precondition's chunks, merged. */
	str_is(s, "/cells/0/kind", "precondition");
	num_is(s, "/cells/0/records", 2);
	num_is(s, "/cells/0/first_round", 1);
	num_is(s, "/cells/0/last_round", 2);
	num_is(s, "/cells/0/write/ios", 400);
	num_is(s, "/cells/0/write/bytes", 1638400);
	num_is(s, "/cells/0/write/iops", 200);
	num_is(s, "/cells/0/write/lat_ns/p99", 1000);
	num_is(s, "/cells/0/per_round/1/iops", 300);
	assert_int_equal(json_object_array_length(at(s, "/cells")), 4); /* phases 0, 1, 3, 5 */
	str_is(s, "/headline/steady_state/0/verdict", "reached");
	num_is(s, "/headline/steady_state/0/average", 100);
	num_is(s, "/headline/steady_state/0/first_round", 1);
	num_is(s, "/headline/steady_state/0/last_round", 5);
	num_is(s, "/headline/steady_state/0/wa", 3.75);
	str_is(s, "/headline/steady_state/0/wa_from", "phase-1-start");
	str_is(s, "/headline/steady_state/0/wa_to", "phase-1-end");
	num_is(s, "/headline/wa_run", 3);
	num_is(s, "/headline/recovery/0/idle_phase", 2);
	num_is(s, "/headline/recovery/0/idle_target_ns", 300e9);
	num_is(s, "/headline/recovery/0/idle_profile_ns", 600e9);
	num_is(s, "/headline/recovery/0/phase", 3);
	num_is(s, "/headline/recovery/0/first", 250);
	num_is(s, "/headline/recovery/0/first_change", 1.5);
	str_is(s, "/headline/recovery/0/verdict", "back");
	num_is(s, "/headline/recovery/0/back_round", 4);
	num_is(s, "/headline/recovery/0/back_after_target_ns", 3e9);
	num_is(s, "/headline/recovery/0/back_after_profile_ns", 6e9);
	num_is(s, "/headline/recovery/0/back_after_bytes", 2170880);
	num_is(s, "/headline/recovery/1/idle_phase", 4);
	num_is(s, "/headline/recovery/1/first_change", 2);
	num_is(s, "/headline/recovery/1/measurements", 2);
	str_is(s, "/headline/recovery/1/verdict", "not_within_measured_rounds");
	assert_null(at(s, "/headline/recovery/1/back_after_profile_ns"));
	assert_int_equal(json_object_array_length(at(s, "/headline/recovery")), 2);
	/* The cells of phase 1 (phases 3 and 5 are the recovery line's): 500 writes in 5 s. */
	assert_int_equal(json_object_array_length(at(s, "/headline/results")), 1);
	str_is(s, "/headline/results/0/workload", "4k randwrite");
	str_is(s, "/headline/results/0/over", "steady_state_window");
	num_is(s, "/headline/results/0/iops", 100);
	num_is(s, "/headline/results/0/bw_bps", 409600);
	num_is(s, "/headline/results/0/lat_p99_ns", 1000);

	mem = open_memstream(&buf, &len);
	headline_print(s, mem);
	fclose(mem);
	print_message("%s", buf);
	assert_non_null(strstr(buf, "steady state   4k randwrite IOPS 100 (reached in rounds 1-5)\n"));
	str_is(s, "/headline/steady_state/0/workload", "4k randwrite");
	assert_non_null(strstr(buf, "WA             3.75 in steady state, 3.00 whole run\n"));
	assert_non_null(strstr(buf, "cells of phase 1, rounds 1-5 (steady-state window)\n"
				    "  4k randwrite  IOPS 100, 0.4 MB/s, latency mean 1.00 us, p99 "
				    "1.00 us, max 1.00 us\n"));
	assert_non_null(strstr(buf, "after 10m00s idle IOPS 250 (+150%), back to steady state after "));
	assert_non_null(strstr(buf,
			       "IOPS 300 (+200%), not back to steady state within the measured "
			       "rounds (rule: 3 rounds in a row within 10%)\n"));
	free(buf);
	json_object_put(s);
}

/*
 * The recovery rule (issue 9, point 5): "back" is the first of 3 rounds in a row within 10% of
 * the steady-state average, not the first round inside. Steady state 100 IOPS (rounds 1-5 of
 * phase 1), a 300 s idle, then phase 3 at 1 s per round (time scale 0.5), 4 KiB writes:
 *   A: 250, 105, 130, 97, 102, 99, 140  round 2 enters the band and round 3 leaves it (+30%):
 *      the first-round rule said back at round 2 after 1 s (2 s of the profile); the run of
 *      rounds 4-6 makes it round 4, after rounds 1-3: 3 s target, 6 s profile,
 *      (250 + 105 + 130) x 4096 = 1986560 bytes.
 *   B: 250, 95, 104, 60, 108, 93        two in, one out (-40%), two in, end: never 3 in a row,
 *      not back (the first-round rule said round 2).
 * Both keep first_in_band_round = 2 and report the rule.
 */
static void build_recovery_run(const char *dir, const uint64_t *after, unsigned n)
{
	struct json_object *m = json_object_new_object();
	struct results *r;
	struct ss_params p;
	uint64_t t = 0;

	assert_int_equal(results_create(dir, &r), 0);
	ss_params_default(&p);
	assert_int_equal(ss_track_add(m, 1, 0, "all", "iops", &p), 0);
	assert_int_equal(results_write_manifest(r, m, NULL), 0);
	json_object_put(m);
	snap_at(r, "run-start", -1, 0, 0, 0);
	for (unsigned round = 1; round <= 5; round++)
		hl_rec(r, "cell", 1, round, 100, &t, NULL);
	hl_rec(r, "idle", 2, 0, 0, &t, json_object_new_int64(300000000000));
	t += 300000000000ull;
	for (unsigned i = 0; i < n; i++)
		hl_rec(r, "cell", 3, i + 1, after[i], &t, NULL);
	snap_at(r, "run-end", -1, t, 1000, 2000);
	results_close(r);
}

static void test_recovery_rule(void **state)
{
	static const uint64_t a[] = {250, 105, 130, 97, 102, 99, 140},
			      b[] = {250, 95, 104, 60, 108, 93};
	struct fixture *f = *state;
	struct json_object *s = NULL;
	char err[256] = "", dir[4200], *buf = NULL;
	size_t len = 0;
	FILE *mem;

	snprintf(dir, sizeof(dir), "%s/recovery-a", f->tmp);
	build_recovery_run(dir, a, sizeof(a) / sizeof(a[0]));
	assert_int_equal(analyze_dir(dir, &s, err, sizeof(err)), 0);
	str_is(s, "/headline/recovery/0/verdict", "back");
	num_is(s, "/headline/recovery/0/back_round", 4);
	num_is(s, "/headline/recovery/0/back_after_target_ns", 3e9);
	num_is(s, "/headline/recovery/0/back_after_profile_ns", 6e9);
	num_is(s, "/headline/recovery/0/back_after_bytes", 1986560);
	num_is(s, "/headline/recovery/0/first_in_band_round", 2);
	str_is(s, "/headline/recovery/0/rule/name", "first_of_consecutive_in_band");
	num_is(s, "/headline/recovery/0/rule/rounds", 3);
	num_is(s, "/headline/recovery/0/rule/band", 0.1);
	mem = open_memstream(&buf, &len);
	headline_print(s, mem);
	fclose(mem);
	assert_non_null(strstr(buf,
			       "back to steady state after 6.00 s of writing (rule: 3 rounds in a "
			       "row within 10%)\n"));
	free(buf);
	json_object_put(s);

	s = NULL;
	snprintf(dir, sizeof(dir), "%s/recovery-b", f->tmp);
	build_recovery_run(dir, b, sizeof(b) / sizeof(b[0]));
	assert_int_equal(analyze_dir(dir, &s, err, sizeof(err)), 0);
	str_is(s, "/headline/recovery/0/verdict", "not_within_measured_rounds");
	num_is(s, "/headline/recovery/0/first_in_band_round", 2);
	num_is(s, "/headline/recovery/0/measurements", 6);
	assert_null(at(s, "/headline/recovery/0/back_round"));
	assert_null(at(s, "/headline/recovery/0/back_after_profile_ns"));
	json_object_put(s);
}

/* The manifest's steady-state tracks (ss_track.h; moved here from test_results). */
static void test_ss_track(void **state)
{
	struct json_object *m = json_object_new_object(), *arr, *t, *x;
	struct ss_params p;

	(void)state;
	ss_params_default(&p);
	assert_int_equal(ss_track_add(m, 2, 0, "rwmix_read=0,bs=4k", "iops", &p), 0);
	assert_int_equal(ss_track_add(m, 5, 1, "bs=128k", "write_bw", &p), 0);
	assert_int_equal(ss_track_add(m, 5, 1, "bs=128k", "speed", &p), -EINVAL);
	assert_true(json_object_object_get_ex(m, "steady_state", &arr));
	assert_int_equal(json_object_array_length(arr), 2);
	t = json_object_array_get_idx(arr, 1);
	assert_true(json_object_object_get_ex(t, "metric", &x));
	assert_string_equal(json_object_get_string(x), "write_bw");
	assert_true(json_object_object_get_ex(t, "repeat", &x));
	assert_int_equal(json_object_get_int(x), 1);
	json_object_put(m);
}

/*
 * A fast run (manifest pts.fast, an IOPS test): tracking phase 1 (rounds 1-5 of the tracked cell,
 * 100 writes each: reached over 1-5) and matrix phase 2 over 2 rounds, whose figures are those of
 * round 2 alone (pass_fast_run): 60 and 30 writes in 1 s, not the 2-round 50 and 20. The cells
 * entries of phase 2 and the SNIA block say the same rounds and figures; the same records
 * without pts.fast average both rounds (all_records). With `fill`, the manifest has a sprandom
 * fill of 4 KiB units before the tracking phase, so the 4 KiB row's two matrix rounds (r1_4k
 * and 60) are checked against each other (pass_snia_fast.c); with `two`, a snapshot of the
 * matrix phase records a two-state model (write cache off, no PLP, dynamic SLC cache) and the
 * fill's inputs say it was forced past its refusal there, as the runner records it.
 */
static struct json_object *fast_summary(bool fast, uint64_t r1_4k, bool fill, bool two)
{
	const uint64_t mat[2][2] = {{r1_4k, 10}, {60, 30}}; /* [round][cell] */
	static const char *const cells[2] = {"rwmix_read=0,bs=4k", "rwmix_read=0,bs=128k"};
	struct job_result *j = malloc(sizeof(*j));
	struct json_object *m = json_object_new_object(), *pts = json_object_new_object(), *s = NULL;
	char *tmp = tu_mkdtemp("analyze-fast"), *dir = NULL, err[256] = "";
	struct results_record rec;
	struct ss_params p;
	struct results *r;

	assert_non_null(j);
	assert_non_null(tmp);
	assert_true(asprintf(&dir, "%s/run", tmp) > 0);
	assert_int_equal(results_create(dir, &r), 0);
	ss_params_default(&p);
	json_object_object_add(m, "profile", json_object_new_string("snia-iops-fast"));
	json_object_object_add(pts, "test", json_object_new_string("iops"));
	json_object_object_add(pts, "fast", json_object_new_boolean(fast));
	json_object_object_add(m, "pts", pts);
	/* the sprandom fill of phase 0, in 4 KiB units: the 4 KiB cell's rounds are checked */
	if (fill)
		json_object_object_add(
		    m, "sprandom",
		    json_tokener_parse(two ? "[{\"phase\": 0, \"inputs\": {\"bs\": 4096, \"forced\": "
					     "true, \"forced_past\": \"two states\"}}]"
					   : "[{\"phase\": 0, \"inputs\": {\"bs\": 4096}}]"));
	assert_int_equal(ss_track_add(m, 1, 0, cells[0], "iops", &p), 0);
	assert_int_equal(results_write_manifest(r, m, NULL), 0);
	json_object_put(m);
	for (unsigned round = 1; round <= 5; round++) {
		job_init(j, 100, 100 * 4096);
		rec = (struct results_record){.kind = "cell",
					      .phase = 1,
					      .phase_kind = "rounds",
					      .round = round,
					      .cell = cells[0]};
		append(r, &rec, j);
	}
	if (two) {
		/* the virtual SSD's model as a snapshot of the matrix phase records it: write
		 * cache off, no power-loss protection, a dynamic SLC cache */
		struct snapshot sn;

		snapshot_init(&sn, "sim");
		snprintf(sn.label, sizeof(sn.label), "phase-2-rounds-start");
		sn.raw = json_tokener_parse("{\"write_cache\": false, \"power_loss_protection\": "
					    "false, \"slc_cache_bytes\": 1048576, \"slc_dynamic\": "
					    "true}");
		assert_int_equal(results_write_snapshot(r, &sn, 2, 0), 0);
		snapshot_release(&sn);
	}
	for (unsigned round = 1; round <= 2; round++)
		for (int c = 0; c < 2; c++) {
			job_init(j, mat[round - 1][c], mat[round - 1][c] * (c ? 131072 : 4096));
			rec = (struct results_record){.kind = "cell",
						      .phase = 2,
						      .phase_kind = "rounds",
						      .round = round,
						      .cell = cells[c]};
			append(r, &rec, j);
		}
	results_close(r);
	assert_int_equal(analyze_dir(dir, &s, err, sizeof(err)), 0);
	tu_rmtree(tmp);
	free(tmp);
	free(dir);
	free(j);
	return s;
}

static void test_fast_matrix_window(void **state)
{
	struct json_object *s = fast_summary(true, 40, true, false);

	(void)state;
	/* cells: tracking phase 1 (its window), then phase 2's two cells over round 2 */
	str_is(s, "/cells/0/over", "steady_state_window");
	num_is(s, "/cells/0/first_round", 1);
	num_is(s, "/cells/1/phase", 2);
	str_is(s, "/cells/1/over", "fast_matrix_rounds");
	num_is(s, "/cells/1/first_round", 2);
	num_is(s, "/cells/1/last_round", 2);
	num_is(s, "/cells/1/records", 1);
	num_is(s, "/cells/1/write/iops", 60);
	str_is(s, "/cells/2/over", "fast_matrix_rounds");
	num_is(s, "/cells/2/write/iops", 30);
	/* every round still in the per-round table */
	assert_int_equal(json_object_array_length(at(s, "/cells/1/per_round")), 2);
	/* the SNIA block: the same rounds and figures */
	num_is(s, "/snia/0/phase", 2);
	str_is(s, "/snia/0/window/over", "fast_matrix_rounds");
	num_is(s, "/snia/0/window/first_round", 2);
	num_is(s, "/snia/0/window/last_round", 2);
	num_is(s, "/snia/0/header/fast/tracking_rounds", 5);
	num_is(s, "/snia/0/header/fast/matrix_rounds", 2);
	num_is(s, "/snia/0/tracked/iops", 60);
	/* not forced: nothing said of it */
	assert_null(json_object_object_get(at(s, "/snia/0/header/fast"), "forced_past"));
	str_is(s, "/snia/0/header/fast/text",
	       "fast run, not a PTS run: not recorded precondition, 5 tracking rounds of the "
	       "tracked cell (phase 1), 2 matrix rounds (phase 2), figures from matrix round 2");
	/* the rounds check (pass_snia_fast.c): the 128 KiB row (matrix 0, the spec's order) is
	 * larger than the fill's unit, not checked; the 4 KiB row's 40 and 60 IOPS: average 50,
	 * data excursion 20 / 50 = 0.4 > 0.2, slope 20 per round x 1 / 50 = 0.4 > 0.1 */
	assert_null(json_object_object_get(at(s, "/snia/0/matrix/0"), "fast_rounds"));
	str_is(s, "/snia/0/matrix/1/cell", "rwmix_read=0,bs=4k");
	num_is(s, "/snia/0/matrix/1/fast_rounds/values/0", 40);
	num_is(s, "/snia/0/matrix/1/fast_rounds/values/1", 60);
	num_is(s, "/snia/0/matrix/1/fast_rounds/data_excursion", 0.4);
	num_is(s, "/snia/0/matrix/1/fast_rounds/slope_excursion", 0.4);
	assert_false(json_object_get_boolean(at(s, "/snia/0/matrix/1/fast_rounds/steady")));
	num_is(s, "/snia/0/header/fast/rounds_check/unit_bytes", 4096);
	num_is(s, "/snia/0/header/fast/rounds_check/checked", 1);
	/* no snapshot records the model: whether it has two states is not known, not said */
	assert_null(json_object_object_get(at(s, "/snia/0/header/fast/rounds_check"), "two_states"));
	str_is(s, "/snia/0/header/fast/rounds_check/unsteady/0", "rwmix_read=0,bs=4k");
	str_is(s, "/snia/0/header/fast/rounds_check/text",
	       "1 of 1 cells of at most 4 KiB not steady over matrix rounds 1-2 by SNIA's rule "
	       "(rwmix_read=0,bs=4k IOPS 40 / 60): their figures are one round's, not a steady "
	       "state");
	json_object_put(s);

	/* 57 and 60: data excursion 3 / 58.5 = 0.051, slope excursion the same, both within */
	s = fast_summary(true, 57, true, true);
	assert_true(json_object_get_boolean(at(s, "/snia/0/matrix/1/fast_rounds/steady")));
	num_is(s, "/snia/0/matrix/1/fast_rounds/data_excursion", 3 / 58.5);
	assert_int_equal(json_object_array_length(at(s, "/snia/0/header/fast/rounds_check/unsteady")),
			 0);
	/* ... on a two-state drive (the snapshot above): said beside the verdict */
	assert_true(json_object_get_boolean(at(s, "/snia/0/header/fast/rounds_check/two_states")));
	str_is(s, "/snia/0/header/fast/rounds_check/text",
	       "the 1 cell of at most 4 KiB is steady over matrix rounds 1-2 by SNIA's rule; write "
	       "cache off on a dynamic SLC cache without power-loss protection: a cell can run in "
	       "two states, and both rounds may hold the same one");
	/* ... where the fill was forced past its refusal: the method's sentence says why */
	str_is(s, "/snia/0/header/fast/forced_past", "two states");
	str_is(s, "/snia/0/header/fast/text",
	       "fast run, not a PTS run: not recorded precondition, 5 tracking rounds of the "
	       "tracked cell (phase 1), 2 matrix rounds (phase 2), figures from matrix round 2; the "
	       "fill was forced past its refusal: two states");
	json_object_put(s);

	/* without a sprandom fill in the manifest there is no unit to check against */
	s = fast_summary(true, 40, false, false);
	assert_null(json_object_object_get(at(s, "/snia/0/matrix/1"), "fast_rounds"));
	num_is(s, "/snia/0/header/fast/rounds_check/checked", 0);
	str_is(s, "/snia/0/header/fast/rounds_check/text",
	       "not checked: no sprandom fill recorded before the tracking phase");
	json_object_put(s);

	s = fast_summary(false, 40, true, false);
	str_is(s, "/cells/1/over", "all_records");
	num_is(s, "/cells/1/first_round", 1);
	num_is(s, "/cells/1/write/iops", 50);
	num_is(s, "/cells/2/write/iops", 20);
	json_object_put(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_expected_summary, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reproducible, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_torn_and_corrupt, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_missing_manifest, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_headline, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_purge_flags, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_headline_pass, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_recovery_rule, setup, teardown),
	    cmocka_unit_test(test_ss_track),
	    cmocka_unit_test(test_fast_matrix_window),
	};

	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
