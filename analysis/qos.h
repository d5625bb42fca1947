/* SPDX-License-Identifier: MIT */
/*
 * qos: latency quality of service from one merged latency histogram (issue 12 point 3): the
 * percentiles with the number of samples behind each, the I/Os slower than 1, 10 and 100 ms,
 * and the exceedance curve (1 - CDF) the report plots on log axes. Pure: a histogram in, a
 * plain struct out; qos_to_json() (qos_json.c) gives summary.json's and `ssdlab io`'s "qos".
 *
 * A tail percentile rests on the few samples beyond it: p99.999 of 100 000 I/Os is the slowest
 * one, and needs about a million I/Os (10 beyond it) to mean anything. Each percentile carries
 * that count and is marked thin below QOS_THIN_BEYOND.
 *
 * Everything is exact on the histogram's bins (base/hist.h): a bin holds integer latencies
 * [hist_bin_low, hist_bin_high], so the fraction of I/Os above a bin's high edge is a count, not
 * an estimate. The exceedance points sit at those edges; a threshold (1 ms) inside a bin is
 * given as a range, the I/Os surely above it and those that may be.
 */
#ifndef SSDLAB_ANALYSIS_QOS_H
#define SSDLAB_ANALYSIS_QOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hist.h"

struct json_object;

#define QOS_NPCT 7	   /* p50 p90 p95 p99 p99.9 p99.99 p99.999, as in a record's lat_ns */
#define QOS_NOVER 3	   /* 1, 10 and 100 ms */
#define QOS_THIN_BEYOND 10 /* fewer samples beyond a percentile than this: thin */
#define QOS_PER_DECADE 10  /* exceedance points per decade of latency (Renard's R10 series) */
#define QOS_MAX_POINTS 128 /* 100 ns to 2^37 ns is 9.1 decades: 92 grid values at most */

struct qos_pct {
	double p;	 /* 99.999 */
	const char *key; /* "p99_999", the key of lat_ns */
	uint64_t ns;	 /* hist_percentile(h, p) */
	uint64_t rank;	 /* hist_rank(samples, p): the sample it is */
	uint64_t beyond; /* samples ranked after it: samples - rank */
	bool thin;	 /* beyond < QOS_THIN_BEYOND */
};

/* The I/Os slower than ns. ios: those in bins wholly above ns (surely slower); ios_max: also
 * those of the bin that holds ns, which may be (the exact min and max narrow both). */
struct qos_over {
	uint64_t ns;
	const char *key; /* "1ms" */
	uint64_t ios, ios_max;
};

/* One point of the exceedance curve: a fraction `fraction` (= ios / samples) of the I/Os took
 * longer than ns, a bin's high edge. */
struct qos_point {
	uint64_t ns;
	uint64_t ios;
	double fraction;
};

struct qos_dir {
	uint64_t samples; /* I/Os in the histogram (0: the rest is empty) */
	struct qos_pct pct[QOS_NPCT];
	struct qos_over over[QOS_NOVER];
	/*
	 * For each grid latency t = m * 10^e ns (m in 1, 1.25, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8;
	 * t from 100 ns up to the last bin) the point at the high edge of t's bin, keeping the last
	 * point with fraction 1 (where the curve starts) and those with fraction > 0 (a log axis
	 * has no 0; past the last point nothing is slower than max). In increasing ns.
	 */
	size_t npoints;
	struct qos_point points[QOS_MAX_POINTS];
};

/* The QoS figures of h into *out (overwritten whole). */
void qos_compute(const struct hist *h, struct qos_dir *out);

/*
 * JSON (qos_json.c): {"samples", "percentiles": {"p50": {"ns", "rank", "beyond", "thin"}, ...},
 * "over": {"1ms": {"ns", "ios", "ios_max"}, ...}, "exceedance": [[ns, fraction], ...]}; JSON
 * null (NULL) for an empty histogram. NULL also on ENOMEM: *err is set to -ENOMEM then.
 */
struct json_object *qos_dir_to_json(const struct qos_dir *q, int *err);

/*
 * {"read": .., "write": .., "total": ..} from the two directions' histograms (total: merged),
 * each qos_dir_to_json() of its histogram (null without I/O). NULL on ENOMEM.
 */
struct json_object *qos_to_json(const struct hist *read, const struct hist *write);

#endif
