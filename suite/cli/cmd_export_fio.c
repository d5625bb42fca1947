/* SPDX-License-Identifier: MIT */
/*
 * cmd_export_fio: `ssdlab export-fio PROFILE [--target T] [--out DIR]` writes the profile as one
 * fio job file of stonewall'ed jobs, in the order ssdlab runs them (docs/fio.md), so that a
 * skeptic can run the same workloads with fio. What fio cannot express (rounds until steady
 * state, purges, idle waits, points chosen at run time) is written as the sequence ssdlab would
 * run at most, with a comment saying so. The workloads are resolved for the target as `run`
 * resolves them (range, lengths, block sizes the target cannot do); no I/O is issued.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/runflow.h"
#include "profile/plan.h"
#include "profile/profile.h"
#include "targets/target.h"

#define DEFAULT_TARGET "sim:client-tlc"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ssdlab export-fio PROFILE [--target T] [--out DIR] [--set KEY=VALUE]...\n\n"
		"Writes PROFILE as a fio job file: one job per workload ssdlab runs, in its order,\n"
		"each with stonewall (norandommap, randrepeat=0, direct=1, ioengine=io_uring, the data\n"
		"pattern, bs/bssplit, random_distribution=zoned, rwmixread, iodepth, numjobs,\n"
		"runtime/time_based or io_size). Rounds to steady state are written as max_rounds\n"
		"rounds; purges, idle waits and points chosen at run time as comments (docs/fio.md).\n\n"
		"  --target T        resolve ranges and lengths for T (a block device, a file or\n"
		"                    sim:MODEL; default " DEFAULT_TARGET "); a device or file is also\n"
		"                    fio's filename, a virtual SSD leaves ${SSDLAB_FIO_TARGET}\n"
		"  --out DIR         write DIR/PROFILE.fio (DIR is created) instead of standard output\n"
		"  --set KEY=VALUE   override a profile value, as for run\n"
		"  -h, --help        this text\n\n"
		"Exit 0 written, 1 failed (target, file), 2 usage or invalid profile.\n");
}

/* fio's job names: the phase, iteration, round and cell, with only [A-Za-z0-9._-]. */
static void job_name(char *buf, size_t len, int phase, unsigned rep, unsigned round, const char *key)
{
	size_t o = (size_t)snprintf(buf, len, "p%d.i%u.r%u.", phase, rep, round);

	for (const char *k = key; *k && o + 1 < len; k++)
		buf[o++] = (strchr("._-", *k) || (*k >= '0' && *k <= '9') || (*k >= 'a' && *k <= 'z') ||
			    (*k >= 'A' && *k <= 'Z'))
				   ? *k
				   : '_';
	buf[o < len ? o : len - 1] = '\0';
}

/*
 * Integer percentages of weights w[0..n) summing to 100 (fio's bssplit and zoned take whole
 * percents): each rounded down, the remainder given to the largest fractions first. Returns
 * true when some share was not a whole percent (the file says so).
 */
static bool percents(const double *w, unsigned n, unsigned *pct)
{
	double sum = 0, frac[JOB_MAX_BS > JOB_MAX_ZONES ? JOB_MAX_BS : JOB_MAX_ZONES];
	unsigned total = 0;
	bool inexact = false;

	for (unsigned i = 0; i < n; i++)
		sum += w[i];
	for (unsigned i = 0; i < n; i++) {
		double x = sum > 0 ? w[i] * 100.0 / sum : 0;

		pct[i] = (unsigned)x;
		frac[i] = x - pct[i];
		if (frac[i] > 1e-9)
			inexact = true;
		total += pct[i];
	}
	while (total < 100 && n) {
		unsigned best = 0;

		for (unsigned i = 1; i < n; i++)
			if (frac[i] > frac[best])
				best = i;
		pct[best]++;
		frac[best] = -1;
		total++;
	}
	return inexact;
}

static const char *fio_rw(enum rw_mode m)
{
	switch (m) {
	case RW_READ: return "read";
	case RW_WRITE: return "write";
	case RW_RANDREAD: return "randread";
	case RW_RANDWRITE: return "randwrite";
	case RW_RANDRW: return "randrw";
	case RW_RW: return "rw";
	}
	return "read";
}

/* One resolved workload as a stonewall'ed fio job. */
static void write_job(FILE *f, const char *name, const struct job_spec *s)
{
	bool random = rw_mode_random(s->rw);
	/* ssdlab's sequential threads share one cursor (engine/workload.h): one stream at
	 * threads x qd; fio's numjobs would each write their own pass */
	unsigned numjobs = random ? s->threads : 1;
	unsigned depth = random ? s->qd : s->threads * s->qd;
	unsigned pct[JOB_MAX_BS > JOB_MAX_ZONES ? JOB_MAX_BS : JOB_MAX_ZONES];
	double w[JOB_MAX_BS > JOB_MAX_ZONES ? JOB_MAX_BS : JOB_MAX_ZONES];

	fprintf(f, "\n[%s]\nstonewall\n", name);
	fprintf(f, "rw=%s\n", fio_rw(s->rw));
	if (s->rw == RW_RANDRW || s->rw == RW_RW)
		fprintf(f, "rwmixread=%u\n", s->rwmix_read);
	if (s->nbs == 1) {
		fprintf(f, "bs=%" PRIu32 "\n", s->bs[0].bs);
	} else {
		bool inexact;

		for (unsigned i = 0; i < s->nbs; i++)
			w[i] = s->bs[i].weight;
		inexact = percents(w, s->nbs, pct);
		if (inexact)
			fprintf(f, "# the split's weights are not whole percents: fio's are rounded\n");
		fprintf(f, "bssplit=");
		for (unsigned i = 0; i < s->nbs; i++)
			fprintf(f, "%s%" PRIu32 "/%u", i ? ":" : "", s->bs[i].bs, pct[i]);
		fprintf(f, "\n");
	}
	for (unsigned i = 0; i < s->nbs_dropped; i++)
		fprintf(f, "# block size %" PRIu32 " left out: the target cannot do it\n",
			s->bs_dropped[i].bs);
	if (random && s->align)
		fprintf(f, "blockalign=%" PRIu32 "\n", s->align);
	else if (random && s->nbs > 1)
		fprintf(f, "# ssdlab aligns each size to its largest power-of-two divisor; fio aligns "
			   "to blockalign (default: the smallest size)\n");
	fprintf(f, "offset=%" PRIu64 "\nsize=%" PRIu64 "\n", s->range_start,
		s->range_end - s->range_start);
	if (!random && s->seq_start && s->seq_start != s->range_start)
		fprintf(f, "# ssdlab starts this pass at byte %" PRIu64 " of the range (a resumed fill); "
			   "fio starts at its start\n",
			s->seq_start);
	if (s->dist == DIST_ZONED && random) {
		for (unsigned i = 0; i < s->nzones; i++)
			w[i] = s->zones[i].io_frac;
		if (percents(w, s->nzones, pct))
			fprintf(f, "# zone shares are not whole percents: fio's are rounded\n");
		fprintf(f, "random_distribution=zoned");
		{
			unsigned rpct[JOB_MAX_ZONES];

			for (unsigned i = 0; i < s->nzones; i++)
				w[i] = s->zones[i].range_frac;
			(void)percents(w, s->nzones, rpct);
			for (unsigned i = 0; i < s->nzones; i++)
				fprintf(f, ":%u/%u", pct[i], rpct[i]);
		}
		fprintf(f, "\n");
	}
	if (s->segments)
		fprintf(f, "# ssdlab confines random offsets to %u segments of %" PRIu64 " bytes "
			   "spread over the range (PTS-C ActiveRange); fio uses the whole range\n",
			s->segments, s->segment_bytes);
	fprintf(f, "iodepth=%u\nnumjobs=%u\n", depth, numjobs);
	if (s->time_ns) {
		fprintf(f, "runtime=%" PRIu64 "ms\ntime_based=1\n", (s->time_ns + 999999) / 1000000);
		if (s->amount_bytes)
			fprintf(f, "# ssdlab also stops at %" PRIu64 " bytes, whichever comes first\n",
				s->amount_bytes);
	} else if (s->amount_bytes) {
		/* the engine splits an amount evenly over the workers; fio's io_size is per job */
		fprintf(f, "io_size=%" PRIu64 "\n", s->amount_bytes / numjobs);
		if (s->amount_bytes % numjobs)
			fprintf(f, "# %" PRIu64 " bytes do not split evenly over %u jobs\n",
				s->amount_bytes, numjobs);
	}
	if (s->ramp_ns)
		fprintf(f, "ramp_time=%" PRIu64 "ms\n", (s->ramp_ns + 999999) / 1000000);
	if (s->ramp_bytes)
		fprintf(f, "# ssdlab ramps for %" PRIu64 " bytes first (not counted); fio ramps by "
			   "time only, so they are left out\n",
			s->ramp_bytes);
	if (rw_mode_writes(s->rw, s->rwmix_read)) {
		if (s->pattern == PATTERN_ZEROS)
			fprintf(f, "zero_buffers=1\n");
		else {
			fprintf(f, "refill_buffers=1\n");
			if (s->compressibility)
				fprintf(f, "buffer_compress_percentage=%u\n", s->compressibility);
		}
	}
	if (s->sqpoll)
		fprintf(f, "sqthread_poll=1\n");
	if (s->hipri)
		fprintf(f, "hipri=1\n");
}

struct export_ctx {
	FILE *f;
	const struct phase_env *env;
	size_t njobs;
};

/* A job of a phase resolved for the target, or a comment saying why it is not run. */
static int export_workload(struct export_ctx *c, const struct profile_workload *w, int phase,
			   unsigned rep, unsigned round, const char *key)
{
	struct job_spec s;
	char e[256], name[160];

	if (profile_workload_not_applicable(w, c->env->lbs, e, sizeof(e))) {
		fprintf(c->f, "# %s not applicable on this target: %s\n", key, e);
		return 0;
	}
	if (profile_workload_resolve(w, c->env->capacity, c->env->lbs, 1.0, &s, e, sizeof(e))) {
		cli_error("export-fio", "phase %d, %s: %s", phase, key, e);
		return -EINVAL;
	}
	job_name(name, sizeof(name), phase, rep, round, key);
	write_job(c->f, name, &s);
	c->njobs++;
	return 0;
}

static int export_step(struct export_ctx *c, const struct plan_step *st)
{
	const struct phase_kind *k = st->ph->kind;
	struct phase_job *jobs = NULL;
	char d[512];
	size_t n = 0;
	int rc = 0;

	d[0] = '\0';
	k->describe(st->ph->data, d, sizeof(d));
	fprintf(c->f, "\n# ---- phase %d (iteration %u): %s: %s\n", st->phase, st->repeat, k->name, d);
	if (k->body) {
		fprintf(c->f, "# a repeat: its body follows once per iteration\n");
		return 0;
	}
	if (!k->jobs) {
		fprintf(c->f, "# fio has no %s: ssdlab does it here (run it by hand, e.g. a purge "
			      "with nvme format / blkdiscard, an idle wait with sleep)\n",
			k->name);
		return 0;
	}
	rc = k->jobs(st->ph->data, &jobs, &n);
	if (rc) {
		cli_error("export-fio", "out of memory");
		return rc;
	}
	if (k->type == PHASE_ROUNDS) {
		if (st->len.rounds_lo == st->len.rounds_hi)
			fprintf(c->f, "# rounds: exactly %u rounds", st->len.rounds_hi);
		else
			fprintf(c->f,
				"# rounds: ssdlab runs %u..%u rounds, stopping at steady state; fio\n"
				"# cannot judge steady state, so all %u (max_rounds) are written",
				st->len.rounds_lo, st->len.rounds_hi, st->len.rounds_hi);
		fprintf(c->f, ". One job per round and cell,\n# named "
			      "p<phase>.i<iteration>.r<round>.<cell> (what analyze --fio reads)\n");
		for (unsigned r = 1; r <= st->len.rounds_hi && !rc; r++) {
			for (size_t i = 0; i < n && !rc; i++)
				if (!jobs[i].cell) /* the pre-write runs before each round */
					rc = export_workload(c, &jobs[i].w, st->phase, st->repeat, r,
							     jobs[i].key);
			for (size_t i = 0; i < n && !rc; i++)
				if (jobs[i].cell)
					rc = export_workload(c, &jobs[i].w, st->phase, st->repeat, r,
							     jobs[i].key);
		}
		goto out;
	}
	if (k->type == PHASE_WRITE_UNTIL)
		fprintf(c->f, "# write_until: ssdlab stops early when its rule holds; fio writes "
			      "the whole amount\n");
	else if (k->type != PHASE_PRECONDITION)
		fprintf(c->f, "# %s: ssdlab chooses points, waits or lengths at run time; written "
			      "here are the jobs one instance lists, once each\n",
			k->name);
	for (size_t i = 0; i < n && !rc; i++)
		rc = export_workload(c, &jobs[i].w, st->phase, st->repeat, 0, jobs[i].key);
out:
	free(jobs);
	return rc;
}

int cmd_export_fio(int argc, char **argv)
{
	static const struct option opts[] = {
		{"target", required_argument, NULL, 't'},
		{"out", required_argument, NULL, 'o'},
		{"set", required_argument, NULL, 's'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *target_spec = DEFAULT_TARGET, *outdir = NULL;
	struct cli_strlist sets = {0};
	struct target_open_opts to = {.models_dir = cli_models_dir()};
	struct profile *p = NULL;
	struct target *t = NULL;
	const struct target_info *ti;
	struct plan pl = {0};
	struct phase_env env = {0};
	struct export_ctx ec = {0};
	char err[1024] = "", path[4200];
	FILE *f = NULL;
	int c, rc, code = EXIT_USAGE;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:o:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 't': target_spec = optarg; break;
		case 'o': outdir = optarg; break;
		case 's':
			if (cli_strlist_add(&sets, optarg)) {
				code = EXIT_FAILED;
				goto out;
			}
			break;
		case 'h': usage(stdout); code = EXIT_OK; goto out;
		default: code = cli_opt_reject("export-fio", c, argv); goto out;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		goto out;
	}
	code = cli_load_profile("export-fio", argv[optind], &sets, &p);
	if (code)
		goto out;
	code = EXIT_FAILED;
	/* read-only: the target is opened for its capacity and logical block size */
	to.seed = p->defaults.seed ? p->defaults.seed : 1;
	rc = target_open(target_spec, &to, &t, err, sizeof(err));
	if (rc) {
		cli_error("export-fio", "%s", err);
		goto out;
	}
	ti = target_info(t);
	env = (struct phase_env){.capacity = ti->capacity, .scale = 1.0, .lbs = ti->logical_block_size};
	if (plan_build(&p->phases, &env, &pl)) {
		cli_error("export-fio", "out of memory");
		goto out;
	}
	if (outdir) {
		if (mkdir(outdir, 0777) && errno != EEXIST) {
			cli_error("export-fio", "cannot create %s: %s", outdir, strerror(errno));
			goto out;
		}
		snprintf(path, sizeof(path), "%s/%s.fio", outdir, p->name);
		f = fopen(path, "w");
		if (!f) {
			cli_error("export-fio", "cannot write %s: %s", path, strerror(errno));
			goto out;
		}
	}
	ec.f = f ? f : stdout;
	ec.env = &env;
	fprintf(ec.f,
		"# fio job file written by `ssdlab export-fio %s --target %s` (docs/fio.md)\n"
		"# profile %s: %s\n"
		"# target: capacity %" PRIu64 " bytes, logical block %" PRIu32 " bytes; durations as "
		"the profile writes them (time scale 1)\n"
		"# Every job is stonewall'ed: fio runs them one after another, as ssdlab does.\n"
		"\n[global]\n",
		argv[optind], target_spec, p->name, p->description ? p->description : "", ti->capacity,
		ti->logical_block_size);
	if (ti->kind == TARGET_KIND_SIM)
		fprintf(ec.f, "# a virtual SSD: set SSDLAB_FIO_TARGET to the device fio should use\n"
			      "filename=${SSDLAB_FIO_TARGET}\n");
	else
		fprintf(ec.f, "filename=%s\n", ti->path);
	fprintf(ec.f, "ioengine=io_uring\ndirect=1\nnorandommap\nrandrepeat=0\n"
		      "group_reporting\nthread\n");
	for (size_t i = 0; i < pl.n; i++)
		if (export_step(&ec, &pl.v[i]))
			goto out;
	if (fflush(ec.f) || ferror(ec.f)) {
		cli_error("export-fio", "write error");
		goto out;
	}
	if (f) {
		rc = fclose(f);
		f = NULL;
		if (rc) {
			cli_error("export-fio", "cannot write %s: %s", path, strerror(errno));
			goto out;
		}
		printf("%s: %zu jobs\n", path, ec.njobs);
	}
	code = EXIT_OK;
out:
	if (f)
		fclose(f);
	plan_release(&pl);
	target_close(t);
	profile_free(p);
	cli_strlist_release(&sets);
	return code;
}
