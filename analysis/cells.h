/* SPDX-License-Identifier: MIT */
/*
 * cells: the per-cell figures of summary.json as a pure sum over typed measurements: I/O counts,
 * bytes and time summed, latency histograms MERGED (percentiles of a group come from the merged
 * bins, never from averaged percentiles), CPU time, host-limited and I/O-error counts. The
 * records reader (reader_figures) turns a record into a cells_figures; the "cells" pass picks
 * the records of each group (the steady-state window where one was judged) and writes the sums.
 */
#ifndef SSDLAB_ANALYSIS_CELLS_H
#define SSDLAB_ANALYSIS_CELLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/hist.h"

/* One measurement's figures. Index 0 is reads, 1 writes. h[] is borrowed for the call. */
struct cells_figures {
	int64_t round;
	uint64_t elapsed_ns;
	uint64_t ios[2], bytes[2];
	const struct hist *h[2];
	double cpu_user_s, cpu_sys_s;
	bool host_limited, io_error;
};

/* The sum of a group's measurements (large: the histograms are inline; allocate it). */
struct cells_sum {
	size_t n;			 /* measurements added */
	int64_t first_round, last_round; /* of the first and the last added */
	uint64_t elapsed_ns;
	uint64_t ios[2], bytes[2];
	struct hist h[2];
	double cpu_user_s, cpu_sys_s;
	size_t host_limited, io_errors;
};

void cells_sum_init(struct cells_sum *s);
/* Adds one measurement. */
void cells_sum_add(struct cells_sum *s, const struct cells_figures *f);
/* Both directions' histograms merged into *all (initialised here). */
void cells_sum_all(const struct cells_sum *s, struct hist *all);

#endif
