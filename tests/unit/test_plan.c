/* SPDX-License-Identifier: MIT */
/*
 * test_plan: what `ssdlab profiles` and `ssdlab plan` say a profile takes (issue 15, point 3)
 * and the cells a target cannot run (point 1), against values worked out by hand below from the
 * SNIA PTS loops (snia_pts.md: IOPS 7 mixes x 8 block sizes of 1 minute, 5 .. 25 rounds; WSAT
 * 4x the capacity or 24 h) and the typical drive's stated rates (profile/plan.h: 1 TB, 500 MB/s
 * sequential, 20000 IOPS random). The profiles are written out here, not read from profiles/,
 * so that the figures follow the spec and not whatever the bundled files say.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "profile/plan.h"
#include "profile/profile.h"

#define S 1000000000ull

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

static struct profile *parse(const char *text)
{
	struct profile *p = NULL;
	struct ydoc_error e;

	memset(&e, 0, sizeof(e));
	if (profile_parse_string(text, strlen(text), "test", NULL, 0, &p, &e))
		fail_msg("%s:%d:%d: %s", e.file, e.line, e.col, e.msg);
	return p;
}

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
		cmocka_unit_test(test_typical_spans),
		cmocka_unit_test(test_typical_rates),
		cmocka_unit_test(test_not_applicable_reason),
		cmocka_unit_test(test_round_excludes_not_applicable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
