/* SPDX-License-Identifier: MIT */
/* theory: see theory.h. */
#include "analysis/theory.h"

#include <math.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_lambert.h>

double theory_wa_lrw(double alpha)
{
	gsl_sf_result w;

	if (!isfinite(alpha) || alpha <= 1.0)
		return NAN;
	/* -alpha e^-alpha lies in (-1/e, 0) for alpha > 1: W0 there is in (-1, 0), the branch
	 * the model takes (W-1 would give the trivial -alpha). */
	if (gsl_sf_lambert_W0_e(-alpha * exp(-alpha), &w) != GSL_SUCCESS)
		return NAN;
	return alpha / (alpha + w.val);
}

double theory_wa_greedy(double alpha, unsigned pages_per_block)
{
	double k;

	if (!pages_per_block)
		return NAN;
	k = 1.0 + 1.0 / (2.0 * pages_per_block);
	return theory_wa_lrw(k * alpha) / k;
}
