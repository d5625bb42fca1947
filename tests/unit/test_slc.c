/* SPDX-License-Identifier: MIT */
/*
 * test_slc: slc_fit() (analysis/slc.h) on synthetic series with known answers: a cache then one
 * slower level, three levels (the third speed of a drive that folds), a folding sawtooth that
 * must stay one level (alone and after a cache), no knee ("no cache detected"), a drop too small
 * to count, a drop at the warning temperature (possible throttling), 10^4 samples in time,
 * bad input; and the reader of a probe's series file (reader_slc_series).
 *
 * The series: samples every 10 ms; in each, the bytes written are rate * 10 ms times
 * (1 + noise), noise Gaussian with the stated relative standard deviation (gsl_ran_gaussian,
 * seeded), so that the cumulative bytes wander like a real drive's. The expected figures are the
 * generating values worked by hand (500 MB/s for 10 s = 5.000 GB); tolerances are stated per
 * case and are several standard errors of the estimate wide (for 5 % noise per sample the mean
 * of 1000 samples has a relative standard error of 0.16 %).
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
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cmocka.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/reader.h"
#include "analysis/slc.h"

#define DT_NS 10000000ull /* 10 ms */
#define MAXSEG 8

struct piece {
	double mbps;  /* rate */
	size_t n;     /* samples */
	double noise; /* relative sd per sample */
	double alt;   /* sawtooth: 0, or the second rate, alternating every `half` samples */
	size_t half;
};

struct series {
	uint64_t *t, *b;
	double *temp;
	size_t n;
};

static void make(const struct piece *p, size_t np, uint64_t seed, struct series *s)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	double acc = 0;
	size_t n = 0, i = 0;

	assert_non_null(rng);
	gsl_rng_set(rng, seed);
	for (size_t k = 0; k < np; k++)
		n += p[k].n;
	s->t = malloc(n * sizeof(*s->t));
	s->b = malloc(n * sizeof(*s->b));
	s->temp = malloc(n * sizeof(*s->temp));
	assert_non_null(s->t);
	assert_non_null(s->b);
	assert_non_null(s->temp);
	for (size_t k = 0; k < np; k++) {
		for (size_t j = 0; j < p[k].n; j++, i++) {
			double r = p[k].mbps;

			if (p[k].alt && (j / p[k].half) % 2)
				r = p[k].alt;
			acc += r * 1e6 * 0.01 * (1.0 + gsl_ran_gaussian(rng, p[k].noise));
			s->t[i] = (i + 1) * DT_NS;
			s->b[i] = (uint64_t)llround(acc);
			s->temp[i] = NAN;
		}
	}
	s->n = n;
	gsl_rng_free(rng);
}

static void drop(struct series *s)
{
	free(s->t);
	free(s->b);
	free(s->temp);
}

static void near(double got, double want, double rel, const char *what)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("%s: got %.6g, want %.6g within %.2g%%", what, got, want, rel * 100);
}

static struct slc_result fit(const struct series *s, size_t min_seg, unsigned reps)
{
	struct slc_params p;
	struct slc_result r;

	slc_params_default(&p);
	p.min_seg = min_seg;
	p.boot_reps = reps;
	p.seed = 7;
	assert_int_equal(slc_fit(s->t, s->b, s->temp, s->n, &p, &r), 0);
	return r;
}

/* Every interval holds its own estimate: the cache size, the two speeds and each level's. */
static void bounds_hold(const struct slc_result *r, const char *what)
{
	struct {
		double lo, est, hi;
		const char *name;
	} c[3 + SLC_MAX_LEVELS] = {
	    {r->cache_bytes_lo, r->cache_bytes, r->cache_bytes_hi, "cache bytes"},
	    {r->in_cache_lo, r->in_cache_mbps, r->in_cache_hi, "in-cache MB/s"},
	    {r->post_cache_lo, r->post_cache_mbps, r->post_cache_hi, "post-cache MB/s"},
	};
	size_t nc = 3;

	for (unsigned j = 0; j < r->nlevels; j++, nc++) {
		c[nc].lo = r->level[j].mbps_lo;
		c[nc].est = r->level[j].mbps;
		c[nc].hi = r->level[j].mbps_hi;
		c[nc].name = "a level's MB/s";
	}
	for (size_t i = 0; i < nc; i++)
		if (!(c[i].lo <= c[i].est && c[i].est <= c[i].hi))
			fail_msg("%s: %s %.6g outside its bounds [%.6g, %.6g]", what, c[i].name,
				 c[i].est, c[i].lo, c[i].hi);
}

/* Cache of 5.000 GB at 500 MB/s (1000 samples), then 80 MB/s (3000 samples), 5 % noise. */
static void test_two_levels(void **state)
{
	static const struct piece p[] = {{500, 1000, 0.05, 0, 0}, {80, 3000, 0.05, 0, 0}};
	struct series s;
	struct slc_result r;

	(void)state;
	make(p, 2, 1, &s);
	r = fit(&s, 50, 200);
	assert_int_equal(r.nlevels, 2);
	assert_true(r.cache_detected);
	assert_int_equal(r.edge_level, 1);
	near(r.cache_bytes, 5.0e9, 0.01, "cache bytes");
	near(r.in_cache_mbps, 500, 0.01, "in-cache MB/s");
	near(r.post_cache_mbps, 80, 0.01, "post-cache MB/s");
	/* the bounds hold the estimate and are not absurdly wide (under 2 % of it) */
	assert_true(r.cache_bytes_lo <= r.cache_bytes && r.cache_bytes <= r.cache_bytes_hi);
	assert_true(r.cache_bytes_hi - r.cache_bytes_lo < 0.02 * r.cache_bytes);
	assert_true(r.in_cache_lo <= r.in_cache_mbps && r.in_cache_mbps <= r.in_cache_hi);
	assert_true(r.post_cache_lo < 80.4 && r.post_cache_hi > 79.6);
	near(r.drop_share, 1.0, 1e-9, "replicates with the drop");
	assert_int_equal(r.level[0].first, 0);
	assert_true(r.level[1].first >= 995 && r.level[1].first <= 1005);
	assert_false(r.possible_throttling);
	assert_int_equal(r.block_len, 16); /* ceil(4000^(1/3)) = ceil(15.87) */
	bounds_hold(&r, "two levels");
	drop(&s);
}

/* 500 MB/s for 800 samples (4.000 GB), 200 MB/s for 600, 60 MB/s for 2000; 5 % noise. */
static void test_three_levels(void **state)
{
	static const struct piece p[] = {
	    {500, 800, 0.05, 0, 0}, {200, 600, 0.05, 0, 0}, {60, 2000, 0.05, 0, 0}};
	struct series s;
	struct slc_result r;

	(void)state;
	make(p, 3, 2, &s);
	r = fit(&s, 50, 100);
	assert_int_equal(r.nlevels, 3);
	assert_true(r.cache_detected);
	near(r.cache_bytes, 4.0e9, 0.01, "cache bytes");
	near(r.level[0].mbps, 500, 0.01, "level 1");
	near(r.level[1].mbps, 200, 0.01, "level 2");
	near(r.level[2].mbps, 60, 0.01, "level 3");
	/* the second edge: 4.0 GB + 200 MB/s x 6 s = 5.2 GB */
	near((double)r.level[1].bytes_to, 5.2e9, 0.01, "second edge");
	bounds_hold(&r, "three levels");
	drop(&s);
}

/* A folding sawtooth: 150 and 50 MB/s alternating every 4 samples (period 80 ms), 4000
 * samples, minimum level 100 samples (12 periods): ONE level of 100 MB/s, no cache. */
static void test_sawtooth_one_level(void **state)
{
	static const struct piece p[] = {{150, 4000, 0.05, 50, 4}};
	struct series s;
	struct slc_result r;

	(void)state;
	make(p, 1, 3, &s);
	r = fit(&s, 100, 50);
	assert_int_equal(r.nlevels, 1);
	assert_false(r.cache_detected);
	near(r.level[0].mbps, 100, 0.01, "sawtooth mean");
	assert_true(isnan(r.cache_bytes));
	drop(&s);
}

/* A cache (2.0 GB at 400 MB/s) and then the sawtooth: two levels, the second its mean. */
static void test_cache_then_sawtooth(void **state)
{
	static const struct piece p[] = {{400, 500, 0.03, 0, 0}, {150, 4000, 0.05, 50, 4}};
	struct series s;
	struct slc_result r;

	(void)state;
	make(p, 2, 4, &s);
	r = fit(&s, 100, 50);
	assert_int_equal(r.nlevels, 2);
	assert_true(r.cache_detected);
	near(r.cache_bytes, 2.0e9, 0.01, "cache bytes");
	near(r.post_cache_mbps, 100, 0.01, "post-cache (sawtooth mean)");
	bounds_hold(&r, "cache then sawtooth");
	drop(&s);
}

/*
 * The edge inside a sample, as on a drive and on the virtual SSD, whose 85 % probe has about 50
 * samples in its cache and counts whole I/Os: 128 KiB writes at 504 MB/s for 50 + f samples of
 * 2.237 ms, then 85 MB/s (1.45 I/Os per sample), the cumulative bytes those of the I/Os
 * completed by each sample's end (B(t) rounded down to 128 KiB, with a completion time jitter of
 * 0.3 I/O). The truth is 504 MB/s x 2.237 ms x (50 + f): 56.60, 56.94 and 57.27 MB for
 * f = 0.2, 0.5, 0.8. The estimate is within 1 % (the rounding is up to an I/O, 0.12 %; the
 * jitter moves it more) and inside its own bounds: the bootstrap's replicates keep the mixed
 * sample, so they do not all put the edge a sample early (the old replicates did, and the
 * estimate lay above its own 97.5 % bound).
 */
static void test_edge_inside_sample(void **state)
{
	static const double frac[] = {0.2, 0.5, 0.8};
	const double dt = 2.237e-3, io = 131072, r1 = 504e6, r2 = 85e6;

	(void)state;
	for (size_t c = 0; c < sizeof(frac) / sizeof(frac[0]); c++) {
		gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
		double te = (50 + frac[c]) * dt;
		struct series s;
		struct slc_result r;
		char what[32];

		assert_non_null(rng);
		gsl_rng_set(rng, 20 + c);
		s.n = 1500;
		s.t = malloc(s.n * sizeof(*s.t));
		s.b = malloc(s.n * sizeof(*s.b));
		s.temp = malloc(s.n * sizeof(*s.temp));
		assert_non_null(s.t);
		assert_non_null(s.b);
		assert_non_null(s.temp);
		for (size_t i = 0; i < s.n; i++) {
			double t = (double)(i + 1) * dt;
			double b = t < te ? r1 * t : r1 * te + r2 * (t - te);
			double ios = floor(b / io + gsl_ran_gaussian(rng, 0.3));

			s.t[i] = (uint64_t)llround(t * 1e9);
			s.b[i] = (uint64_t)(ios < 0 ? 0 : ios) * (uint64_t)io;
			if (i && s.b[i] < s.b[i - 1])
				s.b[i] = s.b[i - 1];
			s.temp[i] = NAN;
		}
		gsl_rng_free(rng);
		r = fit(&s, 8, 200);
		snprintf(what, sizeof(what), "edge at 50 + %.1f samples", frac[c]);
		assert_true(r.cache_detected);
		near(r.cache_bytes, r1 * te, 0.01, what);
		bounds_hold(&r, what);
		drop(&s);
	}
}

/*
 * A short cache and a transition that is a ramp, not a level, as the 1 GiB virtual SSD shows at
 * 85 % fill: 504 MB/s for 15 samples of 2.237 ms, then 16 samples falling evenly from 293 to
 * 117 MB/s, then 85 MB/s, 1 % noise. The fit sees three levels (the ramp one of them, a
 * transition) and puts the edge where the cache's and the post-cache lines meet, somewhere in
 * the ramp: between 15 and 31 samples' bytes (16.9 and 20.5 MB, worked from the rates). The
 * ramp's blocks redrawn in another order move the replicates' breakpoints one way; the bounds
 * still hold every estimate (slc.c, around).
 */
static void test_ramp_transition(void **state)
{
	const double dt = 2.237e-3;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct series s;
	struct slc_result r;
	double acc = 0, ramp_end = 0;

	(void)state;
	assert_non_null(rng);
	gsl_rng_set(rng, 31);
	s.n = 700;
	s.t = malloc(s.n * sizeof(*s.t));
	s.b = malloc(s.n * sizeof(*s.b));
	s.temp = malloc(s.n * sizeof(*s.temp));
	assert_non_null(s.t);
	assert_non_null(s.b);
	assert_non_null(s.temp);
	for (size_t i = 0; i < s.n; i++) {
		double mbps = i < 15 ? 504 : i < 31 ? 293 - (293 - 117) * (double)(i - 15) / 15 : 85;

		acc += mbps * 1e6 * dt * (1.0 + gsl_ran_gaussian(rng, 0.01));
		if (i == 30)
			ramp_end = acc;
		s.t[i] = (uint64_t)llround((double)(i + 1) * dt * 1e9);
		s.b[i] = (uint64_t)llround(acc);
		s.temp[i] = NAN;
	}
	gsl_rng_free(rng);
	r = fit(&s, 8, 200);
	assert_true(r.cache_detected);
	assert_true(r.cache_bytes >= 504e6 * dt * 15 * 0.98 && r.cache_bytes <= ramp_end);
	near(r.in_cache_mbps, 504, 0.01, "in-cache MB/s");
	near(r.post_cache_mbps, 85, 0.02, "post-cache MB/s");
	bounds_hold(&r, "ramp transition");
	drop(&s);
}

/* No knee: 300 MB/s throughout with 5 % and with 20 % noise: "no cache detected". */
static void test_no_knee(void **state)
{
	static const double noise[] = {0.05, 0.20};

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct piece p[] = {{300, 3000, noise[i], 0, 0}};
		struct series s;
		struct slc_result r;

		make(p, 1, 10 + i, &s);
		r = fit(&s, 50, 50);
		assert_int_equal(r.nlevels, 1);
		assert_false(r.cache_detected);
		assert_true(isnan(r.cache_bytes));
		near(r.level[0].mbps, 300, 0.01, "the one level");
		drop(&s);
	}
}

/* A 5 % step (300 -> 285 MB/s) with 1 % noise: BIC finds two levels, but a drop under
 * min_drop (10 %) is no cache edge. */
static void test_small_drop(void **state)
{
	static const struct piece p[] = {{300, 1500, 0.01, 0, 0}, {285, 1500, 0.01, 0, 0}};
	struct series s;
	struct slc_result r;

	(void)state;
	make(p, 2, 20, &s);
	r = fit(&s, 50, 20);
	assert_int_equal(r.nlevels, 2);
	assert_false(r.cache_detected);
	near(r.level[1].mbps, 285, 0.01, "second level");
	drop(&s);
}

/* The drop at sample 1000 while the drive reads 71 C with a warning level of 70: flagged. */
static void test_throttling(void **state)
{
	static const struct piece p[] = {{500, 1000, 0.05, 0, 0}, {80, 1000, 0.05, 0, 0}};
	struct slc_params prm;
	struct slc_result r;
	struct series s;

	(void)state;
	make(p, 2, 30, &s);
	for (size_t i = 0; i < s.n; i++)
		s.temp[i] = i < 990 ? 60.0 : 71.0;
	slc_params_default(&prm);
	prm.min_seg = 50;
	prm.boot_reps = 20;
	prm.warning_c = 70;
	assert_int_equal(slc_fit(s.t, s.b, s.temp, s.n, &prm, &r), 0);
	assert_true(r.cache_detected);
	assert_true(r.possible_throttling);
	near(r.edge_temp_c, 71, 1e-9, "edge temperature");
	/* the same series cool: no flag */
	for (size_t i = 0; i < s.n; i++)
		s.temp[i] = 50.0;
	assert_int_equal(slc_fit(s.t, s.b, s.temp, s.n, &prm, &r), 0);
	assert_false(r.possible_throttling);
	drop(&s);
}

/* 10^4 samples (the size of a real drive's probe) with 200 replicates: well under 10 s even
 * under the sanitizers, and the answer right. */
static void test_large_fast(void **state)
{
	static const struct piece p[] = {{470, 2000, 0.05, 0, 0}, {80, 8000, 0.10, 0, 0}};
	struct timespec a, b;
	struct series s;
	struct slc_result r;
	double sec;

	(void)state;
	make(p, 2, 40, &s);
	clock_gettime(CLOCK_MONOTONIC, &a);
	r = fit(&s, 0, 200);
	clock_gettime(CLOCK_MONOTONIC, &b);
	sec = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) * 1e-9;
	print_message("10^4 samples, 200 replicates: %.3f s\n", sec);
	assert_true(sec < 10.0);
	assert_int_equal(r.min_seg, 10); /* default: n / 1000 */
	assert_true(r.cache_detected);
	near(r.cache_bytes, 470e6 * 20, 0.01, "cache bytes"); /* 470 MB/s x 20 s */
	drop(&s);
}

static void test_bad_input(void **state)
{
	uint64_t t[40], b[40];
	struct slc_params p;
	struct slc_result r;

	(void)state;
	for (size_t i = 0; i < 40; i++) {
		t[i] = (i + 1) * DT_NS;
		b[i] = (i + 1) * 1000;
	}
	slc_params_default(&p);
	p.min_seg = 30; /* 2 x 30 > 40 */
	assert_int_equal(slc_fit(t, b, NULL, 40, &p, &r), -EINVAL);
	p.min_seg = 5;
	t[10] = t[9]; /* time must increase */
	assert_int_equal(slc_fit(t, b, NULL, 40, &p, &r), -EINVAL);
	t[10] = 11 * DT_NS;
	b[10] = 0; /* bytes must not decrease */
	assert_int_equal(slc_fit(t, b, NULL, 40, &p, &r), -EINVAL);
	b[10] = 11000;
	p.max_levels = 5;
	assert_int_equal(slc_fit(t, b, NULL, 40, &p, &r), -EINVAL);
	p.max_levels = 4;
	assert_int_equal(slc_fit(t, b, NULL, 40, &p, &r), 0);
	assert_int_equal(r.nlevels, 1); /* a straight line */
}

/* reader_slc_series(): the columns by name, a row that does not move time on left out, an empty
 * temperature NaN; no file -ENOENT; a file without total_bytes_written -EBADMSG. */
static void test_reader_series(void **state)
{
	char dir[] = "/tmp/ssdlab-test-slc-XXXXXX", path[256];
	struct reader_slc_series s;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/series", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(reader_slc_series(dir, 2, 0, &s), -ENOENT);
	snprintf(path, sizeof(path), "%s/series/phase-02-rep-00-write_until.csv", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "t_ns,interval_ns,temperature_c,total_bytes_written,round\n"
		   "1000,1000,41.50,4096,1\n"
		   "2000,1000,,8192,1\n"
		   "2000,0,,8192,2\n"
		   "3500,1500,42.00,16384,2\n");
	fclose(f);
	assert_int_equal(reader_slc_series(dir, 2, 0, &s), 0);
	assert_int_equal(s.n, 3);
	assert_true(s.t_ns[0] == 1000 && s.t_ns[1] == 2000 && s.t_ns[2] == 3500);
	assert_true(s.bytes[0] == 4096 && s.bytes[1] == 8192 && s.bytes[2] == 16384);
	assert_true(s.temp_c[0] == 41.5 && isnan(s.temp_c[1]) && s.temp_c[2] == 42.0);
	reader_slc_series_release(&s);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "t_ns,interval_ns\n1000,1000\n");
	fclose(f);
	assert_int_equal(reader_slc_series(dir, 2, 0, &s), -EBADMSG);
	unlink(path);
	snprintf(path, sizeof(path), "%s/series", dir);
	rmdir(path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_two_levels),	  cmocka_unit_test(test_three_levels),
	    cmocka_unit_test(test_sawtooth_one_level), cmocka_unit_test(test_cache_then_sawtooth),
	    cmocka_unit_test(test_no_knee),	  cmocka_unit_test(test_small_drop),
	    cmocka_unit_test(test_throttling),	  cmocka_unit_test(test_large_fast),
	    cmocka_unit_test(test_bad_input), cmocka_unit_test(test_edge_inside_sample),
	    cmocka_unit_test(test_ramp_transition),	  cmocka_unit_test(test_reader_series),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
