/* SPDX-License-Identifier: MIT */
/*
 * slc: where a drive's write cache (SLC cache) runs out, from one sequential (or random) write
 * sampled finely: cumulative bytes against time, fitted piecewise-linearly with 1 to
 * SLC_MAX_LEVELS segments ("levels": in-cache speed, post-cache speed, a third speed of a drive
 * that folds while writing). Pure: plain arrays in, a plain struct out; the reader gives the
 * series (reader_slc_series), pass_slc.c writes summary.json's `slc_cache` blocks.
 *
 * The model. Cumulative bytes B(t) continuous and piecewise linear = the write rate piecewise
 * constant. Rate noise makes B a random walk around that line, so the residuals of a line fitted
 * to B itself are strongly correlated and an i.i.d. likelihood on them would split any long
 * series into the maximum number of levels. The likelihood is therefore taken on the increments
 * of B: dB_i = r_j dt_i + e_i with Var(e_i) = s_j^2 dt_i inside segment j (its own rate r_j and
 * its own variance s_j^2: a folding drive's slow level is much noisier than its cache level).
 * r_j is the weighted least-squares slope (gsl_fit_wmul, weights 1/dt_i: sum dB / sum dt, the
 * slope of B over the segment), s_j^2 its weighted residual sum of squares / n_j.
 *
 * Criterion: -2 log L = sum_j n_j log(s_j^2) (+ a constant), BIC = that + p log n with
 * p = 3k - 1 for k levels (a rate and a variance per level, k - 1 breakpoints). The number of
 * levels is the k with the smallest BIC. Every level is at least min_seg samples long: a folding
 * sawtooth (fast/slow alternation with a period much shorter than min_seg) has the same mean and
 * variance in every window of min_seg samples, so splitting it gains nothing and it stays ONE
 * level.
 *
 * Search. The best breakpoints for each k come from dynamic programming over a decimated grid
 * of candidate positions (at most SLC_GRID points, every ceil(n / SLC_GRID) samples), with each
 * segment's cost from prefix sums in O(1): O(k * grid^2) per fit, independent of n (10^4 samples
 * cost the same as 10^3), which the bootstrap needs (it refits hundreds of times). Exhaustive
 * search over the same grid would be O(grid^(k-1)), 8e6 segment costs for 4 levels. Each
 * breakpoint is then refined to the sample by scanning +-one grid step with the others fixed.
 *
 * Bounds. A moving-block bootstrap of the standardized residuals (Kuensch 1989), drawn within
 * each level (a level's residuals stay in it: a short transition's large ones scattered into
 * the cache level would make replicates find drops inside the cache): blocks of
 * block_len consecutive residuals (default ceil(n^(1/3)), the order that minimizes the
 * bootstrap's error for a variance, Hall, Horowitz & Jing 1995) are drawn with replacement from
 * a gsl_rng (mt19937, seeded), scaled back by each sample's own level variance and added to the
 * fitted model's mean increments, in which a boundary that falls inside a sample keeps that
 * sample's mix of the two rates (slc.c, boot_model: replicates drawn from the rates alone put
 * the edge on a sample boundary and left the estimate outside its own bounds); every replicate
 * is refitted with the chosen number of levels and goes through the same estimator as the data.
 * Bounds: the replicates' spread below and above their median (to their 2.5 % and 97.5 %
 * quantiles, gsl_stats_quantile_from_sorted_data) placed around the estimate, so that every
 * interval holds its own estimate; where the replicates reproduce the data these are the plain
 * percentile bounds (slc.c, around, says when they do not: a transition that is a ramp).
 *
 * Verdict. The cache edge is the first boundary where the rate falls by at least min_drop
 * (default 20 %: a smaller step is a change within the cache,
 * such as the client-tlc model's 504 -> 456 MB/s as its dynamic cache starts to shrink) of the level before it; the cache size is the bytes written up to it. "No cache
 * detected" when BIC picks one level, when no boundary is such a drop, or when fewer than
 * `significance` (default 95 %) of the bootstrap replicates find a drop there. A drop whose
 * edge falls where the series' temperature is at or over warning_c is flagged as possible
 * throttling, not taken for certain as a cache edge.
 */
#ifndef SSDLAB_ANALYSIS_SLC_H
#define SSDLAB_ANALYSIS_SLC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SLC_MAX_LEVELS 4
#define SLC_GRID 200

struct slc_params {
	size_t min_seg;	    /* samples per level at least (>= 2); 0 = max(8, n / 1000) */
	unsigned max_levels; /* 1..SLC_MAX_LEVELS */
	double min_drop;     /* a share of the level before: 0.20 */
	double significance; /* share of replicates that must show the drop: 0.95 */
	unsigned boot_reps;  /* bootstrap replicates: 200; 0 = no bounds (NaN) */
	size_t block_len;    /* 0 = ceil(n^(1/3)) */
	uint64_t seed;	     /* of the bootstrap's gsl_rng */
	double warning_c;    /* the drive's warning temperature; NaN = unknown */
};

/* The defaults above. */
void slc_params_default(struct slc_params *p);

struct slc_level {
	size_t first, last;	     /* samples [first, last] (indices into the input) */
	double t_from_s, t_to_s;     /* start and end of the level, seconds */
	uint64_t bytes_from, bytes_to; /* cumulative bytes at its start and end */
	double mbps;		     /* rate, 1e6 bytes per second */
	double mbps_lo, mbps_hi;     /* bootstrap bounds (NaN without bootstrap) */
	double sd_mbps;		     /* the level's rate noise per unit time: s_j in MB/s/sqrt(s) */
};

struct slc_result {
	size_t n;		  /* samples used */
	unsigned nlevels;	  /* chosen by BIC */
	double bic[SLC_MAX_LEVELS]; /* per k = 1..max_levels (NaN for k not tried) */
	struct slc_level level[SLC_MAX_LEVELS];
	bool cache_detected;
	unsigned edge_level;		/* the level after the first drop (valid when detected) */
	unsigned post_level;		/* the post-cache level: edge_level, or the first after a
					   short transition (slc.c, find_edge) */
	double cache_bytes;		/* bytes written before the first drop (NaN when none) */
	double cache_bytes_lo, cache_bytes_hi;
	double in_cache_mbps, in_cache_lo, in_cache_hi;	    /* the level before the drop */
	double post_cache_mbps, post_cache_lo, post_cache_hi; /* the level after it */
	double drop_share;    /* share of replicates with a drop (NaN: no bootstrap) */
	bool possible_throttling;
	double edge_temp_c;   /* the series' temperature at the edge (NaN where none) */
	size_t min_seg, block_len;
	unsigned boot_reps;
};

/*
 * Fits the series: n samples (t_ns[i], bytes[i]) of time since the write started and
 * cumulative bytes written at that time, increasing in t; the start (0, 0) is implied before
 * the first. temp_c (NULL or n values, NaN where none) is the drive's temperature per sample.
 * Returns 0 and fills *out; -EINVAL for n < 2 * min_seg, a time that does not increase, bytes
 * that decrease or bad params; -ENOMEM; -EDOM when GSL fails. *out untouched on failure.
 */
int slc_fit(const uint64_t *t_ns, const uint64_t *bytes, const double *temp_c, size_t n,
	    const struct slc_params *p, struct slc_result *out);

#endif
