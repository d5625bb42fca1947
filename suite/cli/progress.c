/* SPDX-License-Identifier: MIT */
/*
 * progress: the progress line, in place on a terminal, one per phase and interval in a log.
 * See progress.h.
 */
#include "cli/progress.h"

#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "cli/clock.h"
#include "base/units.h"

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
	cli_progress_line(p, cli_progress_format(s, line, sizeof(line)));
}

void cli_progress_line(struct cli_progress *p, const char *line)
{
	size_t n;

	if (p->quiet || !p->f || !p->tty)
		return;
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
