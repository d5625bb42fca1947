/* SPDX-License-Identifier: MIT */
/*
 * wa: write amplification from counter snapshots, as pure functions: the ratio of two counter
 * deltas, and which snapshots bound each phase. No JSON and no files: the records reader
 * (analysis/records.h) turns the snapshot files into the arrays these take, and the "wa" pass
 * (analyze.c) writes the results into summary.json.
 */
#ifndef SSDLAB_ANALYSIS_WA_H
#define SSDLAB_ANALYSIS_WA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct snapshot;

/*
 * WA = d(nand bytes written) / d(host bytes written) from the counters' values at the start (0)
 * and the end (1). -ENODATA (wa untouched) when a value is not finite, nothing was written, or
 * the NAND counter went backwards (a virtual SSD reset by a purge, a drive that wrapped a
 * counter): there is no meaningful ratio then.
 */
int wa_ratio(double host0, double host1, double nand0, double nand1, double *wa);

/*
 * wa_ratio() of the host_bytes_written and nand_bytes_written counters of two snapshots.
 * -ENODATA when either snapshot lacks either counter.
 */
int wa_between(const struct snapshot *a, const struct snapshot *b, double *wa);

/*
 * The change of the host_bytes_written and nand_bytes_written counters from snapshot a to b, as
 * they are (a counter that went backwards gives a negative delta): what `ssdlab io` reports
 * beside the ratio. 0, or -ENODATA (outputs untouched) when either snapshot lacks either counter.
 */
int wa_deltas(const struct snapshot *a, const struct snapshot *b, double *host, double *nand);

/* Where a snapshot was taken, as the per-phase spans need it. */
struct wa_point {
	int64_t phase;	 /* the phase it is tagged with; < 0: none (run start and end) */
	int64_t repeat;	 /* its repeat, valid when has_repeat */
	bool has_repeat; /* a snapshot without one matches no phase but its own first one */
	bool ramp_end;	 /* taken where a job's ramp ended (label "...ramp-end") */
};

/* The snapshots that bound one (phase, repeat): indexes into the wa_point array. */
struct wa_span {
	int64_t phase, repeat;
	size_t from;	   /* where the measured part starts: the ramp end when there was one */
	size_t total_from; /* where the whole phase starts */
	size_t to;	   /* the phase's last snapshot */
};

/*
 * The spans of the phases of p[0..n), one per (phase, repeat) in the order first met, into out
 * (room for n entries); returns how many. A phase spans its first to its last tagged snapshot;
 * one with a single snapshot (the runner took one per boundary) starts from the snapshot before
 * it, and one with a single snapshot at index 0 has no span. When a "ramp-end" snapshot of the
 * same (phase, repeat) lies strictly inside, the measured part starts at the last such one.
 */
size_t wa_phase_spans(const struct wa_point *p, size_t n, struct wa_span *out);

/*
 * The snapshots that bracket a window [t0, t1] of target time: *from the last taken at or
 * before t0, *to the first taken at or after t1 (and after *from was found). t[i] is valid where
 * has_t[i]. -ENODATA when no pair brackets the window (outputs untouched).
 */
int wa_bracket(const uint64_t *t, const bool *has_t, size_t n, uint64_t t0, uint64_t t1,
	       size_t *from, size_t *to);

#endif
