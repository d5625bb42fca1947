/* SPDX-License-Identifier: MIT */
/*
 * `ssdlab resume DIR`: continues an interrupted run (SIGINT, kill -9, power loss) after its last
 * finished record. Everything comes from the results directory: the manifest holds the profile
 * text, the --set overrides, the target, the seed and the time scale; records.jsonl holds what
 * is done (a torn last line is dropped). Before anything is written the target must be the same
 * device as recorded (model, serial, WWN, capacity: device names change between boots) and pass
 * the same safety gate as `run`. The runner then replays or skips what is recorded and re-runs
 * the interrupted round (runner.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "analysis/analyze.h"
#include "cli/headline.h"
#include "cli/cli.h"
#include "cli/like.h"
#include "cli/drive_dry.h"
#include "cli/clock.h"
#include "cli/options.h"
#include "cli/runflow.h"
#include "cli/runsettings.h"
#include "base/jsonnum.h"
#include "profile/profile.h"
#include "results/results.h"
#include "run/runner.h"
#include "targets/target.h"

/* How long a resume waits for a device that is still claimed: right after a kill -9 the kernel
 * can hold the dead run's O_EXCL claim for a moment while it tears down its io_uring. */
#define RESUME_PATIENCE_MS 5000

static void usage(FILE *f)
{
	fprintf(f, "usage: ssdlab resume DIR [options]\n\n"
		   "Continues an interrupted run in results directory DIR after its last finished\n"
		   "measurement, with no duplicate or missing record. The interrupted round is run\n"
		   "again from its first cell; the gap is recorded and the summary flags the resume.\n\n"
		   "  --target T          the target, when its name changed since the run (it must\n"
		   "                      still be the same device: model, serial, WWN, capacity)\n"
		   "  --yes-destroy=ID    confirm again for a real target (serial, WWN or path)\n"
		   "  --strict-pts        check that the run was recorded with --strict-pts (a resume\n"
		   "                      replays the run's early steady-state decisions, so it\n"
		   "                      keeps the recorded setting and refuses to change it)\n"
		   "  --quiet             print nothing but errors\n"
		"  --verbose           also the per-phase lines before the headline\n"
		   "  --dry-run           print the ATA or NVMe commands it would send to the drive\n"
		   "                      and stop (nothing is sent)\n"
		   "  --help\n");
}

static const char *jstr(struct json_object *o, const char *k)
{
	struct json_object *x;

	if (!o || !json_object_object_get_ex(o, k, &x) || !json_object_is_type(x, json_type_string))
		return NULL;
	return json_object_get_string(x);
}

static struct json_object *jobj(struct json_object *o, const char *k)
{
	struct json_object *x;

	return o && json_object_object_get_ex(o, k, &x) ? x : NULL;
}

/*
 * Never destroy the wrong disk: the device under the recorded name must be the one recorded.
 * Each identity field that was known at the start must be the same now. 0 or EXIT_SAFETY.
 */
/* A run is complete when its last snapshot is the runner's "run-end": the runner stores it
 * only after the last phase, and a resume that finishes stores it again. Anything unreadable
 * counts as incomplete, so that the resume itself reports the problem. */
static bool run_complete(const char *dir)
{
	struct results_snapshots ss = {0};
	bool done = false;

	if (!results_read_snapshots(dir, &ss) && ss.n) {
		const char *label = jstr(ss.snap[ss.n - 1], "label");

		done = label && !strcmp(label, "run-end");
	}
	results_snapshots_release(&ss);
	return done;
}

static int same_device(struct json_object *mt, const struct target_info *ti)
{
	const struct {
		const char *key;
		const char *now;
	} ids[] = {
		{"kind", target_kind_name(ti->kind)},
		{"model", ti->model},
		{"serial", ti->serial},
		{"wwn", ti->wwn},
	};
	uint64_t cap;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		const char *was = jstr(mt, ids[i].key);
		const char *now = ids[i].now;

		if (was && *was && strcmp(was, now)) {
			cli_error("resume", "refused: %s is not the device of this run (%s was '%s', "
					    "is '%s'); pass --target with the right device",
				  ti->path, ids[i].key, was, now);
			return EXIT_SAFETY;
		}
	}
	if (!jsonnum_get_u64(mt, "capacity", &cap) && cap != ti->capacity) {
		cli_error("resume", "refused: %s has capacity %llu bytes, the run had %llu "
				    "(a capacity change or another device)",
			  ti->path, (unsigned long long)ti->capacity, (unsigned long long)cap);
		return EXIT_SAFETY;
	}
	return 0;
}

int cmd_resume(int argc, char **argv)
{
	static const struct option opts[] = {
		{"target", required_argument, NULL, 't'},
		{"yes-destroy", required_argument, NULL, 'y'},
		{"dry-run", no_argument, NULL, 'n'},
		{"strict-pts", no_argument, NULL, 'P'},
		{"quiet", no_argument, NULL, 'q'},
		{"verbose", no_argument, NULL, 'v'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *target_spec = NULL, *yes = NULL, *text, *ppath;
	struct json_object *m = NULL, *mt, *ms, *ts;
	struct results_records rr = {0};
	struct cli_run cr = {.cmd = "resume", .time_scale = 1.0};
	struct target_open_opts to = {.models_dir = cli_models_dir(), .drive_ident = true};
	struct drive_settings *settings = NULL;
	struct results *res = NULL;
	struct profile *p = NULL;
	struct target *t = NULL;
	struct ydoc_error yerr;
	const char **sets = NULL;
	struct profile_parent *known = NULL;
	size_t nknown = 0;
	size_t nsets = 0;
	char err[1024] = "";
	bool dry = false, want_strict = false;
	int c, rc, lock = -1, code = EXIT_USAGE;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:y:Pnqvh", opts, NULL)) != -1) {
		switch (c) {
		case 't': target_spec = optarg; break;
		case 'y': yes = optarg; break;
		case 'n': dry = true; break;
		case 'P': want_strict = true; break;
		case 'q': cr.quiet = true; break;
		case 'v': cr.verbose = true; break;
		case 'h': usage(stdout); return EXIT_OK;
		default: return cli_opt_reject("resume", c, argv);
		}
	}
	if (optind != argc - 1) {
		cli_error("resume", optind >= argc ? "no results DIR given (see ssdlab resume --help)"
						: "one DIR expected, got more (see ssdlab resume --help)");
		return EXIT_USAGE;
	}
	cr.dir = argv[optind];
	rc = results_read_manifest(cr.dir, &m);
	if (rc) {
		cli_error("resume", "%s: cannot read manifest.json: %s", cr.dir, strerror(-rc));
		return rc == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	/* --strict-pts as recorded: the rounds already walked decided by it, and a replay must
	 * take the same decisions (absent in runs before it existed: off). */
	if (jobj(m, "options"))
		cr.strict_pts = json_object_get_boolean(jobj(jobj(m, "options"), "strict_pts"));
	if (want_strict && !cr.strict_pts) {
		cli_error("resume", "%s was recorded without --strict-pts; a resume replays its "
				    "early steady-state decisions and cannot change that (start a new "
				    "run with --strict-pts)",
			  cr.dir);
		goto out;
	}
	/* Nothing is opened, replayed or written for a finished run. */
	if (run_complete(cr.dir)) {
		struct json_object *summary = NULL;
		char sum[4200];

		snprintf(sum, sizeof(sum), "%s/summary.json", cr.dir);
		code = EXIT_OK;
		if (!access(sum, F_OK)) {
			if (!cr.quiet)
				printf("ssdlab resume: nothing to resume, the run is complete (%s)\n",
				       sum);
			goto out;
		}
		/* Killed after its last record but before its summary: the analysis is all that
		 * is left to do. */
		rc = analyze_write(cr.dir, &summary, err, sizeof(err));
		if (rc) {
			cli_error("resume", "the run is complete but its analysis failed: %s",
				  err[0] ? err : strerror(-rc));
			code = EXIT_FAILED;
		} else if (!cr.quiet) {
			printf("ssdlab resume: nothing to resume, the run is complete; its summary "
			       "was missing and is written now\n");
			headline_print(summary, stdout);
			printf("results: %s\n", cr.dir);
		}
		json_object_put(summary);
		goto out;
	}
	text = jstr(jobj(m, "profile"), "text");
	ppath = jstr(jobj(m, "profile"), "path");
	mt = jobj(m, "target");
	if (!target_spec)
		target_spec = jstr(mt, "spec");
	if (!text || !target_spec || jsonnum_get_u64(m, "seed", &cr.seed)) {
		cli_error("resume", "%s: the manifest lacks the profile text, target or seed",
			  cr.dir);
		goto out;
	}
	ts = jobj(m, "time_scale");
	if (ts && jsonnum_get(ts, "user", &cr.time_scale))
		cr.time_scale = 1.0;
	/* The chunks the run cut its long writing phases into (absent: an older run, defaults). */
	if (jobj(m, "chunks")) {
		(void)jsonnum_get_u64(jobj(m, "chunks"), "bytes", &cr.chunk_bytes);
		(void)jsonnum_get_u64(jobj(m, "chunks"), "time_ns", &cr.chunk_ns);
	}
	ms = jobj(m, "sets");
	if (ms && json_object_is_type(ms, json_type_array)) {
		nsets = json_object_array_length(ms);
		sets = calloc(nsets ? nsets : 1, sizeof(*sets));
		if (!sets) {
			code = EXIT_FAILED;
			goto out;
		}
		for (size_t i = 0; i < nsets; i++)
			sets[i] = json_object_get_string(json_object_array_get_idx(ms, i));
	}
	/* The parents as the run read them (absent in runs before they were recorded). */
	rc = cli_manifest_parents(m, &known, &nknown);
	if (rc) {
		cli_error("resume", "%s: %s", cr.dir, rc == -ENOMEM ? strerror(ENOMEM) :
			  "manifest profile.extends lacks a ref, path or text");
		code = rc == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
		goto out;
	}
	memset(&yerr, 0, sizeof(yerr));
	rc = profile_parse_recorded(text, strlen(text), ppath ? ppath : "<manifest>", sets, nsets,
				    known, nknown, &p, &yerr);
	if (rc) {
		char buf[1024];

		cli_error("resume", "the profile in the manifest no longer parses: %s",
			  ydoc_error_format(&yerr, buf, sizeof(buf)));
		goto out;
	}

	if (dry) {
		/* before the gate and the open: nothing is opened or sent */
		code = cli_drive_dry("resume", target_spec, "at the run's start, at each phase's start and end, at each ramp's end (during I/O) and at the run's end") ? EXIT_FAILED : EXIT_OK;
		goto out;
	}
	code = cli_precheck_target("resume", target_spec, p, RESUME_PATIENCE_MS);
	if (code)
		goto out;
	to.writable = profile_writes(p);
	to.seed = cr.seed;
	for (unsigned waited = 0;; waited += 100) {
		rc = target_open(target_spec, &to, &t, err, sizeof(err));
		if (rc != -EBUSY || waited >= RESUME_PATIENCE_MS)
			break;
		cli_sleep_ms(100); /* see RESUME_PATIENCE_MS */
	}
	if (rc) {
		cli_error("resume", "%s", err);
		code = rc == -EBUSY ? EXIT_SAFETY : EXIT_FAILED;
		goto out;
	}
	code = same_device(mt, target_info(t));
	if (code)
		goto out;
	code = cli_confirm_target("resume", t, p, yes);
	if (code)
		goto out;
	cr.yes_destroy = yes;

	lock = cli_lock_dir(cr.dir);
	if (lock < 0) {
		cli_error("resume", "%s: %s", cr.dir,
			  lock == -EWOULDBLOCK ? "another ssdlab is running on it (a run or a resume)"
					       : strerror(-lock));
		code = EXIT_FAILED;
		goto out;
	}
	rc = results_open(cr.dir, &res, &rr);
	if (rc) {
		if (rc == -EBADMSG)
			cli_error("resume", "%s/records.jsonl: line %u is corrupt (not the last line: "
					    "not a crash); refusing to continue",
				  cr.dir, rr.bad_line);
		else
			cli_error("resume", "%s: %s", cr.dir, strerror(-rc));
		code = EXIT_FAILED;
		goto out;
	}
	if (rr.torn_last) /* even with --quiet: the user should know a crash cut a line */
		fprintf(stderr, "ssdlab resume: dropped a torn last record line (%llu bytes)\n",
			(unsigned long long)rr.torn_bytes);
	if (!cr.quiet)
		fprintf(stderr, "ssdlab resume: %s on %s, %zu record(s) kept\n",
			p->name ? p->name : "?", target_spec, rr.n);
	/* The profile's drive settings again: a crash restored nothing, a power cycle may have. */
	code = cli_settings_apply("resume", t, cr.dir, p, &settings);
	if (code)
		goto out;
	cr.settings = settings;
	code = cli_run_and_analyze(&cr, p, t, res, &rr, true);
out:
	code = cli_settings_restore("resume", cr.dir, settings, code);
	results_records_release(&rr);
	results_close(res);
	target_close(t);
	profile_free(p);
	free(sets);
	free(known);
	json_object_put(m);
	if (lock >= 0)
		close(lock);
	return code;
}
