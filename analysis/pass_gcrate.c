/* SPDX-License-Identifier: MIT */
/*
 * pass_gcrate: the analysis pass for summary.json's "gc_recovery" (the gc-recovery profile's
 * result; docs/results-format.md). For each idle with a steady state before it (pass_ss_before)
 * tracked in MB/s (metric "bw"), the measurements after it (reader_recovery) give the excess
 * bytes (gcrate_excess); with at least GCRATE_MIN_POINTS such idles of at least two lengths, the
 * recovered bytes are fitted against the idle time (gcrate_fit). Times are the target's: on the
 * virtual SSD its own clock (the profile's durations times time_scale), so that the rate is in
 * the model's bytes per second of its own idle time, as its counters count them. A run with
 * fewer idles (the demo's one) gets no key: older summaries stay byte for byte.
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "analysis/gcpower.h"
#include "analysis/gcrate.h"
#include "analysis/reader.h"
#include "base/jsonget.h"
#include "base/jsonnum.h"

/* A fit needs more points than the three parameters of a curve plus one; the profile has 16. */
#define GCRATE_MIN_POINTS 4

struct gc_point {
	const struct reader_idle *idle;
	double scale;	   /* target time per profile time */
	double steady_bps; /* the steady state before the idle */
	int64_t phase;	   /* the first measurement's phase */
	struct gcrate_excess e;
	double recovered; /* gcrate_recovered() */
};

/* A stretch of this many measurements or more is mostly at the fast speed (gcrate_fast_bps). */
#define GCRATE_FAST_MEAS 3

static struct json_object *point_json(const struct gc_point *p, int *e)
{
	struct json_object *o = json_object_new_object();

	jsonnum_build_add(o, "idle_phase", json_object_new_int64(p->idle->phase), e);
	jsonnum_build_add(o, "idle_repeat", json_object_new_int64(p->idle->repeat), e);
	jsonnum_build_add(o, "idle_ns", json_object_new_uint64(p->idle->idle_ns), e);
	jsonnum_build_num(o, "idle_profile_ns", round((double)p->idle->idle_ns / p->scale), e);
	jsonnum_build_add(o, "phase", json_object_new_int64(p->phase), e);
	jsonnum_build_num(o, "steady_bps", p->steady_bps, e);
	jsonnum_build_num(o, "excess_bytes", round(p->e.excess_bytes), e);
	jsonnum_build_num(o, "recovered_bytes", round(p->recovered), e);
	jsonnum_build_num(o, "written_bytes", p->e.written_bytes, e);
	jsonnum_build_num(o, "stretch_ns", p->e.stretch_ns, e);
	jsonnum_build_num(o, "stretch_bps", p->e.stretch_bps, e);
	jsonnum_build_num(o, "first_bps", p->e.first_bps, e);
	jsonnum_build_num(o, "first_excess_bytes", round(p->e.first_excess), e);
	jsonnum_build_add(o, "back", json_object_new_boolean(p->e.back), e);
	jsonnum_build_add(o, "measurements", json_object_new_int64((int64_t)p->e.measurements), e);
	jsonnum_build_add(o, "stretch_measurements",
			  json_object_new_int64((int64_t)p->e.stretch_meas), e);
	return o;
}

/* One model's parameters (bytes, bytes per second, seconds), errors and quality. */
static struct json_object *fit_json(const struct gcrate_fit *f, int *e)
{
	struct json_object *o = json_object_new_object(), *er = json_object_new_object(),
			   *q = json_object_new_object();

	jsonnum_build_add(o, "ok", json_object_new_boolean(f->ok), e);
	jsonnum_build_num(o, "r", f->ok ? f->r : NAN, e);
	jsonnum_build_num(o, "rmax", f->ok ? f->rmax : NAN, e);
	jsonnum_build_num(o, "tau", f->ok ? f->tau : NAN, e);
	jsonnum_build_num(o, "t0", f->ok ? f->t0 : NAN, e);
	jsonnum_build_add(o, "rmax_reached", json_object_new_boolean(f->ok && f->rmax_reached), e);
	jsonnum_build_num(er, "r", f->ok ? f->r_se : NAN, e);
	jsonnum_build_num(er, "rmax", f->ok ? f->rmax_se : NAN, e);
	jsonnum_build_num(er, "tau", f->ok ? f->tau_se : NAN, e);
	jsonnum_build_num(er, "t0", f->ok ? f->t0_se : NAN, e);
	jsonnum_build_add(o, "errors", er, e);
	jsonnum_build_add(q, "parameters", json_object_new_int64(f->ok ? f->k : 0), e);
	jsonnum_build_num(q, "r2", f->ok ? f->r2 : NAN, e);
	jsonnum_build_num(q, "rmse", f->ok ? f->rmse : NAN, e);
	jsonnum_build_num(q, "rss", f->ok ? f->rss : NAN, e);
	jsonnum_build_num(q, "aic", f->ok ? f->aic : NAN, e);
	jsonnum_build_num(q, "bic", f->ok ? f->bic : NAN, e);
	jsonnum_build_add(o, "quality", q, e);
	return o;
}

static int collect(const struct analyze_input *in, struct json_object *ssarr,
		   const struct reader_idle *idle, struct gc_point *out, bool *have)
{
	struct json_object *ss = pass_ss_before(in, ssarr, idle->index);
	const char *cell = ss ? jsonget_str(ss, "cell") : NULL,
		   *metric = ss ? jsonget_str(ss, "metric") : NULL;
	struct reader_recovery pts = {0};
	double avg;
	int rc;

	*have = false;
	if (!ss || !cell || !metric || strcmp(metric, "bw") || jsonnum_get(ss, "average", &avg))
		return 0;
	rc = reader_recovery(&in->records, idle->index, cell, metric, &pts);
	if (rc)
		return rc;
	rc = gcrate_excess(pts.p, pts.n, avg, NULL, &out->e);
	free(pts.p);
	if (rc)
		return rc == -ENODATA || rc == -EINVAL ? 0 : rc;
	out->idle = idle;
	out->steady_bps = avg;
	out->phase = pts.first_phase;
	out->scale = pts.first_scale > 0 ? pts.first_scale : idle->time_scale;
	if (!(out->scale > 0))
		out->scale = 1;
	*have = true;
	return 0;
}

int pass_gcrate(const struct analyze_input *in, struct json_object *summary, char *err,
		size_t errlen)
{
	struct json_object *ssarr = NULL, *o = NULL, *arr, *fits;
	struct reader_idle *idles = NULL;
	struct gc_point *pts = NULL;
	struct gcrate_point *fp = NULL;
	struct gcrate_excess *ex = NULL;
	bool burst;
	struct gcrate_result res, low;
	size_t nidles = 0, n = 0;
	double fast;
	bool distinct = false;
	int rc, e = 0;

	(void)json_object_object_get_ex(summary, "steady_state", &ssarr);
	rc = reader_idles(&in->records, &idles, &nidles);
	if (rc)
		goto out;
	pts = calloc(nidles ? nidles : 1, sizeof(*pts));
	fp = calloc(nidles ? nidles : 1, sizeof(*fp));
	if (!pts || !fp) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nidles; i++) {
		bool have;

		rc = collect(in, ssarr, &idles[i], &pts[n], &have);
		if (rc)
			goto out;
		if (!have)
			continue;
		fp[n].t = (double)idles[i].idle_ns * 1e-9;
		distinct |= n && fp[n].t != fp[0].t;
		n++;
	}
	rc = 0;
	if (n < GCRATE_MIN_POINTS || !distinct)
		goto out; /* not a sweep: no key */
	ex = malloc(n * sizeof(*ex));
	if (!ex) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		ex[i] = pts[i].e;
	fast = gcrate_fast_bps(ex, n, GCRATE_FAST_MEAS);
	for (size_t i = 0; i < n; i++) {
		pts[i].recovered = gcrate_recovered(pts[i].e.excess_bytes, pts[i].steady_bps, fast);
		fp[i].bytes = pts[i].recovered;
	}
	rc = gcrate_fit(fp, n, &res);
	if (rc)
		goto out;
	o = json_object_new_object();
	arr = json_object_new_array();
	for (size_t i = 0; i < n; i++)
		jsonnum_build_push(arr, point_json(&pts[i], &e), &e);
	jsonnum_build_add(o, "points", arr, &e);
	jsonnum_build_add(o, "time_base", json_object_new_string("target"), &e);
	jsonnum_build_num(o, "time_scale", pts[0].scale, &e);
	jsonnum_build_num(o, "fast_bps", fast, &e);
	jsonnum_build_add(o, "recovered",
			  json_object_new_string("excess_bytes * fast_bps / (fast_bps - steady_bps)"),
			  &e);
	jsonnum_build_add(o, "back_rule", json_object_new_string(RECOVERY_RULE_NAME), &e);
	jsonnum_build_add(o, "criterion", json_object_new_string("bic"), &e);
	jsonnum_build_num(o, "bic_evidence", GCRATE_BIC_EVIDENCE, &e);
	burst = res.chosen != GCRATE_NONE && gcrate_burst_only(ex, n, res.fit[res.chosen].rmax);
	jsonnum_build_add(o, "source",
			  json_object_new_string(res.chosen == GCRATE_NONE ? "none"
						 : burst		      ? "cache_refill"
									      : "free_blocks"),
			  &e);
	jsonnum_build_num(o, "cache_refill_bytes", burst ? res.fit[res.chosen].rmax : NAN, &e);
	jsonnum_build_add(o, "model", json_object_new_string(gcrate_model_name(res.chosen)), &e);
	{
		const struct gcrate_fit *f = &res.fit[res.chosen];
		struct json_object *c = fit_json(f, &e), *v;

		/* the chosen model's figures at the top, as the headline reads them */
		static const char *const keys[] = {"r", "rmax", "tau", "t0", "rmax_reached",
						   "errors", "quality"};

		for (size_t k = 0; c && !e && k < sizeof(keys) / sizeof(keys[0]); k++)
			if (json_object_object_get_ex(c, keys[k], &v))
				e = jsonnum_add(o, keys[k], json_object_get(v)); /* v may be null */
		/* a refilled cache is not a GC recovery rate: the fit stays under "fits" */
		if (!e && burst)
			e = jsonnum_add(o, "r", json_object_new_int(0));
		json_object_put(c);
	}
	jsonnum_build_num(o, "delta_bic", res.delta_bic, &e);
	/* the same fit on the excess itself: the bound for a drive that keeps GC going (gcrate.h) */
	for (size_t i = 0; i < n; i++)
		fp[i].bytes = pts[i].e.excess_bytes;
	if (!e && !gcrate_fit(fp, n, &low)) {
		struct json_object *lb = fit_json(&low.fit[low.chosen], &e);

		jsonnum_build_add(lb, "model", json_object_new_string(gcrate_model_name(low.chosen)),
				  &e);
		jsonnum_build_add(o, "excess_fit", lb, &e);
	}
	fits = json_object_new_object();
	for (int m = 0; m < GCRATE_NMODELS; m++)
		jsonnum_build_add(fits, gcrate_model_name((enum gcrate_model)m),
				  fit_json(&res.fit[m], &e), &e);
	jsonnum_build_add(o, "fits", fits, &e);
	jsonnum_build_add(o, "power_states", gcpower_json(in->manifest, &e), &e);
	if (e) {
		rc = e;
		json_object_put(o);
		goto out;
	}
	rc = jsonnum_add(summary, "gc_recovery", o);
out:
	if (rc)
		pass_err(err, errlen, "gc_recovery: %s", strerror(-rc));
	free(idles);
	free(pts);
	free(fp);
	free(ex);
	return rc;
}
