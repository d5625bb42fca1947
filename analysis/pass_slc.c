/* SPDX-License-Identifier: MIT */
/*
 * pass_slc: the analysis pass for summary.json's "slc_cache": one entry per SLC-cache probe (a
 * write_until with `slc_probe: true` in the manifest's plan; the `slc-cache` profile has one per
 * fill level), with the cache size, the speeds in and after the cache and any further levels
 * and their bounds (analysis/slc.h fits them; reader_slc_series() reads the phase's series). The
 * fill level is the start of the probe's range: the profile fills the drive sequentially up to
 * it and probes the rest. Absent when the plan has no probe, so that other results' summaries
 * stay as they were. A pass of analyze.c's table (pass.h); it runs after pass_thermal, whose
 * per-phase warning level it uses for the throttling flag.
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

int pass_slc(const struct analyze_input *in, struct json_object *summary, char *err,
	     size_t errlen)
{
	struct json_object *plan, *phases, *arr = NULL;
	int64_t seed = 1;
	int ret = 0;

	if (!in->manifest || !json_object_object_get_ex(in->manifest, "plan", &plan) ||
	    !json_object_object_get_ex(plan, "phases", &phases) ||
	    !json_object_is_type(phases, json_type_array))
		return 0;
	(void)jsonget_int(in->manifest, "seed", &seed);
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
	}
	if (arr) {
		ret = jsonnum_add(summary, "slc_cache", arr) ? -ENOMEM : 0;
		arr = NULL;
	}
out:
	json_object_put(arr);
	return ret;
}
