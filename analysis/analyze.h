/* SPDX-License-Identifier: MIT */
/*
 * analyze: turns a results directory into summary.json, from the raw records alone, so that a
 * run can be re-analyzed after a fix and another lab can check our numbers (DESIGN.md: the
 * analysis is a pure function of the results directory). Its only inputs are manifest.json,
 * records.jsonl and the snapshot files; it reads no clock, no environment and no device, and the
 * output is byte-for-byte the same for the same input.
 *
 * The work is a table of passes (analyze.c), each in its own file (pass_<name>.c, pass.h) and
 * adding one top-level key of the summary; later issues add passes (SLC cache, GC recovery,
 * ...). The passes read the inputs through the reader (reader.h) and compute with pure modules
 * over typed arrays (ss.h, cells.h, wa.h, recovery.h); the text the CLI prints from a summary is
 * cli/headline.h's. Passes:
 *   "steady_state"  per tracked series declared in the manifest: ss_scan() over the rounds
 *   "cells"         per (phase, repeat, cell): I/O figures summed over rounds (or the steady
 *                   state window where one is tracked), latency percentiles from the MERGED
 *                   histograms (never averaged) (cells.h)
 *   "wa"            write amplification per phase from its first and last snapshot, with the
 *                   counters' resolution, the interval of their rounding and the host-write check
 *                   (wa.h), and over the whole run
 *   "flags"         steady state not reached, resumed, host-limited cells, I/O errors, a torn
 *                   last record line
 *   "headline"      the figures printed after a run: steady state and its WA, recovery after
 *                   each idle (recovery.h), the measured cells, WSAT fills
 *
 * The analysis includes only base/, the results reader (results/records.h, results/snapshot.h)
 * and itself: never the engine, the targets, the host probes or the simulator.
 */
#ifndef SSDLAB_ANALYZE_H
#define SSDLAB_ANALYZE_H

#include <stddef.h>

struct json_object;

/*
 * Analyzes dir: returns a new summary object in *summary ("schema": 1, "analyzer" version,
 * then one key per pass). -ENOENT without a manifest, -EBADMSG for a corrupt record line (not a
 * torn last line, which is reported as a flag), other -errno from the passes; err says why.
 */
int analyze_dir(const char *dir, struct json_object **summary, char *err, size_t errlen);

/* analyze_dir() then results_write_summary(); *summary (may be NULL) receives the object. */
int analyze_write(const char *dir, struct json_object **summary, char *err, size_t errlen);

#endif
