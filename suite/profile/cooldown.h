/* SPDX-License-Identifier: MIT */
/*
 * cooldown: the profile's cool-down gate (`cooldown: {below: 50C, max_wait: 10m, poll: 5s}`),
 * given for the whole profile (top level) or for one phase (beside the phase's kind, which
 * then wins). Before each phase the runner waits until the target's temperature is below
 * `below`, reading it every `poll`, for at most `max_wait` (run/cooldown.h); `ssdlab plan`
 * counts max_wait as the worst case of every phase it applies to.
 *
 * Why a gate: a drive that starts a phase hot throttles sooner, and a throttling drive looks
 * like an SLC-cache cliff (issue 11, point 5).
 */
#ifndef SSDLAB_PROFILE_COOLDOWN_H
#define SSDLAB_PROFILE_COOLDOWN_H

#include <stdbool.h>
#include <stdint.h>

#include "base/ydoc.h"

struct json_object;

#define COOLDOWN_DEFAULT_MAX_WAIT_NS (600ull * 1000000000ull) /* 10m */
#define COOLDOWN_DEFAULT_POLL_NS (5ull * 1000000000ull)	      /* 5s */

struct profile_cooldown {
	bool set;	      /* the profile (or the phase) has one */
	double below_c;	      /* degrees Celsius */
	uint64_t max_wait_ns; /* default COOLDOWN_DEFAULT_MAX_WAIT_NS */
	uint64_t poll_ns;     /* default COOLDOWN_DEFAULT_POLL_NS; at least 1 ms */
};

/*
 * Reads a `cooldown:` mapping: below (required: a temperature, "50C", "323.15K" or a bare
 * number of degrees Celsius), max_wait and poll (durations). 0 and *out filled (set = true);
 * -EINVAL with err at the offending node (file:line:col): unknown key, a bad temperature (an
 * unknown unit, below absolute zero, above 150 C: no drive works there), poll of 0.
 * *out untouched on failure.
 */
int profile_cooldown_parse(const struct ydoc_node *n, struct profile_cooldown *out,
			   struct ydoc_error *err);

/* A temperature text ("50C", "50 C", "323.15K", "50") in degrees Celsius: 0 or -EINVAL. */
int profile_cooldown_temp(const char *text, double *celsius);

/* {below_c, max_wait_ns, poll_ns}: a new object, or NULL (not set, or out of memory). */
struct json_object *profile_cooldown_to_json(const struct profile_cooldown *c);

/* The gate that applies to a phase: the phase's own when set, else the profile's (may be
 * NULL); NULL when neither is set. */
const struct profile_cooldown *profile_cooldown_for(const struct profile_cooldown *phase,
						    const struct profile_cooldown *global);

#endif
