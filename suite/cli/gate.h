/* SPDX-License-Identifier: MIT */
/*
 * gate: the safety gate at the CLI edge, as `io`, `run` and `resume` pass through it before
 * writing to a target. Two steps: before opening, the device must not be in use (mounted, held
 * open exclusively, swap, a loop device's backing file), so that the user reads the reason
 * rather than a bare EBUSY from the O_EXCL open; after opening, the user confirms the write for
 * this very device (--yes-destroy with its serial, WWN or path, or a prompt). The host layer's
 * safety module decides; this file prints the refusal and turns it into the exit code.
 */
#ifndef SSDLAB_CLI_GATE_H
#define SSDLAB_CLI_GATE_H

#include <stdbool.h>

struct target_info;

/*
 * Step 1: safety_check_in_use() on `path` with the O_EXCL probe. A path that exists and is
 * neither a block device nor a regular file passes (target_open reports it as bad usage), and so
 * does one that does not exist. patience_ms > 0 retries a refusal for that long (see
 * cli_precheck_target). Returns 0, or prints "ssdlab CMD: REFUSAL: reason" and returns
 * EXIT_SAFETY.
 */
int cli_gate_in_use(const char *cmd, const char *path, const char *refusal, unsigned patience_ms);

/*
 * Step 2: safety_confirm_destructive() for the opened target, `what` naming the write for the
 * prompt ("write", "profile 'x' (writes)"). Returns 0 to go ahead, or prints
 * "ssdlab CMD: REFUSAL: reason" and returns EXIT_SAFETY.
 */
int cli_gate_confirm(const char *cmd, const struct target_info *ti, const char *what,
		     const char *yes_destroy, const char *refusal);
/* As cli_gate_confirm, with whole_subsystem: every namespace of the target's NVMe subsystem must
 * pass the in-use checks too (a sanitize reaches them all). */
int cli_gate_confirm_reach(const char *cmd, const struct target_info *ti, const char *what,
			   const char *yes_destroy, const char *refusal, bool whole_subsystem);

#endif
