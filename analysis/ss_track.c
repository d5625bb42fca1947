/* SPDX-License-Identifier: MIT */
/* ss_track: see ss_track.h. */
#include "analysis/ss_track.h"

#include <errno.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "results/records.h"

int ss_track_add(struct json_object *manifest, int phase, unsigned repeat, const char *cell,
		 const char *metric, const struct ss_params *params)
{
	struct json_object *arr, *t;
	double probe;

	if (!manifest || !json_object_is_type(manifest, json_type_object) || !cell || !metric ||
	    ss_params_validate(params))
		return -EINVAL;
	/* Refuse a metric that no reader would understand (an empty record gives ENODATA). */
	t = json_object_new_object();
	if (!t)
		return -ENOMEM;
	if (results_record_metric(t, metric, &probe) == -EINVAL) {
		json_object_put(t);
		return -EINVAL;
	}
	if (jsonnum_add(t, "phase", json_object_new_int(phase)) ||
	    jsonnum_add(t, "repeat", json_object_new_int64(repeat)) ||
	    jsonnum_add(t, "cell", json_object_new_string(cell)) ||
	    jsonnum_add(t, "metric", json_object_new_string(metric)) ||
	    jsonnum_add(t, "params", ss_params_to_json(params)))
		goto nomem;
	if (!json_object_object_get_ex(manifest, "steady_state", &arr)) {
		arr = json_object_new_array();
		if (jsonnum_add(manifest, "steady_state", arr) || !arr)
			goto nomem;
	} else if (!json_object_is_type(arr, json_type_array)) {
		json_object_put(t);
		return -EINVAL;
	}
	if (json_object_array_add(arr, t))
		goto nomem;
	return 0;
nomem:
	json_object_put(t);
	return -ENOMEM;
}
