/* SPDX-License-Identifier: MIT */
/*
 * `ssdlab run PROFILE --target T`: loads and validates a profile, opens the target, passes the
 * safety gate for profiles that write to a real target, creates the results directory and its
 * manifest, and hands over to the runner; at the end the analysis runs and the headline figures
 * are printed with where the results are (cli_run_and_analyze).
 */
#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <inttypes.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/like.h"
#include "cli/drive_dry.h"
#include "cli/endurance.h"
#include "cli/clock.h"
#include "cli/options.h"
#include "cli/runflow.h"
#include "cli/runsettings.h"
#include "host/devinfo.h"
#include "base/jsonnum.h"
#include "profile/profile.h"
#include "results/results.h"
#include "run/host_facts.h"
#include "run/runner.h"
#include "targets/target.h"

#define DEFAULT_TARGET "sim:client-tlc"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ssdlab run PROFILE [--target T] [options]\n"
		"       ssdlab run --like DIR [--target T] [options]\n\n"
		"Runs a profile (a path or a bundled name, see `ssdlab profiles`) on a target and\n"
		"writes a results directory; at the end the analysis runs and the headline figures\n"
		"are printed.\n\n"
		"  --target T          block device, file or sim:MODEL (default " DEFAULT_TARGET ")\n"
		"  --out DIR           results directory (default\n"
		"                      results/<profile>-<target>-<UTC time>/)\n"
		"  --like DIR          repeat the run recorded in DIR: its profile (text, extends\n"
		"                      parents, --set overrides), seed, time scale, chunks and\n"
		"                      --strict-pts;\n"
		"                      on its target unless --target names another\n"
		"  --time-scale F      multiply every duration of the profile by F (smoke runs)\n"
		"  --set KEY=VALUE     override a profile value by its path, e.g.\n"
		"                      --set phases.2.rounds.cell_time=30s (repeatable)\n"
		"  --seed N            run seed (default: the profile's, else 1)\n"
		"  --size SIZE         create a file target of this size when it does not exist\n"
		"  --chunk SIZE        record a precondition / write_until amount in chunks of SIZE\n"
		"                      (default 16g, scaled like durations on the virtual SSD); a\n"
		"                      crash loses at most the chunk in flight\n"
		"  --strict-pts        never stop a rounds phase on an early steady-state verdict\n"
		"                      (steady_state.early): run on to the SNIA window; the early\n"
		"                      verdict is still computed and reported\n"
		"  --tbw N             the drive's rated endurance in TB written (recorded in the\n"
		"                      manifest; else the drive database's rating, where known)\n"
		"  --warning-c N       the temperature (Celsius) a phase is flagged as throttled\n"
		"                      at, where the drive reports no warning level of its own\n"
		"  --yes-destroy=ID    confirm destroying the data on a real target: its serial or\n"
		"                      WWN, or its path where it reports neither\n"
		"  --quiet             print nothing but errors (no progress, headline or\n"
		"                      results line)\n"
		"  --verbose           also the per-phase lines before the headline\n"
		"  --dry-run           print the ATA or NVMe commands the run would send to the\n"
		"                      drive and stop (nothing is sent; `plan` shows the phases)\n"
		"  --help\n\n"
		"Ctrl-C stops at a safe point (exit 130) and prints the command that resumes.\n"
		"Exit codes: 0 ok (also when steady state was not reached: flagged), 1 run failed,\n"
		"2 bad usage or profile, 3 refused for safety, 4 target lacks a capability, 130\n"
		"interrupted.\n");
}

/* The CLI's part of the manifest: how the run was asked for. */
static int manifest_add_cli(struct json_object *m, int argc, char **argv,
			    const struct cli_strlist *sets, const char *yes_destroy)
{
	struct json_object *cl = json_object_new_array(), *sa = json_object_new_array();
	char when[32];
	int rc;

	if (!cl || !sa) {
		json_object_put(cl);
		json_object_put(sa);
		return -ENOMEM;
	}
	rc = jsonnum_push(cl, json_object_new_string("ssdlab"));
	for (int i = 0; !rc && i < argc; i++)
		rc = jsonnum_push(cl, json_object_new_string(argv[i]));
	for (size_t i = 0; !rc && i < sets->n; i++)
		rc = jsonnum_push(sa, json_object_new_string(sets->v[i]));
	if (rc) {
		json_object_put(cl);
		json_object_put(sa);
		return rc;
	}
	rc = jsonnum_add(m, "command_line", cl);
	if (rc) {
		json_object_put(sa);
		return rc;
	}
	rc = jsonnum_add(m, "sets", sa);
	if (!rc)
		rc = jsonnum_add(m, "started_utc",
				 json_object_new_string(cli_utc_iso(when, sizeof(when))));
	if (!rc)
		rc = jsonnum_add(m, "confirmed_by",
				 yes_destroy ? json_object_new_string(yes_destroy) : NULL);
	return rc;
}

/*
 * A profile that only reads, on a real target: a fresh or trimmed SSD answers never-written LBAs
 * without touching the NAND, and unlike the virtual SSD nobody can see its map. Warns (a file's
 * holes, which read as zeros without any I/O, are counted) and marks the manifest, so that the
 * summary flags it. Returns 0 or -ENOMEM.
 */
static int warn_reads_without_fill(const struct profile *p, struct target *t,
				   struct json_object *manifest, bool quiet)
{
	const struct target_info *ti = target_info(t);
	uint64_t holes = 0;
	char what[PATH_MAX + 128] = "";

	if (profile_writes(p) || ti->kind == TARGET_KIND_SIM)
		return 0;
	if (ti->kind == TARGET_KIND_FILE) {
		int fd = open(ti->path, O_RDONLY | O_CLOEXEC);

		if (fd >= 0 && !devinfo_file_unwritten(fd, ti->capacity, &holes) && holes)
			snprintf(what, sizeof(what), "; %" PRIu64 " bytes of %s are holes or unwritten "
						     "extents, read as zeros without any I/O",
				 holes, ti->path);
		if (fd >= 0)
			close(fd);
	}
	if (!quiet)
		fprintf(stderr,
			"ssdlab run: warning: '%s' only reads %s and nothing fills it first: on a "
			"fresh or trimmed SSD, never-written LBAs are answered without touching the "
			"NAND%s (fill it first, e.g. ssdlab io %s --rw write --bs 1m --qd 8 --amount "
			"1x --yes-destroy=...)\n",
			p->name ? p->name : "?", ti->path, what, ti->path);
	return jsonnum_add(manifest, "reads_without_fill", json_object_new_boolean(true));
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{"target", required_argument, NULL, 't'},
		{"like", required_argument, NULL, 'L'},
		{"out", required_argument, NULL, 'o'},
		{"time-scale", required_argument, NULL, 'S'},
		{"set", required_argument, NULL, 's'},
		{"seed", required_argument, NULL, 'e'},
		{"chunk", required_argument, NULL, 'c'},
		{"size", required_argument, NULL, 'z'},
		{"yes-destroy", required_argument, NULL, 'y'},
		{"tbw", required_argument, NULL, 'W'},
		{"strict-pts", no_argument, NULL, 'P'},
		{"warning-c", required_argument, NULL, 'T'},
		{"dry-run", no_argument, NULL, 'n'},
		{"quiet", no_argument, NULL, 'q'},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *target_spec = NULL, *out = NULL, *yes = NULL, *like_dir = NULL;
	struct cli_like like = {0};
	struct cli_strlist sets = {0};
	struct cli_run cr = {.cmd = "run", .time_scale = 1.0};
	struct target_open_opts to = {.models_dir = cli_models_dir(), .drive_ident = true};
	struct json_object *manifest = NULL;
	struct results_facts facts = {0};
	struct drive_settings *settings = NULL;
	struct target_spec spec;
	struct results *res = NULL;
	struct profile *p = NULL;
	struct target *t = NULL;
	char dir[4096], err[1024] = "";
	bool have_seed = false, dry = false, profile_opts = false;
	double tbw = 0, warning_c = NAN;
	struct cli_rated rated;
	int c, rc, lock = -1, code = EXIT_USAGE;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:L:o:S:s:e:c:z:y:W:T:Pnqvh", opts, NULL)) != -1) {
		switch (c) {
		case 't': target_spec = optarg; break;
		case 'L': like_dir = optarg; break;
		case 'W':
			if (cli_opt_double("run", "--tbw", optarg, &tbw))
				goto out;
			if (!(tbw > 0)) {
				cli_error("run", "--tbw must be positive (TB written)");
				goto out;
			}
			break;
		case 'T':
			if (cli_opt_double("run", "--warning-c", optarg, &warning_c))
				goto out;
			if (!(warning_c > -273.15 && warning_c <= 150)) {
				cli_error("run", "--warning-c must be a temperature in Celsius, at most 150");
				goto out;
			}
			break;
		case 'o': out = optarg; break;
		case 'S':
			profile_opts = true;
			if (cli_opt_double("run", "--time-scale", optarg, &cr.time_scale))
				goto out;
			if (!(cr.time_scale > 0)) {
				cli_error("run", "--time-scale must be positive");
				goto out;
			}
			break;
		case 's':
			profile_opts = true;
			if (!strchr(optarg, '=')) {
				cli_error("run", "--set needs KEY=VALUE, got '%s'", optarg);
				goto out;
			}
			if (cli_strlist_add(&sets, optarg)) {
				code = EXIT_FAILED;
				goto out;
			}
			break;
		case 'e':
			profile_opts = true;
			if (cli_opt_u64("run", "--seed", optarg, &cr.seed))
				goto out;
			have_seed = true;
			break;
		case 'c':
			profile_opts = true;
			if (cli_opt_size("run", "--chunk", optarg, &cr.chunk_bytes))
				goto out;
			if (!cr.chunk_bytes) {
				cli_error("run", "--chunk must be positive");
				goto out;
			}
			break;
		case 'z':
			if (cli_opt_size("run", "--size", optarg, &to.size))
				goto out;
			if (!to.size) {
				cli_error("run", "--size must be positive");
				goto out;
			}
			break;
		case 'y': yes = optarg; break;
		case 'P':
			profile_opts = true;
			cr.strict_pts = true;
			break;
		case 'n': dry = true; break;
		case 'q': cr.quiet = true; break;
		case 'v': cr.verbose = true; break;
		case 'h': usage(stdout); code = EXIT_OK; goto out;
		default: code = cli_opt_reject("run", c, argv); goto out;
		}
	}
	if (like_dir) {
		/* A repeat is the recorded run's profile and options or it is not a repeat. */
		if (optind != argc || profile_opts) {
			cli_error("run", "--like takes the profile, --set, --seed, --time-scale, "
				  "--chunk and --strict-pts from the recorded run; give none of them "
				  "with it");
			goto out;
		}
		code = cli_like_load(like_dir, &like);
		if (code)
			goto out;
		code = EXIT_USAGE;
		p = like.profile;
		like.profile = NULL;
		/* recorded again as this run's "sets", so that it can be resumed and repeated */
		sets = like.sets;
		like.sets = (struct cli_strlist){0};
		cr.seed = like.seed;
		cr.time_scale = like.time_scale;
		cr.chunk_bytes = like.chunk_bytes;
		cr.chunk_ns = like.chunk_ns;
		cr.strict_pts = like.strict_pts;
		if (!target_spec)
			target_spec = like.target;
	} else {
		if (optind != argc - 1) {
			cli_error("run", optind >= argc ? "no PROFILE given (see ssdlab run --help)"
							: "one PROFILE expected, got more (see ssdlab run --help)");
			goto out;
		}
		code = cli_load_profile("run", argv[optind], &sets, &p);
		if (code)
			goto out;
		code = EXIT_USAGE;
		if (!have_seed)
			cr.seed = p->defaults.seed ? p->defaults.seed : 1;
	}
	if (!target_spec)
		target_spec = DEFAULT_TARGET;

	if (dry) {
		/* before the gate and the open: nothing is opened or sent */
		code = cli_drive_dry("run", target_spec, "at the run's start, at each phase's start and end, at each ramp's end (during I/O) and at the run's end") ? EXIT_FAILED : EXIT_OK;
		goto out;
	}
	code = cli_precheck_target("run", target_spec, p, 0);
	if (code)
		goto out;
	/* --size creates a file target that does not exist yet (as in io); an existing target
	 * keeps its size. */
	target_spec_parse(target_spec, &spec);
	to.create = to.size && access(target_spec, F_OK) && !spec.sim;
	to.writable = profile_writes(p) || to.create;
	to.seed = cr.seed;
	rc = target_open(target_spec, &to, &t, err, sizeof(err));
	if (rc) {
		cli_error("run", "%s", err);
		code = cli_open_exit_code(rc);
		goto out;
	}
	code = cli_confirm_target("run", t, p, yes);
	if (code)
		goto out;

	if (out) {
		snprintf(dir, sizeof(dir), "%s", out);
	} else {
		rc = results_default_dir(NULL, p->name, target_spec, (int64_t)time(NULL), dir,
					 sizeof(dir));
		if (rc) {
			cli_error("run", "cannot name the results directory: %s", strerror(-rc));
			code = EXIT_FAILED;
			goto out;
		}
	}
	rc = results_create(dir, &res);
	if (rc) {
		cli_error("run", "%s: %s%s", dir, strerror(-rc),
			  rc == -EEXIST ? " (not empty: results of two runs are never mixed)" : "");
		code = rc == -EEXIST ? EXIT_USAGE : EXIT_FAILED;
		goto out;
	}
	/* Fresh and empty, so nobody else can hold it yet; held so that a `resume` started while
	 * this run is still going is refused. */
	lock = cli_lock_dir(dir);
	if (lock < 0) {
		cli_error("run", "%s: cannot lock: %s", dir, strerror(-lock));
		code = EXIT_FAILED;
		goto out;
	}
	cr.dir = dir;
	cr.yes_destroy = yes;
	/* The drive settings the profile pins, set before the manifest records them as read back. */
	code = cli_settings_apply("run", t, dir, p, &settings);
	if (code)
		goto out;
	cr.settings = settings;
	manifest = runner_manifest_new(p, target_spec, t,
				       &(struct runner_opts){.time_scale = cr.time_scale,
							     .seed = cr.seed,
							     .chunk_bytes = cr.chunk_bytes,
							     .chunk_ns = cr.chunk_ns,
							     .settings = settings,
							     .strict_pts = cr.strict_pts});
	if (manifest && like_dir && cli_like_manifest(manifest, &like)) {
		json_object_put(manifest);
		manifest = NULL;
	}
	/* the drive's rated endurance and the user's warning level, for the analysis
	 * (pass_thermal) and the reader of the manifest */
	cli_rated_endurance(target_info(t), tbw, &rated);
	if (manifest && rated.known &&
	    jsonnum_add(manifest, "rated_endurance", cli_rated_json(&rated))) {
		json_object_put(manifest);
		manifest = NULL;
	}
	if (manifest && !isnan(warning_c) &&
	    jsonnum_add(manifest, "warning_c", jsonnum_new(warning_c))) {
		json_object_put(manifest);
		manifest = NULL;
	}
	if (!manifest || manifest_add_cli(manifest, argc, argv, &sets, yes) ||
	    cli_settings_manifest(manifest, settings) ||
	    warn_reads_without_fill(p, t, manifest, cr.quiet) ||
	    host_facts_collect(t, &facts) || (rc = results_write_manifest(res, manifest, &facts))) {
		cli_error("run", "writing the manifest in %s failed", dir);
		code = EXIT_FAILED;
		goto out;
	}
	if (!cr.quiet)
		fprintf(stderr, "ssdlab run: %s on %s -> %s\n", p->name, target_spec, dir);
	code = cli_run_and_analyze(&cr, p, t, res, NULL, false);
out:
	code = cli_settings_restore("run", dir, settings, code);
	json_object_put(manifest);
	host_facts_release(&facts);
	results_close(res);
	target_close(t);
	profile_free(p);
	cli_strlist_release(&sets);
	cli_like_release(&like);
	if (lock >= 0)
		close(lock);
	return code;
}
