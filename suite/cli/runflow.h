/* SPDX-License-Identifier: MIT */
/*
 * runflow: what `run` and `resume` share, from a profile and a target to an exit code: loading
 * the profile, the safety gate for profiles that write to a real target, the lock on a results
 * directory, running the runner with signals and progress, the analysis and headline at the
 * end, the exit code and the printed resume command. Also the exit code of a target_open()
 * failure, which `io` shares.
 */
#ifndef SSDLAB_CLI_RUNFLOW_H
#define SSDLAB_CLI_RUNFLOW_H

#include <stdbool.h>
#include <stdint.h>

struct cli_strlist;
struct profile;
struct target;
struct results;
struct results_records;

/* The exit code for a target_open() failure: not found, invalid or a directory is bad usage (2),
 * in use or not permitted is a safety refusal (3), unsupported a missing capability (4), the
 * rest a failure (1). Shared by io and run so that the same target gets the same code. */
int cli_open_exit_code(int rc);

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
	bool strict_pts;		/* runner_opts' --strict-pts */
	bool quiet;
	bool verbose; /* the per-phase lines before the headline */
	struct drive_settings *settings; /* re-checked at phase boundaries (runner_opts); may be NULL */
};

/*
 * Runs the profile with the runner (signals, progress), then analyzes the directory and prints
 * the headline figures and where the results are. On SIGINT/SIGTERM prints the command that
 * resumes. rr/resumed as runner_new(). Returns the process exit code. The debug fault hook comes
 * from the environment (SSDLAB_DEBUG_FAULT, see runner.h).
 */
int cli_run_and_analyze(const struct cli_run *c, const struct profile *p, struct target *t,
			struct results *res, const struct results_records *rr, bool resumed);

#endif
