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
	bool start;	 /* taken where the phase started (label "...-start") */
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
 * A phase run again (a variant redone on resume, run/runner.h I7, stores its boundaries anew)
 * has a second "-start" snapshot inside: the span begins at the last one, and only a ramp end
 * after it counts.
 */
size_t wa_phase_spans(const struct wa_point *p, size_t n, struct wa_span *out);

/*
 * The snapshots that bracket a window [t0, t1] of target time: *from the last taken at or
 * before t0, *to the first taken at or after t1 (and after *from was found). t[i] is valid where
 * has_t[i]. -ENODATA when no pair brackets the window (outputs untouched).
 */
int wa_bracket(const uint64_t *t, const bool *has_t, size_t n, uint64_t t0, uint64_t t1,
	       size_t *from, size_t *to);

/* ---- WA with its uncertainty (issue 11 point 4) ---------------------------------------------
 *
 * A drive's counters count in units (512 B sectors, 32 MiB, 1 GiB, NVMe data units of 512,000
 * bytes, NAND pages): a counter read as n units holds a true value v with n*u <= v < (n+1)*u
 * when the drive truncates, or (n-1)*u < v <= n*u when it rounds up (NVMe). Either way the
 * same rounding applies at both ends of a span, so the true delta of a counter read as n0 then
 * n1 lies strictly within ((n1 - n0 - 1)*u, (n1 - n0 + 1)*u): within one unit of the delta read.
 * The sim's counters are exact (resolution 0).
 */

/* One snapshot's write counters (wa_counts_of); NaN where the snapshot has none. */
struct wa_counts {
	double host, nand;	      /* host_bytes_written, nand_bytes_written (bytes) */
	double host_pages, ftl_pages; /* host_pages_written, ftl_pages_written (Micron; pages) */
	double slc, tlc;	      /* nand_bytes_written_slc / _tlc (bytes) */
	double host_res, nand_res;    /* one counter unit in bytes; 0 when absent: exact */
};

/* Fills *c from s's counters (names in docs/results-format.md). */
void wa_counts_of(const struct snapshot *s, struct wa_counts *c);

/* Why an estimate has no WA (wa_reason_text gives the summary's string). */
enum wa_reason {
	WA_OK = 0,
	WA_NO_HOST_COUNTER,  /* "no host-write counter" */
	WA_NO_NAND_COUNTER,  /* "no NAND-write counter" (a snapshot's no_nand_reason says more) */
	WA_NO_HOST_WRITES,   /* "no host writes in the window" */
	WA_BACKWARDS,	     /* "a counter went backwards" (a purge reset the sim, a wrap) */
	WA_BELOW_RESOLUTION, /* "delta_below_resolution" */
};

const char *wa_reason_text(enum wa_reason r);

/*
 * The largest relative width (hi - lo) / wa of a WA interval that is still reported: beyond it
 * the counters' rounding, not the drive, decides the figure. 10% keeps the interval narrower
 * than the differences the analysis is after (a WA of 2.5 against 2.2); with equal host and NAND
 * units and WA 1 it means at least 41 units of host writes (wa_bytes_needed).
 */
#define WA_MAX_REL_WIDTH 0.10

struct wa_estimate {
	enum wa_reason reason;
	bool pages;		       /* from Micron's page counters: deltas and resolution in pages */
	double host_delta, nand_delta; /* bytes (pages when pages); NaN when a counter is missing */
	double host_res, nand_res;     /* bytes (pages when pages: 1) */
	double wa;		       /* NaN unless reason is WA_OK */
	double lo, hi;		       /* the interval; NaN without both deltas, hi +inf when the
					* host delta is within one unit of 0 */
	double bytes_needed;	       /* WA_BELOW_RESOLUTION: host bytes the span would need
					* (NaN when unknown: pages with no host byte count) */
	bool compression;	       /* WA_OK and hi < 1: the drive wrote less NAND than host */
};

/*
 * WA from snapshot a to b with its interval. Bytes: WA = dN / dH, and with the counters'
 * resolutions rh, rn the true deltas lie within (dH - rh, dH + rh) and (dN - rn, dN + rn), so
 * WA lies within [max(dN - rn, 0) / (dH + rh), (dN + rn) / (dH - rh)]. Pages (Micron, both
 * snapshots have host_pages_written and ftl_pages_written): WA = (dP + dF) / dP = 1 + dF / dP,
 * within [1 + max(dF - 1, 0) / (dP + 1), 1 + (dF + 1) / (dP - 1)]. The WA is reported only when
 * (hi - lo) / wa <= WA_MAX_REL_WIDTH; otherwise WA_BELOW_RESOLUTION with bytes_needed.
 */
void wa_estimate(const struct wa_counts *a, const struct wa_counts *b, struct wa_estimate *e);

/*
 * The host bytes a span needs for a WA interval of relative width WA_MAX_REL_WIDTH, for host and
 * NAND counters of resolution rh and rn bytes, assuming WA = 1 (the least a drive that does not
 * compress shows; a higher WA needs fewer): rounded up to whole host units (when rh > 0).
 */
double wa_bytes_needed(double rh, double rn);

/* The host pages a Micron span needs for the same width: ceil(10 + sqrt(101)) = 21 (wa.c). */
#define WA_PAGES_NEEDED 21

/*
 * Whether a host-write counter's delta agrees with the bytes ssdlab wrote over the same span:
 * |counter - written| <= res (the true delta lies within one unit of the delta read; res 0, an
 * exact counter, must agree exactly).
 */
bool wa_host_match(double counter, double written, double res);

/* A counter that may hold host writes, with its raw delta over a span (drive with no entry). */
struct wa_candidate {
	const char *counter; /* "ata:241", ... (borrowed) */
	double delta;	     /* raw units */
};

struct wa_inferred {
	const char *counter; /* borrowed from the candidate */
	const char *unit;    /* "512B", "32MiB", "1GiB", "1GB", "512000B" */
	double unit_bytes;
	double ratio; /* delta x unit / written */
};

/*
 * The unit of a host-write counter inferred from the bytes ssdlab wrote: among 512 B, 32 MiB,
 * 1 GiB, 1 GB and 512,000 B, for each candidate with a delta of at least one unit, the (counter,
 * unit) whose product delta x unit is consistent with `written` (within one unit of it: the
 * rounding above) and closest to it relative to written; the first candidate wins a tie. 0, or
 * -ENODATA when nothing was written or no product is consistent (*out untouched).
 */
int wa_infer_unit(const struct wa_candidate *c, size_t n, double written, struct wa_inferred *out);

#endif
