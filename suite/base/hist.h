/* SPDX-License-Identifier: MIT */
/*
 * hist: fixed-size log-linear latency histogram (the HDR-histogram idea).
 *
 * Values are nanoseconds. Values below HIST_SUB (128 ns) have a bin each (exact); every
 * power-of-two range [2^k, 2^(k+1)) above is split into HIST_SUB/2 = 64 linear buckets, so a
 * bucket is at most 1/64 of its lower bound wide: reporting the bucket middle puts every
 * percentile within 1/128 (0.78%) of the exact value from 100 ns to 100 s (values at or above
 * 2^HIST_MAX_BITS ns land in the last bucket and still count in max).
 *
 * The struct is public because hist_add() sits on the I/O hot path; treat fields as read-only.
 * Histograms of the same layout merge by adding bins, which is how per-thread, per-round and
 * per-cell figures combine exactly (never average percentiles).
 */
#ifndef SSDLAB_HIST_H
#define SSDLAB_HIST_H

#include <stdint.h>

struct json_object;

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_BITS 37 /* 2^37 ns = 137 s */
#define HIST_NBINS ((HIST_MAX_BITS - HIST_SUB_BITS + 1) * (HIST_SUB / 2) + HIST_SUB / 2)

struct hist {
	uint64_t count;
	uint64_t min, max;
	double sum;
	uint64_t bins[HIST_NBINS];
};

void hist_init(struct hist *h);
void hist_reset(struct hist *h);

/* The bin of a value (inline: it sits on the hot path). */
static inline unsigned hist_bin(uint64_t ns)
{
	unsigned k;

	if (ns < HIST_SUB)
		return (unsigned)ns;
	if (ns >> HIST_MAX_BITS)
		return HIST_NBINS - 1;
	k = 63u - (unsigned)__builtin_clzll(ns); /* ns in [2^k, 2^(k+1)), k >= HIST_SUB_BITS */
	return HIST_SUB + (k - HIST_SUB_BITS) * (HIST_SUB / 2) +
	       (unsigned)(ns >> (k - HIST_SUB_BITS + 1)) - HIST_SUB / 2;
}
uint64_t hist_bin_low(unsigned bin);  /* smallest value of the bin */
uint64_t hist_bin_high(unsigned bin); /* largest value of the bin */

static inline void hist_add(struct hist *h, uint64_t ns)
{
	h->bins[hist_bin(ns)]++;
	h->count++;
	h->sum += (double)ns;
	if (ns < h->min)
		h->min = ns;
	if (ns > h->max)
		h->max = ns;
}

void hist_merge(struct hist *dst, const struct hist *src);
double hist_mean(const struct hist *h);
/*
 * The nearest rank of percentile p (in [0, 100]) among count samples: the smallest r with at
 * least p% of the samples at ranks <= r, i.e. ceil(p * count / 100), at least 1 (0 for count 0).
 * p is taken to 1e-6 (99.999 is 99999000/1e8) and the product in integers: in doubles,
 * 99.9 / 100 * 1000 comes out above 999 and its ceiling names the 1000th sample.
 */
uint64_t hist_rank(uint64_t count, double p);
/* p in [0, 100]: the middle of the bin holding the sample of rank hist_rank(count, p). 0 for an
 * empty histogram; clamped to [min, max]. */
uint64_t hist_percentile(const struct hist *h, double p);

/* Sparse JSON: {"count":..,"min":..,"max":..,"sum":..,"sub_bits":7,"bins":[[bin,count],...]}. */
struct json_object *hist_to_json(const struct hist *h);
int hist_from_json(struct json_object *o, struct hist *h); /* -EINVAL on a different layout */

#endif
