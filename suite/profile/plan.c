/* SPDX-License-Identifier: MIT */
/*
 * plan: flattening a phase list into steps through the registry's length and body hooks, and
 * the sums over them (plan.h).
 */
#include "profile/plan.h"

#include <errno.h>
#include <stdlib.h>

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
		*hi += one * pl->v[i].len.rounds_hi;
	}
}

size_t plan_find(const struct plan *pl, int phase, unsigned repeat)
{
	for (size_t i = 0; i < pl->n; i++)
		if (pl->v[i].phase == phase && pl->v[i].repeat == repeat)
			return i;
	return pl->n;
}
