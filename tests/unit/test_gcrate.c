/* SPDX-License-Identifier: MIT */
/*
 * test_gcrate: the GC recovery rate (analysis/gcrate.h). The excess bytes after an idle on a
 * hand-worked series, the correction for GC paused while free blocks last, a cache refill told
 * from a GC stretch; then the fits on synthetic sweeps drawn from each model with Gaussian
 * noise (GSL's generator, 20 seeds each): the generating model is the one chosen, and its
 * parameters come back within the tolerances stated in the table; a sweep with no recovery
 * chooses "none" (rate 0); too few points or a negative idle are refused.
 *
 * The sweep is the gc-recovery profile's: 8 idles log-spaced from 5 s to 3 h, each twice.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "analysis/gcrate.h"

#define NIDLE 8
#define NPTS (2 * NIDLE)
#define SEEDS 20

/* 5 s to 10800 s, log-spaced: 5 * 2160^(i/7) */
static double idle_s(int i)
{
	return 5.0 * pow(10800.0 / 5.0, i / (NIDLE - 1.0));
}

static void test_excess(void **state)
{
	/* steady state 100 B/s; each point wrote for 1 s. Back (3 in a row within 10 %) at the
	 * third point: before it 400 + 300 bytes in 2 s, against 200 at steady state: 500. */
	const struct recovery_point p[] = {
	    {400, 1, 1000000000, 400}, {300, 2, 1000000000, 300}, {105, 3, 1000000000, 105},
	    {98, 4, 1000000000, 98},   {100, 5, 1000000000, 100},
	};
	/* never back: the whole series counts, 400 + 300 + 200 - 3 * 100 = 600 */
	const struct recovery_point q[] = {
	    {400, 1, 1000000000, 400}, {300, 2, 1000000000, 300}, {200, 3, 1000000000, 200}};
	/* a dip below steady state after the stretch (GC facing fuller blocks) is not subtracted:
	 * back at the fourth point, the last above the band the second: 500 again */
	const struct recovery_point dip[] = {
	    {400, 1, 1000000000, 400}, {300, 2, 1000000000, 300}, {50, 3, 1000000000, 50},
	    {100, 4, 1000000000, 100}, {100, 5, 1000000000, 100}, {100, 6, 1000000000, 100}};
	/* nothing above the band: nothing recovered */
	const struct recovery_point flat[] = {
	    {105, 1, 1000000000, 105}, {95, 2, 1000000000, 95}, {100, 3, 1000000000, 100}};
	struct gcrate_excess e;

	(void)state;
	assert_int_equal(gcrate_excess(dip, 6, 100, NULL, &e), 0);
	assert_true(e.back);
	assert_true(fabs(e.excess_bytes - 500) < 1e-9);
	assert_int_equal(gcrate_excess(flat, 3, 100, NULL, &e), 0);
	assert_true(e.excess_bytes == 0 && e.written_bytes == 0);
	assert_int_equal(gcrate_excess(p, 5, 100, NULL, &e), 0);
	assert_true(e.back);
	assert_true(fabs(e.excess_bytes - 500) < 1e-9);
	assert_true(fabs(e.written_bytes - 700) < 1e-9);
	assert_true(fabs(e.stretch_ns - 2e9) < 1e-3);
	assert_true(fabs(e.stretch_bps - 350) < 1e-9);
	assert_int_equal(gcrate_excess(q, 3, 100, NULL, &e), 0);
	assert_false(e.back);
	assert_true(fabs(e.excess_bytes - 600) < 1e-9);
	assert_int_equal(gcrate_excess(p, 0, 100, NULL, &e), -ENODATA);
	assert_int_equal(gcrate_excess(p, 5, 0, NULL, &e), -EINVAL);
}

/* The correction for a drive that stops GC while it spends recovered blocks, by hand: F = 100
 * written at 1000 B/s while steady state is 100 B/s leaves an excess of 100 - 100 * 0.1 = 90. */
static void test_recovered(void **state)
{
	struct gcrate_excess e[4] = {
	    {.stretch_meas = 1, .stretch_bps = 900, .first_bps = 950},
	    {.stretch_meas = 3, .stretch_bps = 600, .first_bps = 700},
	    {.stretch_meas = 5, .stretch_bps = 620, .first_bps = 700},
	    {.stretch_meas = 4, .stretch_bps = 640, .first_bps = 700},
	};

	(void)state;
	assert_true(fabs(gcrate_recovered(90, 100, 1000) - 100) < 1e-9);
	/* fast under twice the steady state: no correction */
	assert_true(gcrate_recovered(90, 100, 150) == 90);
	assert_true(gcrate_recovered(90, 0, 1000) == 90);
	/* the median stretch speed of stretches of 3 or more: 600, 620, 640 */
	assert_true(fabs(gcrate_fast_bps(e, 4, 3) - 620) < 1e-9);
	/* none long enough: the largest first measurement */
	assert_true(fabs(gcrate_fast_bps(e, 4, 6) - 950) < 1e-9);
	assert_true(isnan(gcrate_fast_bps(e, 0, 3)));
}

/* A cache refill against a GC stretch: first-measurement excesses 7, 7, 8, 9 MB (median 7.5);
 * a plateau of 9 MB is within 1.5 x 7.5, one of 297 MB is not. */
static void test_burst(void **state)
{
	struct gcrate_excess e[4] = {
	    {.first_excess = 7e6}, {.first_excess = 9e6}, {.first_excess = 7e6}, {.first_excess = 8e6}};

	(void)state;
	assert_true(gcrate_burst_only(e, 4, 9e6));
	assert_false(gcrate_burst_only(e, 4, 297e6));
	assert_false(gcrate_burst_only(e, 4, NAN));
	assert_false(gcrate_burst_only(e, 0, 9e6));
}

struct mcase {
	const char *what;
	enum gcrate_model model;
	double r, rmax, tau, t0; /* bytes/s, bytes, s, s (r of the exponential: rmax / tau) */
	double noise;		 /* sd of the Gaussian noise, bytes */
	/* tolerances: r, rmax and tau relative; t0 absolute (seconds) */
	double tol_r, tol_rmax, tol_tau, tol_t0;
};

static double model_value(const struct mcase *c, double t)
{
	double dt = t - c->t0, v;

	if (dt <= 0)
		return 0;
	switch (c->model) {
	case GCRATE_LINEAR_CAPPED:
		v = c->r * dt;
		return v < c->rmax ? v : c->rmax;
	case GCRATE_EXPONENTIAL:
		return c->rmax * (1 - exp(-dt / c->tau));
	default:
		return 0;
	}
}

static void sweep(const struct mcase *c, gsl_rng *rng, struct gcrate_point *p)
{
	for (int k = 0; k < NPTS; k++) {
		double t = idle_s(k % NIDLE);

		p[k].t = t;
		p[k].bytes = model_value(c, t) + gsl_ran_gaussian(rng, c->noise);
	}
}

static void test_models(void **state)
{
	/* 1 GB recoverable at 0.5 MB/s (the plateau from 2020 s), after a 20 s onset; noise
	 * 0.5 % of Rmax. The exponential: the same Rmax, tau 600 s. */
	static const struct mcase cases[] = {
	    {"linear-capped", GCRATE_LINEAR_CAPPED, 0.5e6, 1e9, NAN, 20, 5e6, 0.05, 0.02, 0, 12},
	    {"exponential", GCRATE_EXPONENTIAL, 1e9 / 600, 1e9, 600, 20, 5e6, 0.10, 0.03, 0.10, 15},
	    /* a fast GC: the plateau from 245 s, three idles on the slope */
	    {"linear-capped fast", GCRATE_LINEAR_CAPPED, 4e6, 1e9, NAN, 5, 5e6, 0.08, 0.02, 0, 4},
	};
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	(void)state;
	assert_non_null(rng);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct mcase *c = &cases[i];

		for (unsigned long seed = 1; seed <= SEEDS; seed++) {
			struct gcrate_point p[NPTS];
			struct gcrate_result r;
			const struct gcrate_fit *f;

			gsl_rng_set(rng, seed);
			sweep(c, rng, p);
			assert_int_equal(gcrate_fit(p, NPTS, &r), 0);
			if (r.chosen != c->model)
				fail_msg("%s seed %lu: chose %s", c->what, seed,
					 gcrate_model_name(r.chosen));
			f = &r.fit[c->model];
			if (fabs(f->r / c->r - 1) > c->tol_r || fabs(f->rmax / c->rmax - 1) > c->tol_rmax ||
			    fabs(f->t0 - c->t0) > c->tol_t0 ||
			    (c->model == GCRATE_EXPONENTIAL && fabs(f->tau / c->tau - 1) > c->tol_tau))
				fail_msg("%s seed %lu: r %.4g rmax %.4g tau %.4g t0 %.4g", c->what,
					 seed, f->r, f->rmax, f->tau, f->t0);
			/* standard errors exist and are of the noise's order, not wild */
			assert_true(f->r_se > 0 && f->r_se < 0.2 * c->r);
			assert_true(f->rmax_se > 0 && f->rmax_se < 0.05 * c->rmax);
			assert_true(isfinite(f->t0_se));
			assert_true(f->r2 > 0.99);
			assert_true(f->rmse < 3 * c->noise);
			assert_true(r.delta_bic > GCRATE_BIC_EVIDENCE);
			assert_true(f->rmax_reached);
		}
	}
	gsl_rng_free(rng);
}

/* No idle GC: the excess bytes are noise around 0 (the rounds' scatter). */
static void test_none(void **state)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	unsigned none = 0;

	(void)state;
	for (unsigned long seed = 1; seed <= SEEDS; seed++) {
		struct gcrate_point p[NPTS];
		struct gcrate_result r;

		gsl_rng_set(rng, seed);
		for (int k = 0; k < NPTS; k++) {
			p[k].t = idle_s(k % NIDLE);
			p[k].bytes = gsl_ran_gaussian(rng, 5e6);
		}
		assert_int_equal(gcrate_fit(p, NPTS, &r), 0);
		none += r.chosen == GCRATE_NONE;
		/* whatever is chosen, what it recovers is of the noise's order */
		assert_true(r.chosen == GCRATE_NONE || r.fit[r.chosen].rmax < 3 * 5e6);
	}
	/* BIC's penalty: at most a few noise sweeps pass for a curve */
	assert_true(none >= SEEDS - 3);
	gsl_rng_free(rng);
}

static void test_bad(void **state)
{
	struct gcrate_point p[4] = {{5, 1}, {15, 2}, {45, 3}, {135, 4}};
	struct gcrate_result r;

	(void)state;
	assert_int_equal(gcrate_fit(p, 3, &r), -EINVAL);
	p[1].t = -1;
	assert_int_equal(gcrate_fit(p, 4, &r), -EINVAL);
	p[1].t = NAN;
	assert_int_equal(gcrate_fit(p, 4, &r), -EINVAL);
	for (int i = 0; i < 4; i++)
		p[i].t = 5; /* one idle time: nothing to fit against */
	assert_int_equal(gcrate_fit(p, 4, &r), -EINVAL);
	assert_string_equal(gcrate_model_name(GCRATE_EXPONENTIAL), "exponential");
	assert_string_equal(gcrate_model_name(GCRATE_LINEAR_CAPPED), "linear_capped");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_excess),
	    cmocka_unit_test(test_recovered),
	    cmocka_unit_test(test_burst),
	    cmocka_unit_test(test_models),
	    cmocka_unit_test(test_none),
	    cmocka_unit_test(test_bad),
	};

	gsl_set_error_handler_off();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
