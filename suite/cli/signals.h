/* SPDX-License-Identifier: MIT */
/*
 * signals: the stop flag. SIGINT/SIGTERM set a flag that the runner and the engine check at
 * safe points; a second signal restores the default action so that a user can still force
 * quit.
 */
#ifndef SSDLAB_CLI_SIGNALS_H
#define SSDLAB_CLI_SIGNALS_H

#include <signal.h>

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

#endif
