/* SPDX-License-Identifier: MIT */
/*
 * cmd_restore: `ssdlab restore DIR [--dry-run]` puts back what a run changed on a drive when the
 * run could not (kill -9, a crash, a power loss): it reads DIR/journal.jsonl, opens each device
 * named by an outstanding change, checks it is the same drive (serial and WWN; a different
 * drive at the path is refused), re-reads the setting and sends the restoring command unless
 * the drive is already back, reads it back and journals the outcome (targets/devchange.h).
 *
 * Exit codes (cli.h): 0 all restored (or nothing outstanding), 1 a restore failed or a device
 * could not be opened, 2 usage or a bad journal, 3 a different drive at the path (refused).
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "cli/cli.h"
#include "cli/drive_open.h"
#include "cli/options.h"
#include "results/journal.h"
#include "targets/devchange.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: ssdlab restore DIR [--dry-run]\n\n"
		"Restores the drive settings a run changed and did not put back (after kill -9,\n"
		"a crash or a power loss), from DIR/journal.jsonl: each change is undone newest\n"
		"first on the same drive (serial and WWN checked; another drive at the path is\n"
		"refused), after reading the drive's current value; each outcome is journaled.\n\n"
		"  --dry-run   print the commands that would be sent; send and journal nothing\n"
		"  -h, --help  this text\n");
}

/* Restores the outstanding entries made at path; *refused set when the drive there is another
 * one. Returns the exit code for this device. */
static int restore_path(const char *dir, const char *path, const struct journal_entry *e, size_t n,
			bool dry, bool *refused)
{
	struct devchange_restore_result *res = NULL;
	struct journal *j = NULL;
	struct cli_drive d;
	struct devchange_ctx c;
	char err[1024] = "";
	size_t nres = 0;
	int rc, code = EXIT_FAILED;

	/* the drive is reached through cli/drive_open.h (the kernel in the shipped program) */
	rc = cli_drive_open(path, &d, err, sizeof(err));
	if (rc) {
		cli_error("restore", "cannot open %s to restore it: %s", path, err);
		goto out;
	}
	if (!dry && (rc = journal_open(dir, &j, err, sizeof(err)))) {
		cli_error("restore", "%s", err);
		goto out;
	}
	rc = cli_drive_ctx(&d, path, j, &c, err, sizeof(err));
	if (rc) {
		cli_error("restore", "%s", err);
		goto out;
	}
	c.dry_run = dry;
	res = calloc(n, sizeof(*res));
	if (!res) {
		cli_error("restore", "out of memory");
		goto out;
	}
	rc = devchange_restore(&c, e, n, res, &nres);
	for (size_t i = 0; i < nres; i++) {
		printf("%s %s (%s) on %s: %s\n",
		       res[i].ok ? (dry ? "would restore" : "restored") : "NOT restored", res[i].id,
		       res[i].kind, path, res[i].what);
		if (!res[i].ok && !strncmp(res[i].what, "refused:", 8))
			*refused = true;
	}
	code = rc ? EXIT_FAILED : EXIT_OK;
out:
	free(res);
	journal_close(j);
	cli_drive_close(&d);
	return code;
}

int cmd_restore(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"dry-run", no_argument, NULL, 'n'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct journal_entry *e = NULL;
	const char *dir, *paths[16];
	size_t n = 0, npaths = 0;
	bool dry = false, torn = false, refused = false;
	char err[1024] = "";
	int c, rc, code = EXIT_USAGE;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":nh", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			dry = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return cli_opt_reject("restore", c, argv);
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	dir = argv[optind];
	rc = journal_read(dir, &e, &n, &torn, err, sizeof(err));
	if (rc) {
		cli_error("restore", "%s: %s", dir, err[0] ? err : strerror(-rc));
		return rc == -EBADMSG ? EXIT_USAGE : EXIT_FAILED;
	}
	if (torn)
		fprintf(stderr,
			"ssdlab restore: dropped a torn last journal line (a crash mid-append: "
			"its command was never sent)\n");
	if (!journal_outstanding(e, n)) {
		printf("nothing to restore in %s (%zu change(s) journaled, all restored)\n", dir,
		       n);
		code = EXIT_OK;
		goto out;
	}
	/* The devices the outstanding changes were made at, each once. */
	for (size_t i = 0; i < n; i++) {
		const char *p = e[i].device ? jsonget_str(e[i].device, "path") : NULL;
		bool seen = false;

		if (e[i].restored_ok)
			continue;
		if (!p || !p[0]) {
			cli_error("restore", "%s names no device path: cannot find its drive",
				  e[i].id);
			code = EXIT_FAILED;
			goto out;
		}
		for (size_t k = 0; k < npaths; k++)
			seen |= !strcmp(paths[k], p);
		if (!seen && npaths < sizeof(paths) / sizeof(paths[0]))
			paths[npaths++] = p;
	}
	code = EXIT_OK;
	for (size_t k = 0; k < npaths; k++) {
		int pc = restore_path(dir, paths[k], e, n, dry, &refused);

		if (pc && code == EXIT_OK)
			code = pc;
	}
	if (refused) {
		fprintf(
		    stderr,
		    "ssdlab restore: a different drive is at the journal's path: put the drive "
		    "that was changed back (the journal names its serial) and run restore again\n");
		code = EXIT_SAFETY;
	}
out:
	journal_entries_free(e, n);
	return code;
}
