/* SPDX-License-Identifier: MIT */
/*
 * pass_slc: the analysis pass for summary.json's "slc_cache": one entry per SLC-cache probe (a
 * write_until with `slc_probe: true` in the manifest's plan; the `slc-cache` profile has one per
 * fill level), with the cache size, the speeds in and after the cache and any further levels
 * and their bounds (analysis/slc.h fits them; reader_slc_series() reads the phase's series). The
 * fill level is the start of the probe's range: the profile fills the drive sequentially up to
 * it and probes the rest. Absent when the plan has no probe, so that other results' summaries
 * stay as they were. A probe that follows another probe and an idle (the `slc-cache-rest`
 * profile) also gets a `rest` block: how much cache came back during the idle (rest_json). A
 * pass of analyze.c's table (pass.h); it runs after pass_thermal, whose per-phase warning level
 * it uses for the throttling flag.
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "analysis/reader.h"
#include "analysis/slc.h"

/* The warning level in force for phase: pass_thermal's entry, else the manifest's warning_c. */
static double warning_for(const struct analyze_input *in, struct json_object *summary,
			  int64_t phase)
{
	struct json_object *th, *arr;

	if (json_object_object_get_ex(summary, "thermal", &th) &&
	    json_object_object_get_ex(th, "phases", &arr))
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			struct json_object *e = json_object_array_get_idx(arr, i);
			int64_t p = -1;

			if (!jsonget_int(e, "phase", &p) && p == phase &&
			    !isnan(jsonget_num(e, "warning_c")))
				return jsonget_num(e, "warning_c");
		}
	return jsonget_num(in->manifest, "warning_c");
}

static struct json_object *level_json(const struct slc_level *L)
{
	struct json_object *o = json_object_new_object();
	int e = 0;

	if (!o)
		return NULL;
	jsonnum_build_add(o, "bytes_from", json_object_new_uint64(L->bytes_from), &e);
	jsonnum_build_add(o, "bytes_to", json_object_new_uint64(L->bytes_to), &e);
	jsonnum_build_num(o, "t_from_s", L->t_from_s, &e);
	jsonnum_build_num(o, "t_to_s", L->t_to_s, &e);
	jsonnum_build_num(o, "mbps", L->mbps, &e);
	jsonnum_build_num(o, "mbps_lo", L->mbps_lo, &e);
	jsonnum_build_num(o, "mbps_hi", L->mbps_hi, &e);
	jsonnum_build_num(o, "sd_mbps", L->sd_mbps, &e);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static struct json_object *entry_json(int64_t phase, double fill, const char *rw,
				      const struct slc_params *p, const struct slc_result *r)
{
	struct json_object *o = json_object_new_object(), *lv = json_object_new_array(),
			   *fit = json_object_new_object(), *bic = json_object_new_array();
	int e = !o || !lv || !fit || !bic;

	if (e)
		goto fail;
	jsonnum_build_add(o, "phase", json_object_new_int64(phase), &e);
	jsonnum_build_add(o, "repeat", json_object_new_int64(0), &e);
	jsonnum_build_num(o, "fill", fill, &e);
	jsonnum_build_add(o, "rw", json_object_new_string(rw ? rw : "write"), &e);
	jsonnum_build_add(o, "samples", json_object_new_uint64(r->n), &e);
	jsonnum_build_add(o, "cache_detected", json_object_new_boolean(r->cache_detected), &e);
	jsonnum_build_num(o, "cache_bytes", r->cache_bytes, &e);
	jsonnum_build_num(o, "cache_bytes_lo", r->cache_bytes_lo, &e);
	jsonnum_build_num(o, "cache_bytes_hi", r->cache_bytes_hi, &e);
	jsonnum_build_num(o, "in_cache_mbps", r->in_cache_mbps, &e);
	jsonnum_build_num(o, "in_cache_mbps_lo", r->in_cache_lo, &e);
	jsonnum_build_num(o, "in_cache_mbps_hi", r->in_cache_hi, &e);
	jsonnum_build_num(o, "post_cache_mbps", r->post_cache_mbps, &e);
	jsonnum_build_num(o, "post_cache_mbps_lo", r->post_cache_lo, &e);
	jsonnum_build_num(o, "post_cache_mbps_hi", r->post_cache_hi, &e);
	jsonnum_build_add(o, "nlevels", json_object_new_int64(r->nlevels), &e);
	for (unsigned j = 0; j < r->nlevels && !e; j++)
		jsonnum_build_push(lv, level_json(&r->level[j]), &e);
	jsonnum_build_add(o, "levels", lv, &e);
	lv = NULL;
	jsonnum_build_num(o, "drop_share", r->drop_share, &e);
	jsonnum_build_add(o, "possible_throttling", json_object_new_boolean(r->possible_throttling),
			  &e);
	jsonnum_build_num(o, "edge_temp_c", r->edge_temp_c, &e);
	jsonnum_build_num(o, "warning_c", p->warning_c, &e);
	for (unsigned k = 0; k < p->max_levels && !e; k++)
		if (jsonnum_push(bic, jsonnum_new(r->bic[k]))) /* NaN (k not tried) is a null */
			e = -ENOMEM;
	jsonnum_build_add(fit, "bic", bic, &e);
	bic = NULL;
	jsonnum_build_add(fit, "min_seg", json_object_new_uint64(r->min_seg), &e);
	jsonnum_build_num(fit, "min_drop", p->min_drop, &e);
	jsonnum_build_num(fit, "significance", p->significance, &e);
	jsonnum_build_add(fit, "boot_reps", json_object_new_uint64(r->boot_reps), &e);
	jsonnum_build_add(fit, "block_len", json_object_new_uint64(r->block_len), &e);
	jsonnum_build_add(fit, "seed", json_object_new_uint64(p->seed), &e);
	jsonnum_build_add(o, "fit", fit, &e);
	fit = NULL;
	if (!e)
		return o;
fail:
	json_object_put(o);
	json_object_put(lv);
	json_object_put(fit);
	json_object_put(bic);
	return NULL;
}

/*
 * The rest-and-probe-again figures (docs/slc-cache.md): a probe right after an idle that came
 * right after another probe. The probe before ran until its cache was written out (its stop
 * rule ends it well after the drop), so whatever cache the later probe finds came back during
 * the idle: recovered_bytes is its cache size (0 when it found none: less than it resolves),
 * recovered_per_s that over the idle's seconds of the drive's own time (the records' idle_ns:
 * target time, scaled on the virtual SSD like every duration; rest_profile_s is the profile's).
 * Bounds are the cache size's over the same seconds (the idle's length is exact). saturated
 * (mark_saturated): the rest brought back about as much as the largest cache a probe of the run
 * found (their intervals meet), so that the rate is a lower bound: the drive had no more to
 * give back.
 */
static struct json_object *rest_json(int64_t before, int64_t idle_phase,
				     const struct reader_idle *idle, double profile_s,
				     const struct slc_result *r)
{
	struct json_object *o = json_object_new_object();
	double s = (double)idle->idle_ns * 1e-9, got = r->cache_detected ? r->cache_bytes : 0;
	double lo = r->cache_detected ? r->cache_bytes_lo : NAN;
	double hi = r->cache_detected ? r->cache_bytes_hi : NAN;
	int e = !o;

	jsonnum_build_add(o, "after_phase", json_object_new_int64(before), &e);
	jsonnum_build_add(o, "idle_phase", json_object_new_int64(idle_phase), &e);
	jsonnum_build_num(o, "rest_s", s, &e);
	jsonnum_build_num(o, "rest_profile_s", profile_s, &e);
	jsonnum_build_num(o, "recovered_bytes", got, &e);
	jsonnum_build_num(o, "recovered_bytes_lo", lo, &e);
	jsonnum_build_num(o, "recovered_bytes_hi", hi, &e);
	jsonnum_build_num(o, "recovered_per_s", s > 0 ? got / s : NAN, &e);
	jsonnum_build_num(o, "recovered_per_s_lo", s > 0 ? lo / s : NAN, &e);
	jsonnum_build_num(o, "recovered_per_s_hi", s > 0 ? hi / s : NAN, &e);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* Sets each rest's saturated flag (rest_json) once every probe's cache is known. */
static int mark_saturated(struct json_object *arr)
{
	double big = NAN;

	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		double lo = jsonget_num(json_object_array_get_idx(arr, i), "cache_bytes_lo");

		if (isfinite(lo) && !(lo <= big))
			big = lo;
	}
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *r;
		double hi;

		if (!json_object_object_get_ex(json_object_array_get_idx(arr, i), "rest", &r))
			continue;
		hi = jsonget_num(r, "recovered_bytes_hi");
		if (jsonnum_add(r, "saturated",
				json_object_new_boolean(isfinite(big) && isfinite(hi) && hi >= big)))
			return -ENOMEM;
	}
	return 0;
}

/* The idle record of phase (repeat 0), or NULL. */
static const struct reader_idle *idle_of(const struct reader_idle *v, size_t n, int64_t phase)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].phase == phase && v[i].repeat == 0)
			return &v[i];
	return NULL;
}

/* The kind of plan phase i ("" when none). */
static const char *kind_of(struct json_object *phases, int64_t i)
{
	struct json_object *ph = i >= 0 && (size_t)i < json_object_array_length(phases)
					 ? json_object_array_get_idx(phases, (size_t)i)
					 : NULL;
	const char *k = ph ? jsonget_str(ph, "kind") : NULL;

	return k ? k : "";
}

int pass_slc(const struct analyze_input *in, struct json_object *summary, char *err,
	     size_t errlen)
{
	struct json_object *plan, *phases, *arr = NULL;
	struct reader_idle *idles = NULL;
	size_t nidles = 0;
	int64_t seed = 1, prev_phase = -3;
	int ret = 0;

	if (!in->manifest || !json_object_object_get_ex(in->manifest, "plan", &plan) ||
	    !json_object_object_get_ex(plan, "phases", &phases) ||
	    !json_object_is_type(phases, json_type_array))
		return 0;
	(void)jsonget_int(in->manifest, "seed", &seed);
	if (reader_idles(&in->records, &idles, &nidles))
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(phases); i++) {
		struct json_object *ph = json_object_array_get_idx(phases, i), *st, *wl, *rg, *v;
		struct reader_slc_series s = {0};
		struct slc_params p;
		struct slc_result r;
		double fill = 0;

		if (!ph || strcmp(jsonget_str(ph, "kind") ? jsonget_str(ph, "kind") : "",
				  "write_until") ||
		    !json_object_object_get_ex(ph, "settings", &st) ||
		    !json_object_object_get_ex(st, "slc_probe", &v) || !json_object_get_boolean(v))
			continue;
		wl = NULL;
		if (json_object_object_get_ex(st, "workload", &wl) &&
		    json_object_object_get_ex(wl, "range", &rg))
			fill = jsonget_num(rg, "lo_fraction");
		if (isnan(fill))
			fill = 0;
		ret = reader_slc_series(in->dir, (int64_t)i, 0, &s);
		if (ret == -ENOENT) {
			ret = 0; /* the probe did not run (an interrupted run) */
			continue;
		}
		if (ret) {
			pass_err(err, errlen, "slc_cache: phase %zu's series: %s", i, strerror(-ret));
			goto out;
		}
		slc_params_default(&p);
		p.seed = (uint64_t)seed;
		p.warning_c = warning_for(in, summary, (int64_t)i);
		ret = slc_fit(s.t_ns, s.bytes, s.temp_c, s.n, &p, &r);
		if (ret == -EINVAL) {
			/* too few samples to fit: the entry says so rather than failing the run */
			memset(&r, 0, sizeof(r));
			r.n = s.n;
			r.cache_bytes = r.cache_bytes_lo = r.cache_bytes_hi = NAN;
			r.in_cache_mbps = r.in_cache_lo = r.in_cache_hi = NAN;
			r.post_cache_mbps = r.post_cache_lo = r.post_cache_hi = NAN;
			r.drop_share = r.edge_temp_c = NAN;
			for (unsigned k = 0; k < SLC_MAX_LEVELS; k++)
				r.bic[k] = NAN;
			ret = 0;
		}
		reader_slc_series_release(&s);
		if (ret) {
			pass_err(err, errlen, "slc_cache: phase %zu: fit failed (%s)", i,
				 strerror(-ret));
			goto out;
		}
		if (!arr && !(arr = json_object_new_array())) {
			ret = -ENOMEM;
			goto out;
		}
		v = entry_json((int64_t)i, fill, wl ? jsonget_str(wl, "rw") : NULL, &p, &r);
		if (!v || json_object_array_add(arr, v)) {
			json_object_put(v);
			ret = -ENOMEM;
			goto out;
		}
		/* a probe, an idle, this probe: the rest and what it brought back */
		if (prev_phase == (int64_t)i - 2 && !strcmp(kind_of(phases, (int64_t)i - 1), "idle") &&
		    idle_of(idles, nidles, (int64_t)i - 1)) {
			struct json_object *ip = json_object_array_get_idx(phases, i - 1), *is;
			double ps = NAN;
			struct json_object *rj;

			/* the profile's idle time: the plan's setting (time_ns, unscaled) */
			if (json_object_object_get_ex(ip, "settings", &is))
				ps = jsonget_num(is, "time_ns") * 1e-9;
			rj = rest_json(prev_phase, (int64_t)i - 1, idle_of(idles, nidles, (int64_t)i - 1),
				       ps, &r);

			if (!rj || jsonnum_add(v, "rest", rj)) {
				ret = -ENOMEM;
				goto out;
			}
		}
		prev_phase = (int64_t)i;
	}
	if (arr) {
		ret = mark_saturated(arr);
		if (ret)
			goto out;
		ret = jsonnum_add(summary, "slc_cache", arr) ? -ENOMEM : 0;
		arr = NULL;
	}
out:
	free(idles);
	json_object_put(arr);
	return ret;
}
