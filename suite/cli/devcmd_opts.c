// SPDX-License-Identifier: MIT
#include "cli/devcmd_opts.h"

#include <getopt.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"

int devcmd_opts_parse(const char *cmd, int argc, char **argv, unsigned extra,
		      void (*usage)(FILE *f), struct devcmd_opts *o)
{
	/* The full table; the options a command does not take are answered as unknown below,
	 * exactly as getopt would had they not been listed. */
	static const struct option opts[] = {
	    {"set", required_argument, NULL, 's'},  {"restore", no_argument, NULL, 'r'},
	    {"persistent", no_argument, NULL, 'p'}, {"journal", required_argument, NULL, 'J'},
	    {"dry-run", no_argument, NULL, 'n'},    {"json", no_argument, NULL, 'j'},
	    {"help", no_argument, NULL, 'h'},	    {NULL, 0, NULL, 0},
	};
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			o->set = optarg;
			break;
		case 'r':
			if (!(extra & DEVCMD_RESTORE))
				return cli_opt_reject(cmd, '?', argv);
			o->restore = true;
			break;
		case 'p':
			if (!(extra & DEVCMD_PERSISTENT))
				return cli_opt_reject(cmd, '?', argv);
			o->persistent = true;
			break;
		case 'J':
			o->journal = optarg;
			break;
		case 'n':
			o->dry = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			return cli_opt_reject(cmd, c, argv);
		}
	}
	if (optind + 1 != argc) {
		cli_error(cmd, optind == argc ? "missing DEV" : "unexpected argument '%s'",
			  argv[optind + (optind != argc)]);
		return EXIT_USAGE;
	}
	o->dev = argv[optind];
	return 0;
}
