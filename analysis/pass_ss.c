/* SPDX-License-Identifier: MIT */
/*
 * pass_ss: the analysis pass for summary.json's "steady_state": per tracked series declared in the
 * manifest, ss_scan() over the rounds of its cell (analysis/ss.h). A pass of analyze.c's table
 * (pass.h).
 */
#include "analysis/pass.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "analysis/reader.h"
#include "analysis/ss.h"
#include "analysis/ss_early.h"
#include "analysis/wa_guard.h"

/* Copies every member of src into dst (taking references), in src's order. */
static int merge_into(struct json_object *dst, struct json_object *src)
{
	json_object_object_foreach(src, key, val)
	{
		if (jsonnum_add(dst, key, json_object_get(val)))
			return -ENOMEM;
	}
	return 0;
}

/* The WA guard of a tracked series (analysis/wa_guard.h, docs/fast-steady-state.md). */
struct guard {
	bool on;		      /* a sprandom fill in the manifest before the tracked phase */
	double alpha, expected;	      /* the fill's alpha, 1 / (1 - alpha) */
	struct wa_guard_round *round; /* n */
	enum wa_guard_state *state;   /* n */
	struct wa_guard_replay_result replay;
};

static void guard_release(struct guard *g)
{
	free(g->round);
	free(g->state);
}

/* The alpha of the last sprandom fill of the manifest before `phase`; NaN when none. */
static double guard_alpha(struct json_object *manifest, int64_t phase)
{
	struct json_object *a, *in;
	int64_t p;
	double alpha = NAN;

	if (!json_object_object_get_ex(manifest, "sprandom", &a) || !a ||
	    !json_object_is_type(a, json_type_array))
		return NAN;
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		if (jsonget_int(e, "phase", &p) || p >= phase ||
		    !json_object_object_get_ex(e, "inputs", &in) || !in)
			continue;
		alpha = json_object_get_double(json_object_object_get(in, "alpha"));
	}
	return alpha;
}

/*
 * The guard of each round and the runner's stop replayed with it (wa_guard_replay): the SNIA
 * rule, and the early verdict where the manifest's track has one, allowed where its byte guard
 * holds, as early_block judges it.
 */
static int guard_compute(const struct analyze_input *in, struct json_object *track,
			 const struct reader_series *ys, int64_t phase, int64_t repeat,
			 const char *cell, const struct ss_params *p, struct guard *g)
{
	struct json_object *eo, *go, *opt;
	struct ss_early_params ep;
	uint64_t bytes = 0;
	bool strict = false, has_early = false, *ok = NULL, purged;
	double *wa = NULL;
	int rc = -ENOMEM;

	*g = (struct guard){.alpha = guard_alpha(in->manifest, phase)};
	g->on = isfinite(g->alpha);
	g->expected = wa_guard_expected(g->alpha);
	if (!g->on || !ys->n || ys->round[0] < 1 || ys->round[0] > UINT32_MAX)
		return 0;
	g->round = calloc(ys->n, sizeof(*g->round));
	g->state = calloc(ys->n, sizeof(*g->state));
	wa = calloc(ys->n, sizeof(*wa));
	ok = calloc(ys->n, sizeof(*ok));
	if (!g->round || !g->state || !wa || !ok)
		goto out;
	/* on where the runner judged it: its tracked records carry the counters (a workload the
	 * expectation does not fit, or a run made before the guard, has none: off) */
	if (!reader_guard_wa(&in->records, phase, repeat, cell, wa, ys->n)) {
		g->on = false;
		rc = 0;
		goto out;
	}
	for (size_t i = 0; i < ys->n; i++) {
		(void)wa_guard_check(wa[i], g->expected, WA_GUARD_DEFAULT_TOLERANCE, &g->round[i]);
		g->state[i] = g->round[i].state;
	}
	if (json_object_object_get_ex(track, "early", &eo) && eo &&
	    !ss_early_params_from_json(eo, &ep) && json_object_object_get_ex(eo, "guard", &go) &&
	    !jsonnum_get_u64(go, "bytes", &bytes))
		has_early = true;
	if (json_object_object_get_ex(in->manifest, "options", &opt) && opt &&
	    json_object_object_get_ex(opt, "strict_pts", &opt) && opt)
		strict = json_object_get_boolean(opt);
	for (size_t i = 0; has_early && i < ys->n; i++) {
		double b = 0;

		ok[i] = !reader_written_since_purge(&in->records, phase, repeat, ys->round[i], &b,
						    &purged) &&
			b >= (double)bytes;
	}
	rc = wa_guard_replay(ys->y, g->state, ok, ys->n, (unsigned)ys->round[0], p,
			     has_early ? &ep : NULL, strict, &g->replay);
out:
	free(wa);
	free(ok);
	return rc;
}

/* "off", "passed" (the stop round's guard ok, nothing refused), "delayed" (verdicts refused,
 * then one accepted with the guard ok), "short" (the rounds ended with the guard short),
 * "unavailable" (no WA at the last round judged). */
static const char *guard_outcome(const struct guard *g, const struct reader_series *ys, size_t n)
{
	size_t at;

	if (!g->on)
		return "off";
	if (!n)
		return "unavailable";
	/* the round the rounds stopped at (the last one when the replay did not stop) */
	at = n - 1;
	if (g->replay.round && g->replay.round >= (uint64_t)ys->round[0] &&
	    g->replay.round - (uint64_t)ys->round[0] < n)
		at = g->replay.round - (uint64_t)ys->round[0];
	switch (g->state[at]) {
	case WA_GUARD_SHORT:
		return "short";
	case WA_GUARD_UNAVAILABLE:
		return "unavailable";
	case WA_GUARD_OK:
		break;
	}
	return g->replay.blocked ? "delayed" : "passed";
}

/* jsonnum_build_add for a value that may be a JSON null (v NULL). */
static void add_nullable(struct json_object *o, const char *key, struct json_object *v, int *e)
{
	if (*e) {
		json_object_put(v);
		return;
	}
	*e = jsonnum_add(o, key, v);
}

/* summary.json's steady_state[].wa_guard (docs/results-format.md). */
static struct json_object *guard_json(const struct guard *g, const struct reader_series *ys)
{
	struct json_object *o = json_object_new_object(), *a = NULL;
	bool judged = g->on && g->round;
	int e = 0;

	if (!o)
		return NULL;
	jsonnum_build_add(o, "outcome", json_object_new_string(guard_outcome(g, ys, judged ? ys->n : 0)), &e);
	jsonnum_build_num(o, "alpha", g->on ? g->alpha : NAN, &e);
	jsonnum_build_num(o, "expected_wa", g->on ? g->expected : NAN, &e);
	jsonnum_build_num(o, "tolerance", WA_GUARD_DEFAULT_TOLERANCE, &e);
	jsonnum_build_add(o, "method",
			  json_object_new_string("a round is short when its WA (NAND / host bytes over "
						 "the tracked cell) is more than tolerance below "
						 "1 / (1 - alpha) of the sprandom fill; a short round "
						 "accepts no steady-state verdict"),
			  &e);
	jsonnum_build_add(o, "blocked", json_object_new_int64(judged ? g->replay.blocked : 0), &e);
	add_nullable(o, "first_blocked_round",
			  judged && g->replay.first_blocked
			      ? json_object_new_int64(g->replay.first_blocked)
			      : NULL,
			  &e);
	jsonnum_build_add(o, "stop",
			  json_object_new_string(wa_guard_stop_name(judged ? g->replay.stop
									   : WA_GUARD_STOP_NONE)),
			  &e);
	add_nullable(o, "stop_round",
			  judged && g->replay.round ? json_object_new_int64(g->replay.round) : NULL,
			  &e);
	if (judged) {
		a = json_object_new_array();
		for (size_t i = 0; a && !e && i < ys->n; i++) {
			struct json_object *r = json_object_new_object();

			jsonnum_build_add(r, "round", json_object_new_int64(ys->round[i]), &e);
			jsonnum_build_num(r, "wa", g->round[i].wa, &e);
			jsonnum_build_num(r, "shortfall", g->round[i].shortfall, &e);
			jsonnum_build_add(r, "verdict",
					  json_object_new_string(wa_guard_state_name(g->state[i])), &e);
			if (!e && json_object_array_add(a, r)) {
				json_object_put(r);
				e = -ENOMEM;
			}
		}
		if (!a)
			e = -ENOMEM;
	}
	add_nullable(o, "rounds", a, &e);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* The key of the early block's round: null when nothing was predicted. */
static struct json_object *round_or_null(const struct ss_early_result *e)
{
	return e->predicted ? json_object_new_int64(e->round) : NULL;
}

/*
 * summary.json's steady_state[].early (docs/early-verdict.md): "off" without
 * steady_state.early in the manifest's track; else ss_early_scan over the rounds, each allowed
 * once the records since the purge hold the guard's bytes, and whether it stopped the run
 * (predicted, not --strict-pts, and the series ends at that round). *stopped_run for the caller.
 */
static int early_block(const struct analyze_input *in, struct json_object *track,
		       const struct reader_series *ys, int64_t phase, int64_t repeat,
		       const struct ss_params *p, const struct guard *gd, bool *stopped_run,
		       struct json_object **out, char *err, size_t errlen)
{
	struct json_object *eo, *go, *o = json_object_new_object(), *g = NULL, *opt;
	struct ss_early_params ep;
	struct ss_early_result er;
	uint64_t guard = 0;
	bool *ok = NULL, strict = false, purged = false;
	double written_at = NAN, avg = NAN;
	int rc = -ENOMEM;

	*stopped_run = false;
	if (!o)
		return -ENOMEM;
	if (!json_object_object_get_ex(track, "early", &eo) || !eo) {
		if (pass_add_str(o, "verdict", "off") || jsonnum_add(o, "round", NULL) ||
		    jsonnum_add(o, "confidence", NULL) || jsonnum_add(o, "method", NULL) ||
		    jsonnum_add(o, "stopped_run", json_object_new_boolean(0)))
			goto out;
		*out = o;
		return 0;
	}
	if (ss_early_params_from_json(eo, &ep) || !json_object_object_get_ex(eo, "guard", &go) ||
	    jsonnum_get_u64(go, "bytes", &guard)) {
		pass_err(err, errlen, "manifest.json: a steady_state entry's early is malformed");
		rc = -EBADMSG;
		goto out;
	}
	if (json_object_object_get_ex(in->manifest, "options", &opt) && opt &&
	    json_object_object_get_ex(opt, "strict_pts", &opt) && opt)
		strict = json_object_get_boolean(opt);
	if (!ys->n || ys->round[0] < 1 || ys->round[0] > UINT32_MAX) {
		if (pass_add_str(o, "verdict", "not predicted") || jsonnum_add(o, "round", NULL))
			goto out;
		er = (struct ss_early_result){.why = SS_EARLY_TOO_FEW, .params = ep};
	} else {
		ok = calloc(ys->n, sizeof(*ok));
		if (!ok)
			goto out;
		for (size_t i = 0; i < ys->n; i++) {
			double b = 0;

			ok[i] = !reader_written_since_purge(&in->records, phase, repeat, ys->round[i], &b,
							    &purged) &&
				b >= (double)guard;
			/* a round the WA guard calls short accepts no verdict */
			if (gd && gd->state && gd->state[i] == WA_GUARD_SHORT)
				ok[i] = false;
		}
		/* With the WA guard, the early verdict that stopped the run may come after a SNIA
		 * window the guard refused, where ss_early_scan's replay would have ended. */
		if (gd && gd->state && gd->replay.stop == WA_GUARD_STOP_EARLY)
			rc = ss_early_check(ys->y, gd->replay.round - (unsigned)ys->round[0] + 1,
					    (unsigned)ys->round[0], p, &ep, &er);
		else
			rc = ss_early_scan(ys->y, ok, ys->n, (unsigned)ys->round[0], p, &ep, &er);
		if (rc) {
			pass_err(err, errlen, "early steady state of phase %" PRId64 ": %s", phase,
				 strerror(-rc));
			goto out;
		}
		rc = -ENOMEM;
		if (er.predicted) {
			size_t last = er.round - (unsigned)ys->round[0];

			avg = 0;
			for (size_t i = last + 1 - er.fit_rounds; i <= last; i++)
				avg += ys->y[i] / er.fit_rounds;
			(void)reader_written_since_purge(&in->records, phase, repeat, er.round,
							 &written_at, &purged);
			*stopped_run = !strict && ys->round[ys->n - 1] == (int64_t)er.round;
		}
		if (pass_add_str(o, "verdict", er.predicted ? "predicted" : "not predicted") ||
		    jsonnum_add(o, "round", round_or_null(&er)))
			goto out;
	}
	g = json_object_new_object();
	if (jsonnum_add(o, "confidence", jsonnum_new(ep.confidence)) ||
	    pass_add_str(o, "method", SS_EARLY_METHOD) ||
	    jsonnum_add(o, "stopped_run", json_object_new_boolean(*stopped_run)) ||
	    jsonnum_add(o, "strict_pts", json_object_new_boolean(strict)) ||
	    pass_add_int(o, "min_rounds", ep.min_rounds) ||
	    pass_add_str(o, "why", ss_early_why_name(er.why)) ||
	    jsonnum_add(o, "window_first_round",
			er.predicted ? json_object_new_int64(er.first_round) : NULL) ||
	    jsonnum_add(o, "window_last_round",
			er.predicted ? json_object_new_int64(er.last_round) : NULL) ||
	    jsonnum_add(o, "observed_average", jsonnum_new(avg)) ||
	    jsonnum_add(o, "interval_low", jsonnum_new(er.predicted ? er.lo_min : NAN)) ||
	    jsonnum_add(o, "interval_high", jsonnum_new(er.predicted ? er.hi_max : NAN)) || !g ||
	    jsonnum_add(g, "bytes", json_object_new_uint64(guard)) ||
	    jsonnum_add(g, "source", json_object_get(json_object_object_get(go, "source"))) ||
	    jsonnum_add(g, "written_at_round", jsonnum_new(written_at)) ||
	    jsonnum_add(g, "purged", json_object_new_boolean(purged))) {
		json_object_put(g);
		goto out;
	}
	rc = jsonnum_add(o, "guard", g);
	if (rc)
		goto out;
	*out = o;
	o = NULL;
	rc = 0;
out:
	free(ok);
	json_object_put(o);
	return rc;
}


/*
 * One tracked series (a manifest "steady_state" entry): the metric of the tracked cell's
 * records in file order, which is round order. A gap or a repeated round is counted and
 * reported ("round_gaps"); a round without the figure counts as NaN (never steady).
 */
static int ss_one(const struct analyze_input *in, struct json_object *track,
		  struct json_object **out, char *err, size_t errlen)
{
	struct json_object *po, *res = NULL, *vals = NULL, *sj = NULL;
	struct reader_series ys = {0};
	struct ss_params p;
	struct ss_result r;
	struct guard g = {0};
	int64_t phase, repeat, first = 0;
	const char *cell = jsonget_str(track, "cell"), *metric = jsonget_str(track, "metric");
	int rc = -ENOMEM, gaps = 0;

	if (!cell || !metric || jsonget_int(track, "phase", &phase) ||
	    jsonget_int(track, "repeat", &repeat) ||
	    !json_object_object_get_ex(track, "params", &po) || ss_params_from_json(po, &p)) {
		pass_err(err, errlen, "manifest.json: a steady_state entry is malformed");
		return -EBADMSG;
	}
	rc = reader_series(&in->records, phase, repeat, cell, metric, &ys);
	if (rc == -EINVAL)
		pass_err(err, errlen, "manifest.json: unknown steady-state metric '%s'", metric);
	if (rc)
		return rc;
	rc = -ENOMEM;
	res = json_object_new_object();
	vals = json_object_new_array();
	if (!res || !vals)
		goto out;
	for (size_t i = 0; i < ys.n; i++) {
		if (i && ys.round[i] != ys.round[i - 1] + 1)
			gaps++;
		if (json_object_array_add(vals, jsonnum_new(ys.y[i])))
			goto out;
	}
	if (ys.n)
		first = ys.round[0];
	if (pass_add_int(res, "phase", phase) || pass_add_int(res, "repeat", repeat) ||
	    pass_add_str(res, "cell", cell) || pass_add_str(res, "metric", metric))
		goto out;
	if (!ys.n || first < 0 || first > UINT32_MAX) {
		/* Nothing measured (yet): say so rather than invent a verdict. */
		if (pass_add_str(res, "verdict", "no_data") ||
		    jsonnum_add(res, "reached", json_object_new_boolean(0)) ||
		    jsonnum_add(res, "params", ss_params_to_json(&p)))
			goto out;
	} else {
		rc = guard_compute(in, track, &ys, phase, repeat, cell, &p, &g);
		if (rc) {
			pass_err(err, errlen, "WA guard of phase %" PRId64 ": %s", phase, strerror(-rc));
			goto out;
		}
		/* A verdict the guard refused is not the run's: the window is the one the rounds
		 * stopped at (the runner's replay), else the SNIA rule's first. */
		if (g.on && g.round && g.replay.blocked)
			rc = ss_check(ys.y, g.replay.round ? g.replay.round - (unsigned)first + 1 : ys.n,
				      (unsigned)first, &p, &r);
		else
			rc = ss_scan(ys.y, ys.n, (unsigned)first, &p, &r);
		if (rc) {
			pass_err(err, errlen, "steady state of phase %" PRId64 " cell %s: %s",
				 phase, cell, strerror(-rc));
			goto out;
		}
		rc = -ENOMEM;
		sj = ss_result_to_json(&r);
		if (!sj || merge_into(res, sj))
			goto out;
	}
	{
		struct json_object *eb = NULL;
		bool stopped = false;

		rc = early_block(in, track, &ys, phase, repeat, &p, g.on ? &g : NULL, &stopped, &eb,
				 err, errlen);
		if (rc)
			goto out;
		rc = -ENOMEM;
		if (jsonnum_add(res, "early", eb))
			goto out;
		/* beside the SNIA verdict, never instead of it: the window was not run */
		if (stopped && pass_add_str(res, "reason", "SNIA window not completed"))
			goto out;
	}
	/* only where the guard judged the series: a summary without it (a PTS run, a run made
	 * before the guard) stays as it was */
	if (g.on && g.round && jsonnum_add(res, "wa_guard", guard_json(&g, &ys)))
		goto out;
	if (pass_add_int(res, "round_gaps", gaps))
		goto out;
	/* jsonnum_add owns vals from here, also when it fails. */
	rc = jsonnum_add(res, "values", vals);
	vals = NULL;
	if (rc)
		goto out;
	*out = res;
	res = NULL;
	rc = 0;
out:
	guard_release(&g);
	reader_series_release(&ys);
	json_object_put(sj);
	json_object_put(vals);
	json_object_put(res);
	return rc;
}

int pass_steady_state(const struct analyze_input *in, struct json_object *summary, char *err,
		      size_t errlen)
{
	struct json_object *arr = json_object_new_array(), *tracks;
	int rc;

	if (jsonnum_add(summary, "steady_state", arr) || !arr)
		return -ENOMEM;
	if (!json_object_object_get_ex(in->manifest, "steady_state", &tracks) || !tracks)
		return 0;
	if (!json_object_is_type(tracks, json_type_array)) {
		pass_err(err, errlen, "manifest.json: steady_state is not an array");
		return -EBADMSG;
	}
	for (size_t i = 0; i < json_object_array_length(tracks); i++) {
		struct json_object *one = NULL;

		rc = ss_one(in, json_object_array_get_idx(tracks, i), &one, err, errlen);
		if (rc)
			return rc;
		if (json_object_array_add(arr, one)) {
			json_object_put(one);
			return -ENOMEM;
		}
	}
	return 0;
}
