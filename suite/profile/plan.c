/* SPDX-License-Identifier: MIT */
/*
 * plan: flattening a phase list into steps through the registry's length and body hooks, and
 * the sums over them (plan.h).
 */
#include "profile/plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int push(struct plan *pl, const struct plan_step *s)
{
	struct plan_step *grown = realloc(pl->v, (pl->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	pl->v = grown;
	pl->v[pl->n++] = *s;
	return 0;
}

static int flatten(struct plan *pl, const struct phase_list *l, const struct phase_env *env,
		   int *next, unsigned repeat, int depth, bool first)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct profile_phase *ph = &l->v[i];
		struct plan_step s = {.phase = (*next)++, .repeat = repeat, .depth = depth,
				      .first = first, .ph = ph};
		const struct phase_list *body;
		unsigned count = 0;
		int rc;

		if (ph->kind->length)
			ph->kind->length(ph->data, env, &s.len);
		rc = push(pl, &s);
		if (rc)
			return rc;
		body = ph->kind->body ? ph->kind->body(ph->data, &count) : NULL;
		if (!body)
			continue;
		/* The body is numbered once; every iteration reuses its numbers (count >= 1). */
		{
			int start = *next;

			for (unsigned k = 0; k < count && !rc; k++) {
				*next = start;
				rc = flatten(pl, body, env, next, repeat * count + k, depth + 1,
					     first && k == 0);
			}
			if (rc)
				return rc;
		}
	}
	return 0;
}

int plan_build(const struct phase_list *l, const struct phase_env *env, struct plan *out)
{
	struct plan pl = {0};
	int next = 0, rc = flatten(&pl, l, env, &next, 0, 0, true);

	if (rc) {
		plan_release(&pl);
		return rc;
	}
	pl.nphases = next;
	*out = pl;
	return 0;
}

void plan_release(struct plan *pl)
{
	if (!pl)
		return;
	free(pl->v);
	pl->v = NULL;
	pl->n = 0;
}

uint64_t plan_step_ns(const struct plan_step *s, double bps, bool *known)
{
	uint64_t one = s->len.ns + s->drain_ns;
	double speed = s->bps > 0 ? s->bps : bps;

	if (s->len.bytes) {
		if (speed > 0)
			one += (uint64_t)((double)s->len.bytes / speed * 1e9);
		else
			*known = false;
	}
	if (s->len.cap_ns && one > s->len.cap_ns)
		one = s->len.cap_ns;
	return one;
}

void plan_span(const struct plan *pl, size_t from, double bps, uint64_t *lo, uint64_t *hi,
	       bool *known)
{
	*lo = *hi = 0;
	*known = true;
	for (size_t i = from; i < pl->n; i++) {
		uint64_t one = plan_step_ns(&pl->v[i], bps, known);

		*lo += one * pl->v[i].len.rounds_lo;
		*hi += one * pl->v[i].len.rounds_hi + pl->v[i].cooldown_ns;
	}
}

double plan_mean_bs(const struct job_spec *s)
{
	double sum = 0, wsum = 0;

	for (unsigned i = 0; i < s->nbs; i++) {
		sum += (double)s->bs[i].bs * s->bs[i].weight;
		wsum += s->bs[i].weight;
	}
	return wsum > 0 ? sum / wsum : 4096;
}

uint64_t plan_assumed_drain_ns(const struct job_spec *s)
{
	return (uint64_t)((double)s->threads * s->qd * plan_mean_bs(s) / PLAN_ASSUMED_BPS * 1e9);
}

/* The assumed drains of one instance of step st into *out. 0 or -ENOMEM. */
static int step_assumed_drain(const struct plan_step *st, const struct phase_env *env,
			      uint32_t lbs, uint64_t *out)
{
	const struct phase_kind *k = st->ph->kind;
	struct phase_job *jobs = NULL;
	size_t n = 0;
	uint64_t sum = 0;
	int rc;

	if (!k->jobs || k->body)
		goto done;
	rc = k->jobs(st->ph->data, &jobs, &n);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		const struct profile_workload *w = &jobs[i].w;
		struct job_spec s;
		char e[256];

		/* As the planner's probes: only a cell with a time of its own drains. */
		if (!jobs[i].cell || w->length.kind != AMOUNT_TIME || !phase_scale_ns(env, w->length.ns))
			continue;
		if (profile_workload_resolve(w, env->capacity, lbs, env->scale, &s, e, sizeof(e)))
			continue;
		sum += plan_assumed_drain_ns(&s);
	}
	free(jobs);
done:
	*out = sum;
	return 0;
}

int plan_assume_drains(struct plan *pl, const struct phase_env *env, uint32_t lbs)
{
	uint64_t *d = calloc(pl->n ? pl->n : 1, sizeof(*d));
	int rc = 0;

	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < pl->n && !rc; i++)
		rc = step_assumed_drain(&pl->v[i], env, lbs, &d[i]);
	if (!rc)
		for (size_t i = 0; i < pl->n; i++)
			pl->v[i].drain_ns = d[i];
	free(d);
	return rc;
}

double plan_write_share(const struct job_spec *s)
{
	switch (s->rw) {
	case RW_WRITE:
	case RW_RANDWRITE: return 1;
	case RW_READ:
	case RW_RANDREAD: return 0;
	default: return s->rwmix_read >= 100 ? 0 : (100.0 - s->rwmix_read) / 100.0;
	}
}

double plan_assumed_cell_bps(const struct job_spec *s)
{
	double rnd = PLAN_TYPICAL_RND_IOPS * plan_mean_bs(s);

	if (s->rw == RW_READ || s->rw == RW_WRITE || s->rw == RW_RW)
		return PLAN_ASSUMED_BPS;
	return rnd < PLAN_ASSUMED_BPS ? rnd : PLAN_ASSUMED_BPS;
}

double plan_typical_bps(const struct job_spec *s)
{
	double rnd = PLAN_TYPICAL_RND_IOPS * plan_mean_bs(s);

	if (s->rw == RW_READ || s->rw == RW_WRITE || s->rw == RW_RW)
		return PLAN_TYPICAL_SEQ_BPS;
	return rnd < PLAN_TYPICAL_SEQ_BPS ? rnd : PLAN_TYPICAL_SEQ_BPS;
}

/* The typical drive's speed for step st's byte part: that of its first job with an amount (a
 * precondition, a write_until, a rounds phase's pre-write); 0 when it has none. */
static int typical_step_bps(const struct plan_step *st, double *bps)
{
	const struct phase_kind *k = st->ph->kind;
	struct phase_job *jobs = NULL;
	size_t n = 0;
	int rc;

	*bps = 0;
	if (!k->jobs || k->body)
		return 0;
	/* the sprandom fill: random offsets, but no GC until it ends (plan.h) */
	if (!strcmp(k->name, "precondition") && ((const struct phase_write *)st->ph->data)->spr.on) {
		*bps = PLAN_TYPICAL_SEQ_BPS;
		return 0;
	}
	rc = k->jobs(st->ph->data, &jobs, &n);
	if (rc)
		return rc;
	for (size_t i = 0; i < n && !*bps; i++)
		if (jobs[i].w.length.kind != AMOUNT_TIME)
			*bps = plan_typical_bps(&jobs[i].w.spec);
	free(jobs);
	return 0;
}

int plan_typical_span(const struct phase_list *l, uint64_t *lo, uint64_t *hi)
{
	const struct phase_env env = {
	    .capacity = PLAN_TYPICAL_CAPACITY, .scale = 1.0, .real_purge = true,
	    .lbs = PLAN_TYPICAL_LBS,
	    /* the space GC can fill at the typical spare, for the sprandom fill's bytes */
	    .nand = {.gc_space_bytes =
			 (uint64_t)((double)PLAN_TYPICAL_CAPACITY / (1 - PLAN_TYPICAL_SPARE))}};
	struct plan pl = {0};
	bool known;
	int rc = plan_build(l, &env, &pl);

	for (size_t i = 0; !rc && i < pl.n; i++)
		rc = typical_step_bps(&pl.v[i], &pl.v[i].bps);
	if (!rc)
		/* a byte part without a job of its own (none among the kinds today) counts at the
		 * sequential rate */
		plan_span(&pl, 0, PLAN_TYPICAL_SEQ_BPS, lo, hi, &known);
	plan_release(&pl);
	return rc;
}

size_t plan_find(const struct plan *pl, int phase, unsigned repeat)
{
	for (size_t i = 0; i < pl->n; i++)
		if (pl->v[i].phase == phase && pl->v[i].repeat == repeat)
			return i;
	return pl->n;
}
