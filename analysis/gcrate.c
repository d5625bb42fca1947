/* SPDX-License-Identifier: MIT */
/* gcrate: see gcrate.h. */
#include "analysis/gcrate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_vector.h>

int gcrate_excess(const struct recovery_point *p, size_t n, double steady_bps,
		  const struct recovery_rule *rule, struct gcrate_excess *out)
{
	const struct recovery_rule def = RECOVERY_RULE_DEFAULT;
	const struct recovery_rule *ru = rule ? rule : &def;
	struct recovery_result rr;
	struct recovery_point *c;
	struct gcrate_excess e = {0};
	double bytes = 0, ns = 0;
	size_t end, last = SIZE_MAX;
	int rc;

	if (!n)
		return -ENODATA;
	if (!(steady_bps > 0))
		return -EINVAL;
	/* back by the project's rule on values clamped at steady state from above: a dip below it
	 * (the GC debt, see gcrate.h) is not elevated, so it counts as in the band */
	c = malloc(n * sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		c[i] = p[i];
		c[i].value = fmax(p[i].value, steady_bps);
	}
	rc = recovery_scan(c, n, steady_bps, ru, &rr);
	free(c);
	if (rc)
		return rc;
	/* the measurements before back: the run's first is rr.measurements - rule.rounds */
	end = rr.back ? rr.measurements - ru->rounds : n;
	for (size_t i = 0; i < end; i++)
		if (p[i].value > steady_bps * (1 + ru->band))
			last = i;
	for (size_t i = 0; last != SIZE_MAX && i <= last; i++) {
		bytes += (double)p[i].write_bytes;
		ns += (double)p[i].write_ns;
	}
	e.stretch_meas = last == SIZE_MAX ? 0 : last + 1;
	e.back = rr.back;
	e.measurements = rr.measurements;
	e.written_bytes = bytes;
	e.stretch_ns = ns;
	e.stretch_bps = ns > 0 ? bytes / (ns * 1e-9) : NAN;
	e.excess_bytes = bytes - steady_bps * ns * 1e-9;
	e.first_bps = p[0].value;
	e.first_write_ns = p[0].write_ns;
	e.first_excess = (double)p[0].write_bytes - steady_bps * (double)p[0].write_ns * 1e-9;
	*out = e;
	return 0;
}

double gcrate_recovered(double excess, double steady_bps, double fast_bps)
{
	if (!(steady_bps > 0) || !(fast_bps >= GCRATE_FAST_MIN_RATIO * steady_bps))
		return excess;
	return excess * fast_bps / (fast_bps - steady_bps);
}

double gcrate_fast_bps(const struct gcrate_excess *e, size_t n, size_t min_meas)
{
	double *v = malloc((n ? n : 1) * sizeof(*v)), best = NAN, med;
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		if (e[i].first_bps > best || isnan(best))
			best = e[i].first_bps;
		if (v && e[i].stretch_meas >= min_meas && e[i].stretch_bps > 0)
			v[m++] = e[i].stretch_bps;
	}
	if (!m) {
		free(v);
		return best;
	}
	gsl_sort(v, 1, m);
	med = gsl_stats_median_from_sorted_data(v, 1, m);
	free(v);
	return med;
}

bool gcrate_burst_only(const struct gcrate_excess *e, size_t n, double rmax)
{
	double *v, med;

	if (!n || !isfinite(rmax))
		return false;
	v = malloc(n * sizeof(*v));
	if (!v)
		return false;
	for (size_t i = 0; i < n; i++)
		v[i] = e[i].first_excess;
	gsl_sort(v, 1, n);
	med = gsl_stats_median_from_sorted_data(v, 1, n);
	free(v);
	return rmax <= GCRATE_BURST_FACTOR * med;
}

const char *gcrate_model_name(enum gcrate_model m)
{
	static const char *const names[GCRATE_NMODELS] = {"none", "linear_capped", "exponential"};

	return (unsigned)m < GCRATE_NMODELS ? names[m] : "?";
}

/* ---- shared ---------------------------------------------------------------------------------- */

/* Points sorted by t and scaled to about 1 (t by the largest idle, bytes by the largest |R|), so
 * that the solver's tolerances mean the same for a 4 GiB model and a 4 TB drive. */
struct data {
	size_t n;
	double *t, *y;
	double ts, ys; /* scales: t = t_s * ts, bytes = y_s * ys */
};

static int cmp_point(const void *a, const void *b)
{
	const struct gcrate_point *x = a, *y = b;

	return (x->t > y->t) - (x->t < y->t);
}

static void quality(struct gcrate_fit *f, const struct data *d, double rss, double tss)
{
	double n = (double)d->n, floor = 1e-300;

	f->rss = rss;
	f->r2 = tss > 0 ? 1 - rss / tss : NAN;
	f->rmse = sqrt(rss / n);
	/* a perfect fit (synthetic data without noise) would give ln 0 */
	f->aic = n * log(fmax(rss, floor) / n) + 2.0 * f->k;
	f->bic = n * log(fmax(rss, floor) / n) + f->k * log(n);
}

/* Unscales a fit's parameters and errors (bytes and seconds). */
static void unscale(struct gcrate_fit *f, const struct data *d)
{
	f->r *= d->ys / d->ts;
	f->r_se *= d->ys / d->ts;
	f->rmax *= d->ys;
	f->rmax_se *= d->ys;
	f->tau *= d->ts;
	f->tau_se *= d->ts;
	f->t0 *= d->ts;
	f->t0_se *= d->ts;
	f->rss *= d->ys * d->ys;
	f->rmse *= d->ys;
	/* AIC and BIC shift by the same n ln(ys^2) for every model: differences are unchanged */
	f->aic += (double)d->n * log(d->ys * d->ys);
	f->bic += (double)d->n * log(d->ys * d->ys);
}

static void fit_none(const struct data *d, double tss, struct gcrate_fit *f)
{
	*f = (struct gcrate_fit){.ok = true, .k = 1, .r = 0, .r_se = NAN, .rmax = NAN,
				 .rmax_se = NAN, .tau = NAN, .tau_se = NAN, .t0 = NAN, .t0_se = NAN};
	quality(f, d, tss, tss);
	f->r2 = 0;
}

/* ---- linear-capped, profiled over the kink --------------------------------------------------- */

static double capped(double t, double r, double t0, double rmax, bool cap)
{
	double v = r * (t - t0);

	if (v < 0)
		return 0;
	return cap && v > rmax ? rmax : v;
}

/*
 * Points [0, j) carry the line, [j, n) the plateau (none when j = n). The line is GSL's least
 * squares through the lower points; t0 is where it crosses zero; Rmax the mean of the upper
 * points. The split's RSS is that of the whole capped model (points below t0 predicted 0), so a
 * split whose line crosses the plateau far from the boundary is judged by what it predicts.
 */
static void fit_linear(const struct data *d, struct gcrate_fit *best, double tss)
{
	double *w = malloc(d->n * sizeof(*w));
	double best_rss = INFINITY, c00 = 0, c01 = 0, c11 = 0, a = 0;
	size_t best_j = 0;

	*best = (struct gcrate_fit){.ok = false};
	if (!w)
		return;
	for (size_t i = 0; i < d->n; i++)
		w[i] = 1;
	for (size_t j = 2; j <= d->n; j++) {
		double ca, cb, v00, v01, v11, sumsq, rmax = NAN, rss = 0;
		bool cap = j < d->n;

		if (!(d->t[j - 1] > d->t[0]))
			continue; /* one distinct t: no line */
		if (gsl_fit_wlinear(d->t, 1, w, 1, d->y, 1, j, &ca, &cb, &v00, &v01, &v11, &sumsq))
			continue;
		if (!(cb > 0))
			continue;
		if (cap) {
			rmax = gsl_stats_mean(d->y + j, 1, d->n - j);
			if (!(rmax > 0))
				continue;
		}
		for (size_t i = 0; i < d->n; i++) {
			double e = d->y[i] - capped(d->t[i], cb, -ca / cb, rmax, cap);

			rss += e * e;
		}
		if (rss < best_rss) {
			best_rss = rss;
			best_j = j;
			best->r = cb;
			best->t0 = -ca / cb;
			best->rmax = rmax;
			best->rmax_reached = cap;
			a = ca;
			c00 = v00;
			c01 = v01;
			c11 = v11;
		}
	}
	free(w);
	if (!best_j)
		return;
	best->ok = true;
	best->k = best->rmax_reached ? 3 : 2;
	best->tau = NAN;
	best->tau_se = NAN;
	quality(best, d, best_rss, tss);
	{
		/* gsl_fit_wlinear's covariance with unit weights is (X'X)^-1: scale it by the
		 * residual variance of the whole model */
		double dof = (double)d->n - best->k, s2 = dof > 0 ? best_rss / dof : NAN;
		double b = best->r;

		best->r_se = sqrt(s2 * c11);
		/* t0 = -a / b by the delta method */
		best->t0_se = sqrt(s2 * (c00 / (b * b) + a * a * c11 / (b * b * b * b) -
					 2 * a * c01 / (b * b * b)));
		best->rmax_se = best->rmax_reached ? sqrt(s2 / (double)(d->n - best_j)) : NAN;
	}
}

/* ---- exponential, by gsl_multifit_nlinear ---------------------------------------------------- */

/* x = (Rmax, tau, t0) */
static int exp_f(const gsl_vector *x, void *data, gsl_vector *f)
{
	const struct data *d = data;
	double rmax = gsl_vector_get(x, 0), tau = gsl_vector_get(x, 1), t0 = gsl_vector_get(x, 2);

	for (size_t i = 0; i < d->n; i++) {
		double dt = d->t[i] - t0;
		double m = dt > 0 ? rmax * -expm1(-dt / tau) : 0;

		gsl_vector_set(f, i, m - d->y[i]);
	}
	return GSL_SUCCESS;
}

static int exp_df(const gsl_vector *x, void *data, gsl_matrix *J)
{
	const struct data *d = data;
	double rmax = gsl_vector_get(x, 0), tau = gsl_vector_get(x, 1), t0 = gsl_vector_get(x, 2);

	for (size_t i = 0; i < d->n; i++) {
		double dt = d->t[i] - t0, e = dt > 0 ? exp(-dt / tau) : 1;

		gsl_matrix_set(J, i, 0, dt > 0 ? -expm1(-dt / tau) : 0);
		gsl_matrix_set(J, i, 1, dt > 0 ? -rmax * e * dt / (tau * tau) : 0);
		gsl_matrix_set(J, i, 2, dt > 0 ? -rmax * e / tau : 0);
	}
	return GSL_SUCCESS;
}

/* One solve from (rmax0, tau0, 0); 0 with the fit in *f, or -1. */
static int exp_solve(const struct data *d, double rmax0, double tau0, struct gcrate_fit *f,
		     double tss)
{
	gsl_multifit_nlinear_parameters prm = gsl_multifit_nlinear_default_parameters();
	gsl_multifit_nlinear_fdf fdf = {.f = exp_f, .df = exp_df, .n = d->n, .p = 3,
					.params = (void *)d};
	gsl_multifit_nlinear_workspace *w = NULL;
	gsl_matrix *cov = gsl_matrix_alloc(3, 3);
	gsl_vector *x0 = gsl_vector_alloc(3);
	int info, ret = -1;
	double rss, s2;

	if (!cov || !x0)
		goto out;
	w = gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &prm, d->n, 3);
	if (!w)
		goto out;
	gsl_vector_set(x0, 0, rmax0);
	gsl_vector_set(x0, 1, tau0);
	gsl_vector_set(x0, 2, 0);
	if (gsl_multifit_nlinear_init(x0, &fdf, w) ||
	    gsl_multifit_nlinear_driver(200, 1e-10, 1e-10, 0, NULL, NULL, &info, w))
		goto out;
	{
		const gsl_vector *x = gsl_multifit_nlinear_position(w);
		double nrm;

		*f = (struct gcrate_fit){.ok = true, .k = 3, .rmax_reached = true};
		f->rmax = gsl_vector_get(x, 0);
		f->tau = gsl_vector_get(x, 1);
		f->t0 = gsl_vector_get(x, 2);
		if (!(f->tau > 0) || !(f->rmax > 0) || !isfinite(f->t0))
			goto out;
		nrm = gsl_blas_dnrm2(gsl_multifit_nlinear_residual(w));
		rss = nrm * nrm;
	}
	if (gsl_multifit_nlinear_covar(gsl_multifit_nlinear_jac(w), 0.0, cov))
		goto out;
	s2 = d->n > 3 ? rss / (double)(d->n - 3) : NAN;
	f->rmax_se = sqrt(s2 * gsl_matrix_get(cov, 0, 0));
	f->tau_se = sqrt(s2 * gsl_matrix_get(cov, 1, 1));
	f->t0_se = sqrt(s2 * gsl_matrix_get(cov, 2, 2));
	f->r = f->rmax / f->tau;
	{
		/* r = Rmax / tau by the delta method */
		double g0 = 1 / f->tau, g1 = -f->rmax / (f->tau * f->tau);

		f->r_se = sqrt(s2 * (g0 * g0 * gsl_matrix_get(cov, 0, 0) +
				     g1 * g1 * gsl_matrix_get(cov, 1, 1) +
				     2 * g0 * g1 * gsl_matrix_get(cov, 0, 1)));
	}
	quality(f, d, rss, tss);
	ret = 0;
out:
	gsl_multifit_nlinear_free(w);
	gsl_matrix_free(cov);
	gsl_vector_free(x0);
	return ret;
}

/* Several starting tau over the span of the idles (log-spaced): the RSS surface in tau has a
 * flat side (tau far below the shortest idle: every point on the plateau) where LM stalls. */
static void fit_exp(const struct data *d, struct gcrate_fit *best, double tss)
{
	double ymax = gsl_stats_max(d->y, 1, d->n), lo = d->t[0] > 0 ? d->t[0] : d->t[d->n - 1] / 1e3;

	*best = (struct gcrate_fit){.ok = false};
	if (!(ymax > 0))
		return;
	for (int i = 0; i < 7; i++) {
		double tau0 = lo * pow(d->t[d->n - 1] / lo, i / 6.0);
		struct gcrate_fit f;

		if (exp_solve(d, ymax, tau0, &f, tss))
			continue;
		if (!best->ok || f.rss < best->rss)
			*best = f;
	}
}

int gcrate_fit(const struct gcrate_point *p, size_t n, struct gcrate_result *out)
{
	struct gcrate_result r = {.n = n, .chosen = GCRATE_NONE, .delta_bic = NAN};
	struct gcrate_point *s = NULL;
	struct data d = {.n = n};
	double tss, best = INFINITY, second = INFINITY;
	int ret = -EINVAL;

	if (n < 4)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(p[i].t) || p[i].t < 0 || !isfinite(p[i].bytes))
			return -EINVAL;
	s = malloc(n * sizeof(*s));
	d.t = malloc(n * sizeof(*d.t));
	d.y = malloc(n * sizeof(*d.y));
	if (!s || !d.t || !d.y) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(s, p, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_point);
	if (!(s[n - 1].t > s[0].t))
		goto out;
	d.ts = s[n - 1].t;
	d.ys = 0;
	for (size_t i = 0; i < n; i++)
		d.ys = fmax(d.ys, fabs(s[i].bytes));
	if (!(d.ys > 0))
		d.ys = 1;
	for (size_t i = 0; i < n; i++) {
		d.t[i] = s[i].t / d.ts;
		d.y[i] = s[i].bytes / d.ys;
	}
	tss = gsl_stats_tss(d.y, 1, n);
	fit_none(&d, tss, &r.fit[GCRATE_NONE]);
	fit_linear(&d, &r.fit[GCRATE_LINEAR_CAPPED], tss);
	fit_exp(&d, &r.fit[GCRATE_EXPONENTIAL], tss);
	for (int m = 0; m < GCRATE_NMODELS; m++)
		if (r.fit[m].ok)
			unscale(&r.fit[m], &d);
	/* the better curve by BIC; it must beat "none" by more than GCRATE_BIC_EVIDENCE */
	for (int m = GCRATE_LINEAR_CAPPED; m < GCRATE_NMODELS; m++)
		if (r.fit[m].ok && r.fit[m].bic < best) {
			best = r.fit[m].bic;
			r.chosen = (enum gcrate_model)m;
		}
	if (r.chosen != GCRATE_NONE && !(r.fit[GCRATE_NONE].bic - best > GCRATE_BIC_EVIDENCE))
		r.chosen = GCRATE_NONE;
	for (int m = 0; m < GCRATE_NMODELS; m++)
		if (m != (int)r.chosen && r.fit[m].ok && r.fit[m].bic - r.fit[r.chosen].bic < second)
			second = r.fit[m].bic - r.fit[r.chosen].bic;
	r.delta_bic = isfinite(second) ? second : NAN;
	*out = r;
	ret = 0;
out:
	free(s);
	free(d.t);
	free(d.y);
	return ret;
}
