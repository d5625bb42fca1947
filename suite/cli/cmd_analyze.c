/* SPDX-License-Identifier: MIT */
/*
 * cmd_analyze: `ssdlab analyze DIR`: recomputes DIR/summary.json from the raw records (so a
 * run can be re-analyzed after a fix, or checked by another lab) and prints the headline
 * figures. --check compares the recomputed summary with the one on disk instead of writing it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "analysis/analyze.h"
#include "cli/analyze_fio.h"
#include "cli/headline.h"
#include "cli/cli.h"
#include "cli/options.h"

static void help(FILE *f)
{
	fprintf(
	    f, "usage: ssdlab analyze [options] DIR\n\n"
	       "Recomputes DIR/summary.json from DIR/manifest.json, records.jsonl and snapshots/\n"
	       "alone (steady state per tracked series, per-cell figures with latency percentiles\n"
	       "from merged histograms, write amplification per phase, flags) and prints the\n"
	       "headline figures. The output is byte-for-byte the same for the same input.\n\n"
	       "options:\n"
	       "  -q, --quiet   do not print the headline figures\n"
	       "  -v, --verbose also print the per-phase lines (SNIA figures, cells, WA per phase)\n"
	       "  --check       do not write: exit 1 when DIR/summary.json differs from what the\n"
	       "                records give (e.g. after a fix of the analysis)\n"
	       "  --stdout      print the summary JSON instead of writing it\n"
	       "  --fio FILE    analyze fio's JSON (--output-format=json+) instead of a results\n"
	       "                directory: per-job figures, percentiles from its histograms, steady\n"
	       "                state over export-fio's rounds (docs/fio.md); no DIR\n"
	       "  --out DIR     with --fio: write DIR/summary.json instead of printing the JSON\n"
	       "  -h, --help    this text\n\n"
	       "exit codes: 0 ok (also when steady state was not reached: that is a flagged\n"
	       "finding), 1 the results are corrupt or --check found a difference, 2 bad usage or\n"
	       "not a results directory\n");
}

static const char *summary_text(struct json_object *s)
{
	return json_object_to_json_string_ext(s, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						     JSON_C_TO_STRING_NOSLASHESCAPE);
}

/* Compares the recomputed summary with DIR/summary.json byte for byte (as it would be written). */
static int check(const char *dir, struct json_object *s)
{
	const char *want = summary_text(s);
	size_t wlen = strlen(want), n = 0;
	char *path = NULL, *buf = NULL;
	FILE *f = NULL;
	int same = 0;

	if (asprintf(&path, "%s/summary.json", dir) < 0)
		return EXIT_FAILED;
	f = fopen(path, "rb");
	if (!f) {
		cli_error("analyze", "%s: %s", path, strerror(errno));
		goto out;
	}
	/* One byte more than expected, so that a longer file shows as different. */
	buf = malloc(wlen + 2);
	if (!buf)
		goto out;
	n = fread(buf, 1, wlen + 2, f);
	same = n == wlen + 1 && !memcmp(buf, want, wlen) && buf[wlen] == '\n';
	if (!same)
		cli_error("analyze", "%s differs from what the records give now", path);
out:
	if (f)
		fclose(f);
	free(buf);
	free(path);
	return same ? EXIT_OK : EXIT_FAILED;
}

int cmd_analyze(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"quiet", no_argument, NULL, 'q'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"check", no_argument, NULL, 'c'},
	    {"stdout", no_argument, NULL, 's'},
	    {"fio", required_argument, NULL, 'F'},
	    {"out", required_argument, NULL, 'o'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *fio = NULL, *outdir = NULL;
	struct json_object *summary = NULL;
	int quiet = 0, verbose = 0, do_check = 0, to_stdout = 0, c, rc, ret;
	char err[512] = "";
	const char *dir;

	optind = 1;
	opterr = 0; /* one line of our own for a bad option, as run and io */
	while ((c = getopt_long(argc, argv, ":qvh", opts, NULL)) != -1) {
		switch (c) {
		case 'q':
			quiet = 1;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'c':
			do_check = 1;
			break;
		case 's':
			to_stdout = 1;
			break;
		case 'F':
			fio = optarg;
			break;
		case 'o':
			outdir = optarg;
			break;
		case 'h':
			help(stdout);
			return EXIT_OK;
		default:
			return cli_opt_reject("analyze", c, argv);
		}
	}
	if (fio && optind == argc)
		return cli_analyze_fio(fio, outdir, quiet);
	if (fio || outdir) {
		cli_error("analyze", "--fio FILE takes no results directory; --out goes with --fio");
		return EXIT_USAGE;
	}
	if (optind != argc - 1) {
		cli_error("analyze", "expected one results directory (see ssdlab analyze --help)");
		return EXIT_USAGE;
	}
	dir = argv[optind];
	if (do_check || to_stdout)
		rc = analyze_dir(dir, &summary, err, sizeof(err));
	else
		rc = analyze_write(dir, &summary, err, sizeof(err));
	if (rc) {
		cli_error("analyze", "%s", *err ? err : strerror(-rc));
		return rc == -ENOENT || rc == -ENOTDIR ? EXIT_USAGE : EXIT_FAILED;
	}
	ret = EXIT_OK;
	if (do_check)
		ret = check(dir, summary);
	else if (to_stdout)
		printf("%s\n", summary_text(summary));
	if (!quiet && !to_stdout) {
		if (verbose)
			headline_print_details(summary, stdout);
		headline_print(summary, stdout);
		if (!do_check)
			printf("summary: %s/summary.json\n", dir);
	}
	json_object_put(summary);
	return ret;
}
