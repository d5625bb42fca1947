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
