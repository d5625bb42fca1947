/* SPDX-License-Identifier: MIT */
/*
 * drive_settings: the drive settings a profile pins for a run (see drive_settings.h).
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

struct drive_settings {
	struct target *t;
	char *dir;
	enum profile_drive_setting write_cache; /* what the profile pins */
	bool drive;	     /* a real drive, changed through devchange (else the virtual SSD) */
	int fd;		     /* the drive's block device, for the commands */
	struct json_object *identity;
	struct journal *journal; /* opened at the first change */
	struct devchange_ctx c;
	int wc_found;	    /* as found: 1 on, 0 off, -1 unknown */
	int wc_readback;    /* after apply / the last recheck: 1, 0, -1 not read */
	unsigned wc_resets; /* times a recheck found it back at the default and set it again */
};

/* {"enabled": bool} of the write_cache kind. */
static struct json_object *wc_value(bool on)
{
	struct json_object *o = json_object_new_object();

	if (o && json_object_object_add(o, "enabled", json_object_new_boolean(on))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* The drive's write cache now: 1, 0, or -errno with err. */
static int wc_read(struct drive_settings *s, char *err, size_t errlen)
{
	const struct devchange_kind *k = devchange_kind("write_cache");
	struct json_object *v = NULL, *e = NULL;
	int rc;

	rc = k->read(&s->c, &v, err, errlen);
	if (rc)
		return rc;
	rc = json_object_object_get_ex(v, "enabled", &e) ? json_object_get_boolean(e) : -EIO;
	json_object_put(v);
	return rc;
}

int drive_settings_open(struct target *t, const char *dir, const struct profile *p,
			uint64_t (*wall_ns)(void), struct drive_settings **out, char *err, size_t errlen)
{
	const struct target_info *ti = target_info(t);
	struct drive_settings *s = calloc(1, sizeof(*s));
	char why[512] = "";
	int rc;

	if (!s)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	s->t = t;
	s->fd = -1;
	s->write_cache = p->write_cache;
	s->wc_found = s->wc_readback = -1;
	s->dir = strdup(dir);
	if (!s->dir) {
		rc = errmsg_set(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	if (ti->kind == TARGET_KIND_SIM) {
		*out = s; /* the model's cache: nothing to read, journal or restore */
		return 0;
	}
	s->identity = devchange_target_identity(ti);
	if (!s->identity) {
		rc = errmsg_set(err, errlen, -ENOMEM, "out of memory");
		goto fail;
	}
	rc = devchange_target_ctx(ti, -1, s->identity, NULL, wall_ns, &s->c, why, sizeof(why));
	if (rc) {
		if (s->write_cache == PROFILE_AS_FOUND) {
			*out = s; /* a file or a loop device: nothing to record, nothing asked */
			return 0;
		}
		rc = errmsg_set(err, errlen, rc, "write_cache: %s: %s", profile_drive_setting_name(s->write_cache),
				why);
		goto fail;
	}
	/* The commands need only a read-only descriptor (the kernel checks CAP_SYS_ADMIN /
	 * CAP_SYS_RAWIO, not the open mode), so it never competes with the target's O_EXCL. */
	s->fd = open(ti->path, O_RDONLY | O_CLOEXEC);
	if (s->fd < 0) {
		rc = errmsg_set(err, errlen, -errno, "%s: %s", ti->path, strerror(errno));
		goto fail;
	}
	s->c.fd = s->fd;
	s->drive = true;
	rc = wc_read(s, why, sizeof(why));
	if (rc >= 0) {
		s->wc_found = rc;
	} else if (s->write_cache != PROFILE_AS_FOUND) {
		rc = errmsg_set(err, errlen, rc, "write_cache: %s: %s", profile_drive_setting_name(s->write_cache),
				why);
		goto fail;
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
	journal_close(s->journal);
	json_object_put(s->identity);
	if (s->fd >= 0)
		close(s->fd);
	free(s->dir);
	free(s);
}

static int set_wc(struct drive_settings *s, char *err, size_t errlen)
{
	bool on = s->write_cache == PROFILE_ON;
	struct json_object *to;
	int rc;

	if (!s->drive) {
		rc = target_set_write_cache(s->t, on);
		if (rc)
			return errmsg_set(err, errlen, rc, "write_cache: %s", target_error(s->t));
		s->wc_readback = on;
		return 0;
	}
	if (!s->journal) {
		rc = journal_open(s->dir, &s->journal, err, errlen);
		if (rc)
			return rc;
		s->c.journal = s->journal;
	}
	to = wc_value(on);
	if (!to)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	rc = devchange_set(&s->c, "write_cache", to, err, errlen);
	json_object_put(to);
	if (rc)
		return rc;
	rc = wc_read(s, err, errlen);
	if (rc < 0)
		return rc;
	s->wc_readback = rc;
	return 0;
}

int drive_settings_apply(struct drive_settings *s, char *err, size_t errlen)
{
	if (s->write_cache == PROFILE_AS_FOUND) {
		s->wc_readback = s->wc_found;
		return 0;
	}
	return set_wc(s, err, errlen);
}

int drive_settings_recheck(struct drive_settings *s, char *note, size_t notelen, char *err, size_t errlen)
{
	int now, rc;

	if (note && notelen)
		note[0] = '\0';
	if (s->write_cache == PROFILE_AS_FOUND || !s->drive)
		return 0;
	now = wc_read(s, err, errlen);
	if (now < 0)
		return now;
	if (now == (s->write_cache == PROFILE_ON))
		return 0;
	/* Back at the default: an NVMe controller reset (or an ATA hard reset) undoes a Set
	 * Features without the save bit. */
	rc = set_wc(s, err, errlen);
	if (rc)
		return rc;
	s->wc_resets++;
	snprintf(note, notelen, "write cache found %s at a phase boundary (a reset restores the drive's "
		 "default); set %s again (read back: %s)", now ? "on" : "off",
		 profile_drive_setting_name(s->write_cache), s->wc_readback ? "on" : "off");
	return 0;
}

int drive_settings_restore(struct drive_settings *s, char *msg, size_t msglen)
{
	struct journal_entry *e = NULL;
	struct devchange_restore_result *res = NULL;
	size_t n = 0, nres = 0, len = 0;
	char err[512] = "";
	int rc;

	if (msg && msglen)
		msg[0] = '\0';
	if (!s->drive || !s->journal)
		return 0; /* nothing was changed */
	rc = journal_read(s->dir, &e, &n, NULL, err, sizeof(err));
	if (rc) {
		snprintf(msg, msglen, "reading the journal: %s", err);
		return rc;
	}
	res = calloc(n ? n : 1, sizeof(*res));
	if (!res) {
		journal_entries_free(e, n);
		return -ENOMEM;
	}
	rc = devchange_restore(&s->c, e, n, res, &nres);
	for (size_t i = 0; i < nres && len + 1 < msglen; i++) {
		int w = snprintf(msg + len, msglen - len, "%s%s %s: %s", i ? "; " : "", res[i].ok ? "restored" : "NOT restored",
				 res[i].id, res[i].what);

		len += w > 0 ? (size_t)w : 0;
	}
	free(res);
	journal_entries_free(e, n);
	return rc;
}

struct json_object *drive_settings_to_json(const struct drive_settings *s)
{
	struct json_object *o = json_object_new_object(), *wc = json_object_new_object();
	int e = 0;

	if (!o || !wc) {
		json_object_put(o);
		json_object_put(wc);
		return NULL;
	}
	e |= json_object_object_add(wc, "profile",
				    json_object_new_string(profile_drive_setting_name(s->write_cache)));
	e |= json_object_object_add(wc, "as_found", s->wc_found < 0 ? NULL : json_object_new_boolean(s->wc_found));
	e |= json_object_object_add(wc, "readback",
				    s->wc_readback < 0 ? NULL : json_object_new_boolean(s->wc_readback));
	e |= json_object_object_add(o, "write_cache", wc);
	e |= json_object_object_add(o, "journal", s->journal ? json_object_new_string(JOURNAL_FILE) : NULL);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
