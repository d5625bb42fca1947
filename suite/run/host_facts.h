/* SPDX-License-Identifier: MIT */
/*
 * host_facts: what a run's manifest records about the machine and the device under test (the
 * host state, and for a block device target its link: how it is attached), probed here, at the
 * run layer, and handed to results_write_manifest() so that the results layer reads no /proc
 * or /sys itself.
 */
#ifndef SSDLAB_HOST_FACTS_H
#define SSDLAB_HOST_FACTS_H

#include "results/results.h"
#include "targets/target.h"

/*
 * Fills f for target t (its link only for TARGET_KIND_BLOCKDEV, and only when the device can be
 * placed: a path outside /dev or a vanished device has none). 0, or -ENOMEM with f empty.
 * Release with host_facts_release().
 */
int host_facts_collect(const struct target *t, struct results_facts *f);
void host_facts_release(struct results_facts *f); /* accepts NULL */

#endif
