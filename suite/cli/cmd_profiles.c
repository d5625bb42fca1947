/* SPDX-License-Identifier: MIT */
/*
 * cmd_profiles: `ssdlab profiles` lists the bundled test profiles with their one-line
 * descriptions, and where they were found, so that a user can pick one for `check`, `plan`
 * and `run`, or copy one as a start for their own, and how long each takes on a typical 1 TB
 * drive (plan_typical_span(): the same plan as `ssdlab plan`, on assumed speeds stated in --help).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "base/units.h"
#include "profile/plan.h"
#include "profile/profile.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: ssdlab profiles [--paths]\n\n"
		   "Lists the bundled profiles (from $SSDLAB_PROFILES, the source tree, and the\n"
		   "installed data directory, in that order) with their descriptions; destructive\n"
		   "ones write to the target (run asks for --yes-destroy on a real device).\n\n"
		   "The \"1 TB drive\" column is the expected duration on a typical drive, a range\n"
		   "where steady state decides (window .. max_rounds rounds). Assumed, not measured:\n"
		   "1 TB (10^12 B) of user capacity, 512 B logical blocks, sequential writes at\n"
		   "500 MB/s after the SLC cache, random writes at 20000 IOPS in steady state (4 KiB:\n"
		   "81.92 MB/s; other block sizes at the same IOPS, at most 500 MB/s), reads at\n"
		   "the same rates, a purge by format that takes no time, no drains or cool-downs;\n"
		   "a spare factor of 7%% for the sprandom fill of the *-fast profiles (about\n"
		   "1.075 TB), written at the sequential rate (it ends before GC starts; an\n"
		   "early verdict can end their tracking rounds sooner than the column says).\n"
		   "`ssdlab plan PROFILE --target DEV` estimates a given drive.\n\n"
		   "  --paths     also print the file of each profile\n"
		   "  -h, --help  this text\n");
}

/* The expected duration of profile e on the typical drive ("5h47m .. 24h27m"; "?" when it does
 * not load: its description says why). */
static void typical(const struct profile_entry *e, char *buf, size_t len)
{
	struct profile *p = NULL;
	struct ydoc_error err;
	uint64_t lo, hi;
	char a[32], b[32];

	snprintf(buf, len, "?");
	_Static_assert(sizeof(a) + sizeof(b) + 4 <= 80, "the caller's buffer holds a range");
	if (!e->valid || profile_load(e->path, NULL, NULL, 0, &p, &err) ||
	    plan_typical_span(&p->phases, &lo, &hi)) {
		profile_free(p);
		return;
	}
	units_fmt_duration(lo, a, sizeof(a));
	units_fmt_duration(hi, b, sizeof(b));
	if (!hi) /* a kind whose length the plan cannot tell (trim-check's steps) */
		snprintf(buf, len, "-");
	else if (lo == hi)
		snprintf(buf, len, "%s", a);
	else
		snprintf(buf, len, "%s .. %s", a, b);
	profile_free(p);
}

int cmd_profiles(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"paths", no_argument, NULL, 'p'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct profile_entry *list = NULL;
	size_t n = 0, w = 8;
	bool paths = false;
	int c, ret;

	optind = 1;
	opterr = 0; /* one line of our own for a bad option, as run and io */
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			paths = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return cli_opt_reject("profiles", c, argv);
		}
	}
	if (optind != argc) {
		cli_error("profiles", "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	ret = profile_list_bundled(cli_profiles_dir(), &list, &n);
	if (ret) {
		cli_error("profiles", "cannot list profiles: %s", strerror(-ret));
		return EXIT_FAILED;
	}
	if (!n) {
		cli_error("profiles",
			  "no bundled profiles found (set SSDLAB_PROFILES to a directory "
			  "of .yaml files)");
		free(list);
		return EXIT_FAILED;
	}
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i].name) > w)
			w = strlen(list[i].name);
	printf("  %-*s  %-11s  %-19s  %s\n", (int)w, "profile", "", "1 TB drive", "description");
	for (size_t i = 0; i < n; i++) {
		char dur[80];

		typical(&list[i], dur, sizeof(dur));
		printf("  %-*s  %-11s  %-19s  %s\n", (int)w, list[i].name,
		       !list[i].valid	     ? ""
		       : list[i].destructive ? "destructive"
					     : "read-only",
		       dur, list[i].description);
		if (paths)
			printf("  %-*s  %-11s  %-19s  %s\n", (int)w, "", "", "", list[i].path);
	}
	free(list);
	return EXIT_OK;
}
