/* SPDX-License-Identifier: MIT */
/*
 * test_wa: analysis/wa.h. WA between two snapshots against ratios worked out by hand (moved here
 * from test_snapshot with snapshot_wa), the per-phase spans over a sequence of snapshots (one
 * snapshot per boundary, a ramp end, a repeat, snapshots outside any phase, a phase met again
 * later) and the bracket of a time window.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/wa.h"
#include "results/snapshot.h"

struct wa_case {
	double host_a, nand_a, host_b, nand_b;
	int rc;
	double wa;
};

static void test_between(void **state)
{
	static const struct wa_case cases[] = {
	    /* (6500 - 1500) / (3000 - 1000) = 5000 / 2000 */
	    {1000, 1500, 3000, 6500, 0, 2.5},
	    /* No GC: NAND written = host written. */
	    {0, 0, 1 << 20, 1 << 20, 0, 1.0},
	    /* (4e12 - 1e12) / (2e12 - 0.5e12) = 3 / 1.5 */
	    {0.5e12, 1e12, 2e12, 4e12, 0, 2.0},
	    /* Nothing written between the two. */
	    {1000, 1500, 1000, 1500, -ENODATA, 0},
	    /* A counter that went backwards (reset by a purge). */
	    {1000, 1500, 3000, 1000, -ENODATA, 0},
	};
	struct snapshot a, b;
	double wa, host, nand;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct wa_case *c = &cases[i];

		snapshot_init(&a, "sim");
		snapshot_init(&b, "sim");
		assert_int_equal(snapshot_set(&a, "host_bytes_written", "bytes", c->host_a), 0);
		assert_int_equal(snapshot_set(&a, "nand_bytes_written", "bytes", c->nand_a), 0);
		assert_int_equal(snapshot_set(&b, "nand_bytes_written", "bytes", c->nand_b), 0);
		assert_int_equal(snapshot_set(&b, "host_bytes_written", "bytes", c->host_b), 0);
		/* The deltas are there whenever the counters are, also where no ratio is. */
		host = nand = -1;
		assert_int_equal(wa_deltas(&a, &b, &host, &nand), 0);
		assert_true(host == c->host_b - c->host_a && nand == c->nand_b - c->nand_a);
		wa = -1;
		assert_int_equal(wa_between(&a, &b, &wa), c->rc);
		if (!c->rc)
			assert_true(fabs(wa - c->wa) < 1e-12);
		else
			assert_true(wa == -1);
	}
	/* A source without NAND counters (a file, a drive that does not say). */
	snapshot_init(&a, "none");
	snapshot_init(&b, "ata-smart");
	assert_int_equal(snapshot_set(&b, "host_bytes_written", "bytes", 10), 0);
	assert_int_equal(wa_between(&a, &b, &wa), -ENODATA);
	assert_int_equal(wa_between(&b, &b, &wa), -ENODATA);
	host = nand = -1;
	assert_int_equal(wa_deltas(&a, &b, &host, &nand), -ENODATA);
	assert_int_equal(wa_deltas(&b, &b, &host, &nand), -ENODATA);
	assert_true(host == -1 && nand == -1);
}

static void test_ratio(void **state)
{
	double wa = -1;

	(void)state;
	assert_int_equal(wa_ratio(0, 100, 0, 300, &wa), 0);
	assert_true(wa == 3.0);
	wa = -1;
	assert_int_equal(wa_ratio(0, NAN, 0, 300, &wa), -ENODATA);
	assert_int_equal(wa_ratio(0, 100, INFINITY, 300, &wa), -ENODATA);
	assert_int_equal(wa_ratio(100, 100, 0, 300, &wa), -ENODATA);
	assert_int_equal(wa_ratio(200, 100, 0, 300, &wa), -ENODATA);
	assert_true(wa == -1);
}

#define P(ph, rep, ramp)                                                                           \
	{                                                                                          \
		.phase = (ph), .repeat = (rep), .has_repeat = true, .ramp_end = (ramp)             \
	}

static void test_spans(void **state)
{
	/* run-start, phase 0 (start, end), phase 1 (start, ramp-end, end), phase 2 with one
	 * snapshot, phase 3 repeat 0 and 1 (two each), run-end. */
	static const struct wa_point p[] = {
	    P(-1, 0, false), P(0, 0, false), P(0, 0, false), P(1, 0, false),
	    P(1, 0, true),   P(1, 0, false), P(2, 0, false), P(3, 0, false),
	    P(3, 0, false),  P(3, 1, false), P(3, 1, false), P(-1, 0, false),
	};
	static const struct wa_span want[] = {
	    {.phase = 0, .repeat = 0, .from = 1, .total_from = 1, .to = 2},
	    {.phase = 1, .repeat = 0, .from = 4, .total_from = 3, .to = 5},
	    {.phase = 2, .repeat = 0, .from = 5, .total_from = 5, .to = 6},
	    {.phase = 3, .repeat = 0, .from = 7, .total_from = 7, .to = 8},
	    {.phase = 3, .repeat = 1, .from = 9, .total_from = 9, .to = 10},
	};
	struct wa_span out[sizeof(p) / sizeof(p[0])];
	size_t n;

	(void)state;
	n = wa_phase_spans(p, sizeof(p) / sizeof(p[0]), out);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(out[i].phase, want[i].phase);
		assert_int_equal(out[i].repeat, want[i].repeat);
		assert_int_equal(out[i].from, want[i].from);
		assert_int_equal(out[i].total_from, want[i].total_from);
		assert_int_equal(out[i].to, want[i].to);
	}
}

/* A variant redone on resume (run/runner.h I7): phase 4 repeat 1 has the first attempt's start
 * and ramp end, a resume snapshot (phase -1), then its own start, ramp end and end: the span is
 * the redo's (start 4, ramp end 5, end 6), hand-picked; phase 5's single start is untouched. */
static void test_spans_redo(void **state)
{
	static const struct wa_point p[] = {
	    {.phase = 4, .repeat = 1, .has_repeat = true, .start = true},
	    P(4, 1, true),
	    P(-1, 0, false),
	    P(-1, 0, false),
	    {.phase = 4, .repeat = 1, .has_repeat = true, .start = true},
	    P(4, 1, true),
	    P(4, 1, false),
	    {.phase = 5, .repeat = 1, .has_repeat = true, .start = true},
	    P(5, 1, false),
	};
	struct wa_span out[9];

	(void)state;
	assert_int_equal(wa_phase_spans(p, 9, out), 2);
	assert_int_equal(out[0].phase, 4);
	assert_int_equal(out[0].total_from, 4);
	assert_int_equal(out[0].from, 5);
	assert_int_equal(out[0].to, 6);
	assert_int_equal(out[1].total_from, 7);
	assert_int_equal(out[1].from, 7);
	assert_int_equal(out[1].to, 8);
}

static void test_spans_edges(void **state)
{
	/* A single snapshot at index 0 has no span; a ramp end at the phase's last snapshot is not
	 * inside it; a snapshot without a repeat matches no other one (not even one like it). */
	static const struct wa_point one[] = {P(0, 0, false)};
	static const struct wa_point ramp_last[] = {P(0, 0, false), P(0, 0, true)};
	static const struct wa_point norep[] = {
	    {.phase = 0}, {.phase = 0, .has_repeat = false}, P(0, 0, false)};
	struct wa_span out[3];

	(void)state;
	assert_int_equal(wa_phase_spans(one, 1, out), 0);
	assert_int_equal(wa_phase_spans(NULL, 0, out), 0);
	assert_int_equal(wa_phase_spans(ramp_last, 2, out), 1);
	assert_int_equal(out[0].from, 0);
	assert_int_equal(out[0].to, 1);
	/* each one without a repeat (taken as 0) starts its own span, to the last one, which has
	 * repeat 0, and that one, meeting no match before it, its own again from the snapshot
	 * before: the analysis has always read them so (summary.json must not change) */
	assert_int_equal(wa_phase_spans(norep, 3, out), 3);
	assert_int_equal(out[0].total_from, 0);
	assert_int_equal(out[0].to, 2);
	assert_int_equal(out[1].total_from, 1);
	assert_int_equal(out[1].to, 2);
	assert_int_equal(out[2].total_from, 1);
	assert_int_equal(out[2].to, 2);
}

static void test_bracket(void **state)
{
	static const uint64_t t[] = {0, 10, 20, 30, 40, 50};
	static const bool has[] = {true, true, false, true, true, true};
	size_t a = 99, b = 99;

	(void)state;
	assert_int_equal(wa_bracket(t, has, 6, 10, 30, &a, &b), 0);
	assert_int_equal(a, 1);
	assert_int_equal(b, 3);
	assert_int_equal(wa_bracket(t, has, 6, 15, 35, &a, &b), 0); /* 20 has no time */
	assert_int_equal(a, 1);
	assert_int_equal(b, 4);
	a = b = 99;
	assert_int_equal(wa_bracket(t, has, 6, 10, 60, &a, &b), -ENODATA); /* nothing after */
	assert_int_equal(wa_bracket(t + 1, has + 1, 5, 5, 30, &a, &b),
			 -ENODATA);					   /* nothing before */
	assert_int_equal(wa_bracket(t, has, 6, 30, 30, &a, &b), -ENODATA); /* one snapshot */
	assert_int_equal(a, 99);
	assert_int_equal(b, 99);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_between), cmocka_unit_test(test_ratio),
	    cmocka_unit_test(test_spans),   cmocka_unit_test(test_spans_edges),
	    cmocka_unit_test(test_spans_redo), cmocka_unit_test(test_bracket),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
