/* SPDX-License-Identifier: MIT */
/*
 * pass: what the analysis passes share, private to analysis/ (analyze.h is the public side).
 * Each pass is one file, pass_<name>.c, that turns what the reader gives (reader.h) into its key
 * of summary.json with the pure modules (ss.h, cells.h, wa.h, recovery.h); analyze.c holds the
 * table that runs them in order and the helpers below. A new pass: a pass_<name>.c, its
 * declaration here, a line in analyze.c's table, its file in meson.build.
 */
#ifndef SSDLAB_ANALYSIS_PASS_H
#define SSDLAB_ANALYSIS_PASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/reader.h"
#include "results/records.h"

struct json_object;

/* What a pass sees: read-only inputs, loaded once. */
struct analyze_input {
	const char *dir;
	struct json_object *manifest;
	struct results_records records;
	struct results_snapshots snapshots;
	struct reader_snaps snaps; /* the snapshots, typed (reader.h) */
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

/* The passes, in the order analyze.c runs them (see struct analyze_pass). */
int pass_steady_state(const struct analyze_input *in, struct json_object *summary, char *err,
		      size_t errlen);
int pass_cells(const struct analyze_input *in, struct json_object *summary, char *err,
	       size_t errlen);
int pass_wa(const struct analyze_input *in, struct json_object *summary, char *err, size_t errlen);
int pass_flags(const struct analyze_input *in, struct json_object *summary, char *err,
	       size_t errlen);
/* thermal: per-phase throttling, cool-down gates, endurance (pass_thermal.c) */
int pass_thermal(const struct analyze_input *in, struct json_object *summary, char *err,
		 size_t errlen);
/* slc: the SLC-cache probes' fits (pass_slc.c) */
int pass_slc(const struct analyze_input *in, struct json_object *summary, char *err, size_t errlen);
/* op_variants: per variant of a variants phase, spare added, IOPS, latency, WA and the greedy
 * model's WA (pass_opvariants.c); runs after wa, whose phase entries it reports */
int pass_opvariants(const struct analyze_input *in, struct json_object *summary, char *err,
		    size_t errlen);
int pass_headline(const struct analyze_input *in, struct json_object *summary, char *err,
		  size_t errlen);

/* gc_recovery: excess bytes after each idle and the GC recovery rate's fit (pass_gcrate.c); runs
 * after steady_state, whose entries give the level before each idle */
int pass_gcrate(const struct analyze_input *in, struct json_object *summary, char *err,
		size_t errlen);

/* gc_passes: the fast region of each full-range sequential pass of the gc-passes profile
 * (pass_gcpasses.c) */
int pass_gcpasses(const struct analyze_input *in, struct json_object *summary, char *err,
		  size_t errlen);

/* trim_check: each trim_check step's evidence and verdict (pass_trimcheck.c) */
int pass_trimcheck(const struct analyze_input *in, struct json_object *summary, char *err,
		   size_t errlen);
/* surface: the figures of each surface scan (pass_surface.c) */
int pass_surface(const struct analyze_input *in, struct json_object *summary, char *err,
		 size_t errlen);

/* The steady-state entry (summary.json's steady_state[]) judged last before record index
 * `before` (a reached or not_reached window whose rounds come before it), or NULL
 * (pass_headline.c). Borrowed from arr. */
struct json_object *pass_ss_before(const struct analyze_input *in, struct json_object *arr,
				   size_t before);

/* The first steady_state entry of (phase, repeat) in summary (the steady_state pass's), or NULL
 * (pass_headline.c). Borrowed from summary. */
struct json_object *pass_ss_entry(struct json_object *summary, int64_t phase, int64_t repeat);

/* The plan's workload of phase `phase` in the manifest (a rounds phase's base, else the phase's
 * workload; the phase numbered depth-first through repeat bodies), or NULL (pass_headline.c).
 * Borrowed from in->manifest. */
struct json_object *pass_plan_workload(const struct analyze_input *in, int64_t phase);

/*
 * A *-fast profile's run (issue 19): the manifest's pts.fast is true, its SNIA test has rounds
 * phases (not WSAT or XSR) and its cell records fall in two or more (phase, repeat) pairs. The
 * first is the tracking phase (the steady-state rule), the last the matrix phase, whose figures
 * average its rounds after the first: the sprandom fill leaves every LBA where a 4 KiB random
 * write put it, and the matrix's own large-block writes rebuild, within its first round, the
 * contiguity that large-block reads depend on (docs/fast-steady-state.md); with one round, that
 * round. The snia pass's block and the cells pass's entries of the matrix phase both take their
 * window from here, so the two say the same figures.
 */
struct pass_fast {
	struct reader_phase tracking, matrix;
	int64_t tracking_rounds;	   /* the last tracking round measured */
	int64_t matrix_first, matrix_last; /* the matrix rounds measured */
	int64_t first_round, last_round;   /* the rounds the figures average */
};

/* 1 with *f filled when the run is a fast one (above), else 0 (pass_snia.c). */
int pass_fast_run(const struct analyze_input *in, const struct reader_measurement *ms, size_t nms,
		  struct pass_fast *f);

/* Why the sprandom fill before the tracking phase ran although it is refused there (the
 * manifest's sprandom inputs: forced, forced_past; pass_snia_fast.c), or NULL when it was not
 * forced or nothing is recorded. The string lives as long as in->manifest. */
const char *pass_fast_forced(const struct analyze_input *in, int64_t tracking_phase);

/* A fast run's check of its matrix rounds (pass_snia_fast.c): each matrix (or table) row of
 * block whose block size is at most the sprandom fill's unit gets "fast_rounds" (its IOPS per
 * matrix round and whether SNIA's rule, with the tracking entry ss's limits, holds over all of
 * them), and header.fast gets "rounds_check" (the count, the cells that fail, whether the
 * snapshots record a two-state model, a sentence). 0 or -ENOMEM. */
int pass_snia_fast_rounds(const struct analyze_input *in, const struct pass_fast *f,
			  struct json_object *ss, const struct reader_measurement *ms, size_t nms,
			  struct json_object *block);

/* snia: per PTS test phase of a snia-* profile (or the old wsat), the result block of a PTS
 * report (pass_snia.c, pass_snia_wsat.c); runs after steady_state and cells, before headline */
int pass_snia(const struct analyze_input *in, struct json_object *summary, char *err,
	      size_t errlen);
/* The XSR block's figures added to block (pass_snia_xsr.c): one block for the run's write_until
 * phases, the access groups. */
int pass_snia_xsr(const struct analyze_input *in, struct json_object *block, char *err,
		  size_t errlen);
/* snia ECW: the blocks of a pts.test "ecw" run appended to "snia" (pass_snia_ecw.c); runs after
 * snia, before headline */
int pass_snia_ecw(const struct analyze_input *in, struct json_object *summary, char *err,
		  size_t errlen);
/* The WSAT block's figures of (phase, repeat) added to block (pass_snia_wsat.c). */
int pass_snia_wsat(const struct analyze_input *in, int64_t phase, int64_t repeat,
		   struct json_object *block, char *err, size_t errlen);

/* snia (issue 16): a DIRTH run's block appended to pass_snia's "snia" array
 * (pass_snia_dirth.c); runs after snia, before headline */
int pass_snia_dirth(const struct analyze_input *in, struct json_object *summary, char *err,
		    size_t errlen);

/* snia hir: the host idle recovery block appended to summary's "snia" for a hir run
 * (pass_snia_hir.c); runs after snia and steady_state, before headline */
int pass_snia_hir(const struct analyze_input *in, struct json_object *summary, char *err,
		  size_t errlen);
/* printf into err (len bytes); nothing when err is NULL. */
void pass_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Adds an integer / a string member (a NULL string becomes JSON null); 0 or -ENOMEM. */
int pass_add_int(struct json_object *o, const char *key, int64_t v);
int pass_add_str(struct json_object *o, const char *key, const char *s);

/* Which records a "wa" entry checks the host-write counter against (reader_bytes_written). */
struct pass_wa_scope {
	bool check;	       /* false: no host_check (wa_total, the headline's window) */
	bool all;	       /* every record (the run) rather than those of (phase, repeat) */
	int64_t phase, repeat; /* also the entry's keys when with_phase */
	bool has_from_t;       /* the span starts at a ramp end, at from_t */
	uint64_t from_t;
};

/*
 * The "wa" entry of snapshots a..b of in->snaps (pass_wa.c): from_seq, to_seq, labels, the
 * counters' deltas, wa (null where there is none) and the keys of its uncertainty (wa_reason,
 * resolution, interval, bytes_needed, compression, unverified, slc/tlc, host_check and
 * host_unit_inferred when sc->check); with_phase adds sc's phase and repeat first. New object
 * or NULL on ENOMEM. The headline's WA in steady state is one too.
 */
struct json_object *pass_wa_entry(const struct analyze_input *in, size_t a, size_t b,
				  const struct pass_wa_scope *sc, int with_phase);

#endif
