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

#include "cli.h"
#include "cli_util.h"
#include "engine.h"
#include "profile.h"
#include "runner.h"
#include "target.h"
#include "units.h"

#define DEFAULT_TARGET "sim:client-tlc"
/* A real device's write speed when we may not measure it: slower than any SSD, so that an
 * estimate errs on the long side. */
#define REAL_DEFAULT_BPS (100.0 * 1000 * 1000)
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
	const struct runner_opts *ro;
};

static void usage(FILE *f)
{
	fprintf(f, "usage: ssdlab plan PROFILE [--target T] [--set KEY=VALUE]... [--time-scale F]\n"
		   "                   [--chunk SIZE]\n\n"
		   "Shows the phases of a profile on a target, the bytes each writes and an\n"
		   "estimated duration (target time), and the chunks a long writing phase is\n"
		   "recorded in (--chunk as for run); nothing is written. Default target "
		   DEFAULT_TARGET ".\n");
}

/* Write speed of a workload in bytes per second: a probe on a virtual SSD, else the default. */
static double speed_of(struct plan_ctx *c, const struct profile_workload *w, const char **how)
{
	struct job_spec s;
	struct job_result res;
	char e[256];
	double bps = REAL_DEFAULT_BPS;

	*how = "assumed 100 MB/s: a conservative default for a real device";
	if (!c->virt)
		return bps;
	if (profile_workload_resolve(w, c->ti->capacity, c->ti->logical_block_size, 1.0, &s, e,
				     sizeof(e)))
		return bps;
	s.time_ns = 0;
	s.ramp_ns = s.ramp_bytes = 0;
	s.amount_bytes = c->ti->capacity / 16 < PROBE_MAX_BYTES ? c->ti->capacity / 16
								: PROBE_MAX_BYTES;
	s.seed = c->seed;
	memset(&res, 0, sizeof(res));
	if (!job_validate(&s, c->ti, e, sizeof(e)) && !engine_run(c->t, &s, NULL, &res) &&
	    !res.error && job_bw(&res) > 0) {
		bps = job_bw(&res);
		*how = "probed on a fresh virtual SSD: optimistic once the drive is full";
	}
	job_result_release(&res);
	return bps;
}

static void line(int phase, int depth, const char *kind, const char *desc, const char *bytes,
		 const char *dur)
{
	printf("%3d %*s%-13s %-12s %-22s %s\n", phase, depth * 2, "", kind, bytes, dur, desc);
}

static uint64_t ns_of_bytes(uint64_t bytes, double bps)
{
	return bps > 0 ? (uint64_t)((double)bytes / bps * 1e9) : 0;
}

/* Duration of a workload of a given length: time-bound exactly, amount-bound at a speed. */
static uint64_t workload_ns(struct plan_ctx *c, const struct profile_workload *w,
			    const char **how)
{
	uint64_t b;

	if (w->length.kind == AMOUNT_TIME)
		return (uint64_t)((double)w->length.ns * c->scale);
	b = amount_bytes(&w->length, c->ti->capacity);
	if (!b)
		b = c->ti->capacity; /* one pass */
	return ns_of_bytes(b, speed_of(c, w, how));
}

static void walk(struct plan_ctx *c, const struct phase_list *l, int *next, int depth,
		 uint64_t mult);

static void plan_phase(struct plan_ctx *c, const struct profile_phase *ph, int *next, int depth,
		       uint64_t mult)
{
	const struct phase_kind *k = ph->kind;
	char desc[512] = "", bytes[48] = "-", dur[96] = "-", a[32], b[32];
	const char *how = NULL;
	uint64_t by = 0, lo = 0, hi = 0;
	int phase = (*next)++;
	int rc = k->bytes ? k->bytes(ph->data, c->ti->capacity, &by) : 0;

	if (k->describe)
		k->describe(ph->data, desc, sizeof(desc));
	if (rc == -ENODATA)
		snprintf(bytes, sizeof(bytes), "time-bound");
	else if (by) {
		units_fmt_size(by, bytes, sizeof(bytes));
	}

	switch (k->type) {
	case PHASE_PRECONDITION:
	case PHASE_WRITE_UNTIL: {
		const struct phase_write *pw = ph->data;

		lo = hi = workload_ns(c, &pw->w, &how);
		if (pw->max_time_ns && (uint64_t)((double)pw->max_time_ns * c->scale) < lo)
			lo = hi = (uint64_t)((double)pw->max_time_ns * c->scale);
		/* How a crash-safe run records it (runner.h): chunks of bytes for a byte amount
		 * (a round_time of write_until cuts by time instead). */
		if (by && !(k->type == PHASE_WRITE_UNTIL && pw->round_time_ns)) {
			uint64_t cb = runner_chunk_bytes(c->t, c->ro);

			units_fmt_size(cb, a, sizeof(a));
			snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
				 "; recorded in %" PRIu64 " chunks of %s", (by + cb - 1) / cb, a);
		}
		break;
	}
	case PHASE_ROUNDS: {
		const struct phase_rounds *pr = ph->data;
		struct profile_cell *cells = NULL;
		size_t n = 0;
		uint64_t round_ns;

		if (profile_rounds_cells(pr, &cells, &n))
			break;
		round_ns = n * workload_ns(c, &pr->base, &how);
		if (pr->has_pre_write)
			round_ns += workload_ns(c, &pr->pre_write, &how);
		free(cells);
		lo = round_ns * (pr->has_steady_state ? pr->ss.window : pr->count);
		hi = round_ns * (pr->has_steady_state ? pr->ss.max_rounds : pr->count);
		break;
	}
	case PHASE_IDLE:
		lo = hi = (uint64_t)((double)((const struct phase_idle *)ph->data)->time_ns *
				     c->scale);
		break;
	case PHASE_PURGE: /* a discard here (no real purge), then its settle idle */
		lo = hi = (uint64_t)((double)runner_purge_settle_ns(c->t, ph->data) * c->scale);
		if (lo)
			snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc),
				 "; a discard on this target, not a PTS purge");
		break;
	case PHASE_REPEAT: {
		const struct phase_repeat *rp = ph->data;

		line(phase, depth, k->name, desc, bytes, "");
		walk(c, &rp->phases, next, depth + 1, mult * rp->count);
		return;
	}
	default:
		break;
	}
	if (hi) {
		units_fmt_duration(lo, a, sizeof(a));
		units_fmt_duration(hi, b, sizeof(b));
		if (lo == hi)
			snprintf(dur, sizeof(dur), "%s", a);
		else
			snprintf(dur, sizeof(dur), "%s .. %s", a, b);
	}
	c->min_ns += lo * mult;
	c->max_ns += hi * mult;
	line(phase, depth, k->name, desc, bytes, dur);
	if (how)
		printf("%*s(speed %s)\n", 36 + depth * 2, "", how);
}

static void walk(struct plan_ctx *c, const struct phase_list *l, int *next, int depth,
		 uint64_t mult)
{
	for (size_t i = 0; i < l->n; i++)
		plan_phase(c, &l->v[i], next, depth, mult);
}

int cmd_plan(int argc, char **argv)
{
	static const struct option opts[] = {
		{"target", required_argument, NULL, 't'},
		{"set", required_argument, NULL, 's'},
		{"time-scale", required_argument, NULL, 'S'},
		{"chunk", required_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *target_spec = DEFAULT_TARGET;
	struct cli_strlist sets = {0};
	struct target_open_opts to = {0};
	struct runner_opts ro = {.time_scale = 1.0};
	struct plan_ctx pc = {0};
	struct profile *p = NULL;
	struct target *t = NULL;
	char err[1024] = "", a[32], b[32], cap[32];
	int c, rc, next = 0, code = EXIT_USAGE;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:s:S:c:h", opts, NULL)) != -1) {
		switch (c) {
		case 't': target_spec = optarg; break;
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
		default: usage(stderr); goto out;
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
	printf("plan: %s on %s (%s, capacity %s%s), durations x%g%s\n", p->name, target_spec,
	       pc.ti->kind, units_fmt_size(pc.ti->capacity, cap, sizeof(cap)),
	       profile_writes(p) ? ", DESTRUCTIVE" : ", read-only", pc.scale,
	       pc.virt ? " (target time: the virtual SSD runs faster than real time)" : "");
	printf("  # phase         writes       duration               settings\n");
	walk(&pc, &p->phases, &next, 0, 1);
	pc.bytes_lower_bound = profile_bytes_written(p, pc.ti->capacity, &pc.total_bytes) == -ENODATA;
	units_fmt_size(pc.total_bytes, cap, sizeof(cap));
	units_fmt_duration(pc.min_ns, a, sizeof(a));
	units_fmt_duration(pc.max_ns, b, sizeof(b));
	printf("total: writes %s%s; duration %s%s%s (target time)\n",
	       pc.bytes_lower_bound ? "at least " : "", cap, a, pc.min_ns == pc.max_ns ? "" : " .. ",
	       pc.min_ns == pc.max_ns ? "" : b);
	code = EXIT_OK;
out:
	target_close(t);
	profile_free(p);
	cli_strlist_release(&sets);
	return code;
}
