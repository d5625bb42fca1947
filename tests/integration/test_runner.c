/* SPDX-License-Identifier: MIT */
/*
 * test_runner: the runner's state machine (runner.h) on real targets: a regular file in a temp
 * dir (always) and the virtual SSD (when the build has it).
 *
 *   - a fresh run walks the steps in the documented order: the expected keys are written out
 *     below, phase numbers depth first through a repeat;
 *   - resume from EVERY prefix of the reference records (what a crash after k records leaves):
 *     the final key sequence equals the uninterrupted one, each key once, exactly one resume
 *     record, and the interrupted round is re-run (counts written out per prefix);
 *   - the stop flag, raised before the walk or at the start of a step, stops with -EINTR and
 *     keeps exactly the finished records;
 *   - records of another plan are refused; the manifest declares steady-state tracks;
 *   - step seeds are a function of (run seed, key) only.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "base/jsonnum.h"
#include "profile/profile.h"
#include "results/results.h"
#include "results/snapshot.h"
#include "run/runner.h"
#include "targets/target.h"
#include "testutil.h"

/* 1 precondition, 2 rounds x 2 cells (each after a pre-write), idle, repeat 2 x (trim, 1 round
 * of 1 cell). On the virtual SSD a re-run round that skipped its pre-write would not reproduce
 * its recorded cells, which test_resume_every_prefix checks. */
static const char profile_text[] =
	"name: runner-test\n"
	"description: state machine test\n"
	"destructive: true\n"
	"defaults: {seed: 3}\n"
	"phases:\n"
	"  - precondition: {rw: write, bs: 128k, amount: 1x, queue: {threads: 1, depth: 4}}\n"
	"  - rounds:\n"
	"      cells: {bs: [4k, 64k], order: [bs]}\n"
	"      rw: randwrite\n"
	"      cell_time: 20ms\n"
	"      queue: {threads: 1, depth: 4}\n"
	"      pre_write: {rw: randwrite, bs: 4k, amount: 256k}\n"
	"      count: 2\n"
	"  - idle: {time: 10ms}\n"
	"  - repeat:\n"
	"      count: 2\n"
	"      phases:\n"
	"        - trim: {range: 0-50%}\n"
	"        - rounds: {rw: randread, bs: 4k, cell_time: 20ms, count: 1}\n";

/* The walk, written out: phase numbers are depth first (the repeat is 3, its body 4 and 5). */
static const char *const expected_keys[] = {
	/* The precondition in chunks of a quarter of the capacity (runner_opts.chunk_bytes). */
	"phase=0,repeat=0,round=1,cell=,kind=precondition",
	"phase=0,repeat=0,round=2,cell=,kind=precondition",
	"phase=0,repeat=0,round=3,cell=,kind=precondition",
	"phase=0,repeat=0,round=4,cell=,kind=precondition",
	"phase=1,repeat=0,round=1,cell=bs=4k,kind=cell",
	"phase=1,repeat=0,round=1,cell=bs=64k,kind=cell",
	"phase=1,repeat=0,round=2,cell=bs=4k,kind=cell",
	"phase=1,repeat=0,round=2,cell=bs=64k,kind=cell",
	"phase=2,repeat=0,round=0,cell=,kind=idle",
	"phase=4,repeat=0,round=0,cell=,kind=trim",
	"phase=5,repeat=0,round=1,cell=all,kind=cell",
	"phase=4,repeat=1,round=0,cell=,kind=trim",
	"phase=5,repeat=1,round=1,cell=all,kind=cell",
};
#define NKEYS (sizeof(expected_keys) / sizeof(expected_keys[0]))

#define NCHUNKS 4

/* Cells re-run (executed, not recorded again) when resuming after k records: only a round cut
 * in the middle has some (k = 5: round 1 had its first cell; k = 7: round 2 had its first). A
 * precondition cut after a chunk goes on with the next chunk: nothing re-run. */
static const size_t expected_rerun[NKEYS + 1] = {0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0};

struct fixture {
	char *tmp;
	char target[4096];
	bool virt;
	struct profile *p;
	struct target *t;
	char ref[4096]; /* the uninterrupted run */
};

/* The run options of every test: seed 3, the precondition in NCHUNKS chunks. */
static struct runner_opts opts_for(const struct fixture *f)
{
	struct runner_opts o = {.seed = 3};

	if (f && f->t)
		o.chunk_bytes = target_info(f->t)->capacity / NCHUNKS;
	/* The virtual SSD shrinks durations by its time scale (about 1/112): 20 ms cells would be
	 * shorter than the drain of their queue, which the runner refuses (a 4 KiB read at QD 1
	 * takes 250 us there, 4 x 64 KiB random writes 4.5 ms). x60 keeps every cell above it. */
	if (f && f->t && (target_caps(f->t) & TARGET_CAP_VIRTUAL_TIME))
		o.time_scale = 60;
	return o;
}

static int open_target(struct fixture *f)
{
	struct target_open_opts to = {.writable = true, .seed = 3};
	char err[512];

	int rc = target_open(f->target, &to, &f->t, err, sizeof(err));

	/* Said here, since a failed open fails the group or the test that reopens. */
	if (rc)
		print_message("cannot open the target %s: %s\n", f->target, err);
	return rc;
}

static void reopen_target(struct fixture *f)
{
	target_close(f->t);
	f->t = NULL;
	assert_int_equal(open_target(f), 0);
}

/* A new results dir with the manifest, optionally the first k lines of the reference records. */
static struct results *new_dir(struct fixture *f, const char *name, long k,
			       const struct runner_opts *o)
{
	struct json_object *m;
	struct results *res = NULL;
	char dir[4200];

	snprintf(dir, sizeof(dir), "%s/%s", f->tmp, name);
	assert_int_equal(results_create(dir, &res), 0);
	m = runner_manifest_new(f->p, f->target, f->t, o);
	assert_non_null(m);
	assert_int_equal(results_write_manifest(res, m, NULL), 0);
	json_object_put(m);
	if (k >= 0) {
		char src[4200], dst[4300], line[65536];
		FILE *in, *out;

		results_close(res);
		snprintf(src, sizeof(src), "%s/records.jsonl", f->ref);
		snprintf(dst, sizeof(dst), "%s/records.jsonl", dir);
		in = fopen(src, "r");
		out = fopen(dst, "w");
		assert_non_null(in);
		assert_non_null(out);
		for (long i = 0; i < k && fgets(line, sizeof(line), in); i++)
			fputs(line, out);
		fclose(in);
		fclose(out);
		return NULL; /* the caller reopens it with results_open */
	}
	return res;
}

/* The keys of dir's records (resume records apart), in file order; returns how many. */
static size_t read_keys(const char *dir, char keys[][256], size_t max, size_t *nresume)
{
	struct results_records rr = {0};
	size_t n = 0;

	assert_int_equal(results_read_records(dir, &rr), 0);
	assert_false(rr.torn_last);
	*nresume = 0;
	for (size_t i = 0; i < rr.n; i++) {
		struct json_object *k;

		assert_true(json_object_object_get_ex(rr.rec[i], "kind", &k));
		if (!strcmp(json_object_get_string(k), "resume")) {
			(*nresume)++;
			continue;
		}
		assert_true(n < max);
		assert_int_equal(results_record_key(rr.rec[i], keys[n], 256), 0);
		n++;
	}
	results_records_release(&rr);
	return n;
}

static void assert_expected_keys(const char *dir)
{
	char keys[64][256];
	size_t nres, n = read_keys(dir, keys, 64, &nres);

	assert_int_equal(n, NKEYS);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(keys[i], expected_keys[i]);
}

/* Of the data lines of chunk `round` in a phase's series CSV (round: the last column): the first
 * line's t_ns and the last line's total_bytes_written (column 16: after t_ns, interval_ns and 7
 * read and 7 write columns); -1 when it has none. Rounds must come in order, none twice. */
static int series_round(const char *path, unsigned round, uint64_t *first_t, uint64_t *last_val)
{
	char line[4096];
	FILE *fp = fopen(path, "r");
	unsigned prev = 0;
	int rows = 0;

	if (!fp)
		return -1;
	if (!fgets(line, sizeof(line), fp)) {
		fclose(fp);
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		char *c = line, *last = strrchr(line, ',');
		unsigned r;

		assert_non_null(last);
		r = (unsigned)strtoul(last + 1, NULL, 10);
		assert_true(r >= prev); /* in round order: a chunk's rows are not added twice */
		prev = r;
		if (r != round)
			continue;
		if (!rows++)
			*first_t = strtoull(line, NULL, 10);
		/* total_bytes_written is the field before the round (docs/results-format.md) */
		*last = 0;
		c = strrchr(line, ',');
		assert_non_null(c);
		*last_val = strtoull(c + 1, NULL, 10);
	}
	fclose(fp);
	return rows ? 0 : -1;
}

/*
 * The precondition's chunks in dir: NCHUNKS records of a quarter of the capacity each (together
 * the amount, 1x: none duplicated or missing), each going on where the last ended (seq_next), and
 * (with series) one continuous series: chunk k's rows start after the chunks before it and end at
 * the bytes written so far.
 */
static void assert_chunks(const struct fixture *f, const char *dir, bool series)
{
	uint64_t cap = target_info(f->t)->capacity, sum = 0, elapsed = 0;
	struct results_records rr = {0};
	unsigned n = 0;

	assert_int_equal(results_read_records(dir, &rr), 0);
	for (size_t i = 0; i < rr.n; i++) {
		uint64_t b = 0, e = 0, next = 0, t0 = 0, last = 0;
		struct json_object *k;
		char path[4400];

		assert_true(json_object_object_get_ex(rr.rec[i], "kind", &k));
		if (strcmp(json_object_get_string(k), "precondition"))
			continue;
		n++;
		assert_int_equal(jsonnum_get_u64(rr.rec[i], "bytes_written_total", &b), 0);
		assert_int_equal(jsonnum_get_u64(rr.rec[i], "elapsed_ns", &e), 0);
		assert_int_equal(jsonnum_get_u64(rr.rec[i], "seq_next", &next), 0);
		assert_int_equal(b, cap / NCHUNKS);
		sum += b;
		assert_int_equal(next % cap, sum % cap);
		snprintf(path, sizeof(path), "%s/series/phase-00-rep-00-precondition.csv", dir);
		if (series && !series_round(path, n, &t0, &last)) {
			assert_true(t0 > elapsed);
			assert_true(t0 <= elapsed + e);
			assert_int_equal(last, sum);
		}
		elapsed += e;
	}
	assert_int_equal(n, NCHUNKS);
	assert_int_equal(sum, cap);
	results_records_release(&rr);
}

static int setup_common(void **state, bool sim)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct ydoc_error yerr;
	struct runner_opts o = opts_for(f);
	struct results *res;
	struct runner *r = NULL;
	char err[512] = "";
	FILE *fp;

	assert_non_null(f);
	f->tmp = tu_mkdtemp("runner");
	assert_non_null(f->tmp);
	if (sim) {
		snprintf(f->target, sizeof(f->target), "sim:client-tlc");
	} else {
		snprintf(f->target, sizeof(f->target), "%s/t.img", f->tmp);
		fp = fopen(f->target, "w");
		assert_non_null(fp);
		assert_int_equal(ftruncate(fileno(fp), 4 << 20), 0);
		fclose(fp);
	}
	/* Both targets are always built: the virtual SSD failing to open is a broken model or FTL,
	 * and it fails the group (with the reason open_target printed) rather than skipping. */
	if (open_target(f)) {
		tu_rmtree(f->tmp);
		free(f->tmp);
		free(f);
		return -1;
	}
	f->virt = target_caps(f->t) & TARGET_CAP_VIRTUAL_TIME;
	o = opts_for(f);
	memset(&yerr, 0, sizeof(yerr));
	assert_int_equal(profile_parse_string(profile_text, strlen(profile_text), "runner-test",
					      NULL, 0, &f->p, &yerr),
			 0);
	res = new_dir(f, "ref", -1, &o);
	assert_int_equal(runner_new(f->p, f->t, res, &o, NULL, false, &r, err, sizeof(err)), 0);
	assert_int_equal(runner_execute(r, err, sizeof(err)), 0);
	assert_int_equal(runner_get_state(r), RUNNER_DONE);
	runner_free(r);
	results_close(res);
	snprintf(f->ref, sizeof(f->ref), "%s/ref", f->tmp);
	*state = f;
	return 0;
}

static int setup_file(void **state)
{
	return setup_common(state, false);
}

static int setup_sim(void **state)
{
	return setup_common(state, true);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	if (!f)
		return 0;
	target_close(f->t);
	profile_free(f->p);
	tu_rmtree(f->tmp);
	free(f->tmp);
	free(f);
	return 0;
}

static void test_step_seed(void **state)
{
	(void)state;
	assert_int_equal(runner_step_seed(1, "phase=1"), runner_step_seed(1, "phase=1"));
	assert_int_not_equal(runner_step_seed(1, "phase=1"), runner_step_seed(1, "phase=2"));
	assert_int_not_equal(runner_step_seed(1, "phase=1"), runner_step_seed(2, "phase=1"));
	assert_int_not_equal(runner_step_seed(0, ""), 0);
}

static void test_host_limited(void **state)
{
	/* CPU seconds, elapsed s, threads, virtual, ncpu -> flagged (the 80% rule, by hand). */
	static const struct {
		double cpu;
		double elapsed;
		unsigned threads;
		bool virt;
		long ncpu;
		bool want;
	} cases[] = {
		{0.95, 1.0, 1, false, 2, true},	 /* saturated submitter */
		{0.80, 1.0, 1, false, 2, true},	 /* exactly at 80% */
		{0.79, 1.0, 1, false, 2, false}, /* the device was the limit */
		{1.50, 1.0, 2, false, 2, false}, /* 75% of two threads */
		{1.70, 1.0, 4, false, 2, true},	 /* 4 threads on 2 CPUs: capped at 2 */
		{1.70, 1.0, 4, false, 0, false}, /* ncpu unknown: 4 x 80% */
		{5.00, 1.0, 1, true, 2, false},	 /* virtual time: never */
		{0.10, 0.0, 1, false, 2, false}, /* no time elapsed: nothing to judge */
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct job_result res;

		memset(&res, 0, sizeof(res));
		res.cpu_user_s = cases[i].cpu / 4;
		res.cpu_sys_s = cases[i].cpu * 3 / 4;
		/* The CPU time covers the measured part only (engine.h): the ramp is not in it. */
		res.elapsed_ns = (uint64_t)(cases[i].elapsed * 1e9);
		res.ramp_elapsed_ns = (uint64_t)(cases[i].elapsed * 0.5e9);
		assert_int_equal(runner_host_limited(&res, cases[i].threads, cases[i].virt,
						     cases[i].ncpu),
				 cases[i].want);
	}
}

static void test_fresh_run(void **state)
{
	struct fixture *f = *state;

	assert_expected_keys(f->ref);
	assert_chunks(f, f->ref, true);
}

static int resume_diverged(const char *dir);

/* A crash after k records, for every k: resume completes the same walk. */
static void test_resume_every_prefix(void **state)
{
	struct fixture *f = *state;

	for (long k = 0; k <= (long)NKEYS; k++) {
		struct results_records rr = {0};
		struct runner_opts o = opts_for(f);
		struct results *res = NULL;
		struct runner *r = NULL;
		char name[32], dir[4200], err[512] = "";
		char keys[64][256];
		size_t recorded, replayed, rerun, nres;

		/* A resume starts with a freshly opened target, as `ssdlab resume` does: a virtual
		 * SSD then has to be rebuilt by the replay. */
		reopen_target(f);
		snprintf(name, sizeof(name), "prefix-%ld", k);
		snprintf(dir, sizeof(dir), "%s/%s", f->tmp, name);
		new_dir(f, name, k, &o);
		assert_int_equal(results_open(dir, &res, &rr), 0);
		assert_int_equal(rr.n, (size_t)k);
		assert_int_equal(runner_new(f->p, f->t, res, &o, &rr, true, &r, err, sizeof(err)), 0);
		assert_int_equal(runner_execute(r, err, sizeof(err)), 0);
		assert_int_equal(runner_get_state(r), RUNNER_DONE);
		runner_counts(r, &recorded, &replayed, &rerun);
		assert_int_equal(recorded, NKEYS - (size_t)k);
		assert_int_equal(rerun, expected_rerun[k]);
		assert_int_equal(replayed, (size_t)k - expected_rerun[k]);
		runner_free(r);
		results_records_release(&rr);
		results_close(res);

		assert_int_equal(read_keys(dir, keys, 64, &nres), NKEYS);
		assert_int_equal(nres, k < (long)NKEYS ? 1 : 0);
		assert_expected_keys(dir);
		assert_chunks(f, dir, false);
		if (f->virt && k < (long)NKEYS)
			assert_int_equal(resume_diverged(dir), 0); /* the replay was exact */
	}
}

/* replay_diverged as last said in dir (the resume record, then the first measurement after
 * it): 0, 1, or -1 when absent. */
static int resume_diverged(const char *dir)
{
	struct results_records rr = {0};
	int v = -1;

	assert_int_equal(results_read_records(dir, &rr), 0);
	for (size_t i = 0; i < rr.n; i++) {
		struct json_object *x;

		if (json_object_object_get_ex(rr.rec[i], "replay_diverged", &x))
			v = json_object_get_boolean(x);
	}
	results_records_release(&rr);
	return v;
}

/* A record the virtual SSD does not reproduce (a changed model) is noticed and flagged. */
static void test_replay_divergence(void **state)
{
	struct fixture *f = *state;
	struct results_records rr = {0};
	struct runner_opts o = opts_for(f);
	struct results *res = NULL;
	struct runner *r = NULL;
	char dir[4200], path[4300], err[512] = "";
	char *text = NULL, *at;
	size_t len = 0;
	FILE *fp;

	snprintf(dir, sizeof(dir), "%s/diverged", f->tmp);
	new_dir(f, "diverged", 3, &o);
	snprintf(path, sizeof(path), "%s/records.jsonl", dir);
	fp = fopen(path, "r+");
	assert_non_null(fp);
	assert_int_equal(getdelim(&text, &len, '\0', fp) > 0, 1);
	/* The precondition's end in target time, first in the file: make it 1 ns later. */
	at = strstr(text, "\"end_ns\":");
	assert_non_null(at);
	at += strlen("\"end_ns\":");
	{
		unsigned long long v = strtoull(at, NULL, 10);
		char num[32], *end;
		size_t old;

		strtoull(at, &end, 10);
		old = (size_t)(end - at);
		snprintf(num, sizeof(num), "%llu", v + 1);
		if (strlen(num) == old)
			memcpy(at, num, old);
		else
			memcpy(at, "1", 1); /* a different value of the same length */
	}
	rewind(fp);
	fputs(text, fp);
	fclose(fp);
	free(text);

	reopen_target(f);
	assert_int_equal(results_open(dir, &res, &rr), 0);
	assert_int_equal(runner_new(f->p, f->t, res, &o, &rr, true, &r, err, sizeof(err)), 0);
	assert_int_equal(runner_execute(r, err, sizeof(err)), 0);
	runner_free(r);
	results_records_release(&rr);
	results_close(res);
	assert_int_equal(resume_diverged(dir), 1);
}

struct stop_at {
	volatile sig_atomic_t flag;
	int steps_seen, stop_at_step;
	int last_phase;
	unsigned last_round;
	const char *last_cell;
};

/* Raises the flag when the N-th step starts (a progress call with a new step). */
static void stop_progress(const struct runner_progress *p, void *arg)
{
	struct stop_at *s = arg;

	/* A pre-write is conditioning, not a step (no record). */
	if (p->cell && !strcmp(p->cell, "pre_write"))
		return;
	if (p->phase != s->last_phase || p->round != s->last_round || p->cell != s->last_cell) {
		s->last_phase = p->phase;
		s->last_round = p->round;
		s->last_cell = p->cell;
		if (++s->steps_seen == s->stop_at_step)
			s->flag = 1;
	}
}

static void test_stop_flag(void **state)
{
	struct fixture *f = *state;
	/* Stop before anything (0), at the 3rd chunk of the precondition, at the first 64k cell
	 * (6th step), at the idle (9th). */
	static const int stops[] = {0, 3, 6, 9};

	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		struct stop_at s = {.stop_at_step = stops[i], .last_phase = -1};
		struct runner_opts o = opts_for(f);
		struct results *res;
		struct runner *r = NULL;
		char name[32], dir[4200], err[512] = "";
		struct results_records rr = {0};

		o.stop = &s.flag;
		if (!stops[i])
			s.flag = 1;
		else
			o.progress = stop_progress, o.arg = &s;
		snprintf(name, sizeof(name), "stop-%d", stops[i]);
		snprintf(dir, sizeof(dir), "%s/%s", f->tmp, name);
		res = new_dir(f, name, -1, &o);
		assert_int_equal(runner_new(f->p, f->t, res, &o, NULL, false, &r, err, sizeof(err)),
				 0);
		assert_int_equal(runner_execute(r, err, sizeof(err)), -EINTR);
		assert_int_equal(runner_get_state(r), RUNNER_STOPPED);
		runner_free(r);
		results_close(res);
		assert_int_equal(results_read_records(dir, &rr), 0);
		/* Exactly the steps before the one that saw the flag. */
		assert_int_equal(rr.n, stops[i] ? (size_t)stops[i] - 1 : 0);
		results_records_release(&rr);
	}
}

static void test_foreign_records(void **state)
{
	struct fixture *f = *state;
	struct results_records rr = {0};
	struct runner_opts o = opts_for(f);
	struct results *res = NULL;
	struct runner *r = NULL;
	char dir[4200], path[4300], err[512] = "";

	snprintf(dir, sizeof(dir), "%s/foreign", f->tmp);
	new_dir(f, "foreign", 0, &o);
	snprintf(path, sizeof(path), "%s/records.jsonl", dir);
	assert_int_equal(tu_write_file(path, "{\"schema\":1,\"kind\":\"cell\",\"phase\":9,"
					     "\"phase_kind\":\"rounds\",\"repeat\":0,\"round\":1,"
					     "\"cell\":\"bs=1m\"}\n"),
			 0);
	assert_int_equal(results_open(dir, &res, &rr), 0);
	assert_int_equal(runner_new(f->p, f->t, res, &o, &rr, true, &r, err, sizeof(err)), 0);
	assert_int_equal(runner_execute(r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "does not fit the plan"));
	assert_int_equal(runner_get_state(r), RUNNER_FAILED);
	runner_free(r);
	results_records_release(&rr);
	results_close(res);
}

static void test_manifest_tracks(void **state)
{
	static const char text[] = "name: ss\n"
				   "destructive: true\n"
				   "phases:\n"
				   "  - repeat:\n"
				   "      count: 2\n"
				   "      phases:\n"
				   "        - idle: {time: 1s}\n"
				   "        - rounds: {rw: randwrite, bs: 4k, cell_time: 1s,\n"
				   "                   steady_state: {track: {metric: iops}}}\n";
	struct fixture *f = *state;
	struct profile *p = NULL;
	struct ydoc_error yerr;
	struct json_object *m, *ss, *x;
	struct runner_opts o = {.seed = 5, .time_scale = 0.5};
	double v;

	memset(&yerr, 0, sizeof(yerr));
	assert_int_equal(profile_parse_string(text, strlen(text), "ss", NULL, 0, &p, &yerr), 0);
	m = runner_manifest_new(p, f->target, f->t, &o);
	assert_non_null(m);
	assert_true(json_object_object_get_ex(m, "steady_state", &ss));
	assert_int_equal(json_object_array_length(ss), 2); /* one per repeat iteration */
	for (size_t i = 0; i < 2; i++) {
		x = json_object_array_get_idx(ss, i);
		assert_int_equal(json_object_get_int(json_object_object_get(x, "phase")), 2);
		assert_int_equal(json_object_get_int(json_object_object_get(x, "repeat")), (int)i);
	}
	assert_true(json_object_object_get_ex(m, "time_scale", &x));
	assert_int_equal(jsonnum_get(x, "user", &v), 0);
	assert_true(v == 0.5);
	assert_int_equal(jsonnum_get(x, "effective", &v), 0);
	assert_true(v == 0.5 * target_info(f->t)->time_scale);
	json_object_put(m);
	profile_free(p);
}

/*
 * A time amount is cut into chunks of target time (opts.chunk_ns, scaled): 2 s of random
 * writes in chunks of 0.5 s are 4 records, rounds 1-4, whose target time adds up to the
 * amount (scaled); a resume after 2 of them records the last 2 only, and the virtual SSD's
 * replay of the first 2 is exact.
 */
static void test_time_chunks(void **state)
{
	static const char text[] = "name: tchunks\n"
				   "destructive: true\n"
				   "phases:\n"
				   "  - precondition: {rw: randwrite, bs: 4k, amount: 2s}\n";
	struct fixture *f = *state;
	struct profile *p = NULL;
	struct ydoc_error yerr;
	struct runner_opts o;
	double scale;

	o = opts_for(f);
	o.chunk_ns = 500000000ull;
	memset(&yerr, 0, sizeof(yerr));
	assert_int_equal(profile_parse_string(text, strlen(text), "tchunks", NULL, 0, &p, &yerr),
			 0);
	scale = runner_time_scale(f->t, &o);
	for (int pass = 0; pass < 2; pass++) {
		struct results_records rr = {0};
		struct results *res = NULL;
		struct runner *r = NULL;
		struct json_object *m;
		char dir[4200], err[512] = "";
		uint64_t total = 0;
		size_t recorded = 0;

		reopen_target(f);
		snprintf(dir, sizeof(dir), "%s/tchunks-%d", f->tmp, pass);
		assert_int_equal(results_create(dir, &res), 0);
		m = runner_manifest_new(p, f->target, f->t, &o);
		assert_non_null(m);
		assert_int_equal(results_write_manifest(res, m, NULL), 0);
		json_object_put(m);
		if (pass == 1) {
			/* The first 2 chunks of pass 0, as a crash after them leaves them. */
			char src[4300], line[65536];
			FILE *in, *out;

			results_close(res);
			snprintf(src, sizeof(src), "%s/tchunks-0/records.jsonl", f->tmp);
			in = fopen(src, "r");
			snprintf(src, sizeof(src), "%s/records.jsonl", dir);
			out = fopen(src, "w");
			assert_non_null(in);
			assert_non_null(out);
			for (int i = 0; i < 2 && fgets(line, sizeof(line), in); i++)
				fputs(line, out);
			fclose(in);
			fclose(out);
			assert_int_equal(results_open(dir, &res, &rr), 0);
		}
		assert_int_equal(runner_new(p, f->t, res, &o, &rr, pass == 1, &r, err,
					    sizeof(err)),
				 0);
		assert_int_equal(runner_execute(r, err, sizeof(err)), 0);
		runner_counts(r, &recorded, NULL, NULL);
		assert_int_equal(recorded, pass ? 2 : 4);
		runner_free(r);
		results_close(res);
		results_records_release(&rr);
		assert_int_equal(results_read_records(dir, &rr), 0);
		for (size_t i = 0, round = 1; i < rr.n; i++) {
			struct json_object *k;
			uint64_t e = 0, ramp = 0;

			assert_true(json_object_object_get_ex(rr.rec[i], "kind", &k));
			if (!strcmp(json_object_get_string(k), "resume"))
				continue;
			assert_int_equal(json_object_get_int(json_object_object_get(rr.rec[i],
										      "round")),
					 (int)round++);
			assert_int_equal(jsonnum_get_u64(rr.rec[i], "elapsed_ns", &e), 0);
			(void)jsonnum_get_u64(rr.rec[i], "ramp_ns", &ramp);
			total += e + ramp;
		}
		/* The engine stops a chunk at its first completion past its time: within a few
		 * I/Os (of well under a millisecond each) of the amount. */
		if (fabs((double)total - 2e9 * scale) > 1e6)
			fail_msg("the chunks took %" PRIu64 " ns, the amount is %.0f", total,
				 2e9 * scale);
		assert_int_equal(rr.n, pass ? 5 : 4); /* + the resume record */
		if (pass)
			assert_int_equal(resume_diverged(dir), 0);
		results_records_release(&rr);
	}
	profile_free(p);
}

/*
 * A run of an older version recorded its precondition as one step (round 0): a resume finds
 * that record in K, replays it as one step and goes on with the rounds; nothing is recorded
 * twice and the chunks are not added.
 */
static void test_old_single_precondition(void **state)
{
	struct fixture *f = *state;
	struct results_records rr = {0};
	struct runner_opts o = opts_for(f);
	struct results *res = NULL;
	struct runner *r = NULL;
	struct json_object *rec;
	char dir[4200], path[4300], err[512] = "", keys[64][256];
	size_t recorded, nres;
	uint64_t cap;

	cap = target_info(f->t)->capacity;
	snprintf(dir, sizeof(dir), "%s/old", f->tmp);
	new_dir(f, "old", 1, &o); /* the first chunk of the reference ... */
	assert_int_equal(results_read_records(dir, &rr), 0);
	assert_int_equal(rr.n, 1);
	rec = json_object_get(rr.rec[0]);
	results_records_release(&rr);
	/* ... made into the whole phase as one step, round 0, as an older version wrote it */
	json_object_object_add(rec, "round", json_object_new_int(0));
	json_object_object_add(rec, "bytes_written_total", json_object_new_uint64(cap));
	json_object_object_add(rec, "seq_next", json_object_new_uint64(0));
	snprintf(path, sizeof(path), "%s/records.jsonl", dir);
	assert_int_equal(remove(path), 0);
	reopen_target(f);
	assert_int_equal(results_open(dir, &res, &rr), 0);
	assert_int_equal(results_append_record(res, rec), 0);
	json_object_put(rec);
	results_records_release(&rr);
	results_close(res);
	assert_int_equal(results_open(dir, &res, &rr), 0);
	assert_int_equal(rr.n, 1);
	assert_int_equal(runner_new(f->p, f->t, res, &o, &rr, true, &r, err, sizeof(err)), 0);
	assert_int_equal(runner_execute(r, err, sizeof(err)), 0);
	runner_counts(r, &recorded, NULL, NULL);
	assert_int_equal(recorded, NKEYS - NCHUNKS);
	runner_free(r);
	results_records_release(&rr);
	results_close(res);
	assert_int_equal(read_keys(dir, keys, 64, &nres), NKEYS - NCHUNKS + 1);
	assert_string_equal(keys[0], "phase=0,repeat=0,round=0,cell=,kind=precondition");
	for (size_t i = 1; i < NKEYS - NCHUNKS + 1; i++)
		assert_string_equal(keys[i], expected_keys[NCHUNKS + i - 1]);
}

/* Runs a profile text on the fixture's target (reopened: a fresh virtual SSD) into a new
 * results directory NAME, to the end. */
static void run_text(struct fixture *f, const char *text, const char *name,
		     const struct runner_opts *o)
{
	struct profile *p = NULL;
	struct ydoc_error yerr;
	struct results *res = NULL;
	struct runner *r = NULL;
	struct json_object *m;
	char dir[4200], err[512] = "";

	memset(&yerr, 0, sizeof(yerr));
	assert_int_equal(profile_parse_string(text, strlen(text), name, NULL, 0, &p, &yerr), 0);
	reopen_target(f);
	snprintf(dir, sizeof(dir), "%s/%s", f->tmp, name);
	assert_int_equal(results_create(dir, &res), 0);
	m = runner_manifest_new(p, f->target, f->t, o);
	assert_non_null(m);
	assert_int_equal(results_write_manifest(res, m, NULL), 0);
	json_object_put(m);
	assert_int_equal(runner_new(p, f->t, res, o, NULL, false, &r, err, sizeof(err)), 0);
	if (runner_execute(r, err, sizeof(err)))
		fail_msg("%s: %s", name, err);
	runner_free(r);
	results_close(res);
	profile_free(p);
}

/* run_text on the virtual SSD fixture with a progress callback; returns the options used. */
static struct runner_opts run_watched(struct fixture *f, const char *text, const char *name,
				      runner_progress_fn fn, void *arg)
{
	struct runner_opts o;

	o = opts_for(f);
	o.progress = fn;
	o.arg = arg;
	run_text(f, text, name, &o);
	return o;
}

/* Progress calls seen by test_eta_run: the first call of each step. */
struct eta_seen {
	struct runner_progress p[64];
	char cell[64][64]; /* copies: the runner's cell keys live only as long as their phase */
	size_t n;
	int last_phase;
	unsigned last_round;
};

static void eta_progress(const struct runner_progress *p, void *arg)
{
	struct eta_seen *s = arg;

	if (s->n && p->phase == s->last_phase && p->round == s->last_round &&
	    !strcmp(s->cell[s->n - 1], p->cell ? p->cell : ""))
		return;
	s->last_phase = p->phase;
	s->last_round = p->round;
	if (s->n < sizeof(s->p) / sizeof(s->p[0])) {
		snprintf(s->cell[s->n], sizeof(s->cell[0]), "%s", p->cell ? p->cell : "");
		s->p[s->n++] = *p;
	}
}

/* The first progress call of (phase, round, cell) in seen, or fails. */
static const struct runner_progress *eta_at(const struct eta_seen *s, int phase, unsigned round,
					    const char *cell)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->p[i].phase == phase && s->p[i].round == round &&
		    !strcmp(s->cell[i], cell))
			return &s->p[i];
	fail_msg("no progress call for phase %d round %u cell '%s'", phase, round, cell);
	return NULL;
}

/* The drain_ns of dir's record of (phase, round 1, cell), which must be there and above 0. */
static uint64_t round1_drain(const char *dir, int phase, const char *cell)
{
	struct results_records rr = {0};
	uint64_t d = 0;
	bool found = false;

	assert_int_equal(results_read_records(dir, &rr), 0);
	for (size_t i = 0; i < rr.n && !found; i++) {
		struct json_object *x;
		uint64_t ph, round;

		if (jsonnum_get_u64(rr.rec[i], "phase", &ph) ||
		    jsonnum_get_u64(rr.rec[i], "round", &round) || ph != (uint64_t)phase ||
		    round != 1 || !json_object_object_get_ex(rr.rec[i], "cell", &x) ||
		    strcmp(json_object_get_string(x), cell))
			continue;
		found = !jsonnum_get_u64(rr.rec[i], "drain_ns", &d);
	}
	results_records_release(&rr);
	if (!found || !d)
		fail_msg("phase %d round 1 cell %s: no drain_ns above 0 recorded", phase, cell);
	return d;
}

/*
 * The whole-run ETA on the virtual SSD (virtual time: exact), with time-bound phases only, in
 * profile seconds (times the run's scale): idle 1 s; 3 rounds of 2 cells of 1 s; idle 2 s;
 * rounds of 1 cell of 1 s to steady state (window 5, max_rounds 10). Each cell also drains
 * its queue (qd 1): until its phase's round 1 is recorded, at the speed plan assumes without a
 * probe (a4 = 4096 B / 100 MB/s = 40.96 us, a8 = 81.92 us; not scaled, as plan's), then as
 * round 1's records measured it (d4, d8 for phase 1's cells, d for phase 3's):
 *   at the first idle:                       1 + 6 + 2 + 5..10        = 14..19 s
 *                                            + 3 x (a4 + a8) + 5..10 x a4
 *   at round 2's first cell of phase 1:      1 + 1 + 2 x 1 + 2 + 5..10 = 11..16 s
 *                                            + 2 x (d4 + d8) (rounds 2 and 3) + 5..10 x a4
 *   at the first steady-state round:         (1 + a4) x 5..10 (its own drain assumed too)
 *   at its round 2:                          (1 + d) x (1 + (5 - 2)..(10 - 2)) = (1 + d) x 4..9
 */
static void test_eta_run(void **state)
{
	static const char text[] = "name: eta\n"
				   "destructive: true\n"
				   "phases:\n"
				   "  - idle: {time: 1s}\n"
				   "  - rounds: {cells: {bs: [4k, 8k]}, rw: randwrite, cell_time: 1s, "
				   "count: 3}\n"
				   "  - idle: {time: 2s}\n"
				   "  - rounds: {rw: randwrite, bs: 4k, cell_time: 1s,\n"
				   "             steady_state: {track: {metric: iops}, window: 5, "
				   "max_rounds: 10}}\n";
	static const struct {
		int phase;
		unsigned round;
		const char *cell;
		double lo_s, hi_s;
		int drains; /* which drain terms of the comment's lines are added */
	} want[] = {
		{0, 0, "", 14, 19, 0},
		{1, 2, "bs=4k", 11, 16, 1},
		{3, 1, "all", 5, 10, 2},
		{3, 2, "all", 4, 9, 3},
	};
	const double a4 = 40960, a8 = 81920;
	struct fixture *f = *state;
	struct eta_seen seen = {.last_phase = -1};
	struct runner_opts o;
	double scale, d4, d8, d;
	char dir[4200];

	o = run_watched(f, text, "eta", eta_progress, &seen);
	scale = runner_time_scale(f->t, &o);
	snprintf(dir, sizeof(dir), "%s/eta", f->tmp);
	d4 = (double)round1_drain(dir, 1, "bs=4k");
	d8 = (double)round1_drain(dir, 1, "bs=8k");
	d = (double)round1_drain(dir, 3, "all");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct runner_progress *pp = eta_at(&seen, want[i].phase, want[i].round,
							  want[i].cell);
		double lo = want[i].lo_s * 1e9 * scale, hi = want[i].hi_s * 1e9 * scale;

		switch (want[i].drains) {
		case 0:
			lo += 3 * (a4 + a8) + 5 * a4;
			hi += 3 * (a4 + a8) + 10 * a4;
			break;
		case 1:
			lo += 2 * (d4 + d8) + 5 * a4;
			hi += 2 * (d4 + d8) + 10 * a4;
			break;
		case 2:
			lo += want[i].lo_s * a4;
			hi += want[i].hi_s * a4;
			break;
		default:
			lo += want[i].lo_s * d;
			hi += want[i].hi_s * d;
		}

		/* Each duration is scaled on its own: a few ns of rounding per term. */
		assert_true(pp->eta_run_known);
		if (fabs((double)pp->eta_run_lo_ns - lo) > 100 ||
		    fabs((double)pp->eta_run_hi_ns - hi) > 100)
			fail_msg("phase %d round %u: run ETA %" PRIu64 "..%" PRIu64 " ns, expected "
				 "%.0f..%.0f",
				 want[i].phase, want[i].round, pp->eta_run_lo_ns, pp->eta_run_hi_ns,
				 lo, hi);
	}
}

/* What the progress line's "written" saw during the read cell of test_progress_written. */
struct written_seen {
	uint64_t min, max;
	size_t calls;
};

static void written_progress(const struct runner_progress *p, void *arg)
{
	struct written_seen *s = arg;

	if (p->phase != 1 || p->iops <= 0)
		return;
	if (!s->calls || p->bytes_written < s->min)
		s->min = p->bytes_written;
	if (p->bytes_written > s->max)
		s->max = p->bytes_written;
	s->calls++;
}

/* The progress line's "written" counts writes only (issue 9, point 4): during a read cell it
 * stays at the 8 MiB the precondition wrote. */
static void test_progress_written(void **state)
{
	static const char text[] = "name: written\n"
				   "destructive: true\n"
				   "phases:\n"
				   "  - precondition: {rw: write, bs: 128k, amount: 8MiB}\n"
				   "  - rounds: {rw: randread, bs: 4k, cell_time: 1s, count: 1}\n";
	struct written_seen seen = {0};

	(void)run_watched(*state, text, "written", written_progress, &seen);
	assert_true(seen.calls > 0);
	if (seen.min != 8u << 20 || seen.max != 8u << 20)
		fail_msg("written during the read cell: %" PRIu64 " .. %" PRIu64 " bytes, expected "
			 "the precondition's 8388608",
			 seen.min, seen.max);
}

/*
 * A variants phase gives the capacity back whatever happens: its second variant (50%) fails
 * (a trim of 0-75% of the capacity does not fit it), the run fails, and the target's visible
 * capacity is the original one after it, in the target's info and, on the virtual SSD, in the
 * simulator's own (its snapshot's raw part). On the file (trim-tail) nothing was changed.
 */
static void test_variants_restore(void **state)
{
	struct fixture *f = *state;
	struct profile *p = NULL;
	struct ydoc_error yerr;
	struct runner_opts o;
	struct results *res = NULL;
	struct runner *r = NULL;
	struct json_object *m, *c;
	struct snapshot snap;
	char text[512], dir[4200], err[512] = "";
	uint64_t cap;
	int rc;

	reopen_target(f);
	cap = target_info(f->t)->capacity;
	snprintf(text, sizeof(text),
		 "name: vfail\n"
		 "destructive: true\n"
		 "phases:\n"
		 "  - variants:\n"
		 "      fractions: [100%%, 50%%]\n"
		 "      phases:\n"
		 "        - trim: {range: 0-%llu}\n",
		 (unsigned long long)(cap / 4 * 3));
	o = opts_for(f);
	memset(&yerr, 0, sizeof(yerr));
	assert_int_equal(profile_parse_string(text, strlen(text), "vfail", NULL, 0, &p, &yerr), 0);
	snprintf(dir, sizeof(dir), "%s/vfail", f->tmp);
	assert_int_equal(results_create(dir, &res), 0);
	m = runner_manifest_new(p, f->target, f->t, &o);
	assert_non_null(m);
	assert_int_equal(results_write_manifest(res, m, NULL), 0);
	json_object_put(m);
	assert_int_equal(runner_new(p, f->t, res, &o, NULL, false, &r, err, sizeof(err)), 0);
	rc = runner_execute(r, err, sizeof(err));
	assert_true(rc < 0);
	if (!strstr(err, "trim: range does not fit"))
		fail_msg("the failure: %s", err);
	runner_free(r);
	results_close(res);
	assert_int_equal(target_info(f->t)->capacity, cap);
	if (target_caps(f->t) & TARGET_CAP_SET_CAPACITY) {
		assert_int_equal(target_snapshot(f->t, &snap), 0);
		assert_true(json_object_object_get_ex(snap.raw, "capacity", &c));
		assert_int_equal((uint64_t)json_object_get_int64(c), cap);
		snapshot_release(&snap);
	}
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest file_tests[] = {
		cmocka_unit_test(test_step_seed),
		cmocka_unit_test(test_host_limited),
		cmocka_unit_test(test_fresh_run),
		cmocka_unit_test(test_resume_every_prefix),
		cmocka_unit_test(test_stop_flag),
		cmocka_unit_test(test_foreign_records),
		cmocka_unit_test(test_old_single_precondition),
		cmocka_unit_test(test_manifest_tracks),
		cmocka_unit_test(test_variants_restore),
	};
	const struct CMUnitTest sim_tests[] = {
		cmocka_unit_test(test_fresh_run),
		cmocka_unit_test(test_resume_every_prefix),
		cmocka_unit_test(test_replay_divergence),
		cmocka_unit_test(test_eta_run),
		cmocka_unit_test(test_progress_written),
		cmocka_unit_test(test_time_chunks),
		cmocka_unit_test(test_stop_flag),
		cmocka_unit_test(test_variants_restore),
	};
	int rc = cmocka_run_group_tests_name("runner on a file", file_tests, setup_file, teardown);

	return rc | cmocka_run_group_tests_name("runner on the virtual SSD", sim_tests, setup_sim,
						teardown);
}
