/* SPDX-License-Identifier: MIT */
/*
 * signals: the SIGINT/SIGTERM stop flag and its handler. See signals.h.
 */
#include "cli/signals.h"

#include <errno.h>
#include <string.h>

/* The only way a signal handler reaches the caller's flag (see signals.h). */
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
