/* SPDX-License-Identifier: MIT */
/*
 * ss_early: the early steady-state verdict (issue 19 point 2, docs/early-verdict.md). A pure
 * module beside ss.h: it takes the same tracked series (one value per round) and the SNIA
 * parameters, and says whether the SNIA window that is still incomplete will pass once its
 * missing rounds are run, with a stated confidence. The runner may stop the rounds on a
 * "predicted" (unless --strict-pts); analyze recomputes it from the records.
 *
 * The rule, at round n (the last value seen), window W, confidence C:
 *   - k = min(n, W - 1) observed rounds (the last k) open the candidate window, which ends at
 *     round n - k + W: m = W - k rounds are missing (at least one: a window with every round
 *     seen is the SNIA rule's business, ss_check).
 *   - never before min_rounds rounds (>= 3: a line through 3 points leaves 1 degree of freedom
 *     for its scatter), and never when the candidate window would end after max_rounds (the
 *     SNIA rule could not complete it: nothing to predict).
 *   - least-squares line through the k values over their round numbers (gsl_fit_linear); the
 *     scatter s = max(residual standard deviation, sample standard deviation of the k values).
 *     The floor keeps a series that is still moving (its values spread) from being called flat
 *     because a line happens to fit it.
 *   - each missing round x gets the prediction interval yhat(x) +- t s sqrt(1 + 1/k +
 *     (x - xbar)^2 / Sxx), t the Student t quantile with k - 2 degrees of freedom at two-sided
 *     confidence 1 - (1 - C) / m (Bonferroni: all m intervals hold together with probability at
 *     least C, under the model).
 *   - "predicted" when every choice of the missing values inside their intervals keeps both SNIA
 *     criteria: bounds over the box, data excursion max(hi, observed) - min(lo, observed) and
 *     slope excursion max |slope| x (W - 1) (the least-squares slope is linear in each value, so
 *     its extremes are at corners), both against the smallest possible window average.
 *
 * What the confidence means: the probability, if the series were a straight line plus
 * independent normal noise of the fitted scatter, that the missing rounds land where the window
 * passes. It says nothing about a drive whose behaviour changes later (an SLC cache or spare
 * that empties after the rounds seen): that is the guard's job (the runner and analyze only
 * allow the rule after the host wrote physical capacity + SLC cache since the purge).
 */
#ifndef SSDLAB_SS_EARLY_H
#define SSDLAB_SS_EARLY_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/ss.h"

struct json_object;

#define SS_EARLY_DEFAULT_CONFIDENCE 0.95
#define SS_EARLY_DEFAULT_MIN_ROUNDS 3

struct ss_early_params {
	double confidence;   /* (0.5, 1) */
	unsigned min_rounds; /* >= 3 */
};

/* Why a round was not predicted (a name for the summary: ss_early_why_name). */
enum ss_early_why {
	SS_EARLY_OK = 0,      /* predicted */
	SS_EARLY_TOO_FEW,     /* fewer than min_rounds (or than 3) rounds */
	SS_EARLY_NO_ROOM,     /* the candidate window would end after max_rounds */
	SS_EARLY_COMPLETE,    /* W - 1 < 3: no window with a missing round leaves a fit */
	SS_EARLY_NONPOSITIVE, /* a value or an interval bound <= 0, or not finite */
	SS_EARLY_DATA,	      /* the worst-case data excursion is over the limit */
	SS_EARLY_SLOPE,	      /* the worst-case slope excursion is over the limit (data ok) */
};

struct ss_early_result {
	bool predicted;
	enum ss_early_why why;
	unsigned round;			  /* the last round seen (the round of the verdict) */
	unsigned fit_rounds;		  /* k */
	unsigned missing;		  /* m */
	unsigned first_round, last_round; /* the candidate window, inclusive */
	double slope, intercept;	  /* of the fit over the k rounds */
	double s_resid, s_floor, s;	  /* the scatters; s = max of both */
	double t;			  /* the quantile used */
	double lo_min, hi_max;		  /* extremes of the missing rounds' intervals */
	double avg_min;			  /* smallest window average possible */
	double data_excursion;		  /* worst case over the box */
	double allowed_data_excursion;	  /* max_data_excursion x avg_min */
	double slope_excursion;		  /* worst case |slope| x (W - 1) */
	double allowed_slope_excursion;	  /* max_slope_excursion x avg_min */
	struct ss_early_params params;
};

/* confidence 0.95, min_rounds 3 */
void ss_early_params_default(struct ss_early_params *e);

/* 0, or -EINVAL (confidence not in (0.5, 1), min_rounds < 3). */
int ss_early_params_validate(const struct ss_early_params *e);

/*
 * Judges round n: y[0..n-1] are the tracked values of rounds first_round .. first_round + n - 1.
 * Returns 0 and fills *r (the fields past `why` are NaN/0 when the rule stopped before them);
 * -EINVAL for bad params, y NULL or n 0; -EDOM when GSL fails. *r untouched on failure.
 */
int ss_early_check(const double *y, size_t n, unsigned first_round, const struct ss_params *p,
		   const struct ss_early_params *e, struct ss_early_result *r);

/*
 * Replays a series the way the runner decides after each round: round i (1-based count of
 * values) is skipped when the SNIA rule (ss_check) stops there or earlier (then the scan ends),
 * or when guard_ok (may be NULL: all allowed) is false for it; the first predicted round is
 * returned. When none is, *r is the last round judged (predicted false; round 0 when none was
 * judged). Same returns as ss_early_check.
 */
int ss_early_scan(const double *y, const bool *guard_ok, size_t n, unsigned first_round,
		  const struct ss_params *p, const struct ss_early_params *e,
		  struct ss_early_result *r);

/* "predicted", "too_few", "no_room", "complete", "nonpositive", "data", "slope". */
const char *ss_early_why_name(enum ss_early_why w);

/* {"confidence":0.95,"min_rounds":3} and back (from_json: defaults, then the keys present,
 * validated; -EINVAL, e untouched). */
struct json_object *ss_early_params_to_json(const struct ss_early_params *e);
int ss_early_params_from_json(struct json_object *o, struct ss_early_params *e);

/* The method string the summary states ("early.method"). */
#define SS_EARLY_METHOD                                                                            \
	"linear fit of the last min(n, window-1) rounds, Student t prediction intervals "          \
	"(Bonferroni over the missing rounds), scatter floored at the values' standard deviation"

#endif
