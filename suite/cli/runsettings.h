/* SPDX-License-Identifier: MIT */
/*
 * runsettings: `run` and `resume`'s part of the drive settings a profile pins (run/
 * drive_settings.h): applied before the manifest is written (which records them as read back),
 * restored on the way out of the command, whatever the runner returned (SIGINT and SIGTERM
 * stop the runner, which returns; kill -9 leaves it to `ssdlab restore DIR`).
 */
#ifndef SSDLAB_CLI_RUNSETTINGS_H
#define SSDLAB_CLI_RUNSETTINGS_H

struct drive_settings;
struct json_object;
struct profile;
struct target;

/* Reads, sets and reads back the settings p pins on t, journaled in dir. 0 with *out (free it
 * with cli_settings_restore), or prints why and returns the exit code (cli.h). */
int cli_settings_apply(const char *cmd, struct target *t, const char *dir, const struct profile *p,
		       struct drive_settings **out);

/* Adds "drive_settings" to the manifest m. 0 or -ENOMEM. */
int cli_settings_manifest(struct json_object *m, const struct drive_settings *s);

/* Restores what s changed, prints what came back (or what did not and how to retry), frees s
 * (NULL: nothing). Returns code, or EXIT_FAILED when code was EXIT_OK and a restore failed. */
int cli_settings_restore(const char *cmd, const char *dir, struct drive_settings *s, int code);

#endif
