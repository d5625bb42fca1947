/* SPDX-License-Identifier: MIT */
/*
 * results/slcprobe: the SLC cache size an slc-cache run measured, read back from its
 * summary.json, with the drive it measured from its manifest.json (slcprobe.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "base/jsonnum.h"
#include "results/records.h"
#include "results/slcprobe.h"

static int read_file(const char *dir, const char *name, struct json_object **o, char *err,
		     size_t errlen)
{
	char path[4096];
	int rc;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return errmsg_set(err, errlen, -ENAMETOOLONG, "%s/%s: path too long", dir, name);
	rc = results_read_json_file(path, o);
	if (rc == -ENOENT)
		return errmsg_set(err, errlen, rc,
				  "%s: no such file (not a results directory, or not analyzed yet: "
				  "ssdlab analyze %s)",
				  path, dir);
	if (rc)
		return errmsg_set(err, errlen, rc, "%s: %s", path,
				  rc == -EBADMSG ? "not valid JSON" : strerror(-rc));
	return 0;
}

/* Member `key` of the manifest's target, copied into buf ("" when absent). */
static void target_str(struct json_object *target, const char *key, char *buf, size_t len)
{
	struct json_object *v;

	buf[0] = '\0';
	if (target && json_object_object_get_ex(target, key, &v) &&
	    json_object_is_type(v, json_type_string))
		snprintf(buf, len, "%s", json_object_get_string(v));
}

int results_slc_probe_read(const char *dir, struct results_slc_probe *out, char *err,
			   size_t errlen)
{
	struct json_object *sum = NULL, *man = NULL, *list, *best = NULL, *v, *target = NULL;
	struct results_slc_probe p = {0};
	double best_fill = INFINITY, cache;
	int rc;

	rc = read_file(dir, "summary.json", &sum, err, errlen);
	if (rc)
		goto out;
	rc = read_file(dir, "manifest.json", &man, err, errlen);
	if (rc)
		goto out;
	if (!json_object_object_get_ex(sum, "slc_cache", &list) ||
	    !json_object_is_type(list, json_type_array) || !json_object_array_length(list)) {
		rc = errmsg_set(err, errlen, -EINVAL,
				"%s/summary.json has no slc_cache entries: not an slc-cache probe "
				"run (ssdlab run slc-cache)",
				dir);
		goto out;
	}
	for (size_t i = 0; i < json_object_array_length(list); i++) {
		struct json_object *e = json_object_array_get_idx(list, i);
		double f;

		if (!jsonnum_get(e, "fill", &f) && f < best_fill) {
			best_fill = f;
			best = e;
		}
	}
	if (!best) {
		rc = errmsg_set(err, errlen, -EINVAL,
				"%s/summary.json: no slc_cache entry has a fill", dir);
		goto out;
	}
	if (!json_object_object_get_ex(best, "cache_detected", &v) || !json_object_get_boolean(v)) {
		rc = errmsg_set(err, errlen, -EINVAL,
				"%s/summary.json: slc_cache at fill %g: cache_detected is false (the "
				"probe found no knee, so it measured no cache size)",
				dir, best_fill);
		goto out;
	}
	if (jsonnum_get(best, "cache_bytes", &cache) || !(cache >= 0)) {
		rc = errmsg_set(err, errlen, -EINVAL,
				"%s/summary.json: slc_cache at fill %g has no cache_bytes", dir,
				best_fill);
		goto out;
	}
	p.cache_bytes = (uint64_t)llround(cache);
	p.fill = best_fill;
	p.phase = json_object_object_get_ex(best, "phase", &v) ? json_object_get_int(v) : -1;
	json_object_object_get_ex(man, "target", &target);
	target_str(target, "model", p.model, sizeof(p.model));
	target_str(target, "serial", p.serial, sizeof(p.serial));
	target_str(target, "wwn", p.wwn, sizeof(p.wwn));
	target_str(target, "path", p.path, sizeof(p.path));
	*out = p;
	rc = 0;
out:
	json_object_put(sum);
	json_object_put(man);
	return rc;
}
