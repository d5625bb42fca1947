/* SPDX-License-Identifier: MIT */
/*
 * headline: the text the CLI prints from a summary (analysis/analyze.h builds summary.json; this
 * renders it), after `ssdlab run`, `resume` and `analyze`. It reads only the summary's keys, so
 * an old summary.json prints the same way. '.' decimals whatever the locale (units.h).
 */
#ifndef SSDLAB_CLI_HEADLINE_H
#define SSDLAB_CLI_HEADLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;

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
 * An idle sweep (headline_sweep.c) is summarized: series of one shape as a range and median,
 * its recovery as one table in the target's times, four or more blocks of the same cells as the
 * first and the last.
 */
void headline_print(struct json_object *summary, FILE *f);

/* The other lines (per tracked series the SNIA figures, per-cell IOPS and latency, WA per
 * phase), for --verbose. The headline ends with the flags (steady state not reached, resumed,
 * host-limited, I/O errors, a torn line). */
void headline_print_details(struct json_object *summary, FILE *f);

/* Heat and wear (headline_thermal.c): a FLAG per phase in which the drive throttled and per
 * cool-down gate that gave up, and the endurance line (percentage used and available spare at
 * the run's start and end) when the drive reports them. Part of the flags print_flags() ends with. */
void headline_print_thermal(struct json_object *summary, FILE *f);

/* The SLC cache (headline_slc.c): one line per probe of summary.json's slc_cache, the cache
 * size, the speeds in and after it with their bounds, further levels, or "no cache detected". */
void headline_print_slc(struct json_object *summary, FILE *f);
/* The GC recovery rate (headline_gcrate.c) from summary.json's gc_recovery, when the run has one:
 * "GC recovery rate: X MB/s of idle (Rmax Y GB, t0 Z s; ...)". After the recovery lines. */
void headline_print_gcrate(struct json_object *summary, FILE *f);
/* The gc-passes experiment (headline_gcpasses.c) from summary.json's gc_passes: one line per
 * full-range pass, its fast region with bounds or "no drop". After the GC recovery rate. */
void headline_print_gcpasses(struct json_object *summary, FILE *f);
/* Over-provisioning variants (headline_opvariants.c) from summary.json's op_variants: one line
 * per variant, its spare added, IOPS, p99, WA and the greedy model's WA where there is one. */
void headline_print_opvariants(struct json_object *summary, FILE *f);

/* The trim check (headline_trimcheck.c) from summary.json's trim_check: per step, the neighbours
 * (a FLAG when one changed), what the block layer sent, what the device showed. */
void headline_print_trimcheck(struct json_object *summary, FILE *f);

/* A SNIA PTS test's main result (headline_snia.c) from summary.json's headline.snia: the
 * tracked cell's steady-state IOPS and the 4 KiB row (IOPS), MB/s per block size (throughput),
 * the 4 KiB mean and p99.99 per mix (latency), the steady level and the drop (WSAT). */
void headline_print_snia(struct json_object *summary, FILE *f);
/* One headline.snia entry of a DIRTH test (headline_snia_dirth.c): the Max-IOPS point of the
 * TOIO rounds, and the Max, Mid and Min points' runs (IOPS, mean / p99.99). */
void headline_print_snia_dirth(struct json_object *e, FILE *f);

/* The XSR entry of headline.snia (headline_snia_xsr.c): end-of-group MB/s per access group and
 * group 3's recovery time (or "not recovered"). */
void headline_print_snia_xsr(struct json_object *e, FILE *f);

/* A SNIA PTS host idle recovery entry of headline.snia (headline_snia_hir.c): the steady IOPS
 * and per wait state the mean burst IOPS. */
void headline_print_snia_hir(struct json_object *e, FILE *f);

/* One headline.snia entry of test "ecw" (headline_snia_ecw.c). */
void headline_print_snia_ecw(struct json_object *entry, FILE *f);

/* Whether phase is an SLC-cache probe with an slc_cache entry: its result is the SLC line, so
 * the headline leaves out the probe's WSAT line (a partial fill's IOPS, not a saturation test). */
bool headline_slc_probe(struct json_object *summary, int64_t phase);

/* The idle sweep (headline_sweep.c). Whether phase is a measurement after an idle of
 * summary.json's gc_recovery (an `after` phase of an idle_sweep): its fill is the sweep's
 * measurement, so the headline leaves out its WSAT line. */
bool headline_sweep_after(struct json_object *summary, int64_t phase);

/* The recovery entries of an idle sweep (headline.recovery, more than one, with a gc_recovery)
 * as one table sorted by idle time: idle, the first measurement against steady state, the
 * excess bytes of the idle's gc_recovery point, and when it was back; in the target's times with
 * the profile's in brackets when the run was time-scaled, said with the rule in the line above.
 * -ENOMEM (said on stderr). */
int headline_print_recovery_table(struct json_object *summary, struct json_object *recovery,
				  FILE *f);

#endif
