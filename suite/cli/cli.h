/* SPDX-License-Identifier: MIT */
/*
 * cli: the ssdlab command line. main.c holds the dispatch table; each subcommand is a
 * cmd_<name>(argc, argv) in its own cmd_<name>.c returning the process exit code (DESIGN.md):
 * 0 success, 1 run failed, 2 bad usage or invalid profile, 3 refused for safety, 4 target lacks a
 * capability, 130 interrupted (resumable). argv[0] is the subcommand's name. Every subcommand
 * answers --help on stdout with exit 0.
 *
 * This is the edge of the program: library modules return errors, the CLI prints them.
 */
#ifndef SSDLAB_CLI_H
#define SSDLAB_CLI_H

#include <stdbool.h>
#include <stdio.h>

enum exit_code {
	EXIT_OK = 0,
	EXIT_FAILED = 1,
	EXIT_USAGE = 2,
	EXIT_SAFETY = 3,
	EXIT_CAPABILITY = 4,
	EXIT_INTERRUPTED = 130,
};

int cmd_io(int argc, char **argv);
int cmd_profiles(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_models(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_resume(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_analyze(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_smart(int argc, char **argv);
int cmd_drives(int argc, char **argv);
int cmd_restore(int argc, char **argv);
int cmd_hpa(int argc, char **argv);
int cmd_namespace(int argc, char **argv);
int cmd_quick(int argc, char **argv);
int cmd_export_fio(int argc, char **argv);

/* Prints "ssdlab <cmd>: <message>" to stderr (printf-style). */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
