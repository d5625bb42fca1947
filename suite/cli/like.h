/* SPDX-License-Identifier: MIT */
/*
 * like: `ssdlab run --like DIR`: the recorded run a new run repeats. From DIR/manifest.json it
 * rebuilds the profile exactly as that run read it (its text, its `extends` parents' texts, its
 * --set overrides: profile_parse_recorded) and takes its seed, time scale, chunks and target, so
 * that the new run differs from it only in what the user names (--target, --out) and in the wall
 * clock. The new manifest names the run it repeats under "like" (docs/results-format.md).
 */
#ifndef SSDLAB_CLI_LIKE_H
#define SSDLAB_CLI_LIKE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/options.h"

struct json_object;
struct profile;
struct profile_parent;

struct cli_like {
	struct json_object *manifest; /* DIR/manifest.json (owned) */
	const char *dir;	      /* DIR as given */
	struct profile *profile;      /* owned; cli_like_release frees it unless taken (NULL'd) */
	struct cli_strlist sets;      /* the recorded --set overrides, in order */
	const char *target;	      /* the recorded target spec (in manifest) */
	uint64_t seed;
	double time_scale;	      /* the recorded user --time-scale (1 when absent) */
	uint64_t chunk_bytes, chunk_ns; /* the recorded chunks (0 = absent: defaults) */
	bool strict_pts;		/* the recorded --strict-pts (options.strict_pts) */
};

/* Reads DIR's manifest and rebuilds its run's profile and options into *l (zeroed first).
 * Returns 0, or prints "ssdlab run: ..." and returns the exit code (cli.h): EXIT_USAGE for a
 * missing or unusable manifest or a profile that no longer parses, EXIT_FAILED otherwise. On
 * failure *l holds nothing to release beyond what cli_like_release accepts. */
int cli_like_load(const char *dir, struct cli_like *l);

/* Adds "like": {dir, profile, target, seed, time_scale, started_utc} to the manifest m. 0 or
 * -ENOMEM. */
int cli_like_manifest(struct json_object *m, const struct cli_like *l);

/* The `extends` parents a manifest recorded (profile.extends), for profile_parse_recorded: an
 * array (free it; its strings are borrowed from manifest) in *out and its length in *n; NULL and
 * 0 for a manifest without them (older runs). -EINVAL when an entry lacks ref, path or text,
 * -ENOMEM; *out and *n untouched on failure. Shared by `resume` and `run --like`. */
int cli_manifest_parents(struct json_object *manifest, struct profile_parent **out, size_t *n);

/* Frees what l holds (the manifest, the profile unless taken, the sets). Accepts a zeroed l. */
void cli_like_release(struct cli_like *l);

#endif
