/* SPDX-License-Identifier: MIT */
/*
 * cooldown_gate: waiting, before a phase, until the target's temperature is below the profile's
 * `cooldown.below` (profile/cooldown.h), in the target's clock, for at most max_wait.
 *
 *   read T at t0
 *   loop: T < below               -> reached
 *         now - t0 >= max_wait    -> not reached (the runner notes and flags it, then goes on)
 *         idle min(poll, the wait left); read T
 *
 * The reading is the full one (no TARGET_TEMP_CHEAP): no I/O is in flight between phases, so a
 * SATA drive's SMART/SCT read drains nothing.
 */
#ifndef SSDLAB_RUN_COOLDOWN_GATE_H
#define SSDLAB_RUN_COOLDOWN_GATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "profile/cooldown.h"
#include "targets/target.h"

struct cooldown_result {
	double start_c, end_c; /* the first and the last reading */
	uint64_t waited_ns;    /* target time from the first reading to the last */
	unsigned readings;
	bool reached;	       /* the last reading is below the threshold */
};

/*
 * Runs the gate c on t. 0 and *out filled (reached or not); -EOPNOTSUPP when the target has no
 * temperature (no wait; *out untouched); -EINTR when *stop was raised (checked after each
 * wait; *out holds the wait so far); a failing read or idle's -errno (*out holds the wait so far).
 */
int cooldown_gate_wait(struct target *t, const struct profile_cooldown *c,
		       volatile sig_atomic_t *stop, struct cooldown_result *out);

#endif
