/* SPDX-License-Identifier: MIT */
/*
 * cmd_check: `ssdlab check PROFILE` validates a profile (a path or a bundled name) without
 * touching any target and prints a one-paragraph summary of the plan, or the first error as
 * `file:line:col: message` with exit 2. --set applies the same overrides as `run`, --json prints
 * the resolved plan that a run's manifest would record, --capacity adds the bytes written.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "base/fileio.h"
#include "profile/profile.h"
#include "base/units.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ssdlab check PROFILE|- [--set KEY=VALUE]... [--capacity SIZE] [--json]\n\n"
		"Validates PROFILE (a .yaml path, a bundled name, see `ssdlab profiles`, or - for\n"
		"standard input) and prints a summary of its plan. No target is opened.\n\n"
		"  --set KEY=VALUE   override a value by its path before validation, e.g.\n"
		"                    --set phases.2.rounds.cell_time=30s (list indexes from 0)\n"
		"  --capacity SIZE   also print the bytes the profile writes on a target of SIZE\n"
		"  --json            print the resolved plan as JSON instead of the summary\n"
		"  -h, --help        this text\n\n"
		"Errors are printed as file:line:col: message; exit 0 valid, 2 invalid.\n");
}

/* `ssdlab check -`: the profile from standard input (at most 16 MiB, as for files). */
static int load_stdin(const char *const *sets, size_t nsets, struct profile **out,
		      struct ydoc_error *err)
{
	char *buf;
	size_t len;
	int ret = fileio_read_fd(STDIN_FILENO, 16u << 20, &buf, &len);

	if (ret) {
		memset(err, 0, sizeof(*err));
		snprintf(err->file, sizeof(err->file), "<stdin>");
		if (ret == -EFBIG || ret == -ENOMEM)
			snprintf(err->msg, sizeof(err->msg), "more than 16 MiB, or out of memory");
		else
			snprintf(err->msg, sizeof(err->msg), "cannot read: %s", strerror(-ret));
		return -EINVAL;
	}
	ret = profile_parse_string(buf, len, "<stdin>", sets, nsets, out, err);
	free(buf);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"set", required_argument, NULL, 's'},
	    {"capacity", required_argument, NULL, 'c'},
	    {"json", no_argument, NULL, 'j'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct cli_strlist sets = {0};
	struct profile *p = NULL;
	struct ydoc_error err;
	uint64_t capacity = 0;
	bool json = false;
	char buf[8192];
	int c, ret, rc = EXIT_USAGE;

	optind = 1;
	opterr = 0; /* one line of our own for a bad option, as run and io */
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (cli_strlist_add(&sets, optarg)) {
				cli_error("check", "out of memory");
				goto out;
			}
			break;
		case 'c':
			if (cli_opt_size("check", "--capacity", optarg, &capacity))
				goto out;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			rc = EXIT_OK;
			goto out;
		default:
			rc = cli_opt_reject("check", c, argv);
			goto out;
		}
	}
	if (optind != argc - 1) {
		cli_error("check", "expected one PROFILE (see ssdlab check --help)");
		goto out;
	}
	if (!strcmp(argv[optind], "-"))
		ret = load_stdin((const char *const *)sets.v, sets.n, &p, &err);
	else
		ret = profile_load(argv[optind], cli_profiles_dir(), (const char *const *)sets.v,
				   sets.n, &p, &err);
	if (ret == -ENOMEM) {
		cli_error("check", "out of memory");
		rc = EXIT_FAILED;
		goto out;
	}
	if (ret) {
		fprintf(stderr, "%s\n", ydoc_error_format(&err, buf, sizeof(buf)));
		goto out;
	}
	if (json) {
		struct json_object *o = profile_to_json(p);

		if (!o) {
			cli_error("check", "out of memory");
			rc = EXIT_FAILED;
			goto out;
		}
		printf("%s\n", json_object_to_json_string_ext(
				   o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
		json_object_put(o);
	} else {
		printf("%s\n", profile_summary(p, buf, sizeof(buf)));
		if (capacity) {
			uint64_t bytes = 0;
			char a[32], b[32];

			ret = profile_bytes_written(p, capacity, &bytes);
			printf("On a target of %s it writes %s%s.\n",
			       units_fmt_size(capacity, a, sizeof(a)),
			       ret == -ENODATA ? "at least " : "",
			       units_fmt_size(bytes, b, sizeof(b)));
			if (ret == -ENODATA)
				printf("(time-bound phases add what the target's speed allows; "
				       "see ssdlab plan)\n");
		}
	}
	rc = EXIT_OK;
out:
	profile_free(p);
	cli_strlist_release(&sets);
	return rc;
}
