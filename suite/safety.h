/* SPDX-License-Identifier: MIT */
/*
 * safety: the one gate every destructive path goes through (DESIGN.md, "Safety").
 *
 * A destructive action (write, discard, purge, capacity or write-cache change) on a real target
 * is allowed only when
 *   1. the target is not in use: no mounted filesystem on it or on any of its partitions, not
 *      swap, no holders (md/dm/bcache: sysfs holders/), not the disk holding the root
 *      filesystem, and it can be opened O_EXCL; and
 *   2. the user confirmed for that device: --yes-destroy=SERIAL (or WWN) where the device
 *      reports one, =PATH where it reports neither or for a regular file; or answered an
 *      interactive prompt showing model, serial and size. With no terminal: refuse.
 * The virtual SSD and files that ssdlab created in this run need no confirmation (step 2), and
 * are never "in use" in the sense of step 1.
 *
 * Refusals return -EPERM with a reason a user can act on; the CLI maps that to exit code 3.
 * sysfs and proc roots are parameters so that tests can point them at a fake tree.
 */
#ifndef SSDLAB_SAFETY_H
#define SSDLAB_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

#include "target.h"

struct safety_opts {
	const char *sysfs_root;	 /* NULL = "/sys" */
	const char *proc_root;	 /* NULL = "/proc" */
	const char *yes_destroy; /* value of --yes-destroy, or NULL */
	bool allow_prompt;	 /* may ask on /dev/tty when stdin and stderr are terminals */
};

/*
 * Step 1 only: is the device or file at `path` in use? 0 when free, -EPERM with a reason when
 * in use, other -errno when it cannot be checked (which callers treat as a refusal too).
 */
int safety_check_in_use(const char *path, const struct safety_opts *o, char *reason, size_t len);

/*
 * Steps 1 and 2 for a destructive action on an opened target, described by `what` ("write",
 * "purge", ...) for the prompt and messages. 0 = go ahead.
 */
int safety_confirm_destructive(const struct target_info *ti, const char *what,
			       const struct safety_opts *o, char *reason, size_t len);

#endif
