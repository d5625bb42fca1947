/* SPDX-License-Identifier: MIT */
/*
 * cooldown_gate: the wait before a phase (cooldown_gate.h).
 */
#include "run/cooldown_gate.h"

#include <errno.h>

int cooldown_gate_wait(struct target *t, const struct profile_cooldown *c,
		       volatile sig_atomic_t *stop, struct cooldown_result *out)
{
	struct cooldown_result r = {0};
	uint64_t t0 = target_now(t), now = t0;
	double temp;
	int rc = target_temperature(t, &temp, 0);

	if (rc)
		return rc;
	r.start_c = r.end_c = temp;
	r.readings = 1;
	for (;;) {
		uint64_t left, wait;

		if (temp < c->below_c) {
			r.reached = true;
			break;
		}
		if (now - t0 >= c->max_wait_ns)
			break;
		left = c->max_wait_ns - (now - t0);
		wait = c->poll_ns < left ? c->poll_ns : left;
		rc = target_idle(t, wait);
		now = target_now(t);
		r.waited_ns = now - t0;
		if (!rc && stop && *stop)
			rc = -EINTR;
		if (!rc)
			rc = target_temperature(t, &temp, 0);
		if (rc)
			break;
		r.end_c = temp;
		r.readings++;
	}
	*out = r;
	return rc;
}
