/* SPDX-License-Identifier: MIT */
/*
 * ssdlab's entry point: the subcommand dispatch table, global --help and --version.
 * Subcommands that are not built yet are simply absent from the table (weak symbols would hide
 * link errors; an explicit table keeps `ssdlab --help` honest about what exists).
 */
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "cli/cli.h"
#include "config.h"

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
#include "cli/cmd_table.h"
	{NULL, NULL, NULL},
};

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ssdlab %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(FILE *f)
{
	fprintf(f, "usage: ssdlab <command> [options]\n"
		   "       ssdlab <command> --help\n"
		   "       ssdlab --version\n\n"
		   "Steady-state SSD characterization: SNIA-style preconditioning and steady state,\n"
		   "SLC-cache and GC behaviour, write amplification, on real drives through io_uring\n"
		   "or on a built-in virtual SSD.\n\ncommands:\n");
	for (size_t i = 0; subcommands[i].name; i++)
		fprintf(f, "  %-10s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(f, "\nexit codes: 0 ok, 1 run failed, 2 bad usage or profile, 3 refused for safety,\n"
		   "            4 target lacks a capability, 130 interrupted (resumable)\n");
}

int main(int argc, char **argv)
{
	/* Machine-readable output must not depend on the user's locale: keep LC_NUMERIC "C". */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	/* GSL's default handler aborts; every GSL status is checked where it is returned. */
	gsl_set_error_handler_off();

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("ssdlab %s\n", SSDLAB_VERSION);
		return EXIT_OK;
	}
	for (size_t i = 0; subcommands[i].name; i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "ssdlab: unknown command '%s' (see ssdlab --help)\n", argv[1]);
	return EXIT_USAGE;
}
