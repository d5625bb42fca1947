/* SPDX-License-Identifier: MIT */
/*
 * drive_settings: the drive settings a profile pins for a run (see drive_settings.h). Each
 * setting is one devchange kind (targets/devchange.h): write_cache ({"enabled": bool}) and
 * power_state (NVMe {"apst", "table"}, SATA {"alpm", "devslp"}).
 */
#include "run/drive_settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "results/journal.h"
#include "targets/devchange.h"
#include "targets/devchange_target.h"

/* The settings, in the order they are applied (restored in reverse by the journal). */
enum { SET_WC, SET_PS, NSET };

struct setting {
	const char *kind; /* the devchange kind */
	const char *key;  /* the manifest's key */
	enum profile_drive_setting want;
	struct json_object *found;    /* as found; NULL unknown */
	struct json_object *readback; /* after apply / the last recheck; NULL not read */
	char note[256]; /* why a setting the pts: variant asked for is left as found ("": none) */
};

struct drive_settings {
	struct target *t;
	char *dir;
	bool drive; /* a real drive, changed through devchange (else none, or the sim) */
	bool sim;   /* the virtual SSD: its model's write cache, nothing journaled */
	int fd;	    /* the drive's block device, for the commands */
	struct json_object *identity;
	struct journal *journal; /* opened at the first change */
	struct devchange_ctx c;
	char alpm[DEVCHANGE_ALPM_PATH_MAX];
	struct setting set[NSET];
};

static int read_setting(struct drive_settings *s, struct setting *st, struct json_object **v,
			char *err, size_t errlen)
{
	return devchange_kind(st->kind)->read(&s->c, v, err, errlen);
}

/* The value that pins st as the profile wants, from what was found (the APST table is kept). */
static struct json_object *wanted(const struct drive_settings *s, const struct setting *st)
{
	struct json_object *o = json_object_new_object(), *t = NULL;
	int e = 0;

	if (!o)
		return NULL;
	if (st == &s->set[SET_WC]) {
		e |= json_object_object_add(o, "enabled",
					    json_object_new_boolean(st->want == PROFILE_ON));
	} else if (s->c.transport == DRIVEDB_NVME) {
		e |= json_object_object_add(o, "apst", json_object_new_boolean(false));
		if (st->found && json_object_object_get_ex(st->found, "table", &t))
			e |= json_object_object_add(o, "table", json_object_get(t));
	} else {
		e |= json_object_object_add(o, "alpm", json_object_new_string("max_performance"));
	}
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/*
 * A write cache setting that came from a pts: variant, not from `write_cache:`, on a target that
 * cannot have it: SNIA PTS asks for it "where the target allows", so the run goes on with the
 * cache as found and the manifest says why (drive_settings_note). True when softened.
 */
static bool soften(struct drive_settings *s, const struct profile *p, int i, const char *why)
{
	if (i == SET_PS && p->power_states_from_pts) {
		/* the hir test pins the power states where the target offers it (issue 16) */
		snprintf(s->set[i].note, sizeof(s->set[i].note),
			 "the pts test asks for power states off, but the target cannot set or "
			 "report them: %s",
			 why);
		s->set[i].want = PROFILE_AS_FOUND;
		return true;
	}
	if (i != SET_WC || !p->write_cache_from_pts)
		return false;
	snprintf(s->set[i].note, sizeof(s->set[i].note),
		 "the pts variant asks for write cache %s, but the target cannot set or report "
		 "it: %s",
		 profile_drive_setting_name(s->set[i].want), why);
	s->set[i].want = PROFILE_AS_FOUND;
	return true;
}

/* The virtual SSD's write cache as its model now has it (the snapshot's raw model), or NULL. */
static struct json_object *sim_write_cache_now(struct target *t)
{
	struct snapshot snap;
	struct json_object *v, *o = NULL;

	snapshot_init(&snap, "sim");
	if (!target_snapshot(t, &snap) && snap.raw &&
	    json_object_object_get_ex(snap.raw, "write_cache", &v) &&
	    (o = json_object_new_object()) &&
	    json_object_object_add(o, "enabled", json_object_get(v))) {
		json_object_put(o);
		o = NULL;
	}
	snapshot_release(&snap);
	return o;
}

const char *drive_settings_note(const struct drive_settings *s)
{
	return s->set[SET_WC].note;
}

int drive_settings_write_cache(const struct drive_settings *s)
{
	struct json_object *v = NULL;

	if (!s->set[SET_WC].readback ||
	    !json_object_object_get_ex(s->set[SET_WC].readback, "enabled", &v) ||
	    !json_object_is_type(v, json_type_boolean))
		return -1;
	return json_object_get_boolean(v) ? 1 : 0;
}

int drive_settings_open(struct target *t, const char *dir, const struct profile *p,
			uint64_t (*wall_ns)(void), const struct ioctl_ops *ops,
			struct drive_settings **out, char *err, size_t errlen)
{
	const struct target_info *ti = target_info(t);
	struct drive_settings *s = calloc(1, sizeof(*s));
	char why[512] = "";
	int rc;

	if (!s)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	s->t = t;
	s->fd = -1;
	s->set[SET_WC] =
	    (struct setting){.kind = "write_cache", .key = "write_cache", .want = p->write_cache};
	s->set[SET_PS] =
	    (struct setting){.kind = "power_state", .key = "power_states", .want = p->power_states};
	s->dir = strdup(dir);
	if (!s->dir) {
		rc = errmsg_set(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	if (ti->kind == TARGET_KIND_SIM) {
		/* The model's write cache; it has no power states to pin. */
		if (p->power_states != PROFILE_AS_FOUND &&
		    !soften(s, p, SET_PS, "the virtual SSD has no power states")) {
			rc = errmsg_set(err, errlen, -EOPNOTSUPP,
					"power_states: off: the virtual SSD has no "
					"power states");
			goto fail;
		}
		s->sim = true;
		*out = s;
		return 0;
	}
	s->identity = devchange_target_identity(ti);
	if (!s->identity) {
		rc = errmsg_set(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	rc = devchange_target_ctx(ti, -1, s->identity, NULL, wall_ns, &s->c, s->alpm, why,
				  sizeof(why));
	if (rc) {
		for (int i = 0; i < NSET; i++)
			if (s->set[i].want != PROFILE_AS_FOUND && soften(s, p, i, why))
				continue;
			else if (s->set[i].want != PROFILE_AS_FOUND) {
				rc = errmsg_set(err, errlen, rc, "%s: %s: %s", s->set[i].key,
						profile_drive_setting_name(s->set[i].want), why);
				goto fail;
			}
		*out = s; /* a file or a loop device: nothing to record, nothing asked */
		return 0;
	}
	/* The commands need only a read-only descriptor (the kernel checks CAP_SYS_ADMIN /
	 * CAP_SYS_RAWIO, not the open mode), so it never competes with the target's O_EXCL. */
	s->fd = open(ti->path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		rc = errmsg_set(err, errlen, -errno, "%s: %s", ti->path, strerror(errno));
		goto fail;
	}
	s->c.fd = s->fd;
	if (ops)
		s->c.ops = ops;
	s->drive = true;
	/* As found, always (the manifest records it); required only where the profile pins it. */
	for (int i = 0; i < NSET; i++) {
		struct setting *st = &s->set[i];

		rc = read_setting(s, st, &st->found, why, sizeof(why));
		if (rc && st->want != PROFILE_AS_FOUND && !soften(s, p, i, why)) {
			rc = errmsg_set(err, errlen, rc, "%s: %s: %s", st->key,
					profile_drive_setting_name(st->want), why);
			goto fail;
		}
	}
	*out = s;
	return 0;
fail:
	drive_settings_free(s);
	return rc;
}

void drive_settings_free(struct drive_settings *s)
{
	if (!s)
		return;
	for (int i = 0; i < NSET; i++) {
		json_object_put(s->set[i].found);
		json_object_put(s->set[i].readback);
	}
	journal_close(s->journal);
	json_object_put(s->identity);
	if (s->fd >= 0)
		close(s->fd);
	free(s->dir);
	free(s);
}

const struct devchange_ctx *drive_settings_change_ctx(struct drive_settings *s, char *err,
						      size_t errlen)
{
	if (!s->drive) {
		snprintf(err, errlen, "not a drive ssdlab can change");
		return NULL;
	}
	if (!s->journal) {
		if (journal_open(s->dir, &s->journal, err, errlen))
			return NULL;
		s->c.journal = s->journal;
	}
	return &s->c;
}

/* Sets st as the profile wants and reads it back. */
static int pin(struct drive_settings *s, struct setting *st, char *err, size_t errlen)
{
	struct json_object *to, *back = NULL;
	int rc;

	if (!s->journal) {
		rc = journal_open(s->dir, &s->journal, err, errlen);
		if (rc)
			return rc;
		s->c.journal = s->journal;
	}
	to = wanted(s, st);
	if (!to)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	rc = devchange_set(&s->c, st->kind, to, err, errlen);
	json_object_put(to);
	if (!rc)
		rc = read_setting(s, st, &back, err, errlen);
	if (rc)
		return rc;
	json_object_put(st->readback);
	st->readback = back;
	return 0;
}

int drive_settings_apply(struct drive_settings *s, char *err, size_t errlen)
{
	for (int i = 0; i < NSET; i++) {
		struct setting *st = &s->set[i];
		int rc;

		if (st->want == PROFILE_AS_FOUND) {
			st->readback = json_object_get(st->found);
			continue;
		}
		if (s->sim) {
			bool on = st->want == PROFILE_ON;

			rc = target_set_write_cache(s->t, on);
			if (rc)
				return errmsg_set(err, errlen, rc, "write_cache: %s",
						  target_error(s->t));
			/* read back from the model, not assumed from what was asked */
			st->readback = sim_write_cache_now(s->t);
			if (!st->readback)
				return errmsg_set(err, errlen, -EIO,
						  "write_cache: the virtual SSD's snapshot does not "
						  "say it");
			continue;
		}
		rc = pin(s, st, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

int drive_settings_recheck(struct drive_settings *s, char *note, size_t notelen, char *err,
			   size_t errlen)
{
	size_t len = 0;

	if (note && notelen)
		note[0] = '\0';
	if (!s->drive)
		return 0;
	for (int i = 0; i < NSET; i++) {
		struct setting *st = &s->set[i];
		struct json_object *now = NULL, *to;
		bool held;
		int rc;

		if (st->want == PROFILE_AS_FOUND)
			continue;
		rc = read_setting(s, st, &now, err, errlen);
		if (rc)
			return rc;
		to = wanted(s, st);
		held = to && devchange_kind(st->kind)->same(now, to);
		json_object_put(to);
		if (held) {
			json_object_put(now);
			continue;
		}
		/* Back at the default: an NVMe controller reset undoes a Set Features without the
		 * save bit, and the kernel writes its own APST table after one. */
		rc = pin(s, st, err, errlen);
		if (!rc && note && len < notelen) {
			int w = snprintf(
			    note + len, notelen - len,
			    "%s%s found %s at a phase boundary (a reset restores the drive's "
			    "default); set %s again",
			    len ? "; " : "", st->key,
			    json_object_to_json_string_ext(now, JSON_C_TO_STRING_PLAIN |
								    JSON_C_TO_STRING_NOSLASHESCAPE),
			    profile_drive_setting_name(st->want));

			len += w > 0 ? (size_t)w : 0;
		}
		json_object_put(now);
		if (rc)
			return rc;
	}
	return 0;
}

int drive_settings_restore(struct drive_settings *s, char *msg, size_t msglen)
{
	return drive_settings_restore_kind(s, NULL, msg, msglen);
}

int drive_settings_restore_kind(struct drive_settings *s, const char *kind, char *msg,
				size_t msglen)
{
	struct journal_entry *e = NULL;
	struct devchange_restore_result *res = NULL;
	size_t n = 0, nres = 0, len = 0;
	char err[512] = "";
	int rc;

	if (msg && msglen)
		msg[0] = '\0';
	if (!s->drive)
		return 0; /* nothing can have been changed */
	rc = journal_read(s->dir, &e, &n, NULL, err, sizeof(err));
	if (rc) {
		snprintf(msg, msglen, "reading the journal: %s", err);
		return rc;
	}
	/* other kinds stay for the run's end (the pinned settings hold until then): they are
	 * taken as restored in this in-memory copy only, so devchange_restore passes them by */
	for (size_t i = 0; kind && i < n; i++)
		if (strcmp(e[i].kind, kind))
			e[i].restored_ok = true;
	if (!journal_outstanding(e, n)) {
		journal_entries_free(e, n);
		return 0;
	}
	/* Outstanding changes this process did not make (a resume after kill -9 that found the
	 * drive still pinned) are restored too: the journal is opened for their outcome. */
	if (!s->journal) {
		rc = journal_open(s->dir, &s->journal, err, sizeof(err));
		if (rc) {
			snprintf(msg, msglen, "opening the journal: %s", err);
			journal_entries_free(e, n);
			return rc;
		}
		s->c.journal = s->journal;
	}
	res = calloc(n ? n : 1, sizeof(*res));
	if (!res) {
		journal_entries_free(e, n);
		return -ENOMEM;
	}
	rc = devchange_restore(&s->c, e, n, res, &nres);
	for (size_t i = 0; i < nres && len + 1 < msglen; i++) {
		int w = snprintf(msg + len, msglen - len, "%s%s %s: %s", i ? "; " : "",
				 res[i].ok ? "restored" : "NOT restored", res[i].id, res[i].what);

		len += w > 0 ? (size_t)w : 0;
	}
	free(res);
	journal_entries_free(e, n);
	return rc;
}

/* A setting's value for the manifest: write_cache's "enabled" as a bare bool, a power state's
 * object without the APST table (512 hex digits the journal keeps). A new reference or NULL. */
static struct json_object *manifest_value(const struct setting *st, struct json_object *v)
{
	struct json_object *x = NULL, *c = NULL;

	if (!v)
		return NULL;
	if (!strcmp(st->kind, "write_cache"))
		return json_object_object_get_ex(v, "enabled", &x) ? json_object_get(x) : NULL;
	if (json_object_deep_copy(v, &c, NULL))
		return NULL;
	json_object_object_del(c, "table");
	return c;
}

struct json_object *drive_settings_to_json(const struct drive_settings *s)
{
	struct json_object *o = json_object_new_object();
	int e = 0;

	if (!o)
		return NULL;
	for (int i = 0; i < NSET; i++) {
		const struct setting *st = &s->set[i];
		struct json_object *x = json_object_new_object();

		if (!x) {
			e = 1;
			break;
		}
		e |= json_object_object_add(
		    x, "profile", json_object_new_string(profile_drive_setting_name(st->want)));
		e |= json_object_object_add(x, "as_found", manifest_value(st, st->found));
		e |= json_object_object_add(x, "readback", manifest_value(st, st->readback));
		if (st->note[0]) /* a pts setting left as found, and why */
			e |= json_object_object_add(x, "note", json_object_new_string(st->note));
		e |= json_object_object_add(o, st->key, x);
	}
	e |= json_object_object_add(o, "journal",
				    s->journal ? json_object_new_string(JOURNAL_FILE) : NULL);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
