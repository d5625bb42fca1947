/* SPDX-License-Identifier: MIT */
/* sim_testlib: see sim_testlib.h. */
#include "sim_testlib.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

uint64_t tl_below(uint64_t *x, uint64_t n)
{
	return ((prng_splitmix64(x) >> 32) * n) >> 32;
}

double tl_lambert_w0(double z)
{
	double w = -0.5;

	for (int i = 0; i < 100; i++) {
		double ew = exp(w), f = w * ew - z;
		double step = f / (ew * (w + 1) - (w + 2) * f / (2 * w + 2));

		w -= step;
		if (fabs(step) < 1e-15)
			break;
	}
	return w;
}

double tl_wa_lrw(double alpha)
{
	return alpha / (alpha + tl_lambert_w0(-alpha * exp(-alpha)));
}

double tl_wa_greedy(double alpha, unsigned np)
{
	double k = 1.0 + 1.0 / (2.0 * np);

	return tl_wa_lrw(k * alpha) / k;
}

void tl_check(const struct sim_ssd *s)
{
	char why[256];

	if (sim_check(s, why, sizeof(why)))
		fail_msg("FTL invariant broken: %s", why);
}

unsigned tl_earliest(const uint64_t *done, unsigned n)
{
	unsigned best = 0;

	for (unsigned q = 1; q < n; q++)
		if (done[q] < done[best])
			best = q;
	return best;
}
