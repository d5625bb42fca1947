/* SPDX-License-Identifier: MIT */
/*
 * cmpmatch: the pure matching logic of `ssdlab compare` (compare.c). Each run is a list of named
 * figures; runs of different profiles compare on the names they all have (the shared rows, in the
 * first run's order) and the rest is listed per run. A figure differs from the first run's when
 * their ratio is outside [1 - thr, 1 + thr]. No JSON, no I/O: tests/unit/test_cmpmatch.c.
 */
#ifndef SSDLAB_REPORT_CMPMATCH_H
#define SSDLAB_REPORT_CMPMATCH_H

#include <stdbool.h>
#include <stddef.h>

struct cmpmatch_run {
	const char *const *keys; /* the figures' names; a name repeated in a run counts once */
	size_t n;
};

/*
 * The rows shared by all nruns runs: for each name of run 0 (first occurrences, run 0's order)
 * present in every run, idx[row * nruns + r] is its first index in run r. *idx is a new array
 * (NULL for 0 rows; the caller frees it). Returns the number of rows, or -ENOMEM (-EINVAL for
 * nruns 0).
 */
long cmpmatch_shared(const struct cmpmatch_run *runs, size_t nruns, size_t **idx);

/* Whether name key is in every run. */
bool cmpmatch_in_all(const struct cmpmatch_run *runs, size_t nruns, const char *key);

/* Whether key first occurs in run r at index i (a later repetition is neither shared nor listed). */
bool cmpmatch_first(const struct cmpmatch_run *run, size_t i);

/*
 * The ratio v / ref in *ratio and whether it is beyond the threshold: 1 when |v - ref| > thr x |ref|,
 * 0 when within, -1 when not comparable (ref 0, NaN or infinite, or v NaN; *ratio NaN). Two
 * zeros are equal (ratio 1, within).
 */
int cmpmatch_diff(double v, double ref, double thr, double *ratio);

#endif
