/* SPDX-License-Identifier: MIT */
/*
 * wa_guard: the WA guard's arithmetic and the replay of the runner's stop decision with it
 * (wa_guard.h).
 */
#include "analysis/wa_guard.h"

#include <errno.h>
#include <math.h>

double wa_guard_expected(double alpha)
{
	if (!isfinite(alpha) || alpha <= 0 || alpha >= 1)
		return NAN;
	return 1.0 / (1.0 - alpha);
}

int wa_guard_check(double wa, double expected, double tolerance, struct wa_guard_round *r)
{
	if (!r || !isfinite(tolerance) || tolerance < 0 || tolerance >= 1)
		return -EINVAL;
	*r = (struct wa_guard_round){.state = WA_GUARD_UNAVAILABLE,
				     .wa = NAN,
				     .expected = NAN,
				     .shortfall = NAN,
				     .tolerance = tolerance};
	if (isfinite(expected) && expected > 0)
		r->expected = expected;
	if (isfinite(wa) && wa > 0)
		r->wa = wa;
	if (isnan(r->wa) || isnan(r->expected))
		return 0;
	r->shortfall = 1.0 - r->wa / r->expected;
	r->state = r->shortfall > tolerance ? WA_GUARD_SHORT : WA_GUARD_OK;
	return 0;
}

const char *wa_guard_state_name(enum wa_guard_state s)
{
	switch (s) {
	case WA_GUARD_OK:
		return "ok";
	case WA_GUARD_SHORT:
		return "short";
	case WA_GUARD_UNAVAILABLE:
		break;
	}
	return "unavailable";
}

const char *wa_guard_stop_name(enum wa_guard_stop s)
{
	switch (s) {
	case WA_GUARD_STOP_SNIA:
		return "snia";
	case WA_GUARD_STOP_EARLY:
		return "early";
	case WA_GUARD_STOP_MAX:
		return "max_rounds";
	case WA_GUARD_STOP_NONE:
		break;
	}
	return "none";
}

int wa_guard_replay(const double *y, const enum wa_guard_state *guard, const bool *early_ok,
		    size_t n, unsigned first_round, const struct ss_params *p,
		    const struct ss_early_params *early, bool strict,
		    struct wa_guard_replay_result *out)
{
	struct wa_guard_replay_result res = {0};
	int rc;

	if (!y || !p || !out)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		unsigned round = first_round + (unsigned)i;
		bool is_short = guard && guard[i] == WA_GUARD_SHORT;
		struct ss_result ss;

		rc = ss_check(y, i + 1, first_round, p, &ss);
		if (rc)
			return rc;
		if (ss.reached && !is_short) {
			res.stop = WA_GUARD_STOP_SNIA;
			res.round = round;
			break;
		}
		if (ss.reached) {
			res.blocked++;
			if (!res.first_blocked)
				res.first_blocked = round;
		}
		if (i + 1 >= p->max_rounds) {
			res.stop = WA_GUARD_STOP_MAX;
			res.round = round;
			break;
		}
		if (!ss.reached && early && (!early_ok || early_ok[i])) {
			struct ss_early_result e;

			rc = ss_early_check(y, i + 1, first_round, p, early, &e);
			if (rc)
				return rc;
			if (e.predicted && !strict && !is_short) {
				res.stop = WA_GUARD_STOP_EARLY;
				res.round = round;
				break;
			}
			if (e.predicted && !strict) {
				res.blocked++;
				if (!res.first_blocked)
					res.first_blocked = round;
			}
		}
	}
	*out = res;
	return 0;
}
