/* SPDX-License-Identifier: MIT */
/*
 * runner_manifest: the runner's part of a new run's manifest (runner.h, runner_manifest_new):
 * the profile as written and as resolved, the target's identity, the seed, the time scales and
 * the chunks the run cuts long writes into, so that a resume can rebuild the same walk and an
 * analysis knows what was asked for. The steady-state tracks come from runner.c
 * (runner_manifest_tracks), which keeps the metric names the rounds decide by.
 */
#include "run/runner.h"

#include <errno.h>
#include <json-c/json.h>

#include "config.h"
#include "base/jsonnum.h"
#include "run/drive_settings.h"

/* The profiles the run's profile extends, nearest first, with their texts: a resume reads
 * them from here, not from disk, where they may have changed since (profile.h). */
static struct json_object *parents_json(const struct profile *p)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < p->nparents; i++) {
		struct json_object *e = json_object_new_object();

		if (!e || json_object_array_add(a, e)) {
			json_object_put(e);
			json_object_put(a);
			return NULL;
		}
		if (jsonnum_add(e, "ref", json_object_new_string(p->parents[i].ref)) ||
		    jsonnum_add(e, "path", json_object_new_string(p->parents[i].path)) ||
		    jsonnum_add(e, "text", json_object_new_string(p->parents[i].text))) {
			json_object_put(a);
			return NULL;
		}
	}
	return a;
}

/* The TC x QD of the phase the PTS test tracks: the first rounds phase with a steady-state rule,
 * else the first write_until (WSAT); false when neither is at the top level. */
static bool pts_toio(const struct profile *p, unsigned *threads, unsigned *depth)
{
	const struct profile_workload *w = NULL;

	for (size_t i = 0; i < p->phases.n && !w; i++) {
		const struct profile_phase *ph = &p->phases.v[i];

		if (ph->kind->type == PHASE_ROUNDS &&
		    ((const struct phase_rounds *)ph->data)->has_steady_state)
			w = &((const struct phase_rounds *)ph->data)->base;
	}
	for (size_t i = 0; i < p->phases.n && !w; i++)
		if (p->phases.v[i].kind->type == PHASE_WRITE_UNTIL)
			w = &((const struct phase_write *)p->phases.v[i].data)->w;
	if (!w)
		return false;
	*threads = w->spec.threads;
	*depth = w->spec.qd;
	return true;
}

/* "write_cache" of the manifest's pts: what was asked, what the target read back, and why
 * there is no read-back when there is none. */
static struct json_object *pts_write_cache(const struct profile *p, const struct runner_opts *o)
{
	struct json_object *c = json_object_new_object();
	int back = o && o->settings ? drive_settings_write_cache(o->settings) : -1;
	const char *note = NULL;

	if (back < 0) {
		note = o && o->settings ? drive_settings_note(o->settings) : "";
		if (!*note)
			note = o && o->settings ? "the target does not report its write cache"
						: "no drive settings were applied (a library caller)";
	}
	if (c &&
	    (jsonnum_add(c, "requested",
			 json_object_new_string(profile_drive_setting_name(p->write_cache))) ||
	     jsonnum_add(c, "read_back", back < 0 ? NULL : json_object_new_boolean(back)) ||
	     jsonnum_add(c, "note", note ? json_object_new_string(note) : NULL))) {
		json_object_put(c);
		return NULL;
	}
	return c;
}

/* Adds to d[0..*nd) each block size of a split in the phases of l (repeat bodies included) that
 * a target of logical block size lbs cannot do, as profile_workload_resolve() drops them
 * (bs_split_drop()); the first weight seen of a size is kept. -ENOMEM. */
static int dropped_sizes(const struct phase_list *l, uint32_t lbs, struct bs_split *d,
			 unsigned *nd, bool *any)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct profile_phase *ph = &l->v[i];
		struct phase_job *jobs = NULL;
		size_t nj = 0;
		unsigned count;

		if (ph->kind->body &&
		    dropped_sizes(ph->kind->body(ph->data, &count), lbs, d, nd, any))
			return -ENOMEM;
		if (!ph->kind->jobs)
			continue;
		if (ph->kind->jobs(ph->data, &jobs, &nj))
			return -ENOMEM;
		for (size_t j = 0; j < nj; j++) {
			struct job_spec s = jobs[j].w.spec;
			struct bs_split out[JOB_MAX_BS];
			unsigned nout = 0;

			*any |= jobs[j].w.bs_renormalise;
			if (!jobs[j].w.bs_renormalise || s.nbs < 2 ||
			    bs_split_drop(s.bs, &s.nbs, lbs, out, &nout) <= 0)
				continue;
			for (unsigned k = 0; k < nout; k++) {
				unsigned m;

				for (m = 0; m < *nd && d[m].bs != out[k].bs; m++)
					;
				if (m == *nd && *nd < JOB_MAX_BS)
					d[(*nd)++] = out[k];
			}
		}
		free(jobs);
	}
	return 0;
}

/*
 * "bs_not_applicable" of the manifest's pts, for a profile with a `bs_not_applicable:
 * renormalise` workload (*has set; the key is absent otherwise, as before issue 16): the block
 * sizes of its splits this target cannot do (0.5 KiB on a 4Kn device: ECW's JESD219 mix), left
 * out with the other weights renormalised (issue 16 point 4), or NULL (a JSON null) for none.
 */
static struct json_object *bs_not_applicable_json(const struct profile *p, uint32_t lbs, bool *has,
						  int *bad)
{
	struct bs_split d[JOB_MAX_BS];
	unsigned nd = 0;
	struct json_object *o, *a;

	*has = false;
	if (dropped_sizes(&p->phases, lbs ? lbs : 512, d, &nd, has)) {
		*bad |= -ENOMEM;
		return NULL;
	}
	if (!nd)
		return NULL;
	o = json_object_new_object();
	a = json_object_new_array();
	if (!o || !a) {
		json_object_put(o);
		json_object_put(a);
		*bad |= -ENOMEM;
		return NULL;
	}
	for (unsigned i = 0; i < nd; i++) {
		struct json_object *e = json_object_new_object();

		if (!e || json_object_array_add(a, e)) {
			json_object_put(e);
			*bad |= -ENOMEM;
			break;
		}
		*bad |= jsonnum_add(e, "bs", json_object_new_int64(d[i].bs));
		*bad |= jsonnum_add(e, "weight", json_object_new_int64(d[i].weight));
	}
	*bad |= jsonnum_add(o, "logical_block_size", json_object_new_int64(lbs));
	*bad |= jsonnum_add(o, "dropped", a);
	*bad |= jsonnum_add(o, "renormalised", json_object_new_boolean(1));
	return o;
}

/*
 * The manifest's "pts" (docs/results-format.md): the operator settings of a profile's pts:
 * block as this run applies them on this target, for the analysis' test header. Only the keys
 * listed there: the analysis reads exactly these.
 */
static struct json_object *pts_json(const struct profile *p, const struct target_info *ti,
				    const struct runner_opts *o)
{
	const struct profile_pts *pts = &p->pts;
	struct json_object *x = json_object_new_object(), *ar = NULL, *am = NULL, *tio = NULL;
	struct range r = {.percent = true, .lo = 0, .hi = pts->active_range};
	uint64_t lbs = ti->logical_block_size ? ti->logical_block_size : 512, lo = 0, hi = 0;
	unsigned threads = 0, depth = 0;
	bool has_toio = pts_toio(p, &threads, &depth);
	int bad = 0;

	if (!x)
		return NULL;
	/* as the workloads resolve it (profile_workload_resolve: range_resolve, aligned to lbs) */
	if (range_resolve(&r, ti->capacity, lbs, &lo, &hi))
		lo = hi = 0;
	ar = json_object_new_object();
	am = pts->amount ? json_object_new_object() : NULL;
	tio = has_toio ? json_object_new_object() : NULL;
	if (!ar || (pts->amount && !am) || (has_toio && !tio)) {
		json_object_put(ar);
		json_object_put(am);
		json_object_put(tio);
		json_object_put(x);
		return NULL;
	}
	bad |= jsonnum_add(ar, "percent", jsonnum_new(pts->active_range * 100));
	bad |= jsonnum_add(ar, "bytes", json_object_new_uint64(hi - lo));
	if (pts->amount) {
		bad |= jsonnum_add(am, "bytes", json_object_new_uint64(pts->amount));
		bad |= jsonnum_add(am, "segments", json_object_new_int((int)pts->segments));
		bad |= jsonnum_add(am, "segment_bytes",
				   json_object_new_uint64(pts->amount / pts->segments / lbs * lbs));
	}
	if (has_toio) {
		bad |= jsonnum_add(tio, "threads", json_object_new_int((int)threads));
		bad |= jsonnum_add(tio, "depth", json_object_new_int((int)depth));
	}
	bad |= jsonnum_add(x, "test", json_object_new_string(pts_test_name(pts->test)));
	bad |= jsonnum_add(x, "spec", json_object_new_string(pts->spec));
	bad |= jsonnum_add(x, "variant", json_object_new_string(pts_variant_name(pts->variant)));
	bad |= jsonnum_add(x, "active_range", ar);
	bad |= jsonnum_add(x, "active_range_amount", am);
	bad |= jsonnum_add(x, "write_cache", pts_write_cache(p, o));
	bad |= jsonnum_add(x, "data_pattern", json_object_new_string("random"));
	bad |= jsonnum_add(x, "toio", tio);
	/* A *-fast profile's shape (the analysis joins its tracking and matrix phases). */
	bad |= jsonnum_add(x, "fast", json_object_new_boolean(pts->fast));
	{
		bool has;
		struct json_object *na = bs_not_applicable_json(p, ti->logical_block_size, &has, &bad);

		if (has)
			bad |= jsonnum_add(x, "bs_not_applicable", na);
	}
	if (bad) {
		json_object_put(x);
		return NULL;
	}
	return x;
}

/* The chunks of long writing phases, as the run uses them, so that a resume cuts the same. */
static struct json_object *chunks_json(const struct target *t, const struct runner_opts *o)
{
	struct json_object *c = json_object_new_object();

	if (c && (jsonnum_add(c, "bytes", json_object_new_uint64(runner_chunk_bytes(t, o))) ||
		  jsonnum_add(c, "time_ns", json_object_new_uint64(o && o->chunk_ns
									? o->chunk_ns
									: RUNNER_CHUNK_NS)))) {
		json_object_put(c);
		return NULL;
	}
	return c;
}

/* The run's options that change its decisions (--strict-pts), for analyze, resume and --like. */
static struct json_object *options_json(const struct runner_opts *o)
{
	struct json_object *x = json_object_new_object();

	if (x && jsonnum_add(x, "strict_pts", json_object_new_boolean(o && o->strict_pts))) {
		json_object_put(x);
		return NULL;
	}
	return x;
}

/*
 * "sprandom": per sprandom precondition of the plan (its first instance), the phase number and
 * its inputs resolved on the target as it is at the start (docs/results-format.md); a variant
 * that changes the capacity resolves them again, as its records say. NULL when there is none
 * (*e untouched) or on failure (*e set).
 */
static struct json_object *sprandom_json(const struct plan *pl, const struct target_info *ti,
					 const struct profile *p, int *e)
{
	struct json_object *a = NULL;
	struct phase_nand nand = runner_target_nand(ti, p);

	for (size_t i = 0; i < pl->n && !*e; i++) {
		const struct plan_step *st = &pl->v[i];
		const struct phase_write *pw = st->ph->data;
		struct sprandom_inputs in;
		struct json_object *o;
		char err[400];

		if (st->ph->kind->type != PHASE_PRECONDITION || !pw->spr.on || !st->first)
			continue;
		if (!a && !(a = json_object_new_array())) {
			*e = -ENOMEM;
			break;
		}
		o = json_object_new_object();
		jsonnum_build_add(o, "phase", json_object_new_int(st->phase), e);
		if (phase_sprandom_resolve(&pw->spr, pw->w.spec.bs[0].bs, ti->capacity, &nand, &in,
					   err, sizeof(err)))
			jsonnum_build_add(o, "refused", json_object_new_string(err), e);
		else
			jsonnum_build_add(o, "inputs", phase_sprandom_inputs_json(&in), e);
		if (!*e && json_object_array_add(a, o))
			*e = -ENOMEM;
	}
	if (*e) {
		json_object_put(a);
		return NULL;
	}
	return a;
}

/* Adds "sprandom" to manifest m when the plan has a sprandom precondition. 0 or -ENOMEM. */
static int manifest_sprandom(struct json_object *m, const struct plan *pl,
			     const struct target_info *ti, const struct profile *p)
{
	int e = 0;
	struct json_object *a = sprandom_json(pl, ti, p, &e);

	if (e)
		return e;
	return a ? jsonnum_add(m, "sprandom", a) : 0;
}

struct json_object *runner_manifest_new(const struct profile *p, const char *target_spec,
					struct target *t, const struct runner_opts *o)
{
	struct json_object *m = json_object_new_object(), *prof = NULL, *ts = NULL;
	const struct target_info *ti = target_info(t);
	struct plan pl = {0};
	int rc;

	if (!m)
		return NULL;
	prof = json_object_new_object();
	ts = json_object_new_object();
	if (!prof || !ts)
		goto fail;
	if (jsonnum_add(prof, "name", json_object_new_string(p->name ? p->name : "")) ||
	    jsonnum_add(prof, "path", json_object_new_string(p->path ? p->path : "")) ||
	    jsonnum_add(prof, "text", json_object_new_string_len(p->text ? p->text : "",
								 p->text ? (int)p->text_len : 0)) ||
	    (p->nparents && jsonnum_add(prof, "extends", parents_json(p))))
		goto fail;
	if (jsonnum_add(ts, "user", jsonnum_new(o && o->time_scale > 0 ? o->time_scale : 1.0)) ||
	    jsonnum_add(ts, "target", jsonnum_new(ti->time_scale)) ||
	    jsonnum_add(ts, "effective", jsonnum_new(runner_time_scale(t, o))))
		goto fail;
	/* jsonnum_add takes ownership even on failure: clear each pointer as it is handed over. */
	if (jsonnum_add(m, "schema", json_object_new_int(RESULTS_SCHEMA)) ||
	    jsonnum_add(m, "ssdlab_version", json_object_new_string(SSDLAB_VERSION)))
		goto fail;
	rc = jsonnum_add(m, "profile", prof);
	prof = NULL;
	if (rc)
		goto fail;
	rc = jsonnum_add(m, "time_scale", ts);
	ts = NULL;
	rc = jsonnum_add(m, "chunks", chunks_json(t, o));
	if (rc || jsonnum_add(m, "options", options_json(o)) || jsonnum_add(m, "plan", profile_to_json(p)) ||
	    jsonnum_add(m, "target", target_info_to_json(ti, target_spec)) ||
	    jsonnum_add(m, "seed", json_object_new_uint64(o ? o->seed : 0)) ||
	    runner_plan(p, t, o, &pl) || runner_manifest_tracks(m, &pl, ti) ||
	    manifest_sprandom(m, &pl, ti, p) ||
	    (p->pts.set && jsonnum_add(m, "pts", pts_json(p, ti, o))))
		goto fail;
	plan_release(&pl);
	return m;
fail:
	plan_release(&pl);
	json_object_put(prof);
	json_object_put(ts);
	json_object_put(m);
	return NULL;
}
