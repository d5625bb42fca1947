/* SPDX-License-Identifier: MIT */
/*
 * phases_bursts: the bursts kind (phases.h, struct phase_bursts), the stimulus of SNIA PTS host
 * idle recovery (issue 16 point 1): `count` times a wait and then a burst of writes, one record
 * per burst with the wait before it.
 *
 *   - bursts: {rw: randwrite, bs: 4k, burst: 5s, wait: 10s, count: 360}
 *
 * The runner's half is exec_bursts in run/runner.c; the analysis groups the bursts per wait
 * (analysis/pass_snia_hir.c).
 */
#include "profile/phases.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

struct bursts_extra {
	uint64_t burst, wait;
	unsigned count;
};

/* clang-format off */
static const struct ydoc_key bursts_keys[] = {
	{.name = "burst", .kind = YK_DURATION, .required = true,
	 .offset = offsetof(struct bursts_extra, burst), .bounded = true, .min = 1e6, .max = 86400e9},
	{.name = "wait", .kind = YK_DURATION, .required = true,
	 .offset = offsetof(struct bursts_extra, wait), .bounded = true, .min = 1e6, .max = 86400e9},
	{.name = "count", .kind = YK_UINT, .required = true,
	 .offset = offsetof(struct bursts_extra, count), .bounded = true, .min = 1,
	 .max = PHASE_BURSTS_MAX_COUNT},
	{0},
};
/* clang-format on */

static int bursts_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
			struct ydoc_error *err)
{
	struct phase_bursts p = {0};
	struct bursts_extra x = {0};
	int ret;

	/* The HIR stimulus by default: RND 4 KiB writes, at the pts variant's TC x QD. */
	p.w.spec.rw = RW_RANDWRITE;
	p.w.spec.bs[0] = (struct bs_split){4096, 1};
	p.w.spec.nbs = 1;
	if (ctx->pts) {
		p.w.spec.qd = ctx->pts->measured_qd;
		p.w.spec.threads = ctx->pts->measured_threads;
	}
	ret = profile_parse_workload(n, "bursts", ctx, &p.w, bursts_keys, &x, NULL, err);
	if (ret)
		return ret;
	if (!phase_rw_writes(p.w.spec.rw, p.w.spec.rwmix_read))
		return ydoc_errorf(err, ydoc_map_get(n, "rw") ? ydoc_map_get(n, "rw") : n,
				   "bursts: a burst must write (a recovery shows in writes), got "
				   "rw %s",
				   rw_mode_name(p.w.spec.rw));
	p.burst_ns = x.burst;
	p.wait_ns = x.wait;
	p.count = x.count;
	p.w.length = (struct amount){.kind = AMOUNT_TIME, .ns = x.burst};
	*(struct phase_bursts *)data = p;
	return 0;
}

static bool bursts_destructive(const void *data)
{
	(void)data;
	return true;
}

static struct json_object *bursts_json(const void *data)
{
	const struct phase_bursts *p = data;
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (phase_json_add(o, "workload", profile_workload_to_json(&p->w)) ||
	    phase_json_add(o, "burst_ns", json_object_new_uint64(p->burst_ns)) ||
	    phase_json_add(o, "wait_ns", json_object_new_uint64(p->wait_ns)) ||
	    phase_json_add(o, "count", json_object_new_uint64(p->count))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void bursts_describe(const void *data, char *buf, size_t len)
{
	const struct phase_bursts *p = data;
	char w[256], b[32], t[32];

	phase_wl_desc(&p->w, w, sizeof(w));
	snprintf(buf, len, "bursts %u x [wait %s, %s for %s], a record per burst", p->count,
		 units_fmt_duration(p->wait_ns, t, sizeof(t)), w,
		 units_fmt_duration(p->burst_ns, b, sizeof(b)));
}

uint64_t phase_bursts_wait_ns(const struct phase_bursts *b, const struct phase_env *env,
			      bool *floored)
{
	uint64_t w = phase_scale_ns(env, b->wait_ns);
	bool up = env->wait_floor_ns > w;

	if (floored)
		*floored = up;
	return up ? env->wait_floor_ns : w;
}

/* count x (the wait as applied + the burst), each scaled on its own as the runner does. */
static void bursts_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	const struct phase_bursts *p = data;
	uint64_t one = phase_bursts_wait_ns(p, env, NULL) + phase_scale_ns(env, p->burst_ns);

	phase_one_instance(l);
	l->ns = one > UINT64_MAX / p->count ? UINT64_MAX : one * p->count;
	if (env->wait_floor_ns > phase_scale_ns(env, p->wait_ns))
		snprintf(l->note, sizeof(l->note), "waits raised to twice the model's idle-GC delay");
}

/* Time-bound: what it writes depends on the speed. */
static int bursts_bytes(const void *data, uint64_t capacity, uint64_t *bytes)
{
	(void)data;
	(void)capacity;
	*bytes = 0;
	return -ENODATA;
}

static int bursts_jobs(const void *data, struct phase_job **jobs, size_t *n)
{
	struct phase_job *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	j->w = ((const struct phase_bursts *)data)->w;
	snprintf(j->key, sizeof(j->key), "bursts");
	*jobs = j;
	*n = 1;
	return 0;
}

/* clang-format off */
const struct phase_kind phase_bursts_kind = {
	.name = "bursts",
	.type = PHASE_BURSTS,
	.size = sizeof(struct phase_bursts),
	.parse = bursts_parse,
	.destructive = bursts_destructive,
	.to_json = bursts_json,
	.describe = bursts_describe,
	.bytes = bursts_bytes,
	.length = bursts_length,
	.jobs = bursts_jobs,
};
/* clang-format on */
