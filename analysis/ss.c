/* SPDX-License-Identifier: MIT */
/*
 * ss: SNIA steady-state detection (see ss.h for the rule and its sources). Pure: plain arrays
 * in, a plain struct out; the least-squares fit is GSL's gsl_fit_linear.
 */
#include "analysis/ss.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <json-c/json.h>

#include "base/jsonnum.h"

/* A window exactly at the limit when computed by hand in decimal is within (ss.h). */
#define SS_REL_TOL 1e-9

/* The largest window we accept: the x array of the fit lives on the stack. */
#define SS_MAX_WINDOW 1024

void ss_params_default(struct ss_params *p)
{
	p->window = SS_DEFAULT_WINDOW;
	p->max_data_excursion = SS_DEFAULT_MAX_DATA_EXCURSION;
	p->max_slope_excursion = SS_DEFAULT_MAX_SLOPE_EXCURSION;
	p->max_rounds = SS_DEFAULT_MAX_ROUNDS;
}

static int fraction_ok(double f)
{
	return isfinite(f) && f > 0 && f <= 10;
}

int ss_params_validate(const struct ss_params *p)
{
	if (!p || p->window < 2 || p->window > SS_MAX_WINDOW || p->max_rounds < p->window)
		return -EINVAL;
	if (!fraction_ok(p->max_data_excursion) || !fraction_ok(p->max_slope_excursion))
		return -EINVAL;
	return 0;
}

static int within(double measured, double allowed)
{
	return measured <= allowed + fabs(allowed) * SS_REL_TOL;
}

/*
 * Judges the w values ending at y[end - 1] (end >= 1); `rounds` is how many rounds have been
 * seen in total (for the verdict against max_rounds).
 */
static int judge(const double *y, size_t end, size_t rounds, unsigned first_round,
		 const struct ss_params *p, struct ss_result *out)
{
	double x[SS_MAX_WINDOW];
	struct ss_result r;
	size_t w = end < p->window ? end : p->window;
	const double *yw = y + (end - w);
	double sum = 0, c0, c1, cov00, cov01, cov11, sumsq;
	int finite = 1;

	memset(&r, 0, sizeof(r));
	r.params = *p;
	r.rounds = (unsigned)rounds;
	r.window = (unsigned)w;
	r.first_round = first_round + (unsigned)(end - w);
	r.last_round = first_round + (unsigned)end - 1;
	r.min = yw[0];
	r.max = yw[0];
	for (size_t i = 0; i < w; i++) {
		if (!isfinite(yw[i]))
			finite = 0;
		sum += yw[i];
		if (yw[i] < r.min)
			r.min = yw[i];
		if (yw[i] > r.max)
			r.max = yw[i];
		x[i] = (double)(r.first_round + i);
	}
	r.average = sum / (double)w;
	r.data_excursion = r.max - r.min;
	r.allowed_data_excursion = p->max_data_excursion * r.average;
	r.allowed_slope_excursion = p->max_slope_excursion * r.average;
	if (w >= 2 && finite) {
		if (gsl_fit_linear(x, 1, yw, 1, w, &c0, &c1, &cov00, &cov01, &cov11, &sumsq) !=
		    GSL_SUCCESS)
			return -EDOM;
		r.intercept = c0;
		r.slope = c1;
	} else {
		r.intercept = yw[0];
		r.slope = 0;
	}
	r.slope_excursion = fabs(r.slope) * (double)(w - 1);

	/* A non-positive or non-finite average cannot be judged (ss.h): never steady. */
	if (finite && r.average > 0) {
		r.data_ok = within(r.data_excursion, r.allowed_data_excursion);
		r.slope_ok = within(r.slope_excursion, r.allowed_slope_excursion);
	}
	if (w < p->window)
		r.verdict = SS_TOO_FEW;
	else if (r.data_ok && r.slope_ok)
		r.verdict = SS_REACHED;
	else if (rounds >= p->max_rounds)
		r.verdict = SS_NOT_REACHED;
	else
		r.verdict = SS_NOT_YET;
	/* Fewer rounds than the window but already at max_rounds cannot happen (validated). */
	r.reached = r.verdict == SS_REACHED;
	r.stop = r.verdict == SS_REACHED || r.verdict == SS_NOT_REACHED;
	*out = r;
	return 0;
}

int ss_check(const double *y, size_t n, unsigned first_round, const struct ss_params *p,
	     struct ss_result *r)
{
	if (!y || !n || !r || ss_params_validate(p))
		return -EINVAL;
	return judge(y, n, n, first_round, p, r);
}

int ss_scan(const double *y, size_t n, unsigned first_round, const struct ss_params *p,
	    struct ss_result *r)
{
	struct ss_result cur;
	int rc;

	if (!y || !n || !r || ss_params_validate(p))
		return -EINVAL;
	for (size_t end = p->window; end <= n; end++) {
		rc = judge(y, end, end, first_round, p, &cur);
		if (rc)
			return rc;
		if (cur.reached) {
			/* The runner stopped here; later rounds do not change the answer. */
			*r = cur;
			return 0;
		}
	}
	return judge(y, n, n, first_round, p, r);
}

const char *ss_verdict_name(enum ss_verdict v)
{
	switch (v) {
	case SS_TOO_FEW:
		return "too_few";
	case SS_NOT_YET:
		return "not_yet";
	case SS_REACHED:
		return "reached";
	case SS_NOT_REACHED:
		return "not_reached";
	}
	return "unknown";
}

struct json_object *ss_params_to_json(const struct ss_params *p)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (jsonnum_add(o, "window", jsonnum_new(p->window)) ||
	    jsonnum_add(o, "max_data_excursion", jsonnum_new(p->max_data_excursion)) ||
	    jsonnum_add(o, "max_slope_excursion", jsonnum_new(p->max_slope_excursion)) ||
	    jsonnum_add(o, "max_rounds", jsonnum_new(p->max_rounds))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* Optional members: absent keeps the default; present must be a number of the right kind. */
static int get_uint(struct json_object *o, const char *k, unsigned *v)
{
	uint64_t u;
	int rc = jsonnum_get_u64(o, k, &u);

	if (rc == -ENOENT)
		return 0;
	if (rc || u > UINT32_MAX)
		return -EINVAL;
	*v = (unsigned)u;
	return 0;
}

static int get_frac(struct json_object *o, const char *k, double *v)
{
	int rc = jsonnum_get(o, k, v);

	return rc == -ENOENT ? 0 : rc;
}

int ss_params_from_json(struct json_object *o, struct ss_params *out)
{
	struct ss_params p;

	if (!o || !json_object_is_type(o, json_type_object))
		return -EINVAL;
	ss_params_default(&p);
	if (get_uint(o, "window", &p.window) || get_uint(o, "max_rounds", &p.max_rounds) ||
	    get_frac(o, "max_data_excursion", &p.max_data_excursion) ||
	    get_frac(o, "max_slope_excursion", &p.max_slope_excursion))
		return -EINVAL;
	if (ss_params_validate(&p))
		return -EINVAL;
	*out = p;
	return 0;
}

struct json_object *ss_result_to_json(const struct ss_result *r)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (jsonnum_add(o, "verdict", json_object_new_string(ss_verdict_name(r->verdict))) ||
	    jsonnum_add(o, "reached", json_object_new_boolean(r->reached)) ||
	    jsonnum_add(o, "rounds", jsonnum_new(r->rounds)) ||
	    jsonnum_add(o, "window", jsonnum_new(r->window)) ||
	    jsonnum_add(o, "first_round", jsonnum_new(r->first_round)) ||
	    jsonnum_add(o, "last_round", jsonnum_new(r->last_round)) ||
	    jsonnum_add(o, "average", jsonnum_new(r->average)) ||
	    jsonnum_add(o, "min", jsonnum_new(r->min)) ||
	    jsonnum_add(o, "max", jsonnum_new(r->max)) ||
	    jsonnum_add(o, "data_excursion", jsonnum_new(r->data_excursion)) ||
	    jsonnum_add(o, "allowed_data_excursion", jsonnum_new(r->allowed_data_excursion)) ||
	    jsonnum_add(o, "data_ok", json_object_new_boolean(r->data_ok)) ||
	    jsonnum_add(o, "slope", jsonnum_new(r->slope)) ||
	    jsonnum_add(o, "intercept", jsonnum_new(r->intercept)) ||
	    jsonnum_add(o, "slope_excursion", jsonnum_new(r->slope_excursion)) ||
	    jsonnum_add(o, "allowed_slope_excursion", jsonnum_new(r->allowed_slope_excursion)) ||
	    jsonnum_add(o, "slope_ok", json_object_new_boolean(r->slope_ok)) ||
	    jsonnum_add(o, "params", ss_params_to_json(&r->params))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
