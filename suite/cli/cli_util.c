/* SPDX-License-Identifier: MIT */
/*
 * cli_util: option value parsing, repeatable-option lists, the SIGINT/SIGTERM stop flag, the
 * progress line, shell quoting, and the run/resume flow shared by cmd_run.c and cmd_resume.c.
 * See cli_util.h.
 */
#include "cli/cli_util.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "analysis/analyze.h"
#include "cli/headline.h"
#include "cli/cli.h"
#include "profile/profile.h"
#include "results/results.h"
#include "run/runner.h"
#include "host/safety.h"
#include "targets/target.h"
#include "base/units.h"
#include "base/ydoc.h"

/* ---- option values ---------------------------------------------------------------------- */

static int opt_fail(const char *cmd, const char *opt, const char *arg, int rc, const char *expect)
{
	if (rc == -ERANGE)
		cli_error(cmd, "%s: '%s' is out of range", opt, arg);
	else
		cli_error(cmd, "%s: '%s' is not %s", opt, arg, expect);
	return rc;
}

int cli_opt_u64(const char *cmd, const char *opt, const char *arg, uint64_t *v)
{
	int rc = units_parse_u64(arg, v);

	return rc ? opt_fail(cmd, opt, arg, rc, "a non-negative integer") : 0;
}

int cli_opt_double(const char *cmd, const char *opt, const char *arg, double *v)
{
	int rc = units_parse_double(arg, v);

	return rc ? opt_fail(cmd, opt, arg, rc, "a number such as 0.5") : 0;
}

int cli_opt_size(const char *cmd, const char *opt, const char *arg, uint64_t *bytes)
{
	int rc = units_parse_size(arg, bytes);

	return rc ? opt_fail(cmd, opt, arg, rc, units_expect_size()) : 0;
}

int cli_opt_duration(const char *cmd, const char *opt, const char *arg, uint64_t *ns)
{
	int rc = units_parse_duration(arg, ns);

	return rc ? opt_fail(cmd, opt, arg, rc, units_expect_duration()) : 0;
}

int cli_opt_reject(const char *cmd, int c, char **argv)
{
	const char *opt = optind > 0 ? argv[optind - 1] : "?";

	if (c == ':')
		cli_error(cmd, "%s needs a value (see ssdlab %s --help)", opt, cmd);
	else
		cli_error(cmd, "unknown option '%s' (see ssdlab %s --help)", opt, cmd);
	return EXIT_USAGE;
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

int cli_strlist_add(struct cli_strlist *l, const char *s)
{
	char *copy;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	l->v[l->n++] = copy;
	return 0;
}

void cli_strlist_release(struct cli_strlist *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

/* ---- stop flag -------------------------------------------------------------------------- */

/* The only way a signal handler reaches the caller's flag (see cli_util.h). */
static struct cli_stop *stop_target;

static void on_stop_signal(int signo)
{
	struct sigaction dfl;

	if (stop_target) {
		stop_target->signo = signo;
		stop_target->flag = 1;
	}
	/* A second ^C must still be able to end a run that does not reach a safe point soon:
	 * everything finished is on disk already, so the default action is safe. */
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
}

int cli_signals_install(struct cli_stop *s)
{
	struct sigaction sa;

	s->flag = 0;
	s->signo = 0;
	stop_target = s;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a blocking wait (io_uring_wait_cqe, nanosleep) should return EINTR so
	 * that the flag is seen promptly. */
	if (sigaction(SIGINT, &sa, NULL) || sigaction(SIGTERM, &sa, NULL))
		return -errno;
	return 0;
}

void cli_signals_restore(void)
{
	struct sigaction dfl;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGTERM, &dfl, NULL);
	stop_target = NULL;
}

/* ---- progress --------------------------------------------------------------------------- */

uint64_t cli_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void cli_progress_init(struct cli_progress *p, FILE *f, bool quiet, uint64_t interval_ns)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->quiet = quiet;
	p->tty = f && isatty(fileno(f));
	p->interval_ns = interval_ns ? interval_ns : 10000000000ull;
	p->last_ns = cli_mono_ns(); /* a log's first periodic line comes one interval in */
}

bool cli_wall_eta(uint64_t wall_ns, uint64_t target_ns, uint64_t left_lo_ns, uint64_t left_hi_ns,
		  uint64_t *wall_lo_ns, uint64_t *wall_hi_ns)
{
	double rate;

	if (!wall_ns || !target_ns)
		return false;
	rate = (double)wall_ns / (double)target_ns;
	*wall_lo_ns = (uint64_t)((double)left_lo_ns * rate + 0.5);
	*wall_hi_ns = (uint64_t)((double)left_hi_ns * rate + 0.5);
	return true;
}

/* "12m00s", a range while steady-state rounds remain ("4m10s..12m00s"), a lower bound
 * ("> 4m10s") while amounts have no speed yet, "?" when nothing is known. */
static void fmt_left(uint64_t lo_ns, uint64_t hi_ns, bool known, char *buf, size_t len)
{
	char lo[32], hi[32];

	units_fmt_duration(lo_ns, lo, sizeof(lo));
	units_fmt_duration(hi_ns, hi, sizeof(hi));
	if (!known && !lo_ns)
		snprintf(buf, len, "?");
	else if (!known)
		snprintf(buf, len, "> %s", lo);
	else if (hi_ns > lo_ns)
		snprintf(buf, len, "%s..%s", lo, hi);
	else
		snprintf(buf, len, "%s", lo);
}

const char *cli_progress_format(const struct cli_progress_state *s, char *buf, size_t len)
{
	char bytes[32], iops[48] = "", eta[32], round[40] = "", run[80], clocks[200], done[32];
	char wall[80];

	units_fmt_size(s->bytes_written, bytes, sizeof(bytes));
	/* No figure rather than "0 IOPS": at a step's start nothing has completed yet, and an
	 * interval without completions (a GC stall) says nothing about the I/O in flight. */
	if (s->iops > 0) {
		char n[32];

		snprintf(iops, sizeof(iops), " | %s IOPS", units_fmt_double(s->iops, 0, n, sizeof(n)));
	}
	if (s->round && s->chunk && s->nchunks && s->nchunks_at_most)
		snprintf(round, sizeof(round), " chunk %u of at most %u", s->round, s->nchunks);
	else if (s->round && s->chunk && s->nchunks)
		snprintf(round, sizeof(round), " chunk %u/%u", s->round, s->nchunks);
	else if (s->round && s->chunk)
		snprintf(round, sizeof(round), " chunk %u", s->round);
	else if (s->round)
		snprintf(round, sizeof(round), " round %u", s->round);
	fmt_left(s->eta_run_lo_ns, s->eta_run_hi_ns, s->eta_run_known, run, sizeof(run));
	if (s->virt) {
		/* Two clocks: the target's (what the profile's durations mean) and the wall's. */
		if (s->wall_known)
			fmt_left(s->wall_lo_ns, s->wall_hi_ns, s->eta_run_known, wall, sizeof(wall));
		else
			snprintf(wall, sizeof(wall), "?");
		snprintf(clocks, sizeof(clocks), "target %s done, %s left | wall ETA %s",
			 units_fmt_duration(s->target_done_ns, done, sizeof(done)), run, wall);
	} else {
		if (s->eta_ns)
			units_fmt_duration(s->eta_ns, eta, sizeof(eta));
		else
			snprintf(eta, sizeof(eta), "?");
		snprintf(clocks, sizeof(clocks), "ETA %s | run %s", eta, run);
	}
	snprintf(buf, len, "%s[%u/%u] %s%s%s%s | %s written%s | %s", s->replay ? "(replay) " : "",
		 s->phase_index + 1, s->nphases, s->phase ? s->phase : "?", round,
		 s->cell && *s->cell ? " " : "", s->cell ? s->cell : "", bytes, iops, clocks);
	return buf;
}

static void progress_emit(struct cli_progress *p, const char *line, uint64_t now)
{
	fprintf(p->f, "%s\n", line);
	fflush(p->f);
	p->last_ns = now;
	p->pending[0] = '\0';
}

void cli_progress_update(struct cli_progress *p, const struct cli_progress_state *s)
{
	char line[320];
	uint64_t now;
	size_t n;

	if (p->quiet || !p->f)
		return;
	now = cli_mono_ns();
	if (!p->tty) {
		/* A log gets each phase's last state and one line per interval, so that a 24-hour
		 * run leaves a readable file and a short one is not one stale starting line. */
		if (p->pending[0] && (s->phase_index != p->pend_phase || s->repeat != p->pend_repeat))
			progress_emit(p, p->pending, now);
		cli_progress_format(s, p->pending, sizeof(p->pending));
		p->pend_phase = s->phase_index;
		p->pend_repeat = s->repeat;
		if (now - p->last_ns >= p->interval_ns)
			progress_emit(p, p->pending, now);
		return;
	}
	/* A terminal line costs nothing to redraw but flickers above ~10 Hz. */
	if (p->last_len && now - p->last_ns < 100000000ull)
		return;
	p->last_ns = now;
	cli_progress_format(s, line, sizeof(line));
	n = strlen(line);
	fprintf(p->f, "\r%s", line);
	for (size_t i = n; i < p->last_len; i++)
		fputc(' ', p->f);
	p->last_len = n;
	fflush(p->f);
}

static void progress_clear(struct cli_progress *p)
{
	if (p->tty && p->last_len) {
		fputc('\r', p->f);
		for (size_t i = 0; i < p->last_len; i++)
			fputc(' ', p->f);
		fputc('\r', p->f);
		p->last_len = 0;
	}
}

void cli_progress_note(struct cli_progress *p, const char *fmt, ...)
{
	va_list ap;

	if (p->quiet || !p->f)
		return;
	progress_clear(p);
	va_start(ap, fmt);
	vfprintf(p->f, fmt, ap);
	va_end(ap);
	fputc('\n', p->f);
	fflush(p->f);
}

void cli_progress_finish(struct cli_progress *p)
{
	if (!p->quiet && p->f && !p->tty && p->pending[0])
		progress_emit(p, p->pending, cli_mono_ns());
	if (!p->quiet && p->f && p->tty && p->last_len) {
		fputc('\n', p->f);
		p->last_len = 0;
		fflush(p->f);
	}
}

/* ---- text ------------------------------------------------------------------------------- */

static bool shell_safe(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_-./:=,+@%",
			    *s))
			return false;
	return true;
}

int cli_shell_append(char *buf, size_t len, const char *s)
{
	size_t used = strnlen(buf, len), need = 0;
	bool quote = !shell_safe(s);
	char *o;

	if (used == len)
		return -ENOSPC;
	/* Worst case: every ' becomes '\'' (4 chars), plus two quotes and a separating space. */
	for (const char *c = s; *c; c++)
		need += (*c == '\'') ? 4 : 1;
	need += (quote ? 2 : 0) + (used ? 1 : 0);
	if (used + need + 1 > len)
		return -ENOSPC;
	o = buf + used;
	if (used)
		*o++ = ' ';
	if (quote)
		*o++ = '\'';
	for (const char *c = s; *c; c++) {
		if (*c == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = *c;
		}
	}
	if (quote)
		*o++ = '\'';
	*o = '\0';
	return 0;
}

/* iso selects "2026-11-29T19:15:00Z" over "20261129T191500Z"; literal formats keep -Wformat=2 happy. */
static const char *utc_fmt(char *buf, size_t len, bool iso)
{
	time_t t = time(NULL);
	struct tm tm;
	size_t n;

	if (!gmtime_r(&t, &tm)) {
		snprintf(buf, len, "unknown-time");
		return buf;
	}
	n = iso ? strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm)
		: strftime(buf, len, "%Y%m%dT%H%M%SZ", &tm);
	if (!n)
		snprintf(buf, len, "unknown-time");
	return buf;
}

const char *cli_utc_stamp(char *buf, size_t len)
{
	return utc_fmt(buf, len, false);
}

const char *cli_utc_iso(char *buf, size_t len)
{
	return utc_fmt(buf, len, true);
}

uint64_t cli_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- run and resume --------------------------------------------------------------------- */

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

void cli_sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int cli_precheck_target(const char *cmd, const char *spec, const struct profile *p,
			unsigned patience_ms)
{
	struct safety_opts so = {.probe_excl = true};
	struct target_spec ts;
	char reason[1024] = "";
	unsigned waited = 0;
	struct stat st;
	int rc;

	target_spec_parse(spec, &ts);
	if (!profile_writes(p) || ts.sim)
		return 0;
	/* A directory or a character device cannot be a target at all: that is bad usage, which
	 * target_open reports (exit 2, as io does), not a safety refusal. */
	if (!stat(spec, &st) && !S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return 0;
	for (;;) {
		rc = safety_check_in_use(spec, &so, reason, sizeof(reason));
		if (rc != -EPERM || waited >= patience_ms)
			break;
		cli_sleep_ms(100);
		waited += 100;
	}
	if (!rc || rc == -ENOENT)
		return 0;
	cli_error(cmd, "refused: %s", reason[0] ? reason : strerror(-rc));
	return EXIT_SAFETY;
}

int cli_confirm_target(const char *cmd, struct target *t, const struct profile *p,
		       const char *yes_destroy)
{
	struct safety_opts so = {.yes_destroy = yes_destroy, .allow_prompt = true};
	struct safety_target id;
	char reason[4096] = "", what[160]; /* names the WWN twice, which may be 1024 long */
	int rc;

	if (!profile_writes(p))
		return 0;
	target_safety_identity(target_info(t), &id);
	snprintf(what, sizeof(what), "profile '%s' (writes%s)", p->name ? p->name : "?",
		 p->destructive ? ", destructive" : "");
	rc = safety_confirm_destructive(&id, what, &so, reason, sizeof(reason));
	if (!rc)
		return 0;
	cli_error(cmd, "refused: %s", reason[0] ? reason : strerror(-rc));
	return EXIT_SAFETY;
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
		.debug_fault = getenv("SSDLAB_DEBUG_FAULT"),
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
		cli_error(c->cmd, "%s", err[0] ? err : strerror(-rc));
		fprintf(stderr, "ssdlab %s: the records so far are kept in %s\n", c->cmd, c->dir);
		if (rc != -EDOM) /* a drain refusal: resuming at the same scale cannot help */
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

static const char *env_dir(const char *var)
{
	const char *v = getenv(var);

	return v && *v ? v : NULL;
}

const char *cli_profiles_dir(void)
{
	return env_dir("SSDLAB_PROFILES");
}

const char *cli_models_dir(void)
{
	return env_dir("SSDLAB_MODELS");
}
