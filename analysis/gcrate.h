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
	double excess_bytes;	 /* integral of (throughput - steady) over the stretch */
	double written_bytes;	 /* bytes written in the stretch */
	double stretch_ns;	 /* writing time of the stretch */
	double stretch_bps;	 /* written_bytes / stretch_ns (NaN for an empty stretch) */
	double first_bps;	 /* the first measurement's throughput */
	bool back;		 /* recovery_scan found the drive back at steady state */
	size_t measurements;	 /* measurements judged */
	size_t stretch_meas;	 /* measurements in the stretch */
	uint64_t first_write_ns; /* the first measurement's writing time */
	double first_excess;	 /* the first measurement's own excess (its bytes - steady x its time) */
};

/*
 * The excess bytes after one idle: p[0..n) are the measurements after it with value the
 * throughput in bytes per second (metric "bw"), write_ns and write_bytes what each one wrote;
 * steady_bps the steady-state throughput before the idle. "Back" is recovery_scan() with rule
 * (NULL: RECOVERY_RULE_DEFAULT) on the values clamped from below at steady_bps (one-sided: a
 * measurement below steady state is not elevated); the stretch is the measurements up to the last one above the
 * band (steady_bps * (1 + band)) before back, and the excess sum(write_bytes) - steady_bps *
 * sum(write_ns) over it: the integral of (throughput - steady) over the stretch, exact whatever
 * the measurements' lengths because each one's mean throughput times its time is its bytes.
 * Why the stretch ends at the last elevated measurement and not at back: once its recovered
 * blocks are spent the virtual SSD (and a drive whose idle GC compacted the emptiest blocks)
 * runs below steady state for a while, GC facing fuller victims, and noisy measurements may
 * take long to give three in the band; integrating that dip would subtract a later debt from
 * what the idle recovered. Noise inside the stretch counts both ways. When the drive is not back
 * within the measurements (back = false) the stretch ends at the last elevated one all the same.
 * An idle after which nothing is above the band recovered 0. 0; -ENODATA for n = 0; -EINVAL for
 * steady_bps <= 0; -ENOMEM.
 */
int gcrate_excess(const struct recovery_point *p, size_t n, double steady_bps,
		  const struct recovery_rule *rule, struct gcrate_excess *out);

/*
 * The free space behind an excess: excess * fast / (fast - steady). Why: a drive that keeps its
 * foreground GC going at the steady-state pace while it spends recovered blocks turns all of
 * the excess into host writes, and excess = free space; one that stops GC while it has free
 * blocks above its watermark (the virtual SSD, and drives whose GC is on demand) writes the
 * recovered space F at its fast speed, and the integral over that stretch is F (1 - steady /
 * fast). The two are the bounds; the second is the larger. fast is the drive's throughput with
 * no GC in the way (gcrate_fast_bps). Returns excess unchanged when fast is below
 * GCRATE_FAST_MIN_RATIO times steady or either is not positive: near steady state the factor
 * divides by a small difference of two noisy rates (a drive without idle GC, whose "fast" is
 * the noise of its steady state, had its 2 MB of noise made 20 MB).
 */
#define GCRATE_FAST_MIN_RATIO 2.0
double gcrate_recovered(double excess, double steady_bps, double fast_bps);

/*
 * The fast speed of a sweep: the median stretch throughput (written_bytes / stretch_ns) of the
 * excesses whose stretch spans at least `min_meas` measurements (long recoveries, mostly at
 * that speed), else the largest first_bps (the first measurement after the shortest-lived
 * recoveries is the nearest to it). NaN when n is 0.
 */
double gcrate_fast_bps(const struct gcrate_excess *e, size_t n, size_t min_meas);

/*
 * A refilled cache or recovered free blocks (issue 12: "a short burst at cache speed vs a longer
 * stretch above steady state"): true when the recovery never outlasts the first measurement
 * after an idle, i.e. rmax (the fitted plateau) is at most GCRATE_BURST_FACTOR times the median
 * first-measurement excess of e[0..n). A write buffer or SLC cache that empties while the drive
 * rests is written at once at the cache's speed and fills within the first measurement however
 * long the rest; free blocks recovered by idle GC grow with the rest and are written at the
 * speed of GC-free writes over a stretch of measurements. The virtual SSD with idle GC off and
 * an 8 MiB write buffer: rmax 9 MB against 7 MB in the first 84 ms measurement, a burst; with
 * aggressive idle GC: 297 MB against 55 MB, free blocks. The limit: a cache so large or
 * measurements so long that GC's whole recovery fits in the first one looks like a burst too
 * (the profile's 10 s records on a real drive write a few GB each). False for n = 0 or an rmax
 * that is not finite.
 */
bool gcrate_burst_only(const struct gcrate_excess *e, size_t n, double rmax);
#define GCRATE_BURST_FACTOR 1.5

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
 * "none" by more than GCRATE_BIC_EVIDENCE, else "none". Needs n >= 4 points over at least two
 * idle times: -EINVAL for fewer, a single idle time, or a negative or non-finite t or bytes;
 * -ENOMEM; *out untouched on failure.
 */
int gcrate_fit(const struct gcrate_point *p, size_t n, struct gcrate_result *out);

#endif
