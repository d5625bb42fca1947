/* SPDX-License-Identifier: MIT */
/*
 * `ssdlab plan PROFILE --target T`: what a run would do, without writing anything: the phases
 * in the runner's numbering, the bytes each writes and an estimated duration in the target's
 * time. Time-bound parts are exact (after the time scale); amounts need a speed: on a virtual
 * SSD a short probe of the phase's own workload on a private, fresh copy of the model (fresh:
 * the estimate is optimistic once the drive is full), on a real device a conservative default
 * that is stated as such (nothing may be written to find out). Rounds to steady state are
 * given as a range: the window (5 rounds) to max_rounds (25).
 */
#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/endurance.h"
#include "cli/cli.h"
#include "cli/clock.h"
#include "cli/drive_dry.h"
#include "cli/options.h"
#include "cli/runflow.h"
#include "engine/engine.h"
#include "profile/profile.h"
#include "run/runner.h"
#include "targets/target.h"
#include "base/units.h"

#define DEFAULT_TARGET "sim:client-tlc"
/* A probe writes at most this much of a virtual SSD (a small share of a small model). */
#define PROBE_MAX_BYTES (64ull << 20)

struct plan_ctx {
	struct target *t;
	const struct target_info *ti;
	double scale;
	bool virt;
	uint64_t seed;
	uint64_t total_bytes;
	uint64_t min_ns, max_ns;
	bool bytes_lower_bound;
	unsigned nstop; /* steps a stop rule may end sooner (phase_length.upper_bound) */
	const struct runner_opts *ro;
	/* Wall-clock estimate on a virtual SSD: each part's target time x the wall / target time
	 * ratio of its own probe (the simulator's measured speed on this machine). */
	uint64_t wall_lo_ns, wall_hi_ns;
	double wall_ratio;    /* wall / target time of the last probe; 0 = none */
	double wall_per_byte; /* wall ns per byte moved in the last probe */
	bool fill;	   /* the profile writes: probe cells on a filled copy, as the run sees it */
	bool filled;
	bool wrote; /* a phase planned so far writes: later probes run on a filled copy */
	/* The bytes one round of the step being filled writes (fill_step): each cell's write
	 * share x its speed x its time; the sums over the rounds steps at rounds_lo .. rounds_hi. */
	double round_bytes;
	double rounds_lo_bytes, rounds_hi_bytes;
	/* The worst cell (drain / planned) for the refusal and warning runner.c will give. */
	double worst;
	char worst_cell[96];
	int worst_phase;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: ssdlab plan PROFILE [--target T] [--set KEY=VALUE]... [--time-scale F]\n"
		   "                   [--chunk SIZE] [--tbw N]\n\n"
		   "Shows the phases of a profile on a target, the bytes each writes and an\n"
		   "estimated duration (target time), and the chunks a long writing phase is\n"
		   "recorded in (--chunk as for run); nothing is written. The bytes written are\n"
		   "shown as a share of the drive's rated endurance: --tbw N (TB written), else\n"
		   "the drive database's rating for the model. Default target "
		   DEFAULT_TARGET ".\n"
		   "On an NVMe or SATA drive it then lists the ATA or NVMe commands a run would\n"
		   "send it (identity at the start, counter snapshots at each phase boundary),\n"
		   "sending none: plan is the dry run of `run`.\n");
}

/* Runs s (time_ns 0, amount `amount`) on the private virtual SSD; 0 and res filled (release it)
 * when it ran without error. Sets c->wall_ratio from its wall and target time. */
static int probe(struct plan_ctx *c, struct job_spec *s, uint64_t amount, struct job_result *res)
{
	char e[256];
	uint64_t w0;
	int rc;

	s->time_ns = 0;
	s->ramp_ns = s->ramp_bytes = 0;
	s->amount_bytes = amount;
	s->seed = c->seed;
	memset(res, 0, sizeof(*res));
	rc = job_validate(s, c->ti, e, sizeof(e));
	if (rc)
		return rc;
	w0 = cli_mono_ns();
	rc = engine_run(c->t, s, NULL, res);
	if (!rc && (res->error || !res->elapsed_ns))
		rc = -EIO;
	if (!rc) {
		double wall = (double)(cli_mono_ns() - w0);

		c->wall_ratio = wall / (double)(res->elapsed_ns + res->ramp_elapsed_ns);
		c->wall_per_byte = wall / (double)(res->bytes_written_total + res->bytes_read_total);
	}
	return rc;
}

/* One sequential pass over the private virtual SSD (128 KiB, QD 32, based on spec s), once:
 * what the probes after a writing phase see is a written drive, as in the run. */
static void fill_once(struct plan_ctx *c, const struct job_spec *s)
{
	struct job_spec f = *s;
	struct job_result res;

	if (c->filled)
		return;
	c->filled = true;
	f.rw = RW_WRITE;
	f.nbs = 1;
	f.bs[0].bs = 128 << 10;
	f.bs[0].weight = 1;
	f.qd = 32;
	f.threads = 1;
	f.range_start = 0;
	f.range_end = c->ti->capacity;
	f.seq_start = 0;
	(void)probe(c, &f, c->ti->capacity, &res);
	job_result_release(&res);
}

/* Write speed of a workload in bytes per second: a probe on a virtual SSD, else the default. */
static double speed_of(struct plan_ctx *c, const struct profile_workload *w, const char **how)
{
	struct job_spec s;
	struct job_result res;
	char e[256];
	double bps = PLAN_ASSUMED_BPS;

	*how = "assumed 100 MB/s: a conservative default for a real device";
	if (!c->virt)
		return bps;
	if (profile_workload_resolve(w, c->ti->capacity, c->ti->logical_block_size, 1.0, &s, e,
				     sizeof(e)))
		return bps;
	if (c->wrote)
		fill_once(c, &s);
	if (!probe(c, &s, c->ti->capacity / 16 < PROBE_MAX_BYTES ? c->ti->capacity / 16
								  : PROBE_MAX_BYTES,
		   &res) &&
	    job_bw(&res) > 0) {
		bps = job_bw(&res);
		*how = c->filled ? "probed on a filled copy of the virtual SSD"
				 : "probed on a fresh virtual SSD: optimistic once the drive is full";
	}
	job_result_release(&res);
	return bps;
}

/*
 * The drain of a time-bound cell (runner_drain_ns: outstanding I/Os x time per I/O): on a
 * virtual SSD from a probe of the cell's own workload (after one sequential fill of the private
 * copy when the profile writes, since a run's cells follow its preconditioning), elsewhere at
 * the assumed speed. The run takes about planned + drain per cell (issue 9, point 2). *wbps:
 * the cell's write speed, from the same probe on a virtual SSD, else its write share
 * (plan_write_share) of the assumed speed (plan_assumed_cell_bps; issue 15, point 3: the bytes
 * of a round).
 */
static uint64_t drain_of(struct plan_ctx *c, const struct profile_workload *w, double *wbps)
{
	struct job_spec s;
	struct job_result res;
	char e[256];
	uint64_t d = 0, amount;
	unsigned out;

	if (profile_workload_resolve(w, c->ti->capacity, c->ti->logical_block_size, c->scale, &s,
				     e, sizeof(e)))
		return 0;
	out = s.threads * s.qd;
	*wbps = plan_write_share(&s) * plan_assumed_cell_bps(&s);
	if (!c->virt)
		return plan_assumed_drain_ns(&s);
	if (c->fill)
		fill_once(c, &s);
	/* A few queues' worth, so that the time per I/O is that of a full queue. */
	amount = (uint64_t)(4.0 * out * plan_mean_bs(&s));
	if (amount > PROBE_MAX_BYTES)
		amount = PROBE_MAX_BYTES;
	if (!probe(c, &s, amount, &res)) {
		d = runner_drain_ns(out, res.elapsed_ns, res.d[0].ios + res.d[1].ios);
		*wbps = (double)res.d[IO_WRITE].bytes / ((double)res.elapsed_ns / 1e9);
	}
	job_result_release(&res);
	return d;
}

static void line(int phase, int depth, const char *kind, const char *desc, const char *bytes,
		 const char *dur)
{
	printf("%3d %*s%-13s %-12s %-22s %s\n", phase, depth * 2, "", kind, bytes, dur, desc);
}

/*
 * Fills in what the plan does not know for step st (its first iteration): the speed of its
 * byte part (a probe of its amount-bound job) and the drains of its time-bound jobs (probes,
 * runner_drain_ns), and returns the wall-clock time of one instance on the simulator: each
 * job's target time x its probe's wall / target ratio, or its bytes x the wall per byte (the
 * simulator's cost is per I/O, not per target second: an amount's wall time does not grow when
 * a full drive slows down). A step without jobs (idle, a purge's settle) costs no wall time.
 */
static double fill_step(struct plan_ctx *c, struct plan_step *st, const char **how)
{
	const struct phase_kind *k = st->ph->kind;
	struct phase_job *jobs = NULL;
	size_t n = 0;
	double wall = 0;
	uint64_t one;
	bool known = true;

	c->wall_ratio = c->wall_per_byte = 0;
	c->round_bytes = 0;
	st->drain_ns = 0; /* the probes' figures replace runner_plan()'s assumed ones */
	if (!k->jobs || k->jobs(st->ph->data, &jobs, &n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		const struct profile_workload *w = &jobs[i].w;
		uint64_t t, d = 0, b;
		double wbps = 0;
		char why[128];

		/* A cell the target cannot run is recorded without I/O and takes no time. */
		if (jobs[i].cell &&
		    profile_workload_not_applicable(w, c->ti->logical_block_size, why, sizeof(why)))
			continue;
		if (w->length.kind == AMOUNT_TIME) {
			t = phase_scale_ns(&(struct phase_env){.scale = c->scale}, w->length.ns);
			if (jobs[i].cell && t) {
				d = drain_of(c, w, &wbps);
				c->round_bytes += wbps * (double)t / 1e9;
				if ((double)d / (double)t > c->worst) {
					c->worst = (double)d / (double)t;
					c->worst_phase = st->phase;
					snprintf(c->worst_cell, sizeof(c->worst_cell), "%s",
						 jobs[i].key);
				}
			}
			st->drain_ns += d;
			wall += (double)(t + d) * c->wall_ratio;
			continue;
		}
		b = amount_bytes(&w->length, c->ti->capacity);
		st->bps = speed_of(c, w, how);
		wall += (double)(b ? b : c->ti->capacity) * c->wall_per_byte;
	}
	free(jobs);
	/* A max_time that stops the phase first: that much target time at the probe's ratio. */
	one = plan_step_ns(st, 0, &known);
	if (st->len.cap_ns && one == st->len.cap_ns)
		wall = (double)one * c->wall_ratio;
	return wall;
}

/* The cells of step st the target cannot run (issue 15, point 1), said before the run: one line
 * per reason, with the cells it concerns. */
static void print_na(const struct plan_ctx *c, const struct plan_step *st)
{
	const struct phase_kind *k = st->ph->kind;
	struct phase_job *jobs = NULL;
	bool *done;
	size_t n = 0;
	char why[128], other[128];

	if (!k->jobs || k->body || k->jobs(st->ph->data, &jobs, &n))
		return;
	done = calloc(n + 1, sizeof(*done));
	for (size_t i = 0; done && i < n; i++) {
		if (done[i] || !jobs[i].cell ||
		    !profile_workload_not_applicable(&jobs[i].w, c->ti->logical_block_size, why,
						     sizeof(why)))
			continue;
		printf("%*snot applicable on this target, recorded without I/O and taking no "
		       "time (%s):",
		       36 + st->depth * 2, "", why);
		for (size_t j = i; j < n; j++)
			if (!done[j] && jobs[j].cell &&
			    profile_workload_not_applicable(&jobs[j].w, c->ti->logical_block_size,
							    other, sizeof(other)) &&
			    !strcmp(other, why)) {
				printf(" %s", jobs[j].key);
				done[j] = true;
			}
		printf("\n");
	}
	free(done);
	free(jobs);
}

/* A rounds step's rounds and what one round writes (issue 15, point 3). */
static void print_rounds(const struct plan_ctx *c, const struct plan_step *st)
{
	char a[32], b[32];
	bool known = true;
	double per = c->round_bytes + (double)st->len.bytes; /* the cells, then a pre-write */

	units_fmt_duration(plan_step_ns(st, 0, &known), a, sizeof(a));
	if (st->len.rounds_lo != st->len.rounds_hi)
		printf("%*s%u .. %u rounds of %s each: steady state decides where in that range "
		       "(the window .. max_rounds)\n",
		       36 + st->depth * 2, "", st->len.rounds_lo, st->len.rounds_hi, a);
	else
		printf("%*s%u round%s of %s each\n", 36 + st->depth * 2, "", st->len.rounds_hi,
		       st->len.rounds_hi == 1 ? "" : "s", a);
	units_fmt_size((uint64_t)per, b, sizeof(b));
	printf("%*swrites about %s per round (each cell's write share x its time x %s)\n",
	       36 + st->depth * 2, "", b,
	       c->virt ? "its write speed probed on a filled copy of the virtual SSD, optimistic once garbage collection slows it"
		       : "an assumed 100 MB/s, at most 20000 IOPS for random I/O: defaults for a "
			 "real device, not measured");
}

/* Prints step st (a first iteration) with its bytes, duration and notes. */
static void print_step(struct plan_ctx *c, const struct plan_step *st, const char *how)
{
	const struct phase_kind *k = st->ph->kind;
	const char *upto = st->len.upper_bound ? "up to " : "";
	char desc[1280] = "", bytes[48] = "-", dur[96] = "-", a[32], b[32];
	uint64_t by = 0, one, lo, hi;
	bool known = true;
	int rc = k->bytes ? k->bytes(st->ph->data, c->ti->capacity, &by) : 0;

	if (k->describe)
		k->describe(st->ph->data, desc, sizeof(desc));
	/* A sprandom precondition's bytes depend on the target's NAND (its spare), which the
	 * length hook is given (phase_env.nand) and the bytes hook is not. */
	if (!rc && k->type == PHASE_PRECONDITION &&
	    ((const struct phase_write *)st->ph->data)->spr.on && st->len.bytes)
		by = st->len.bytes;
	if (rc == -ENODATA)
		snprintf(bytes, sizeof(bytes), "time-bound");
	else if (by)
		snprintf(bytes, sizeof(bytes), "%s%s", upto, units_fmt_size(by, a, sizeof(a)));
	if (k->body) {
		line(st->phase, st->depth, k->name, desc, bytes, "");
		return;
	}
	/* How a crash-safe run records a write phase (runner.h): chunks of bytes for a byte
	 * amount (a round_time of write_until cuts by time instead). */
	if (by && (k->flags & PHASE_KIND_CHUNKED) && !st->len.chunks_by_time) {
		uint64_t cb = runner_chunk_bytes(c->t, c->ro);

		units_fmt_size(cb, a, sizeof(a));
		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
			 "; recorded in %" PRIu64 " chunk%s of %s", (by + cb - 1) / cb,
			 (by + cb - 1) / cb == 1 ? "" : "s", a);
	}
	if (st->len.note[0])
		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), "; %s", st->len.note);
	one = plan_step_ns(st, 0, &known);
	lo = one * st->len.rounds_lo;
	hi = one * st->len.rounds_hi;
	if (hi) {
		units_fmt_duration(lo, a, sizeof(a));
		units_fmt_duration(hi, b, sizeof(b));
		if (lo == hi)
			snprintf(dur, sizeof(dur), "%s%s", upto, a);
		else
			snprintf(dur, sizeof(dur), "%s .. %s%s", a, upto, b);
	}
	if (st->len.upper_bound) {
		/* counted to the end of its amount: the stop rule usually ends it sooner, and
		 * where depends on the drive (an SLC probe's cache size), which the plan cannot
		 * know before the run */
		c->nstop++;
		snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
			 "; counted to the end of its amount, the stop rule usually ends it sooner");
	}
	line(st->phase, st->depth, k->name, desc, bytes, dur);
	if (how)
		printf("%*s(speed %s)\n", 36 + st->depth * 2, "", how);
	if ((k->flags & PHASE_KIND_ROUNDS) && st->len.rounds_hi)
		print_rounds(c, st);
	print_na(c, st);
}

/*
 * Walks the plan (the steps the runner's ETA sums, runner_plan()): a step in the first
 * iteration of its repeats is probed and printed; a later iteration takes the first one's
 * speed, drains and wall time. The totals are plan_span() over every step.
 */
static int plan_walk(struct plan_ctx *c, struct plan *pl)
{
	double *wall = calloc(pl->n ? pl->n : 1, sizeof(*wall));
	double *rb = calloc(pl->n ? pl->n : 1, sizeof(*rb)); /* a round's cells' bytes */
	bool known;

	if (!wall || !rb) {
		free(wall);
		free(rb);
		return -ENOMEM;
	}
	for (size_t i = 0; i < pl->n; i++) {
		struct plan_step *st = &pl->v[i];
		const char *how = NULL;

		if (!st->first) {
			for (size_t j = 0; j < i; j++)
				if (pl->v[j].first && pl->v[j].phase == st->phase) {
					st->bps = pl->v[j].bps;
					st->drain_ns = pl->v[j].drain_ns;
					wall[i] = wall[j];
					rb[i] = rb[j];
				}
		} else {
			uint64_t by = 0;
			const struct phase_kind *k = st->ph->kind;

			wall[i] = fill_step(c, st, &how);
			rb[i] = c->round_bytes;
			print_step(c, st, how);
			/* Later probes run on a filled copy when this phase wrote. */
			/* (A repeat's bytes are its body's, which follows as steps.) */
			if (k->bytes && !k->body)
				(void)k->bytes(st->ph->data, c->ti->capacity, &by);
			if (by && c->fill)
				c->wrote = true;
		}
		c->wall_lo_ns += (uint64_t)(wall[i] * st->len.rounds_lo);
		c->wall_hi_ns += (uint64_t)(wall[i] * st->len.rounds_hi);
		c->rounds_lo_bytes += rb[i] * st->len.rounds_lo;
		c->rounds_hi_bytes += rb[i] * st->len.rounds_hi;
	}
	plan_span(pl, 0, 0, &c->min_ns, &c->max_ns, &known);
	free(rb);
	free(wall);
	return 0;
}

/* What runner.c's check after round 1 will say about the worst cell (estimated here). */
static void plan_drain_note(const struct plan_ctx *c)
{
	double s1 = runner_scale_for(c->ro->time_scale, c->worst);
	double s10 = runner_scale_for(c->ro->time_scale, c->worst * 10);

	if (c->worst > 1)
		printf("refusal expected: phase %d, cell %s is planned shorter than the drain of its "
		       "queue (estimated); run with --time-scale %g or more (%g for 10 drains)\n",
		       c->worst_phase, c->worst_cell, s1, s10);
	else if (c->worst > 0.1)
		printf("warning: phase %d, cell %s is planned for less than 10 drains of its queue "
		       "(estimated); --time-scale %g or more avoids this\n",
		       c->worst_phase, c->worst_cell, s10);
}

int cmd_plan(int argc, char **argv)
{
	static const struct option opts[] = {
		{"target", required_argument, NULL, 't'},
		{"set", required_argument, NULL, 's'},
		{"time-scale", required_argument, NULL, 'S'},
		{"chunk", required_argument, NULL, 'c'},
		{"tbw", required_argument, NULL, 'W'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *target_spec = DEFAULT_TARGET;
	struct cli_strlist sets = {0};
	struct target_open_opts to = {.models_dir = cli_models_dir()};
	struct runner_opts ro = {.time_scale = 1.0};
	struct plan_ctx pc = {0};
	struct profile *p = NULL;
	struct target *t = NULL;
	char err[1024] = "", a[32], b[32], cap[32];
	struct plan pl = {0};
	struct cli_rated rated;
	double tbw = 0;
	int c, rc, code = EXIT_USAGE;

	optind = 1;
	opterr = 0; /* one line of our own for a bad option, as run and io */
	while ((c = getopt_long(argc, argv, ":t:s:S:c:W:h", opts, NULL)) != -1) {
		switch (c) {
		case 't': target_spec = optarg; break;
		case 'W':
			if (cli_opt_double("plan", "--tbw", optarg, &tbw))
				goto out;
			if (!(tbw > 0)) {
				cli_error("plan", "--tbw must be positive (TB written)");
				goto out;
			}
			break;
		case 's':
			if (cli_strlist_add(&sets, optarg)) {
				code = EXIT_FAILED;
				goto out;
			}
			break;
		case 'S':
			if (cli_opt_double("plan", "--time-scale", optarg, &ro.time_scale) ||
			    !(ro.time_scale > 0))
				goto out;
			break;
		case 'c':
			if (cli_opt_size("plan", "--chunk", optarg, &ro.chunk_bytes) ||
			    !ro.chunk_bytes)
				goto out;
			break;
		case 'h': usage(stdout); code = EXIT_OK; goto out;
		default: code = cli_opt_reject("plan", c, argv); goto out;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		goto out;
	}
	code = cli_load_profile("plan", argv[optind], &sets, &p);
	if (code)
		goto out;
	code = EXIT_USAGE;
	/* Read-only: plan never writes to a real target (a virtual SSD is private memory). */
	to.writable = false;
	to.seed = p->defaults.seed ? p->defaults.seed : 1;
	rc = target_open(target_spec, &to, &t, err, sizeof(err));
	if (rc) {
		cli_error("plan", "%s", err);
		code = EXIT_FAILED;
		goto out;
	}
	pc.t = t;
	pc.ti = target_info(t);
	pc.virt = target_caps(t) & TARGET_CAP_VIRTUAL_TIME;
	pc.scale = runner_time_scale(t, &ro);
	pc.ro = &ro;
	pc.seed = to.seed;
	pc.fill = profile_writes(p);
	printf("plan: %s on %s (%s, capacity %s%s), durations x%g%s\n", p->name, target_spec,
	       target_kind_name(pc.ti->kind), units_fmt_size(pc.ti->capacity, cap, sizeof(cap)),
	       profile_writes(p) ? ", DESTRUCTIVE" : ", read-only", pc.scale,
	       pc.virt ? " (target time: the virtual SSD runs faster than real time)" : "");
	printf("  # phase         writes       duration               settings\n");
	if (runner_plan(p, t, &ro, &pl) || plan_walk(&pc, &pl)) {
		cli_error("plan", "out of memory");
		code = EXIT_FAILED;
		goto out;
	}
	pc.bytes_lower_bound = profile_bytes_written(p, pc.ti->capacity, &pc.total_bytes) == -ENODATA;
	units_fmt_size(pc.total_bytes, cap, sizeof(cap));
	units_fmt_duration(pc.min_ns, a, sizeof(a));
	units_fmt_duration(pc.max_ns, b, sizeof(b));
	printf("total: writes %s%s; duration %s%s%s%s (target time%s)\n",
	       pc.bytes_lower_bound ? "at least " : pc.nstop ? "up to " : "", cap,
	       pc.min_ns == pc.max_ns && pc.nstop ? "up to " : "", a,
	       pc.min_ns == pc.max_ns ? "" : " .. ", pc.min_ns == pc.max_ns ? "" : b,
	       pc.nstop ? "; phases with a stop rule counted to the end of their amount" : "");
	if (pc.rounds_hi_bytes > 0) {
		/* the time-bound cells' writes, estimated per round above: what the drive sees */
		units_fmt_size(pc.total_bytes + (uint64_t)pc.rounds_lo_bytes, a, sizeof(a));
		units_fmt_size(pc.total_bytes + (uint64_t)pc.rounds_hi_bytes, b, sizeof(b));
		printf("with the rounds' writes estimated per round: about %s%s%s in all\n", a,
		       !strcmp(a, b) ? "" : " .. ", !strcmp(a, b) ? "" : b);
	}
	if (pc.virt) {
		units_fmt_duration(pc.wall_lo_ns, a, sizeof(a));
		units_fmt_duration(pc.wall_hi_ns, b, sizeof(b));
		printf("wall clock: about %s%s%s on this machine (the simulator's speed in the "
		       "probes)\n",
		       a, pc.wall_lo_ns == pc.wall_hi_ns ? "" : " .. ",
		       pc.wall_lo_ns == pc.wall_hi_ns ? "" : b);
	}
	/* the cool-down gates: their max_wait is in the longest duration above */
	{
		uint64_t cd = 0;
		size_t ncd = 0;

		for (size_t i = 0; i < pl.n; i++)
			if (pl.v[i].cooldown_ns) {
				cd += pl.v[i].cooldown_ns;
				ncd++;
			}
		if (ncd)
			printf("cooldown: up to %s in all before %zu phase%s (counted in the longest "
			       "duration)\n",
			       units_fmt_duration(cd, a, sizeof(a)), ncd, ncd == 1 ? "" : "s");
		else if (pc.virt && p->cooldown.set)
			printf("cooldown: skipped on the virtual SSD\n");
	}
	/* the rated endurance: the user's, else the drive database's for this model; silent on a
	 * virtual SSD or a file without --tbw (no drive to rate) */
	cli_rated_endurance(pc.ti, tbw, &rated);
	if (rated.known || pc.ti->kind == TARGET_KIND_BLOCKDEV) {
		char line[768];

		printf("endurance: %s\n", cli_endurance_line(pc.total_bytes, pc.bytes_lower_bound,
							     &rated, line, sizeof(line)));
	}
	plan_drain_note(&pc);
	code = EXIT_OK;
	if (pc.ti->kind == TARGET_KIND_BLOCKDEV) {
		/* what `run` would send the drive itself (issue 11 point 7); plan opened it without
		 * the identity read, so it has sent nothing */
		printf("drive commands of a run:\n");
		if (cli_drive_dry("plan", target_spec,
				  "at the run's start, at each phase's start and end, at each ramp's end "
				  "(during I/O) and at the run's end"))
			code = EXIT_FAILED;
	}
out:
	plan_release(&pl);
	target_close(t);
	profile_free(p);
	cli_strlist_release(&sets);
	return code;
}
