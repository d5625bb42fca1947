/* SPDX-License-Identifier: MIT */
/*
 * surface: the figures of a surface scan (engine/surface.h: a full-range sequential read or
 * write in fixed-size chunks, like zcav and HD Tune). Pure: an array of per-chunk speeds in, a
 * plain struct out. The median, not the mean, is the reference for "slow": a scan of an SSD
 * with a large unmapped (never written or trimmed) region has two levels, and the mean of the
 * two flags neither; slow regions are runs of consecutive chunks below `slow_frac` x the
 * median, so one noisy chunk and a 100 GiB stretch of aged data (the 840 EVO case) are told
 * apart by their length.
 */
#ifndef SSDLAB_ANALYSIS_SURFACE_H
#define SSDLAB_ANALYSIS_SURFACE_H

#include <stddef.h>
#include <stdint.h>

/* The default threshold of a slow chunk: below half the median speed. */
#define SURFACE_SLOW_FRAC_DEFAULT 0.5
/* The most slow regions surface_stats() returns (the rest are counted). */
#define SURFACE_MAX_REGIONS 16

/* One run of consecutive slow chunks: [first, first + n) in chunk indices, and its mean speed. */
struct surface_region {
	size_t first, n;
	double mean_mbps;
};

struct surface_stats {
	double min_mbps, median_mbps, max_mbps;
	size_t min_chunk, max_chunk; /* index of the slowest / fastest chunk (the first such) */
	double slow_threshold_mbps;  /* slow_frac x median */
	size_t slow_chunks;	     /* chunks below the threshold */
	size_t nregions;	     /* slow regions found (may exceed SURFACE_MAX_REGIONS) */
	struct surface_region regions[SURFACE_MAX_REGIONS]; /* the first min(nregions, MAX) */
};

/*
 * The figures of n chunk speeds mbps[0..n) (MB/s, 10^6 bytes per second) with slow_frac in
 * (0, 1]. Returns 0 and fills *out, or -EINVAL (n == 0, a speed not finite or negative,
 * slow_frac out of range) or -ENOMEM, leaving *out untouched.
 */
int surface_stats(const double *mbps, size_t n, double slow_frac, struct surface_stats *out);

#endif
