/* SPDX-License-Identifier: MIT */
/*
 * qos_json: the JSON shape of qos.h's figures, shared by summary.json's cells (pass_cells.c) and
 * `ssdlab io --json`, so that both say the same thing the same way (docs/results-format.md).
 * Numbers go through jsonnum.
 */
#include "analysis/qos.h"

#include <errno.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

struct json_object *qos_dir_to_json(const struct qos_dir *q, int *err)
{
	struct json_object *o, *pc, *ov, *ex;
	int e = 0;

	if (!q->samples)
		return NULL;
	o = json_object_new_object();
	jsonnum_build_add(o, "samples", json_object_new_uint64(q->samples), &e);
	pc = json_object_new_object();
	for (size_t i = 0; i < QOS_NPCT; i++) {
		const struct qos_pct *p = &q->pct[i];
		struct json_object *x = json_object_new_object();

		jsonnum_build_add(x, "ns", json_object_new_uint64(p->ns), &e);
		jsonnum_build_add(x, "rank", json_object_new_uint64(p->rank), &e);
		jsonnum_build_add(x, "beyond", json_object_new_uint64(p->beyond), &e);
		jsonnum_build_add(x, "thin", json_object_new_boolean(p->thin), &e);
		jsonnum_build_add(pc, p->key, x, &e);
	}
	jsonnum_build_add(o, "percentiles", pc, &e);
	ov = json_object_new_object();
	for (size_t i = 0; i < QOS_NOVER; i++) {
		const struct qos_over *v = &q->over[i];
		struct json_object *x = json_object_new_object();

		jsonnum_build_add(x, "ns", json_object_new_uint64(v->ns), &e);
		jsonnum_build_add(x, "ios", json_object_new_uint64(v->ios), &e);
		jsonnum_build_add(x, "ios_max", json_object_new_uint64(v->ios_max), &e);
		jsonnum_build_add(ov, v->key, x, &e);
	}
	jsonnum_build_add(o, "over", ov, &e);
	/* Pairs, not objects: the curve is for plotting and stays compact. */
	ex = json_object_new_array();
	for (size_t i = 0; i < q->npoints; i++) {
		struct json_object *pt = json_object_new_array_ext(2);

		jsonnum_build_push(pt, json_object_new_uint64(q->points[i].ns), &e);
		jsonnum_build_push(pt, jsonnum_new(q->points[i].fraction), &e);
		jsonnum_build_push(ex, pt, &e);
	}
	jsonnum_build_add(o, "exceedance", ex, &e);
	if (!e)
		return o;
	json_object_put(o);
	*err = e;
	return NULL;
}

/* Adds key: the QoS of h (null when h is empty); 0 or -ENOMEM. */
static int add_dir(struct json_object *o, const char *key, const struct hist *h, struct qos_dir *q)
{
	struct json_object *x;
	int e = 0;

	qos_compute(h, q);
	x = qos_dir_to_json(q, &e);
	if (e)
		return e;
	return jsonnum_add(o, key, x);
}

struct json_object *qos_to_json(const struct hist *read, const struct hist *write)
{
	struct json_object *o = json_object_new_object();
	struct hist *all = malloc(sizeof(*all));
	struct qos_dir *q = malloc(sizeof(*q));

	if (!o || !all || !q)
		goto fail;
	hist_init(all);
	hist_merge(all, read);
	hist_merge(all, write);
	if (add_dir(o, "read", read, q) || add_dir(o, "write", write, q) ||
	    add_dir(o, "total", all, q))
		goto fail;
	free(all);
	free(q);
	return o;
fail:
	free(all);
	free(q);
	json_object_put(o);
	return NULL;
}
