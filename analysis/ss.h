/* SPDX-License-Identifier: MIT */
/*
 * ss: SNIA steady-state detection, one pure module used by the runner (to stop the rounds of a
 * phase) and by analyze (to report). It takes a plain array of the tracking variable, one value
 * per round (e.g. the RND 4 KiB write IOPS of each round), and returns a plain struct.
 *
 * The rule (SNIA SSS PTS-E 1.1 and PTS 2.0.1, "Steady State"; ../shared/reference/snia_pts.md):
 * over the measurement window, the last `window` rounds (5 by default),
 *   - data excursion:  max(y) - min(y)                  <= max_data_excursion  x avg(y)  (20%)
 *   - slope excursion: |slope| x (window - 1)           <= max_slope_excursion x avg(y)  (10%)
 * where slope is the least-squares line y = slope x round + intercept over the window
 * (gsl_fit_linear), so the slope excursion is the range of the fitted line across the window,
 * not fio's per-sample percentage. At most max_rounds rounds (25) are run; steady state not
 * reached by then is a finding (exit 0, flagged), not an error. The window is then rounds
 * x-4..x, x being the last round (PTS-E 1.1, 3.2.1.2.3).
 *
 * Rounds are numbered by the caller (`first_round` is the number of y[0]; the runner uses 1 for
 * the first round); the fit uses these numbers as x, so the intercept is that of y over the round
 * number, as SNIA reports print it ("Least Squares Linear Fit Formula").
 *
 * A measured excursion equal to the allowed one counts as within (the rule says "no more
 * than"); comparisons allow a relative 1e-9 so that a window exactly at the limit when computed
 * by hand in decimal is judged the same way in binary floating point. The tracking variable
 * must be positive and finite (IOPS, bandwidth, latency): a window with a non-positive average
 * or a non-finite value never counts as steady.
 */
#ifndef SSDLAB_SS_H
#define SSDLAB_SS_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

#define SS_DEFAULT_WINDOW 5
#define SS_DEFAULT_MAX_DATA_EXCURSION 0.20
#define SS_DEFAULT_MAX_SLOPE_EXCURSION 0.10
#define SS_DEFAULT_MAX_ROUNDS 25

struct ss_params {
	unsigned window;	    /* rounds in the measurement window, >= 2 */
	double max_data_excursion;  /* fraction of the window average, (0, 10] */
	double max_slope_excursion; /* fraction of the window average, (0, 10] */
	unsigned max_rounds;	    /* >= window */
};

enum ss_verdict {
	SS_TOO_FEW = 0, /* fewer rounds than the window: not judged yet, keep going */
	SS_NOT_YET,	/* judged, not steady, rounds < max_rounds: keep going */
	SS_REACHED,	/* steady: stop the rounds */
	SS_NOT_REACHED, /* not steady by max_rounds: stop, a finding */
};

struct ss_result {
	enum ss_verdict verdict;
	bool reached;	 /* verdict == SS_REACHED */
	bool stop;	 /* the runner should stop the rounds: SS_REACHED or SS_NOT_REACHED */
	unsigned rounds; /* rounds seen (n) */
	unsigned window; /* rounds in the window actually used: min(n, params.window) */
	unsigned first_round, last_round; /* round numbers of the window, inclusive */
	double average;			  /* mean of y over the window */
	double min, max;		  /* of y over the window */
	double data_excursion;		  /* max - min */
	double allowed_data_excursion;	  /* max_data_excursion x average */
	double slope, intercept;	  /* least-squares fit of y over the round number */
	double slope_excursion;		  /* |slope| x (window - 1) */
	double allowed_slope_excursion;	  /* max_slope_excursion x average */
	bool data_ok, slope_ok;		  /* each criterion on its own */
	struct ss_params params;	  /* the parameters used */
};

/* Fills p with the SNIA defaults: window 5, 20%, 10%, 25 rounds. */
void ss_params_default(struct ss_params *p);

/* 0 when p is usable, -EINVAL otherwise (window < 2, max_rounds < window, fractions <= 0 or > 10
 * or not finite). */
int ss_params_validate(const struct ss_params *p);

/*
 * Judges the window ending at the last value: y[0..n-1] are the tracking variable of rounds
 * first_round .. first_round + n - 1. This is the runner's call after each round.
 *
 * Returns 0 and fills *r (every field; with n < window the statistics are those of the n values
 * seen, the fit needs n >= 2, else slope = 0 and intercept = y[0]); -EINVAL for bad params or
 * n == 0 or y == NULL; -EDOM when GSL's fit fails. *r is untouched on failure.
 */
int ss_check(const double *y, size_t n, unsigned first_round, const struct ss_params *p,
	     struct ss_result *r);

/*
 * Replays a finished series the way the runner decides: judges the windows ending at rounds
 * window .. n in order and reports the first one that is steady (verdict SS_REACHED); when none
 * is, reports the window ending at the last round (SS_NOT_REACHED when n >= max_rounds, else
 * SS_NOT_YET, or SS_TOO_FEW when n < window). This is analyze's call. Same returns as ss_check.
 * Rounds after the reached window (a fixed round count) do not change the answer.
 */
int ss_scan(const double *y, size_t n, unsigned first_round, const struct ss_params *p,
	    struct ss_result *r);

/* "too_few", "not_yet", "reached", "not_reached". */
const char *ss_verdict_name(enum ss_verdict v);

/*
 * JSON form of a result (docs/results-format.md, summary.json "steady_state"); a new object or
 * NULL on ENOMEM. Non-finite numbers become null.
 */
struct json_object *ss_result_to_json(const struct ss_result *r);

/*
 * Parameters as JSON {"window":5,"max_data_excursion":0.2,"max_slope_excursion":0.1,
 * "max_rounds":25} (fractions, not percent) and back. from_json starts from the defaults, takes
 * the keys present, validates; -EINVAL on a wrong type or invalid value (p untouched).
 */
struct json_object *ss_params_to_json(const struct ss_params *p);
int ss_params_from_json(struct json_object *o, struct ss_params *p);

#endif
