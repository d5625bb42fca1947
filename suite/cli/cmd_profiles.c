/* SPDX-License-Identifier: MIT */
/*
 * cmd_profiles: `ssdlab profiles` lists the bundled test profiles with their one-line
 * descriptions, and where they were found, so that a user can pick one for `check`, `plan`
 * and `run`, or copy one as a start for their own.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "profile/profile.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: ssdlab profiles [--paths]\n\n"
		   "Lists the bundled profiles (from $SSDLAB_PROFILES, the source tree, and the\n"
		   "installed data directory, in that order) with their descriptions; destructive\n"
		   "ones write to the target (run asks for --yes-destroy on a real device).\n\n"
		   "  --paths     also print the file of each profile\n"
		   "  -h, --help  this text\n");
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
	for (size_t i = 0; i < n; i++) {
		printf("  %-*s  %-11s  %s\n", (int)w, list[i].name,
		       !list[i].valid	     ? ""
		       : list[i].destructive ? "destructive"
					     : "read-only",
		       list[i].description);
		if (paths)
			printf("  %-*s  %-11s  %s\n", (int)w, "", "", list[i].path);
	}
	free(list);
	return EXIT_OK;
}
