/* SPDX-License-Identifier: MIT */
/*
 * ss_early: the early steady-state verdict (the rule and what its confidence means: ss_early.h).
 * Pure: plain arrays in, a plain struct out; the fit is gsl_fit_linear, the scatter floor
 * gsl_stats_sd, the quantile gsl_cdf_tdist_Pinv.
 */
#include "analysis/ss_early.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_statistics_double.h>
#include <json-c/json.h>

#include "base/jsonnum.h"

/* As ss.c: a bound exactly at the limit is within. */
#define SS_EARLY_REL_TOL 1e-9

void ss_early_params_default(struct ss_early_params *e)
{
	e->confidence = SS_EARLY_DEFAULT_CONFIDENCE;
	e->min_rounds = SS_EARLY_DEFAULT_MIN_ROUNDS;
}

int ss_early_params_validate(const struct ss_early_params *e)
{
	if (!e || !(e->confidence > 0.5 && e->confidence < 1) || e->min_rounds < 3)
		return -EINVAL;
	return 0;
}

static bool within(double measured, double allowed)
{
	return measured <= allowed + fabs(allowed) * SS_EARLY_REL_TOL;
}

const char *ss_early_why_name(enum ss_early_why w)
{
	switch (w) {
	case SS_EARLY_OK:
		return "predicted";
	case SS_EARLY_TOO_FEW:
		return "too_few";
	case SS_EARLY_NO_ROOM:
		return "no_room";
	case SS_EARLY_COMPLETE:
		return "complete";
	case SS_EARLY_NONPOSITIVE:
		return "nonpositive";
	case SS_EARLY_DATA:
		return "data";
	case SS_EARLY_SLOPE:
		return "slope";
	}
	return "?";
}

/* The fields a rule that stops early leaves: NaN, so that a reader never takes a 0 for a bound. */
static void result_blank(struct ss_early_result *r, size_t n, unsigned first_round,
			 const struct ss_early_params *e)
{
	memset(r, 0, sizeof(*r));
	r->round = first_round + (unsigned)n - 1;
	r->params = *e;
	r->slope = r->intercept = r->s_resid = r->s_floor = r->s = r->t = NAN;
	r->lo_min = r->hi_max = r->avg_min = NAN;
	r->data_excursion = r->allowed_data_excursion = NAN;
	r->slope_excursion = r->allowed_slope_excursion = NAN;
}

int ss_early_check(const double *y, size_t n, unsigned first_round, const struct ss_params *p,
		   const struct ss_early_params *e, struct ss_early_result *out)
{
	struct ss_early_result r;
	double *x = NULL, *cx = NULL, c0, c1, cov00, cov01, cov11, sumsq, xbar = 0, sxx = 0;
	double wbar, wxx = 0, sum_obs = 0, sum_lo = 0, obs_min = INFINITY, obs_max = -INFINITY;
	double slope_obs = 0, slope_hi, slope_lo;
	unsigned W, k, m;
	const double *yk;
	int rc = 0;

	if (!y || !n || ss_params_validate(p) || ss_early_params_validate(e))
		return -EINVAL;
	result_blank(&r, n, first_round, e);
	W = p->window;
	if (W - 1 < 3) {
		r.why = SS_EARLY_COMPLETE;
		goto done;
	}
	if (n < e->min_rounds || n < 3) {
		r.why = SS_EARLY_TOO_FEW;
		goto done;
	}
	k = n < W - 1 ? (unsigned)n : W - 1;
	m = W - k;
	r.fit_rounds = k;
	r.missing = m;
	r.first_round = r.round - k + 1;
	r.last_round = r.first_round + W - 1;
	/* the SNIA rule stops at max_rounds: a window ending later is never completed */
	if (r.last_round - first_round + 1 > p->max_rounds) {
		r.why = SS_EARLY_NO_ROOM;
		goto done;
	}
	yk = y + (n - k);
	for (unsigned i = 0; i < k; i++) {
		if (!isfinite(yk[i]) || yk[i] <= 0) {
			r.why = SS_EARLY_NONPOSITIVE;
			goto done;
		}
	}
	x = malloc(sizeof(*x) * W);
	cx = malloc(sizeof(*cx) * W);
	if (!x || !cx) {
		rc = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < W; i++)
		x[i] = (double)(r.first_round + i);
	if (gsl_fit_linear(x, 1, yk, 1, k, &c0, &c1, &cov00, &cov01, &cov11, &sumsq) !=
	    GSL_SUCCESS) {
		rc = -EDOM;
		goto out;
	}
	r.intercept = c0;
	r.slope = c1;
	r.s_resid = sqrt(sumsq / (double)(k - 2));
	r.s_floor = gsl_stats_sd(yk, 1, k);
	r.s = r.s_resid > r.s_floor ? r.s_resid : r.s_floor;
	/* Bonferroni: each of the m intervals at 1 - (1 - C) / m, two-sided */
	r.t = gsl_cdf_tdist_Pinv(1 - (1 - e->confidence) / (2.0 * m), (double)(k - 2));
	if (!isfinite(r.t)) {
		rc = -EDOM;
		goto out;
	}
	for (unsigned i = 0; i < k; i++)
		xbar += x[i] / k;
	for (unsigned i = 0; i < k; i++)
		sxx += (x[i] - xbar) * (x[i] - xbar);
	/* the window's own least-squares slope is sum cx[i] y[i] (linear in every value) */
	wbar = x[0] + (W - 1) / 2.0;
	for (unsigned i = 0; i < W; i++)
		wxx += (x[i] - wbar) * (x[i] - wbar);
	for (unsigned i = 0; i < W; i++)
		cx[i] = (x[i] - wbar) / wxx;
	for (unsigned i = 0; i < k; i++) {
		sum_obs += yk[i];
		obs_min = fmin(obs_min, yk[i]);
		obs_max = fmax(obs_max, yk[i]);
		slope_obs += cx[i] * yk[i];
	}
	r.lo_min = INFINITY;
	r.hi_max = -INFINITY;
	slope_hi = slope_lo = slope_obs;
	for (unsigned i = k; i < W; i++) {
		double yhat = c0 + c1 * x[i];
		double se = r.s * sqrt(1 + 1.0 / k + (x[i] - xbar) * (x[i] - xbar) / sxx);
		double lo = yhat - r.t * se, hi = yhat + r.t * se;

		r.lo_min = fmin(r.lo_min, lo);
		r.hi_max = fmax(r.hi_max, hi);
		sum_lo += lo;
		slope_hi += cx[i] * (cx[i] > 0 ? hi : lo);
		slope_lo += cx[i] * (cx[i] > 0 ? lo : hi);
	}
	r.avg_min = (sum_obs + sum_lo) / W;
	if (!(r.lo_min > 0) || !isfinite(r.hi_max) || !(r.avg_min > 0)) {
		r.why = SS_EARLY_NONPOSITIVE;
		goto done;
	}
	r.data_excursion = fmax(obs_max, r.hi_max) - fmin(obs_min, r.lo_min);
	r.allowed_data_excursion = p->max_data_excursion * r.avg_min;
	r.slope_excursion = fmax(fabs(slope_hi), fabs(slope_lo)) * (W - 1);
	r.allowed_slope_excursion = p->max_slope_excursion * r.avg_min;
	if (!within(r.data_excursion, r.allowed_data_excursion))
		r.why = SS_EARLY_DATA;
	else if (!within(r.slope_excursion, r.allowed_slope_excursion))
		r.why = SS_EARLY_SLOPE;
	else
		r.why = SS_EARLY_OK;
done:
	r.predicted = r.why == SS_EARLY_OK;
	*out = r;
out:
	free(cx);
	free(x);
	return rc;
}

int ss_early_scan(const double *y, const bool *guard_ok, size_t n, unsigned first_round,
		  const struct ss_params *p, const struct ss_early_params *e,
		  struct ss_early_result *out)
{
	struct ss_early_result r, last;
	bool judged = false;
	int rc;

	if (!y || !n || ss_params_validate(p) || ss_early_params_validate(e))
		return -EINVAL;
	for (size_t i = 1; i <= n; i++) {
		struct ss_result s;

		/* the runner judges the SNIA rule first: a round where it stops is its verdict */
		rc = ss_check(y, i, first_round, p, &s);
		if (rc)
			return rc;
		if (s.stop)
			break;
		if (guard_ok && !guard_ok[i - 1])
			continue;
		rc = ss_early_check(y, i, first_round, p, e, &r);
		if (rc)
			return rc;
		last = r;
		judged = true;
		if (r.predicted) {
			*out = r;
			return 0;
		}
	}
	if (!judged) {
		result_blank(&last, 1, first_round, e);
		last.round = 0;
		last.why = SS_EARLY_TOO_FEW;
	}
	*out = last;
	return 0;
}

struct json_object *ss_early_params_to_json(const struct ss_early_params *e)
{
	struct json_object *o = json_object_new_object();

	if (o && (jsonnum_add(o, "confidence", jsonnum_new(e->confidence)) ||
		  jsonnum_add(o, "min_rounds", json_object_new_int((int)e->min_rounds)))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int ss_early_params_from_json(struct json_object *o, struct ss_early_params *out)
{
	struct ss_early_params e;
	uint64_t mr;
	int rc;

	if (!o || !json_object_is_type(o, json_type_object))
		return -EINVAL;
	ss_early_params_default(&e);
	rc = jsonnum_get(o, "confidence", &e.confidence);
	if (rc && rc != -ENOENT)
		return -EINVAL;
	rc = jsonnum_get_u64(o, "min_rounds", &mr);
	if (rc && rc != -ENOENT)
		return -EINVAL;
	if (!rc) {
		if (mr > UINT32_MAX)
			return -EINVAL;
		e.min_rounds = (unsigned)mr;
	}
	if (ss_early_params_validate(&e))
		return -EINVAL;
	*out = e;
	return 0;
}
