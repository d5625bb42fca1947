/* SPDX-License-Identifier: MIT */
/*
 * runflow: the run/resume flow shared by cmd_run.c and cmd_resume.c. See runflow.h.
 */
#include "cli/runflow.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "analysis/analyze.h"
#include "report/report.h"
#include "base/ydoc.h"
#include "cli/cli.h"
#include "cli/clock.h"
#include "cli/gate.h"
#include "cli/headline.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/purge_reach.h"
#include "cli/quote.h"
#include "cli/signals.h"
#include "profile/profile.h"
#include "results/results.h"
#include "run/runner.h"
#include "targets/target.h"


int cli_load_profile(const char *cmd, const char *path, const struct cli_strlist *sets,
		     struct profile **p)
{
	struct ydoc_error yerr;
	char buf[1024];
	int rc;

	memset(&yerr, 0, sizeof(yerr));
	rc = profile_load(path, cli_profiles_dir(), (const char *const *)sets->v, sets->n, p, &yerr);
	if (!rc)
		return 0;
	cli_error(cmd, "%s", ydoc_error_format(&yerr, buf, sizeof(buf)));
	return rc == -ENOMEM ? EXIT_FAILED : EXIT_USAGE;
}

int cli_exit_code(int rc)
{
	switch (rc) {
	case 0: return EXIT_OK;
	case -EINTR: return EXIT_INTERRUPTED;
	case -EPERM:
	case -EBUSY: return EXIT_SAFETY;
	case -EOPNOTSUPP: return EXIT_CAPABILITY;
	case -EINVAL: return EXIT_USAGE;
	default: return EXIT_FAILED;
	}
}

int cli_open_exit_code(int rc)
{
	switch (rc) {
	case -EBUSY:
	case -EPERM: return EXIT_SAFETY;
	case -ENOENT:
	case -EINVAL:
	case -EISDIR: return EXIT_USAGE;
	case -ENOTSUP: return EXIT_CAPABILITY;
	default: return EXIT_FAILED;
	}
}

int cli_precheck_target(const char *cmd, const char *spec, const struct profile *p,
			unsigned patience_ms)
{
	struct target_spec ts;

	target_spec_parse(spec, &ts);
	if (!profile_writes(p) || ts.sim)
		return 0;
	return cli_gate_in_use(cmd, spec, "refused", patience_ms);
}

int cli_confirm_target(const char *cmd, struct target *t, const struct profile *p,
		       const char *yes_destroy)
{
	char what[1024];
	bool whole;

	if (!profile_writes(p))
		return 0;
	snprintf(what, sizeof(what), "profile '%s' (writes%s)", p->name ? p->name : "?",
		 p->destructive ? ", destructive" : "");
	cli_purge_reach(p, t, what, sizeof what, &whole);
	return cli_gate_confirm_reach(cmd, target_info(t), what, yes_destroy, "refused", whole);
}

int cli_lock_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

struct run_ui {
	struct cli_progress prog;
	char cell[96];
	uint64_t wall0_ns; /* wall clock at the start, for the simulator's speed */
};

static void ui_progress(const struct runner_progress *rp, void *arg)
{
	struct run_ui *ui = arg;
	struct cli_progress_state s = {
		.phase = rp->phase_kind, .phase_index = (unsigned)rp->phase,
		.nphases = (unsigned)rp->nphases, .round = rp->round, .cell = rp->cell,
		.bytes_written = rp->bytes_written, .iops = rp->iops, .eta_ns = rp->eta_ns,
		.eta_run_lo_ns = rp->eta_run_lo_ns, .eta_run_hi_ns = rp->eta_run_hi_ns,
		.eta_run_known = rp->eta_run_known,
		.replay = rp->state == RUNNER_REPLAY || rp->state == RUNNER_RERUN,
		.repeat = rp->repeat, .chunk = rp->chunk, .nchunks = rp->nchunks,
		.nchunks_at_most = rp->nchunks_at_most,
		.virt = rp->virtual_time, .target_done_ns = rp->target_done_ns,
	};

	if (s.virt)
		s.wall_known = cli_wall_eta(cli_mono_ns() - ui->wall0_ns, rp->target_done_ns,
					    rp->eta_run_lo_ns, rp->eta_run_hi_ns, &s.wall_lo_ns,
					    &s.wall_hi_ns);
	cli_progress_update(&ui->prog, &s);
}

static void ui_note(const char *msg, void *arg)
{
	struct run_ui *ui = arg;

	cli_progress_note(&ui->prog, "%s", msg);
}

static void print_resume_hint(const struct cli_run *c)
{
	char line[8192] = "";

	cli_shell_append(line, sizeof(line), "ssdlab");
	cli_shell_append(line, sizeof(line), "resume");
	cli_shell_append(line, sizeof(line), c->dir);
	if (c->yes_destroy) {
		char opt[4200];

		snprintf(opt, sizeof(opt), "--yes-destroy=%s", c->yes_destroy);
		cli_shell_append(line, sizeof(line), opt);
	}
	fprintf(stderr, "resume with: %s\n", line);
}

int cli_run_and_analyze(const struct cli_run *c, const struct profile *p, struct target *t,
			struct results *res, const struct results_records *rr, bool resumed)
{
	struct run_ui ui;
	struct cli_stop stop;
	struct runner_opts o = {
		.time_scale = c->time_scale, .seed = c->seed, .stop = &stop.flag,
		.chunk_bytes = c->chunk_bytes, .chunk_ns = c->chunk_ns,
		.progress = ui_progress, .note = ui_note, .arg = &ui, .wall_ns = cli_wall_ns,
		.debug_fault = getenv("SSDLAB_DEBUG_FAULT"), .settings = c->settings,
		.strict_pts = c->strict_pts,
	};
	struct json_object *summary = NULL;
	struct runner *r = NULL;
	char err[1024] = "";
	size_t recorded = 0, replayed = 0, rerun = 0;
	int rc, code;

	cli_progress_init(&ui.prog, stderr, c->quiet, 10000000000ull);
	ui.wall0_ns = cli_mono_ns();
	rc = cli_signals_install(&stop);
	if (rc) {
		cli_error(c->cmd, "installing signal handlers: %s", strerror(-rc));
		return EXIT_FAILED;
	}
	rc = runner_new(p, t, res, &o, rr, resumed, &r, err, sizeof(err));
	if (rc) {
		cli_error(c->cmd, "%s", err[0] ? err : strerror(-rc));
		code = cli_exit_code(rc);
		goto out;
	}
	rc = runner_execute(r, err, sizeof(err));
	cli_progress_finish(&ui.prog);
	runner_counts(r, &recorded, &replayed, &rerun);
	if (rc == -EINTR) {
		fprintf(stderr, "ssdlab %s: interrupted by %s; %zu measurement(s) recorded in %s, "
				"all kept\n",
			c->cmd, stop.signo == SIGTERM ? "SIGTERM" : "SIGINT", recorded, c->dir);
		print_resume_hint(c);
		code = EXIT_INTERRUPTED;
		goto out;
	}
	if (rc) {
		char rec[PATH_MAX + 16];
		struct stat st;

		cli_error(c->cmd, "%s", err[0] ? err : strerror(-rc));
		/* a refusal before the first phase records nothing: say so rather than "kept" */
		snprintf(rec, sizeof(rec), "%s/records.jsonl", c->dir);
		if (stat(rec, &st) || !st.st_size)
			fprintf(stderr, "ssdlab %s: nothing was recorded; the manifest is in %s\n",
				c->cmd, c->dir);
		else
			fprintf(stderr, "ssdlab %s: the records so far are kept in %s\n", c->cmd,
				c->dir);
		if (rc != -EDOM) /* a refusal (runner.h): resuming cannot help */
			print_resume_hint(c);
		code = cli_exit_code(rc);
		if (code == EXIT_USAGE || code == EXIT_INTERRUPTED || code == EXIT_OK)
			code = EXIT_FAILED;
		goto out;
	}
	rc = analyze_write(c->dir, &summary, err, sizeof(err));
	if (rc) {
		cli_error(c->cmd, "the run finished but the analysis failed: %s (records are "
				  "complete; fix and run `ssdlab analyze %s`)",
			  err[0] ? err : strerror(-rc), c->dir);
		code = EXIT_FAILED;
		goto out;
	}
	/* The report is a view of the results, not part of them: a failure warns, the run stands
	 * (`ssdlab report DIR` redoes it). */
	rc = report_write(c->dir, err, sizeof(err));
	if (rc)
		fprintf(stderr, "ssdlab %s: warning: the report was not written: %s (the results are "
				"complete; run `ssdlab report %s`)\n",
			c->cmd, err[0] ? err : strerror(-rc), c->dir);
	if (!c->quiet && c->verbose)
		headline_print_details(summary, stdout);
	if (!c->quiet)
		headline_print(summary, stdout);
	if (!c->quiet) /* --quiet prints nothing but errors; the directory is the one asked for */
		printf("results: %s\n", c->dir);
	code = EXIT_OK;
out:
	json_object_put(summary);
	runner_free(r);
	cli_signals_restore();
	return code;
}
