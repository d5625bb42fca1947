/* SPDX-License-Identifier: MIT */
/*
 * analyze: turns a results directory into summary.json, from the raw records alone, so that a
 * run can be re-analyzed after a fix and another lab can check our numbers (DESIGN.md: the
 * analysis is a pure function of the results directory). Its only inputs are manifest.json,
 * records.jsonl and the snapshot files; it reads no clock, no environment and no device, and the
 * output is byte-for-byte the same for the same input.
 *
 * The work is a table of passes (analyze.c), each adding one top-level key of the summary;
 * later issues add passes (SLC cache, GC recovery, ...). Passes of this issue:
 *   "steady_state"  per tracked series declared in the manifest: ss_scan() over the rounds
 *   "cells"         per (phase, repeat, cell): I/O figures summed over rounds (or the steady
 *                   state window where one is tracked), latency percentiles from the MERGED
 *                   histograms (never averaged)
 *   "wa"            write amplification per phase from its first and last snapshot
 *                   (snapshot_wa), and over the whole run
 *   "flags"         steady state not reached, resumed, host-limited cells, I/O errors, a torn
 *                   last record line
 */
#ifndef SSDLAB_ANALYZE_H
#define SSDLAB_ANALYZE_H

#include <stddef.h>
#include <stdio.h>

#include "results/records.h"

struct json_object;

/* What a pass sees: read-only inputs, loaded once. */
struct analyze_input {
	const char *dir;
	struct json_object *manifest;
	struct results_records records;
	struct results_snapshots snapshots;
};

/*
 * One pass: adds its key(s) to summary. Returns 0 or -errno (with a reason in err); a pass that
 * has nothing to say (no snapshots with counters, no tracked series) adds an empty result, not an
 * error.
 */
struct analyze_pass {
	const char *name;
	int (*run)(const struct analyze_input *in, struct json_object *summary, char *err,
		   size_t errlen);
};

/*
 * Analyzes dir: returns a new summary object in *summary ("schema": 1, "analyzer" version,
 * then one key per pass). -ENOENT without a manifest, -EBADMSG for a corrupt record line (not a
 * torn last line, which is reported as a flag), other -errno from the passes; err says why.
 */
int analyze_dir(const char *dir, struct json_object **summary, char *err, size_t errlen);

/* analyze_dir() then results_write_summary(); *summary (may be NULL) receives the object. */
int analyze_write(const char *dir, struct json_object **summary, char *err, size_t errlen);

/*
 * The headline figures of a summary (its "headline" key) as a short block: per tracked series
 * the steady-state average and verdict, WA in steady state and over the whole run (once), for
 * each idle followed by measurements the first one against steady state and when it was back
 * (by the rule the entry names), each measured cell's IOPS, MB/s and latency, and each
 * write_until's IOPS per drive fill:
 *   steady state   4k randwrite IOPS 3263 (reached in rounds 1-5)
 *   WA             5.86 in steady state, 3.17 whole run
 *   after 5m idle  IOPS 39958 (+1125%), back to steady state after 1m13s of writing (rule: ...)
 *   cells of phase 3, rounds 1-5 (steady-state window)
 *     4k randwrite QD32  IOPS 3263, 13.4 MB/s, latency mean 9.80 ms, p99 56.36 ms, max 67.20 ms
 * Durations are the profile's (target time divided by the run's time scale); '.' decimals.
 */
void analyze_print_headline(struct json_object *summary, FILE *f);

/* The other lines (per tracked series the SNIA figures, per-cell IOPS and latency, WA per
 * phase), for --verbose. The headline ends with the flags (steady state not reached, resumed,
 * host-limited, I/O errors, a torn line). */
void analyze_print_details(struct json_object *summary, FILE *f);

#endif
