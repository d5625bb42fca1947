/* SPDX-License-Identifier: MIT */
/*
 * devchange: a change to a drive made and undone the one way (see devchange.h).
 *
 *   set:      read (from) -> same as to? done, nothing journaled
 *             -> describe -> journal "change" (fsync'ed) -> send -> read back -> journal "done"
 *   restore:  for each outstanding entry, newest first:
 *             other drive at the path? refused, journal "restored" ok false
 *             -> read -> same as from? journal "restored" ok ("already at the original value")
 *             -> describe(from) -> send -> read back -> journal "restored" with the outcome
 *
 * The invariant the journal keeps: no command that changes a drive is sent before the line that
 * announces it is on disk. The restore never trusts the journal's idea of the current value
 * ("done" may be missing after a crash): it reads the drive.
 */
#include "targets/devchange.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "base/jsonget.h"

/* The kind named name in c's table, else in the built-in one. */
static const struct devchange_kind *kind_of(const struct devchange_ctx *c, const char *name)
{
	if (!c->kinds)
		return devchange_kind(name);
	for (size_t i = 0; name && i < c->nkinds; i++)
		if (!strcmp(c->kinds[i]->name, name))
			return c->kinds[i];
	return NULL;
}

static int64_t now(const struct devchange_ctx *c)
{
	return c->wall_ns ? (int64_t)c->wall_ns() : 0;
}

static const char *json_text(struct json_object *v)
{
	return v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN |
							 JSON_C_TO_STRING_NOSLASHESCAPE)
		 : "null";
}

static FILE *dry_out(const struct devchange_ctx *c)
{
	return c->dry_out ? c->dry_out : stdout;
}

int devchange_set(const struct devchange_ctx *c, const char *kind, struct json_object *to,
		  char *err, size_t errlen)
{
	const struct devchange_kind *k = c && kind ? kind_of(c, kind) : NULL;
	struct json_object *from = NULL, *back = NULL;
	char cmd[JOURNAL_COMMAND_MAX] = "", id[JOURNAL_ID_MAX], jerr[256] = "";
	int rc;

	if (!c || !to)
		return errmsg_set(err, errlen, -EINVAL, "devchange_set: missing argument");
	if (!k)
		return errmsg_set(err, errlen, -ENOENT, "no device change of kind \"%s\"",
				  kind ? kind : "");
	if (!c->dry_run && !c->journal)
		return errmsg_set(err, errlen, -EINVAL, "%s: no journal to record the change in",
				  kind);
	k->describe(c, to, cmd, sizeof(cmd));
	if (c->dry_run) {
		/* Nothing read, journaled or sent: the kind prints the bytes it would send. */
		fprintf(dry_out(c), "would journal %s -> %s, then send:\n", kind, json_text(to));
		return k->send(c, to, err, errlen);
	}
	rc = k->read(c, &from, err, errlen);
	if (rc)
		return rc;
	if (k->same(from, to)) {
		/* Already there: nothing to change, so nothing to restore. */
		rc = 0;
		goto out;
	}
	rc = journal_change(c->journal, k->name, k->id_prefix, c->identity, from, to, cmd,
			    k->persistent ? k->persistent(to) : false, now(c), id, err, errlen);
	if (rc)
		goto out; /* not journaled: not sent */
	rc = k->send(c, to, err, errlen);
	if (rc) {
		/* The drive may have taken part of it: record what it says now for the restore. */
		if (k->read(c, &back, jerr, sizeof(jerr)))
			back = NULL;
		journal_done(c->journal, id, false, back, err, now(c), jerr, sizeof(jerr));
		goto out;
	}
	rc = k->read(c, &back, err, errlen);
	if (rc) {
		journal_done(c->journal, id, false, NULL, err, now(c), jerr, sizeof(jerr));
		goto out;
	}
	if (!k->same(back, to)) {
		rc = errmsg_set(err, errlen, -EIO, "%s: sent %s but the drive reads back %s", kind,
				cmd, json_text(back));
		journal_done(c->journal, id, false, back, err, now(c), jerr, sizeof(jerr));
		goto out;
	}
	rc = journal_done(c->journal, id, true, back, NULL, now(c), err, errlen);
out:
	json_object_put(from);
	json_object_put(back);
	return rc;
}

/* The string member key of identity, "" when absent. */
static const char *ident_str(struct json_object *identity, const char *key)
{
	const char *s = identity ? jsonget_str(identity, key) : NULL;

	return s ? s : "";
}

bool devchange_same_drive(const struct journal_entry *e, struct json_object *identity)
{
	const char *es = ident_str(e->device, "serial"), *is = ident_str(identity, "serial");
	const char *ew = ident_str(e->device, "wwn"), *iw = ident_str(identity, "wwn");
	int64_t ens, ins;

	if (!e->device || !identity)
		return false;
	/* A namespace is part of what was changed (a namespace's size, its format). */
	if (!jsonget_int(e->device, "nsid", &ens) && !jsonget_int(identity, "nsid", &ins) &&
	    ens != ins)
		return false;
	if (*es || *ew) {
		/* Each name the journal has must match: a drive swapped in at the same path, or a
		 * clone with the same serial but another WWN, is not the drive that was changed. */
		if (*es && strcmp(es, is))
			return false;
		if (*ew && strcmp(ew, iw))
			return false;
		return true;
	}
	/* Neither serial nor WWN (a virtual disk): the path is all there is. */
	return !strcmp(ident_str(e->device, "path"), ident_str(identity, "path"));
}

/* Journals a restore's outcome and fills r; the journal's own error is noted in r->what. */
static void restore_note(const struct devchange_ctx *c, const struct journal_entry *e, bool ok,
			 struct json_object *back, const char *how, const char *error,
			 struct devchange_restore_result *r)
{
	char jerr[256] = "";

	snprintf(r->id, sizeof(r->id), "%s", e->id);
	snprintf(r->kind, sizeof(r->kind), "%s", e->kind);
	r->ok = ok;
	if (ok && !back)
		snprintf(r->what, sizeof(r->what), "%s", how); /* a dry run reads nothing */
	else if (ok)
		snprintf(r->what, sizeof(r->what), "%s (read back: %s)", how, json_text(back));
	else
		snprintf(r->what, sizeof(r->what), "%s", error);
	if (c->dry_run || !c->journal)
		return;
	if (journal_restored(c->journal, e->id, ok, back, how, ok ? NULL : error, now(c), jerr,
			     sizeof(jerr))) {
		size_t l = strlen(r->what);

		snprintf(r->what + l, sizeof(r->what) - l, " (not journaled: %s)", jerr);
		r->ok = false;
	}
}

/* Restores one entry; the outcome in r. */
static void restore_one(const struct devchange_ctx *c, const struct journal_entry *e,
			struct devchange_restore_result *r)
{
	const struct devchange_kind *k = kind_of(c, e->kind);
	struct json_object *cur = NULL, *back = NULL;
	char err[512] = "", cmd[JOURNAL_COMMAND_MAX] = "", how[JOURNAL_COMMAND_MAX + 32];

	if (!k) {
		snprintf(err, sizeof(err),
			 "unknown kind \"%s\" (a newer ssdlab wrote this journal?)", e->kind);
		restore_note(c, e, false, NULL, NULL, err, r);
		return;
	}
	if (!e->from) {
		snprintf(err, sizeof(err), "the journal has no original value for %s", e->id);
		restore_note(c, e, false, NULL, NULL, err, r);
		return;
	}
	k->describe(c, e->from, cmd, sizeof(cmd));
	if (c->dry_run) {
		fprintf(dry_out(c), "would restore %s (%s) to %s, sending:\n", e->id, e->kind,
			json_text(e->from));
		if (k->send(c, e->from, err, sizeof(err)))
			restore_note(c, e, false, NULL, NULL, err, r);
		else
			restore_note(c, e, true, NULL, "dry run: nothing sent", NULL, r);
		return;
	}
	if (k->read(c, &cur, err, sizeof(err))) {
		restore_note(c, e, false, NULL, NULL, err, r);
		goto out;
	}
	if (k->same(cur, e->from)) {
		restore_note(c, e, true, cur, "already at the original value", NULL, r);
		goto out;
	}
	if (k->send(c, e->from, err, sizeof(err))) {
		restore_note(c, e, false, NULL, NULL, err, r);
		goto out;
	}
	if (k->read(c, &back, err, sizeof(err))) {
		restore_note(c, e, false, NULL, NULL, err, r);
		goto out;
	}
	if (!k->same(back, e->from)) {
		snprintf(err, sizeof(err), "sent %s but the drive reads back %s", cmd,
			 json_text(back));
		restore_note(c, e, false, back, NULL, err, r);
		goto out;
	}
	snprintf(how, sizeof(how), "sent %s", cmd);
	restore_note(c, e, true, back, how, NULL, r);
out:
	json_object_put(cur);
	json_object_put(back);
}

int devchange_restore(const struct devchange_ctx *c, const struct journal_entry *entries, size_t n,
		      struct devchange_restore_result *results, size_t *nres)
{
	const char *path = c ? ident_str(c->identity, "path") : "";
	size_t k = 0;
	int rc = 0;

	if (!c || (n && (!entries || !results)) || !nres)
		return -EINVAL;
	/* Newest first: a setting changed twice goes back through its middle value to the first. */
	for (size_t i = n; i-- > 0;) {
		const struct journal_entry *e = &entries[i];
		struct devchange_restore_result *r = &results[k];

		if (e->restored_ok)
			continue;
		if (!devchange_same_drive(e, c->identity)) {
			char why[512];

			/* An entry of another drive is none of this call's business, unless it was
			 * made at this path: then the drive was swapped, and the user must hear it.
			 */
			if (strcmp(ident_str(e->device, "path"), path))
				continue;
			snprintf(
			    why, sizeof(why),
			    "refused: %s is now serial \"%s\" wwn \"%s\", not the drive changed "
			    "(serial \"%s\" wwn \"%s\")",
			    path, ident_str(c->identity, "serial"), ident_str(c->identity, "wwn"),
			    ident_str(e->device, "serial"), ident_str(e->device, "wwn"));
			restore_note(c, e, false, NULL, NULL, why, r);
		} else {
			restore_one(c, e, r);
		}
		if (!r->ok)
			rc = -EIO;
		k++;
	}
	*nres = k;
	return rc;
}
