/* SPDX-License-Identifier: MIT */
/*
 * phases: the phases of a profile and what they are made of: workloads (a job_spec plus what
 * needs the target to resolve), the profile-wide defaults, the cells of a rounds matrix, phase
 * lists, and the registry of phase kinds. profile.h (the document: name, destructive, ...) is
 * built on this; nothing here includes it. Implemented by phases_registry.c (the registry's
 * table, its lookups, phase list parsing and the repeat kind), phases.c (the simple kinds),
 * phases_rounds.c (the rounds kind, the largest) and phases_common.c (workloads, defaults,
 * cells, lists, the helpers the kinds share); references run one way, in that order.
 *
 * Phase kinds live in one registry (phases_registry.c's kinds[], one row per kind): each kind
 * has a name, a parse hook from a YAML node, a release hook, a `destructive` hook, a to_json
 * hook (for the manifest's resolved plan), a describe hook (one line for `check` and `plan`), a
 * bytes hook (bytes it writes), a length hook (what one instance takes: profile/plan.h sums it
 * for `plan` and the runner's ETA), a jobs hook (its workloads, for plan's probes) and, for a
 * kind that holds a phase list, a body hook.
 * Adding a kind (variants, hir, ...) adds an enum value, a data struct, its hooks and its row
 * (in phases.c, or in a phases_<kind>.c of its own when large; the row declared here), the row's
 * address in kinds[] (phases_registry.c) and an execute hook in run/runner.c's kind_exec[]
 * (tests/unit/test_phases.c fails until both exist); the parser, the plan and the runner's walk
 * do not change.
 *
 * What stays unresolved: anything that depends on the target. A workload keeps its LBA range as
 * a struct range (fractions or bytes), its length and ramp as struct amount (bytes, capacity
 * multiple or time); profile_workload_resolve() turns it into an engine job_spec once the
 * capacity and logical block size are known. Everything else (rw, mix, bs split, qd, threads,
 * seed, distribution, pattern) is already in the job_spec.
 *
 * Ownership: a struct profile owns all it points to; profile_free() releases it. Phase data is
 * reached through phase->data, whose type depends on phase->kind->type (table below).
 *
 *   kind          type                data
 *   purge         PHASE_PURGE         struct phase_purge
 *   precondition  PHASE_PRECONDITION  struct phase_write   (not measured: bytes and time only)
 *   write_until   PHASE_WRITE_UNTIL   struct phase_write   (measured, sampled as a time series)
 *   rounds        PHASE_ROUNDS        struct phase_rounds
 *   idle          PHASE_IDLE          struct phase_idle
 *   trim          PHASE_TRIM          struct phase_trim
 *   repeat        PHASE_REPEAT        struct phase_repeat  (nested phase list, run `count` times)
 *   idle_sweep    PHASE_IDLE_SWEEP    struct phase_idle_sweep (idles, each followed by a list;
 *                                     phases_sweep.c)
 *   surface       PHASE_SURFACE       struct phase_surface (phases_surface.c)
 *   variants      PHASE_VARIANTS      struct phase_variants (nested list, once per capacity
 *                                     fraction; phases_variants.c)
 *   dirth_points  PHASE_DIRTH_POINTS  struct phase_dirth_points (phases_dirth.c)
 *   bursts        PHASE_BURSTS        struct phase_bursts (count x [wait, burst of writes];
 *                                     phases_bursts.c)
 */
#ifndef SSDLAB_PHASES_H
#define SSDLAB_PHASES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/jobspec.h"
#include "analysis/ss.h"
#include "analysis/ss_early.h"
#include "results/records.h"
#include "base/units.h"
#include "base/ydoc.h"
#include "profile/cooldown.h"

struct json_object;

/* ---- workloads ------------------------------------------------------------------------------ */

/*
 * A workload: an engine job_spec plus the parts that need the target to resolve.
 *   spec.rw, rwmix_read, bs[]/nbs, qd, threads, dist, zones[]/nzones, pattern,
 *   compressibility, interval_ns are final. spec.seed is the workload's own `seed:` or 0 when
 *   it has none (the runner then derives step seeds from the run seed, which defaults to the
 *   profile's `defaults.seed`, see struct profile_defaults). spec.time_ns, amount_bytes, ramp_*, range_* and
 *   seq_start are 0 here: profile_workload_resolve() fills them.
 *   range:  default 0-100%.
 *   length: how long one run of the workload lasts (a cell: cell_time; precondition and
 *           write_until: their `amount`; pre_write: its `amount`). AMOUNT_NONE = one pass.
 *   ramp:   excluded from the figures; AMOUNT_NONE = no ramp.
 */
struct profile_workload {
	struct job_spec spec;
	struct range range;
	struct amount length;
	struct amount ramp;
	/* SNIA PTS-C ActiveRange Amount (profile/pts.h): random offsets only inside ar_segments
	 * equal segments of ar_amount / ar_segments bytes spread over the range; 0 = none */
	uint64_t ar_amount;
	unsigned ar_segments;
	/* `bs_not_applicable: renormalise` (issue 16, JESD219 on 4Kn): sizes of the split the target
	 * cannot do are left out and the rest renormalised, instead of the job being refused (or
	 * a rounds cell not applicable); profile_workload_resolve() records them in bs_dropped */
	bool bs_renormalise;
};

/*
 * Resolves a workload for a target: range -> [range_start, range_end) aligned to `lbs` (the
 * logical block size, and also to the largest block size when the workload is sequential so
 * that a pass ends on a whole I/O); length/ramp -> time_ns / amount_bytes / ramp_ns / ramp_bytes
 * (capacity multiples are multiples of the *visible* capacity); times multiplied by time_scale
 * (1.0 = as written; --time-scale and the virtual SSD's capacity ratio). Returns 0, or -ERANGE
 * / -EINVAL with the reason in err (range past the capacity or empty, bs not a multiple of lbs).
 */
int profile_workload_resolve(const struct profile_workload *w, uint64_t capacity, uint32_t lbs,
			     double time_scale, struct job_spec *out, char *err, size_t len);

/*
 * Whether a workload (a rounds cell) is impossible on a target of logical block size lbs (0 =
 * unknown: every workload is possible): a block size below lbs (0.5 KiB on a 4Kn device) or not
 * a multiple of it. true with the reason in why (the record's and the summary's
 * "not_applicable", docs/results-format.md); false with why untouched. The runner records such a
 * cell as not applicable and goes on; the plan leaves its time out (issue 15, point 1).
 */
bool profile_workload_not_applicable(const struct profile_workload *w, uint32_t lbs, char *why,
				     size_t len);

/* ---- phase data ----------------------------------------------------------------------------- */

enum phase_type {
	PHASE_PURGE = 0,
	PHASE_PRECONDITION,
	PHASE_WRITE_UNTIL,
	PHASE_ROUNDS,
	PHASE_IDLE,
	PHASE_TRIM,
	PHASE_REPEAT,
	PHASE_IDLE_SWEEP,
	PHASE_TRIM_CHECK,
	PHASE_SURFACE,
	PHASE_VARIANTS,
	PHASE_DIRTH_POINTS,
	PHASE_BURSTS,
	PHASE_NTYPES /* how many kinds there are (not a kind) */
};

/*
 * purge: return the flash to fresh-out-of-box. auto = the target's real purge where it has one
 * (TARGET_CAP_PURGE: today only the virtual SSD's own reset; secure erase, sanitize and format
 * are for later), else a full-device discard; discard = a full-range discard only; sim = only
 * the virtual SSD's purge (an error on other targets). A discard is not a SNIA PTS purge: the
 * results flag it, and the runner follows it with `settle_ns` (scaled like every duration) of
 * idle, because drives carry out a large TRIM in the background after the command returns.
 *
 * On a drive with purge commands (TARGET_CAP_DRIVE_PURGE, targets/purge_chain.h) auto walks the
 * drive's chain instead: a block-erase sanitize, an NVMe format with user-data erase, ..., then
 * a discard (flagged as not a PTS purge), recording why each earlier method was skipped;
 * nvme-format, nvme-sanitize, ata-sanitize-block, ata-sanitize-crypto and ata-security-erase
 * name one method of that chain (an error where it does not apply).
 */
enum purge_method {
	PURGE_AUTO = 0,
	PURGE_DISCARD,
	PURGE_SIM,
	PURGE_NVME_FORMAT,
	PURGE_NVME_SANITIZE,
	PURGE_ATA_SANITIZE_BLOCK,
	PURGE_ATA_SANITIZE_CRYPTO,
	PURGE_ATA_SECURITY_ERASE,
};
/* The methods from PURGE_NVME_FORMAT on name one row of a drive's purge chain. */
#define PURGE_FIRST_DRIVE_METHOD PURGE_NVME_FORMAT
/* The method's name as profiles spell it ("auto", "nvme-format"). */
const char *phase_purge_method_name(enum purge_method m);
#define PURGE_SETTLE_DEFAULT_NS 5000000000ull
struct phase_purge {
	enum purge_method method;
	uint64_t settle_ns; /* idle after a discard purge; default PURGE_SETTLE_DEFAULT_NS */
};
/* The idle (profile time) after purge p: its settle when it will be a discard (method discard,
 * or a target without a real purge), else 0. */
uint64_t phase_purge_settle_ns(const struct phase_purge *p, bool real_purge);

/*
 * precondition's `method: sprandom` (docs/sprandom.md): the workload's offsets come from the
 * sprandom sequence (engine/sprandom.h), which writes about the physical capacity once and
 * leaves the block validities of a random-write steady state; its length is computed, not
 * given. Inputs, each `auto` unless the profile sets it:
 *   spare      the spare factor of physical capacity that GC can fill (0.07 = 7%); auto = from
 *              the target (the virtual SSD's model: its physical blocks less the GC reserve and
 *              half the open blocks, over the visible capacity, so an op-variants variant's
 *              added spare counts; a drive: 1 - capacity / the raw NAND its drive-database
 *              entry states); else a refusal that names the three ways to state it
 *   regions    the sequence's regions (2..4096); auto = 1024 (sprandom.h says why)
 *   slc_cache  bytes of SLC cache; auto = the target's model, else 0 (assumed); `{from: DIR}` =
 *              the size the slc-cache probe measured in results directory DIR, on the same
 *              drive (results/slcprobe.h); the fill adds this many bytes of uniform random
 *              writes after the sequence (docs/sprandom.md)
 */
enum spr_source { SPR_FROM_PROFILE = 0, SPR_FROM_MODEL, SPR_ASSUMED, SPR_FROM_PROBE,
		  SPR_FROM_DRIVEDB };
/* "profile", "model", "assumed", "slc-cache probe", "drive database": where an input came
 * from; the records say the last two with their directory or entry (phase_sprandom_inputs_json) */
const char *phase_spr_source_name(enum spr_source s);
#define PHASE_SPR_DIR_MAX 512

struct phase_sprandom {
	bool on;
	bool spare_auto;
	double spare;
	unsigned regions; /* 0 = auto */
	bool slc_auto;
	uint64_t slc_cache;
	/* `slc_cache: {from: DIR}`: DIR (non-empty), read when the inputs are resolved */
	char slc_dir[PHASE_SPR_DIR_MAX];
	/* `force: true`: run the fill where its layout is known not to hold (a GC policy that is
	 * not greedy-like, a static SLC cache, the two-state class, few blocks a die: struct
	 * phase_nand); recorded
	 * (docs/fast-steady-state.md) */
	bool force;
};

/* Blocks per die below which the sprandom fill leaves the drive short of steady state: on
 * enterprise-28op the first 0.25x round after the fill is 20.5 % short of greedy's WA at 13.7
 * blocks a die, 13.0 % at 18.2, 6.9 % at 20.5, 4.4 % at 27.3 (bench/wa_expectation.py --fill;
 * the WA guard's tolerance is 7 %). Only a virtual SSD shrunk far below its real size has so few:
 * a real drive has thousands. */
#define SPRANDOM_MIN_BLOCKS_PER_DIE 20

/* What the target says that the sprandom inputs' `auto` needs (0 / false = it does not say). */
struct phase_nand {
	/* bytes of physical space greedy GC can fill (the virtual SSD's model) */
	uint64_t gc_space_bytes;
	bool slc_known;
	uint64_t slc_cache_bytes;
	/* the GC victim policy's name (the virtual SSD's model; NULL = the target does not say)
	 * and whether the SLC cache is static: where the fill is refused without `force` */
	const char *gc_policy;
	bool slc_static;
	/* the run is of the two-state class: the write cache off (as the profile pins it, or as
	 * the target is when left as found) on a dynamic SLC cache without power-loss protection;
	 * each matrix cell then runs at one of two levels round to round, and the fast figures
	 * miss the full run's (docs/fast-steady-state.md): refused without `force` */
	bool two_state;
	/* physical blocks per die (the virtual SSD's model; 0 = not said): GC picks its victims
	 * within a die, and the fill lays out greedy's steady state over many blocks; below
	 * SPRANDOM_MIN_BLOCKS_PER_DIE refused without `force` */
	double blocks_per_die;
	/* a drive: the raw NAND bytes its drive-database entry states (0 = none) and the entry's
	 * name; what spare: auto uses where the target has no model */
	uint64_t raw_nand_bytes;
	const char *raw_nand_entry;
	/* who the target says it is (NULL = unknown), compared with the drive an slc_cache
	 * `from:` probe measured */
	const char *model, *serial, *wwn;
};

/* The sprandom inputs resolved for a target of `capacity` bytes (phase_sprandom_resolve). */
struct sprandom_inputs {
	double spare;
	enum spr_source spare_from;
	unsigned regions;
	enum spr_source regions_from;
	uint64_t slc_cache;
	enum spr_source slc_from;
	/* slc_from SPR_FROM_PROBE: the run's directory, the probe's phase and fill */
	char slc_dir[PHASE_SPR_DIR_MAX];
	int slc_phase;
	double slc_fill;
	/* spare_from SPR_FROM_DRIVEDB: the entry (a copy) and its raw NAND bytes */
	char spare_entry[96];
	uint64_t raw_nand_bytes;
	uint32_t bs;
	uint64_t units;	     /* bs-sized units of the range */
	double alpha;	     /* the steady-state clean validity (sprandom_alpha) */
	uint64_t seq_writes; /* writes of the sequence */
	uint64_t bytes;	     /* the whole fill: the sequence plus slc_cache rounded up to bs */
	bool forced;	     /* resolved past a refusal by `force: true`: why, in force_why */
	char force_why[160];
};

/*
 * Resolves p's inputs for a workload of one block size bs over `capacity` bytes on a target
 * that says `nand` (NULL = nothing). Returns 0 and fills *out; -EINVAL with the reason in err
 * (spare auto on a target that states no NAND size: the message names the key to set; a spare
 * that leaves no room; too small a range; a target whose GC policy is not greedy-like, fifo or
 * random, whose SLC cache is static, a run of the two-state class (nand->two_state), or a model
 * with fewer than SPRANDOM_MIN_BLOCKS_PER_DIE blocks a die, unless p->force: the layout is
 * greedy's steady state, a static cache starts the rounds about 17 % low, two-state cells miss
 * the full run's figures, and few blocks a die leave the drive short of the layout,
 * docs/fast-steady-state.md; an
 * slc_cache `from:` directory that is no slc-cache run, found no knee or measured another
 * drive than nand's model / serial / wwn, or when nand states no identity to compare).
 * Reads p->slc_dir's summary.json and manifest.json when set. *out untouched on failure.
 */
int phase_sprandom_resolve(const struct phase_sprandom *p, uint32_t bs, uint64_t capacity,
			   const struct phase_nand *nand, struct sprandom_inputs *out, char *err,
			   size_t errlen);
/* The resolved inputs as the records and the manifest carry them (docs/results-format.md). */
struct json_object *phase_sprandom_inputs_json(const struct sprandom_inputs *in);
/* Where the spare and the SLC cache size came from, as the records say it ("model", "drive
 * database: ENTRY", "slc-cache probe DIR", ...), into buf; returns buf. */
const char *phase_sprandom_spare_from(const struct sprandom_inputs *in, char *buf, size_t len);
const char *phase_sprandom_slc_from(const struct sprandom_inputs *in, char *buf, size_t len);
/* Whether `spare: auto` has nothing to resolve from on this target (no model's GC space, no
 * drive-database raw NAND; nand NULL: no target): the refusal that `spare:` in the profile, or
 * --set phases.N.precondition.spare, answers. */
bool phase_sprandom_spare_unknown(const struct phase_sprandom *p, const struct phase_nand *nand);

/*
 * precondition / write_until: run workload `w` until `w.length` (the `amount` key: bytes,
 * capacity multiple or time) is done. write_until is measured and sampled as a time series:
 * `w.spec.interval_ns` (key `interval`, default 1 s) and, when `round_time_ns` is not 0, one
 * measurement record per round_time of target time (WSAT: one record per minute). `max_time_ns`
 * (0 = none) stops early, whichever comes first ("4x capacity or 24 h").
 * precondition defaults: rw write, bs 128k, amount 2x. write_until: amount is required.
 */
struct phase_write {
	struct profile_workload w;
	uint64_t round_time_ns;
	uint64_t max_time_ns;
	/* write_until's `slc_probe: true`: the phase is an SLC-cache probe, and the analysis fits
	 * its series for the cache's size and speeds (analysis/pass_slc.c) */
	bool slc_probe;
	/* write_until's `gc_pass: true`: one pass of the GC-passes experiment (full-range
	 * sequential writes with rests between them); the analysis measures each pass's fast
	 * region (analysis/pass_gcpasses.c) */
	bool gc_pass;
	/* write_until's `stop: {below_peak, for}`: end early once the chunks' throughput has stayed
	 * below stop_below_peak x the best chunk's for stop_for (bytes or a capacity multiple) of
	 * writing in a row (run/runner_rules.c, runner_stop_update); has_stop false = no rule */
	bool has_stop;
	double stop_below_peak;
	struct amount stop_for;
	/* precondition's `method: sprandom` (see struct phase_sprandom) */
	struct phase_sprandom spr;
};

/* Keys a rounds matrix can vary, in a fixed numbering; a cell's coordinates are indexed by it. */
enum cell_key { CELL_RWMIX_READ = 0, CELL_BS, CELL_QD, CELL_THREADS, CELL_RW, CELL_NKEYS };
const char *cell_key_name(enum cell_key k);

#define PROFILE_MAX_AXIS_VALUES 32

/* One axis of the matrix: the values of one key, in the order written. Values are the rwmix
 * percent, the block size in bytes, the qd, the thread count, or an enum rw_mode. */
struct profile_axis {
	enum cell_key key;
	unsigned n;
	uint64_t v[PROFILE_MAX_AXIS_VALUES];
};

/* What the steady-state tracker follows: the cell whose coordinates equal `v[k]` for every k
 * with has[k], and one of its figures (the table of metrics is results/records.h's). */

struct profile_track {
	bool has[CELL_NKEYS];
	uint64_t v[CELL_NKEYS];
	enum results_metric metric;
};

/*
 * rounds: a round runs every cell of the matrix once, in `order` (axes[0] is the outer loop);
 * each cell runs `base` with its coordinates applied, for cell_time (base.length, AMOUNT_TIME).
 * `pre_write` (when has_pre_write) runs before each round. Rounds repeat until steady state
 * (has_steady_state; ss params, SNIA defaults 5 / 20% / 10% / 25) or exactly `count` rounds.
 * A matrix with no axes is a single cell. When rwmix_read varies and no rw is given
 * (rw_follows_mix), a cell's mode follows its mix (SNIA convention): 100 -> randread,
 * 0 -> randwrite, else randrw; with rw: randrw or rw given, the mode stays and only the mix
 * varies. rw and rwmix_read never both vary.
 */
struct phase_rounds {
	struct profile_workload base;
	unsigned naxes;
	struct profile_axis axes[CELL_NKEYS]; /* outer first */
	bool has_pre_write;
	struct profile_workload pre_write;
	bool has_steady_state;
	struct ss_params ss;
	/* steady_state.early (analysis/ss_early.h): the rounds may end when the window is
	 * predicted to pass; early_written the guard's stated bytes since the purge (0 = the
	 * target's physical capacity + SLC cache, docs/early-verdict.md) */
	bool has_early;
	struct ss_early_params early;
	uint64_t early_written;
	struct profile_track track;
	unsigned count; /* fixed round count when !has_steady_state */
	unsigned
	    tracked_cell;    /* index (in cell order) of the tracked cell, when has_steady_state */
	bool rw_follows_mix; /* no rw given: a cell's mode follows its rwmix_read (see above) */
};

/* idle: leave the target alone for `time_ns` of target time (idle GC may run). */
struct phase_idle {
	uint64_t time_ns;
};

/* trim: discard `range` (default the whole device). */
struct phase_trim {
	struct range range;
};

/* trim_check: targets/trimcheck.h on the start of the device (docs/trim-check.md). */
struct phase_trim_check {
	unsigned latency_samples; /* QD1 reads of trimmed and of mapped blocks; default 32 */
	/* the fresh-behaviour measurement (run/trim_fresh.h): 4 KiB random writes over `fresh`
	 * (bytes or a capacity multiple; AMOUNT_NONE: not measured) for fresh_time before and
	 * after discarding it; fresh_time default 10 s, scaled like every duration */
	struct amount fresh;
	uint64_t fresh_time_ns;
};

struct profile_phase;
/* An ordered list of phases (the top-level list, or a repeat's body). */
struct phase_list {
	struct profile_phase *v;
	size_t n;
};

/* repeat: run `phases` `count` times (nesting allowed, up to PROFILE_MAX_DEPTH). */
struct phase_repeat {
	unsigned count;
	struct phase_list phases;
};

#define PROFILE_MAX_DEPTH 4

/*
 * idle_sweep: `count` idle times log-spaced from `from_ns` to `to_ns` (to the millisecond), each
 * `reps` times, shuffled by `seed` (the key, else defaults.seed, else 1): order_ns, n = count x
 * reps. Each idle is followed by the `after` phases; `body` holds the sweep written out (per
 * idle: the idle, then the after phases, parsed anew), walked once like a repeat's body.
 */
struct phase_idle_sweep {
	uint64_t from_ns, to_ns, seed;
	unsigned count, reps;
	uint64_t *order_ns; /* owned */
	size_t n;
	struct phase_list body; /* owned */
};

/*
 * surface: a full-range sequential read (or, `rw: write`, destructive write) in `chunk`-sized
 * chunks of `bs` I/Os at `qd`, the zcav / HD Tune scan (engine/surface.h): speed, largest
 * latency and failed LBAs per chunk (at most max_error_lbas LBAs kept, all counted). slow_below:
 * the analysis's slow-chunk threshold, a fraction of the median speed (analysis/surface.h).
 */
#define PHASE_SURFACE_CHUNK_DEFAULT (256ull << 20)
#define PHASE_SURFACE_BS_DEFAULT (128u << 10)
#define PHASE_SURFACE_QD_DEFAULT 1u
#define PHASE_SURFACE_MAX_LBAS_DEFAULT 1000u
struct phase_surface {
	bool write;
	uint64_t chunk;
	uint32_t bs;
	unsigned qd, max_error_lbas;
	double slow_below;
};

/*
 * variants: run `phases` once per user-capacity fraction (default 100%, 87.5%, 75%), in order.
 * How the capacity shrinks (run/variants.h): sim = the virtual SSD's capacity setting (its
 * visible capacity changes, its tail is unmapped); trim-tail = the visible capacity stays, the
 * tail past the fraction is discarded and never written (on a page-mapped FTL an unwritten LBA
 * is spare); namespace = an NVMe namespace deleted and created smaller, hpa = a SATA drive's
 * accessible max LBA (both journaled devchange kinds); auto = sim where the target can set its
 * capacity, else namespace where the controller really manages namespaces, else hpa where the
 * drive has it, else trim-tail (why each was passed by goes in the log). The original
 * capacity comes back at the end whatever happens. The body is walked like a repeat's: variant
 * i runs as repeat i (for a top-level variants phase).
 */
#define PHASE_MAX_VARIANTS 16
enum variant_method {
	VARIANT_AUTO = 0,
	VARIANT_SIM,
	VARIANT_TRIM_TAIL,
	VARIANT_HPA,
	VARIANT_NAMESPACE
};
/* The method's name as profiles spell it ("auto", "sim", "trim-tail", "hpa", "namespace"). */
const char *phase_variant_method_name(enum variant_method m);
struct phase_variants {
	enum variant_method method;
	unsigned n;
	double fraction[PHASE_MAX_VARIANTS]; /* of the visible capacity, in (0, 1] */
	struct phase_list phases;
};

/*
 * dirth_points: SNIA PTS DIRTH's three response-time histogram points (issue 16 point 3). At run
 * time the runner reads the cell records of the latest earlier rounds phase whose cells are
 * "threads=T,qd=Q", averages each cell's IOPS over its last `window` recorded rounds and picks
 * Max (the highest), Min (TC1/QD1) and Mid (of the others, the IOPS nearest the middle of Max and
 * Min: analysis/snia_dirth.h); each point then gets `pre_write` (when given) and a measured run
 * of `base` at its TC x QD for base.length (the `time` key), recorded with why it was chosen.
 * base's own queue is not used. window default 5 (the SNIA measurement window).
 */
#define PHASE_DIRTH_WINDOW_DEFAULT 5u
struct phase_dirth_points {
	struct profile_workload base;
	bool has_pre_write;
	struct profile_workload pre_write;
	unsigned window;
};

/*
 * bursts: `count` times, a wait of `wait_ns` (the target left alone) and then a burst of
 * workload `w` for `burst_ns` (w.length), one measurement record per burst with the wait that
 * preceded it (SNIA PTS host idle recovery: 360 x [5 s of 4 KiB random writes + a wait]; each
 * burst follows a wait, so that every record measures a recovery). Both durations are scaled
 * like every duration, and the wait is then raised to the target's floor (phase_env
 * wait_floor_ns: twice a virtual SSD's idle-GC delay, below which no recovery can show); the
 * record says what was applied and why.
 */
#define PHASE_BURSTS_MAX_COUNT 100000u
struct phase_bursts {
	struct profile_workload w;
	uint64_t burst_ns, wait_ns;
	unsigned count;
};
struct phase_env;
/* The wait a bursts phase applies: wait_ns scaled by env, raised to env->wait_floor_ns.
 * *floored (optional) says whether the floor raised it. */
uint64_t phase_bursts_wait_ns(const struct phase_bursts *b, const struct phase_env *env,
			      bool *floored);

/* ---- cells ---------------------------------------------------------------------------------- */

struct profile_cell {
	unsigned index;		    /* position in the round, 0-based */
	struct profile_workload w;  /* the rounds' base with the coordinates applied */
	uint64_t coord[CELL_NKEYS]; /* meaningful where the rounds have that axis */
	char key[96];		    /* "rwmix_read=65,bs=4k" (axes in order; "all" when none) */
};

/*
 * Expands the matrix into cells in execution order (last axis fastest). *cells is malloc'ed
 * (free() it); *n = product of the axis sizes (1 with no axes). -ENOMEM on failure.
 */
int profile_rounds_cells(const struct phase_rounds *r, struct profile_cell **cells, size_t *n);

/* The text of one coordinate value as in cell keys: "65", "4k", "32", "randwrite". */
const char *cell_value_fmt(enum cell_key k, uint64_t v, char *buf, size_t len);

/* ---- the phase registry --------------------------------------------------------------------- */

/* What a parse hook gets besides its node: the profile-wide defaults and nesting depth. */
struct profile_defaults {
	unsigned qd, threads;	   /* default 1 and 1; the `defaults: {queue: {threads, depth}}` */
	uint64_t seed;		   /* 0 = not given: the run's seed (--seed, else 1) */
	enum data_pattern pattern; /* default random (incompressible) */
	unsigned compressibility;  /* default 0 */
};

/* What a profile's `pts:` block (profile/pts.h) gives every workload it parses. */
struct phase_pts_settings {
	/* TC x QD of a measured phase (rounds, write_until) that gives no queue; 0 = defaults */
	unsigned measured_threads, measured_qd;
	double active_range;	/* ActiveRange: a fraction range's ends are scaled by it */
	uint64_t amount;	/* ActiveRange Amount in bytes, 0 = none */
	unsigned segments;	/* and its segment count */
};

struct phase_parse_ctx {
	const struct profile_defaults *defaults;
	int depth; /* 0 at top level; repeat bodies are depth + 1 */
	const struct phase_pts_settings *pts; /* NULL: the profile has no pts: block */
};

/*
 * What a length hook needs of the target, filled by whoever plans (the runner, `ssdlab plan`)
 * from the same sources (runner_time_scale(), target_info(), the target's capabilities).
 */
struct phase_env {
	uint64_t capacity; /* visible capacity in bytes (one pass, capacity multiples) */
	double scale;	   /* effective duration scale: --time-scale x the target's own */
	bool real_purge;   /* the target has a real purge (else a purge is a discard + its settle) */
	uint32_t lbs;	   /* logical block size; 0 = unknown (every cell counted as applicable) */
	/* the shortest wait a bursts phase applies (target time; 0 = none): twice a virtual
	 * SSD's idle-GC delay (phases_bursts.h) */
	uint64_t wait_floor_ns;
	/* what the target says for the sprandom fill's `auto` inputs (all 0 = nothing) */
	struct phase_nand nand;
};

/*
 * One phase instance's length: a time part known in advance (scaled, each duration on its own
 * as the runner scales it) and a byte part whose time depends on the speed, per round for a
 * rounds phase, which runs rounds_lo .. rounds_hi rounds (window .. max_rounds to steady state,
 * or count); 1 .. 1 for the others. cap_ns (0 = none) is a max_time that stops it early.
 */
struct phase_length {
	uint64_t ns, bytes;
	uint64_t cap_ns;
	unsigned rounds_lo, rounds_hi;
	/* For `ssdlab plan`'s line: a chunked kind (PHASE_KIND_CHUNKED) cut by time, not bytes
	 * (write_until's round_time), and a note on how this target runs the step ("" = none):
	 * for a sprandom fill, the inputs this target resolves or why it refuses them. */
	bool chunks_by_time;
	char note[640];
	/* A rule may end the step sooner (write_until's stop): its bytes and time, counted to the
	 * end of its amount, are upper bounds (`ssdlab plan` prints "up to"). */
	bool upper_bound;
};

/* A duration in profile time as the target sees it: ns x env->scale (saturating). */
uint64_t phase_scale_ns(const struct phase_env *env, uint64_t ns);

/* One job of a phase instance, for the planner (a speed or drain probe of its workload). */
struct phase_job {
	struct profile_workload w;
	char key[96]; /* the cell key for a rounds cell, else the kind's name */
	bool cell;    /* a cell of a rounds matrix: the runner refuses one shorter than its drain */
};

struct phase_list;

/*
 * What a kind's instance is, for the code that sums or prints steps without knowing the kinds
 * (run/eta.c, cli/cmd_plan.c): a new kind sets its flags here and needs no edit there.
 */
enum phase_kind_flags {
	/* The runner records an instance in chunks (crash-safe writes); the ETA of the rest
	 * follows the phase's own pace so far. */
	PHASE_KIND_CHUNKED = 1u << 0,
	/* An instance is rounds of cells: the length is one round, rounds_lo .. rounds_hi of
	 * them; time-bound cells whose drains the runner measures in round 1. */
	PHASE_KIND_ROUNDS = 1u << 1,
	/* Takes its length without running a job (idle): before it starts no job says how
	 * long it has left, the step's length does. */
	PHASE_KIND_WAIT = 1u << 2,
};

struct phase_kind {
	const char *name;
	enum phase_type type;
	unsigned flags; /* enum phase_kind_flags */
	size_t size; /* of the data struct, zero-initialized before parse */
	/* Fills data from the kind's settings node (usually a mapping). 0 or -EINVAL/-ENOMEM. */
	int (*parse)(const struct ydoc_node *node, void *data, const struct phase_parse_ctx *ctx,
		     struct ydoc_error *err);
	void (*release)(void *data); /* frees what data holds (not data itself); may be NULL */
	bool (*destructive)(const void *data); /* writes, discards or purges */
	struct json_object *(*to_json)(const void *data);
	void (*describe)(const void *data, char *buf, size_t len); /* one line */
	/* Bytes written given the capacity: 0 and *bytes, or -ENODATA when it depends on speed
	 * (a time-bound phase), may be NULL for kinds that write nothing. */
	int (*bytes)(const void *data, uint64_t capacity, uint64_t *bytes);
	/* How long one instance takes on a target (struct phase_length): the duration hook that
	 * profile/plan.h sums for `ssdlab plan` and the runner's ETA. NULL: takes no time of its
	 * own (a repeat, whose body is planned instead). */
	void (*length)(const void *data, const struct phase_env *env, struct phase_length *out);
	/* The jobs one instance runs (a rounds phase: its cells in order, then the pre-write), for
	 * the planner's probes. 0 with *jobs malloc'ed (free()) and *n, or -ENOMEM; NULL for kinds
	 * that run no job. */
	int (*jobs)(const void *data, struct phase_job **jobs, size_t *n);
	/* A kind that holds a phase list (repeat): the list and how many times it runs. The walk
	 * (runner, plan) descends into it after the phase's own step. NULL for the others. */
	const struct phase_list *(*body)(const void *data, unsigned *count);
};

/* The most rounds a rounds phase may run and the most times a repeat may: a bound on typos. */
#define PHASE_MAX_ROUNDS 10000

/* The rounds kind's row of the registry (phases_rounds.c: the cells matrix, the pre-write and
 * the steady-state rule make it the largest kind). */
extern const struct phase_kind phase_rounds_kind;
/* The simple kinds' rows (phases.c); phases_registry.c lists them in kinds[]. */
extern const struct phase_kind phase_purge_kind;
extern const struct phase_kind phase_precondition_kind;
extern const struct phase_kind phase_write_until_kind;
extern const struct phase_kind phase_idle_kind;
extern const struct phase_kind phase_trim_kind;
/* The idle_sweep kind's row (phases_sweep.c). */
extern const struct phase_kind phase_idle_sweep_kind;
/* The trim_check kind's row (phases_trimcheck.c). */
extern const struct phase_kind phase_trim_check_kind;
/* The surface kind's row (phases_surface.c). */
extern const struct phase_kind phase_surface_kind;
/* The variants kind's row (phases_variants.c). */
extern const struct phase_kind phase_variants_kind;
/* The dirth_points kind's row (phases_dirth.c). */
extern const struct phase_kind phase_dirth_points_kind;
/* The bursts kind's row (phases_bursts.c). */
extern const struct phase_kind phase_bursts_kind;

/* For the kinds' hooks (phases.c, phases_rounds.c, phases_registry.c); implemented in
 * phases_common.c. */
/* True when mode m with rwmix_read % reads writes anything. */
bool phase_rw_writes(enum rw_mode m, unsigned rwmix_read);
/* "randwrite 4k qd 32 x 4 threads" (+ " over 0%-50%" when the range is not the whole device)
 * into buf; the mode and the block size are left out when skip_rw, skip_bs (a rounds matrix
 * varies them). Returns the length written (truncated to len - 1). */
size_t phase_wl_desc_skip(const struct profile_workload *w, bool skip_rw, bool skip_bs,
			  char *buf, size_t len);
size_t phase_wl_desc(const struct profile_workload *w, char *buf, size_t len); /* skips none */
/* "16 GiB", "2x capacity", "60s" or "one pass" in buf; returns buf (or a units_fmt_* result). */
const char *phase_amount_text(const struct amount *a, char *buf, size_t len);
/* Bytes a write workload of length a writes: 0 and *bytes for bytes and capacity multiples;
 * -ENODATA (*bytes = 0) for a time. */
int phase_length_bytes(const struct amount *a, uint64_t capacity, uint64_t *bytes);
/* Adds a workload's length to l: time (scaled) or bytes (one pass = the capacity). */
void phase_add_length(const struct phase_env *env, const struct amount *a,
		      struct phase_length *l);
/* l = one instance of no length (rounds 1 .. 1). */
void phase_one_instance(struct phase_length *l);

/* Every kind has parse, destructive, to_json and describe (tests/unit/test_phases.c checks); its
 * execute hook lives one layer up, in run/runner.c's kind_exec[] indexed by type (checked by
 * runner_kind_covered()), since running a phase needs the engine and the results. */

const struct phase_kind *phase_kind_find(const char *name);
/* i-th registered kind (NULL past the end), for listings and "did you mean". */
const struct phase_kind *phase_kind_at(size_t i);

struct profile_phase {
	const struct phase_kind *kind;
	void *data;    /* kind->size bytes, owned */
	int line, col; /* of the list item, for messages */
	/* the phase's own cool-down gate, a key beside its kind ("- rounds: {...}\n  cooldown:
	 * {below: 50C}"); set false when it has none (the profile's then applies) */
	struct profile_cooldown cooldown;
};

/* Parses a list of phases (the top level or a repeat's body). At least one phase. Used by the
 * repeat kind; on failure the list is untouched. */
int profile_parse_phase_list(const struct ydoc_node *seq, const char *ctx,
			     const struct phase_parse_ctx *pctx, struct phase_list *out,
			     struct ydoc_error *err);
void phase_list_release(struct phase_list *l);

/* The first phase (depth first, inside repeats) that writes, discards or purges; NULL when none
 * does. For the destructive check and profile_writes(). */
const struct profile_phase *phase_list_first_writer(const struct phase_list *l);

/* Reads the `defaults:` mapping into d (which holds the built-in defaults). 0 or -EINVAL. */
int profile_parse_defaults(const struct ydoc_node *n, struct profile_defaults *d,
			   struct ydoc_error *err);
/* The defaults as JSON (for the manifest's plan). New reference; NULL on -ENOMEM. */
struct json_object *profile_defaults_to_json(const struct profile_defaults *d);

/* json-c with its failures checked (the to_json hooks): adds v under key / appends v, taking
 * ownership of v; -ENOMEM when v is NULL (its allocation failed) or json-c fails. */
int phase_json_add(struct json_object *o, const char *key, struct json_object *v);
int phase_json_append(struct json_object *a, struct json_object *v);

/* Parses a workload's keys out of a mapping (rw, rwmix_read, bs, qd, threads, queue, range,
 * random_distribution, zones, pattern, compressibility, seed, ramp, interval) plus the extra
 * keys of the caller (`extra`, stored into `extra_dst`), applying defaults. Shared by the kinds
 * that run a workload. `present` gets the bits of the extra keys that appeared. */
int profile_parse_workload(const struct ydoc_node *map, const char *ctx,
			   const struct phase_parse_ctx *pctx, struct profile_workload *w,
			   const struct ydoc_key *extra, void *extra_dst, uint64_t *present,
			   struct ydoc_error *err);
struct json_object *profile_workload_to_json(const struct profile_workload *w);
/* For kinds that hold a phase list (repeat): the list as a JSON array, and its bytes as
 * profile_bytes_written() counts them. */
struct json_object *profile_phase_list_to_json(const struct phase_list *l);
int profile_phase_list_bytes(const struct phase_list *l, uint64_t capacity, uint64_t *bytes);

#endif
