/* SPDX-License-Identifier: MIT */
/*
 * like: the recorded run `run --like DIR` repeats (like.h). The manifest fields read here are
 * the ones `resume` reads to rebuild an interrupted run (profile.text, profile.path,
 * profile.extends, sets, seed, time_scale.user, chunks, target.spec): a run repeated "like" another
 * walks the same plan with the same seeds, which on the virtual SSD gives the same records.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "base/ydoc.h"
#include "cli/cli.h"
#include "cli/like.h"
#include "profile/profile.h"
#include "results/results.h"

static struct json_object *obj(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, k, &v) ? v : NULL;
}

int cli_manifest_parents(struct json_object *manifest, struct profile_parent **out, size_t *n)
{
	struct json_object *me = obj(obj(manifest, "profile"), "extends");
	struct profile_parent *v;
	size_t k;

	if (!me || !json_object_is_type(me, json_type_array)) {
		*out = NULL;
		*n = 0;
		return 0;
	}
	k = json_object_array_length(me);
	v = calloc(k ? k : 1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < k; i++) {
		struct json_object *e = json_object_array_get_idx(me, i);

		v[i] = (struct profile_parent){.ref = (char *)jsonget_str(e, "ref"),
					       .path = (char *)jsonget_str(e, "path"),
					       .text = (char *)jsonget_str(e, "text")};
		if (!v[i].ref || !v[i].path || !v[i].text) {
			free(v);
			return -EINVAL;
		}
	}
	*out = v;
	*n = k;
	return 0;
}

int cli_like_load(const char *dir, struct cli_like *l)
{
	struct profile_parent *parents = NULL;
	struct json_object *ms, *ts, *ch;
	struct ydoc_error yerr;
	const char *text, *ppath;
	size_t nparents = 0;
	int rc, code = EXIT_USAGE;

	memset(l, 0, sizeof(*l));
	l->dir = dir;
	l->time_scale = 1.0;
	rc = results_read_manifest(dir, &l->manifest);
	if (rc) {
		cli_error("run", "--like %s: cannot read manifest.json: %s", dir, strerror(-rc));
		return rc == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	text = jsonget_str(obj(l->manifest, "profile"), "text");
	ppath = jsonget_str(obj(l->manifest, "profile"), "path");
	l->target = jsonget_str(obj(l->manifest, "target"), "spec");
	if (!text || !l->target || jsonnum_get_u64(l->manifest, "seed", &l->seed)) {
		cli_error("run", "--like %s: the manifest lacks the profile text, target or seed", dir);
		goto out;
	}
	ts = obj(l->manifest, "time_scale");
	if (ts && jsonnum_get(ts, "user", &l->time_scale))
		l->time_scale = 1.0;
	ch = obj(l->manifest, "chunks");
	if (ch) {
		(void)jsonnum_get_u64(ch, "bytes", &l->chunk_bytes);
		(void)jsonnum_get_u64(ch, "time_ns", &l->chunk_ns);
	}
	if (obj(l->manifest, "options"))
		l->strict_pts = json_object_get_boolean(obj(obj(l->manifest, "options"), "strict_pts"));
	ms = obj(l->manifest, "sets");
	if (ms && json_object_is_type(ms, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(ms); i++) {
			const char *s = json_object_get_string(json_object_array_get_idx(ms, i));

			if (s && cli_strlist_add(&l->sets, s)) {
				code = EXIT_FAILED;
				goto out;
			}
		}
	}
	rc = cli_manifest_parents(l->manifest, &parents, &nparents);
	if (rc) {
		cli_error("run", "--like %s: %s", dir, rc == -ENOMEM ? strerror(ENOMEM) :
			  "manifest profile.extends lacks a ref, path or text");
		code = rc == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
		goto out;
	}
	memset(&yerr, 0, sizeof(yerr));
	rc = profile_parse_recorded(text, strlen(text), ppath ? ppath : "<manifest>",
				    (const char *const *)l->sets.v, l->sets.n, parents, nparents,
				    &l->profile, &yerr);
	if (rc) {
		char buf[1024];

		cli_error("run", "--like %s: the recorded profile no longer parses: %s", dir,
			  ydoc_error_format(&yerr, buf, sizeof(buf)));
		code = rc == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
		goto out;
	}
	code = EXIT_OK;
out:
	free(parents);
	return code;
}

int cli_like_manifest(struct json_object *m, const struct cli_like *l)
{
	struct json_object *o = json_object_new_object();
	const char *started = jsonget_str(l->manifest, "started_utc");
	/* the recorded name: l->profile has been handed to the run by now */
	const char *name = jsonget_str(obj(l->manifest, "profile"), "name");
	char real[PATH_MAX];
	int rc;

	if (!o)
		return -ENOMEM;
	/* the absolute path as well: a report reads the other run's summary from it */
	rc = jsonnum_add(o, "dir", json_object_new_string(l->dir));
	if (!rc)
		rc = jsonnum_add(o, "path", realpath(l->dir, real) ?
				 json_object_new_string(real) : NULL);
	if (!rc)
		rc = jsonnum_add(o, "profile", name ? json_object_new_string(name) : NULL);
	if (!rc)
		rc = jsonnum_add(o, "target", json_object_new_string(l->target));
	if (!rc)
		rc = jsonnum_add(o, "seed", json_object_new_uint64(l->seed));
	if (!rc)
		rc = jsonnum_add(o, "time_scale", jsonnum_new(l->time_scale));
	if (!rc)
		rc = jsonnum_add(o, "started_utc", started ? json_object_new_string(started) : NULL);
	if (rc) {
		json_object_put(o);
		return rc;
	}
	return jsonnum_add(m, "like", o);
}

void cli_like_release(struct cli_like *l)
{
	profile_free(l->profile);
	cli_strlist_release(&l->sets);
	json_object_put(l->manifest);
	memset(l, 0, sizeof(*l));
}
