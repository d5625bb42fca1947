/* SPDX-License-Identifier: MIT */
/*
 * runsettings: the drive settings of `run` and `resume` (see runsettings.h).
 */
#include "cli/runsettings.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/cli.h"
#include "cli/clock.h"
#include "cli/runflow.h"
#include "run/drive_settings.h"

int cli_settings_apply(const char *cmd, struct target *t, const char *dir, const struct profile *p,
		       struct drive_settings **out)
{
	struct drive_settings *s = NULL;
	char err[1024] = "";
	int rc;

	rc = drive_settings_open(t, dir, p, cli_wall_ns, NULL, &s, err, sizeof(err));
	if (rc) {
		cli_error(cmd, "%s", err[0] ? err : strerror(-rc));
		return cli_exit_code(rc);
	}
	rc = drive_settings_apply(s, err, sizeof(err));
	if (rc) {
		cli_error(cmd, "%s", err[0] ? err : strerror(-rc));
		/* What was tried is journaled: undo it now. */
		return cli_settings_restore(cmd, dir, s,
					    cli_exit_code(rc) ? cli_exit_code(rc) : EXIT_FAILED);
	}
	*out = s;
	return 0;
}

int cli_settings_manifest(struct json_object *m, const struct drive_settings *s)
{
	struct json_object *o;

	if (!s)
		return 0;
	o = drive_settings_to_json(s);
	if (!o || json_object_object_add(m, "drive_settings", o)) {
		json_object_put(o);
		return -ENOMEM;
	}
	return 0;
}

int cli_settings_restore(const char *cmd, const char *dir, struct drive_settings *s, int code)
{
	char msg[2048] = "";
	int rc;

	if (!s)
		return code;
	rc = drive_settings_restore(s, msg, sizeof(msg));
	drive_settings_free(s);
	if (rc) {
		cli_error(cmd, "restoring the drive's settings: %s", msg[0] ? msg : strerror(-rc));
		fprintf(stderr, "ssdlab %s: retry with: ssdlab restore %s\n", cmd, dir);
		return code == EXIT_OK ? EXIT_FAILED : code;
	}
	if (msg[0])
		fprintf(stderr, "ssdlab %s: drive settings: %s\n", cmd, msg);
	return code;
}
