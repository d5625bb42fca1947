/* SPDX-License-Identifier: MIT */
/*
 * profile: the profile language (docs/profiles.md), parsed and validated into a typed plan.
 *
 * A profile is a YAML mapping: name, description, destructive, optional defaults, and phases,
 * an ordered list whose items are one-key mappings `- <kind>: {settings}`. Parsing goes
 *   text --ydoc--> tree --(--set overrides)--> phase registry parse hooks --> struct profile
 * and every error is a struct ydoc_error ("file:line:col: message", said what was expected).
 * The phases, their kinds and what they are made of are one layer below, in phases.h.
 */
#ifndef SSDLAB_PROFILE_H
#define SSDLAB_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile/phases.h"
#include "profile/pts.h"
#include "base/ydoc.h"

struct json_object;

/* ---- profiles ------------------------------------------------------------------------------- */

/* A drive setting a profile pins (issue 13): left as the drive has it, or set on / off for the
 * run (journaled and restored, targets/devchange.h). */
enum profile_drive_setting {
	PROFILE_AS_FOUND = 0,
	PROFILE_ON,
	PROFILE_OFF,
};

/* "as-found", "on", "off" (the profile's words). */
const char *profile_drive_setting_name(enum profile_drive_setting s);

/* A profile an `extends:` chain read: the `extends:` value that named it, its path, its text. */
struct profile_parent {
	char *ref;
	char *path;
	char *text;
};

struct profile {
	char *name;
	char *description;
	bool destructive; /* as the profile says (`destructive: true`) */
	struct profile_defaults defaults;
	struct phase_list phases;
	/* the cool-down gate before every phase (`cooldown:` at the top level; a phase's own
	 * wins: profile_cooldown_for()); set false when absent */
	struct profile_cooldown cooldown;
	/* `write_cache:` at the top level: the drive's volatile write cache for the run (SNIA PTS
	 * Enterprise: off, Client: on); as-found when absent */
	enum profile_drive_setting write_cache;
	/* write_cache came from the pts: variant, not from the profile's `write_cache:`: a target
	 * that cannot set it runs as found, saying so (run/drive_settings.h) */
	bool write_cache_from_pts;
	/* `pts:` at the top level: the SNIA PTS operator settings (profile/pts.h); pts.set false
	 * when absent */
	struct profile_pts pts;
	/* `power_states:` at the top level: as-found, or off (NVMe APST disabled, SATA ALPM
	 * max_performance) for idle-recovery tests */
	enum profile_drive_setting power_states;
	/* power_states came from the pts: block (test hir: off, so that no low-power state cuts
	 * the waits short), not from `power_states:`: a target without power states (the virtual
	 * SSD, a file) runs as found, saying so (run/drive_settings.h) */
	bool power_states_from_pts;
	char *text; /* the raw profile text, NUL-terminated (the manifest keeps it) */
	size_t text_len;
	char *path; /* where it was read from ("<string>" for strings) */
	/* The profiles it extends (`extends:`), nearest first, as read when it was parsed: the
	 * manifest keeps their texts so that a resume rebuilds the same profile even when a
	 * parent on disk has changed or gone since (profile_parse_recorded). */
	struct profile_parent *parents;
	size_t nparents;
};

/*
 * Parses and validates text[0..len). `sets` are "KEY=VALUE" overrides (ydoc_set_path paths)
 * applied before validation; nsets may be 0. A profile with `extends: NAME` (profile/extends.h)
 * is read from NAME.yaml beside `file`, else from the bundled profiles (profile_find() without a
 * user directory; profile_load() passes its own), with its `set:` applied before the `sets`. On success *out is a new profile (profile_free).
 * Errors (-EINVAL, err filled): syntax, schema, validation (writing phases without
 * `destructive: true`, reported at the first such phase), bad --set path.
 */
int profile_parse_string(const char *text, size_t len, const char *file, const char *const *sets,
			 size_t nsets, struct profile **out, struct ydoc_error *err);

/*
 * Finds a profile by path or bundled name: an existing path (anything with a '/' or ending in
 * .yaml/.yml is taken as a path), else NAME.yaml in user_dir (NULL or "" for none; the CLI
 * passes $SSDLAB_PROFILES: the library reads no environment), SSDLAB_PROFILES_SRCDIR and
 * SSDLAB_PROFILES_DIR (config.h), in that order. Returns 0 with the path, -ENOENT (err says
 * where it looked) or -ENAMETOOLONG.
 */
int profile_find(const char *name, const char *user_dir, char *path, size_t len,
		 struct ydoc_error *err);

/*
 * profile_parse_string() for a profile recorded in a manifest: an `extends:` whose value equals a
 * `known[i].ref` is read from known[i].text (parsed as known[i].path), never from disk, so that
 * the profile is the one the run started with. A parent not in `known` is looked up as usual
 * (a manifest written before parents were recorded).
 */
int profile_parse_recorded(const char *text, size_t len, const char *file,
			   const char *const *sets, size_t nsets, const struct profile_parent *known,
			   size_t nknown, struct profile **out, struct ydoc_error *err);

/* profile_find() + read + profile_parse_string(). */
int profile_load(const char *name_or_path, const char *user_dir, const char *const *sets,
		 size_t nsets, struct profile **out, struct ydoc_error *err);

void profile_free(struct profile *p);

/* True when any phase (at any depth) writes, discards or purges. */
bool profile_writes(const struct profile *p);

/* The resolved plan as JSON (name, description, destructive, defaults, phases with every
 * setting and, for rounds, the expanded cell keys). New reference; NULL on -ENOMEM. */
struct json_object *profile_to_json(const struct profile *p);

/* A one-paragraph summary for `ssdlab check` ("snia-iops: destructive, 3 phases: purge (auto);
 * precondition ...; rounds of 56 cells x 60 s to steady state ..."). Returns buf. */
const char *profile_summary(const struct profile *p, char *buf, size_t len);

/*
 * Bytes the whole profile writes given a capacity, where computable (repeat counts multiplied;
 * rounds to steady state counted at max_rounds). Returns 0, or -ENODATA when some phase is
 * time-bound (then *bytes holds the computable part, a lower bound).
 */
int profile_bytes_written(const struct profile *p, uint64_t capacity, uint64_t *bytes);

/* ---- bundled profiles ----------------------------------------------------------------------- */

struct profile_entry {
	char name[64];
	char path[4096];
	char description[256];
	bool valid;	  /* it parsed (else description says why not) */
	bool destructive; /* it writes to the target */
};

/* Lists the bundled profiles of profile_find()'s search path (user_dir first; the first
 * directory that has NAME.yaml wins), sorted by name. *list is malloc'ed (free()). Unparseable
 * files are listed with a description starting "(invalid: ...)". */
int profile_list_bundled(const char *user_dir, struct profile_entry **list, size_t *n);

#endif
