/* SPDX-License-Identifier: MIT */
/*
 * test_snia_xsr: the pure part of the SNIA XSR block (analysis/snia_xsr.h) against values worked
 * out by hand: a group's throughput (bytes over time of the whole group, not the mean of the
 * samples' rates), end-of-group throughput, I/O-weighted mean and peak response times; group 3's
 * recovery to group 1's average by the first of 3 samples in a row within 10% (a lone sample
 * inside and a run broken by one outside do not count), the writing time and bytes before it
 * (ramp included); "not recovered", "not judged" and a bad rule; the test's name (snia.h).
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/snia.h"
#include "analysis/snia_xsr.h"

/* cmocka of this machine has no assert_double_equal */
#define assert_double_equal(a, b, eps) assert_true(fabs((double)(a) - (double)(b)) <= (eps))

/* A sample of `mb` MB/s over one second (1e9 ns), without ramp or response times. */
#define S1(mb) {.elapsed_ns = 1000000000u, .bytes = (mb) * 1000000u, .ios = (mb), \
		.bytes_total = (mb) * 1000000u, .lat_mean_ns = NAN, .lat_max_ns = NAN}

static void test_group(void **state)
{
	const struct snia_xsr_sample s[] = {
	    {.elapsed_ns = 1000000000, .bytes = 500000000, .ios = 500, .bytes_total = 500000000,
	     .lat_mean_ns = 60e6, .lat_max_ns = 70e6},
	    {.elapsed_ns = 1000000000, .bytes = 600000000, .ios = 600, .bytes_total = 600000000,
	     .lat_mean_ns = 50e6, .lat_max_ns = 80e6},
	    /* no response times recorded: counts in the throughput, not in the latencies */
	    {.elapsed_ns = 500000000, .bytes = 100000000, .ios = 100, .bytes_total = 100000000,
	     .lat_mean_ns = NAN, .lat_max_ns = NAN},
	    {.elapsed_ns = 500000000, .bytes = 250000000, .ios = 250, .bytes_total = 250000000,
	     .lat_mean_ns = 40e6, .lat_max_ns = 90e6},
	};
	struct snia_xsr_group g;

	(void)state;
	snia_xsr_group(s, 4, &g);
	assert_int_equal(g.samples, 4);
	assert_int_equal(g.elapsed_ns, 3000000000u);
	assert_int_equal(g.bytes, 1450000000u);
	assert_int_equal(g.ios, 1450);
	/* 1450e6 bytes / 3 s = 483.33 MB/s; the mean of the rates (500, 600, 200, 500) is 450 */
	assert_double_equal(g.mb_s, 1450.0 / 3, 1e-9);
	assert_double_equal(g.end_mb_s, 500, 1e-9); /* 250e6 bytes in 0.5 s */
	/* (60e6 x 500 + 50e6 x 600 + 40e6 x 250) / 1350 = 70e9 / 1350 */
	assert_double_equal(g.lat_mean_ns, 70e9 / 1350, 1e-3);
	assert_double_equal(g.art_peak_ns, 60e6, 0);
	assert_double_equal(g.mrt_ns, 90e6, 0);
	assert_double_equal(snia_xsr_mb_s(&s[2]), 200, 1e-9);

	snia_xsr_group(s, 0, &g);
	assert_int_equal(g.samples, 0);
	assert_int_equal(g.bytes, 0);
	assert_true(isnan(g.mb_s) && isnan(g.end_mb_s) && isnan(g.lat_mean_ns));
	assert_true(isnan(g.art_peak_ns) && isnan(g.mrt_ns));
}

static void test_recovery(void **state)
{
	const struct recovery_rule rule = RECOVERY_RULE_DEFAULT;
	/* group 1 at 540 MB/s: the band is 486..594 */
	const struct snia_xsr_group g1 = {.samples = 3, .mb_s = 540};
	struct snia_xsr_sample s3[] = {S1(300), S1(500), S1(400), S1(490),
				       S1(600), S1(520), S1(530), S1(540), S1(100)};
	struct snia_xsr x;

	(void)state;
	/* the first sample had a ramp of 0.1 s writing 10 MB */
	s3[0].ramp_ns = 100000000;
	s3[0].bytes_total += 10000000;
	assert_int_equal(snia_xsr_recovery(&g1, s3, 9, &rule, &x), 0);
	assert_true(x.judged);
	assert_double_equal(x.reference_mb_s, 540, 0);
	/* 500 is inside but 400 follows; 490 inside, 600 above the band; 520, 530, 540: back at 6 */
	assert_true(x.rec.back);
	assert_int_equal(x.rec.back_round, 6);
	assert_true(x.rec.has_first_in_band);
	assert_int_equal(x.rec.first_in_band_round, 2);
	assert_int_equal(x.rec.measurements, 8); /* the scan stops at the run's last sample */
	/* five samples before it: 5 s + the ramp's 0.1 s; (310 + 500 + 400 + 490 + 600) MB */
	assert_int_equal(x.rec.back_after_ns, 5100000000u);
	assert_int_equal(x.rec.back_after_bytes, 2300000000u);
	assert_double_equal(x.rec.first, 300, 1e-9);
}

static void test_not_recovered(void **state)
{
	const struct recovery_rule rule = RECOVERY_RULE_DEFAULT;
	const struct snia_xsr_group g1 = {.samples = 3, .mb_s = 540};
	const struct snia_xsr_group none = {.mb_s = NAN};
	/* two in a row at most: 500 500 | 300 | 550 590 | 595 (just above 594) | 520 */
	const struct snia_xsr_sample s3[] = {S1(500), S1(500), S1(300), S1(550),
					     S1(590), S1(595), S1(520)};
	const struct recovery_rule zero = {.band = 0.1, .rounds = 0};
	struct snia_xsr x, keep = {.reference_mb_s = -1};

	(void)state;
	assert_int_equal(snia_xsr_recovery(&g1, s3, 7, &rule, &x), 0);
	assert_true(x.judged);
	assert_false(x.rec.back);
	assert_int_equal(x.rec.back_round, 0);
	assert_int_equal(x.rec.measurements, 7);
	assert_int_equal(x.rec.first_in_band_round, 1);

	/* no group 3 samples, or no group 1 throughput: not judged */
	assert_int_equal(snia_xsr_recovery(&g1, s3, 0, &rule, &x), 0);
	assert_false(x.judged);
	assert_int_equal(snia_xsr_recovery(&none, s3, 7, &rule, &x), 0);
	assert_false(x.judged);
	assert_true(isnan(x.reference_mb_s));

	/* a rule of 0 samples is refused, the output untouched */
	x = keep;
	assert_int_equal(snia_xsr_recovery(&g1, s3, 7, &zero, &x), -EINVAL);
	assert_double_equal(x.reference_mb_s, -1, 0);
}

static void test_name(void **state)
{
	(void)state;
	assert_int_equal(snia_test_from_profile("snia-xsr"), SNIA_XSR);
	assert_int_equal(snia_test_from_profile("snia-xsr-client"), SNIA_XSR);
	assert_int_equal(snia_test_from_profile("snia-xsrx"), SNIA_NONE);
	assert_int_equal(snia_test_parse("xsr"), SNIA_XSR);
	assert_string_equal(snia_test_name(SNIA_XSR), "xsr");
	/* the tests before it keep their names */
	assert_string_equal(snia_test_name(SNIA_WSAT), "wsat");
	assert_int_equal(snia_test_parse("wsat"), SNIA_WSAT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_group),
	    cmocka_unit_test(test_recovery),
	    cmocka_unit_test(test_not_recovered),
	    cmocka_unit_test(test_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
