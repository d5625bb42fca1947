/* SPDX-License-Identifier: MIT */
/*
 * gcrate: the GC recovery rate, as pure functions. For each idle interval the drive is at
 * random-write steady state, rests for t, then writes again; the bytes it writes above the
 * steady-state throughput until it is back (recovery.h's rule) are what its idle GC recovered.
 * gcrate_excess() turns the measurements after one idle into that number; gcrate_fit() fits the
 * recovered bytes R against the idle time t with two models that both start after an onset delay
 * t0 (drives wait before idle GC starts):
 *
 *   linear-capped  R = min(r (t - t0), Rmax)          (GC at a fixed rate until nothing is left)
 *   exponential    R = Rmax (1 - exp(-(t - t0) / tau)) (GC that slows as victims get fuller)
 *
 * and R = 0 for t < t0 in both, plus a "none" model (R = c, a constant: no recovery), and picks
 * one by BIC. Callers own all memory; nothing here allocates what it returns.
 */
#ifndef SSDLAB_ANALYSIS_GCRATE_H
#define SSDLAB_ANALYSIS_GCRATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/recovery.h"

/* What came after one idle: see gcrate_excess(). */
struct gcrate_excess {
	double excess_bytes;	 /* integral of (throughput - steady) until back (>= 0 or not) */
	double written_bytes;	 /* bytes written before back (the stretch's bytes) */
	double stretch_ns;	 /* writing time before back */
	double stretch_bps;	 /* written_bytes / stretch_ns (NaN for an empty stretch) */
	double first_bps;	 /* the first measurement's throughput */
	bool back;		 /* recovery_scan found the drive back at steady state */
	size_t measurements;	 /* measurements judged */
	uint64_t first_write_ns; /* the first measurement's writing time */
};

/*
 * The excess bytes after one idle: p[0..n) are the measurements after it with value the
 * throughput in bytes per second (metric "bw"), write_ns and write_bytes what each one wrote;
 * steady_bps the steady-state throughput before the idle. "Back" is recovery_scan() with rule
 * (NULL: RECOVERY_RULE_DEFAULT); the excess is sum(write_bytes) - steady_bps * sum(write_ns)
 * over the measurements before back, i.e. the integral of (throughput - steady) over that
 * stretch, exact whatever the measurements' lengths because each one's mean throughput times
 * its time is its bytes. When the drive is not back within the measurements, the whole series
 * counts (back = false: a lower bound). 0; -ENODATA for n = 0; -EINVAL for steady_bps <= 0.
 */
int gcrate_excess(const struct recovery_point *p, size_t n, double steady_bps,
		  const struct recovery_rule *rule, struct gcrate_excess *out);

/* One point of the fit: idle time (seconds) and recovered bytes. */
struct gcrate_point {
	double t;
	double bytes;
};

enum gcrate_model { GCRATE_NONE = 0, GCRATE_LINEAR_CAPPED, GCRATE_EXPONENTIAL, GCRATE_NMODELS };
const char *gcrate_model_name(enum gcrate_model m); /* "none", "linear_capped", "exponential" */

/*
 * One model's fit. Parameters in bytes and seconds; *_se their standard errors (NaN where the
 * data do not determine one). r is the initial rate: the linear model's slope, the exponential's
 * Rmax / tau (its slope at t0). rmax_reached is false when the linear model's best fit has no
 * point on its plateau (Rmax then NaN: not reached within the longest idle). quality: R^2
 * (1 - RSS / TSS), RMSE (sqrt(RSS / n)); bic = n ln(RSS / n) + k ln n; aic = n ln(RSS / n) + 2k.
 */
struct gcrate_fit {
	bool ok; /* fitted (enough points, the solver converged) */
	unsigned k;
	double r, rmax, tau, t0;
	double r_se, rmax_se, tau_se, t0_se;
	bool rmax_reached;
	double rss, r2, rmse, aic, bic;
};

struct gcrate_result {
	size_t n;
	struct gcrate_fit fit[GCRATE_NMODELS];
	enum gcrate_model chosen; /* see gcrate_fit() */
	double delta_bic; /* least BIC of the others minus the chosen one's (NaN alone; < 0 when
			   * "none" is kept by GCRATE_BIC_EVIDENCE) */
};

/* How much lower a curve's BIC must be than the constant's to count as recovery: 2, "positive"
 * evidence on Kass and Raftery's scale (J. Am. Stat. Assoc. 90, 1995, 773-795). Without it one
 * noise sweep in ten passes for an exponential with a tau below the shortest idle and an
 * absurd initial rate. */
#define GCRATE_BIC_EVIDENCE 2.0

/*
 * Fits p[0..n) (any order; t >= 0) with the three models and chooses one by BIC (the criterion:
 * with n of 16 points, the usual sweep, AIC's penalty of 2 per parameter lets a three-parameter
 * curve win on noise over the constant; ln 16 = 2.8 does not). The linear-capped model is
 * profiled over its kink: for each split of the points sorted by t, a straight line through the
 * lower ones (gsl_fit_wlinear) and the mean of the upper ones, keeping the split with the least
 * RSS of the capped model; the exponential model by gsl_multifit_nlinear (trust region,
 * Levenberg-Marquardt, from several starting tau), standard errors from the Jacobian's
 * covariance scaled by RSS / (n - k). The chosen model is the curve of lower BIC when it beats
 * "none" by more than GCRATE_BIC_EVIDENCE, else "none". Needs n >= 4 distinct points; -EINVAL for fewer or a
 * negative or non-finite t; *out untouched on failure.
 */
int gcrate_fit(const struct gcrate_point *p, size_t n, struct gcrate_result *out);

#endif
