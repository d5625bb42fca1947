/* SPDX-License-Identifier: MIT */
/*
 * progress: on a terminal one line rewritten in place (phase, round or chunk, cell, bytes
 * written, current IOPS, ETA of the job and of the whole run; on a virtual SSD the target time
 * done and left and a wall-clock ETA from the simulator's measured speed); otherwise the last
 * line of each phase and one every N seconds. The wall time it shows comes from clock.h; the
 * runner works in the target's clock.
 */
#ifndef SSDLAB_CLI_PROGRESS_H
#define SSDLAB_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cli_progress_state {
	const char *phase; /* "rounds", "precondition", ... */
	unsigned phase_index, nphases;
	unsigned round;	    /* 0 when the phase has no rounds; else 1-based */
	const char *cell;   /* "rwmix_read=0 bs=4k" or NULL */
	uint64_t bytes_written;
	double iops;
	uint64_t eta_ns; /* target time left in the current job; 0 = unknown */
	/* Target time left in the whole run (runner_progress): a range when steady-state rounds
	 * remain (window .. max_rounds); known = false while amounts have no speed yet. */
	uint64_t eta_run_lo_ns, eta_run_hi_ns;
	bool eta_run_known;
	bool replay;	 /* resume: replaying without recording */
	unsigned repeat; /* with phase_index, what "one line per phase" tells apart */
	bool chunk;	 /* round is a chunk number of a write phase, of nchunks (0 = unknown) */
	unsigned nchunks;
	bool nchunks_at_most; /* nchunks is an upper bound ("chunk 3 of at most 1440") */
	/* A virtual-time target: its clock is not the wall clock, so the line gives the target
	 * time done and left and the wall-clock ETA (cli_wall_eta) instead of the job's ETA. */
	bool virt;
	uint64_t target_done_ns;
	uint64_t wall_lo_ns, wall_hi_ns;
	bool wall_known; /* false until the simulator's speed is measured */
};

/*
 * The wall-clock ETA of a virtual-time run: the target time left (lo .. hi) at the speed seen
 * so far, wall_ns of wall time for target_ns of target time. Pure. False (outputs untouched)
 * when there is no speed yet.
 */
bool cli_wall_eta(uint64_t wall_ns, uint64_t target_ns, uint64_t left_lo_ns, uint64_t left_hi_ns,
		  uint64_t *wall_lo_ns, uint64_t *wall_hi_ns);

struct cli_progress {
	FILE *f;
	bool tty;
	bool quiet;
	uint64_t interval_ns;
	uint64_t last_ns; /* wall clock of the last line */
	size_t last_len;  /* length of the last in-place line, to blank it */
	/* Not a terminal: the latest line, printed when the phase changes (the phase's last
	 * state), every interval_ns, and at the end; never twice. */
	char pending[320];
	unsigned pend_phase, pend_repeat;
};

/* f is usually stderr; tty decides in-place updates; interval_ns is the log-line period. */
void cli_progress_init(struct cli_progress *p, FILE *f, bool quiet, uint64_t interval_ns);
/* Prints the line (on a terminal at most 10 times a second; otherwise the last line of each
 * phase and one every interval_ns). */
void cli_progress_update(struct cli_progress *p, const struct cli_progress_state *s);
/* Prints a message on its own line, clearing an in-place line first. */
void cli_progress_note(struct cli_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Draws `line` in place on a terminal, blanking what is left of a longer previous line, at once
 * (the caller decides how often); nothing when quiet or not a terminal. For a command with a
 * line of its own (io); cli_progress_update draws its lines with it. */
void cli_progress_line(struct cli_progress *p, const char *line);
/* Ends an in-place line with a newline; not on a terminal, prints the pending last line. */
void cli_progress_finish(struct cli_progress *p);
/* Formats one progress line into buf (without newline); exposed for tests. */
const char *cli_progress_format(const struct cli_progress_state *s, char *buf, size_t len);

#endif
