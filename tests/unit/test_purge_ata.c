// SPDX-License-Identifier: MIT
/*
 * test_purge_ata: the ATA purge methods carried out with the password journaled
 * (targets/purge_ata.h) against the scripted drive of ata_sec_drive.h and a real journal in a
 * temporary results directory: the journal's lines are read back with journal_read and the
 * drive's state is the script's. The restore is devchange_restore, as the runner and `ssdlab
 * restore` call it. The timeout 5,400,000 ms is worked in test_ata_purge.c (word 90 = 15).
 */
#include <errno.h>
#include <json-c/json.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "results/journal.h"
#include "targets/purge_ata.h"

#include "ata_sec_drive.h"

struct fixture {
	char dir[64];
	struct journal *j;
	struct sec_drive d;
	struct ioctl_ops ops;
	struct json_object *ident;
	struct devchange_ctx c;
};

static void no_wait(void *ctx, uint64_t ns)
{
	(void)ctx, (void)ns;
}

static const struct ata_poll poll = {.interval_ns = 1000000000ull, .wait = no_wait};

static void fixture_init(struct fixture *f, struct sec_drive d)
{
	char err[256] = "";

	memset(f, 0, sizeof *f);
	snprintf(f->dir, sizeof f->dir, "/tmp/test_purge_ata.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(journal_open(f->dir, &f->j, err, sizeof err), 0);
	f->d = d;
	f->ops = (struct ioctl_ops){.sg_io = sec_drive_sg_io, .ctx = &f->d};
	f->ident = json_tokener_parse(
	    "{\"path\":\"/dev/sdz\",\"serial\":\"SER123\",\"transport\":\"sata\"}");
	f->c = (struct devchange_ctx){.ops = &f->ops,
				      .fd = 7,
				      .path = "/dev/sdz",
				      .transport = DRIVEDB_ATA,
				      .identity = f->ident,
				      .journal = f->j};
}

static void fixture_release(struct fixture *f)
{
	char path[128];

	journal_close(f->j);
	json_object_put(f->ident);
	snprintf(path, sizeof path, "%s/%s", f->dir, JOURNAL_FILE);
	unlink(path);
	rmdir(f->dir);
}

/* Reads the journal; returns its entries (n of them). */
static struct journal_entry *entries_of(struct fixture *f, size_t *n)
{
	struct journal_entry *e = NULL;
	bool torn = true;
	char err[256] = "";

	assert_int_equal(journal_read(f->dir, &e, n, &torn, err, sizeof err), 0);
	assert_false(torn);
	return e;
}

/* How many journaled changes are not restored. */
static size_t outstanding(struct fixture *f)
{
	size_t n, out;
	struct journal_entry *e = entries_of(f, &n);

	out = journal_outstanding(e, n);
	journal_entries_free(e, n);
	return out;
}

static bool member_true(struct json_object *o, const char *key)
{
	struct json_object *v;
	return o && json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

static void restore_all(struct fixture *f, bool *ok, char *what, size_t len)
{
	size_t n, nres = 0;
	struct journal_entry *e = entries_of(f, &n);
	struct devchange_restore_result res[4];

	assert_true(n <= 4);
	*ok = devchange_restore(&f->c, e, n, res, &nres) == 0;
	assert_int_equal(nres, n);
	snprintf(what, len, "%s", nres ? res[0].what : "");
	journal_entries_free(e, n);
}

static void test_security_erase_journaled(void **state)
{
	(void)state;
	struct fixture f;
	struct purge_ata_done done = {0};
	struct journal_entry *e;
	size_t n;
	char err[512] = "", what[512];
	bool ok;

	fixture_init(&f, (struct sec_drive){.enhanced = true, .erase_w90 = 0x000f});
	assert_int_equal(
	    purge_ata_run(&f.c, "sata", "ata-security-erase", &poll, &done, err, sizeof err), 0);
	assert_true(done.enhanced);
	assert_int_equal(done.timeout_ms, 5400000u);
	assert_int_equal(f.d.erased_enhanced, 1);
	assert_false(f.d.enabled || f.d.locked);

	/* the password went into the journal before the drive saw it, and the set is done */
	e = entries_of(&f, &n);
	assert_int_equal(n, 1);
	assert_string_equal(e[0].kind, "security");
	assert_true(member_true(e[0].to, "password_set"));
	assert_string_equal(json_object_get_string(json_object_object_get(e[0].to, "password")),
			    "ssdlab-purge");
	assert_false(member_true(e[0].from, "password_set"));
	assert_non_null(strstr(e[0].command, "SECURITY SET PASSWORD 0xF1"));
	assert_true(e[0].done && e[0].done_ok);
	journal_entries_free(e, n);

	/* the erase cleared it: the restore finds the original value and sends nothing */
	f.d.n = 0;
	restore_all(&f, &ok, what, sizeof what);
	assert_true(ok);
	for (int i = 0; i < f.d.n; i++)
		assert_int_equal(f.d.cdb[i][14], 0xec);
	assert_int_equal(outstanding(&f), 0);
	fixture_release(&f);
}

static void test_failed_erase_restored(void **state)
{
	(void)state;
	struct fixture f;
	struct purge_ata_done done = {0};
	char err[512] = "", what[512];
	bool ok;

	fixture_init(&f, (struct sec_drive){.fail_erase = true});
	assert_int_equal(
	    purge_ata_run(&f.c, "sata", "ata-security-erase", &poll, &done, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "SECURITY ERASE UNIT: ATA error"));
	assert_non_null(strstr(err, "the restore unlocks it"));
	assert_true(f.d.locked && f.d.enabled);
	assert_int_equal(outstanding(&f), 1);

	f.d.n = 0;
	restore_all(&f, &ok, what, sizeof what);
	assert_true(ok);
	assert_false(f.d.locked || f.d.enabled);
	bool unlock = false, disable = false;
	for (int i = 0; i < f.d.n; i++) {
		unlock |= f.d.cdb[i][14] == 0xf2;
		disable |= f.d.cdb[i][14] == 0xf6;
	}
	assert_true(unlock && disable);
	assert_int_equal(outstanding(&f), 0);
	fixture_release(&f);
}

/* A drive that offers the SECURITY feature set but aborts SET PASSWORD: the drive's answer,
 * nothing left set, and the journal says the change failed. */
static void test_set_password_refused(void **state)
{
	(void)state;
	struct fixture f;
	struct purge_ata_done done = {0};
	struct journal_entry *e;
	size_t n;
	char err[512] = "", what[512];
	bool ok;

	fixture_init(&f, (struct sec_drive){.abort_setpw = true});
	assert_int_equal(
	    purge_ata_run(&f.c, "sata", "ata-security-erase", &poll, &done, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "SECURITY SET PASSWORD: ATA error"));
	assert_int_equal(f.d.erased, 0);
	assert_false(f.d.enabled);
	e = entries_of(&f, &n);
	assert_int_equal(n, 1);
	assert_true(e[0].done && !e[0].done_ok);
	journal_entries_free(e, n);
	restore_all(&f, &ok, what, sizeof what);
	assert_true(ok);
	assert_false(f.d.enabled || f.d.locked);
	fixture_release(&f);
}

static void test_refusals_send_nothing(void **state)
{
	(void)state;
	static const struct {
		struct sec_drive d;
		const char *link, *method, *says;
		int rc;
	} rows[] = {
	    {{.frozen = true}, "sata", "ata-security-erase", "suspend and resume", -EPERM},
	    {{0}, "usb", "ata-security-erase", "USB bridge", -EOPNOTSUPP},
	    {{0}, "usb", "ata-sanitize-block", "USB bridge", -EOPNOTSUPP},
	    {{.no_security = true},
	     "sata",
	     "ata-security-erase",
	     "no SECURITY feature set",
	     -EOPNOTSUPP},
	    {{0}, "sata", "nvme-format", "not an ATA purge method", -EINVAL},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct fixture f;
		struct purge_ata_done done = {0};
		struct journal_entry *e;
		size_t n;
		char err[512] = "";

		fixture_init(&f, rows[i].d);
		assert_int_equal(purge_ata_run(&f.c, rows[i].link, rows[i].method, &poll, &done,
					       err, sizeof err),
				 rows[i].rc);
		assert_non_null(strstr(err, rows[i].says));
		for (int k = 0; k < f.d.n; k++)
			assert_int_equal(f.d.cdb[k][14], 0xec); /* IDENTIFY only */
		e = entries_of(&f, &n);
		assert_int_equal(n, 0);
		journal_entries_free(e, n);
		fixture_release(&f);
	}
}

/* The chain's check: the enhanced erase only for auto, the named method either way. */
static void test_check_for_the_chain(void **state)
{
	(void)state;
	struct sec_drive normal = {0}, enhanced = {.enhanced = true}, frozen = {.frozen = true};
	struct ioctl_ops ops = {.sg_io = sec_drive_sg_io, .ctx = &normal};
	char why[512] = "";

	assert_int_equal(
	    purge_ata_check(&ops, 7, "sata", "ata-security-erase", false, why, sizeof why), 0);
	assert_int_equal(
	    purge_ata_check(&ops, 7, "sata", "ata-security-erase", true, why, sizeof why),
	    -EOPNOTSUPP);
	assert_non_null(strstr(why, "only the normal SECURITY ERASE"));
	assert_int_equal(
	    purge_ata_check(&ops, 7, "sata", "ata-sanitize-block", true, why, sizeof why), 0);
	ops.ctx = &enhanced;
	assert_int_equal(
	    purge_ata_check(&ops, 7, "sata", "ata-security-erase", true, why, sizeof why), 0);
	ops.ctx = &frozen;
	assert_int_equal(
	    purge_ata_check(&ops, 7, "sata", "ata-security-erase", true, why, sizeof why), -EPERM);
	assert_non_null(strstr(why, "hot-plug"));
	assert_int_equal(
	    purge_ata_check(&ops, 7, "usb", "ata-sanitize-block", true, why, sizeof why),
	    -EOPNOTSUPP);
	assert_non_null(strstr(why, "USB bridge"));
	/* IDENTIFY only */
	assert_int_equal(normal.n + enhanced.n + frozen.n, 6);
	assert_int_equal(normal.cdb[0][14], 0xec);
}

static void test_sanitize_not_journaled(void **state)
{
	(void)state;
	struct fixture f;
	struct purge_ata_done done = {.enhanced = true};
	struct journal_entry *e;
	size_t n;
	char err[512] = "";

	fixture_init(&f, (struct sec_drive){.polls_total = 2});
	assert_int_equal(
	    purge_ata_run(&f.c, "sata", "ata-sanitize-block", &poll, &done, err, sizeof err), 0);
	assert_int_equal(f.d.sanitized, 1);
	assert_false(done.enhanced);
	e = entries_of(&f, &n);
	assert_int_equal(n, 0); /* a sanitize sets nothing to restore */
	journal_entries_free(e, n);
	fixture_release(&f);
}

static void test_dry_run(void **state)
{
	(void)state;
	struct fixture f;
	struct purge_ata_done done = {0};
	char err[512] = "", *buf = NULL;
	size_t len = 0;

	fixture_init(&f, (struct sec_drive){.enhanced = true, .erase_w90 = 0x000f});
	f.c.dry_run = true;
	f.c.dry_out = open_memstream(&buf, &len);
	assert_non_null(f.c.dry_out);
	assert_int_equal(
	    purge_ata_run(&f.c, "sata", "ata-security-erase", &poll, &done, err, sizeof err), 0);
	fclose(f.c.dry_out);
	for (int k = 0; k < f.d.n; k++)
		assert_int_equal(f.d.cdb[k][14], 0xec);
	assert_false(f.d.enabled);
	assert_non_null(strstr(buf, "SECURITY SET PASSWORD: command 0xf1"));
	assert_non_null(strstr(buf, "SECURITY ERASE PREPARE: command 0xf3"));
	assert_non_null(strstr(buf, "SECURITY ERASE UNIT: command 0xf4"));
	free(buf);
	fixture_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_security_erase_journaled),
	    cmocka_unit_test(test_failed_erase_restored),
	    cmocka_unit_test(test_set_password_refused),
	    cmocka_unit_test(test_refusals_send_nothing),
	    cmocka_unit_test(test_check_for_the_chain),
	    cmocka_unit_test(test_sanitize_not_journaled),
	    cmocka_unit_test(test_dry_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
