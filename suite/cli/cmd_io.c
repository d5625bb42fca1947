/* SPDX-License-Identifier: MIT */
/*
 * cmd_io: `ssdlab io TARGET`, one ad-hoc job from the command line for people who come from
 * fio, dd and hdparm. It opens the target, passes every write through the safety gate (gate.c),
 * makes sure a file is written before it is read (job_spec_fill), runs the engine once and prints
 * the figures as text or as one JSON object ("schema": 1; io_report.c).
 *
 * Order of checks before any I/O: options (exit 2) -> the device is not in use (exit 3) ->
 * open -> the job fits the target, e.g. no 512 B I/O on a 4Kn device (exit 2) -> the user
 * confirmed the write for this device (exit 3) -> a file to be read has no holes.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/drive_dry.h"
#include "cli/gate.h"
#include "cli/io_report.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/runflow.h"
#include "cli/signals.h"
#include "host/devinfo.h"
#include "engine/engine.h"
#include "results/snapshot.h"
#include "targets/target.h"
#include "base/units.h"

#define CMD "io"

struct io_opts {
	const char *target;
	struct job_spec s;
	struct amount length; /* --time / --amount */
	struct amount ramp;
	struct range range;
	bool have_range;
	uint64_t create_size;
	const char *yes_destroy;
	bool json;
	bool dry; /* --dry-run: list the drive commands, send nothing */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ssdlab io TARGET [options]\n"
		"\n"
		"Runs one job on a block device, a regular file or a virtual SSD (sim:MODEL) through\n"
		"io_uring with O_DIRECT and prints IOPS, bandwidth and latency percentiles.\n"
		"\n"
		"  --rw MODE             read, write, randread, randwrite, randrw, rw (default randread)\n"
		"  --rwmix-read N        percent of reads in randrw/rw (default 50)\n"
		"  --bs SIZE[/W:...]     block size, or a weighted split such as 4k/70:64k/30 (4k);\n"
		"                        weights are relative (a note says what they came to)\n"
		"  --qd N                I/Os in flight per thread, 1..1024 (1)\n"
		"  --threads N           threads, each with its own queue (1)\n"
		"  --time DURATION       run for this long after the ramp, > 0 (10s unless --amount)\n"
		"  --amount AMOUNT       stop after this much I/O: 10g, or 2x the capacity\n"
		"  --ramp TIME|AMOUNT    run first without counting: 5s, 1g or 1x\n"
		"  --range RANGE         LBA range: 0-50%%, 1g-2g (whole target)\n"
		"  --random-distribution uniform | zoned:IO/RANGE:... e.g. zoned:50/5:30/15:20/80\n"
		"  --pattern P           random (incompressible, default) or zeros\n"
		"  --compressibility N%% make each 4 KiB block N%% zeros\n"
		"  --seed N              PRNG seed (recorded; default 1)\n"
		"  --size SIZE           create a file target of this size when it does not exist\n"
		"  --sqpoll, --hipri     io_uring submission polling / polled completions\n"
		"  --yes-destroy=ID      confirm writing: the device's serial (or WWN), or its path when\n"
		"                        it reports none; files ssdlab creates need no confirmation\n"
		"  --json                print one JSON object\n"
		"  --dry-run             print the ATA or NVMe commands it would send to the drive\n"
		"                        (identity, counter snapshots) and stop: nothing is sent\n"
		"\n"
		"exit codes: 0 ok, 1 I/O error, 2 bad usage, 3 refused for safety, 4 not supported,\n"
		"            130 interrupted\n");
}

enum {
	OPT_RW = 256,
	OPT_RWMIX,
	OPT_BS,
	OPT_QD,
	OPT_THREADS,
	OPT_TIME,
	OPT_AMOUNT,
	OPT_RAMP,
	OPT_RANGE,
	OPT_DIST,
	OPT_PATTERN,
	OPT_COMPRESS,
	OPT_SEED,
	OPT_SIZE,
	OPT_SQPOLL,
	OPT_HIPRI,
	OPT_YES,
	OPT_JSON,
	OPT_DRY,
	OPT_HELP,
};

static const struct option long_opts[] = {
	{"rw", required_argument, NULL, OPT_RW},
	{"rwmix-read", required_argument, NULL, OPT_RWMIX},
	{"bs", required_argument, NULL, OPT_BS},
	{"qd", required_argument, NULL, OPT_QD},
	{"iodepth", required_argument, NULL, OPT_QD},
	{"threads", required_argument, NULL, OPT_THREADS},
	{"time", required_argument, NULL, OPT_TIME},
	{"amount", required_argument, NULL, OPT_AMOUNT},
	{"ramp", required_argument, NULL, OPT_RAMP},
	{"range", required_argument, NULL, OPT_RANGE},
	{"random-distribution", required_argument, NULL, OPT_DIST},
	{"pattern", required_argument, NULL, OPT_PATTERN},
	{"compressibility", required_argument, NULL, OPT_COMPRESS},
	{"seed", required_argument, NULL, OPT_SEED},
	{"size", required_argument, NULL, OPT_SIZE},
	{"sqpoll", no_argument, NULL, OPT_SQPOLL},
	{"hipri", no_argument, NULL, OPT_HIPRI},
	{"yes-destroy", required_argument, NULL, OPT_YES},
	{"json", no_argument, NULL, OPT_JSON},
	{"dry-run", no_argument, NULL, OPT_DRY},
	{"help", no_argument, NULL, OPT_HELP},
	{NULL, 0, NULL, 0},
};

/* "zoned:50/5:30/15:20/80" -> zones (percent of I/O / percent of range). */
static int parse_dist(const char *arg, struct job_spec *s)
{
	char buf[256], *save = NULL;
	unsigned n = 0;

	if (!strcmp(arg, "uniform")) {
		s->dist = DIST_UNIFORM;
		return 0;
	}
	if (strncmp(arg, "zoned:", 6) || strlen(arg) >= sizeof(buf))
		goto bad;
	snprintf(buf, sizeof(buf), "%s", arg + 6);
	for (char *tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		double io, rg;

		if (!slash || n == JOB_MAX_ZONES)
			goto bad;
		*slash = 0;
		if (units_parse_double(tok, &io) || units_parse_double(slash + 1, &rg))
			goto bad;
		s->zones[n].io_frac = io / 100;
		s->zones[n].range_frac = rg / 100;
		n++;
	}
	if (!n)
		goto bad;
	s->dist = DIST_ZONED;
	s->nzones = n;
	return 0;
bad:
	cli_error(CMD, "--random-distribution: expected uniform or zoned:IO%%/RANGE%%:..., such as "
		       "zoned:50/5:30/15:20/80, got '%s'",
		  arg);
	return -EINVAL;
}

static int parse_u32_opt(const char *opt, const char *arg, unsigned lo, unsigned hi, unsigned *v)
{
	uint64_t x;

	if (cli_opt_u64(CMD, opt, arg, &x))
		return -EINVAL;
	if (x < lo || x > hi) {
		cli_error(CMD, "%s: expected %u..%u, got %s", opt, lo, hi, arg);
		return -ERANGE;
	}
	*v = (unsigned)x;
	return 0;
}

static int parse_amount_opt(const char *opt, const char *arg, struct amount *a)
{
	if (units_parse_amount(arg, a)) {
		cli_error(CMD, "%s: expected %s, got '%s'", opt, units_expect_amount(), arg);
		return -EINVAL;
	}
	return 0;
}

/* Returns 0, or the exit code to return (with the message printed), or -1 for --help. */
static int parse_args(int argc, char **argv, struct io_opts *o)
{
	char err[256];
	int c;

	memset(o, 0, sizeof(*o));
	o->s.rw = RW_RANDREAD;
	o->s.rwmix_read = 50;
	o->s.bs[0].bs = 4096;
	o->s.bs[0].weight = 1;
	o->s.nbs = 1;
	o->s.qd = 1;
	o->s.threads = 1;
	o->s.seed = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		const char *arg = optarg;
		double d;
		uint64_t v;

		switch (c) {
		case OPT_RW:
			if (rw_mode_parse(arg, &o->s.rw)) {
				cli_error(CMD, "--rw: expected read, write, randread, randwrite, randrw "
					       "or rw, got '%s'",
					  arg);
				return EXIT_USAGE;
			}
			break;
		case OPT_RWMIX:
			if (parse_u32_opt("--rwmix-read", arg, 0, 100, &o->s.rwmix_read))
				return EXIT_USAGE;
			break;
		case OPT_BS:
			if (bs_split_parse(arg, o->s.bs, &o->s.nbs, err, sizeof(err))) {
				cli_error(CMD, "--bs: %s", err);
				return EXIT_USAGE;
			}
			break;
		case OPT_QD:
			if (parse_u32_opt("--qd", arg, 1, 1024, &o->s.qd))
				return EXIT_USAGE;
			break;
		case OPT_THREADS:
			if (parse_u32_opt("--threads", arg, 1, 64, &o->s.threads))
				return EXIT_USAGE;
			break;
		case OPT_TIME:
			if (cli_opt_duration(CMD, "--time", arg, &v))
				return EXIT_USAGE;
			/* 0 would mean "no time given" below and silently run the 10 s default. */
			if (!v) {
				cli_error(CMD, "--time must be longer than 0, got '%s' (to stop after "
					       "an amount of I/O, give --amount)",
					  arg);
				return EXIT_USAGE;
			}
			o->s.time_ns = v;
			break;
		case OPT_AMOUNT:
			if (parse_amount_opt("--amount", arg, &o->length))
				return EXIT_USAGE;
			break;
		case OPT_RAMP:
			if (parse_amount_opt("--ramp", arg, &o->ramp))
				return EXIT_USAGE;
			break;
		case OPT_RANGE:
			if (units_parse_range(arg, &o->range)) {
				cli_error(CMD, "--range: expected %s, got '%s'", units_expect_range(),
					  arg);
				return EXIT_USAGE;
			}
			o->have_range = true;
			break;
		case OPT_DIST:
			if (parse_dist(arg, &o->s))
				return EXIT_USAGE;
			break;
		case OPT_PATTERN:
			if (!strcmp(arg, "zeros")) {
				o->s.pattern = PATTERN_ZEROS;
			} else if (!strcmp(arg, "random")) {
				o->s.pattern = PATTERN_RANDOM;
			} else {
				cli_error(CMD, "--pattern: expected random or zeros, got '%s'", arg);
				return EXIT_USAGE;
			}
			break;
		case OPT_COMPRESS:
			if (units_parse_percent(arg, &d) || d < 0 || d > 1) {
				cli_error(CMD, "--compressibility: expected %s, got '%s'",
					  units_expect_percent(), arg);
				return EXIT_USAGE;
			}
			o->s.compressibility = (unsigned)(d * 100 + 0.5);
			break;
		case OPT_SEED:
			if (cli_opt_u64(CMD, "--seed", arg, &o->s.seed))
				return EXIT_USAGE;
			break;
		case OPT_SIZE:
			if (cli_opt_size(CMD, "--size", arg, &o->create_size))
				return EXIT_USAGE;
			break;
		case OPT_SQPOLL:
			o->s.sqpoll = true;
			break;
		case OPT_HIPRI:
			o->s.hipri = true;
			break;
		case OPT_YES:
			o->yes_destroy = arg;
			break;
		case OPT_DRY:
			o->dry = true;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_HELP:
		case 'h':
			return -1;
		default:
			return cli_opt_reject(CMD, c, argv);
		}
	}
	if (optind != argc - 1) {
		cli_error(CMD, optind >= argc ? "no TARGET given (see ssdlab io --help)"
					      : "one TARGET expected, got more (see ssdlab io --help)");
		return EXIT_USAGE;
	}
	o->target = argv[optind];
	if (bs_split_normalised(o->s.bs, o->s.nbs, err, sizeof(err)))
		fprintf(stderr, "ssdlab io: note: --bs %s\n", err);
	if (o->length.kind == AMOUNT_TIME) { /* --amount 60s means --time 60s */
		o->s.time_ns = o->length.ns;
		o->length.kind = AMOUNT_NONE;
	}
	if (!o->s.time_ns && o->length.kind == AMOUNT_NONE)
		o->s.time_ns = 10ull * 1000000000u;
	return 0;
}

/* Lengths that depend on the capacity: --amount 2x, --ramp 1x, --range. */
static int resolve(struct io_opts *o, const struct target_info *ti)
{
	uint32_t lbs = ti->logical_block_size ? ti->logical_block_size : 512;
	struct range whole = {.percent = true, .lo = 0, .hi = 1};
	int rc;

	rc = range_resolve(o->have_range ? &o->range : &whole, ti->capacity, lbs, &o->s.range_start,
			   &o->s.range_end);
	if (rc) {
		cli_error(CMD, "--range: the range is empty or past the capacity of %" PRIu64 " bytes",
			  ti->capacity);
		return EXIT_USAGE;
	}
	if (o->length.kind != AMOUNT_NONE)
		o->s.amount_bytes = amount_bytes(&o->length, ti->capacity);
	if (o->ramp.kind == AMOUNT_TIME)
		o->s.ramp_ns = o->ramp.ns;
	else if (o->ramp.kind != AMOUNT_NONE)
		o->s.ramp_bytes = amount_bytes(&o->ramp, ti->capacity);
	return 0;
}

/* Writes a file that ssdlab just created, so that reads reach the device (an extended file
 * reads back zeros from the page cache's point of view without any I/O). */
static int fill_file(struct target *t, const struct io_opts *o, volatile sig_atomic_t *stop)
{
	const struct target_info *ti = target_info(t);
	struct engine_hooks h = {.stop = stop};
	struct job_spec f;
	struct job_result r;
	int rc;

	job_spec_fill(&f, ti->capacity, ti->logical_block_size);
	f.seed = o->s.seed;
	f.pattern = o->s.pattern;
	f.compressibility = o->s.compressibility;
	if (!o->json)
		fprintf(stderr, "ssdlab io: filling the new file %s (%" PRIu64 " bytes) before reading it\n",
			ti->path, ti->capacity);
	rc = engine_run(t, &f, &h, &r);
	if (!rc && r.error)
		rc = r.error;
	if (rc)
		cli_error(CMD, "filling %s failed: %s", ti->path, r.errmsg);
	else if (r.interrupted)
		rc = -EINTR;
	job_result_release(&r);
	if (!rc)
		rc = target_flush(t);
	return rc;
}

/* An existing file about to be read must have no holes or unwritten extents. */
static int check_file_written(const struct target_info *ti)
{
	uint64_t unwritten = 0;
	int fd = open(ti->path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return 0; /* the target is open; this check is best effort */
	rc = devinfo_file_unwritten(fd, ti->capacity, &unwritten);
	close(fd);
	if (!rc && unwritten) {
		cli_error(CMD,
			  "%s has %" PRIu64 " bytes of holes or unwritten (fallocated) extents: "
			  "reading them returns zeros without touching the device. Write the file "
			  "first, e.g. ssdlab io %s --rw write --bs 1m --qd 8 --amount 1x "
			  "--yes-destroy=%s",
			  ti->path, unwritten, ti->path, ti->path);
		return EXIT_USAGE;
	}
	return 0;
}

/* Progress on a terminal: one line rewritten in place (cli/progress), about once per interval. */
struct progress_ctx {
	struct cli_progress prog;
	char cell[96];
};

static void on_progress(const struct engine_progress *ep, void *arg)
{
	struct progress_ctx *pc = arg;
	char t[32], total[32], bytes[32], iops[32], line[256];

	units_fmt_duration(ep->t_ns, t, sizeof(t));
	units_fmt_size(ep->bytes, bytes, sizeof(bytes));
	units_fmt_double(ep->iops, 0, iops, sizeof(iops));
	if (ep->total_ns) {
		units_fmt_duration(ep->total_ns, total, sizeof(total));
		snprintf(line, sizeof(line), "ssdlab io: %s: %s of %s, %s, %s IOPS", pc->cell, t,
			 total, bytes, iops);
	} else {
		units_fmt_size(ep->total_bytes, total, sizeof(total));
		snprintf(line, sizeof(line), "ssdlab io: %s: %s of %s (%s), %s IOPS", pc->cell,
			 bytes, total, t, iops);
	}
	cli_progress_line(&pc->prog, line);
}

/* The engine's hooks: progress (pc first, so that on_progress may take the whole context) and
 * the snapshot at the start of the measured part. */
struct run_ctx {
	struct progress_ctx pc;
	struct target *t;
	struct snapshot *mark; /* filled at the measured start */
};

static void on_measure_start(uint64_t t_ns, void *arg)
{
	struct run_ctx *rc = arg;

	(void)t_ns;
	if (target_snapshot(rc->t, rc->mark))
		memset(rc->mark, 0, sizeof(*rc->mark));
	snprintf(rc->mark->label, sizeof(rc->mark->label), "ramp-end");
}

/* ---- the command ------------------------------------------------------------------------ */

int cmd_io(int argc, char **argv)
{
	struct io_opts o;
	struct target *t = NULL;
	struct target_open_opts oo = {.models_dir = cli_models_dir(), .drive_ident = true};
	struct job_result r;
	struct snapshot *snap = NULL;
	struct cli_stop stop = {0};
	struct run_ctx ctx;
	struct progress_ctx *pc = &ctx.pc;
	struct engine_hooks hooks = {0};
	char why[256];
	const char *no_io;
	struct stat st;
	char err[512], refusal[4200];
	struct target_spec spec;
	bool exists, writes, is_sim;
	int rc, ret;

	rc = parse_args(argc, argv, &o);
	if (rc < 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (rc)
		return rc;
	if (o.dry)
		/* before the gate and the open: a dry run opens nothing and sends nothing */
		return cli_drive_dry(CMD, o.target,
				     "at the start, when the measured part begins (during I/O after a ramp) "
				     "and at the end")
			       ? EXIT_FAILED
			       : EXIT_OK;
	writes = rw_mode_writes(o.s.rw, o.s.rwmix_read);
	target_spec_parse(o.target, &spec);
	is_sim = spec.sim;
	exists = !stat(o.target, &st);

	/* Step 1 of the safety gate before even opening: a mounted device is refused with the
	 * mount point rather than with a bare EBUSY from O_EXCL. */
	if (writes && exists && !is_sim) {
		snprintf(refusal, sizeof(refusal), "refusing to write to %s", o.target);
		ret = cli_gate_in_use(CMD, o.target, refusal, 0);
		if (ret)
			return ret;
	}
	oo.writable = writes || (!exists && o.create_size);
	oo.create = !exists && o.create_size;
	oo.size = o.create_size;
	oo.seed = o.s.seed;
	rc = target_open(o.target, &oo, &t, err, sizeof(err));
	if (rc) {
		cli_error(CMD, "%s", err);
		return cli_open_exit_code(rc);
	}
	ret = resolve(&o, target_info(t));
	if (ret)
		goto out;
	rc = job_validate(&o.s, target_info(t), err, sizeof(err));
	if (rc) {
		cli_error(CMD, "%s: %s", o.target, err);
		ret = EXIT_USAGE;
		goto out;
	}
	if (writes) {
		snprintf(refusal, sizeof(refusal), "refusing to write to %s", target_info(t)->path);
		ret = cli_gate_confirm(CMD, target_info(t), "write", o.yes_destroy, refusal);
		if (ret)
			goto out;
	}
	if (cli_signals_install(&stop) == 0)
		hooks.stop = &stop.flag;
	if (rw_mode_reads(o.s.rw, o.s.rwmix_read) && target_info(t)->kind == TARGET_KIND_FILE) {
		if (target_info(t)->created_by_ssdlab) {
			rc = fill_file(t, &o, hooks.stop);
			if (rc) {
				ret = rc == -EINTR ? EXIT_INTERRUPTED : EXIT_FAILED;
				goto out;
			}
		} else {
			ret = check_file_written(target_info(t));
			if (ret)
				goto out;
		}
	}

	snap = calloc(3, sizeof(*snap));
	if (!snap) {
		ret = EXIT_FAILED;
		goto out;
	}
	if (target_snapshot(t, &snap[0]))
		memset(&snap[0], 0, sizeof(snap[0]));
	memset(&ctx, 0, sizeof(ctx));
	ctx.t = t;
	ctx.mark = &snap[1];
	hooks.measure_start = on_measure_start;
	hooks.arg = &ctx;
	if (isatty(STDERR_FILENO) && !o.json &&
	    (o.s.time_ns + o.s.ramp_ns > 3000000000ull || o.s.amount_bytes)) {
		cli_progress_init(&pc->prog, stderr, false, 0);
		snprintf(pc->cell, sizeof(pc->cell), "%s qd %u x %u", rw_mode_name(o.s.rw), o.s.qd,
			 o.s.threads);
		hooks.progress = on_progress;
	}
	rc = engine_run(t, &o.s, &hooks, &r);
	cli_progress_finish(&pc->prog); /* ends the in-place line, if one was drawn */
	if (rc) {
		cli_error(CMD, "%s: %s", o.target, r.errmsg);
		ret = rc == -EOPNOTSUPP || rc == -ENOTSUP ? EXIT_CAPABILITY
		      : rc == -EINVAL			  ? EXIT_USAGE
							  : EXIT_FAILED;
		job_result_release(&r);
		goto out;
	}
	if (target_snapshot(t, &snap[2]))
		memset(&snap[2], 0, sizeof(snap[2]));
	no_io = job_no_io_reason(&r, why, sizeof(why));
	if (no_io) { /* 0 IOPS would be a figure; there is none */
		cli_error(CMD, "%s: %s", o.target, no_io);
		ret = EXIT_FAILED;
		job_result_release(&r);
		goto out;
	}
	if (o.json && io_print_json(&o.s, target_info(t), &r, snap)) {
		cli_error(CMD, "out of memory writing the JSON output");
		ret = EXIT_FAILED;
		job_result_release(&r);
		goto out;
	} else if (!o.json)
		io_print_text(&o.s, target_info(t), &r, snap);
	ret = EXIT_OK;
	if (r.error) {
		cli_error(CMD, "%s: %s (the job stopped there)", o.target, r.errmsg);
		ret = EXIT_FAILED;
	} else if (r.interrupted) {
		cli_error(CMD, "interrupted");
		ret = EXIT_INTERRUPTED;
	}
	job_result_release(&r);
out:
	if (snap) {
		for (int i = 0; i < 3; i++)
			snapshot_release(&snap[i]);
		free(snap);
	}
	if (hooks.stop)
		cli_signals_restore();
	target_close(t);
	return ret;
}
