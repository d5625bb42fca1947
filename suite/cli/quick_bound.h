/* SPDX-License-Identifier: MIT */
/*
 * quick_bound: how much `ssdlab quick` writes (cmd_quick.c), as plain arithmetic so that a unit
 * test can hold it to hand-worked values. The sequential write stops at the smaller of a time
 * (the caller's) and this amount.
 */
#ifndef SSDLAB_CLI_QUICK_BOUND_H
#define SSDLAB_CLI_QUICK_BOUND_H

#include <stdint.h>

/* Below this a sequential figure says more about the first I/Os than about the drive. */
#define QUICK_MIN_BYTES (16ull * 1024 * 1024)

/*
 * The amount for a file in a file system with free_b bytes available to us of total_b: 80 % of
 * the free space, no more than leaves 15 % of total_b free, no more than write_max (0 = no
 * limit), rounded down to whole MiB. For a block device or a sim pass its capacity as both
 * free_b and total_b with keep_free 0 (a device has no file system to keep room in).
 * Returns 0 with *size set, or -ENOSPC (*size untouched) when less than QUICK_MIN_BYTES fits.
 */
int quick_bound(uint64_t free_b, uint64_t total_b, uint64_t write_max, int keep_free,
		uint64_t *size);

#endif
