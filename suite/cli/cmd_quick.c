/* SPDX-License-Identifier: MIT */
/*
 * cmd_quick: `ssdlab quick TARGET`, the honest version of the one-liners everyone runs first
 * (hdparm -t, dd oflag=direct, fio randrw; issue 14, point 4). Each of those misleads in its own
 * way: hdparm -t reads LBAs that were never written (an SSD answers them without touching NAND),
 * dd writes a few GB that land in the SLC cache, and a fio file that was laid out but never
 * written reads back zeros from the file system without any I/O.
 *
 * What it runs, in this order (the write first so that every read reaches written data):
 *   1. sequential write, 128 KiB at QD32, over [0, bound): bound = the smaller of --write-time
 *      (2 min, scaled on a virtual SSD) and --write-max (default 80 % of the free space, and on
 *      a file at most what keeps 15 % of the file system free); the per-interval series goes
 *      through analysis/slc.h's piecewise fit, and a write whose rate never dropped is flagged
 *      "still in the SLC cache";
 *   2. sequential read, 128 KiB at QD32, of what step 1 wrote;
 *   3. 4 KiB random read and write at QD1 and QD32 inside that region, --time each.
 * Every step reports throughput and latency percentiles (p50, p99, p99.9, max).
 *
 * A subcommand rather than a bundled profile: a profile runs on a target that exists, while
 * quick on a mounted file system has to size, create and remove its own file (also on SIGINT),
 * and it prints one short text answer instead of a results directory.
 *
 * TARGET: a block device (written: --yes-destroy), sim:MODEL, or a directory in a mounted file
 * system, where it creates ssdlab-quick-PID.dat and removes it at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <json-c/json.h>

#include "analysis/slc.h"
#include "cli/cli.h"
#include "cli/gate.h"
#include "cli/options.h"
#include "cli/quick_bound.h"
#include "cli/runflow.h"
#include "cli/signals.h"
#include "engine/engine.h"
#include "targets/target.h"
#include "base/jsonnum.h"
#include "base/units.h"

#define CMD "quick"
#define MIB (1024ull * 1024)
#define SEC 1000000000ull
#define BTRFS_MAGIC_ 0x9123683E
#define ZFS_MAGIC_ 0x2FC12FC1

struct quick_opts {
	const char *target;
	uint64_t write_ns, write_max, test_ns;
	const char *yes_destroy;
	bool json;
};

/* One step's figures, kept as numbers so that the text line and the JSON object (--json) are
 * printed from the same values. */
struct step_fig {
	double iops, mbps;
	uint64_t bytes, elapsed_ns;
	uint64_t lat_ns[4]; /* p50, p99, p99.9, max */
};

/* The sequential write's SLC fit, for --json (the text has it in the verdict line). */
struct slc_fig {
	double cache_bytes, in_cache_mbps, post_cache_mbps, level0_mbps;
};

struct step {
	const char *name;
	enum rw_mode rw;
	uint32_t bs;
	unsigned qd;
};

static void usage(FILE *f)
{
	fprintf(
	    f,
	    "usage: ssdlab quick TARGET [options]\n"
	    "\n"
	    "A first look at a drive that does not mislead: a bounded sequential write (flagged\n"
	    "when it never left the SLC cache), an O_DIRECT sequential read of what it wrote, and\n"
	    "4 KiB random reads and writes at QD1 and QD32 there, with latency percentiles.\n"
	    "TARGET is a block device (written: needs --yes-destroy), sim:MODEL, or a directory "
	    "in\n"
	    "a mounted file system: ssdlab creates its own file there, keeps at least 15%% of the\n"
	    "file system free, writes the file fully before reading it and removes it at the end\n"
	    "(also on Ctrl-C).\n"
	    "\n"
	    "  --write-time DURATION  the sequential write stops after this long (2m)\n"
	    "  --write-max SIZE       ... or after this much (default and at most: 80%% of the "
	    "free\n"
	    "                         space or of the capacity)\n"
	    "  --time DURATION        each random test (10s); on sim:MODEL both durations are\n"
	    "                         scaled like every profile's (the model's time scale)\n"
	    "  --yes-destroy=ID       confirm writing to a block device (its serial, or its path)\n"
	    "  --json                 the same figures as one JSON object on stdout\n"
	    "\n"
	    "exit codes: 0 ok, 1 I/O error, 2 bad usage, 3 refused (safety, file system too "
	    "full),\n"
	    "            4 not supported (no O_DIRECT), 130 interrupted\n");
}

enum { OPT_WTIME = 256, OPT_WMAX, OPT_TIME, OPT_YES, OPT_JSON, OPT_HELP };

static const struct option long_opts[] = {
    {"write-time", required_argument, NULL, OPT_WTIME},
    {"write-max", required_argument, NULL, OPT_WMAX},
    {"time", required_argument, NULL, OPT_TIME},
    {"yes-destroy", required_argument, NULL, OPT_YES},
    {"json", no_argument, NULL, OPT_JSON},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

static int parse_args(int argc, char **argv, struct quick_opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->write_ns = 120 * SEC;
	o->test_ns = 10 * SEC;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_WTIME:
			if (cli_opt_duration(CMD, "--write-time", optarg, &o->write_ns))
				return EXIT_USAGE;
			break;
		case OPT_WMAX:
			if (cli_opt_size(CMD, "--write-max", optarg, &o->write_max))
				return EXIT_USAGE;
			break;
		case OPT_TIME:
			if (cli_opt_duration(CMD, "--time", optarg, &o->test_ns))
				return EXIT_USAGE;
			break;
		case OPT_YES:
			o->yes_destroy = optarg;
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
	if (!o->write_ns || !o->test_ns) {
		cli_error(CMD, "--write-time and --time must be longer than 0");
		return EXIT_USAGE;
	}
	if (optind != argc - 1) {
		cli_error(CMD, optind >= argc
				   ? "no TARGET given (see ssdlab quick --help)"
				   : "one TARGET expected, got more (see ssdlab quick --help)");
		return EXIT_USAGE;
	}
	o->target = argv[optind];
	return 0;
}

/* The file's size in directory dir (quick_bound), with the statvfs figures in *free_b and
 * *total_b. Returns 0, -ENOSPC when too little fits, or -errno of statvfs. */
static int file_bound(const char *dir, uint64_t write_max, uint64_t *size, uint64_t *free_b,
		      uint64_t *total_b)
{
	struct statvfs sv;

	if (statvfs(dir, &sv))
		return -errno;
	*free_b = (uint64_t)sv.f_bavail * sv.f_frsize;
	*total_b = (uint64_t)sv.f_blocks * sv.f_frsize;
	return quick_bound(*free_b, *total_b, write_max, 1, size);
}

/* What a compressing file system means for the figures: a note, or "" when it has none. */
static void compression_note(const char *dir, const char *file, char *buf, size_t len)
{
	struct statfs sf;
	int fd, flags = 0;
	bool compr = false;

	buf[0] = 0;
	if (statfs(dir, &sf))
		return;
	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		/* btrfs (chattr +c, or a compression property) and others mark the file */
		compr = !ioctl(fd, FS_IOC_GETFLAGS, &flags) && (flags & FS_COMPR_FL);
		close(fd);
	}
	if ((unsigned long)sf.f_type == BTRFS_MAGIC_ || (unsigned long)sf.f_type == ZFS_MAGIC_ ||
	    compr)
		snprintf(buf, len,
			 "%s%s: it may compress what it stores (btrfs: compress= mount option or "
			 "property; zfs: compression property), and zeros (dd if=/dev/zero) would "
			 "have measured the compressor, not the drive. ssdlab writes random, "
			 "incompressible data, so the figures above are the drive's.",
			 (unsigned long)sf.f_type == BTRFS_MAGIC_ ? "btrfs"
			 : (unsigned long)sf.f_type == ZFS_MAGIC_ ? "zfs"
								  : "the file system",
			 compr ? " (compression is set on the file)" : "");
}

static void fmt_lat(const uint64_t lat_ns[4], char *buf, size_t len)
{
	char a[24], b[24], c[24], d[24];

	units_fmt_duration(lat_ns[0], a, sizeof(a));
	units_fmt_duration(lat_ns[1], b, sizeof(b));
	units_fmt_duration(lat_ns[2], c, sizeof(c));
	units_fmt_duration(lat_ns[3], d, sizeof(d));
	snprintf(buf, len, "p50 %s, p99 %s, p99.9 %s, max %s", a, b, c, d);
}

/* The SLC verdict of the sequential write from its series: a line into buf; *in_cache true
 * when the fit found no drop. Returns 0, or -EINVAL when the series is too short to tell. */
static int slc_verdict(const struct job_result *r, bool *in_cache, struct slc_fig *f, char *buf,
		       size_t len)
{
	uint64_t *t = calloc(r->nseries + 1, sizeof(*t)), *b = calloc(r->nseries + 1, sizeof(*b));
	uint64_t cum = 0;
	struct slc_params p;
	struct slc_result s;
	char x[32];
	size_t n = 0;
	int rc = -ENOMEM;

	if (!t || !b)
		goto out;
	for (size_t i = 0; i < r->nseries; i++) {
		cum += r->series[i].d[IO_WRITE].bytes;
		if (n && r->series[i].t_ns <= t[n - 1])
			continue; /* the last row may end at the same time as the one before */
		t[n] = r->series[i].t_ns;
		b[n++] = cum;
	}
	slc_params_default(&p);
	rc = slc_fit(t, b, NULL, n, &p, &s);
	if (rc) {
		snprintf(buf, len, "too few samples (%zu) to tell whether it left the SLC cache",
			 n);
		goto out;
	}
	*in_cache = !s.cache_detected;
	f->cache_bytes = s.cache_detected ? s.cache_bytes : NAN;
	f->in_cache_mbps = s.cache_detected ? s.in_cache_mbps : NAN;
	f->post_cache_mbps = s.cache_detected ? s.post_cache_mbps : NAN;
	f->level0_mbps = s.level[0].mbps;
	if (s.cache_detected)
		snprintf(
		    buf, len,
		    "dropped from %.0f to %.0f MB/s after %s (%.0f bytes): it left a fast cache "
		    "(on an SSD its SLC cache; on a loop device or a file maybe a layer below)",
		    s.in_cache_mbps, s.post_cache_mbps,
		    units_fmt_size((uint64_t)s.cache_bytes, x, sizeof(x)), s.cache_bytes);
	else
		snprintf(buf, len,
			 "still in the SLC cache: the rate never dropped, so %.0f MB/s is "
			 "the cache's speed, not the sustained one",
			 s.level[0].mbps);
out:
	free(t);
	free(b);
	return rc;
}

/* One job; prints its line. Returns 0, or an exit code (with the message printed). */
static int run_step(struct target *t, const struct step *st, struct job_spec *s,
		    volatile sig_atomic_t *stop, struct job_result *r, struct step_fig *f,
		    char *line, size_t len)
{
	struct engine_hooks h = {.stop = stop};
	const struct dir_stats *d;
	char why[256], lat[160], amt[32];
	const char *no_io;
	int rc;

	s->rw = st->rw;
	s->bs[0].bs = st->bs;
	s->bs[0].weight = 1;
	s->nbs = 1;
	s->qd = st->qd;
	s->threads = 1;
	fprintf(stderr, "ssdlab quick: %s ...\n", st->name);
	rc = engine_run(t, s, &h, r);
	if (rc) {
		cli_error(CMD, "%s: %s", st->name, r->errmsg);
		return rc == -EOPNOTSUPP ? EXIT_CAPABILITY : EXIT_FAILED;
	}
	if (r->interrupted) {
		cli_error(CMD, "interrupted");
		return EXIT_INTERRUPTED;
	}
	if (r->error) {
		cli_error(CMD, "%s: %s", st->name, r->errmsg);
		return EXIT_FAILED;
	}
	no_io = job_no_io_reason(r, why, sizeof(why));
	if (no_io) {
		cli_error(CMD, "%s: %s", st->name, no_io);
		return EXIT_FAILED;
	}
	d = &r->d[st->rw == RW_READ || st->rw == RW_RANDREAD ? IO_READ : IO_WRITE];
	f->iops = job_iops(r);
	f->mbps = job_bw(r) / 1e6;
	f->bytes = d->bytes;
	f->elapsed_ns = r->elapsed_ns;
	f->lat_ns[0] = hist_percentile(&d->lat, 50);
	f->lat_ns[1] = hist_percentile(&d->lat, 99);
	f->lat_ns[2] = hist_percentile(&d->lat, 99.9);
	f->lat_ns[3] = d->lat.max;
	fmt_lat(f->lat_ns, lat, sizeof(lat));
	snprintf(line, len, "  %-22s %9.0f IOPS %8.1f MB/s  %s in %.1f s; latency %s\n", st->name,
		 f->iops, f->mbps, units_fmt_size(f->bytes, amt, sizeof(amt)),
		 (double)f->elapsed_ns / 1e9, lat);
	return 0;
}

static const char *cache_word(bool have_verdict, bool in_cache)
{
	return have_verdict ? (in_cache ? "STILL IN THE SLC CACHE" : "past the SLC cache")
			    : "cache unknown";
}

/* Adds key: v, where v NULL is a JSON null (not applicable here) and not, as for
 * jsonnum_build_add, an allocation failure; the first error stays in *e. */
static void add_opt(struct json_object *o, const char *key, struct json_object *v, int *e)
{
	if (*e) {
		json_object_put(v);
		return;
	}
	*e = jsonnum_add(o, key, v);
}

/* --json: the text's figures as one object on stdout, numbers unrounded (the text rounds them);
 * docs/quick.md lists the keys. Returns an exit code. */
static int print_json(const struct target_info *ti, const char *dir, const struct step *steps,
		      const struct step_fig *figs, size_t nsteps, uint64_t region, uint64_t bound,
		      uint64_t write_ns, uint64_t free_b, uint64_t total_b, bool have_verdict,
		      bool in_cache, const struct slc_fig *sf, const char *verdict,
		      const char *note)
{
	static const char *const pk[4] = {"p50", "p99", "p99.9", "max"};
	struct json_object *j = json_object_new_object(), *a = json_object_new_array(), *x, *l, *v;
	int e = 0;

	jsonnum_build_add(j, "target", json_object_new_string(ti->path), &e);
	jsonnum_build_add(j, "kind", json_object_new_string(target_kind_name(ti->kind)), &e);
	add_opt(j, "dir", dir ? json_object_new_string(dir) : NULL, &e);
	jsonnum_build_num(j, "region_bytes", (double)region, &e);
	jsonnum_build_num(j, "bound_bytes", (double)bound, &e);
	jsonnum_build_num(j, "write_time_ns", (double)write_ns, &e);
	add_opt(j, "fs_free_bytes", dir ? jsonnum_new((double)free_b) : NULL, &e);
	add_opt(j, "fs_total_bytes", dir ? jsonnum_new((double)total_b) : NULL, &e);
	for (size_t i = 0; i < nsteps; i++) {
		x = json_object_new_object();
		l = json_object_new_object();
		jsonnum_build_add(x, "name", json_object_new_string(steps[i].name), &e);
		jsonnum_build_num(x, "iops", figs[i].iops, &e);
		jsonnum_build_num(x, "mbps", figs[i].mbps, &e);
		jsonnum_build_num(x, "bytes", (double)figs[i].bytes, &e);
		jsonnum_build_num(x, "elapsed_ns", (double)figs[i].elapsed_ns, &e);
		for (int k = 0; k < 4; k++)
			jsonnum_build_num(l, pk[k], (double)figs[i].lat_ns[k], &e);
		jsonnum_build_add(x, "latency_ns", l, &e);
		jsonnum_build_push(a, x, &e);
	}
	jsonnum_build_add(j, "steps", a, &e);
	v = json_object_new_object();
	jsonnum_build_add(v, "known", json_object_new_boolean(have_verdict), &e);
	add_opt(v, "in_cache", have_verdict ? json_object_new_boolean(in_cache) : NULL, &e);
	jsonnum_build_num(v, "cache_bytes", sf->cache_bytes, &e);
	jsonnum_build_num(v, "in_cache_mbps", sf->in_cache_mbps, &e);
	jsonnum_build_num(v, "post_cache_mbps", sf->post_cache_mbps, &e);
	jsonnum_build_num(v, "first_level_mbps", sf->level0_mbps, &e);
	jsonnum_build_add(v, "text", json_object_new_string(verdict), &e);
	jsonnum_build_add(j, "seq_write_verdict", v, &e);
	add_opt(j, "note", note[0] ? json_object_new_string(note) : NULL, &e);
	jsonnum_build_add(j, "headline", json_object_new_string(cache_word(have_verdict, in_cache)),
			  &e);
	if (e) {
		json_object_put(j);
		cli_error(CMD, "building the JSON: %s", strerror(-e));
		return EXIT_FAILED;
	}
	printf("%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
							     JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
	return EXIT_OK;
}

int cmd_quick(int argc, char **argv)
{
	static const struct step steps[] = {
	    {"seq write 128k qd32", RW_WRITE, 128 * 1024, 32},
	    {"seq read 128k qd32", RW_READ, 128 * 1024, 32},
	    {"rand read 4k qd1", RW_RANDREAD, 4096, 1},
	    {"rand read 4k qd32", RW_RANDREAD, 4096, 32},
	    {"rand write 4k qd1", RW_RANDWRITE, 4096, 1},
	    {"rand write 4k qd32", RW_RANDWRITE, 4096, 32},
	};
	struct target_open_opts oo = {.models_dir = cli_models_dir(), .writable = true, .seed = 1};
	char lines[6][320], verdict[256] = "", note[600] = "", err[512], refusal[4200];
	char file[4096] = "", sz[32], fr[32], tot[32];
	const char *dir = NULL;
	struct cli_stop stop = {0};
	volatile sig_atomic_t *stopf = NULL;
	struct target *t = NULL;
	const struct target_info *ti;
	struct quick_opts o;
	struct target_spec spec;
	struct job_result r;
	struct job_spec s;
	struct stat st;
	struct step_fig figs[6];
	struct slc_fig sf = {NAN, NAN, NAN, NAN};
	uint64_t bound = 0, region, free_b = 0, total_b = 0, scale_ns;
	bool in_cache = false, have_verdict = false;
	double scale;
	int rc, ret = EXIT_FAILED;

	rc = parse_args(argc, argv, &o);
	if (rc < 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (rc)
		return rc;
	target_spec_parse(o.target, &spec);
	if (!spec.sim && !stat(o.target, &st) && S_ISDIR(st.st_mode)) {
		dir = o.target;
		rc = file_bound(dir, o.write_max, &bound, &free_b, &total_b);
		if (rc == -ENOSPC) {
			cli_error(
			    CMD,
			    "refusing to write in %s: %s free of %s, and ssdlab keeps at least "
			    "15%% of a file system free and needs %s for a meaningful test",
			    dir, units_fmt_size(free_b, fr, sizeof(fr)),
			    units_fmt_size(total_b, tot, sizeof(tot)),
			    units_fmt_size(QUICK_MIN_BYTES, sz, sizeof(sz)));
			return EXIT_SAFETY;
		}
		if (rc) {
			cli_error(CMD, "%s: %s", dir, strerror(-rc));
			return EXIT_FAILED;
		}
		snprintf(file, sizeof(file), "%s/ssdlab-quick-%ld.dat", dir, (long)getpid());
		oo.create = true;
		oo.size = bound;
	} else if (!spec.sim && !stat(o.target, &st) && S_ISBLK(st.st_mode)) {
		snprintf(refusal, sizeof(refusal), "refusing to write to %s", o.target);
		ret = cli_gate_in_use(CMD, o.target, refusal, 0);
		if (ret)
			return ret;
		oo.drive_ident = true;
	} else if (!spec.sim) {
		cli_error(CMD,
			  "%s: expected a block device, a directory in a mounted file system or "
			  "sim:MODEL",
			  o.target);
		return EXIT_USAGE;
	}
	rc = target_open(file[0] ? file : o.target, &oo, &t, err, sizeof(err));
	if (rc) {
		if (file[0] && rc == -EINVAL)
			cli_error(CMD,
				  "%s (without O_DIRECT every figure would be the page cache's: "
				  "what dd without oflag=direct and hdparm -T measure)",
				  err);
		else
			cli_error(CMD, "%s", err);
		ret = cli_open_exit_code(rc);
		goto out;
	}
	ti = target_info(t);
	if (!file[0]) {
		if (quick_bound(ti->capacity, ti->capacity, o.write_max, 0, &bound)) {
			cli_error(CMD, "%s: %" PRIu64 " bytes is too small for the test", o.target,
				  ti->capacity);
			ret = EXIT_USAGE;
			goto out;
		}
		snprintf(refusal, sizeof(refusal), "refusing to write to %s", ti->path);
		ret = cli_gate_confirm(CMD, ti, "write", o.yes_destroy, refusal);
		if (ret)
			goto out;
	}
	if (cli_signals_install(&stop) == 0)
		stopf = &stop.flag;
	scale = ti->time_scale > 0 ? ti->time_scale : 1;

	/* 1. the sequential write, which is also the fill of a new file */
	memset(&s, 0, sizeof(s));
	s.seed = 1;
	s.pattern = PATTERN_RANDOM; /* incompressible: a compressing drive or fs cannot shrink it */
	s.range_start = 0;
	s.range_end = bound;
	s.amount_bytes = bound;
	s.time_ns = (uint64_t)((double)o.write_ns * scale);
	scale_ns = s.time_ns;
	/* a sample every 1-2 ms: a write the amount ends after 0.1 s (200 MiB on a fast loop
	 * device) still gives the fit enough samples (16 at least), and 2 min give 60000 rows,
	 * which slc_fit's grid search costs no more than 1000 */
	s.interval_ns = scale_ns / 2000;
	if (s.interval_ns > 2000000)
		s.interval_ns = 2000000;
	if (s.interval_ns < 1000000)
		s.interval_ns = 1000000;
	ret = run_step(t, &steps[0], &s, stopf, &r, &figs[0], lines[0], sizeof(lines[0]));
	if (ret) {
		job_result_release(&r);
		goto out;
	}
	region = r.d[IO_WRITE].bytes - r.d[IO_WRITE].bytes % MIB;
	have_verdict = !slc_verdict(&r, &in_cache, &sf, verdict, sizeof(verdict));
	if (!have_verdict && !verdict[0])
		snprintf(verdict, sizeof(verdict), "out of memory fitting the series");
	job_result_release(&r);
	rc = target_flush(t);
	if (rc) {
		cli_error(CMD, "flush: %s", strerror(-rc));
		ret = EXIT_FAILED;
		goto out;
	}
	if (region < QUICK_MIN_BYTES) {
		cli_error(CMD,
			  "the sequential write reached only %" PRIu64 " bytes in %s; give a "
			  "longer --write-time",
			  region, units_fmt_duration(scale_ns, sz, sizeof(sz)));
		ret = EXIT_FAILED;
		goto out;
	}

	/* 2 and 3: reads and random I/O inside what step 1 wrote, never elsewhere (an unwritten
	 * LBA reads from no NAND, an unwritten file extent from no device) */
	for (size_t i = 1; i < sizeof(steps) / sizeof(steps[0]); i++) {
		memset(&s, 0, sizeof(s));
		s.seed = 1 + i;
		s.pattern = PATTERN_RANDOM;
		s.range_end = region;
		s.time_ns = (uint64_t)((double)o.test_ns * scale);
		if (steps[i].rw == RW_READ)
			s.amount_bytes = region; /* one pass at most */
		ret = run_step(t, &steps[i], &s, stopf, &r, &figs[i], lines[i], sizeof(lines[i]));
		job_result_release(&r);
		if (ret)
			goto out;
	}
	if (file[0])
		compression_note(dir, file, note, sizeof(note));

	if (o.json) {
		ret = print_json(ti, dir, steps, figs, sizeof(steps) / sizeof(steps[0]), region,
				 bound, scale_ns, free_b, total_b, have_verdict, in_cache, &sf,
				 verdict, note);
		goto out;
	}
	printf("quick: %s (%s)%s%s\n", ti->path, target_kind_name(ti->kind), file[0] ? " in " : "",
	       file[0] ? dir : "");
	printf("  region: %s (%" PRIu64 " bytes) written sequentially, bound %s (%" PRIu64
	       " bytes)",
	       units_fmt_size(region, sz, sizeof(sz)), region,
	       units_fmt_size(bound, fr, sizeof(fr)), bound);
	printf(" or %s", units_fmt_duration(scale_ns, tot, sizeof(tot)));
	if (file[0])
		printf(" (file system: %s free of %s before the test; 15%% kept free)",
		       units_fmt_size(free_b, fr, sizeof(fr)),
		       units_fmt_size(total_b, tot, sizeof(tot)));
	printf("\n");
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		fputs(lines[i], stdout);
	printf("  seq write: %s\n", verdict);
	printf("  data: random, incompressible; reads only of LBAs written above; O_DIRECT (no "
	       "page cache)\n");
	if (note[0])
		printf("  note: %s\n", note);
	/* headline: one line a reader can quote, with the caveat attached */
	printf("\nQuick          seq write %s%s, 4k rand read qd1/qd32 and write qd1/qd32 above\n",
	       cache_word(have_verdict, in_cache),
	       have_verdict && in_cache ? " (not the sustained speed)" : "");
	ret = EXIT_OK;
out:
	if (stopf)
		cli_signals_restore();
	target_close(t);
	if (file[0] && unlink(file) && errno != ENOENT)
		cli_error(CMD, "could not remove %s: %s", file, strerror(errno));
	return ret;
}
