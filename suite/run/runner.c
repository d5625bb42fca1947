/* SPDX-License-Identifier: MIT */
/*
 * runner: walks a profile's phases on a target in the target's clock, one record per finished
 * step, and resumes after any interruption. The states, the invariants and the resume rules are
 * in runner.h; this file holds the walk and the state machine that follows them: each step's
 * mode (step_mode: REPLAY, RERUN or RECORD), the transitions (set_state), the resume record,
 * the appends, and the execution of each phase kind through one table keyed by enum phase_type
 * (`kind_exec`), the runner-side half of phases.h's registry. Beside it, each with one job:
 * replay.c (the set K of a resume and its cursor), eta.c (the whole-run ETA over the plan),
 * fault.c (the crash hook of the resume tests), runner_manifest.c (the manifest's runner part),
 * runner_rules.c (the pure figures it decides by: seeds, scales, chunks, drains) and record.c
 * (a job's figures in a record).
 */
#include "run/runner.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "base/errmsg.h"
#include "base/prng.h"
#include "results/snapshot.h"
#include "run/cooldown_gate.h"
#include "run/drive_settings.h"
#include "run/eta.h"
#include "run/fault.h"
#include "run/record.h"
#include "run/replay.h"
#include "run/surface_step.h"
#include "run/trim_fresh.h"
#include "targets/drive_capacity.h"
#include "run/variants.h"
#include "targets/purge_chain.h"
#include "targets/trimcheck.h"
#include "analysis/reader.h"
#include "analysis/snia.h"
#include "analysis/snia_dirth.h"
#include "analysis/ss.h"
#include "analysis/ss_track.h"
#include "analysis/wa.h"
#include "analysis/wa_guard.h"
#include "base/units.h"

#define KEY_MAX REPLAY_KEY_MAX
/* Real-target idles are cut into slices so that the stop flag is seen within a second. */
#define IDLE_SLICE_NS 1000000000ull
/* A cell shorter than this many drains of its queue is warned about; shorter than one drain it
 * is refused (issue 9, point 2): its figures would describe the drain, not the workload. */
#define DRAIN_WARN_FACTOR 10.0

/* A walk position: which phase (depth-first number), which repeat iteration. */
struct where {
	int phase;
	unsigned repeat;
	const struct profile_phase *ph;
};

struct runner {
	const struct profile *p;
	struct target *t;
	struct results *res;
	struct runner_opts o;
	enum runner_state state;
	bool virt;	    /* virtual-time target: replay executes, a real one skips */
	bool resumed;
	double scale;	    /* effective duration scale */
	int nphases;

	/* K: the records already in records.jsonl, their keys and the walk's cursor (replay.h). */
	struct replay k;

	bool flag_next_resumed; /* the next recorded measurement gets RESULTS_F_RESUMED */
	bool diverged;		/* a virtual SSD's replay did not reproduce a record */
	bool wrote_anything;

	size_t recorded, replayed, rerun;
	uint64_t bytes_written;
	/* The early steady-state guard's count (docs/early-verdict.md): bytes_written_total and
	 * pre_write_bytes of every record since the last purge record, taken from the records
	 * themselves (K's in a replay, the new ones after), so that a resume decides the same. */
	uint64_t written_since_purge;
	/* The WA guard (analysis/wa_guard.h): the clean validity alpha of the last sprandom fill
	 * since the last purge (NaN: none, the guard is off), set by sprandom_setup in a replay
	 * too; guard_job: the job in flight is a tracked cell the guard measures, and its record
	 * gets the counter deltas over the job (wa_guard_counters). */
	double spr_alpha;
	uint64_t spr_start, spr_end; /* the fill's range: the guard's workload must cover it */
	bool guard_job;

	/* Progress of the step in flight. */
	struct runner_progress prog;
	/* Target time of the rest of the round after this job's planned time: this job's drain
	 * and the later cells' planned time and drains (drains as measured in round 1). */
	uint64_t eta_extra_ns;
	/* Offsets of a chunk's series rows: the chunks before it (exec_write). */
	uint64_t series_off_ns, series_off_bytes;

	/* Whole-run ETA: the plan, the I/O this run has executed, a chunked write's rest (eta.h). */
	struct eta eta;
	uint64_t eta_job_ns; /* the length of the step about to start, when time-bound */
	uint64_t run_t0_ns, job_t0_ns; /* target clock at the run's and the job's start */
	bool in_chunks;		       /* the steps are chunks of a write phase */
	unsigned nchunks;	       /* how many (0 = unknown) */
	bool nchunks_at_most;	       /* nchunks is an upper bound (an amount or max_time first) */

	/* The ramp-end snapshot: a phase's first job, when it has a ramp, stores one when its
	 * measured part starts, so that the phase's WA can leave the ramp out (analyze.c). */
	const struct where *phase_unstarted; /* the phase whose first job has not run yet */
	const struct where *ramp_mark;	     /* the job in flight stores the snapshot */
	int ramp_mark_rc;

	/* Test hook. */
	struct fault fault;

	bool cooldown_noted; /* the note that the target cannot take the gate was given */
	bool early_noted;    /* --strict-pts: the note that an early verdict was passed by */

	/* A variants phase's trimmed tail (run/variants.h): workloads resolve against this
	 * capacity instead of the visible one; 0 = none. */
	uint64_t cap_limit;
	/* A resume inside a variants phase (runner.h, I7): variant_guard while a variant that
	 * began with records left in K is replayed (the first step not in K then ends its walk
	 * with -ERESTART instead of recording); redo while that variant runs again from its first
	 * phase, its K steps executed and not recorded again; redo_variant its number (from 1),
	 * for the resume record. */
	bool variant_guard, redo;
	unsigned redo_variant;

	/* Keys the next recorded job step merges into its record (a DIRTH point's choice,
	 * exec_bursts: the wait before a burst; a sprandom precondition's inputs, for each of its
	 * chunks: exec_write); borrowed, NULL = none. */
	struct json_object *rec_extra;
	/* Bytes the pre-writes since the last recorded step wrote (a rounds phase's and a DIRTH
	 * point's `pre_write`): they have no record of their own, so the next record carries
	 * them (`pre_write_bytes`) and the host-write check counts them. */
	uint64_t prewrite_bytes;

	char *err;
	size_t errlen;
};

static int walk_list(struct runner *r, const struct phase_list *l, int *next_phase,
		     unsigned repeat);

/* The capacity workloads resolve against: the visible one, or a variant's trimmed tail's. */
static uint64_t work_capacity(const struct runner *r)
{
	return r->cap_limit ? r->cap_limit : target_info(r->t)->capacity;
}

/* ---- small helpers ---------------------------------------------------------------------- */

const char *runner_state_name(enum runner_state s)
{
	static const char *const names[] = {
		[RUNNER_OPEN] = "open",	    [RUNNER_REPLAY] = "replay", [RUNNER_RERUN] = "rerun",
		[RUNNER_RECORD] = "record", [RUNNER_STOPPED] = "stopped", [RUNNER_FAILED] = "failed",
		[RUNNER_DONE] = "done",
	};
	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

/* The run's error text; the first (root) cause is kept. */
#define fail(r, ...) ((void)errmsg_first((r)->err, (r)->errlen, 0, __VA_ARGS__))

static void note(struct runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct runner *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (!r->o.note)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	r->o.note(buf, r->o.arg);
}

static bool stop_raised(const struct runner *r)
{
	return r->o.stop && *r->o.stop;
}

static uint64_t scale_ns(const struct runner *r, uint64_t ns)
{
	double v = (double)ns * r->scale;

	return v >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)v;
}

/* The key of a step, exactly as results_record_key() prints it for the record. */
static int step_key(int phase, unsigned repeat, unsigned round, const char *cell,
		    const char *kind, char *buf, size_t len)
{
	struct json_object *o = json_object_new_object();
	int rc = -ENOMEM;

	if (!o)
		return rc;
	if (jsonnum_add(o, "phase", json_object_new_int(phase)) ||
	    jsonnum_add(o, "repeat", json_object_new_int64(repeat)) ||
	    jsonnum_add(o, "round", json_object_new_int64(round)) ||
	    jsonnum_add(o, "cell", json_object_new_string(cell ? cell : "")) ||
	    jsonnum_add(o, "kind", json_object_new_string(kind)))
		goto out;
	rc = results_record_key(o, buf, len);
out:
	json_object_put(o);
	return rc;
}

static uint64_t rec_get_u64(struct json_object *rec, const char *k)
{
	uint64_t v = 0;

	if (rec)
		(void)jsonnum_get_u64(rec, k, &v);
	return v;
}

/* Every record walked past (K's) or appended counts once into the guard's bytes since the
 * purge, as analyze counts them (reader_written_since_purge). */
static void count_written(struct runner *r, struct json_object *rec)
{
	struct json_object *k;

	if (json_object_object_get_ex(rec, "kind", &k) && k &&
	    !strcmp(json_object_get_string(k), "purge")) {
		r->written_since_purge = 0;
		r->spr_alpha = NAN;
		return;
	}
	r->written_since_purge +=
	    rec_get_u64(rec, "bytes_written_total") + rec_get_u64(rec, "pre_write_bytes");
}

/* ---- state and records ------------------------------------------------------------------ */

static void set_state(struct runner *r, enum runner_state s)
{
	/* The legal transitions of runner.h's table. */
	assert(r->state != RUNNER_STOPPED && r->state != RUNNER_FAILED && r->state != RUNNER_DONE);
	assert(!(r->state == RUNNER_RECORD && (s == RUNNER_REPLAY || s == RUNNER_RERUN)));
	assert(!(r->state == RUNNER_RERUN && s == RUNNER_REPLAY));
	r->state = s;
}

/* Without the fault hook: the ramp-end snapshot is not a boundary the crash tests count. */
static int write_snapshot(struct runner *r, const char *label, int phase, unsigned repeat)
{
	struct snapshot s;
	int rc;

	snapshot_init(&s, "none");
	rc = target_snapshot(r->t, &s);
	if (rc) {
		/* A snapshot the target cannot give is recorded as such, not a failure. */
		snapshot_release(&s);
		snapshot_init(&s, "none");
		note(r, "snapshot %s: %s (stored without counters)", label, strerror(-rc));
	}
	snprintf(s.label, sizeof(s.label), "%s", label);
	if (!s.target_ns)
		s.target_ns = target_now(r->t);
	rc = results_write_snapshot(r->res, &s, phase, repeat);
	snapshot_release(&s);
	if (rc)
		fail(r, "writing snapshot %s: %s", label, strerror(-rc));
	return rc;
}

static int store_snapshot(struct runner *r, const char *label, int phase, unsigned repeat)
{
	if (fault_hit(&r->fault, FAULT_BOUNDARY))
		fault_act(&r->fault);
	return write_snapshot(r, label, phase, repeat);
}

/* The resume record: where the walk picked up again and how long the drive was left alone. */
static int append_resume_record(struct runner *r, const struct where *w, unsigned round)
{
	struct results_record rr = {
		.kind = "resume", .phase = w->phase, .phase_kind = w->ph->kind->name,
		.repeat = w->repeat, .round = round,
	};
	char cell[32], label[48];
	struct json_object *o;
	uint64_t now = target_now(r->t);
	int rc;

	snprintf(cell, sizeof(cell), "resume-%u", r->k.nresume + 1);
	rr.cell = cell;
	rr.start_ns = rr.end_ns = now;
	o = results_record_to_json(&rr);
	if (!o)
		return -ENOMEM;
	rc = jsonnum_add(o, "resume", json_object_new_int64(r->k.nresume + 1));
	if (!rc && r->o.wall_ns)
		rc = jsonnum_add(o, "wall_ns", json_object_new_uint64(r->o.wall_ns()));
	if (!rc && r->k.have_last && r->o.wall_ns && r->k.last_wall_ns)
		rc = jsonnum_add(o, "gap_wall_ns",
				 json_object_new_uint64(r->o.wall_ns() - r->k.last_wall_ns));
	/* CLOCK_MONOTONIC restarts at boot: a target clock behind the last record means the gap is
	 * unknown in target time. A virtual target's clock was rebuilt by the replay. */
	if (!rc && r->k.have_last && !r->virt && now >= r->k.last_end_ns)
		rc = jsonnum_add(o, "gap_target_ns", json_object_new_uint64(now - r->k.last_end_ns));
	if (!rc)
		rc = jsonnum_add(o, "sim_replayed", json_object_new_boolean(r->virt));
	if (!rc)
		rc = jsonnum_add(o, "steps_replayed", json_object_new_uint64(r->replayed));
	if (!rc && r->virt)
		rc = jsonnum_add(o, "replay_diverged", json_object_new_boolean(r->diverged));
	if (!rc && r->redo_variant)
		rc = jsonnum_add(o, "variant_rerun", json_object_new_uint64(r->redo_variant));
	if (!rc)
		rc = results_append_record(r->res, o);
	json_object_put(o);
	if (rc) {
		fail(r, "appending the resume record: %s", strerror(-rc));
		return rc;
	}
	r->k.nresume++;
	r->flag_next_resumed = true;
	snprintf(label, sizeof(label), "resume-%u", r->k.nresume);
	return store_snapshot(r, label, -1, 0);
}

/*
 * Decides how the step with this key runs: returns RUNNER_REPLAY (in K, outside the interrupted
 * round), RUNNER_RERUN (in K, inside it) or RUNNER_RECORD; moves the state machine and appends
 * the resume record on the way into RECORD/RERUN of a resumed run. in_rerun says whether the
 * step belongs to a round being re-run. *krec gets the K record for REPLAY/RERUN.
 */
static int step_mode(struct runner *r, const struct where *w, unsigned round, const char *key,
		     bool in_rerun, struct json_object **krec, enum runner_state *mode)
{
	struct json_object *k = replay_peek(&r->k, key);
	int rc;

	if (k) {
		assert(r->state == RUNNER_REPLAY || r->state == RUNNER_RERUN);
		r->k.pos++;
		count_written(r, k);
		*krec = k;
		*mode = in_rerun || r->redo ? RUNNER_RERUN : RUNNER_REPLAY;
		return 0;
	}
	if (!replay_exhausted(&r->k)) {
		/* I6: a step not in K while K still has records: they belong to another plan. */
		fail(r, "records.jsonl does not fit the plan: expected %s, found %s", key,
		     r->k.key[r->k.pos]);
		return -EINVAL;
	}
	/* I7: the variant being replayed is the interrupted one: exec_variants runs it again */
	if (r->variant_guard && r->state == RUNNER_REPLAY)
		return -ERESTART;
	if (r->state != RUNNER_RECORD) {
		if (r->resumed && r->state != RUNNER_RERUN) {
			rc = append_resume_record(r, w, round);
			if (rc)
				return rc;
		}
		set_state(r, RUNNER_RECORD);
	}
	*krec = NULL;
	*mode = RUNNER_RECORD;
	return 0;
}

/* Enters RERUN for a round partly in K (I6), appending the resume record first. */
static int enter_rerun(struct runner *r, const struct where *w, unsigned round)
{
	int rc;

	if (r->state == RUNNER_RERUN)
		return 0;
	assert(r->state == RUNNER_REPLAY);
	if (r->variant_guard)
		return -ERESTART; /* I7: the whole variant runs again, not only this round */
	rc = append_resume_record(r, w, round);
	if (rc)
		return rc;
	set_state(r, RUNNER_RERUN);
	note(r, "resume: re-running round %u of phase %d from its first cell", round, w->phase);
	return 0;
}

/* Appends a step's record (I1, I2), with the test hooks around the append. */
static int append_step(struct runner *r, struct json_object *rec, const char *key)
{
	int rc;

	/* I1/I6: recording starts only once every record of K has been walked past. */
	assert(r->state == RUNNER_RECORD && replay_exhausted(&r->k));
	if (r->o.wall_ns && (rc = jsonnum_add(rec, "wall_ns",
					      json_object_new_uint64(r->o.wall_ns()))))
		return rc;
	if (fault_hit(&r->fault, FAULT_BEFORE))
		fault_act(&r->fault);
	if (fault_hit(&r->fault, FAULT_TORN))
		fault_torn(results_path(r->res), rec);
	rc = results_append_record(r->res, rec);
	if (rc) {
		fail(r, "appending record %s: %s", key, strerror(-rc));
		return rc;
	}
	r->recorded++;
	count_written(r, rec);
	r->wrote_anything = true;
	if (fault_hit(&r->fault, FAULT_AFTER))
		fault_act(&r->fault);
	return 0;
}

/* A record for a step; flags include "resumed" for the first measurement after a resume. */
static struct json_object *step_record(struct runner *r, const struct where *w, const char *kind,
				       unsigned round, const char *cell, uint64_t start_ns,
				       uint64_t end_ns, const struct job_result *job, unsigned flags)
{
	struct results_record rr = {
		.kind = kind, .phase = w->phase, .phase_kind = w->ph->kind->name,
		.repeat = w->repeat, .round = round, .cell = cell, .start_ns = start_ns,
		.end_ns = end_ns, .flags = flags,
	};

	struct json_object *o;

	if (job && r->flag_next_resumed) {
		rr.flags |= RESULTS_F_RESUMED;
		r->flag_next_resumed = false;
	}
	o = run_record_to_json(&rr, job);
	/* A real drive's temperature right after the job, between cells: the full reading (a SATA
	 * drive's drivetemp sends SMART/SCT commands, which drain the queue, so the engine leaves
	 * SATA out of the series; here no I/O is in flight). The thermal pass reads it beside the
	 * series and the snapshots, so a throttling SATA drive is seen within the phase too. */
	if (o && job && !r->virt) {
		double c;
		if (!target_temperature(r->t, &c, 0) && isfinite(c) &&
		    jsonnum_add(o, "temperature_c", jsonnum_new(c))) {
			json_object_put(o);
			return NULL;
		}
	}
	/* The first measurement after a resume also says whether the re-run cells of the
	 * interrupted round reproduced theirs (known only now, after the resume record). */
	if (o && (rr.flags & RESULTS_F_RESUMED) && r->virt &&
	    jsonnum_add(o, "replay_diverged", json_object_new_boolean(r->diverged))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* ---- whole-run ETA ---------------------------------------------------------------------- */

/* Fills prog.eta_run_* from where the walk stands (eta.h); job_ns, job_bytes, job_t_ns: the
 * current job's rest and what it has done so far. */
static void run_eta(struct runner *r, uint64_t job_ns, uint64_t job_bytes, uint64_t job_t_ns)
{
	eta_run(&r->eta, r->prog.phase, r->prog.repeat, r->prog.round, job_ns, job_bytes, job_t_ns,
		&r->prog.eta_run_lo_ns, &r->prog.eta_run_hi_ns, &r->prog.eta_run_known);
}

/* ---- running jobs ----------------------------------------------------------------------- */

/* The drain of a recorded job (its own figures, so that a resumed walk decides the same). */
static uint64_t rec_drain_ns(struct json_object *rec, unsigned outstanding)
{
	struct json_object *tot;
	uint64_t ios = 0;

	if (!rec || !json_object_object_get_ex(rec, "total", &tot) ||
	    jsonnum_get_u64(tot, "ios", &ios))
		return 0;
	return runner_drain_ns(outstanding, rec_get_u64(rec, "elapsed_ns"), ios);
}

/* A time-bound job's planned time, how long it ran past it and its drain (docs/results-
 * format.md). */
static int add_overrun(struct json_object *rec, const struct job_spec *s,
		       const struct job_result *res)
{
	uint64_t ios = res->d[0].ios + res->d[1].ios;

	if (!s->time_ns)
		return 0;
	if (jsonnum_add(rec, "planned_ns", json_object_new_uint64(s->time_ns)) ||
	    jsonnum_add(rec, "overrun_ns",
			json_object_new_uint64(res->elapsed_ns > s->time_ns
						       ? res->elapsed_ns - s->time_ns
						       : 0)) ||
	    jsonnum_add(rec, "drain_ns",
			json_object_new_uint64(runner_drain_ns(s->threads * s->qd,
							       res->elapsed_ns, ios))))
		return -ENOMEM;
	return 0;
}

int runner_plan(const struct profile *p, const struct target *t, const struct runner_opts *o,
		struct plan *out)
{
	struct phase_env env = {
	    .capacity = target_info(t)->capacity,
	    .scale = runner_time_scale(t, o),
	    /* a drive with purge commands formats or sanitizes (no settle) unless it has neither */
	    .real_purge = target_caps(t) & (TARGET_CAP_PURGE | TARGET_CAP_DRIVE_PURGE),
	    /* a cell below it is not applicable and takes no time (issue 15, point 1) */
	    .lbs = target_info(t)->logical_block_size,
	    /* a bursts phase's waits are never shorter (issue 16 point 1) */
	    .wait_floor_ns = 2 * target_info(t)->idle_gc_delay_ns,
	    .nand = runner_target_nand(target_info(t), p),
	};
	struct plan pl = {0};
	int rc = plan_build(&p->phases, &env, &pl);

	/* Drains at the assumed speed until round 1 measures them (eta_measured_drain). */
	if (!rc)
		rc = plan_assume_drains(&pl, &env, target_info(t)->logical_block_size);
	/* The cool-down gate's worst case, where cooldown_gate() will wait (not on a sim) */
	for (size_t i = 0; !rc && !(target_caps(t) & TARGET_CAP_VIRTUAL_TIME) && i < pl.n; i++) {
		const struct profile_cooldown *c =
		    profile_cooldown_for(&pl.v[i].ph->cooldown, &p->cooldown);

		if (c && !pl.v[i].ph->kind->body)
			pl.v[i].cooldown_ns = c->max_wait_ns;
	}
	if (rc) {
		plan_release(&pl);
		return rc;
	}
	*out = pl;
	return 0;
}

void runner_eta_initial(const struct runner *r, double bps, uint64_t *lo, uint64_t *hi,
			bool *known)
{
	plan_span(&r->eta.plan, 0, bps, lo, hi, known);
}

static void on_engine_progress(const struct engine_progress *ep, void *arg)
{
	struct runner *r = arg;

	if (r->fault.armed_cell) {
		r->fault.armed_cell = false;
		fault_act(&r->fault);
	}
	r->prog.iops = ep->iops;
	if (ep->total_ns)
		r->prog.eta_ns = ep->total_ns > ep->t_ns ? ep->total_ns - ep->t_ns : 0;
	else if (ep->total_bytes > ep->bytes && ep->bytes) /* amount-bound: at the pace so far */
		r->prog.eta_ns = (uint64_t)((double)ep->t_ns * (double)(ep->total_bytes - ep->bytes) /
					    (double)ep->bytes);
	else
		r->prog.eta_ns = 0;
	r->prog.eta_ns += r->eta_extra_ns;
	run_eta(r, r->prog.eta_ns, ep->bytes, ep->t_ns);
	if (r->o.progress) {
		struct runner_progress p = r->prog;

		/* Writes only: ep->bytes counts the reads of a mixed or read cell too. */
		p.bytes_written = r->bytes_written + ep->written;
		p.target_done_ns = r->job_t0_ns - r->run_t0_ns + ep->t_ns;
		r->o.progress(&p, r->o.arg);
	}
}

/* The engine's measured part starts (on a worker thread): the ramp-end snapshot, if armed. */
static void on_measure_start(uint64_t t_ns, void *arg)
{
	struct runner *r = arg;
	const struct where *w = r->ramp_mark;
	char label[64];

	(void)t_ns;
	if (!w)
		return;
	r->ramp_mark = NULL;
	snprintf(label, sizeof(label), "phase-%d-%s-ramp-end", w->phase, w->ph->kind->name);
	r->ramp_mark_rc = write_snapshot(r, label, w->phase, w->repeat);
}

static void progress_step(struct runner *r, const struct where *w, unsigned round,
			  const char *cell)
{
	r->prog.state = r->state;
	r->prog.phase_kind = w->ph->kind->name;
	r->prog.phase = w->phase;
	r->prog.nphases = r->nphases;
	r->prog.repeat = w->repeat;
	r->prog.round = round;
	r->prog.cell = cell;
	r->prog.bytes_written = r->bytes_written;
	r->prog.iops = 0;
	r->prog.eta_ns = 0;
	r->prog.target_done_ns = target_now(r->t) - r->run_t0_ns;
	r->prog.virtual_time = r->virt;
	r->prog.chunk = r->in_chunks && round;
	r->prog.nchunks = r->nchunks;
	r->prog.nchunks_at_most = r->nchunks_at_most;
	run_eta(r, r->eta_extra_ns + r->eta_job_ns, 0, 0);
	if (r->o.progress)
		r->o.progress(&r->prog, r->o.arg);
}

static bool host_limited(const struct runner *r, const struct job_spec *s,
			 const struct job_result *res)
{
	return runner_host_limited(res, s->threads, r->virt, sysconf(_SC_NPROCESSORS_ONLN));
}

/*
 * Runs one engine job. Returns 0 when it ran to its end, -EINTR when the stop flag cut it short,
 * -EIO (err set) on an I/O error, other -errno on setup failure. res is filled either way and
 * must be released by the caller.
 */
static int run_job(struct runner *r, const struct job_spec *spec, bool armed,
		   struct job_result *res, const char *what)
{
	struct engine_hooks h = {.progress = on_engine_progress, .measure_start = on_measure_start,
				 .arg = r, .stop = r->o.stop};
	char verr[256] = "";
	int rc;

	memset(res, 0, sizeof(*res));
	rc = job_validate(spec, target_info(r->t), verr, sizeof(verr));
	if (rc) {
		fail(r, "%s: %s", what, verr[0] ? verr : strerror(-rc));
		return rc;
	}
	r->fault.armed_cell = armed;
	r->job_t0_ns = target_now(r->t);
	rc = engine_run(r->t, spec, &h, res);
	if (r->fault.armed_cell) { /* the job made no progress call: act right after it instead */
		r->fault.armed_cell = false;
		fault_act(&r->fault);
	}
	r->bytes_written += res->bytes_written_total;
	r->eta.io_bytes += res->bytes_written_total + res->bytes_read_total;
	r->eta.io_ns += res->elapsed_ns + res->ramp_elapsed_ns;
	if (rc) {
		fail(r, "%s: %s", what, res->errmsg[0] ? res->errmsg : strerror(-rc));
		return rc;
	}
	if (res->interrupted || stop_raised(r))
		return -EINTR;
	if (res->error) {
		fail(r, "%s: I/O error at offset %" PRIu64 " length %u: %s%s%s", what,
		     res->err_offset, res->err_len, strerror(-res->error),
		     res->errmsg[0] ? ": " : "", res->errmsg);
		return -EIO;
	}
	return 0;
}

/* Resolves a workload for this target with the run's scale and a step seed. */
static int resolve(struct runner *r, const struct profile_workload *pw, const char *key,
		   struct job_spec *spec)
{
	const struct target_info *ti = target_info(r->t);
	char e[256] = "";
	int rc;

	rc = profile_workload_resolve(pw, work_capacity(r), ti->logical_block_size, r->scale, spec, e,
				      sizeof(e));
	if (rc) {
		fail(r, "%s: %s", key, e[0] ? e : strerror(-rc));
		return rc;
	}
	/* The series interval is a duration of the profile like the others: scaled, so that a
	 * small model gives as many samples per cell as the drive it stands for (1 us at least). */
	spec->interval_ns = scale_ns(r, pw->spec.interval_ns ? pw->spec.interval_ns : 1000000000ull);
	if (spec->interval_ns < 1000)
		spec->interval_ns = 1000;
	/* Both the run seed (--seed, default the profile's) and a workload's own `seed:` count. */
	spec->seed = runner_step_seed(r->o.seed ^ prng_mix64(pw->spec.seed), key);
	return 0;
}

/*
 * One measured job step (precondition, write_until round, cell): decides the mode, runs or
 * skips it, appends the record. *out_rec (optional) gets a reference to the step's record (the
 * K record in REPLAY/RERUN, the new one in RECORD) for decisions that depend on the figures;
 * NULL when a real target skipped a step it could not find figures for (never: K has them).
 */
/* "reads_unmapped": {bytes, of_bytes, fraction} of the job, from the target's running totals
 * taken before it (results-format.md); only for a job that read something. */
static int add_reads_unmapped(struct runner *r, struct json_object *rec, uint64_t unmapped0,
			      uint64_t read0)
{
	uint64_t unmapped = unmapped0, read = read0;
	struct json_object *o;

	if (target_read_unmapped(r->t, &unmapped, &read) || read == read0)
		return 0;
	o = json_object_new_object();
	if (jsonnum_add(rec, "reads_unmapped", o) || !o ||
	    jsonnum_add(o, "bytes", json_object_new_uint64(unmapped - unmapped0)) ||
	    jsonnum_add(o, "of_bytes", json_object_new_uint64(read - read0)) ||
	    jsonnum_add(o, "fraction",
			jsonnum_new((double)(unmapped - unmapped0) / (double)(read - read0))))
		return -ENOMEM;
	return 0;
}

/*
 * The WA guard's counters of a tracked cell (analysis/wa_guard.h): the target's host and NAND
 * byte counters before (g0, NULL when the target gave no snapshot) and after the job, as
 * deltas in the record ("wa_guard_counters": {host_bytes, nand_bytes}, null when the target
 * has no such counters: the guard is then "unavailable"), so that the runner, a resume and
 * analyze judge the same numbers. The after-snapshot is also stored
 * (phase-N-rounds-round-R), for an independent check from the snapshot files. g1 is
 * initialized by the caller and released by it.
 */
static int guard_counters(struct runner *r, const struct where *w, unsigned round,
			  struct json_object *rec, const struct snapshot *g0, struct snapshot *g1)
{
	struct json_object *o = json_object_new_object();
	double host = NAN, nand = NAN;
	bool have = false;
	int rc;

	if (!o)
		return -ENOMEM;
	if (g0 && !target_snapshot(r->t, g1)) {
		have = !wa_deltas(g0, g1, &host, &nand);
		snprintf(g1->label, sizeof(g1->label), "phase-%d-%s-round-%u", w->phase,
			 w->ph->kind->name, round);
		if (!g1->target_ns)
			g1->target_ns = target_now(r->t);
		rc = results_write_snapshot(r->res, g1, w->phase, w->repeat);
		if (rc) {
			json_object_put(o);
			fail(r, "writing snapshot %s: %s", g1->label, strerror(-rc));
			return rc;
		}
	}
	if (jsonnum_add(o, "host_bytes", have ? jsonnum_new(host) : NULL) ||
	    jsonnum_add(o, "nand_bytes", have ? jsonnum_new(nand) : NULL)) {
		json_object_put(o);
		return -ENOMEM;
	}
	/* jsonnum_add owns o from here, also when it fails */
	return jsonnum_add(rec, "wa_guard_counters", o);
}

static int job_step(struct runner *r, const struct where *w, const char *kind, unsigned round,
		    const char *cell, struct job_spec *spec, bool in_rerun, const char *series,
		    struct json_object **out_rec)
{
	char key[KEY_MAX];
	struct json_object *krec = NULL, *rec = NULL;
	enum runner_state mode;
	struct job_result res;
	uint64_t t0, unmapped0 = 0, read0 = 0;
	bool execute, has_unmapped, first = r->phase_unstarted == w;
	bool guard = r->guard_job, have_g0 = false;
	struct snapshot g0, g1;
	int rc;

	r->phase_unstarted = NULL;
	r->guard_job = false;
	rc = step_key(w->phase, w->repeat, round, cell, kind, key, sizeof(key));
	if (rc)
		return rc;
	rc = step_mode(r, w, round, key, in_rerun, &krec, &mode);
	if (rc)
		return rc;
	/* A sim rebuilds its state by executing again; a real device skips outside a re-run. */
	execute = mode == RUNNER_RECORD || mode == RUNNER_RERUN || r->virt;
	if (mode == RUNNER_REPLAY)
		r->replayed++;
	else if (mode == RUNNER_RERUN)
		r->rerun++;
	if (!execute) {
		if (out_rec)
			*out_rec = json_object_get(krec);
		return 0;
	}
	r->eta_job_ns = spec->time_ns;
	progress_step(r, w, round, cell);
	r->eta_job_ns = 0;
	t0 = target_now(r->t);
	/* a variant run again (I7) stores its phases' snapshots anew: its ramp end too */
	r->ramp_mark = first && (mode == RUNNER_RECORD || (mode == RUNNER_RERUN && r->redo)) &&
			       (spec->ramp_ns || spec->ramp_bytes)
			   ? w
			   : NULL;
	r->ramp_mark_rc = 0;
	/* Reads the target answered without its flash (a fresh drive's never-written LBAs):
	 * counted by a target that knows its map, over the whole job. */
	has_unmapped = !target_read_unmapped(r->t, &unmapped0, &read0);
	if (guard && mode == RUNNER_RECORD) {
		snapshot_init(&g0, "none");
		snapshot_init(&g1, "none");
		have_g0 = !target_snapshot(r->t, &g0);
	}
	rc = run_job(r, spec, mode == RUNNER_RECORD && fault_hit(&r->fault, FAULT_CELL),
		     &res, key);
	r->ramp_mark = NULL;
	if (!rc)
		rc = r->ramp_mark_rc;
	if (rc)
		goto out;
	if (mode != RUNNER_RECORD) {
		/* A virtual SSD replays exactly; if it does not, the model or ssdlab changed since
		 * the run, and what follows is not comparable with what was recorded. The virtual
		 * clock at both ends of the step pins the whole timeline before it. A variant run
		 * again (I7) is no replay: its clock went on from the interruption. */
		if (r->virt && !r->diverged && !r->redo &&
		    (rec_get_u64(krec, "start_ns") != t0 ||
		     rec_get_u64(krec, "end_ns") != target_now(r->t) ||
		     rec_get_u64(krec, "bytes_written_total") != res.bytes_written_total)) {
			r->diverged = true;
			note(r, "warning: the replay of %s differs from its record: the virtual SSD "
				"model or ssdlab changed since the run; the figures after the resume "
				"are not comparable with those before",
			     key);
		}
		if (out_rec)
			*out_rec = json_object_get(krec);
		goto out;
	}
	rec = step_record(r, w, kind, round, cell, t0, target_now(r->t), &res,
			  host_limited(r, spec, &res) ? RESULTS_F_HOST_LIMITED : 0);
	if (!rec || jsonnum_add(rec, "seed", json_object_new_uint64(spec->seed)) ||
	    jsonnum_add(rec, "time_scale", jsonnum_new(r->scale)) || add_overrun(rec, spec, &res) ||
	    (has_unmapped && add_reads_unmapped(r, rec, unmapped0, read0))) {
		rc = -ENOMEM;
		goto out;
	}
	if (r->prewrite_bytes &&
	    jsonnum_add(rec, "pre_write_bytes", json_object_new_uint64(r->prewrite_bytes))) {
		rc = -ENOMEM;
		goto out;
	}
	if (guard) {
		rc = guard_counters(r, w, round, rec, have_g0 ? &g0 : NULL, &g1);
		if (rc)
			goto out;
	}
	if (r->rec_extra) {
		json_object_object_foreach(r->rec_extra, ek, ev)
		{
			if (jsonnum_add(rec, ek, json_object_get(ev))) {
				rc = -ENOMEM;
				goto out;
			}
		}
	}
	if (series && res.nseries) {
		rc = results_append_series(r->res, series, round, res.series, res.nseries,
					   r->series_off_ns, r->series_off_bytes);
		if (rc) {
			fail(r, "writing series %s: %s", series, strerror(-rc));
			goto out;
		}
	}
	rc = append_step(r, rec, key);
	if (!rc && out_rec)
		*out_rec = json_object_get(rec);
out:
	/* Whether recorded now or already in K (a replay), the pre-writes before this step
	 * belong to it and not to the next one. */
	r->prewrite_bytes = 0;
	if (guard && mode == RUNNER_RECORD) {
		snapshot_release(&g0);
		snapshot_release(&g1);
	}
	json_object_put(rec);
	job_result_release(&res);
	return rc;
}

/* A step without I/O (purge, trim, idle): mode, then `act` when it must execute. */
typedef int (*act_fn)(struct runner *r, const struct where *w, struct json_object *rec);

static int plain_step(struct runner *r, const struct where *w, const char *kind, act_fn act)
{
	char key[KEY_MAX];
	struct json_object *krec = NULL, *rec = NULL;
	enum runner_state mode;
	uint64_t t0;
	int rc;

	rc = step_key(w->phase, w->repeat, 0, "", kind, key, sizeof(key));
	if (rc)
		return rc;
	rc = step_mode(r, w, 0, key, false, &krec, &mode);
	if (rc)
		return rc;
	if (mode == RUNNER_RERUN) {
		r->rerun++; /* a variant run again (I7): its purge, trim or idle too */
		return act(r, w, NULL);
	}
	if (mode != RUNNER_RECORD) {
		r->replayed++;
		return r->virt ? act(r, w, NULL) : 0;
	}
	progress_step(r, w, 0, NULL);
	t0 = target_now(r->t);
	rec = step_record(r, w, kind, 0, "", t0, t0, NULL, 0);
	if (!rec)
		return -ENOMEM;
	rc = act(r, w, rec);
	if (!rc) {
		json_object_object_del(rec, "end_ns");
		rc = jsonnum_add(rec, "end_ns", json_object_new_uint64(target_now(r->t)));
	}
	if (!rc)
		rc = append_step(r, rec, key);
	json_object_put(rec);
	return rc;
}

/* ---- phase kinds ------------------------------------------------------------------------ */

/* Idles ns of target time; a real device in slices, so that a stop is seen within one.
 * 0, -EINTR when stopped, or -errno. */
static int idle_for(struct runner *r, uint64_t left)
{
	int rc = 0;

	while (left && !rc) {
		uint64_t slice = r->virt || left < IDLE_SLICE_NS ? left : IDLE_SLICE_NS;

		if (stop_raised(r))
			return -EINTR;
		rc = target_idle(r->t, slice);
		left -= slice;
	}
	return rc == -EINTR || stop_raised(r) ? -EINTR : rc;
}

/* A purge that will only discard (no real purge on the target, or method discard). */
static bool purge_discards(const struct target *t, const struct phase_purge *pp)
{
	return pp->method == PURGE_DISCARD || !(target_caps(t) & TARGET_CAP_PURGE);
}

/*
 * A real purge where the target has one, else a full-device discard (what blkdiscard does),
 * which is not a SNIA PTS purge: the record says so (pts_purge), and a settle idle follows,
 * since drives carry out a large TRIM in the background after the command has returned.
 */
/*
 * A real drive's purge commands (targets/purge_chain.h): the profile's method, or auto's walk
 * over the drive's chain. The record says which ran, whether it is a PTS purge (a discard that
 * stood in is not, and gets its settle), and why auto skipped the earlier methods.
 */
static int act_drive_purge(struct runner *r, const struct phase_purge *pp, struct json_object *rec)
{
	const struct target_info *ti = target_info(r->t);
	const char *want = phase_purge_method_name(pp->method);
	struct purge_outcome po;
	char err[1024] = "";
	uint64_t settle;
	int rc;

	/* the journal, for what a purge sets first (an ATA security erase's password) */
	const struct devchange_ctx *change =
	    r->o.settings ? drive_settings_change_ctx(r->o.settings, err, sizeof err) : NULL;

	rc = target_purge_method(r->t, want, change, &po, err, sizeof err);
	if (po.skipped[0])
		note(r, "purge (%s): skipped %s", want, po.skipped);
	if (rc) {
		fail(r, "purge of %s failed (%s): %s", ti->path, po.method[0] ? po.method : want,
		     err);
		return rc;
	}
	settle = po.pts_purge ? 0 : scale_ns(r, pp->settle_ns);
	rc = idle_for(r, settle);
	if (rc) {
		if (rc != -EINTR)
			fail(r, "purge: the settle idle: %s", strerror(-rc));
		return rc;
	}
	if (rec &&
	    (jsonnum_add(rec, "method", json_object_new_string(po.method)) ||
	     jsonnum_add(rec, "pts_purge", json_object_new_boolean(po.pts_purge)) ||
	     jsonnum_add(rec, "settle_ns", json_object_new_uint64(settle)) ||
	     jsonnum_add(rec, "all_namespaces", json_object_new_boolean(po.all_namespaces)) ||
	     jsonnum_add(rec, "discard_after", json_object_new_boolean(po.discard_after)) ||
	     jsonnum_add(rec, "skipped",
			 po.skipped[0] ? json_object_new_string(po.skipped) : NULL)))
		return -ENOMEM;
	return 0;
}

static int act_purge(struct runner *r, const struct where *w, struct json_object *rec)
{
	const struct phase_purge *pp = w->ph->data;
	const struct target_info *ti = target_info(r->t);
	bool discard = purge_discards(r->t, pp);
	uint64_t settle = scale_ns(r, runner_purge_settle_ns(r->t, pp));
	char method[64] = "";
	int rc;

	if (pp->method >= PURGE_FIRST_DRIVE_METHOD ||
	    (pp->method == PURGE_AUTO && (target_caps(r->t) & TARGET_CAP_DRIVE_PURGE)))
		return act_drive_purge(r, pp, rec);

	if (discard)
		snprintf(method, sizeof(method), "discard");
	if (pp->method == PURGE_SIM && ti->kind != TARGET_KIND_SIM) {
		fail(r, "purge method 'sim' needs a virtual SSD target, not %s", ti->path);
		return -EOPNOTSUPP;
	}
	rc = discard ? target_discard(r->t, 0, ti->capacity)
		     : target_purge(r->t, method, sizeof(method));
	if (rc) {
		fail(r, "purge of %s failed (%s): %s", ti->path, method[0] ? method : "no method",
		     strerror(-rc));
		return rc;
	}
	rc = idle_for(r, settle);
	if (rc) {
		if (rc != -EINTR)
			fail(r, "purge: the settle idle: %s", strerror(-rc));
		return rc;
	}
	if (rec && (jsonnum_add(rec, "method", json_object_new_string(method)) ||
		    jsonnum_add(rec, "pts_purge", json_object_new_boolean(!discard)) ||
		    jsonnum_add(rec, "settle_ns", json_object_new_uint64(settle))))
		return -ENOMEM;
	return 0;
}

static int act_trim(struct runner *r, const struct where *w, struct json_object *rec)
{
	const struct phase_trim *pt = w->ph->data;
	const struct target_info *ti = target_info(r->t);
	uint64_t start, end;
	int rc;

	rc = range_resolve(&pt->range, work_capacity(r), ti->logical_block_size, &start, &end);
	if (rc) {
		fail(r, "trim: range does not fit the capacity of %s", ti->path);
		return rc;
	}
	rc = target_discard(r->t, start, end - start);
	if (rc == -EOPNOTSUPP) {
		/* DESIGN.md: a target that cannot do something says so and the runner records it. */
		note(r, "trim: %s does not support discard; recorded as unsupported", ti->path);
		return rec ? jsonnum_add(rec, "unsupported", json_object_new_string(
						"discard not supported by the target"))
			   : 0;
	}
	if (rc) {
		fail(r, "trim of %s failed: %s", ti->path, strerror(-rc));
		return rc;
	}
	if (rec && (jsonnum_add(rec, "offset", json_object_new_uint64(start)) ||
		    jsonnum_add(rec, "bytes", json_object_new_uint64(end - start))))
		return -ENOMEM;
	return 0;
}

static int act_idle(struct runner *r, const struct where *w, struct json_object *rec)
{
	const struct phase_idle *pi = w->ph->data;
	int rc = idle_for(r, scale_ns(r, pi->time_ns));

	if (rc == -EINTR)
		return -EINTR;
	if (rc) {
		fail(r, "idle: %s", strerror(-rc));
		return rc;
	}
	return rec ? jsonnum_add(rec, "idle_ns", json_object_new_uint64(scale_ns(r, pi->time_ns)))
		   : 0;
}

static int exec_purge(struct runner *r, const struct where *w)
{
	return plain_step(r, w, "purge", act_purge);
}

static int exec_trim(struct runner *r, const struct where *w)
{
	return plain_step(r, w, "trim", act_trim);
}

/*
 * trim_check (targets/trimcheck.h): one step whose record carries the result. A target that
 * keeps no data (the virtual SSD) has nothing to verify: the record says so. A discard the
 * device rejects is a result, not a failure; a corrupted neighbour is a result too (the
 * analysis flags it), so the run goes on to its other phases.
 */
#define MIB_ (1024ull * 1024)

/* trim_check's `fresh` part (run/trim_fresh.h) after the check's region (from; 0 where no check
 * ran), its result as the record's "fresh" (rec NULL: a replay, not recorded). 0 when not asked
 * for. */
static int trim_check_fresh(struct runner *r, const struct where *w, uint64_t from,
			    struct json_object *rec)
{
	const struct phase_trim_check *pc = w->ph->data;
	uint64_t cap = work_capacity(r), off = (from + MIB_ - 1) / MIB_ * MIB_, len;
	struct trim_fresh f;
	char err[320], a[32];
	int rc;

	if (pc->fresh.kind == AMOUNT_NONE)
		return 0;
	len = amount_bytes(&pc->fresh, cap);
	if (off < cap && len > cap - off) /* "1x" means what is left after the check's region */
		len = cap - off;
	len -= len % MIB_;
	if (off >= cap || !len) {
		fail(r, "trim_check: fresh %s leaves no whole MiB after the check's region",
		     phase_amount_text(&pc->fresh, a, sizeof(a)));
		return -EINVAL;
	}
	rc = trim_fresh_run(r->t, off, len, scale_ns(r, pc->fresh_time_ns),
			    r->o.seed ^ prng_mix64((uint64_t)w->phase + 0x66726573ull), r->o.stop,
			    &f, err, sizeof(err));
	r->bytes_written += f.before.bytes + f.after.bytes;
	if (rc == -EINTR)
		return rc;
	if (rc) {
		fail(r, "trim_check: %s", err);
		return rc;
	}
	return rec ? jsonnum_add(rec, "fresh", trim_fresh_to_json(&f)) : 0;
}

static int act_trim_check(struct runner *r, const struct where *w, struct json_object *rec)
{
	const struct phase_trim_check *pc = w->ph->data;
	const struct target_info *ti = target_info(r->t);
	struct trimcheck_opts o = {.seed = r->o.seed ^ prng_mix64(w->phase),
				   .latency_samples = pc->latency_samples};
	struct trimcheck_result res;
	char err[256];
	int rc;

	/* a resume's replay (only on the virtual SSD): the check changed nothing a later phase
	 * relies on, but the fresh part wrote and discarded; the same again gives the same state
	 * (the sim is deterministic, and there the check's region is empty: from 0) */
	if (!rec)
		return trim_check_fresh(r, w, 0, NULL);
	if (!(target_caps(r->t) & TARGET_CAP_NEEDS_DATA)) {
		note(r, "trim_check: %s keeps no data; nothing to verify", ti->path);
		rc = jsonnum_add(rec, "unsupported",
				 json_object_new_string("the target keeps no data to verify"));
		/* the fresh part needs no data kept: the virtual SSD knows discard */
		return rc ? rc : trim_check_fresh(r, w, 0, rec);
	}
	rc = trimcheck_run(r->t, &o, &res, err, sizeof(err));
	if (rc) {
		fail(r, "%s", err);
		return rc;
	}
	if (!res.supported)
		note(r, "trim_check: %s: %s", ti->path, res.reason);
	if (res.neighbours_bad)
		note(r, "trim_check: %s: %" PRIu64 " untrimmed blocks beside the discards changed",
		     ti->path, res.neighbours_bad);
	rc = jsonnum_add(rec, "trim_check", trimcheck_to_json(&res));
	/* the fresh part's discard would only be refused alike: said once, not a failed run */
	if (!rc && !res.supported && pc->fresh.kind != AMOUNT_NONE) {
		note(r, "trim_check: fresh part skipped: the device took no discard");
		return 0;
	}
	return rc ? rc : trim_check_fresh(r, w, res.region, rec);
}

static int exec_trim_check(struct runner *r, const struct where *w)
{
	return plain_step(r, w, "trim_check", act_trim_check);
}

static int exec_idle(struct runner *r, const struct where *w)
{
	return plain_step(r, w, "idle", act_idle);
}

/* One file per phase and repeat, its chunks appended in round order; numbers zero-padded so
 * that the files sort in the order of the run. */
static void series_name(const struct where *w, const char *kind, char *buf, size_t len)
{
	snprintf(buf, len, "phase-%02d-rep-%02u-%s", w->phase, w->repeat, kind);
}

struct surface_where {
	struct runner *r;
	const struct where *w;
};

/* After each chunk of a scan: the progress line says "chunk i/n" (a scan of a large disk
 * takes hours, one step the runner cannot otherwise see into). */
static void surface_chunk_done(size_t done, size_t n, void *arg)
{
	struct surface_where *sw = arg;

	sw->r->in_chunks = true;
	sw->r->nchunks = (unsigned)n;
	sw->r->nchunks_at_most = false;
	progress_step(sw->r, sw->w, (unsigned)done, NULL);
	sw->r->in_chunks = false;
}

/* A surface scan (run/surface_step.h); its series is named as the write phases' are. */
static int act_surface(struct runner *r, const struct where *w, struct json_object *rec)
{
	const struct phase_surface *ps = w->ph->data;
	struct surface_where sw = {r, w};
	char series[128], err[512] = "";
	int rc;

	series_name(w, "surface", series, sizeof(series));
	rc = surface_step_run(r->t, ps, r->res, series, rec, r->o.stop, surface_chunk_done, &sw,
			      err, sizeof(err));
	if (rc == -EINTR)
		return rc; /* not recorded: a resume scans again from the start */
	if (rc) {
		fail(r, "%s", err);
		return rc;
	}
	if (ps->write)
		r->bytes_written += target_info(r->t)->capacity;
	return 0;
}

static int exec_surface(struct runner *r, const struct where *w)
{
	return plain_step(r, w, "surface", act_surface);
}

/*
 * precondition's `method: sprandom` (docs/sprandom.md): resolves its inputs on this target
 * (the visible capacity: a variant's added spare counts), turns the spec into the sprandom
 * fill (one sequence, seeded by the phase's step seed so that every chunk continues the same
 * one) and sets *total_bytes to the fill's length; *extra gets the inputs for each chunk's
 * record (owned by the caller, exec_write). A target on which they do not resolve fails the
 * run with what to set.
 */
static int sprandom_setup(struct runner *r, const struct phase_write *pw, const char *key,
			  struct job_spec *spec, uint64_t *total_bytes, struct json_object **extra)
{
	struct phase_nand nand = runner_target_nand(target_info(r->t), r->p);
	struct sprandom_inputs in;
	struct json_object *x;
	char e[400] = "";
	int rc;

	rc = phase_sprandom_resolve(&pw->spr, spec->bs[0].bs, spec->range_end - spec->range_start,
				    &nand, &in, e, sizeof(e));
	if (rc) {
		fail(r, "%s: %s", key, e);
		return rc;
	}
	spec->sprandom.on = true;
	spec->sprandom.alpha = in.alpha;
	r->spr_alpha = in.alpha;
	r->spr_start = spec->range_start;
	r->spr_end = spec->range_end;
	spec->sprandom.regions = in.regions;
	spec->sprandom.seed = spec->seed;
	*total_bytes = in.bytes;
	x = json_object_new_object();
	if (!x || jsonnum_add(x, "sprandom", phase_sprandom_inputs_json(&in))) {
		json_object_put(x);
		return -ENOMEM;
	}
	*extra = x;
	return 0;
}

/*
 * precondition and write_until, in chunks, each a step of its own (round = chunk number), so a
 * crash loses at most the chunk in flight and the walk goes on from the chunks found in K: a
 * sequential workload at the last chunk's seq_next, the bytes or the time left. A chunk is
 *   write_until with round_time   round_time of target time (WSAT: one record per round)
 *   an amount of time             RUNNER_CHUNK_NS (opts.chunk_ns), scaled like every duration
 *   an amount of bytes            runner_chunk_bytes() (deterministic: the same on any device)
 * and ends earlier when the amount or max_time is reached. Its series rows are offset by the
 * chunks before it (t_ns, total_bytes_written) and appended to the phase's one series file, so
 * that it is one continuous series.
 *
 * A phase with neither a byte nor a time amount (one pass over the range) is one step (round
 * 0), and so is a phase that an older version recorded as one step, found in K by a resume.
 * A sprandom precondition (sprandom_setup) is a byte amount whose chunks continue one sequence
 * at the last chunk's seq_next, its position in the sequence.
 */
static int exec_write_chunks(struct runner *r, const struct where *w, struct json_object **extra)
{
	const struct phase_write *pw = w->ph->data;
	const char *kind = w->ph->kind->type == PHASE_PRECONDITION ? "precondition" : "write_until";
	uint64_t total_bytes, total_ns, max_ns, done_bytes = 0, done_ns = 0, done_elapsed = 0;
	uint64_t seq_next = 0, chunk_ns = 0, cbytes = 0;
	char key[KEY_MAX], series[128];
	bool has_stop = w->ph->kind->type == PHASE_WRITE_UNTIL && pw->has_stop;
	struct runner_stop stop;
	struct job_spec spec;
	int rc;

	rc = step_key(w->phase, w->repeat, 0, "", kind, key, sizeof(key));
	if (rc)
		return rc;
	rc = resolve(r, &pw->w, key, &spec);
	if (rc)
		return rc;
	total_bytes = amount_bytes(&pw->w.length, work_capacity(r));
	if (pw->spr.on) {
		rc = sprandom_setup(r, pw, key, &spec, &total_bytes, extra);
		if (rc)
			return rc;
		r->rec_extra = *extra;
	}
	total_ns = pw->w.length.kind == AMOUNT_TIME ? scale_ns(r, pw->w.length.ns) : 0;
	max_ns = pw->max_time_ns ? scale_ns(r, pw->max_time_ns) : 0;
	if (w->ph->kind->type == PHASE_WRITE_UNTIL && pw->round_time_ns)
		chunk_ns = scale_ns(r, pw->round_time_ns);
	else if (total_ns)
		chunk_ns = scale_ns(r, r->o.chunk_ns ? r->o.chunk_ns : RUNNER_CHUNK_NS);
	else
		cbytes = runner_chunk_bytes(r->t, &r->o);
	if (has_stop) {
		uint64_t fb = amount_bytes(&pw->stop_for, work_capacity(r));

		runner_stop_init(&stop, pw->stop_below_peak, fb);
		if (cbytes)
			cbytes = runner_stop_chunk(fb, cbytes);
	}
	/* For the progress line's "chunk 3/29" (a write_until may stop earlier on max_time). A
	 * WSAT-style write_until (round_time, until an amount or max_time) has at most
	 * max_time / round_time chunks: "chunk 1062 of at most 1440". */
	r->nchunks = cbytes && total_bytes ? (unsigned)((total_bytes + cbytes - 1) / cbytes)
		     : chunk_ns && total_ns && !(w->ph->kind->type == PHASE_WRITE_UNTIL &&
						  pw->round_time_ns)
			     ? (unsigned)(((max_ns && max_ns < total_ns ? max_ns : total_ns) +
					   chunk_ns - 1) / chunk_ns)
			     : 0;
	r->nchunks_at_most = has_stop;
	if (!r->nchunks && chunk_ns && max_ns) {
		r->nchunks = (unsigned)((max_ns + chunk_ns - 1) / chunk_ns);
		r->nchunks_at_most = true;
	}
	if ((!total_bytes && !total_ns) || replay_peek(&r->k, key)) {
		if (pw->max_time_ns && !spec.time_ns)
			spec.time_ns = max_ns;
		series_name(w, kind, series, sizeof(series));
		return job_step(r, w, kind, 0, "", &spec, false, series, NULL);
	}
	for (unsigned round = 1;; round++) {
		struct json_object *rec = NULL;
		struct job_spec s = spec;
		uint64_t left_ns = UINT64_MAX, b, e;

		if ((total_bytes && done_bytes >= total_bytes) || (total_ns && done_ns >= total_ns) ||
		    (max_ns && done_ns >= max_ns))
			break;
		if (total_ns)
			left_ns = total_ns - done_ns;
		if (max_ns && max_ns - done_ns < left_ns)
			left_ns = max_ns - done_ns;
		/* The engine ends a job at whichever comes first, time or amount (0 = no limit). */
		s.time_ns = chunk_ns && chunk_ns < left_ns ? chunk_ns
			    : left_ns != UINT64_MAX	   ? left_ns
						   : 0;
		s.amount_bytes = total_bytes ? total_bytes - done_bytes : 0;
		if (cbytes && s.amount_bytes > cbytes)
			s.amount_bytes = cbytes;
		s.ramp_ns = s.ramp_bytes = 0;
		if (round == 1) {
			s.ramp_ns = spec.ramp_ns;
			s.ramp_bytes = spec.ramp_bytes;
		}
		s.seq_start = seq_next;
		rc = step_key(w->phase, w->repeat, round, "", kind, key, sizeof(key));
		if (rc)
			return rc;
		s.seed = runner_step_seed(spec.seed, key);
		series_name(w, kind, series, sizeof(series));
		r->series_off_ns = done_elapsed;
		r->series_off_bytes = done_bytes;
		r->eta.left_bytes = total_bytes ? total_bytes - done_bytes : 0;
		r->eta.left_ns = left_ns != UINT64_MAX ? left_ns : 0;
		r->eta.done_bytes = done_bytes;
		r->eta.done_ns = done_ns;
		r->in_chunks = true;
		rc = job_step(r, w, kind, round, "", &s, false, series, &rec);
		r->in_chunks = false;
		r->series_off_ns = r->series_off_bytes = 0;
		r->eta.left_bytes = r->eta.left_ns = r->eta.done_bytes = r->eta.done_ns = 0;
		if (rc)
			return rc;
		if (!rec)
			break; /* nothing to go on (cannot happen: K records carry figures) */
		b = rec_get_u64(rec, "bytes_written_total");
		e = rec_get_u64(rec, "elapsed_ns");
		done_bytes += b;
		done_elapsed += e;
		done_ns += e + rec_get_u64(rec, "ramp_ns");
		seq_next = rec_get_u64(rec, "seq_next");
		json_object_put(rec);
		if (!b && !e)
			break; /* a chunk that did nothing would loop forever */
		if (has_stop && runner_stop_update(&stop, b, e))
			break; /* the rule is met: slow for long enough */
	}
	return 0;
}

static int exec_write(struct runner *r, const struct where *w)
{
	struct json_object *extra = NULL; /* a sprandom fill's inputs, lent to r->rec_extra */
	int rc = exec_write_chunks(r, w, &extra);

	if (extra) {
		r->rec_extra = NULL;
		json_object_put(extra);
	}
	return rc;
}

/*
 * bursts (profile/phases.h): count x [the wait, then a burst job], one "burst" record per burst
 * (round i = burst i) with the wait before it: as written, as scaled, as applied (raised to the
 * target's floor, twice a virtual SSD's idle-GC delay) and why it was raised. The wait belongs
 * to its burst's step: it is idled whenever the burst executes (recorded, re-run, or replayed on
 * the virtual SSD, whose state it rebuilds), and skipped with it on a real drive's replay.
 */
static int exec_bursts(struct runner *r, const struct where *w)
{
	const struct phase_bursts *pb = w->ph->data;
	struct phase_env env = {.scale = r->scale,
				.wait_floor_ns = 2 * target_info(r->t)->idle_gc_delay_ns};
	struct json_object *extra = json_object_new_object();
	char key[KEY_MAX], floor_why[160] = "";
	struct job_spec spec;
	bool floored;
	uint64_t wait = phase_bursts_wait_ns(pb, &env, &floored);
	int rc = -ENOMEM;

	if (!extra)
		return -ENOMEM;
	if (floored)
		snprintf(floor_why, sizeof floor_why,
			 "the scaled wait is below twice the virtual SSD's idle-GC delay (%" PRIu64
			 " ns): no recovery could show below it",
			 env.wait_floor_ns / 2);
	if (jsonnum_add(extra, "wait_ns", json_object_new_uint64(wait)) ||
	    jsonnum_add(extra, "wait_profile_ns", json_object_new_uint64(pb->wait_ns)) ||
	    jsonnum_add(extra, "wait_scaled_ns",
			json_object_new_uint64(scale_ns(r, pb->wait_ns))) ||
	    jsonnum_add(extra, "wait_floor_reason",
			floored ? json_object_new_string(floor_why) : NULL))
		goto out;
	rc = step_key(w->phase, w->repeat, 0, "", "burst", key, sizeof(key));
	if (!rc)
		rc = resolve(r, &pb->w, key, &spec);
	r->nchunks = pb->count;
	r->nchunks_at_most = false;
	for (unsigned i = 1; !rc && i <= pb->count; i++) {
		struct job_spec s = spec;

		rc = step_key(w->phase, w->repeat, i, "", "burst", key, sizeof(key));
		if (rc)
			break;
		s.seed = runner_step_seed(spec.seed, key);
		if (!replay_peek(&r->k, key) || r->virt || r->redo) {
			rc = idle_for(r, wait);
			if (rc) {
				if (rc != -EINTR)
					fail(r, "bursts: the wait: %s", strerror(-rc));
				break;
			}
		}
		r->rec_extra = extra;
		r->in_chunks = true;
		rc = job_step(r, w, "burst", i, "", &s, false, NULL, NULL);
		r->in_chunks = false;
		r->rec_extra = NULL;
	}
out:
	json_object_put(extra);
	return rc;
}

/* How much of this round K already holds: 0, some (interrupted) or all cells. */
static size_t round_in_k(struct runner *r, const struct where *w, unsigned round,
			 const struct profile_cell *cells, size_t ncells)
{
	size_t pos, n = 0;
	char key[KEY_MAX];

	replay_skip_resume(&r->k);
	pos = r->k.pos;
	for (size_t i = 0; i < ncells; i++) {
		while (pos < r->k.n && replay_is_resume(r->k.rec[pos]))
			pos++;
		if (pos >= r->k.n || step_key(w->phase, w->repeat, round, cells[i].key, "cell", key,
					     sizeof(key)) ||
		    strcmp(key, r->k.key[pos]))
			break;
		pos++;
		n++;
	}
	return n;
}

/* A cell that measured no I/O has no figures to judge steady state by: the run stops there,
 * naming the cell and why (on a resume too: its record is kept, flagged no_io). */
static int check_no_io(struct runner *r, const char *key, struct json_object *rec)
{
	struct json_object *why;

	if (!rec || !json_object_object_get_ex(rec, "no_io_reason", &why))
		return 0;
	fail(r, "%s: %s (a rounds phase needs a figure from every cell)", key,
	     json_object_get_string(why));
	return -EIO;
}

/*
 * After round 1 (issue 9, point 2): a cell whose planned time is below one drain of its queue
 * (runner_drain_ns) measures the drain, not the workload: the run is refused, naming the
 * smallest --time-scale that gives every cell of round 1 one drain (with headroom); below
 * DRAIN_WARN_FACTOR drains it is warned about. ratio = drain / planned of the worst cell.
 */
static int drain_check(struct runner *r, const struct where *w, const char *cell, double ratio,
		       uint64_t drain, uint64_t planned, unsigned outstanding)
{
	char d[32], pl[32];
	double s1 = runner_scale_for(r->o.time_scale, ratio);
	double s10 = runner_scale_for(r->o.time_scale, ratio * DRAIN_WARN_FACTOR);

	units_fmt_duration(drain, d, sizeof(d));
	units_fmt_duration(planned, pl, sizeof(pl));
	if (ratio > 1) {
		fail(r, "refused: phase %d, cell %s: its planned %s are shorter than draining its %u "
			"in-flight I/Os (%s in round 1), so its figures would measure the drain; "
			"run with --time-scale %g or more (%g or more for %g drains per cell)",
		     w->phase, cell, pl, outstanding, d, s1, s10, DRAIN_WARN_FACTOR);
		return -EDOM;
	}
	note(r, "warning: phase %d, cell %s: its planned %s are less than %g drains of its %u "
		"in-flight I/Os (%s in round 1): the drain inflates it; --time-scale %g or more avoids "
		"this",
	     w->phase, cell, pl, DRAIN_WARN_FACTOR, outstanding, d, s10);
	return 0;
}

/*
 * A cell the target cannot run (profile_workload_not_applicable: 0.5 KiB on a 4Kn device; issue
 * 15, point 1): its record of zero I/O with the reason (run_record_not_applicable), and the walk
 * goes on to the next cell. On a resume K's record stands: there is nothing to execute, on a
 * virtual SSD either, so the replayed state is the same.
 */
static int na_step(struct runner *r, const struct where *w, unsigned round, const char *cell,
		   const char *why, bool in_rerun)
{
	char key[KEY_MAX];
	struct json_object *krec = NULL, *rec;
	enum runner_state mode;
	uint64_t t;
	int rc;

	rc = step_key(w->phase, w->repeat, round, cell, "cell", key, sizeof(key));
	if (!rc)
		rc = step_mode(r, w, round, key, in_rerun, &krec, &mode);
	if (rc)
		return rc;
	if (mode != RUNNER_RECORD) {
		if (mode == RUNNER_REPLAY)
			r->replayed++;
		else
			r->rerun++;
		return 0;
	}
	t = target_now(r->t);
	rec = run_record_not_applicable(
	    &(struct results_record){.kind = "cell", .phase = w->phase,
				     .phase_kind = w->ph->kind->name, .repeat = w->repeat,
				     .round = round, .cell = cell, .start_ns = t, .end_ns = t},
	    why);
	if (!rec)
		return -ENOMEM;
	rc = append_step(r, rec, key);
	json_object_put(rec);
	return rc;
}

/* The bytes the early guard asks for since the purge (docs/early-verdict.md): the profile's
 * stated `written`, else the target's physical capacity + SLC cache, else twice the user
 * capacity (what the SNIA preconditioning writes). */
uint64_t runner_early_guard_bytes(const struct phase_rounds *pr, const struct target_info *ti)
{
	if (pr->early_written)
		return pr->early_written;
	if (ti->nand_bytes)
		return ti->nand_bytes + ti->slc_cache_bytes;
	return 2 * ti->capacity;
}

static void guard_note(struct runner *r, const struct where *w, unsigned round, const char *what,
		       const struct wa_guard_round *g);
static bool guard_workload(const struct runner *r, const struct job_spec *s);

/*
 * The early verdict after a round the SNIA rule did not stop (analysis/ss_early.h): allowed
 * once the guard holds, it stops the rounds on "predicted" unless --strict-pts. It uses only
 * recorded values (the tracked figures and the records' bytes), so a resume decides the same.
 */
static int early_decide(struct runner *r, const struct where *w, const struct phase_rounds *pr,
			const double *track, unsigned round, const struct wa_guard_round *g,
			bool *stop)
{
	struct ss_early_result e;
	int rc;

	if (r->written_since_purge < runner_early_guard_bytes(pr, target_info(r->t)))
		return 0;
	rc = ss_early_check(track, round, 1, &pr->ss, &pr->early, &e);
	if (rc) {
		fail(r, "early steady-state check failed: %s", strerror(-rc));
		return rc;
	}
	if (!e.predicted)
		return 0;
	if (r->o.strict_pts) {
		if (r->state == RUNNER_RECORD && !r->early_noted) {
			note(r, "phase %d: steady state predicted at round %u (confidence %g); "
				"--strict-pts: going on to the SNIA window",
			     w->phase, round, pr->early.confidence);
			r->early_noted = true;
		}
		return 0;
	}
	if (g && g->state == WA_GUARD_SHORT) {
		guard_note(r, w, round, "steady state predicted", g);
		return 0;
	}
	if (r->state == RUNNER_RECORD)
		note(r, "phase %d: steady state predicted at round %u (confidence %g), SNIA window "
			"not completed",
		     w->phase, round, pr->early.confidence);
	*stop = true;
	return 0;
}

/*
 * Whether the guard's expectation applies to a tracked cell's workload: the steady state the
 * fill lays out is that of uniform random writes over the fill's whole range (docs/sprandom.md),
 * so reads, a zoned distribution, PTS-C's ActiveRange segments, compressible data or another
 * range have another WA (snia-iops-client-fast's 75 % ActiveRange ran at a WA 64 % below it).
 * Elsewhere the guard is off and its record key absent.
 */
static bool guard_workload(const struct runner *r, const struct job_spec *s)
{
	bool writes = s->rw == RW_RANDWRITE || (s->rw == RW_RANDRW && s->rwmix_read == 0);

	return writes && s->dist == DIST_UNIFORM && !s->segments && s->pattern == PATTERN_RANDOM &&
	       !s->compressibility && s->range_start == r->spr_start && s->range_end == r->spr_end;
}

/*
 * The WA guard of a round (analysis/wa_guard.h) from its tracked cell's record: the counter
 * deltas the record carries (K's in a replay, so a resume judges the same), against
 * 1 / (1 - alpha) of the sprandom fill.
 */
static void guard_judge(struct runner *r, struct json_object *rec, struct wa_guard_round *g)
{
	struct json_object *o;
	double host = NAN, nand = NAN;

	if (rec && json_object_object_get_ex(rec, "wa_guard_counters", &o) && o) {
		struct json_object *h, *n;

		if (json_object_object_get_ex(o, "host_bytes", &h) && h &&
		    json_object_object_get_ex(o, "nand_bytes", &n) && n) {
			host = json_object_get_double(h);
			nand = json_object_get_double(n);
		}
	}
	(void)wa_guard_check(host > 0 ? nand / host : NAN, wa_guard_expected(r->spr_alpha),
			     WA_GUARD_DEFAULT_TOLERANCE, g);
}

/* The note when the guard refuses a verdict (in the record state: a replay says nothing). */
static void guard_note(struct runner *r, const struct where *w, unsigned round, const char *what,
		       const struct wa_guard_round *g)
{
	if (r->state != RUNNER_RECORD)
		return;
	note(r, "phase %d: %s at round %u, but the WA guard says short (WA %.2f, %.1f %% below "
		"the steady state's %.2f): going on",
	     w->phase, what, round, g->wa, 100 * g->shortfall, g->expected);
}

static int exec_rounds(struct runner *r, const struct where *w)
{
	const struct phase_rounds *pr = w->ph->data;
	struct profile_cell *cells = NULL;
	double *track = NULL;
	uint64_t *drains = NULL; /* each cell's drain in round 1, for the ETA of later rounds */
	bool *na = NULL;	 /* cells the target cannot run (na_step) */
	char why[128];
	size_t ncells = 0, worst_cell = 0;
	unsigned max_rounds, worst_out = 0;
	uint64_t cell_ns, worst_drain = 0, worst_planned = 0;
	double worst = 0;
	/* the WA guard: on after a sprandom fill since the last purge, for a tracked series */
	bool guard_on = pr->has_steady_state && isfinite(r->spr_alpha);
	struct wa_guard_round gstate = {.state = WA_GUARD_UNAVAILABLE};
	int rc;

	rc = profile_rounds_cells(pr, &cells, &ncells);
	if (rc) {
		fail(r, "rounds: expanding the matrix: %s", strerror(-rc));
		return rc;
	}
	max_rounds = pr->has_steady_state ? pr->ss.max_rounds : pr->count;
	track = calloc(max_rounds ? max_rounds : 1, sizeof(*track));
	drains = calloc(ncells ? ncells : 1, sizeof(*drains));
	na = calloc(ncells ? ncells : 1, sizeof(*na));
	if (!track || !drains || !na) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t c = 0; c < ncells; c++)
		na[c] = profile_workload_not_applicable(
		    &cells[c].w, target_info(r->t)->logical_block_size, why, sizeof(why));
	/* Steady state is judged on the tracked cell: without it there is nothing to judge. */
	if (pr->has_steady_state && pr->tracked_cell < ncells && na[pr->tracked_cell]) {
		(void)profile_workload_not_applicable(&cells[pr->tracked_cell].w,
						      target_info(r->t)->logical_block_size, why,
						      sizeof(why));
		fail(r, "phase %d: the tracked cell %s cannot run on this target (%s)", w->phase,
		     cells[pr->tracked_cell].key, why);
		rc = -EINVAL;
		goto out;
	}
	cell_ns = pr->base.length.kind == AMOUNT_TIME ? scale_ns(r, pr->base.length.ns) : 0;
	/* Until round 1 measures them, each cell's drain is the one plan assumes (profile/plan.h). */
	for (size_t c = 0; c < ncells; c++) {
		const struct target_info *ti = target_info(r->t);
		struct job_spec s;
		char e[256];

		if (cells[c].w.length.kind == AMOUNT_TIME && scale_ns(r, cells[c].w.length.ns) &&
		    !profile_workload_resolve(&cells[c].w, work_capacity(r), ti->logical_block_size,
					      r->scale, &s, e, sizeof(e)))
			drains[c] = plan_assumed_drain_ns(&s);
	}
	for (unsigned round = 1; round <= max_rounds; round++) {
		size_t have = r->state == RUNNER_RECORD ? 0 : round_in_k(r, w, round, cells, ncells);

		gstate = (struct wa_guard_round){.state = WA_GUARD_UNAVAILABLE};
		bool rerun = have > 0 && have < ncells;
		bool skip_all = have == ncells && !r->virt && !r->redo;

		if (rerun) {
			rc = enter_rerun(r, w, round);
			if (rc)
				goto out;
		}
		if (pr->has_pre_write && !skip_all) {
			struct job_spec pre;
			char key[KEY_MAX];
			struct job_result res;

			snprintf(key, sizeof(key), "phase=%d,repeat=%u,round=%u,pre_write", w->phase,
				 w->repeat, round);
			rc = resolve(r, &pr->pre_write, key, &pre);
			if (rc)
				goto out;
			progress_step(r, w, round, "pre_write");
			rc = run_job(r, &pre, false, &res, key);
			if (!rc)
				r->prewrite_bytes += res.bytes_written_total;
			job_result_release(&res);
			if (rc)
				goto out;
		}
		for (size_t c = 0; c < ncells; c++) {
			struct json_object *rec = NULL;
			char key[KEY_MAX];
			struct job_spec spec;

			if (na[c]) {
				(void)profile_workload_not_applicable(
				    &cells[c].w, target_info(r->t)->logical_block_size, why,
				    sizeof(why));
				rc = na_step(r, w, round, cells[c].key, why, rerun);
				if (rc)
					goto out;
				continue;
			}
			rc = step_key(w->phase, w->repeat, round, cells[c].key, "cell", key,
				      sizeof(key));
			if (rc)
				goto out;
			rc = resolve(r, &cells[c].w, key, &spec);
			if (rc)
				goto out;
			r->eta_extra_ns = 0;
			for (size_t k = c + 1; k < ncells; k++)
				r->eta_extra_ns += na[k] ? 0 : cell_ns;
			for (size_t k = c; k < ncells; k++)
				r->eta_extra_ns += drains[k];
			r->guard_job = guard_on && c == pr->tracked_cell && guard_workload(r, &spec);
			rc = job_step(r, w, "cell", round, cells[c].key, &spec, rerun, NULL, &rec);
			r->guard_job = false;
			if (!rc)
				rc = check_no_io(r, key, rec);
			if (rc) {
				json_object_put(rec);
				goto out;
			}
			if (round == 1 && spec.time_ns) {
				uint64_t d = rec_drain_ns(rec, spec.threads * spec.qd);

				drains[c] = d;
				if ((double)d / (double)spec.time_ns > worst) {
					worst = (double)d / (double)spec.time_ns;
					worst_cell = c;
					worst_drain = d;
					worst_planned = spec.time_ns;
					worst_out = spec.threads * spec.qd;
				}
			}
			if (pr->has_steady_state && c == pr->tracked_cell) {
				double v = 0;

				/* The decision uses the recorded figure, so a later analyze and a
				 * resumed walk see exactly the same value (jsonnum round-trips). */
				if (rec && results_record_metric(
					       rec, results_metric_name(pr->track.metric), &v))
					v = 0;
				track[round - 1] = v;
				if (guard_on)
					guard_judge(r, rec, &gstate);
			}
			json_object_put(rec);
		}
		r->eta_extra_ns = 0;
		if (round == 1) {
			uint64_t sum = 0;

			for (size_t k = 0; k < ncells; k++)
				sum += drains[k];
			eta_measured_drain(&r->eta, w->phase, w->repeat, sum);
		}
		if (round == 1 && worst * DRAIN_WARN_FACTOR > 1) {
			rc = drain_check(r, w, cells[worst_cell].key, worst, worst_drain, worst_planned,
					 worst_out);
			if (rc)
				goto out;
		}
		if (pr->has_steady_state) {
			struct ss_result ss;

			rc = ss_check(track, round, 1, &pr->ss, &ss);
			if (rc) {
				fail(r, "steady-state check failed: %s", strerror(-rc));
				goto out;
			}
			if (ss.reached && gstate.state == WA_GUARD_SHORT && round < max_rounds) {
				guard_note(r, w, round, "the SNIA window passed", &gstate);
				continue;
			}
			if (ss.stop) {
				if (r->state == RUNNER_RECORD)
					note(r, "phase %d: steady state %s after round %u (window %u-%u, "
						"avg %.1f)",
					     w->phase, ss.reached ? "reached" : "NOT reached", round,
					     ss.first_round, ss.last_round, ss.average);
				break;
			}
			if (pr->has_early) {
				bool stop = false;

				rc = early_decide(r, w, pr, track, round, &gstate, &stop);
				if (rc)
					goto out;
				if (stop)
					break;
			}
		}
	}
out:
	r->eta_extra_ns = 0;
	free(na);
	free(drains);
	free(track);
	free(cells);
	return rc;
}

/*
 * I7: variant i of a resumed variants phase was interrupted (its replay met a step not in K at
 * kpos..): it runs again from its first phase, from the state it began in (its capacity set
 * and the device discarded again), its steps in K executed but not recorded again (RERUN), the
 * rest recorded. A resume record with variant_rerun comes first. On a real drive a crash may
 * have lost the capacity change (a volatile HPA, a namespace restored by `ssdlab restore`) and
 * what the variant had written, so going on from the interrupted step would measure another
 * device state; the finished variants' records stay as they are.
 */
static int redo_variant(struct runner *r, const struct where *w, const struct phase_variants *v,
			unsigned i, struct variants_state *s, size_t kpos, int first, int *next_phase)
{
	char e[512] = "";
	int rc;

	note(r, "resume: variant %u of %u was interrupted: running it again from its first phase "
		"(%zu recorded step(s) executed again, not recorded again)",
	     i + 1, v->n, r->k.pos - kpos);
	r->k.pos = kpos;
	rc = variants_apply(r->t, v, i, s, e, sizeof(e));
	if (rc) {
		fail(r, "%s", e);
		return rc;
	}
	r->cap_limit = s->limit;
	r->redo = true;
	r->redo_variant = i + 1;
	rc = append_resume_record(r, w, 0);
	if (!rc) {
		set_state(r, RUNNER_RERUN);
		*next_phase = first;
		rc = walk_list(r, &v->phases, next_phase, w->repeat * v->n + i);
	}
	r->redo = false;
	r->redo_variant = 0;
	return rc;
}

/* A variants phase (run/variants.h): its body once per capacity fraction, each walked as a
 * repeat's iteration; the original capacity comes back whatever happened. */
static int exec_variants(struct runner *r, const struct where *w, int *next_phase)
{
	const struct phase_variants *v = w->ph->data;
	struct variants_state s;
	char e[512] = "";
	int first = *next_phase;
	size_t kpos;
	int rc, rrc;

	rc = variants_begin(r->t, r->o.settings, v, &s, e, sizeof(e));
	if (rc) {
		fail(r, "%s", e);
		return rc;
	}
	if (s.skipped[0])
		note(r, "variants (%s): passed by %s", phase_variant_method_name(s.method),
		     s.skipped);
	for (unsigned i = 0; i < v->n && !rc; i++) {
		rc = variants_apply(r->t, v, i, &s, e, sizeof(e));
		if (rc) {
			fail(r, "%s", e);
			break;
		}
		r->cap_limit = s.limit;
		note(r, "variant %u of %u (%s): user capacity %llu of %llu bytes, spare added %llu",
		     i + 1, v->n, phase_variant_method_name(s.method), (unsigned long long)s.size,
		     (unsigned long long)s.orig_capacity,
		     (unsigned long long)variants_spare_added(&s));
		/* resuming: K's cursor where the variant begins, in case it is the interrupted one */
		replay_skip_resume(&r->k);
		kpos = r->k.pos;
		r->variant_guard = r->state == RUNNER_REPLAY && !replay_exhausted(&r->k);
		*next_phase = first;
		rc = walk_list(r, &v->phases, next_phase, w->repeat * v->n + i);
		r->variant_guard = false;
		if (rc == -ERESTART)
			rc = redo_variant(r, w, v, i, &s, kpos, first, next_phase);
	}
	r->cap_limit = 0;
	rrc = variants_restore(r->t, &s, e, sizeof(e));
	if (rrc) {
		fail(r, "%s", e);
		if (!rc)
			rc = rrc;
	}
	return rc;
}

/* A kind with a body (repeat): its list, count times, numbered once (profile/plan.h). */
static int exec_body(struct runner *r, const struct where *w, int *next_phase)
{
	unsigned count = 0;
	const struct phase_list *body = w->ph->kind->body(w->ph->data, &count);
	int first = *next_phase;
	int rc = 0;

	if (w->ph->kind->type == PHASE_VARIANTS)
		return exec_variants(r, w, next_phase);
	for (unsigned i = 0; i < count && !rc; i++) {
		*next_phase = first;
		rc = walk_list(r, body, next_phase, w->repeat * count + i);
	}
	return rc;
}

/*
 * dirth_points (profile/phases.h): the TOIO cells of the latest earlier rounds phase of this
 * repeat, each cell's IOPS averaged over its last `window` recorded rounds, read back from
 * records.jsonl (so that a resumed run, whose rounds were recorded before, chooses the same
 * points from the same figures: jsonnum round-trips); the choice is snia_dirth_choose(). Each
 * point: its pre-write (not recorded, as a rounds pre-write), then one measured
 * `dirth_point` record, cell "max", "mid" or "min", with a "dirth" object saying why.
 */
static int dirth_cells(struct runner *r, const struct where *w, unsigned window,
		       struct snia_dirth_cell **out, size_t *nout, int64_t *phase, int64_t *lo,
		       int64_t *hi)
{
	struct results_records rr = {0};
	struct reader_measurement *ms = NULL;
	struct snia_dirth_cell *c = NULL;
	double *y = NULL;
	int64_t *rd = NULL, ph = -1, last = 0;
	size_t nms = 0, n = 0;
	int rc;

	rc = results_read_records(results_path(r->res), &rr);
	if (!rc)
		rc = reader_measurements(&rr, &ms, &nms);
	if (rc)
		goto out;
	for (size_t i = 0; i < nms; i++) {
		unsigned t, q;

		if (!strcmp(ms[i].k.kind, "cell") && ms[i].k.phase < w->phase &&
		    ms[i].k.repeat == (int64_t)w->repeat && !snia_dirth_cell(ms[i].k.cell, &t, &q) &&
		    ms[i].k.phase > ph)
			ph = ms[i].k.phase;
	}
	for (size_t i = 0; i < nms; i++)
		if (ms[i].k.phase == ph && ms[i].k.repeat == (int64_t)w->repeat &&
		    !strcmp(ms[i].k.kind, "cell") && ms[i].k.round > last)
			last = ms[i].k.round;
	c = calloc(nms + 1, sizeof(*c));
	y = calloc(nms + 1, sizeof(*y));
	rd = calloc(nms + 1, sizeof(*rd));
	if (!c || !y || !rd) {
		rc = -ENOMEM;
		goto out;
	}
	*lo = last - (int64_t)window + 1 > 1 ? last - (int64_t)window + 1 : 1;
	/* The cells in the order of the first round that has them (the rounds' own order). */
	for (size_t i = 0; ph >= 0 && i < nms; i++) {
		size_t m, got = 0;
		unsigned t, q;

		if (ms[i].k.phase != ph || ms[i].k.repeat != (int64_t)w->repeat ||
		    strcmp(ms[i].k.kind, "cell") || snia_dirth_cell(ms[i].k.cell, &t, &q))
			continue;
		for (m = 0; m < n && !(c[m].threads == t && c[m].qd == q); m++)
			;
		if (m < n)
			continue;
		for (size_t j = i; j < nms; j++) {
			unsigned t2, q2;

			if (ms[j].k.phase == ph && ms[j].k.repeat == (int64_t)w->repeat &&
			    !strcmp(ms[j].k.kind, "cell") &&
			    !snia_dirth_cell(ms[j].k.cell, &t2, &q2) && t2 == t && q2 == q) {
				y[got] = ms[j].not_applicable ? NAN : ms[j].metric[RESULTS_METRIC_IOPS];
				rd[got++] = ms[j].k.round;
			}
		}
		c[n++] = (struct snia_dirth_cell){t, q, snia_window_mean(y, rd, got, *lo, last, NULL)};
	}
	if (ph < 0) {
		fail(r, "phase %d: dirth_points needs an earlier rounds phase with cells over threads "
			"and qd (order [threads, qd]); records.jsonl has none",
		     w->phase);
		rc = -EINVAL;
		goto out;
	}
	*out = c;
	c = NULL;
	*nout = n;
	*phase = ph;
	*hi = last;
out:
	if (rc && rc != -EINVAL)
		fail(r, "phase %d: reading the rounds' records: %s", w->phase, strerror(-rc));
	free(rd);
	free(y);
	free(c);
	free(ms);
	results_records_release(&rr);
	return rc;
}

static int exec_dirth_points(struct runner *r, const struct where *w)
{
	const struct phase_dirth_points *d = w->ph->data;
	struct snia_dirth_cell *c = NULL;
	struct snia_dirth_choice ch;
	size_t n = 0;
	int64_t ph = -1, lo = 0, hi = 0;
	int rc;

	rc = dirth_cells(r, w, d->window, &c, &n, &ph, &lo, &hi);
	if (rc)
		return rc;
	rc = snia_dirth_choose(c, n, &ch);
	if (rc) {
		fail(r, "phase %d: no DIRTH points from phase %" PRId64 ": %s", w->phase, ph,
		     rc == -ENOENT ? "it has no TC1/QD1 cell with IOPS"
				   : "fewer than three of its cells have IOPS");
		goto out;
	}
	for (int p = 0; p < SNIA_DIRTH_NPOINTS && !rc; p++) {
		const struct snia_dirth_cell *pc = &c[ch.idx[p]];
		struct profile_workload wl = d->base;
		struct json_object *x = json_object_new_object();
		struct job_spec spec;
		char key[KEY_MAX];

		if (!x || jsonnum_add(x, "dirth", json_object_new_object())) {
			json_object_put(x);
			rc = -ENOMEM;
			break;
		}
		{
			struct json_object *o = json_object_object_get(x, "dirth");

			if (jsonnum_add(o, "point",
					json_object_new_string(snia_dirth_point_name(p))) ||
			    jsonnum_add(o, "threads", json_object_new_int((int)pc->threads)) ||
			    jsonnum_add(o, "qd", json_object_new_int((int)pc->qd)) ||
			    jsonnum_add(o, "toio", json_object_new_int((int)(pc->threads * pc->qd))) ||
			    jsonnum_add(o, "rounds_phase", json_object_new_int64(ph)) ||
			    jsonnum_add(o, "first_round", json_object_new_int64(lo)) ||
			    jsonnum_add(o, "last_round", json_object_new_int64(hi)) ||
			    jsonnum_add(o, "rounds_iops", jsonnum_new(pc->iops)) ||
			    jsonnum_add(o, "why", json_object_new_string(ch.why[p]))) {
				json_object_put(x);
				rc = -ENOMEM;
				break;
			}
		}
		rc = step_key(w->phase, w->repeat, 1, snia_dirth_point_name(p), "dirth_point", key,
			      sizeof(key));
		/* A real drive skips a point already in K (job_step): its pre-write too, as a
		 * rounds phase skips the pre-write of a round it has whole. */
		if (!rc && d->has_pre_write &&
		    !(r->state != RUNNER_RECORD && !r->virt && !r->redo && replay_peek(&r->k, key))) {
			struct job_spec pre;
			struct job_result res;

			snprintf(key, sizeof(key), "phase=%d,repeat=%u,round=1,pre_write,%s", w->phase,
				 w->repeat, snia_dirth_point_name(p));
			rc = resolve(r, &d->pre_write, key, &pre);
			if (!rc) {
				progress_step(r, w, 1, "pre_write");
				rc = run_job(r, &pre, false, &res, key);
				if (!rc)
					r->prewrite_bytes += res.bytes_written_total;
				job_result_release(&res);
			}
		}
		wl.spec.threads = pc->threads;
		wl.spec.qd = pc->qd;
		if (!rc)
			rc = step_key(w->phase, w->repeat, 1, snia_dirth_point_name(p), "dirth_point",
				      key, sizeof(key));
		if (!rc)
			rc = resolve(r, &wl, key, &spec);
		if (!rc) {
			r->rec_extra = x;
			rc = job_step(r, w, "dirth_point", 1, snia_dirth_point_name(p), &spec, false,
				      NULL, NULL);
			r->rec_extra = NULL;
		}
		json_object_put(x);
	}
out:
	free(c);
	return rc;
}

/* The runner-side table of phase kinds: one execution hook per profile.h phase type. */
typedef int (*exec_fn)(struct runner *r, const struct where *w);
static const exec_fn kind_exec[] = {
	[PHASE_PURGE] = exec_purge,   [PHASE_PRECONDITION] = exec_write,
	[PHASE_WRITE_UNTIL] = exec_write, [PHASE_ROUNDS] = exec_rounds,
	[PHASE_IDLE] = exec_idle,     [PHASE_TRIM] = exec_trim,
	[PHASE_REPEAT] = NULL, /* walks its body: exec_body */
	[PHASE_IDLE_SWEEP] = NULL, /* walks its body (the sweep written out): exec_body */
	[PHASE_TRIM_CHECK] = exec_trim_check,
	[PHASE_SURFACE] = exec_surface,
	[PHASE_VARIANTS] = NULL, /* walks its body per capacity: exec_body -> exec_variants */
	[PHASE_DIRTH_POINTS] = exec_dirth_points,
	[PHASE_BURSTS] = exec_bursts,
};

bool runner_kind_covered(const struct phase_kind *k)
{
	if ((unsigned)k->type >= sizeof(kind_exec) / sizeof(kind_exec[0]))
		return false;
	/* A kind with a body is walked (exec_repeat); every other kind is executed. */
	return k->body ? !kind_exec[k->type] : kind_exec[k->type] != NULL;
}

static int phase_boundary(struct runner *r, const struct where *w, const char *when)
{
	char label[64], cerr[512];
	int rc;

	/* a SATA drive's accessible max against the one at open (targets/drive_capacity.h) */
	rc = drive_capacity_recheck(target_info(r->t), NULL, cerr, sizeof(cerr));
	if (rc > 0)
		note(r, "%s", cerr);
	if (rc < 0) {
		fail(r, "%s", cerr);
		return rc;
	}

	/* Boundaries inside a replayed stretch were stored the first time; a variant run again
	 * (I7) stores its own, which the analysis takes over the first ones (wa.h). At the end of
	 * K the phase's end is stored (again): a kill between its last record and its end
	 * snapshot loses the snapshot, and without it the phase has no WA (the analysis takes
	 * the last end; a virtual SSD's replay gives the same counters, a drive's may have moved
	 * in the gap). */
	if (!r->redo && r->state != RUNNER_RECORD && !replay_exhausted(&r->k))
		return 0;
	snprintf(label, sizeof(label), "phase-%d-%s-%s", w->phase, w->ph->kind->name, when);
	if (r->o.settings) {
		char msg[512] = "", err[512] = "";
		rc = drive_settings_recheck(r->o.settings, msg, sizeof(msg), err, sizeof(err));

		if (rc) {
			fail(r, "phase %d: %s: %s", w->phase, when, err);
			return rc;
		}
		if (msg[0])
			note(r, "phase %d %s: %s", w->phase, when, msg);
	}
	return store_snapshot(r, label, w->phase, w->repeat);
}

/*
 * The cool-down gate before a phase (run/cooldown_gate.h), when the phase or the profile has
 * one: waits, then appends a "cooldown" record {waited_ns, start_c, end_c, reached, below_c,
 * max_wait_ns}, a marker the replay walks past like a resume record (replay.h). Only while
 * recording: a replayed stretch waited the first time. A target without a temperature (and the
 * virtual SSD, whose clock would make the wait meaningless) gets a note once and no wait.
 * Not reached within max_wait: a note, the record says so (the summary flags it), the walk goes on.
 */
static int cooldown_gate(struct runner *r, const struct where *w)
{
	const struct profile_cooldown *c =
	    profile_cooldown_for(&w->ph->cooldown, &r->p->cooldown);
	struct results_record rr = {
		.kind = "cooldown", .phase = w->phase, .phase_kind = w->ph->kind->name,
		.repeat = w->repeat,
	};
	struct cooldown_result cr;
	struct json_object *o;
	char cell[32], key[KEY_MAX];
	int rc, e = 0;

	if (!c || r->state != RUNNER_RECORD || !replay_exhausted(&r->k))
		return 0;
	if (r->virt) {
		if (!r->cooldown_noted)
			note(r, "cooldown: skipped on the virtual SSD (it has no temperature)");
		r->cooldown_noted = true;
		return 0;
	}
	rr.start_ns = target_now(r->t);
	rc = cooldown_gate_wait(r->t, c, r->o.stop, &cr);
	if (rc == -EOPNOTSUPP) {
		if (!r->cooldown_noted)
			note(r, "cooldown: %s reports no temperature; no phase waits",
			     target_info(r->t)->path);
		r->cooldown_noted = true;
		return 0;
	}
	if (rc == -EINTR)
		return rc;
	if (rc) {
		fail(r, "phase %d: cooldown: reading the temperature failed: %s", w->phase,
		     strerror(-rc));
		return rc;
	}
	if (!cr.reached)
		note(r, "phase %d: cooldown: still %.1f C after %.0f s (below %.1f C wanted); "
			"going on",
		     w->phase, cr.end_c, (double)cr.waited_ns / 1e9, c->below_c);
	/* One record per (phase, repeat) and process: a resume that gates the same phase again
	 * names its record after the resume count, so that no key appears twice (I1). */
	snprintf(cell, sizeof(cell), "cooldown-%u", r->k.nresume + (r->resumed ? 1u : 0u));
	rr.cell = cell;
	rr.end_ns = target_now(r->t);
	o = results_record_to_json(&rr);
	if (!o)
		return -ENOMEM;
	jsonnum_build_add(o, "waited_ns", json_object_new_uint64(cr.waited_ns), &e);
	jsonnum_build_num(o, "start_c", cr.start_c, &e);
	jsonnum_build_num(o, "end_c", cr.end_c, &e);
	jsonnum_build_add(o, "reached", json_object_new_boolean(cr.reached), &e);
	jsonnum_build_num(o, "below_c", c->below_c, &e);
	jsonnum_build_add(o, "max_wait_ns", json_object_new_uint64(c->max_wait_ns), &e);
	jsonnum_build_add(o, "readings", json_object_new_uint64(cr.readings), &e);
	rc = e ? -ENOMEM : results_record_key(o, key, sizeof(key));
	if (!rc)
		rc = append_step(r, o, key);
	json_object_put(o);
	return rc;
}

static int walk_list(struct runner *r, const struct phase_list *l, int *next_phase,
		     unsigned repeat)
{
	for (size_t i = 0; i < l->n; i++) {
		struct where w = {.phase = (*next_phase)++, .repeat = repeat, .ph = &l->v[i]};
		enum phase_type type = w.ph->kind->type;
		int rc;

		if (stop_raised(r))
			return -EINTR;
		if (w.ph->kind->body) {
			rc = exec_body(r, &w, next_phase);
		} else if ((unsigned)type < sizeof(kind_exec) / sizeof(kind_exec[0]) &&
			   kind_exec[type]) {
			rc = cooldown_gate(r, &w);
			if (!rc)
				rc = phase_boundary(r, &w, "start");
			r->phase_unstarted = &w;
			if (!rc)
				rc = kind_exec[type](r, &w);
			r->phase_unstarted = NULL;
			if (!rc)
				rc = phase_boundary(r, &w, "end");
		} else {
			fail(r, "phase kind '%s' cannot be run by this version", w.ph->kind->name);
			rc = -EOPNOTSUPP;
		}
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- the manifest's tracks (the rest of the manifest: runner_manifest.c) ------------------ */

/* Declares every steady-state tracked series: one per rounds phase instance (plan step). */
/* The guard's source as the manifest states it. */
static const char *early_guard_source(const struct phase_rounds *pr, const struct target_info *ti)
{
	if (pr->early_written)
		return "stated (steady_state.early.written)";
	if (ti->nand_bytes)
		return "target: NAND capacity + SLC cache";
	return "assumed: 2x the user capacity (the target does not say its NAND capacity)";
}

/* "early" of the last steady_state entry of m: params, guard {bytes, source}. */
static int early_track_add(struct json_object *m, const struct phase_rounds *pr,
			   const struct target_info *ti)
{
	struct json_object *arr, *e, *g;
	size_t n;

	if (!json_object_object_get_ex(m, "steady_state", &arr) ||
	    !(n = json_object_array_length(arr)))
		return -EINVAL;
	e = ss_early_params_to_json(&pr->early);
	if (!e || jsonnum_add(json_object_array_get_idx(arr, n - 1), "early", e))
		return -ENOMEM;
	g = json_object_new_object();
	if (!g || jsonnum_add(e, "guard", g) ||
	    jsonnum_add(g, "bytes", json_object_new_uint64(runner_early_guard_bytes(pr, ti))) ||
	    jsonnum_add(g, "source", json_object_new_string(early_guard_source(pr, ti))) ||
	    jsonnum_add(g, "nand_bytes", json_object_new_uint64(ti->nand_bytes)) ||
	    jsonnum_add(g, "slc_cache_bytes", json_object_new_uint64(ti->slc_cache_bytes)) ||
	    jsonnum_add(g, "capacity", json_object_new_uint64(ti->capacity)))
		return -ENOMEM;
	return 0;
}

int runner_manifest_tracks(struct json_object *m, const struct plan *pl,
			   const struct target_info *ti)
{
	for (size_t i = 0; i < pl->n; i++) {
		const struct plan_step *st = &pl->v[i];
		const struct phase_rounds *pr = st->ph->data;
		struct profile_cell *cells = NULL;
		size_t n = 0;
		int rc;

		if (!(st->ph->kind->flags & PHASE_KIND_ROUNDS) || !pr->has_steady_state)
			continue;
		rc = profile_rounds_cells(pr, &cells, &n);
		if (!rc && pr->tracked_cell < n)
			rc = ss_track_add(m, st->phase, st->repeat, cells[pr->tracked_cell].key,
					  results_metric_name(pr->track.metric), &pr->ss);
		if (!rc && pr->tracked_cell < n && pr->has_early)
			rc = early_track_add(m, pr, ti);
		free(cells);
		if (rc)
			return rc;
	}
	return 0;
}

/* ---- lifecycle -------------------------------------------------------------------------- */

int runner_new(const struct profile *p, struct target *t, struct results *res,
	       const struct runner_opts *o, const struct results_records *records, bool resumed,
	       struct runner **out, char *err, size_t errlen)
{
	size_t n = records ? records->n : 0;
	struct runner *r = calloc(1, sizeof(*r));
	int rc = -ENOMEM;

	if (!r)
		return -ENOMEM;
	r->p = p;
	r->t = t;
	r->res = res;
	if (o)
		r->o = *o;
	r->virt = target_caps(t) & TARGET_CAP_VIRTUAL_TIME;
	r->resumed = resumed || n > 0;
	r->scale = runner_time_scale(t, o);
	r->state = RUNNER_OPEN;
	r->spr_alpha = NAN;
	if (runner_plan(p, t, o, &r->eta.plan))
		goto fail;
	r->nphases = r->eta.plan.nphases;
	fault_parse(&r->fault, r->o.debug_fault);
	rc = replay_init(&r->k, records, err, errlen);
	if (rc)
		goto fail;
	*out = r;
	return 0;
fail:
	runner_free(r);
	return rc;
}

/*
 * Before anything runs: every sprandom fill's inputs must resolve on this target, so that a
 * refusal (spare unknown on a drive; a GC policy or an SLC cache where the layout does not hold,
 * docs/fast-steady-state.md) comes before the purge, with nothing written. The capacity is the
 * target's, as the manifest resolves it; the fill's own range is checked again when it runs.
 */
static int sprandom_preflight(struct runner *r)
{
	const struct target_info *ti = target_info(r->t);
	struct phase_nand nand = runner_target_nand(ti, r->p);

	for (size_t i = 0; i < r->eta.plan.n; i++) {
		const struct plan_step *st = &r->eta.plan.v[i];
		const struct phase_write *pw = st->ph ? st->ph->data : NULL;
		struct sprandom_inputs in;
		char e[400] = "";

		if (!st->ph || st->ph->kind->type != PHASE_PRECONDITION || !pw->spr.on)
			continue;
		if (phase_sprandom_resolve(&pw->spr, pw->w.spec.bs[0].bs, ti->capacity, &nand, &in,
					   e, sizeof(e))) {
			char hint[128] = "";

			/* the spare unknown on a top-level phase: the one-liner that states it */
			if (phase_sprandom_spare_unknown(&pw->spr, &nand) && st->depth == 0)
				snprintf(hint, sizeof(hint),
					 "; on the command line: --set phases.%d.precondition.spare=N%% "
					 "(the drive's spare)",
					 st->phase);
			fail(r, "refused before the first phase: phase %d (precondition): %s%s",
			     st->phase, e, hint);
			/* -EDOM: a resume would be refused the same way (runner.h) */
			return -EDOM;
		}
	}
	return 0;
}

int runner_execute(struct runner *r, char *err, size_t errlen)
{
	int next = 0, rc;

	r->err = err;
	r->errlen = errlen;
	if (err && errlen)
		err[0] = '\0';
	assert(r->state == RUNNER_OPEN);
	r->run_t0_ns = target_now(r->t);
	rc = sprandom_preflight(r);
	if (rc) {
		set_state(r, RUNNER_FAILED);
		return rc;
	}
	if (!r->resumed) {
		set_state(r, RUNNER_RECORD);
		rc = store_snapshot(r, "run-start", -1, 0);
	} else {
		set_state(r, RUNNER_REPLAY);
		rc = 0;
		if (replay_exhausted(&r->k) && r->k.n)
			note(r, "resume: %zu records kept; continuing", r->k.n);
		else if (r->k.n)
			note(r, "resume: %zu records kept; %s up to the interruption", r->k.n,
			     r->virt ? "replaying the virtual SSD" : "skipping what is recorded");
	}
	if (!rc)
		rc = walk_list(r, &r->p->phases, &next, 0);
	if (!rc && !replay_exhausted(&r->k)) {
		fail(r, "records.jsonl holds %s, which is past the end of the plan",
		     r->k.key[r->k.pos]);
		rc = -EINVAL;
	}
	if (!rc && (r->state == RUNNER_RECORD || r->wrote_anything))
		rc = store_snapshot(r, "run-end", -1, 0);
	if (rc == -EINTR)
		set_state(r, RUNNER_STOPPED);
	else if (rc)
		set_state(r, RUNNER_FAILED);
	else
		set_state(r, RUNNER_DONE);
	return rc;
}

enum runner_state runner_get_state(const struct runner *r)
{
	return r->state;
}

void runner_counts(const struct runner *r, size_t *recorded, size_t *replayed, size_t *rerun)
{
	if (recorded)
		*recorded = r->recorded;
	if (replayed)
		*replayed = r->replayed;
	if (rerun)
		*rerun = r->rerun;
}

void runner_free(struct runner *r)
{
	if (!r)
		return;
	replay_release(&r->k);
	plan_release(&r->eta.plan);
	free(r);
}
