/* SPDX-License-Identifier: MIT */
/*
 * cmd_compare: `ssdlab compare [--out FILE] [--fast] DIR...`: several results directories side by side
 * (report/compare.h): aligned tables on stdout, and the page FILE (./compare.html by default)
 * with its CSVs in report/ beside it. docs/report.md, "Comparing runs".
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "report/compare.h"
#include "report/html.h"

static void help(FILE *f)
{
	fprintf(f, "usage: ssdlab compare [options] DIR...\n"
		   "       ssdlab compare --fast [options] FULL FAST\n\n"
		   "Puts results directories side by side on the figures their summary.json files\n"
		   "share: the run WA and steady-state averages, the steady-state figures per cell,\n"
		   "the SNIA PTS blocks of the same test, and latency per cell and direction. Each\n"
		   "figure has its ratio to the first run's; a ratio outside [0.9, 1.1] is marked\n"
		   "with '*' (and named in the page's last column). Figures a run has that not all\n"
		   "runs have are listed, not compared. Prints aligned tables and writes one page\n"
		   "(the report's own, plots as inline SVG with one series per run) and a CSV per\n"
		   "table and plot under report/ beside it (report/compare-*.csv). Every curve\n"
		   "the report draws that two or more runs have is overlaid, one series per run.\n\n"
		   "With --fast, FULL is a full PTS run and FAST a fast one of the same drive\n"
		   "(issue 19): first come the drive time and host bytes to the steady-state\n"
		   "verdict as fast/full ratios (goal <= 0.5), the precondition method, the\n"
		   "SNIA and early verdicts of both, and every steady-state figure both have\n"
		   "with its difference (goal within 5 %%), each marked pass or fail\n"
		   "(report/compare-fast.csv).\n\n"
		   "options:\n"
		   "  -f, --fast      compare a fast run (FAST) against a full one (FULL)\n"
		   "  -o, --out FILE  the page to write (default ./compare.html)\n"
		   "  -q, --quiet     print only the path written, not the tables\n"
		   "  -h, --help      this text\n\n"
		   "exit codes: 0 written, 1 a file could not be written or a results file is\n"
		   "corrupt, 2 bad usage or a DIR without manifest.json or summary.json\n");
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"out", required_argument, NULL, 'o'},
	    {"quiet", no_argument, NULL, 'q'},
	    {"fast", no_argument, NULL, 'f'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *out = "compare.html";
	char err[1024] = "";
	struct html_buf text;
	int quiet = 0, fast = 0, c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:qfh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'q':
			quiet = 1;
			break;
		case 'f':
			fast = 1;
			break;
		case 'h':
			help(stdout);
			return EXIT_OK;
		default:
			return cli_opt_reject("compare", c, argv);
		}
	}
	if (optind >= argc) {
		cli_error("compare", "expected one or more results directories (see ssdlab compare "
				     "--help)");
		return EXIT_USAGE;
	}
	if (fast && argc - optind != 2) {
		cli_error("compare", "--fast takes two results directories, FULL and FAST");
		return EXIT_USAGE;
	}
	html_init(&text);
	rc = compare_write((const char *const *)&argv[optind], (size_t)(argc - optind), out, fast,
			   &text,
			   err, sizeof(err));
	if (rc) {
		html_release(&text);
		cli_error("compare", "%s", *err ? err : strerror(-rc));
		return rc == -ENOENT || rc == -ENOTDIR ? EXIT_USAGE : EXIT_FAILED;
	}
	if (!quiet && text.p)
		fputs(text.p, stdout);
	printf("%scompare: %s\n", quiet ? "" : "\n", out);
	html_release(&text);
	return EXIT_OK;
}
