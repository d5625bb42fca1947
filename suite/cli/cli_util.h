/* SPDX-License-Identifier: MIT */
/*
 * cli_util: small helpers shared by the subcommands (the CLI edge of the program).
 *
 *   - option values: parse a number, size, duration or fraction given on the command line and
 *     print "ssdlab CMD: --opt: expected ..." when it is malformed;
 *   - a list of strings collected from a repeatable option (--set KEY=VALUE);
 *   - the stop flag: SIGINT/SIGTERM set a flag that the runner and the engine check at safe
 *     points; a second signal restores the default action so that a user can still force quit;
 *   - progress: on a terminal one line rewritten in place (phase, round or chunk, cell, bytes
 *     written, current IOPS, ETA of the job and of the whole run; on a virtual SSD the target
 *     time done and left and a wall-clock ETA from the simulator's measured speed); otherwise
 *     the last line of each phase and one every N seconds. This is the only place where
 *     wall time is read for display (the runner works in the target's clock);
 *   - shell quoting for the "resume with: ..." command line, and UTC time stamps;
 *   - what `run` and `resume` share: the safety gate for profiles that write to a real target,
 *     running the runner with signals and progress, the analysis and headline at the end, the
 *     exit code and the printed resume command.
 *
 * Functions return 0 or -errno and leave output parameters untouched on failure.
 */
#ifndef SSDLAB_CLI_UTIL_H
#define SSDLAB_CLI_UTIL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- option values ---------------------------------------------------------------------- */

/* Each parses `arg` for option `opt` of subcommand `cmd`; on failure prints the expected form
 * with cli_error() and returns -EINVAL (or -ERANGE). */
int cli_opt_u64(const char *cmd, const char *opt, const char *arg, uint64_t *v);
int cli_opt_double(const char *cmd, const char *opt, const char *arg, double *v);
int cli_opt_size(const char *cmd, const char *opt, const char *arg, uint64_t *bytes);
int cli_opt_duration(const char *cmd, const char *opt, const char *arg, uint64_t *ns);

/* The one-line answer to what getopt_long() rejected (call it with opterr = 0 and an optstring
 * that starts with ':'): c is getopt's ':' (a value is missing) or '?' (unknown option); names
 * the option and points to `ssdlab CMD --help`. Returns EXIT_USAGE. */
int cli_opt_reject(const char *cmd, int c, char **argv);

/* The exit code for a target_open() failure: not found, invalid or a directory is bad usage (2),
 * in use or not permitted is a safety refusal (3), unsupported a missing capability (4), the
 * rest a failure (1). Shared by io and run so that the same target gets the same code. */
int cli_open_exit_code(int rc);

/* A growable list of strings (copies). cli_strlist_release frees the copies; accepts NULL. */
struct cli_strlist {
	char **v;
	size_t n, cap;
};
int cli_strlist_add(struct cli_strlist *l, const char *s);
void cli_strlist_release(struct cli_strlist *l);

/* ---- stop flag -------------------------------------------------------------------------- */

/*
 * The flag raised by SIGINT/SIGTERM. `signo` holds the signal that raised it. A signal handler
 * can only reach the program through static storage, so cli_signals_install() keeps one
 * pointer to the caller's struct; this is the one piece of process-wide state in ssdlab, and it
 * belongs to the CLI edge.
 */
struct cli_stop {
	volatile sig_atomic_t flag;
	volatile sig_atomic_t signo;
};
/* Installs handlers for SIGINT and SIGTERM that raise s->flag. Returns 0 or -errno. */
int cli_signals_install(struct cli_stop *s);
/* Restores the default actions (call before returning from the subcommand). */
void cli_signals_restore(void);

/* ---- progress --------------------------------------------------------------------------- */

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
/* Ends an in-place line with a newline; not on a terminal, prints the pending last line. */
void cli_progress_finish(struct cli_progress *p);
/* Formats one progress line into buf (without newline); exposed for tests. */
const char *cli_progress_format(const struct cli_progress_state *s, char *buf, size_t len);

/* ---- text ------------------------------------------------------------------------------- */

/* Appends s to buf (of len, NUL-terminated) quoted for a POSIX shell when needed. -ENOSPC when
 * it does not fit (buf is then unchanged). */
int cli_shell_append(char *buf, size_t len, const char *s);
/* "20261129T191500Z" for the wall time now (UTC). */
const char *cli_utc_stamp(char *buf, size_t len);
/* "2026-11-29T19:15:00Z" */
const char *cli_utc_iso(char *buf, size_t len);
/* Wall clock (CLOCK_REALTIME) in ns since the epoch, for records of resume gaps. */
uint64_t cli_wall_ns(void);
/* CLOCK_MONOTONIC in ns: wall durations for display (progress, plan's simulator speed). */
uint64_t cli_mono_ns(void);

/* ---- run and resume --------------------------------------------------------------------- */

struct profile;
struct target;
struct results;
struct results_records;

/*
 * Loads and validates the profile at `path` (a file or a bundled name) with the --set overrides
 * of `sets`. Returns 0 and sets *p, or prints the file:line:col error as "ssdlab CMD: ..." and
 * returns the exit code: EXIT_FAILED when memory ran out, EXIT_USAGE for an invalid profile.
 */
int cli_load_profile(const char *cmd, const char *path, const struct cli_strlist *sets,
		     struct profile **p);

/* The exit code (cli.h) for a -errno from the runner or a target: -EINTR 130, -EPERM/-EBUSY
 * (refused, in use) 3, -EOPNOTSUPP/-ENOTSUP (a capability missing) 4, -EINVAL 2, else 1. */
int cli_exit_code(int rc);

/*
 * Before a profile that writes opens a real target writable: safety_check_in_use() with the
 * O_EXCL probe, so that a mounted or held device is refused with its reason (the O_EXCL open
 * itself would only say EBUSY). Returns 0, or prints the reason and returns EXIT_SAFETY. A path
 * that does not exist passes here (target_open reports it). patience_ms > 0 retries a refusal
 * for that long: right after a kill -9 the kernel may still hold the dead run's exclusive claim
 * while it tears down its io_uring, so `resume` waits a little before giving up.
 */
int cli_precheck_target(const char *cmd, const char *spec, const struct profile *p,
			unsigned patience_ms);

/* Sleeps ms milliseconds of wall time (the CLI edge's retries). */
void cli_sleep_ms(unsigned ms);

/*
 * The safety gate of `run` and `resume`: a profile that writes, on a target that is not the
 * virtual SSD, needs safety_confirm_destructive() (in use checks, --yes-destroy or a prompt).
 * Returns 0 to go ahead, else prints the reason and returns EXIT_SAFETY.
 */
int cli_confirm_target(const char *cmd, struct target *t, const struct profile *p,
		       const char *yes_destroy);

/*
 * Takes an exclusive lock on a results directory (flock on the directory itself), so that a
 * second `resume` of a run that is still going (or two resumes at once) cannot append the same
 * records twice. Returns the fd holding the lock (close it to release; the kernel releases it
 * when the process dies, also by kill -9) or -errno; -EWOULDBLOCK when another process has it.
 */
int cli_lock_dir(const char *dir);

struct cli_run {
	const char *cmd;	 /* "run" or "resume", for messages */
	const char *dir;	 /* the results directory */
	const char *yes_destroy; /* repeated in the printed resume command */
	uint64_t seed;
	double time_scale;	 /* the user's --time-scale */
	uint64_t chunk_bytes, chunk_ns; /* runner_opts' chunks; 0 = defaults */
	bool quiet;
	bool verbose; /* the per-phase lines before the headline */
};

/*
 * Runs the profile with the runner (signals, progress), then analyzes the directory and prints
 * the headline figures and where the results are. On SIGINT/SIGTERM prints the command that
 * resumes. rr/resumed as runner_new(). Returns the process exit code. The debug fault hook comes
 * from the environment (SSDLAB_DEBUG_FAULT, see runner.h).
 */
int cli_run_and_analyze(const struct cli_run *c, const struct profile *p, struct target *t,
			struct results *res, const struct results_records *rr, bool resumed);

/*
 * The directories the user names in the environment, searched before the bundled ones:
 * $SSDLAB_PROFILES and $SSDLAB_MODELS (NULL when unset or empty). The libraries read no
 * environment; the CLI reads it here and passes it down (profile_load, target_open_opts).
 */
const char *cli_profiles_dir(void);
const char *cli_models_dir(void);

#endif
