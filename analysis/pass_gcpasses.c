/* SPDX-License-Identifier: MIT */
/*
 * pass_gcpasses: the analysis pass for summary.json's "gc_passes" (the gc-passes profile,
 * docs/gc-recovery.md): the HD Tune experiment of SNIA's 24-hour article, repeated full-range
 * sequential passes with rests between them. Per pass (a write_until with `gc_pass: true` in the
 * manifest's plan, each of its repeats; reader_gc_passes), the size of the fast region: the bytes
 * written at the fast level before the first drop, from the same piecewise-linear fit of cumulative
 * bytes against time as the SLC cache's (analysis/slc.h: levels by BIC, bounds by a block
 * bootstrap); no second knee finder. The rest before a pass is the idle time recorded between the
 * previous pass's last record and its first. Times and bytes are the target's (on the virtual SSD
 * its own clock). Absent when the plan has no such pass, so that other results' summaries stay as
 * they were.
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "analysis/gcpower.h"
#include "analysis/reader.h"
#include "analysis/slc.h"
#include "base/jsonget.h"
#include "base/jsonnum.h"

/* The plan has at most this many phases (a profile is a human-written file). */
#define GCP_MAX_PHASES 4096

/*
 * Marks in is_pass[] the phase numbers of the plan's write_until phases with gc_pass, numbering
 * depth first as the runner does (a repeat's own number, then its children's: docs/profiles.md).
 */
static void mark_passes(struct json_object *phases, int64_t *next, bool *is_pass)
{
	for (size_t i = 0; i < json_object_array_length(phases); i++) {
		struct json_object *ph = json_object_array_get_idx(phases, i), *st = NULL, *v,
				   *kids;
		const char *kind = ph ? jsonget_str(ph, "kind") : NULL;
		int64_t me = (*next)++;

		if (!ph || !json_object_object_get_ex(ph, "settings", &st) || !st)
			continue;
		if (kind && !strcmp(kind, "write_until") && me < GCP_MAX_PHASES &&
		    json_object_object_get_ex(st, "gc_pass", &v) && json_object_get_boolean(v))
			is_pass[me] = true;
		if (json_object_object_get_ex(st, "phases", &kids) &&
		    json_object_is_type(kids, json_type_array))
			mark_passes(kids, next, is_pass);
	}
}

static struct json_object *pass_json(size_t idx, const struct reader_gc_pass *g, double scale,
				     const struct reader_slc_series *s, const struct slc_result *r,
				     bool fitted, int *e)
{
	struct json_object *o = json_object_new_object();
	double bytes = s->n ? (double)s->bytes[s->n - 1] : NAN,
	       secs = s->n ? (double)s->t_ns[s->n - 1] * 1e-9 : NAN;
	bool drop = fitted && r->cache_detected;

	jsonnum_build_add(o, "pass", json_object_new_int64((int64_t)idx + 1), e);
	jsonnum_build_add(o, "phase", json_object_new_int64(g->phase), e);
	jsonnum_build_add(o, "repeat", json_object_new_int64(g->repeat), e);
	jsonnum_build_num(o, "rest_ns", round(g->rest_ns), e);
	jsonnum_build_num(o, "rest_profile_ns", round(g->rest_ns / scale), e);
	jsonnum_build_add(o, "samples", json_object_new_uint64(s->n), e);
	jsonnum_build_num(o, "bytes_written", bytes, e);
	jsonnum_build_num(o, "mbps", secs > 0 ? bytes / secs / 1e6 : NAN, e);
	jsonnum_build_add(o, "drop", json_object_new_boolean(drop), e);
	jsonnum_build_num(o, "fast_bytes", drop ? r->cache_bytes : NAN, e);
	jsonnum_build_num(o, "fast_bytes_lo", drop ? r->cache_bytes_lo : NAN, e);
	jsonnum_build_num(o, "fast_bytes_hi", drop ? r->cache_bytes_hi : NAN, e);
	jsonnum_build_num(o, "fast_mbps", drop ? r->in_cache_mbps : NAN, e);
	jsonnum_build_num(o, "fast_mbps_lo", drop ? r->in_cache_lo : NAN, e);
	jsonnum_build_num(o, "fast_mbps_hi", drop ? r->in_cache_hi : NAN, e);
	jsonnum_build_num(o, "slow_mbps", drop ? r->post_cache_mbps : NAN, e);
	jsonnum_build_num(o, "slow_mbps_lo", drop ? r->post_cache_lo : NAN, e);
	jsonnum_build_num(o, "slow_mbps_hi", drop ? r->post_cache_hi : NAN, e);
	jsonnum_build_add(o, "nlevels", json_object_new_int64(fitted ? r->nlevels : 0), e);
	jsonnum_build_num(o, "drop_share", fitted ? r->drop_share : NAN, e);
	return o;
}

int pass_gcpasses(const struct analyze_input *in, struct json_object *summary, char *err,
		  size_t errlen)
{
	struct json_object *plan, *phases, *o = NULL, *arr = NULL, *fit;
	struct reader_gc_pass *gp = NULL;
	bool *is_pass = NULL;
	size_t n = 0;
	int64_t next = 0, seed = 1;
	struct json_object *t;
	double scale = NAN;
	struct slc_params p;
	bool said = false; /* pass_err called: err holds the reason */
	int rc = 0, e = 0;

	if (!in->manifest || !json_object_object_get_ex(in->manifest, "plan", &plan) ||
	    !json_object_object_get_ex(plan, "phases", &phases) ||
	    !json_object_is_type(phases, json_type_array))
		return 0;
	is_pass = calloc(GCP_MAX_PHASES, sizeof(*is_pass));
	if (!is_pass) {
		rc = -ENOMEM;
		goto out;
	}
	mark_passes(phases, &next, is_pass);
	/* the virtual SSD's time per profile time (idle records do not carry it) */
	if (json_object_object_get_ex(in->manifest, "target", &t))
		scale = jsonget_num(t, "time_scale");
	if (!(scale > 0) || !isfinite(scale))
		scale = 1;
	rc = reader_gc_passes(&in->records, is_pass, GCP_MAX_PHASES, &gp, &n);
	if (rc)
		goto out;
	if (!n)
		goto out; /* no pass ran: no key */
	(void)jsonget_int(in->manifest, "seed", &seed);
	slc_params_default(&p);
	p.seed = (uint64_t)seed;
	o = json_object_new_object();
	arr = json_object_new_array();
	for (size_t i = 0; i < n && !e; i++) {
		struct reader_slc_series s = {0};
		struct slc_result r;
		bool fitted = false;

		rc = reader_slc_series(in->dir, gp[i].phase, gp[i].repeat, &s);
		if (rc == -ENOENT) {
			rc = 0; /* an interrupted run: the pass is listed without a series */
		} else if (rc) {
			pass_err(err, errlen, "gc_passes: phase %lld repeat %lld's series: %s",
				 (long long)gp[i].phase, (long long)gp[i].repeat, strerror(-rc));
			said = true;
			goto out;
		} else {
			rc = slc_fit(s.t_ns, s.bytes, NULL, s.n, &p, &r);
			fitted = !rc;
			if (rc == -EINVAL)
				rc = 0; /* too few samples: no fit, said by nlevels 0 */
		}
		if (rc) {
			reader_slc_series_release(&s);
			pass_err(err, errlen, "gc_passes: pass %zu: fit failed (%s)", i + 1,
				 strerror(-rc));
			said = true;
			goto out;
		}
		jsonnum_build_push(arr, pass_json(i, &gp[i], scale, &s, &r, fitted, &e), &e);
		reader_slc_series_release(&s);
	}
	jsonnum_build_add(o, "passes", arr, &e);
	arr = NULL;
	jsonnum_build_add(o, "time_base", json_object_new_string("target"), &e);
	jsonnum_build_num(o, "time_scale", scale, &e);
	fit = json_object_new_object();
	jsonnum_build_num(fit, "min_drop", p.min_drop, &e);
	jsonnum_build_num(fit, "significance", p.significance, &e);
	jsonnum_build_add(fit, "boot_reps", json_object_new_uint64(p.boot_reps), &e);
	jsonnum_build_add(fit, "seed", json_object_new_uint64(p.seed), &e);
	jsonnum_build_add(o, "fit", fit, &e);
	jsonnum_build_add(o, "power_states", gcpower_json(in->manifest, &e), &e);
	if (e) {
		rc = e;
		goto out;
	}
	rc = jsonnum_add(summary, "gc_passes", o);
	o = NULL;
out:
	if (rc && !said)
		pass_err(err, errlen, "gc_passes: %s", strerror(-rc));
	json_object_put(o);
	json_object_put(arr);
	free(is_pass);
	free(gp);
	return rc;
}
