/* SPDX-License-Identifier: MIT */
/*
 * snia: the computations behind summary.json's "snia" blocks (issue 15 point 1), the tables and
 * curves a SNIA PTS report shows, as pure functions over plain arrays: which PTS test a profile
 * runs, a cell key's coordinates and its place in the spec's loop order, a round window's
 * average, the latency figures of a merged histogram (with the samples behind each percentile),
 * and the write-saturation levels (plateau, drop, steady). pass_snia.c feeds them from the
 * reader and the earlier summary keys; no I/O, no JSON.
 */
#ifndef SSDLAB_ANALYSIS_SNIA_H
#define SSDLAB_ANALYSIS_SNIA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hist.h"
#include "analysis/wsat.h"

enum snia_test {
	SNIA_NONE = 0,
	SNIA_IOPS,
	SNIA_THROUGHPUT,
	SNIA_LATENCY,
	SNIA_WSAT,
	SNIA_XSR, /* cross-stimulus recovery (issue 16; analysis/snia_xsr.h) */
	SNIA_LAST = SNIA_XSR
};

/* "iops", "throughput", "latency", "wsat", "xsr"; NULL for SNIA_NONE. */
const char *snia_test_name(enum snia_test t);
/* The test of a name as snia_test_name() gives it (manifest pts.test); SNIA_NONE otherwise. */
enum snia_test snia_test_parse(const char *name);
/*
 * The test a profile runs, from its name when the manifest has no "pts" object (runs made
 * before issue 15): snia-iops*, snia-throughput*, snia-latency*, snia-wsat*, snia-xsr* and the old name
 * "wsat" (renamed snia-wsat by issue 15; its results stay analyzable). SNIA_NONE otherwise.
 */
enum snia_test snia_test_from_profile(const char *profile);

/* A cell key's coordinates ("rwmix_read=65,bs=4k", "rw=write"); absent ones: -1, 0, "". */
struct snia_coords {
	int rwmix_read; /* 0..100, -1 when absent */
	uint64_t bs;	/* bytes, 0 when absent */
	char rw[32];	/* "" when absent */
};

/* Parses cell into *c; 0, or -EINVAL for a malformed coordinate (*c then undefined). */
int snia_cell_coords(const char *cell, struct snia_coords *c);

/*
 * The place of (rwmix_read, bs) in the spec's loop order (SNIA PTS-E 1.1 IOPS: R/W mix
 * 100/0, 95/5, 65/35, 50/50, 35/65, 5/95, 0/100 outer, block size 1024, 128, 64, 32, 16, 8, 4,
 * 0.5 KiB inner; latency: mixes 100/0, 65/35, 0/100 outer, 0.5, 4, 8 KiB inner): mix index *
 * the number of sizes + size index, or -1 when the test has no such cell.
 */
int snia_spec_order(enum snia_test t, int rwmix_read, uint64_t bs);

/*
 * The average of y over the rounds lo..hi (round[i] the round of y[i]; values NaN left out):
 * the mean of the rounds' values, as the PTS averages a window's rounds. *used: the values
 * averaged. NaN when none.
 */
double snia_window_mean(const double *y, const int64_t *round, size_t n, int64_t lo, int64_t hi,
			size_t *used);

#define SNIA_NPCT 4	     /* 99, 99.9, 99.99, 99.999 % */
#define SNIA_FEW_SAMPLES 10 /* a percentile fewer samples support than this: few_samples */

struct snia_pct {
	double p;	  /* 99.99 */
	const char *key;  /* "p99_99" */
	uint64_t ns;	  /* hist_percentile() */
	uint64_t rank;	  /* hist_rank(): the nearest rank */
	uint64_t samples; /* samples at or beyond that rank: count - rank + 1 */
	bool few;	  /* samples < SNIA_FEW_SAMPLES */
};

/* A cell's response times (SNIA latency test) from its histogram merged over the window. */
struct snia_lat {
	uint64_t samples; /* I/Os in the histogram; 0: the rest is zero */
	double mean_ns;	  /* sum / count (the sum is exact) */
	uint64_t max_ns;
	struct snia_pct pct[SNIA_NPCT];
};

/* The figures of h into *out (overwritten whole). */
void snia_latency(const struct hist *h, struct snia_lat *out);

/* The rule of snia_wsat_levels(), for the summary (documented in docs/results-format.md). */
#define SNIA_WSAT_PLATEAU_FILL 0.5 /* the plateau level: median over chunks ending by 0.5x */
#define SNIA_WSAT_DROP 0.10	   /* the drop: IOPS more than 10% below the plateau level ... */
#define SNIA_WSAT_DROP_RUN 3	   /* ... for 3 chunks in a row (fewer when the run ends) */

struct snia_wsat {
	double plateau_iops;	/* median of the chunks' IOPS that end by PLATEAU_FILL x capacity
				   (the first chunk when none does); NaN without chunks with time */
	size_t plateau_chunks;	/* chunks before the drop (all when there is none) */
	bool has_drop;
	size_t drop_chunk;	/* the first chunk of the drop */
	uint64_t drop_bytes;	/* bytes written before it: where the plateau ends */
	double steady_iops;	/* I/Os over time of the chunks that start in the last drive fill
				   (the last chunk when none does) */
	size_t steady_chunks;
	uint64_t steady_from_bytes; /* bytes written before the first of them */
};

/*
 * The fresh-out-of-box plateau, the drop and the steady level of a write-saturation run from
 * its chunks in order (a chunk without time has no IOPS and is skipped). 0; -EINVAL for
 * capacity 0; the result has NaN levels when no chunk has time.
 */
int snia_wsat_levels(const struct wsat_chunk *c, size_t n, uint64_t capacity,
		     struct snia_wsat *out);

#endif
