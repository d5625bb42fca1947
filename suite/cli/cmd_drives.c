/* SPDX-License-Identifier: MIT */
/*
 * cmd_drives: `ssdlab drives [MODEL]` lists the drive database (profiles/drives/drives.yaml:
 * which SMART counters hold host and NAND writes per drive family, in which units, and the
 * document each entry comes from), or shows the entry a model string matches, so that a user
 * can see before a run whether ssdlab will be able to report WA for their drive.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "config.h"
#include "host/drivedb.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: ssdlab drives [--db FILE] [--nvme] [--path] [MODEL]\n\n"
		   "Without MODEL, lists the drive database's entries. With MODEL (the model\n"
		   "string the drive reports, quoted), shows the entry that matches it: the\n"
		   "host- and NAND-write counters, their units, the entry's source, and\n"
		   "model strings it matches (examples) and leaves to other entries (not).\n\n"
		   "  --db FILE   the database (default: drives/drives.yaml in the profiles next\n"
		   "              to the program when installed, else in the source tree's\n"
		   "              profiles, else in the configured data directory)\n"
		   "  --nvme      MODEL is an NVMe drive (default: ATA)\n"
		   "  --path      print the database's path and exit\n"
		   "  -h, --help  this text\n");
}

static void print_counter(const char *what, const struct drivedb_counter *c)
{
	printf("  %-11s %s in %s%s\n", what, c->counter, drivedb_unit_name(c->unit),
	       c->verified ? "" : " (unverified)");
}

/* One model per line, quoted: some carry two spaces ("WDC  WDS500G2B0A") that matter. */
static void print_models(const char *what, const char *const *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("  %-11s '%s'\n", i == 0 ? what : "", m[i]);
}

static void show(const struct drivedb_entry *e)
{
	printf("%s (%s, line %d)\n", e->name, drivedb_transport_name(e->transport), e->line);
	printf("  %-11s %s\n", "match", e->match[0] ? e->match : "(any model)");
	print_counter("host", &e->host);
	if (e->has_host_pages)
		print_counter("host pages", &e->host_pages);
	for (size_t i = 0; i < e->n_nand; i++)
		print_counter("nand", &e->nand[i]);
	if (e->n_nand > 1)
		printf("  %-11s %s\n", "nand from",
		       e->combine == DRIVEDB_SUM ? "the sum of the counters"
						 : "the first counter present and non-zero");
	if (!e->n_nand)
		printf("  %-11s null: no NAND-write counter known\n", "wa");
	else if (e->wa == DRIVEDB_WA_PAGES_RATIO)
		printf("  %-11s (d host pages + d nand pages) / d host pages (page size unknown)\n",
		       "wa");
	else
		printf("  %-11s nand bytes / host bytes%s\n", "wa",
		       e->compresses ? " (compressing controller: may be below 1)" : "");
	if (e->note)
		printf("  %-11s %s\n", "note", e->note);
	/* what the sprandom fill's spare: auto takes on a drive of that model */
	for (size_t i = 0; i < e->n_raw_nand; i++)
		printf("  %-11s %g GiB for models matching '%s' (%s)\n", i == 0 ? "raw nand" : "",
		       (double)e->raw_nand[i].bytes / 1073741824.0, e->raw_nand[i].match,
		       e->raw_nand[i].source);
	printf("  %-11s %s\n", "source", e->source);
	/* Real model strings the entry takes, and neighbours it leaves to other entries, so a user
	 * can compare their drive's model with them. */
	print_models("examples", e->examples, e->n_examples);
	print_models("not", e->not_examples, e->n_not_examples);
}

int cmd_drives(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"db", required_argument, NULL, 'd'},
	    {"nvme", no_argument, NULL, 'n'},
	    {"path", no_argument, NULL, 'p'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	const char *path = NULL;
	enum drivedb_transport t = DRIVEDB_ATA;
	struct drivedb *db = NULL;
	struct ydoc_error err = {0};
	char buf[1024], dflt[PATH_MAX + 64];
	int c, ret, rc = EXIT_FAILED;
	bool given, show_path = false;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			path = optarg;
			break;
		case 'n':
			t = DRIVEDB_NVME;
			break;
		case 'p':
			show_path = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return cli_opt_reject("drives", c, argv);
		}
	}
	if (argc - optind > 1) {
		cli_error("drives", "unexpected argument '%s' (quote a model with spaces)",
			  argv[optind + 1]);
		return EXIT_USAGE;
	}
	/* Found as profiles and models are (drivedb.h): an installed copy reads its own. */
	given = path != NULL;
	if (!path) {
		if (drivedb_default_path(dflt, sizeof(dflt))) {
			cli_error("drives", "the bundled database's path is too long");
			return EXIT_FAILED;
		}
		path = dflt;
	}
	if (show_path) {
		printf("%s\n", path);
		return EXIT_OK;
	}
	ret = drivedb_load(path, &db, &err);
	if (ret < 0) {
		/* A file the user named is their input (exit 2, as a bad profile); a broken
		 * bundled database is ours (exit 1). */
		rc = given ? EXIT_USAGE : EXIT_FAILED;
		if (ret == -EINVAL)
			cli_error("drives", "%s", ydoc_error_format(&err, buf, sizeof(buf)));
		else
			cli_error("drives", "%s: %s", path, strerror(-ret));
		goto out;
	}
	if (optind == argc) {
		for (size_t i = 0; i < drivedb_count(db); i++) {
			const struct drivedb_entry *e = drivedb_entry(db, i);
			printf("  %-4s  %-9s  %s\n", drivedb_transport_name(e->transport),
			       e->n_nand ? "WA" : "no NAND", e->name);
		}
		rc = EXIT_OK;
		goto out;
	}
	const struct drivedb_entry *e = drivedb_lookup(db, t, argv[optind]);
	if (!e) {
		/* The file has catch-all entries; without them a model may match nothing. */
		printf("%s: no entry; WA null: no NAND-write counter known for %s\n", argv[optind],
		       argv[optind]);
		rc = EXIT_OK;
		goto out;
	}
	show(e);
	rc = EXIT_OK;
out:
	drivedb_free(db);
	return rc;
}
