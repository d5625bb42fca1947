/* SPDX-License-Identifier: MIT */
/* sim_testlib: see sim_testlib.h. */
#include "sim_testlib.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

uint64_t tl_below(uint64_t *x, uint64_t n)
{
	return ((prng_splitmix64(x) >> 32) * n) >> 32;
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
