/* SPDX-License-Identifier: MIT */
/*
 * test_phases: the phase registry and the plan built on it. Every registered kind has the hooks
 * the profile layer calls, a distinct type, and an execute hook in the runner's table (or a
 * body the walk descends into); a profile flattens into the steps and lengths written out by
 * hand below; and for the bundled profiles on the virtual SSD, the total `ssdlab plan` sums
 * equals the runner's initial ETA (one plan, two users). And (issue 15) what `ssdlab profiles`
 * and `ssdlab plan` say a profile takes, and the cells a target cannot run (point 1), against
 * values worked out by hand below from the SNIA PTS loops (snia_pts.md: IOPS 7 mixes x 8 block
 * sizes of 1 minute, 5 .. 25 rounds; WSAT 4x the capacity or 24 h) and the typical drive's stated
 * rates (profile/plan.h: 1 TB, 500 MB/s sequential, 20000 IOPS random). Those profiles are
 * written out here, not read from profiles/, so that the figures follow the spec.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/plan.h"
#include "profile/profile.h"
#include "run/runner.h"
#include "targets/target.h"
#include "testutil.h"

#define S 1000000000ull

static void test_registry_entries(void **state)
{
	bool seen[PHASE_NTYPES] = {false};
	const struct phase_kind *k;
	size_t n = 0;

	(void)state;
	for (size_t i = 0; (k = phase_kind_at(i)); i++, n++) {
		assert_non_null(k->name);
		assert_true((unsigned)k->type < PHASE_NTYPES);
		if (seen[k->type])
			fail_msg("kind %s: type %d registered twice", k->name, (int)k->type);
		seen[k->type] = true;
		assert_ptr_equal(phase_kind_find(k->name), k);
		assert_true(k->size > 0);
		if (!k->parse || !k->destructive || !k->to_json || !k->describe)
			fail_msg("kind %s lacks a required hook", k->name);
		/* A duration, or a body that is planned instead: exactly one. */
		if (!k->length == !k->body)
			fail_msg("kind %s: needs exactly one of length and body", k->name);
		if (!runner_kind_covered(k))
			fail_msg("kind %s has no execute hook in run/runner.c kind_exec[]", k->name);
	}
	assert_int_equal(n, PHASE_NTYPES);
	assert_null(phase_kind_find("no-such-kind"));
}

/* The flags run/eta.c and cli/cmd_plan.c decide by instead of the kinds' types. */
static void test_registry_flags(void **state)
{
	static const struct {
		const char *name;
		unsigned flags;
	} want[] = {
		{"purge", 0},
		{"precondition", PHASE_KIND_CHUNKED},
		{"write_until", PHASE_KIND_CHUNKED},
		{"rounds", PHASE_KIND_ROUNDS},
		{"idle", PHASE_KIND_WAIT},
		{"trim", 0},
		{"repeat", 0},
		{"idle_sweep", 0},
		{"trim_check", 0},
		{"surface", 0},
		{"variants", 0},
		{"dirth_points", 0},
		{"bursts", 0},
	};

	(void)state;
	assert_int_equal(sizeof(want) / sizeof(want[0]), PHASE_NTYPES);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct phase_kind *k = phase_kind_find(want[i].name);

		assert_non_null(k);
		if (k->flags != want[i].flags)
			fail_msg("kind %s: flags %#x, expected %#x", k->name, k->flags,
				 want[i].flags);
	}
}

static struct profile *parse(const char *text)
{
	struct profile *p = NULL;
	struct ydoc_error e;

	memset(&e, 0, sizeof(e));
	if (profile_parse_string(text, strlen(text), "test", NULL, 0, &p, &e))
		fail_msg("%s:%d:%d: %s", e.file, e.line, e.col, e.msg);
	return p;
}

/*
 * A profile with every kind, at scale 0.5 on 1 GiB without a real purge, written out:
 *   #  kind          repeat  ns (scaled)       bytes   cap    rounds
 *   0  purge         0       2 s x 0.5 = 1 s   -       -      1
 *   1  precondition  0       -                 1 MiB   -      1
 *   2  write_until   0       -                 100 MiB 2 s    1
 *   3  rounds        0       2 cells x 0.5 s   2 MiB   -      3
 *   4  trim          0       -                 -       -      1
 *   5  repeat        0       (its body, twice)
 *   6  idle          0, 1    0.5 s             -       -      1
 *   7  rounds        0, 1    1 s               -       -      5 .. 10
 * At 1 MiB/s: 1 + 1 + 2 + 3 x (1 + 2) + 0 + 2 x (0.5 + 5..10 x 1) = 24 .. 34 s.
 */
static void test_plan_steps(void **state)
{
	static const char text[] =
	    "name: every-kind\n"
	    "destructive: true\n"
	    "phases:\n"
	    "  - purge: {method: discard, settle: 2s}\n"
	    "  - precondition: {amount: 1MiB}\n"
	    "  - write_until: {amount: 100MiB, max_time: 4s}\n"
	    "  - rounds: {cells: {bs: [4k, 8k]}, rw: randwrite, cell_time: 1s, count: 3,\n"
	    "             pre_write: {amount: 2MiB}}\n"
	    "  - trim: {}\n"
	    "  - repeat:\n"
	    "      count: 2\n"
	    "      phases:\n"
	    "        - idle: 1s\n"
	    "        - rounds: {rw: randread, bs: 4k, cell_time: 2s,\n"
	    "                   steady_state: {track: {metric: iops}, window: 5, max_rounds: 10}}\n";
	static const struct {
		int phase;
		unsigned repeat;
		bool first;
		uint64_t ns, bytes, cap_ns;
		unsigned lo, hi;
	} want[] = {
		{0, 0, true, S, 0, 0, 1, 1},
		{1, 0, true, 0, 1 << 20, 0, 1, 1},
		{2, 0, true, 0, 100 << 20, 2 * S, 1, 1},
		{3, 0, true, S, 2 << 20, 0, 3, 3},
		{4, 0, true, 0, 0, 0, 1, 1},
		{5, 0, true, 0, 0, 0, 0, 0},
		{6, 0, true, S / 2, 0, 0, 1, 1},
		{7, 0, true, S, 0, 0, 5, 10},
		{6, 1, false, S / 2, 0, 0, 1, 1},
		{7, 1, false, S, 0, 0, 5, 10},
	};
	const struct phase_env env = {.capacity = 1ull << 30, .scale = 0.5, .real_purge = false};
	struct profile *p = parse(text);
	struct plan pl;
	uint64_t lo, hi;
	bool known;

	(void)state;
	assert_int_equal(plan_build(&p->phases, &env, &pl), 0);
	assert_int_equal(pl.nphases, 8);
	assert_int_equal(pl.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < pl.n; i++) {
		const struct plan_step *s = &pl.v[i];

		if (s->phase != want[i].phase || s->repeat != want[i].repeat ||
		    s->first != want[i].first || s->len.ns != want[i].ns ||
		    s->len.bytes != want[i].bytes || s->len.cap_ns != want[i].cap_ns ||
		    s->len.rounds_lo != want[i].lo || s->len.rounds_hi != want[i].hi)
			fail_msg("step %zu (%s): phase %d repeat %u first %d ns %" PRIu64
				 " bytes %" PRIu64 " cap %" PRIu64 " rounds %u..%u",
				 i, s->ph->kind->name, s->phase, s->repeat, s->first, s->len.ns,
				 s->len.bytes, s->len.cap_ns, s->len.rounds_lo, s->len.rounds_hi);
	}
	/* What `ssdlab plan` notes from the step alone: a discard's settle; byte chunks. */
	assert_string_not_equal(pl.v[0].len.note, "");
	assert_string_equal(pl.v[1].len.note, "");
	assert_false(pl.v[1].len.chunks_by_time);
	assert_int_equal(plan_find(&pl, 7, 1), 9);
	assert_int_equal(plan_find(&pl, 8, 0), pl.n);
	plan_span(&pl, 0, 1 << 20, &lo, &hi, &known);
	assert_true(known);
	assert_int_equal(lo, 24 * S);
	assert_int_equal(hi, 34 * S);
	/* Without a speed the byte parts are unknown; a step's own speed wins over the caller's. */
	plan_span(&pl, 0, 0, &lo, &hi, &known);
	assert_false(known);
	for (size_t i = 0; i < pl.n; i++)
		pl.v[i].bps = 2 << 20;
	pl.v[3].drain_ns = S / 4;
	plan_span(&pl, 0, 0, &lo, &hi, &known);
	assert_true(known);
	/* 1 + 0.5 + 2 + 3 x (1 + 1 + 0.25) + 0 + 2 x (0.5 + 5..10) = 21.25 .. 31.25 s */
	assert_int_equal(lo, 21 * S + S / 4);
	assert_int_equal(hi, 31 * S + S / 4);
	/* Drains without a probe: qd 1 of 4 KiB / 8 KiB at 100 MB/s = 40960 / 81920 ns per cell,
	 * the time-bound cells only (phase 3's two, phase 7's one in each iteration). */
	assert_int_equal(plan_assume_drains(&pl, &env, 4096), 0);
	for (size_t i = 0; i < pl.n; i++) {
		uint64_t want_d = pl.v[i].phase == 3 ? 40960 + 81920 : pl.v[i].phase == 7 ? 40960 : 0;

		if (pl.v[i].drain_ns != want_d)
			fail_msg("step %zu: assumed drain %" PRIu64 " ns, expected %" PRIu64, i,
				 pl.v[i].drain_ns, want_d);
	}
	plan_release(&pl);
	profile_free(p);
}

/*
 * dirth_points (issue 16 point 3): its length is known before its points are chosen: three
 * points, each a pre-write and a run, 3 x (5 min + 10 min) = 45 min of profile time, x 0.5 here;
 * its plan probe is the Min point's TC1/QD1 (the one known in advance) and the pre-write. The
 * points' queue is chosen at run time: a queue on the phase is refused.
 */
static void test_dirth_points(void **state)
{
	static const char text[] =
	    "name: dirth\n"
	    "destructive: true\n"
	    "phases:\n"
	    "  - dirth_points:\n"
	    "      rw: randwrite\n"
	    "      bs: 4k\n"
	    "      time: 10min\n"
	    "      pre_write: {rw: randwrite, bs: 4k, amount: 5min, queue: {threads: 32, depth: 32}}\n";
	const struct phase_env env = {.capacity = 1ull << 30, .scale = 0.5, .real_purge = false};
	struct profile *p = parse(text);
	const struct phase_dirth_points *d = p->phases.v[0].data;
	struct phase_job *jobs = NULL;
	struct profile *bad = (struct profile *)0x1;
	struct ydoc_error e;
	struct plan pl;
	size_t n = 0;

	(void)state;
	assert_int_equal(d->window, 5);
	assert_true(d->has_pre_write);
	assert_int_equal(plan_build(&p->phases, &env, &pl), 0);
	assert_int_equal(pl.n, 1);
	assert_int_equal(pl.v[0].len.ns, 45ull * 60 * S / 2);
	assert_int_equal(pl.v[0].len.rounds_lo, 1);
	assert_int_equal(pl.v[0].len.rounds_hi, 1);
	plan_release(&pl);
	assert_int_equal(p->phases.v[0].kind->jobs(d, &jobs, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(jobs[0].w.spec.threads * jobs[0].w.spec.qd, 1);
	assert_true(jobs[0].cell);
	assert_int_equal(jobs[1].w.spec.threads * jobs[1].w.spec.qd, 1024);
	free(jobs);
	profile_free(p);
	assert_int_equal(profile_parse_string("name: d\ndestructive: true\nphases:\n"
					      "  - dirth_points: {rw: randread, bs: 4k, time: 1min, "
					      "queue: {depth: 4}}\n",
					      strlen("name: d\ndestructive: true\nphases:\n"
						     "  - dirth_points: {rw: randread, bs: 4k, "
						     "time: 1min, queue: {depth: 4}}\n"),
					      "bad.yaml", NULL, 0, &bad, &e),
			 -EINVAL);
	assert_ptr_equal(bad, (struct profile *)0x1);
	assert_int_equal(e.line, 4);
	assert_non_null(strstr(e.msg, "chosen from the rounds before it"));
}

/*
 * For each bundled profile on the virtual SSD: the steps `ssdlab plan` fills in (here every
 * amount at the same probed speed, no drains) sum to the runner's ETA before its first step at
 * that speed, and with no speed both say the amount-bound parts are unknown.
 */
static void test_plan_equals_runner_eta(void **state)
{
	static const char *const names[] = {"smoke", "demo", "snia-iops", "snia-throughput",
					    "snia-wsat", "snia-hir", "readonly"};
	struct target_open_opts to = {.writable = true, .seed = 1};
	struct runner_opts o = {.time_scale = 2, .seed = 1};
	struct target *t = NULL;
	char err[512] = "";

	(void)state;
	if (target_open("sim:client-tlc", &to, &t, err, sizeof(err)))
		fail_msg("the virtual SSD did not open (it is always built): %s", err);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct profile *p = NULL;
		struct ydoc_error e;
		struct runner *r = NULL;
		struct plan pl;
		uint64_t plo, phi, rlo, rhi;
		bool pk, rk;
		const double bps = 400e6;

		memset(&e, 0, sizeof(e));
		if (profile_load(names[i], NULL, NULL, 0, &p, &e))
			fail_msg("%s: %s", names[i], e.msg);
		assert_int_equal(runner_new(p, t, NULL, &o, NULL, false, &r, err, sizeof(err)), 0);
		assert_int_equal(runner_plan(p, t, &o, &pl), 0);
		for (size_t s = 0; s < pl.n; s++)
			pl.v[s].bps = bps;
		plan_span(&pl, 0, 0, &plo, &phi, &pk);
		runner_eta_initial(r, bps, &rlo, &rhi, &rk);
		if (plo != rlo || phi != rhi || !pk || !rk || !phi)
			fail_msg("%s: plan %" PRIu64 "..%" PRIu64 " ns, runner %" PRIu64 "..%" PRIu64,
				 names[i], plo, phi, rlo, rhi);
		runner_eta_initial(r, 0, &rlo, &rhi, &rk);
		for (size_t s = 0; s < pl.n; s++)
			pl.v[s].bps = 0;
		plan_span(&pl, 0, 0, &plo, &phi, &pk);
		assert_true(pk == rk && plo == rlo && phi == rhi);
		plan_release(&pl);
		runner_free(r);
		profile_free(p);
	}
	target_close(t);
}

/* ---- issue 15: the typical drive, not-applicable cells ---- */

static const char iops_text[] =
    "name: iops\n"
    "destructive: true\n"
    "phases:\n"
    "  - purge: {method: auto}\n"
    "  - precondition: {rw: write, bs: 128k, amount: 2x, queue: {threads: 1, depth: 32}}\n"
    "  - rounds:\n"
    "      cells:\n"
    "        rwmix_read: [100, 95, 65, 50, 35, 5, 0]\n"
    "        bs: [1m, 128k, 64k, 32k, 16k, 8k, 4k, 512]\n"
    "        order: [rwmix_read, bs]\n"
    "      cell_time: 60s\n"
    "      queue: {threads: 4, depth: 32}\n"
    "      steady_state:\n"
    "        track: {rwmix_read: 0, bs: 4k, metric: iops}\n"
    "        window: 5\n"
    "        max_rounds: 25\n";

static const char fast_text[] =
    "name: fast\n"
    "destructive: true\n"
    "phases:\n"
    "  - purge: {method: auto}\n"
    "  - precondition: {method: sprandom, queue: {threads: 1, depth: 32}}\n"
    "  - rounds:\n"
    "      cells: {rwmix_read: [0], bs: [4k], order: [rwmix_read, bs]}\n"
    "      cell_time: 60s\n"
    "      queue: {threads: 4, depth: 32}\n"
    "      steady_state: {track: {rwmix_read: 0, bs: 4k, metric: iops}, window: 5,\n"
    "                     max_rounds: 25, early: {confidence: 0.95, min_rounds: 3}}\n"
    "  - rounds:\n"
    "      cells:\n"
    "        rwmix_read: [100, 95, 65, 50, 35, 5, 0]\n"
    "        bs: [1m, 128k, 64k, 32k, 16k, 8k, 4k, 512]\n"
    "        order: [rwmix_read, bs]\n"
    "      cell_time: 60s\n"
    "      queue: {threads: 4, depth: 32}\n"
    "      count: 2\n";

/* The "1 TB drive" column: hand-worked, in seconds. */
static void test_typical_spans(void **state)
{
	static const char wsat_text[] =
	    "name: wsat\n"
	    "destructive: true\n"
	    "phases:\n"
	    "  - purge: {method: auto}\n"
	    "  - write_until: {rw: randwrite, bs: 4k, queue: {threads: 4, depth: 32}, amount: %s,\n"
	    "                  round_time: 1min, max_time: 24h}\n";
	static const char lat_text[] =
	    "name: lat\n"
	    "destructive: true\n"
	    "phases:\n"
	    "  - purge: {method: auto}\n"
	    "  - precondition: {rw: write, bs: 128k, amount: 2x, queue: {threads: 1, depth: 32}}\n"
	    "  - rounds:\n"
	    "      cells: {rwmix_read: [100, 65, 0], bs: [512, 4k, 8k], order: [rwmix_read, bs]}\n"
	    "      cell_time: 60s\n"
	    "      queue: {threads: 1, depth: 1}\n"
	    "      steady_state: {track: {rwmix_read: 0, bs: 4k, metric: lat_mean}, window: 5,\n"
	    "                     max_rounds: 25}\n";
	char text[512];
	struct profile *p;
	uint64_t lo = 0, hi = 0;

	(void)state;
	/* IOPS: a format (no time) + 2 x 10^12 B at 500 MB/s = 4000 s + 5 .. 25 rounds of
	 * 56 x 60 s = 3360 s: 20800 s (5h46m40s) .. 88000 s (24h26m40s). */
	p = parse(iops_text);
	assert_int_equal(plan_typical_span(&p->phases, &lo, &hi), 0);
	assert_int_equal(lo, 20800 * S);
	assert_int_equal(hi, 88000 * S);
	profile_free(p);
	/* WSAT: 4 x 10^12 B of 4 KiB random writes at 20000 x 4096 B/s = 81.92 MB/s: 48828.125 s,
	 * under the 24 h cap, so min(4x capacity, 24 h) = 48828.125 s. */
	snprintf(text, sizeof(text), wsat_text, "4x");
	p = parse(text);
	assert_int_equal(plan_typical_span(&p->phases, &lo, &hi), 0);
	assert_int_equal(lo, 48828125ull * 1000000);
	assert_int_equal(hi, lo);
	profile_free(p);
	/* 30x would take 366210.9 s: the 24 h cap (86400 s) stops it first. */
	snprintf(text, sizeof(text), wsat_text, "30x");
	p = parse(text);
	assert_int_equal(plan_typical_span(&p->phases, &lo, &hi), 0);
	assert_int_equal(lo, 86400 * S);
	assert_int_equal(hi, 86400 * S);
	profile_free(p);
	/* Latency: 4000 s + 5 .. 25 rounds of 9 x 60 s: 6700 s .. 17500 s. */
	p = parse(lat_text);
	assert_int_equal(plan_typical_span(&p->phases, &lo, &hi), 0);
	assert_int_equal(lo, 6700 * S);
	assert_int_equal(hi, 17500 * S);
	profile_free(p);
	/* The fast shape: the sprandom fill writes about the space GC can fill once, at the stated
	 * 7 % spare 10^12 / 0.93 B, at 500 MB/s (no GC until it ends): 2150.5 s; the tracking
	 * rounds of one 60 s cell 3 (early min_rounds) .. 25, and 2 rounds of 56 x 60 s = 6720 s:
	 * 9050.5 s .. 10370.5 s. The fill is U / mean(v) writes, "about" P (docs/sprandom.md): 1 %. */
	p = parse(fast_text);
	assert_int_equal(plan_typical_span(&p->phases, &lo, &hi), 0);
	assert_true(fabs((double)lo / 1e9 - 9050.5) < 21.5);
	assert_int_equal(hi - lo, 22 * 60 * S);
	profile_free(p);
}

/* ---- issue 16: the bursts kind of snia-hir ---- */

static const char hir_text[] =
    "name: hir\n"
    "destructive: true\n"
    "pts: {test: hir, spec: x}\n"
    "phases:\n"
    "  - purge: {method: auto}\n"
    "  - rounds: {rw: randwrite, bs: 4k, cell_time: 30min,\n"
    "             steady_state: {track: {metric: iops}, window: 5, max_rounds: 25}}\n"
    "  - bursts: {burst: 5s, wait: 5s, count: 360}\n"
    "  - write_until: {amount: 1800s, round_time: 5s}\n"
    "  - bursts: {burst: 5s, wait: 10s, count: 360}\n"
    "  - write_until: {amount: 1800s, round_time: 5s}\n"
    "  - bursts: {burst: 5s, wait: 15s, count: 360}\n"
    "  - write_until: {amount: 1800s, round_time: 5s}\n"
    "  - bursts: {burst: 5s, wait: 25s, count: 360}\n"
    "  - write_until: {amount: 1800s, round_time: 5s}\n"
    "  - bursts: {burst: 5s, wait: 50s, count: 360}\n"
    "  - write_until: {amount: 1800s, round_time: 5s}\n";

/*
 * The HIR profile written out from the spec's reading (snia_pts.md, HIR): its parse (RND 4 KiB
 * writes at the pts TC4/QD32 by default, power states pinned off by the pts test), its length
 * on the typical drive and with a wait floor, worked out by hand.
 */
static void test_bursts(void **state)
{
	static const char *const bad[] = {
	    "name: b\ndestructive: true\nphases: [{bursts: {rw: randread, burst: 5s, wait: 5s, "
	    "count: 3}}]\n",
	    "name: b\ndestructive: true\nphases: [{bursts: {burst: 5s, wait: 5s, count: 0}}]\n",
	    "name: b\ndestructive: true\nphases: [{bursts: {burst: 5s, count: 3}}]\n",
	};
	struct profile *p = parse(hir_text);
	const struct phase_bursts *b = p->phases.v[2].data;
	struct phase_env env = {.capacity = 1ull << 30, .scale = 0.01};
	struct phase_length l;
	uint64_t lo = 0, hi = 0;
	bool fl;

	(void)state;
	assert_int_equal(p->phases.v[2].kind->type, PHASE_BURSTS);
	assert_int_equal(b->count, 360);
	assert_int_equal(b->burst_ns, 5 * S);
	assert_int_equal(b->wait_ns, 5 * S);
	assert_int_equal(b->w.spec.rw, RW_RANDWRITE);
	assert_int_equal(b->w.spec.bs[0].bs, 4096);
	assert_int_equal(b->w.spec.threads, 4);
	assert_int_equal(b->w.spec.qd, 32);
	assert_int_equal(p->power_states, PROFILE_OFF);
	assert_true(p->power_states_from_pts);
	/* Typical drive: purge 0 + 5 .. 25 rounds of 1800 s + bursts 360 x (5 + w) for w = 5, 10,
	 * 15, 25, 50 (360 x 130 = 46800 s) + 5 x 1800 s of return: 64800 .. 100800 s; without the
	 * preconditioning 55800 s, the 15.5 h of the issue. */
	assert_int_equal(plan_typical_span(&p->phases, &lo, &hi), 0);
	assert_int_equal(lo, 64800 * S);
	assert_int_equal(hi, 100800 * S);
	/* scale 0.01: a wait of 5 s is 50 ms, the burst 50 ms: 360 x 100 ms = 36 s */
	phase_bursts_kind.length(b, &env, &l);
	assert_int_equal(l.ns, 36 * S);
	assert_string_equal(l.note, "");
	assert_int_equal(phase_bursts_wait_ns(b, &env, &fl), 50000000);
	assert_false(fl);
	/* a floor of 80 ms raises the wait: 360 x (80 + 50) ms = 46.8 s, and says so */
	env.wait_floor_ns = 80000000;
	assert_int_equal(phase_bursts_wait_ns(b, &env, &fl), 80000000);
	assert_true(fl);
	phase_bursts_kind.length(b, &env, &l);
	assert_int_equal(l.ns, 46800000000ull);
	assert_string_equal(l.note, "waits raised to twice the model's idle-GC delay");
	profile_free(p);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct profile *q = NULL;
		struct ydoc_error e;

		memset(&e, 0, sizeof(e));
		if (!profile_parse_string(bad[i], strlen(bad[i]), "test", NULL, 0, &q, &e))
			fail_msg("bad bursts profile %zu parsed", i);
		assert_int_equal(e.line, 3);
	}
}

static void test_typical_rates(void **state)
{
	struct job_spec s = {.nbs = 1, .bs = {{.bs = 128 << 10, .weight = 1}}, .rw = RW_WRITE};

	(void)state;
	assert_true(plan_typical_bps(&s) == 500e6);
	s.rw = RW_RANDWRITE;
	s.bs[0].bs = 4096;
	assert_true(plan_typical_bps(&s) == 81.92e6); /* 20000 x 4096 */
	s.bs[0].bs = 1 << 20;			     /* 20000 x 1 MiB > 500 MB/s: capped */
	assert_true(plan_typical_bps(&s) == 500e6);
	s.rw = RW_RANDRW;
	s.rwmix_read = 65;
	assert_true(plan_write_share(&s) == 0.35);
	s.rw = RW_RANDREAD;
	assert_true(plan_write_share(&s) == 0);
	s.rw = RW_RANDWRITE;
	assert_true(plan_write_share(&s) == 1);
}

static void test_not_applicable_reason(void **state)
{
	struct profile_workload w = {.spec = {.nbs = 1, .bs = {{.bs = 512, .weight = 1}}}};
	char why[128] = "untouched";

	(void)state;
	assert_true(profile_workload_not_applicable(&w, 4096, why, sizeof(why)));
	assert_string_equal(why,
			    "block size 512 B is below the device's logical block size of 4096 B");
	w.spec.bs[0].bs = 6144;
	assert_true(profile_workload_not_applicable(&w, 4096, why, sizeof(why)));
	assert_string_equal(
	    why, "block size 6144 B is not a multiple of the device's logical block size of 4096 B");
	strcpy(why, "untouched");
	w.spec.bs[0].bs = 8192;
	assert_false(profile_workload_not_applicable(&w, 4096, why, sizeof(why)));
	w.spec.bs[0].bs = 512;
	assert_false(profile_workload_not_applicable(&w, 512, why, sizeof(why)));
	assert_false(profile_workload_not_applicable(&w, 0, why, sizeof(why))); /* unknown */
	assert_string_equal(why, "untouched");
}

/* The planned time of a round leaves the not-applicable cells out: on a 4Kn device the 7 cells
 * of 0.5 KiB take none, 49 x 60 s remain; on 512 B sectors (or unknown) all 56 count. */
static void test_round_excludes_not_applicable(void **state)
{
	static const struct {
		uint32_t lbs;
		uint64_t round_ns;
	} rows[] = {{4096, 49 * 60 * S}, {512, 56 * 60 * S}, {0, 56 * 60 * S}};
	struct profile *p = parse(iops_text);

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct phase_env env = {.capacity = 1ull << 30, .scale = 1.0,
					      .real_purge = true, .lbs = rows[i].lbs};
		struct plan pl = {0};

		assert_int_equal(plan_build(&p->phases, &env, &pl), 0);
		assert_int_equal(pl.n, 3);
		assert_string_equal(pl.v[2].ph->kind->name, "rounds");
		if (pl.v[2].len.ns != rows[i].round_ns)
			fail_msg("lbs %u: a round takes %llu ns, not %llu", rows[i].lbs,
				 (unsigned long long)pl.v[2].len.ns,
				 (unsigned long long)rows[i].round_ns);
		assert_int_equal(pl.v[2].len.rounds_lo, 5);
		assert_int_equal(pl.v[2].len.rounds_hi, 25);
		plan_release(&pl);
	}
	profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_registry_entries),
		cmocka_unit_test(test_registry_flags),
		cmocka_unit_test(test_plan_steps),
		cmocka_unit_test(test_dirth_points),
		cmocka_unit_test(test_plan_equals_runner_eta),
		cmocka_unit_test(test_typical_spans),
		cmocka_unit_test(test_typical_rates),
		cmocka_unit_test(test_not_applicable_reason),
		cmocka_unit_test(test_round_excludes_not_applicable),
		cmocka_unit_test(test_bursts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
