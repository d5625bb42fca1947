/* SPDX-License-Identifier: MIT */
/*
 * cmd_report: `ssdlab report DIR`: writes DIR/report.html, DIR/summary.md and DIR/report/<name>.csv
 * from DIR/summary.json and DIR/manifest.json (report/report.h). `run` and `resume` write the
 * same at their end (runflow.c). The output is byte-for-byte the same for the same input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "report/report.h"

static void help(FILE *f)
{
	fprintf(f, "usage: ssdlab report [options] DIR\n\n"
		   "Writes the lab report of results directory DIR from its summary.json and\n"
		   "manifest.json: DIR/report.html (one self-contained page, SNIA PTS-style, plots\n"
		   "as inline SVG, no script or external file; prints on A4 and Letter),\n"
		   "DIR/summary.md (the headline and main tables in Markdown) and a CSV per table\n"
		   "and plot under DIR/report/. The same input gives the same bytes.\n"
		   "Run `ssdlab analyze DIR` first for results of an older version.\n\n"
		   "options:\n"
		   "  -q, --quiet   do not print the paths written\n"
		   "  -h, --help    this text\n\n"
		   "exit codes: 0 written, 1 a file could not be written or a results file is\n"
		   "corrupt, 2 bad usage or DIR has no manifest.json or summary.json\n");
}

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"quiet", no_argument, NULL, 'q'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	char err[1024] = "";
	int quiet = 0, c, rc;
	const char *dir;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":qh", opts, NULL)) != -1) {
		switch (c) {
		case 'q':
			quiet = 1;
			break;
		case 'h':
			help(stdout);
			return EXIT_OK;
		default:
			return cli_opt_reject("report", c, argv);
		}
	}
	if (optind != argc - 1) {
		cli_error("report", "expected one results directory (see ssdlab report --help)");
		return EXIT_USAGE;
	}
	dir = argv[optind];
	rc = report_write(dir, err, sizeof(err));
	if (rc) {
		cli_error("report", "%s", *err ? err : strerror(-rc));
		return rc == -ENOENT || rc == -ENOTDIR ? EXIT_USAGE : EXIT_FAILED;
	}
	if (!quiet)
		printf("report: %s/report.html\nsummary: %s/summary.md\n", dir, dir);
	return EXIT_OK;
}
