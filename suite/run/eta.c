/* SPDX-License-Identifier: MIT */
/*
 * eta: the whole-run ETA (eta.h), a sum over the plan's steps like `ssdlab plan`'s, with the
 * speed of amount-bound parts taken from what this run has executed. Apart from the runner so
 * that the walk does not carry the arithmetic of its own progress line.
 */
#include "run/eta.h"

void eta_run(const struct eta *eta, int phase, unsigned repeat, unsigned round, uint64_t job_ns,
	     uint64_t job_bytes, uint64_t job_t_ns, uint64_t *lo_out, uint64_t *hi_out, bool *known_out)
{
	double bps = eta->io_ns + job_t_ns
			     ? (double)(eta->io_bytes + job_bytes) * 1e9 /
				       (double)(eta->io_ns + job_t_ns)
			     : 0;
	uint64_t lo = 0, hi = 0, rlo, rhi;
	bool known = true, rest_known;
	size_t cur = plan_find(&eta->plan, phase, repeat);

	if (cur < eta->plan.n) {
		const struct plan_step *e = &eta->plan.v[cur];
		unsigned flags = e->ph->kind->flags;

		if (flags & PHASE_KIND_CHUNKED) {
			/* The phase's own pace: a random fill is much slower than the sequential
			 * one before it. */
			uint64_t pb = eta->done_bytes + job_bytes, pt = eta->done_ns + job_t_ns;
			double pbps = pb && pt ? (double)pb * 1e9 / (double)pt : bps;
			struct plan_step left = {.len = {.bytes = 0}};

			if (eta->left_ns)
				lo = eta->left_ns > job_t_ns ? eta->left_ns - job_t_ns : 0;
			else if (eta->left_bytes > job_bytes) {
				left.len.bytes = eta->left_bytes - job_bytes;
				lo = plan_step_ns(&left, pbps, &known);
			} else
				lo = job_ns;
			hi = lo;
		} else if (flags & PHASE_KIND_ROUNDS) {
			struct plan_step rest = *e;
			/* This round's rest is in job_ns (runner's eta_extra_ns). */
			rest.len.rounds_lo = e->len.rounds_lo > round ? e->len.rounds_lo - round : 0;
			rest.len.rounds_hi = e->len.rounds_hi > round ? e->len.rounds_hi - round : 0;
			lo = hi = job_ns;
			lo += plan_step_ns(&rest, bps, &known) * rest.len.rounds_lo;
			hi += plan_step_ns(&rest, bps, &known) * rest.len.rounds_hi;
		} else if ((flags & PHASE_KIND_WAIT) && !job_ns) {
			lo = hi = plan_step_ns(e, bps, &known);
		} else {
			lo = hi = job_ns;
		}
	}
	plan_span(&eta->plan, cur + (cur < eta->plan.n), bps, &rlo, &rhi, &rest_known);
	lo += rlo;
	hi += rhi;
	known = known && rest_known;
	*lo_out = lo;
	*hi_out = hi;
	*known_out = known;
}


void eta_measured_drain(struct eta *e, int phase, unsigned repeat, uint64_t drain_ns)
{
	for (size_t i = plan_find(&e->plan, phase, repeat); i < e->plan.n; i++)
		if (e->plan.v[i].phase == phase)
			e->plan.v[i].drain_ns = drain_ns;
}
