/* SPDX-License-Identifier: MIT */
/*
 * phases_dirth: the dirth_points kind's row of the registry (phases.h, struct
 * phase_dirth_points). SNIA PTS DIRTH ends with three response-time histograms at the Max-IOPS,
 * Mid-IOPS and Min-IOPS (TC1/QD1) points of its TC x QD rounds; which TC x QD are Max and Mid is
 * only known once the rounds have run, so this kind holds the workload, the pre-write and the
 * run time, and the runner (run/runner.c, exec_dirth_points) chooses the points from the
 * records (analysis/snia_dirth.h). Its length is known in advance: three pre-writes and three
 * runs whatever points are chosen.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "profile/phases.h"

/* The points a dirth_points phase measures: Max, Mid and Min. */
#define DIRTH_NPOINTS 3

struct dirth_extra {
	uint64_t time;
	const struct ydoc_node *pre_write;
	unsigned window;
};

struct dirth_pre_extra {
	struct amount amount;
};

enum { DX_TIME, DX_PRE_WRITE, DX_WINDOW };

/* clang-format off */
static const struct ydoc_key dirth_keys[] = {
	[DX_TIME] = {.name = "time", .kind = YK_DURATION, .required = true,
		     .offset = offsetof(struct dirth_extra, time), .bounded = true, .min = 1e6,
		     .max = 86400e9},
	[DX_PRE_WRITE] = {.name = "pre_write", .kind = YK_MAPPING,
			  .offset = offsetof(struct dirth_extra, pre_write)},
	[DX_WINDOW] = {.name = "window", .kind = YK_UINT,
		       .offset = offsetof(struct dirth_extra, window), .bounded = true, .min = 1,
		       .max = PHASE_MAX_ROUNDS},
	{0},
};

static const struct ydoc_key dirth_pre_keys[] = {
	{.name = "amount", .kind = YK_AMOUNT, .required = true,
	 .offset = offsetof(struct dirth_pre_extra, amount), .align = 512},
	{0},
};
/* clang-format on */

static int dirth_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
		       struct ydoc_error *err)
{
	struct phase_dirth_points *d = data;
	struct dirth_extra x = {.window = PHASE_DIRTH_WINDOW_DEFAULT};
	int ret;

	if (!ydoc_map_key(n, "rw"))
		return ydoc_errorf(err, n, "missing required key 'rw' in dirth_points");
	ret = profile_parse_workload(n, "dirth_points", ctx, &d->base, dirth_keys, &x, NULL, err);
	if (ret)
		return ret;
	/* The points' TC x QD are chosen at run time: a queue here would be silently ignored. */
	if (ydoc_map_key(n, "queue") || ydoc_map_key(n, "qd") || ydoc_map_key(n, "threads"))
		return ydoc_errorf(err, n,
				   "dirth_points: the points' threads and qd are chosen from the "
				   "rounds before it; give no queue, qd or threads");
	d->base.length = (struct amount){.kind = AMOUNT_TIME, .ns = x.time};
	d->window = x.window;
	if (x.pre_write) {
		struct dirth_pre_extra px = {0};

		d->pre_write.spec.rw = RW_RANDWRITE;
		d->pre_write.spec.bs[0] = (struct bs_split){4096, 1};
		d->pre_write.spec.nbs = 1;
		ret = profile_parse_workload(x.pre_write, "pre_write", ctx, &d->pre_write,
					     dirth_pre_keys, &px, NULL, err);
		if (ret)
			return ret;
		if (!phase_rw_writes(d->pre_write.spec.rw, d->pre_write.spec.rwmix_read))
			return ydoc_errorf(err, ydoc_map_get(x.pre_write, "rw"),
					   "pre_write must write: expected rw write or randwrite");
		d->pre_write.length = px.amount;
		d->has_pre_write = true;
	}
	return 0;
}

static bool dirth_destructive(const void *data)
{
	const struct phase_dirth_points *d = data;

	return d->has_pre_write || phase_rw_writes(d->base.spec.rw, d->base.spec.rwmix_read);
}

static struct json_object *dirth_json(const void *data)
{
	const struct phase_dirth_points *d = data;
	struct json_object *o = json_object_new_object();
	bool bad = false;

	if (!o)
		return NULL;
	bad |= phase_json_add(o, "workload", profile_workload_to_json(&d->base));
	bad |= phase_json_add(o, "time_ns", json_object_new_uint64(d->base.length.ns));
	bad |= phase_json_add(o, "window", json_object_new_int((int)d->window));
	bad |= phase_json_add(o, "points", json_object_new_string("max, mid, min"));
	if (d->has_pre_write)
		bad |= phase_json_add(o, "pre_write", profile_workload_to_json(&d->pre_write));
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void dirth_describe(const void *data, char *buf, size_t len)
{
	const struct phase_dirth_points *d = data;
	char t[32], w[256], a[64];
	size_t pos;

	phase_wl_desc(&d->base, w, sizeof(w));
	/* the base's queue is not the points': cut "qd 1 x 1 thread" out, keep " over ..." */
	if (strstr(w, " qd ")) {
		char *q = strstr(w, " qd "), *over = strstr(q, " over ");

		memmove(q, over ? over : q + strlen(q), strlen(over ? over : q + strlen(q)) + 1);
	}
	pos = (size_t)snprintf(buf, len,
			       "DIRTH Max/Mid/Min-IOPS points (chosen from the last %u rounds "
			       "before), %s each (%s at the point's TC x QD)",
			       d->window, units_fmt_duration(d->base.length.ns, t, sizeof(t)), w);
	if (d->has_pre_write && pos < len) {
		phase_wl_desc(&d->pre_write, w, sizeof(w));
		snprintf(buf + pos, len - pos, ", each after a pre-write of %s (%s)",
			 phase_amount_text(&d->pre_write.length, a, sizeof(a)), w);
	}
}

static int dirth_bytes(const void *data, uint64_t capacity, uint64_t *bytes)
{
	const struct phase_dirth_points *d = data;
	uint64_t pw = 0;
	int ret = phase_rw_writes(d->base.spec.rw, d->base.spec.rwmix_read) ? -ENODATA : 0;

	if (d->has_pre_write && phase_length_bytes(&d->pre_write.length, capacity, &pw) == -ENODATA)
		ret = -ENODATA;
	*bytes = pw * DIRTH_NPOINTS;
	return ret;
}

/* Three points, each its pre-write and its run, whichever points are chosen. */
static void dirth_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	const struct phase_dirth_points *d = data;

	phase_one_instance(l);
	for (unsigned i = 0; i < DIRTH_NPOINTS; i++) {
		phase_add_length(env, &d->base.length, l);
		if (d->has_pre_write)
			phase_add_length(env, &d->pre_write.length, l);
	}
}

static int dirth_jobs(const void *data, struct phase_job **jobs, size_t *n)
{
	const struct phase_dirth_points *d = data;
	struct phase_job *j = calloc(2, sizeof(*j));
	size_t k = 0;

	if (!j)
		return -ENOMEM;
	/* The probe runs the workload at TC1/QD1 (the Min point, the one known in advance). */
	j[k].w = d->base;
	j[k].w.spec.threads = 1;
	j[k].w.spec.qd = 1;
	snprintf(j[k].key, sizeof(j[k].key), "min");
	j[k++].cell = true;
	if (d->has_pre_write) {
		j[k].w = d->pre_write;
		snprintf(j[k++].key, sizeof(j[0].key), "pre_write");
	}
	*jobs = j;
	*n = k;
	return 0;
}

/* clang-format off */
const struct phase_kind phase_dirth_points_kind = {
	.name = "dirth_points",
	.type = PHASE_DIRTH_POINTS,
	.flags = 0,
	.size = sizeof(struct phase_dirth_points),
	.parse = dirth_parse,
	.destructive = dirth_destructive,
	.to_json = dirth_json,
	.describe = dirth_describe,
	.bytes = dirth_bytes,
	.length = dirth_length,
	.jobs = dirth_jobs,
};
/* clang-format on */
