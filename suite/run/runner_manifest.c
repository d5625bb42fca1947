/* SPDX-License-Identifier: MIT */
/*
 * runner_manifest: the runner's part of a new run's manifest (runner.h, runner_manifest_new):
 * the profile as written and as resolved, the target's identity, the seed, the time scales and
 * the chunks the run cuts long writes into, so that a resume can rebuild the same walk and an
 * analysis knows what was asked for. The steady-state tracks come from runner.c
 * (runner_manifest_tracks), which keeps the metric names the rounds decide by.
 */
#include "run/runner.h"

#include <json-c/json.h>

#include "config.h"
#include "base/jsonnum.h"

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
								 p->text ? (int)p->text_len : 0)))
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
	if (rc || jsonnum_add(m, "plan", profile_to_json(p)) ||
	    jsonnum_add(m, "target", target_info_to_json(ti, target_spec)) ||
	    jsonnum_add(m, "seed", json_object_new_uint64(o ? o->seed : 0)) ||
	    runner_plan(p, t, o, &pl) || runner_manifest_tracks(m, &pl))
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
