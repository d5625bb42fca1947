/* SPDX-License-Identifier: MIT */
/*
 * quick_bound: the amount `ssdlab quick` writes at most (quick_bound.h). The 80 % and 15 % are
 * issue 14's: the write must not fill a drive (a full drive is a different test) nor leave a
 * file system too full for the machine it runs on (ext4 reserves 5 % for root for the same
 * reason; 15 % leaves room for what else is running).
 */
#include <errno.h>
#include <math.h>

#include "cli/quick_bound.h"

#define MIB (1024ull * 1024)
#define KEEP_FREE 0.15	/* share of a file system left free */
#define FREE_SHARE 0.80 /* share of the free space (or the capacity) written at most */

int quick_bound(uint64_t free_b, uint64_t total_b, uint64_t write_max, int keep_free,
		uint64_t *size)
{
	uint64_t keep = keep_free ? (uint64_t)ceil(KEEP_FREE * (double)total_b) : 0;
	uint64_t b = (uint64_t)(FREE_SHARE * (double)free_b);

	if (free_b < keep)
		b = 0;
	else if (free_b - keep < b)
		b = free_b - keep;
	if (write_max && write_max < b)
		b = write_max;
	b -= b % MIB;
	if (b < QUICK_MIN_BYTES)
		return -ENOSPC;
	*size = b;
	return 0;
}
