/* SPDX-License-Identifier: MIT */
/*
 * phases_sweep: the idle_sweep kind (phases.h): `count` idle times log-spaced from `from` to `to`,
 * each `reps` times, in an order shuffled with `seed`, each idle followed by the `after` phases.
 * The GC recovery rate's experiment (docs/gc-recovery.md) is one: steady state, idle t, write,
 * for every t. It is a kind with a body: the parse hook writes the sweep out as a phase list (an
 * idle, then the `after` phases parsed anew, per idle), and the runner and the plan walk that
 * list as they walk a repeat's, so that the records, the ETA and `ssdlab plan` need nothing new.
 * Why shuffled: in increasing order the idle time would go with the drive's history (wear, the
 * layout left by the previous recovery); why a seed of its own: the order is part of the
 * profile's plan (written in the manifest), known before the run.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/prng.h"
#include "profile/phases.h"

struct sweep_raw {
	uint64_t from, to, seed;
	unsigned count, reps;
	const struct ydoc_node *after;
};

/* clang-format off */
static const struct ydoc_key sweep_keys[] = {
	{.name = "from", .kind = YK_DURATION, .required = true,
	 .offset = offsetof(struct sweep_raw, from), .bounded = true, .min = 1e6, .max = 365 * 86400e9},
	{.name = "to", .kind = YK_DURATION, .required = true,
	 .offset = offsetof(struct sweep_raw, to), .bounded = true, .min = 1e6, .max = 365 * 86400e9},
	{.name = "count", .kind = YK_UINT, .required = true,
	 .offset = offsetof(struct sweep_raw, count), .bounded = true, .min = 2, .max = 64},
	{.name = "reps", .kind = YK_UINT,
	 .offset = offsetof(struct sweep_raw, reps), .bounded = true, .min = 1, .max = 16},
	{.name = "seed", .kind = YK_U64, .offset = offsetof(struct sweep_raw, seed)},
	{.name = "after", .kind = YK_SEQUENCE, .required = true,
	 .offset = offsetof(struct sweep_raw, after)},
	{0},
};
/* clang-format on */

/* Appends the phases of l to body, taking them over (l's array is freed, not its phases). */
static int take_phases(struct phase_list *body, struct phase_list *l)
{
	struct profile_phase *v = realloc(body->v, (body->n + l->n) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	memcpy(v + body->n, l->v, l->n * sizeof(*v));
	body->v = v;
	body->n += l->n;
	free(l->v);
	l->v = NULL;
	l->n = 0;
	return 0;
}

static int add_idle(struct phase_list *body, uint64_t ns, const struct ydoc_node *n)
{
	struct profile_phase *v = realloc(body->v, (body->n + 1) * sizeof(*v));
	struct phase_idle *d;

	if (!v)
		return -ENOMEM;
	body->v = v;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->time_ns = ns;
	body->v[body->n++] = (struct profile_phase){
	    .kind = &phase_idle_kind, .data = d, .line = n->line, .col = n->col};
	return 0;
}

static int sweep_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
		       struct ydoc_error *err)
{
	struct phase_idle_sweep *p = data;
	struct sweep_raw raw = {.reps = 2};
	struct phase_parse_ctx inner = *ctx;
	struct phase_list body = {0};
	struct prng rng;
	uint64_t *order = NULL;
	size_t total;
	int ret = ydoc_map_read(n, "idle_sweep", sweep_keys, &raw, NULL, err);

	if (ret)
		return ret;
	if (raw.to <= raw.from)
		return ydoc_errorf(err, n, "idle_sweep: 'to' must be longer than 'from'");
	if (ctx->depth + 1 >= PROFILE_MAX_DEPTH)
		return ydoc_errorf(err, n, "idle_sweep nested more than %d deep",
				   PROFILE_MAX_DEPTH - 1);
	if (!raw.seed)
		raw.seed = ctx->defaults->seed ? ctx->defaults->seed : 1;
	inner.depth = ctx->depth + 1;
	total = (size_t)raw.count * raw.reps;
	order = calloc(total, sizeof(*order));
	if (!order)
		return -ENOMEM;
	/* log-spaced, to the millisecond: from x (to / from)^(i / (count - 1)) */
	for (size_t i = 0; i < total; i++) {
		double k = (double)(i % raw.count) / (raw.count - 1);

		order[i] = (uint64_t)llround((double)raw.from * pow((double)raw.to / (double)raw.from,
								    k) / 1e6) * 1000000ull;
	}
	prng_seed(&rng, raw.seed, 0);
	for (size_t i = total - 1; i > 0; i--) { /* Fisher-Yates */
		size_t j = (size_t)prng_below(&rng, i + 1);
		uint64_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < total; i++) {
		struct phase_list after = {0};

		ret = add_idle(&body, order[i], n);
		if (!ret)
			ret = profile_parse_phase_list(raw.after, "idle_sweep.after", &inner, &after,
						       err);
		if (!ret) {
			ret = take_phases(&body, &after);
			phase_list_release(&after);
		}
		if (ret)
			goto fail;
	}
	p->from_ns = raw.from;
	p->to_ns = raw.to;
	p->count = raw.count;
	p->reps = raw.reps;
	p->seed = raw.seed;
	p->order_ns = order;
	p->n = total;
	p->body = body;
	return 0;
fail:
	phase_list_release(&body);
	free(order);
	return ret;
}

static void sweep_release(void *data)
{
	struct phase_idle_sweep *p = data;

	phase_list_release(&p->body);
	free(p->order_ns);
	p->order_ns = NULL;
}

static bool sweep_destructive(const void *data)
{
	return phase_list_first_writer(&((const struct phase_idle_sweep *)data)->body) != NULL;
}

/* The sweep's keys and its order; the body's phases are the plan's own steps. */
static struct json_object *sweep_json(const void *data)
{
	const struct phase_idle_sweep *p = data;
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	bool bad = !o || !a;

	if (o) {
		bad |= phase_json_add(o, "from_ns", json_object_new_uint64(p->from_ns));
		bad |= phase_json_add(o, "to_ns", json_object_new_uint64(p->to_ns));
		bad |= phase_json_add(o, "count", json_object_new_int((int)p->count));
		bad |= phase_json_add(o, "reps", json_object_new_int((int)p->reps));
		bad |= phase_json_add(o, "seed", json_object_new_uint64(p->seed));
		for (size_t i = 0; a && i < p->n; i++)
			bad |= phase_json_append(a, json_object_new_uint64(p->order_ns[i]));
		bad |= phase_json_add(o, "order_ns", a);
		a = NULL;
		bad |= phase_json_add(o, "phases", profile_phase_list_to_json(&p->body));
	}
	json_object_put(a);
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void sweep_describe(const void *data, char *buf, size_t len)
{
	const struct phase_idle_sweep *p = data;
	char a[32], b[32];

	snprintf(buf, len, "idle_sweep %u idles %s..%s log-spaced, %u time%s each, shuffled (seed %llu)",
		 p->count, units_fmt_duration(p->from_ns, a, sizeof(a)),
		 units_fmt_duration(p->to_ns, b, sizeof(b)), p->reps, p->reps == 1 ? "" : "s",
		 (unsigned long long)p->seed);
}

static int sweep_bytes(const void *data, uint64_t capacity, uint64_t *bytes)
{
	return profile_phase_list_bytes(&((const struct phase_idle_sweep *)data)->body, capacity,
					bytes);
}

static const struct phase_list *sweep_body(const void *data, unsigned *count)
{
	*count = 1;
	return &((const struct phase_idle_sweep *)data)->body;
}

/* clang-format off */
const struct phase_kind phase_idle_sweep_kind = {
	.name = "idle_sweep",
	.type = PHASE_IDLE_SWEEP,
	.size = sizeof(struct phase_idle_sweep),
	.parse = sweep_parse,
	.release = sweep_release,
	.destructive = sweep_destructive,
	.to_json = sweep_json,
	.describe = sweep_describe,
	.bytes = sweep_bytes,
	.body = sweep_body,
};
/* clang-format on */
