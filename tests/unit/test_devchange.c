// SPDX-License-Identifier: MIT
/*
 * test_devchange: the journal of device changes (results/journal.c) and the one way changes are
 * made and undone (targets/devchange.c), with a scripted kind whose "drive" is a struct in the
 * test, and the write_cache kind over scripted, stateful SG_IO and NVMe admin tables.
 *
 * The crash cases: a torn last line (dropped by the reader, cut by journal_open, ids go on); a
 * change line without its done line (the command may or may not have reached the drive: the
 * restore reads the drive and acts on what it finds); restore order newest first; a different
 * drive at the journal's path refused.
 *
 * Expected ATA PASS-THROUGH(16) CDBs, written out from SAT-3 12.2.2 and ACS-3 7.45: byte 0 0x85,
 * byte 1 PROTOCOL 3 (non-data) << 1 = 0x06, byte 2 0 (no CK_COND, no data), byte 4 FEATURES
 * (SET FEATURES subcommand: 0x02 enable / 0x82 disable volatile write cache), byte 14 COMMAND
 * 0xEF; IDENTIFY DEVICE: 0x85, PIO-in 4 << 1 = 0x08, byte 2 0x0e (T_DIR in, BYT_BLOK, T_LENGTH
 * in COUNT), COUNT 1 (byte 6), command 0xEC.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "results/journal.h"
#include "targets/devchange.h"

/* ---- helpers ---- */

static uint64_t fixed_wall(void)
{
	return 1700000000000000000ULL;
}

static char *make_dir(void)
{
	char tmpl[] = "/tmp/ssdlab-devchange-XXXXXX";
	char *d = mkdtemp(tmpl);

	assert_non_null(d);
	return strdup(d);
}

static void remove_dir(char *d)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", d, JOURNAL_FILE);
	unlink(p);
	rmdir(d);
	free(d);
}

static char *read_text(const char *dir)
{
	char p[512];
	FILE *f;
	char *buf = calloc(1, 65536);
	size_t n;

	snprintf(p, sizeof(p), "%s/%s", dir, JOURNAL_FILE);
	f = fopen(p, "r");
	assert_non_null(f);
	n = fread(buf, 1, 65535, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void append_text(const char *dir, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, JOURNAL_FILE);
	f = fopen(p, "a");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static struct json_object *jv(const char *text)
{
	struct json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	return o;
}

/* The n-th line (from 0) of the journal, parsed. */
static struct json_object *line_of(const char *dir, int n)
{
	char *t = read_text(dir), *s = t, *nl;
	struct json_object *o;

	for (int i = 0; i < n; i++) {
		s = strchr(s, '\n');
		assert_non_null(s);
		s++;
	}
	nl = strchr(s, '\n');
	assert_non_null(nl);
	*nl = '\0';
	o = jv(s);
	free(t);
	return o;
}

static const char *str_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_string(v);
}

static int64_t int_of(struct json_object *o, const char *key)
{
	struct json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_int64(v);
}

static int lines_in(const char *dir)
{
	char *t = read_text(dir);
	int n = 0;

	for (char *s = t; *s; s++)
		n += *s == '\n';
	free(t);
	return n;
}

/* ---- a scripted kind: the "drive" is the struct behind ops->ctx ---- */

struct fake_drive {
	int v;		/* the setting */
	bool fail_send; /* send returns -EIO without changing v */
	bool stuck;	/* send "succeeds" but v does not change */
	int sent[16];	/* the values sent, in order */
	int nsent;
	int reads;
};

static struct fake_drive *drive_of(const struct devchange_ctx *c)
{
	return c->ops->ctx;
}

static int v_of(struct json_object *o)
{
	struct json_object *v;

	if (!o || !json_object_object_get_ex(o, "v", &v))
		return -1;
	return json_object_get_int(v);
}

static int fk_read(const struct devchange_ctx *c, struct json_object **out, char *err,
		   size_t errlen)
{
	struct json_object *o = json_object_new_object();

	(void)err;
	(void)errlen;
	drive_of(c)->reads++;
	json_object_object_add(o, "v", json_object_new_int(drive_of(c)->v));
	*out = o;
	return 0;
}

static int fk_describe(const struct devchange_ctx *c, struct json_object *to, char *cmd, size_t len)
{
	(void)c;
	return snprintf(cmd, len, "FAKE SET v=%d", v_of(to));
}

static int fk_send(const struct devchange_ctx *c, struct json_object *to, char *err, size_t errlen)
{
	struct fake_drive *d = drive_of(c);

	if (c->dry_run)
		return 0;
	d->sent[d->nsent++] = v_of(to);
	if (d->fail_send)
		return snprintf(err, errlen, "FAKE SET: aborted"), -EIO;
	if (!d->stuck)
		d->v = v_of(to);
	return 0;
}

static bool fk_same(struct json_object *a, struct json_object *b)
{
	return v_of(a) >= 0 && v_of(a) == v_of(b);
}

static const struct devchange_kind fake_kind = {.name = "fake",
						.id_prefix = "fk",
						.read = fk_read,
						.describe = fk_describe,
						.send = fk_send,
						.same = fk_same};
static const struct devchange_kind *const fake_kinds[] = {&fake_kind};

struct fixture {
	char *dir;
	struct journal *j;
	struct fake_drive drive;
	struct ioctl_ops ops;
	struct json_object *ident;
	struct devchange_ctx c;
};

static void fixture_init(struct fixture *f, const char *serial)
{
	char err[256] = "";
	char text[256];

	memset(f, 0, sizeof(*f));
	f->dir = make_dir();
	assert_int_equal(journal_open(f->dir, &f->j, err, sizeof(err)), 0);
	f->drive.v = 1;
	f->ops.ctx = &f->drive;
	snprintf(text, sizeof(text),
		 "{\"path\":\"/dev/sdx\",\"serial\":\"%s\",\"wwn\":\"naa.5000\",\"model\":\"M\"}",
		 serial);
	f->ident = jv(text);
	f->c = (struct devchange_ctx){.ops = &f->ops,
				      .fd = 7,
				      .path = "/dev/sdx",
				      .transport = DRIVEDB_ATA,
				      .identity = f->ident,
				      .journal = f->j,
				      .wall_ns = fixed_wall,
				      .kinds = fake_kinds,
				      .nkinds = 1};
}

static void fixture_release(struct fixture *f)
{
	journal_close(f->j);
	json_object_put(f->ident);
	remove_dir(f->dir);
}

static void set_v(struct fixture *f, int v, int want_rc)
{
	struct json_object *to = json_object_new_object();
	char err[256] = "";

	json_object_object_add(to, "v", json_object_new_int(v));
	assert_int_equal(devchange_set(&f->c, "fake", to, err, sizeof(err)), want_rc);
	json_object_put(to);
}

/* ---- journal ---- */

static void test_journal_lines(void **state)
{
	struct fixture f;
	struct journal_entry *e = NULL;
	size_t n = 0;
	bool torn = true;
	char err[256] = "";
	struct json_object *l;

	(void)state;
	fixture_init(&f, "S1");
	set_v(&f, 5, 0);
	assert_int_equal(f.drive.v, 5);
	assert_int_equal(lines_in(f.dir), 2);
	l = line_of(f.dir, 0);
	assert_int_equal(int_of(l, "schema"), 1);
	assert_int_equal(int_of(l, "seq"), 1);
	assert_string_equal(str_of(l, "op"), "change");
	assert_string_equal(str_of(l, "id"), "fk-1");
	assert_string_equal(str_of(l, "kind"), "fake");
	assert_string_equal(str_of(l, "command"), "FAKE SET v=5");
	json_object_put(l);
	{
		char *t = read_text(f.dir);

		/* The identity as given, slashes unescaped. */
		assert_non_null(strstr(
		    t, ",\"device\":{\"path\":\"/dev/sdx\",\"serial\":\"S1\",\"wwn\":\"naa.5000\","
		       "\"model\":\"M\"},"));
		free(t);
	}
	l = line_of(f.dir, 0);
	assert_int_equal(v_of(json_object_object_get(l, "from")), 1);
	assert_int_equal(v_of(json_object_object_get(l, "to")), 5);
	assert_int_equal(int_of(l, "wall_ns"), (int64_t)fixed_wall());
	json_object_put(l);
	l = line_of(f.dir, 1);
	assert_int_equal(int_of(l, "seq"), 2);
	assert_string_equal(str_of(l, "op"), "done");
	assert_true(json_object_get_boolean(json_object_object_get(l, "ok")));
	assert_int_equal(v_of(json_object_object_get(l, "readback")), 5);
	json_object_put(l);

	/* Already at the value: nothing sent, nothing journaled. */
	set_v(&f, 5, 0);
	assert_int_equal(f.drive.nsent, 1);
	assert_int_equal(lines_in(f.dir), 2);

	assert_int_equal(journal_read(f.dir, &e, &n, &torn, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_false(torn);
	assert_true(e[0].done && e[0].done_ok);
	assert_false(e[0].restored_ok);
	assert_int_equal(journal_outstanding(e, n), 1);
	journal_entries_free(e, n);
	fixture_release(&f);
}

static void test_journal_missing_is_empty(void **state)
{
	char *dir = make_dir();
	struct journal_entry *e = (void *)1;
	size_t n = 9;
	char err[256] = "";

	(void)state;
	assert_int_equal(journal_read(dir, &e, &n, NULL, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	assert_null(e);
	remove_dir(dir);
}

static void test_journal_torn_last_line(void **state)
{
	struct fixture f;
	struct journal_entry *e = NULL;
	size_t n = 0;
	bool torn = false;
	char err[256] = "", *text;
	struct json_object *l;

	(void)state;
	fixture_init(&f, "S1");
	set_v(&f, 5, 0);
	journal_close(f.j);
	f.j = NULL;
	/* A crash mid-append: half a "change" line, no newline. */
	append_text(f.dir, "{\"schema\":1,\"seq\":3,\"op\":\"change\",\"id\":\"fk-2\",\"ki");
	assert_int_equal(journal_read(f.dir, &e, &n, &torn, err, sizeof(err)), 0);
	assert_true(torn);
	assert_int_equal(n, 1);
	journal_entries_free(e, n);

	/* Reopened: the torn tail is cut and the ids and seqs go on from the whole lines. */
	assert_int_equal(journal_open(f.dir, &f.j, err, sizeof(err)), 0);
	f.c.journal = f.j;
	text = read_text(f.dir);
	assert_null(strstr(text, "\"ki\n"));
	assert_int_equal(text[strlen(text) - 1], '\n');
	free(text);
	set_v(&f, 6, 0);
	assert_int_equal(lines_in(f.dir), 4);
	l = line_of(f.dir, 2);
	assert_string_equal(str_of(l, "id"), "fk-2");
	assert_int_equal(int_of(l, "seq"), 3);
	json_object_put(l);
	fixture_release(&f);
}

static void test_journal_bad_middle_line(void **state)
{
	char *dir = make_dir();
	struct journal_entry *e = NULL;
	struct journal *j = NULL;
	size_t n = 0;
	char err[256] = "";

	(void)state;
	append_text(dir,
		    "{\"schema\":1,\"seq\":1,\"op\":\"change\",\"id\":\"fk-1\",\"kind\":\"fake\"}\n"
		    "garbage\n"
		    "{\"schema\":1,\"seq\":3,\"op\":\"done\",\"id\":\"fk-1\",\"ok\":true}\n");
	assert_int_equal(journal_read(dir, &e, &n, NULL, err, sizeof(err)), -EBADMSG);
	assert_string_equal(err, "journal.jsonl:2: not JSON");
	assert_int_equal(journal_open(dir, &j, err, sizeof(err)), -EBADMSG);
	assert_null(j);
	remove_dir(dir);

	/* A done line whose change is not in the file. */
	dir = make_dir();
	append_text(dir, "{\"schema\":1,\"seq\":1,\"op\":\"done\",\"id\":\"wc-4\",\"ok\":true}\n");
	assert_int_equal(journal_read(dir, &e, &n, NULL, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "journal.jsonl:1: \"done\" of wc-4"));
	remove_dir(dir);
}

/* ---- devchange ---- */

/* A crash between the change line and the done line: the command reached the drive (it is at
 * the new value) or did not (still at the old one). The restore reads the drive either way. */
static void test_change_without_done(void **state)
{
	static const struct {
		int drive_now;	 /* what the drive holds when restore runs */
		int want_sends;	 /* commands the restore sends */
		const char *how; /* the restored line's "how" */
	} rows[] = {
	    {5, 1, "sent FAKE SET v=1"},
	    {1, 0, "already at the original value"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fixture f;
		struct journal_entry *e = NULL;
		struct devchange_restore_result res[4];
		size_t n = 0, nres = 0;
		char err[256] = "", id[JOURNAL_ID_MAX];
		struct json_object *from = jv("{\"v\":1}"), *to = jv("{\"v\":5}"), *l;

		fixture_init(&f, "S1");
		assert_int_equal(journal_change(f.j, "fake", "fk", f.ident, from, to,
						"FAKE SET v=5", false, (int64_t)fixed_wall(), id,
						err, sizeof(err)),
				 0);
		assert_string_equal(id, "fk-1");
		f.drive.v = rows[i].drive_now;
		assert_int_equal(journal_read(f.dir, &e, &n, NULL, err, sizeof(err)), 0);
		assert_int_equal(n, 1);
		assert_false(e[0].done);
		assert_int_equal(devchange_restore(&f.c, e, n, res, &nres), 0);
		assert_int_equal(nres, 1);
		assert_true(res[0].ok);
		assert_string_equal(res[0].id, "fk-1");
		assert_int_equal(f.drive.v, 1);
		assert_int_equal(f.drive.nsent, rows[i].want_sends);
		l = line_of(f.dir, 1);
		assert_string_equal(str_of(l, "op"), "restored");
		assert_string_equal(str_of(l, "how"), rows[i].how);
		assert_int_equal(v_of(json_object_object_get(l, "readback")), 1);
		json_object_put(l);
		journal_entries_free(e, n);
		/* Now nothing is outstanding, and a second restore does nothing. */
		assert_int_equal(journal_read(f.dir, &e, &n, NULL, err, sizeof(err)), 0);
		assert_int_equal(journal_outstanding(e, n), 0);
		assert_int_equal(e[0].restore_tries, 1);
		assert_int_equal(devchange_restore(&f.c, e, n, res, &nres), 0);
		assert_int_equal(nres, 0);
		journal_entries_free(e, n);
		json_object_put(from);
		json_object_put(to);
		fixture_release(&f);
	}
}

static void test_restore_newest_first(void **state)
{
	struct fixture f;
	struct journal_entry *e = NULL;
	struct devchange_restore_result res[4];
	size_t n = 0, nres = 0;
	char err[256] = "";

	(void)state;
	fixture_init(&f, "S1");
	set_v(&f, 2, 0);
	set_v(&f, 3, 0);
	assert_int_equal(journal_read(f.dir, &e, &n, NULL, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(devchange_restore(&f.c, e, n, res, &nres), 0);
	assert_int_equal(nres, 2);
	assert_string_equal(res[0].id, "fk-2");
	assert_string_equal(res[1].id, "fk-1");
	assert_string_equal(res[1].what, "sent FAKE SET v=1 (read back: {\"v\":1})");
	/* 2, 3 set; then 2 (fk-2's from) and 1 (fk-1's) restored. */
	assert_int_equal(f.drive.nsent, 4);
	assert_int_equal(f.drive.sent[2], 2);
	assert_int_equal(f.drive.sent[3], 1);
	assert_int_equal(f.drive.v, 1);
	journal_entries_free(e, n);
	fixture_release(&f);
}

static void test_other_drive_refused(void **state)
{
	struct fixture f;
	struct journal_entry *e = NULL;
	struct devchange_restore_result res[4];
	size_t n = 0, nres = 0;
	char err[256] = "";
	struct json_object *other =
	    jv("{\"path\":\"/dev/sdx\",\"serial\":\"S2\",\"wwn\":\"naa.6000\"}");
	struct json_object *elsewhere =
	    jv("{\"path\":\"/dev/sdy\",\"serial\":\"S9\",\"wwn\":\"naa.9\"}");
	struct json_object *l;

	(void)state;
	fixture_init(&f, "S1");
	set_v(&f, 5, 0);
	assert_int_equal(journal_read(f.dir, &e, &n, NULL, err, sizeof(err)), 0);

	/* Another drive at the same path: refused, nothing sent, the refusal journaled. */
	f.c.identity = other;
	assert_int_equal(devchange_restore(&f.c, e, n, res, &nres), -EIO);
	assert_int_equal(nres, 1);
	assert_false(res[0].ok);
	assert_string_equal(
	    res[0].what, "refused: /dev/sdx is now serial \"S2\" wwn \"naa.6000\", not the drive "
			 "changed (serial \"S1\" wwn \"naa.5000\")");
	assert_int_equal(f.drive.nsent, 1);
	assert_int_equal(f.drive.v, 5);
	l = line_of(f.dir, 2);
	assert_string_equal(str_of(l, "op"), "restored");
	assert_false(json_object_get_boolean(json_object_object_get(l, "ok")));
	json_object_put(l);

	/* A drive at another path: not this call's business. */
	f.c.identity = elsewhere;
	assert_int_equal(devchange_restore(&f.c, e, n, res, &nres), 0);
	assert_int_equal(nres, 0);
	journal_entries_free(e, n);

	/* Still outstanding, with one failed try. */
	assert_int_equal(journal_read(f.dir, &e, &n, NULL, err, sizeof(err)), 0);
	assert_int_equal(journal_outstanding(e, n), 1);
	assert_int_equal(e[0].restore_tries, 1);
	journal_entries_free(e, n);
	json_object_put(other);
	json_object_put(elsewhere);
	fixture_release(&f);
}

static void test_same_drive(void **state)
{
	static const struct {
		const char *journal, *now;
		bool same;
	} rows[] = {
	    {"{\"path\":\"/dev/a\",\"serial\":\"S1\",\"wwn\":\"W1\"}",
	     "{\"path\":\"/dev/b\",\"serial\":\"S1\",\"wwn\":\"W1\"}", true},
	    {"{\"path\":\"/dev/a\",\"serial\":\"S1\",\"wwn\":\"W1\"}",
	     "{\"path\":\"/dev/a\",\"serial\":\"S1\",\"wwn\":\"W2\"}", false},
	    {"{\"path\":\"/dev/a\",\"serial\":\"S1\"}", "{\"path\":\"/dev/a\",\"serial\":\"S2\"}",
	     false},
	    {"{\"path\":\"/dev/a\",\"serial\":\"\",\"wwn\":\"\"}", "{\"path\":\"/dev/a\"}", true},
	    {"{\"path\":\"/dev/a\"}", "{\"path\":\"/dev/b\"}", false},
	    {"{\"serial\":\"S1\",\"nsid\":1}", "{\"serial\":\"S1\",\"nsid\":2}", false},
	    {"{\"serial\":\"S1\",\"nsid\":1}", "{\"serial\":\"S1\",\"nsid\":1}", true},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct journal_entry e = {.device = jv(rows[i].journal)};
		struct json_object *now = jv(rows[i].now);

		assert_int_equal(devchange_same_drive(&e, now), rows[i].same);
		json_object_put(e.device);
		json_object_put(now);
	}
}

static void test_send_fails_and_readback_differs(void **state)
{
	struct fixture f;
	struct journal_entry *e = NULL;
	size_t n = 0;
	char err[256] = "";
	struct json_object *l;

	(void)state;
	fixture_init(&f, "S1");
	f.drive.fail_send = true;
	set_v(&f, 5, -EIO);
	l = line_of(f.dir, 1);
	assert_string_equal(str_of(l, "op"), "done");
	assert_false(json_object_get_boolean(json_object_object_get(l, "ok")));
	assert_string_equal(str_of(l, "error"), "FAKE SET: aborted");
	assert_int_equal(v_of(json_object_object_get(l, "readback")), 1);
	json_object_put(l);

	f.drive.fail_send = false;
	f.drive.stuck = true;
	set_v(&f, 6, -EIO);
	l = line_of(f.dir, 3);
	assert_string_equal(str_of(l, "error"),
			    "fake: sent FAKE SET v=6 but the drive reads back {\"v\":1}");
	json_object_put(l);
	/* Both stay in the journal for the restore (which finds the drive at 1 already). */
	assert_int_equal(journal_read(f.dir, &e, &n, NULL, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(journal_outstanding(e, n), 2);
	assert_true(e[1].done && !e[1].done_ok);
	journal_entries_free(e, n);
	fixture_release(&f);
}

/* ---- write_cache over scripted drives ---- */

#include <scsi/sg.h>

struct ata_drive {
	bool wce;
	int calls;
	uint8_t seen[8][16];
};

static int ata_sg_io(void *ctx, int fd, struct sg_io_hdr *h)
{
	struct ata_drive *d = ctx;
	const uint8_t *cdb = h->cmdp;

	assert_int_equal(fd, 7);
	assert_true(d->calls < 8);
	memcpy(d->seen[d->calls++], cdb, 16);
	if (cdb[14] == 0xec) {
		uint8_t *id = h->dxferp;

		assert_int_equal(h->dxfer_len, 512);
		memset(id, 0, 512);
		id[2 * 82] = 1u << 5; /* word 82 bit 5: volatile write cache supported */
		id[2 * 85] = (uint8_t)(d->wce ? 1u << 5 : 0); /* word 85 bit 5: enabled */
		return 0;
	}
	if (cdb[14] == 0xef) {
		assert_int_equal(h->dxfer_direction, SG_DXFER_NONE);
		if (cdb[4] == 0x02)
			d->wce = true;
		else if (cdb[4] == 0x82)
			d->wce = false;
		return 0;
	}
	fail_msg("unscripted ATA command 0x%02x", cdb[14]);
	return -EIO;
}

static void test_write_cache_ata(void **state)
{
	static const uint8_t identify[16] = {0x85, 0x08, 0x0e, 0, 0, 0, 1,    0,
					     0,	   0,	 0,    0, 0, 0, 0xec, 0};
	static const uint8_t off[16] = {0x85, 0x06, 0x00, 0, 0x82, 0, 0,    0,
					0,    0,    0,	  0, 0,	   0, 0xef, 0};
	static const uint8_t on[16] = {0x85, 0x06, 0x00, 0, 0x02, 0, 0,	   0,
				       0,    0,	   0,	 0, 0,	  0, 0xef, 0};
	struct ata_drive d = {.wce = true};
	struct ioctl_ops ops = {.sg_io = ata_sg_io, .ctx = &d};
	struct fixture f;
	struct journal_entry *e = NULL;
	struct devchange_restore_result res[2];
	size_t n = 0, nres = 0;
	char err[256] = "", *text, buf[2048] = "";
	struct json_object *to = jv("{\"enabled\":false}"), *l;
	FILE *dry;

	(void)state;
	fixture_init(&f, "S1");
	f.c.ops = &ops;
	f.c.kinds = NULL; /* the built-in table */
	assert_int_equal(devchange_set(&f.c, "write_cache", to, err, sizeof(err)), 0);
	assert_false(d.wce);
	assert_int_equal(d.calls, 3);
	assert_memory_equal(d.seen[0], identify, 16);
	assert_memory_equal(d.seen[1], off, 16);
	assert_memory_equal(d.seen[2], identify, 16);
	l = line_of(f.dir, 0);
	assert_string_equal(str_of(l, "id"), "wc-1");
	assert_string_equal(str_of(l, "kind"), "write_cache");
	assert_non_null(
	    strstr(str_of(l, "command"), "85 06 00 00 82 00 00 00 00 00 00 00 00 00 ef 00"));
	assert_string_equal(json_object_to_json_string(json_object_object_get(l, "from")),
			    "{ \"enabled\": true }");
	assert_false(json_object_get_boolean(json_object_object_get(l, "persistent")));
	json_object_put(l);

	assert_int_equal(journal_read(f.dir, &e, &n, NULL, err, sizeof(err)), 0);
	assert_int_equal(devchange_restore(&f.c, e, n, res, &nres), 0);
	assert_int_equal(nres, 1);
	assert_true(d.wce);
	assert_int_equal(d.calls, 6);
	assert_memory_equal(d.seen[4], on, 16);
	journal_entries_free(e, n);

	/* A dry run sends nothing and prints the CDB it would send. */
	dry = fmemopen(buf, sizeof(buf) - 1, "w");
	f.c.dry_run = true;
	f.c.dry_out = dry;
	assert_int_equal(devchange_set(&f.c, "write_cache", to, err, sizeof(err)), 0);
	fclose(dry);
	assert_int_equal(d.calls, 6);
	assert_non_null(strstr(buf, "85 06 00 00 82"));
	text = read_text(f.dir);
	assert_int_equal(lines_in(f.dir), 3);
	free(text);
	json_object_put(to);
	fixture_release(&f);
}

struct nvme_drive {
	bool wce;
	int gets, sets;
	struct nvme_admin_cmd last_set;
};

static int nvme_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct nvme_drive *d = ctx;

	assert_int_equal(fd, 7);
	if (cmd->opcode == 0x0a && (cmd->cdw10 & 0xff) == 0x06) { /* Get Features VWC */
		assert_int_equal(cmd->cdw10, 0x06);		  /* SEL 0: current */
		d->gets++;
		cmd->result = d->wce;
		return 0;
	}
	if (cmd->opcode == 0x09 && (cmd->cdw10 & 0xff) == 0x06) { /* Set Features VWC */
		d->sets++;
		d->last_set = *cmd;
		d->wce = cmd->cdw11 & 1;
		return 0;
	}
	return 0x4002;
}

static void test_write_cache_nvme(void **state)
{
	struct nvme_drive d = {.wce = true};
	struct ioctl_ops ops = {.admin = nvme_admin, .ctx = &d};
	struct fixture f;
	struct journal_entry *e = NULL;
	struct devchange_restore_result res[2];
	size_t n = 0, nres = 0;
	char err[256] = "";
	struct json_object *to = jv("{\"enabled\":false}");

	(void)state;
	fixture_init(&f, "S1");
	f.c.ops = &ops;
	f.c.kinds = NULL;
	f.c.transport = DRIVEDB_NVME;
	f.c.nsid = 1;
	assert_int_equal(devchange_set(&f.c, "write_cache", to, err, sizeof(err)), 0);
	assert_false(d.wce);
	assert_int_equal(d.sets, 1);
	assert_int_equal(d.gets, 2);
	/* CDW10: FID 0x06 and SV (bit 31) clear; CDW11 bit 0 WCE = 0; controller-wide: nsid 0. */
	assert_int_equal(d.last_set.cdw10, 0x00000006);
	assert_int_equal(d.last_set.cdw11, 0);
	assert_int_equal(d.last_set.nsid, 0);
	{
		struct json_object *l = line_of(f.dir, 0);

		assert_non_null(strstr(str_of(l, "command"),
				       "opcode 0x09 (Set Features), nsid 0x00000000, cdw10 "
				       "0x00000006 (FID 0x06"));
		assert_non_null(
		    strstr(str_of(l, "command"), "SV 0), cdw11 0x00000000 (value 0x0)"));
		json_object_put(l);
	}

	assert_int_equal(journal_read(f.dir, &e, &n, NULL, err, sizeof(err)), 0);
	assert_int_equal(devchange_restore(&f.c, e, n, res, &nres), 0);
	assert_true(res[0].ok);
	assert_true(d.wce);
	assert_int_equal(d.last_set.cdw11, 1);
	journal_entries_free(e, n);
	json_object_put(to);
	fixture_release(&f);
}

static int nocache_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	(void)ctx;
	(void)fd;
	(void)cmd;
	return 0x4002; /* Invalid Field in Command */
}

static void test_write_cache_nvme_absent(void **state)
{
	struct ioctl_ops ops = {.admin = nocache_admin};
	struct fixture f;
	char err[256] = "";
	struct json_object *to = jv("{\"enabled\":false}");

	(void)state;
	fixture_init(&f, "S1");
	f.c.ops = &ops;
	f.c.kinds = NULL;
	f.c.transport = DRIVEDB_NVME;
	assert_int_equal(devchange_set(&f.c, "write_cache", to, err, sizeof(err)), -EOPNOTSUPP);
	assert_non_null(strstr(err, "has no volatile write cache"));
	assert_int_equal(lines_in(f.dir), 0);
	json_object_put(to);
	fixture_release(&f);
}

/* ---- power_state over scripted drives ---- */

struct apst_drive {
	bool apste;
	uint8_t table[256];
	int sets;
	struct nvme_admin_cmd last_set;
	uint8_t last_data[256];
};

static int apst_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct apst_drive *d = ctx;

	assert_int_equal(fd, 7);
	if (cmd->opcode == 0x0a && cmd->cdw10 == 0x0c) { /* Get Features APST, current */
		assert_int_equal(cmd->data_len, 256);
		memcpy((void *)(uintptr_t)cmd->addr, d->table, 256);
		cmd->result = d->apste;
		return 0;
	}
	if (cmd->opcode == 0x09 && (cmd->cdw10 & 0xff) == 0x0c) { /* Set Features APST */
		d->sets++;
		d->last_set = *cmd;
		assert_int_equal(cmd->data_len, 256);
		memcpy(d->last_data, (void *)(uintptr_t)cmd->addr, 256);
		memcpy(d->table, d->last_data, 256);
		d->apste = cmd->cdw11 & 1;
		return 0;
	}
	return 0x4002;
}

static void test_power_state_nvme(void **state)
{
	struct apst_drive d = {.apste = true};
	struct ioctl_ops ops = {.admin = apst_admin, .ctx = &d};
	struct fixture f;
	struct journal_entry *e = NULL;
	struct devchange_restore_result res[2];
	uint8_t found[256];
	size_t n = 0, nres = 0;
	char err[256] = "";
	struct json_object *to, *l;
	char text[700];

	(void)state;
	/* Entry 0: go to power state 3 after 100 ms idle (ITPT 100 in bits 31:8, ITPS 3 in 7:3):
	 * (100 << 8) | (3 << 3) = 0x6418, little-endian 18 64 00 00. */
	memset(d.table, 0, sizeof(d.table));
	d.table[0] = 0x18;
	d.table[1] = 0x64;
	memcpy(found, d.table, sizeof(found));
	snprintf(text, sizeof(text), "{\"apst\":false,\"table\":\"18640000%0504d\"}", 0);
	to = jv(text);
	fixture_init(&f, "S1");
	f.c.ops = &ops;
	f.c.kinds = NULL;
	f.c.transport = DRIVEDB_NVME;
	assert_int_equal(devchange_set(&f.c, "power_state", to, err, sizeof(err)), 0);
	assert_false(d.apste);
	assert_int_equal(d.sets, 1);
	/* CDW10 FID 0x0C, SV clear; CDW11 APSTE 0; the table as found written back. */
	assert_int_equal(d.last_set.cdw10, 0x0000000c);
	assert_int_equal(d.last_set.cdw11, 0);
	assert_memory_equal(d.last_data, found, 256);
	l = line_of(f.dir, 0);
	assert_string_equal(str_of(l, "id"), "ps-1");
	assert_true(json_object_get_boolean(
	    json_object_object_get(json_object_object_get(l, "from"), "apst")));
	json_object_put(l);

	assert_int_equal(journal_read(f.dir, &e, &n, NULL, err, sizeof(err)), 0);
	assert_int_equal(devchange_restore(&f.c, e, n, res, &nres), 0);
	assert_true(res[0].ok);
	assert_true(d.apste);
	assert_int_equal(d.last_set.cdw11, 1);
	assert_memory_equal(d.last_data, found, 256);
	journal_entries_free(e, n);
	json_object_put(to);
	fixture_release(&f);
}

static void test_power_state_sata(void **state)
{
	struct ata_drive d = {.wce = true};
	struct ioctl_ops ops = {.sg_io = ata_sg_io, .ctx = &d};
	struct fixture f;
	struct journal_entry *e = NULL;
	struct devchange_restore_result res[2];
	size_t n = 0, nres = 0;
	char err[256] = "", path[600], buf[64] = "";
	struct json_object *to = jv("{\"alpm\":\"max_performance\"}"), *l;
	FILE *pf;

	(void)state;
	fixture_init(&f, "S1");
	snprintf(path, sizeof(path), "%s/link_power_management_policy", f.dir);
	pf = fopen(path, "w");
	assert_non_null(pf);
	fputs("min_power\n", pf); /* as the kernel shows it: with a newline */
	fclose(pf);
	f.c.ops = &ops;
	f.c.kinds = NULL;
	f.c.alpm_path = path;
	assert_int_equal(devchange_set(&f.c, "power_state", to, err, sizeof(err)), 0);
	pf = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), pf));
	fclose(pf);
	assert_string_equal(buf, "max_performance");
	l = line_of(f.dir, 0);
	{
		char want[700];

		snprintf(want, sizeof(want), "write \"max_performance\" to %s", path);
		assert_string_equal(str_of(l, "command"), want);
	}
	/* as found: the policy without its newline; DEVSLP null (IDENTIFY word 78 bit 8 clear) */
	assert_string_equal(json_object_to_json_string_ext(json_object_object_get(l, "from"),
							   JSON_C_TO_STRING_PLAIN),
			    "{\"alpm\":\"min_power\",\"devslp\":null}");
	json_object_put(l);

	assert_int_equal(journal_read(f.dir, &e, &n, NULL, err, sizeof(err)), 0);
	assert_int_equal(devchange_restore(&f.c, e, n, res, &nres), 0);
	assert_true(res[0].ok);
	pf = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), pf));
	fclose(pf);
	assert_string_equal(buf, "min_power");
	journal_entries_free(e, n);
	unlink(path);
	json_object_put(to);
	fixture_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_journal_lines),
	    cmocka_unit_test(test_journal_missing_is_empty),
	    cmocka_unit_test(test_journal_torn_last_line),
	    cmocka_unit_test(test_journal_bad_middle_line),
	    cmocka_unit_test(test_change_without_done),
	    cmocka_unit_test(test_restore_newest_first),
	    cmocka_unit_test(test_other_drive_refused),
	    cmocka_unit_test(test_same_drive),
	    cmocka_unit_test(test_send_fails_and_readback_differs),
	    cmocka_unit_test(test_write_cache_ata),
	    cmocka_unit_test(test_write_cache_nvme),
	    cmocka_unit_test(test_write_cache_nvme_absent),
	    cmocka_unit_test(test_power_state_nvme),
	    cmocka_unit_test(test_power_state_sata),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
