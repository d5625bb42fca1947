/* SPDX-License-Identifier: MIT */
/*
 * devcmd_opts: the command line of the subcommands that change a drive's visible capacity
 * (`ssdlab hpa`, `ssdlab namespace`): DEV, and the options they share (--set, --journal,
 * --dry-run, --json, and hpa's --restore and --persistent). One parser, so that both answer
 * the same way to a missing DEV, an unknown option or --help; each command keeps the rules of
 * which options go together, because those differ (an HPA can be restored by command, a
 * namespace only through the journal).
 */
#ifndef SSDLAB_CLI_DEVCMD_OPTS_H
#define SSDLAB_CLI_DEVCMD_OPTS_H

#include <stdbool.h>
#include <stdio.h>

/* Which options a command accepts, beside --set, --journal, --dry-run, --json and --help. */
enum devcmd_extra {
	DEVCMD_RESTORE = 1u << 0,    /* --restore */
	DEVCMD_PERSISTENT = 1u << 1, /* --persistent */
};

struct devcmd_opts {
	const char *dev; /* the one positional argument */
	const char *set, *journal;
	bool restore, persistent, dry, json;
};

/*
 * Parses argv for subcommand `cmd` into *o (zeroed first). `extra` is a mask of enum
 * devcmd_extra. Returns 0 to go on; -1 when --help was printed with usage(stdout) (exit 0);
 * else EXIT_USAGE after printing the error (an unknown option, a missing value, no DEV or
 * more than one).
 */
int devcmd_opts_parse(const char *cmd, int argc, char **argv, unsigned extra,
		      void (*usage)(FILE *f), struct devcmd_opts *o);

#endif
