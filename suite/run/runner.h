/* SPDX-License-Identifier: MIT */
/*
 * runner: executes a profile's phase list on a target, in the target's clock, and leaves a
 * results directory that survives any interruption (DESIGN.md; issue 3, points 2 and 6).
 *
 * The phase list is walked in a fixed order, depth first (repeat bodies `count` times). The walk
 * is a sequence of STEPS, each with a key (results_record_key: phase, repeat, round, cell,
 * kind) and one record when it finishes:
 *
 *   purge         1 step  (kind "purge", the method used)
 *   precondition  one step per chunk (kind "precondition", round 1, 2, ...): a byte amount
 *                 in chunks of RUNNER_CHUNK_BYTES x the target's capacity scale (opts.
 *                 chunk_bytes), a time amount in chunks of RUNNER_CHUNK_NS of target time,
 *                 scaled (opts.chunk_ns); the next chunk continues the workload (a sequential
 *                 fill at the last chunk's seq_next, the bytes or the time left). Without an
 *                 amount (one pass over the range): 1 step (round 0)
 *   write_until   the same (kind "write_until"), the chunk being the phase's round_time when
 *                 it has one (WSAT); its time series goes to series/, one file per phase
 *                 (the chunks appended in order: one continuous series with a round column)
 *   rounds        per round: the pre-write (not a step: conditioning, not recorded), then one
 *                 step per cell (kind "cell"); after each round the steady-state rule (ss.h)
 *                 runs on the tracked cell's metric, or the rounds stop at `count`
 *   idle          1 step  (kind "idle")
 *   trim          1 step  (kind "trim")
 *   repeat        the steps of its body, `count` times (key field "repeat" = the iteration)
 *
 * `phase` in a key is the phase's number in a depth-first numbering of the whole tree (0 = the
 * first top-level phase; a repeat's body phases follow the repeat), so that two phases of the
 * same kind inside one repeat never share a key; `repeat` flattens nested repeats (outer
 * iteration x inner count + inner iteration).
 *
 * A step's workload seed depends only on the run seed and the step's key, so a step executed
 * again (resume) issues the same I/O sequence; the rounds' stop decisions are a pure function
 * of the recorded figures, so a resumed walk takes the same path as the uninterrupted one.
 *
 * States (the SQLite pager's way of saying what may be on disk in each state):
 *
 *   state    records.jsonl                      the target                  next
 *   -------  ---------------------------------  --------------------------  --------------------
 *   OPEN     manifest written (run) or read     opened, confirmed by the    RECORD (a new run)
 *            (resume); records = the set K      CLI (safety.h)              REPLAY (a resume)
 *   REPLAY   unchanged: steps in K are walked   sim: each step is executed  RERUN, RECORD,
 *            again without writing anything     again (same seeds), so the  DONE, STOPPED,
 *                                               FTL reaches the same state  FAILED
 *                                               real device: steps are
 *                                               skipped (its state is the
 *                                               device itself)
 *   RERUN    unchanged: the interrupted round   executed from the round's   RECORD, STOPPED,
 *            runs again from its pre-write and  pre-write and first cell    FAILED
 *            first cell; cells already in K
 *            are executed, not recorded again
 *   RECORD   one record appended + fsync'ed     executed                    DONE, STOPPED,
 *            per finished step, before the                                  FAILED
 *            next step starts; the first one
 *            after a resume is a "resume" record
 *            (the gap) and the next is flagged
 *   STOPPED  every finished step recorded; the  left as is                  (exit 130; resume)
 *            step in flight is not
 *   FAILED   the same; the failing step is not  left as is                  (exit 1; resume)
 *   DONE     every step recorded; end snapshot  left as is                  (analyze)
 *
 * Invariants (asserted in debug builds):
 *   I1  records.jsonl holds each key at most once, in walk order: a step whose key is in K is
 *       never appended; after an append its key joins K.
 *   I2  a record is appended only for a step that finished without error and without the stop
 *       flag, and it is durable (fsync) before the next step starts.
 *   I3  in REPLAY and RERUN no step is appended; a resumed run appends its resume record
 *       exactly once, when it leaves REPLAY (into RERUN or RECORD).
 *   I4  the manifest is written before the first record and never rewritten.
 *   I5  the runner never reads the wall clock: durations are target time (target_now,
 *       target_idle); the wall time of a resume gap comes from the CLI (runner_opts.wall_ns).
 *   I6  REPLAY ends at the first step not in K, or earlier at the first cell of a round that
 *       is partly in K (then RERUN); no step after a step not in K is in K.
 *   I7  inside a variants phase REPLAY ends earlier still: a variant that K holds only in part
 *       (the interrupted one) runs again from its first phase, from the state it began in (its
 *       capacity set and the device discarded again): RERUN from its first step, every step of
 *       it in K executed again (a purge, trim or idle too, on any target) and not recorded
 *       again, then RECORD; its phase boundaries store their snapshots anew (the analysis takes
 *       the last start of a phase, analysis/wa.h). The resume record comes first and carries
 *       variant_rerun (the variant's number). The variants before it are replayed as usual; the
 *       records K holds of the interrupted one stay (I1). A virtual SSD's redo is not compared
 *       with the records (its clock went on): run/variants.h has why the variant is redone.
 *
 * A step cut short is not recorded and runs again from its beginning on resume: a cell, an idle,
 * a chunk of a precondition or write_until (so these lose at most one chunk: they go on from
 * the last recorded chunk, a sequential offset taken from its record's seq_next, the amount
 * and time left computed from the recorded chunks). A precondition recorded as one step
 * (round 0, by an older version) is replayed as one step.
 *
 * Resume on a virtual SSD: the simulator's state is not persisted; REPLAY executes every
 * recorded step again with the same seeds, which brings the FTL to exactly the state it had at
 * the interruption (the simulator is deterministic). Each replayed or re-run step is checked
 * against its record (the virtual clock at its start and end, the bytes written); a mismatch
 * (the model or ssdlab changed since the run) is warned about and stored as "replay_diverged"
 * in the resume record and the first measurement after it. The gap is recorded as wall time
 * only. On a real device REPLAY skips: the device's state is the device itself, and the gap is
 * also recorded in target time when the target clock has not restarted (same boot).
 *
 * Every phase boundary (start and end of each phase, each repeat iteration) stores a counter
 * snapshot (target_snapshot) under snapshots/, plus "run-start", "run-end" and "resume-N".
 * Each record also carries the CPU time ssdlab used; a cell on a real target whose CPU time
 * is at least 80% of threads x elapsed is flagged host-limited.
 *
 * Functions return 0 or -errno; error text goes to `err` where given.
 */
#ifndef SSDLAB_RUNNER_H
#define SSDLAB_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "profile/plan.h"
#include "profile/profile.h"
#include "results/results.h"
#include "targets/target.h"

struct json_object;

enum runner_state {
	RUNNER_OPEN = 0,
	RUNNER_REPLAY,
	RUNNER_RERUN,
	RUNNER_RECORD,
	RUNNER_STOPPED,
	RUNNER_FAILED,
	RUNNER_DONE,
};
const char *runner_state_name(enum runner_state s);

/* What the progress callback sees (about once per target second of a job, and per step). */
struct runner_progress {
	enum runner_state state;
	const char *phase_kind;	 /* "rounds", ... */
	int phase;		 /* depth-first number */
	int nphases;		 /* phases in the tree */
	unsigned repeat, round;
	const char *cell;	 /* cell key or NULL */
	uint64_t bytes_written;	 /* by this process's jobs, ramp included */
	double iops;		 /* of the current job, recent */
	uint64_t eta_ns;	 /* target time left in the current job and round; 0 unknown */
	/*
	 * Target time left in the whole run, from now: the current job and phase, then every
	 * phase after it (time-bound parts exact after scaling; amounts at the write speed this
	 * run has seen so far). A steady-state rounds phase counts between `window` rounds (or
	 * the rounds already run) and max_rounds, hence a range: eta_run_lo_ns .. eta_run_hi_ns.
	 * eta_run_known is false while an amount-bound part has no speed yet (no job wrote);
	 * the range then covers the time-bound parts only.
	 */
	uint64_t eta_run_lo_ns, eta_run_hi_ns;
	bool eta_run_known;
	/* Target time this process has run so far (the CLI turns it and its own wall clock into
	 * the simulator's speed, for a wall-clock ETA where the clocks differ). */
	uint64_t target_done_ns;
	bool virtual_time;
	/* A chunk of a precondition / write_until: `round` is the chunk number, nchunks how many
	 * the phase has (0 = unknown: a write_until that stops on a condition); with
	 * nchunks_at_most, an upper bound (WSAT's rounds until an amount or max_time, whichever
	 * comes first: max_time / round_time). */
	bool chunk;
	unsigned nchunks;
	bool nchunks_at_most;
};
typedef void (*runner_progress_fn)(const struct runner_progress *p, void *arg);

/* A one-line message for the user (a resume decision, a capability the target lacks). */
typedef void (*runner_note_fn)(const char *msg, void *arg);

struct runner_opts {
	double time_scale;	     /* --time-scale; 0 = 1 */
	uint64_t seed;		     /* run seed; every step seed derives from it */
	volatile sig_atomic_t *stop; /* raised by SIGINT/SIGTERM; may be NULL */
	runner_progress_fn progress;
	runner_note_fn note;
	void *arg;
	/* Wall clock (ns since the epoch) from the CLI edge, recorded beside the target clock in
	 * records ("wall_ns") so that a resume can state the gap; NULL = not recorded. */
	uint64_t (*wall_ns)(void);
	/*
	 * Test hook (ssdlab reads it from SSDLAB_DEBUG_FAULT): "POINT:N" kills the process with
	 * SIGKILL at the N-th (1-based) occurrence of POINT in this process:
	 *   cell           during the N-th recorded step's job (at its first progress call, or
	 *                  right after the job when it made none)
	 *   before-record  after the N-th step finished, before its record is appended
	 *   after-record   right after the N-th record was appended and fsync'ed
	 *   torn           half-way through writing the N-th record (a torn last line)
	 *   boundary       at the N-th phase-boundary snapshot
	 * "POINT:N:stall" waits there for a signal instead (fault.h): the signal tests' way to hit
	 * a run that is certainly still going. NULL or "" = none.
	 */
	const char *debug_fault;
	/* Chunks of a precondition / write_until without round_time (see the table above):
	 * chunk_bytes for a byte amount, exactly (0 = RUNNER_CHUNK_BYTES x the target's capacity
	 * scale); chunk_ns for a time amount, before the duration scale (0 = RUNNER_CHUNK_NS). */
	uint64_t chunk_bytes;
	uint64_t chunk_ns;
	/* The drive settings the profile pins (run/drive_settings.h), applied by the caller before
	 * runner_execute and restored after it; the runner re-checks them at every phase boundary
	 * (a note when one had to be set again). NULL: none. */
	struct drive_settings *settings;
	/* --strict-pts: the early steady-state verdict (a rounds phase's steady_state.early) is
	 * computed but never stops the rounds; the manifest records it ("options") and a resume
	 * takes it from there */
	bool strict_pts;
};

/* Default chunks: a crash loses at most this much of a long writing phase. 16 GiB is 8 s of a
 * fast NVMe drive and 3 min of a slow one doing 4 KiB random writes: 250 records for a 2x
 * precondition of a 4 TB drive. A time amount is cut every minute of target time. */
#define RUNNER_CHUNK_BYTES (16ull << 30)
#define RUNNER_CHUNK_NS (60ull * 1000000000ull)

struct runner;

/*
 * The manifest of a new run (the runner's part): profile {name, path, text}, the resolved plan
 * (profile_to_json), target identity, seed, time scales (user, target, effective), the steady-
 * state tracks (ss_track_add), runner version. The CLI adds its keys (command line, --set
 * values) and passes the host facts (run/host_facts.h) to results_write_manifest(). New object
 * or NULL on ENOMEM.
 */
struct json_object *runner_manifest_new(const struct profile *p, const char *target_spec,
					struct target *t, const struct runner_opts *o);

/* The steady-state tracks of runner_manifest_new(): one ss_track_add() per rounds phase
 * instance of plan pl that has a steady-state rule, under the metric name the rounds track
 * (defined in runner.c, beside the rounds' metric names); with steady_state.early, the entry's
 * "early": its params and the guard (bytes, source) for target ti. 0 or -errno. */
int runner_manifest_tracks(struct json_object *m, const struct plan *pl,
			   const struct target_info *ti);

/* The bytes the early steady-state guard asks the host to have written since the purge: the
 * profile's stated steady_state.early.written, else ti's NAND + SLC cache, else 2x ti's
 * capacity (docs/early-verdict.md). */
uint64_t runner_early_guard_bytes(const struct phase_rounds *pr, const struct target_info *ti);

/*
 * Creates a runner over an open profile, target and results directory (all borrowed; they must
 * outlive the runner). `records` (may be NULL) are the records already in records.jsonl, for a
 * resume (results_open's output); the runner copies what it needs. `resumed` marks a resume
 * even when no record exists yet. -ENOMEM, or -EINVAL with err set when a record does not fit
 * the plan (a manifest and records of another profile).
 */
int runner_new(const struct profile *p, struct target *t, struct results *res,
	       const struct runner_opts *o, const struct results_records *records, bool resumed,
	       struct runner **out, char *err, size_t errlen);

/*
 * Walks the plan. Returns 0 when every step is recorded (DONE), -EINTR when the stop flag was
 * seen (STOPPED: everything finished is on disk), -EDOM on a refusal that a resume would meet
 * again (FAILED: a cell shorter than its drain, err naming the --time-scale that works; a
 * sprandom fill whose inputs do not resolve on the target, refused before the first phase with
 * nothing written), other -errno on failure (FAILED; err says which step and why;
 * records so far are kept).
 */
int runner_execute(struct runner *r, char *err, size_t errlen);

enum runner_state runner_get_state(const struct runner *r);
/* Steps recorded by this process, and steps replayed / skipped / re-run unrecorded. */
void runner_counts(const struct runner *r, size_t *recorded, size_t *replayed, size_t *rerun);

void runner_free(struct runner *r); /* accepts NULL */

/*
 * The step seed: a mix of the run seed and the key text (splitmix64 over FNV-1a), exposed for
 * tests. Different keys give unrelated seeds; the same key always the same seed.
 */
uint64_t runner_step_seed(uint64_t run_seed, const char *key);

/*
 * The host-limited rule: CPU time (user + sys) >= 80% of min(threads, ncpu) x elapsed (both
 * over the measured part) on a real target; never on a virtual-time one. ncpu <= 0 = unknown
 * (no cap). Pure.
 */
bool runner_host_limited(const struct job_result *res, unsigned threads, bool virtual_time,
			 long ncpu);

/* The byte chunk of a precondition / write_until with a byte amount on this target (see the
 * table above): o->chunk_bytes, else RUNNER_CHUNK_BYTES x the target's capacity scale, whole
 * MiB, 1 MiB at least. o may be NULL. */
uint64_t runner_chunk_bytes(const struct target *t, const struct runner_opts *o);

/* What target info ti says of its NAND for the sprandom fill's `auto` inputs and refusals
 * (the virtual SSD's model; nothing for other targets), with profile p's write cache: the
 * plan, the runner and the manifest share it. */
struct phase_nand runner_target_nand(const struct target_info *ti, const struct profile *p);

/*
 * A write_until's stop rule (`stop: {below_peak, for}`), fed one chunk at a time in the order
 * written: the peak is the best chunk's throughput so far; a chunk below below_peak x the peak
 * adds its bytes to a run of slow writing, any other chunk ends the run; the phase stops once
 * the run holds for_bytes. Chunks are whole records, so that a resume decides the same from
 * the records it replays. Pure.
 */
struct runner_stop {
	double below, peak;		/* peak in bytes per ns */
	uint64_t for_bytes, low_bytes;
};
void runner_stop_init(struct runner_stop *s, double below_peak, uint64_t for_bytes);
/* Adds a chunk (bytes written, elapsed ns); true when the phase should stop after it. */
bool runner_stop_update(struct runner_stop *s, uint64_t bytes, uint64_t elapsed_ns);
/* The chunk a stop rule needs: a quarter of for_bytes in whole MiB (1 MiB at least), so that
 * the phase stops within a quarter of `for` of the rule being met; cbytes when smaller. */
uint64_t runner_stop_chunk(uint64_t for_bytes, uint64_t cbytes);

/* The idle (profile time, before --time-scale) that follows a purge phase on target t: its
 * settle when the purge will be a discard (method discard, or a target without a real purge,
 * TARGET_CAP_PURGE), else 0. */
uint64_t runner_purge_settle_ns(const struct target *t, const struct phase_purge *pp);

/*
 * The drain of a job (issue 9, point 2): how long its in-flight I/Os take to complete after it
 * stops issuing, estimated as outstanding I/Os x the mean time per completed I/O (elapsed /
 * ios); by Little's law that is the mean latency of a full queue. 0 when nothing completed. A
 * time-bound job's record carries it ("drain_ns") with "planned_ns" and "overrun_ns"; a rounds
 * phase whose round-1 cell is planned below one drain is refused, below 10 warned about.
 */
uint64_t runner_drain_ns(unsigned outstanding, uint64_t elapsed_ns, uint64_t ios);

/* The --time-scale that stretches a cell whose drain / planned time is `ratio` under
 * user_scale (0 = 1) to one drain, with 25% headroom, rounded up to two significant digits. */
double runner_scale_for(double user_scale, double ratio);

/* Effective duration scale: user time_scale (0 = 1) x the target's time_scale (0 = 1). */
double runner_time_scale(const struct target *t, const struct runner_opts *o);

/* The profile's plan on target t under options o (profile/plan.h), with the scale, capacity and
 * purge the run will have and the drains assumed without a probe (plan_assume_drains): what
 * the runner's ETA and `ssdlab plan` both sum. 0 or -ENOMEM. */
int runner_plan(const struct profile *p, const struct target *t, const struct runner_opts *o,
		struct plan *out);

/* The whole-run ETA before the first step at speed bps (0 = none known yet): plan_span() over
 * the runner's plan; *known false when a byte amount has no speed. */
void runner_eta_initial(const struct runner *r, double bps, uint64_t *lo, uint64_t *hi,
			bool *known);

/* True when the runner can run kind k: an execute hook in its table for a kind without a body,
 * none for a kind with one (the walk descends into it). Every registered kind must be covered
 * (tests/unit/test_phases.c). */
bool runner_kind_covered(const struct phase_kind *k);

#endif
