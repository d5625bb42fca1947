// SPDX-License-Identifier: MIT
/*
 * test_purge_chain_ata: the ATA rows of the purge chain (targets/purge_chain.h over
 * targets/purge_ata.h) on the scripted SATA drive of ata_sec_drive.h, with a real journal for
 * the security erase's password. auto's order on a SATA drive, written out from issue 13 point 4:
 * nvme-sanitize (not an NVMe drive), ata-sanitize-block, nvme-format (not an NVMe drive),
 * ata-security-erase (enhanced only), discard; ata-sanitize-crypto only when named, followed by
 * a full-device discard.
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
#include "targets/devchange.h"
#include "targets/purge_chain.h"

#include "ata_sec_drive.h"

struct fixture {
	char dir[64];
	struct journal *j;
	struct sec_drive d;
	struct ioctl_ops ops;
	struct json_object *ident;
	struct devchange_ctx c;
	struct purge_drive pd;
	int discards;
};

static int fx_discard(void *ctx)
{
	struct fixture *f = ctx;
	f->discards++;
	return 0;
}

static void fx_sleep(void *ctx, uint64_t ns)
{
	(void)ctx, (void)ns;
}

static const struct nvme_wait no_sleep = {.sleep_ns = fx_sleep};

static struct fixture *fx_new(struct sec_drive d, const char *link)
{
	struct fixture *f = calloc(1, sizeof *f);
	char err[256] = "";

	assert_non_null(f);
	snprintf(f->dir, sizeof f->dir, "/tmp/test_purge_chain_ata.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	assert_int_equal(journal_open(f->dir, &f->j, err, sizeof err), 0);
	f->d = d;
	f->ops = (struct ioctl_ops){.sg_io = sec_drive_sg_io, .ctx = &f->d};
	f->ident = json_tokener_parse("{\"path\":\"/dev/sdz\",\"serial\":\"SER123\"}");
	f->c = (struct devchange_ctx){.ops = &f->ops,
				      .fd = 7,
				      .path = "/dev/sdz",
				      .transport = DRIVEDB_ATA,
				      .identity = f->ident,
				      .journal = f->j};
	f->pd = (struct purge_drive){.ops = &f->ops,
				     .fd = 7,
				     .transport = PURGE_ATA,
				     .discard = fx_discard,
				     .ctx = f,
				     .wait = &no_sleep,
				     .link = link,
				     .change = &f->c};
	return f;
}

static void fx_free(struct fixture *f)
{
	char path[128];

	journal_close(f->j);
	json_object_put(f->ident);
	snprintf(path, sizeof path, "%s/%s", f->dir, JOURNAL_FILE);
	unlink(path);
	rmdir(f->dir);
	free(f);
}

static size_t outstanding(struct fixture *f)
{
	struct journal_entry *e = NULL;
	size_t n = 0, out;
	bool torn;
	char err[256];

	assert_int_equal(journal_read(f->dir, &e, &n, &torn, err, sizeof err), 0);
	out = journal_outstanding(e, n);
	journal_entries_free(e, n);
	return out;
}

static void test_auto(void **state)
{
	(void)state;
	static const struct {
		const char *name, *link;
		struct sec_drive d;
		const char *method, *skipped;
		bool pts;
	} rows[] = {
	    {"block-erase sanitize",
	     "sata",
	     {.polls_total = 2},
	     "ata-sanitize-block",
	     "nvme-sanitize: not an NVMe drive",
	     true},
	    {"enhanced erase",
	     "sata",
	     {.no_sanitize = true, .enhanced = true},
	     "ata-security-erase (enhanced)",
	     "nvme-sanitize: not an NVMe drive; ata-sanitize-block: SANITIZE BLOCK ERASE EXT: the "
	     "drive does "
	     "not support it (IDENTIFY word 59); nvme-format: not an NVMe drive",
	     true},
	    {"normal erase only",
	     "sata",
	     {.no_sanitize = true},
	     "discard",
	     "nvme-sanitize: not an NVMe drive; ata-sanitize-block: SANITIZE BLOCK ERASE EXT: the "
	     "drive does "
	     "not support it (IDENTIFY word 59); nvme-format: not an NVMe drive; "
	     "ata-security-erase: the drive "
	     "offers only the normal SECURITY ERASE (IDENTIFY word 128 bit 5 clear), which need "
	     "not erase the "
	     "spare area",
	     false},
	    {"usb bridge", "usb", {.enhanced = true}, "discard", NULL, false},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct fixture *f = fx_new(rows[i].d, rows[i].link);
		struct purge_outcome o;
		char err[1024] = "";

		print_message("%s\n", rows[i].name);
		assert_int_equal(purge_chain_run(&f->pd, "auto", &o, err, sizeof err), 0);
		assert_string_equal(o.method, rows[i].method);
		assert_int_equal(o.pts_purge, rows[i].pts);
		if (rows[i].skipped)
			assert_string_equal(o.skipped, rows[i].skipped);
		else /* every ATA row names the bridge */
			assert_non_null(strstr(
			    o.skipped, "ata-security-erase: SECURITY ERASE UNIT refused: the "
				       "drive sits behind a USB bridge"));
		assert_int_equal(f->discards, rows[i].pts ? 0 : 1);
		assert_false(f->d.enabled || f->d.locked);
		assert_int_equal(outstanding(f), strstr(rows[i].method, "security") ? 1 : 0);
		fx_free(f);
	}
}

static void test_named(void **state)
{
	(void)state;
	struct fixture *f = fx_new((struct sec_drive){.polls_total = 3}, "sata");
	struct purge_outcome o;
	char err[1024] = "";

	/* a crypto scramble, then the full-device discard */
	assert_int_equal(purge_chain_run(&f->pd, "ata-sanitize-crypto", &o, err, sizeof err), 0);
	assert_string_equal(o.method, "ata-sanitize-crypto");
	assert_true(o.pts_purge && o.discard_after);
	assert_int_equal(f->d.sanitized, 1);
	assert_int_equal(f->discards, 1);
	/* named, the normal erase is taken */
	assert_int_equal(purge_chain_run(&f->pd, "ata-security-erase", &o, err, sizeof err), 0);
	assert_string_equal(o.method, "ata-security-erase (normal)");
	assert_int_equal(f->d.erased, 1);
	/* no journal, no security erase */
	f->pd.change = NULL;
	assert_int_equal(purge_chain_run(&f->pd, "ata-security-erase", &o, err, sizeof err),
			 -EOPNOTSUPP);
	assert_string_equal(
	    err, "purge method ata-security-erase: no journal to record the security password in");
	assert_int_equal(f->d.erased, 1);
	fx_free(f);

	f = fx_new((struct sec_drive){.frozen = true}, "sata");
	assert_int_equal(purge_chain_run(&f->pd, "ata-security-erase", &o, err, sizeof err),
			 -EPERM);
	assert_non_null(strstr(err, "suspend and resume"));
	assert_int_equal(outstanding(f), 0);
	fx_free(f);
}

/* A failed erase leaves the drive locked; the run's restore unlocks it. */
static void test_failed_erase(void **state)
{
	(void)state;
	struct fixture *f =
	    fx_new((struct sec_drive){.fail_erase = true, .no_sanitize = true}, "sata");
	struct purge_outcome o;
	struct journal_entry *e = NULL;
	struct devchange_restore_result res[2];
	size_t n = 0, nres = 0;
	bool torn;
	char err[1024] = "";

	assert_int_equal(purge_chain_run(&f->pd, "ata-security-erase", &o, err, sizeof err), -EIO);
	assert_non_null(strstr(err, "the restore unlocks it"));
	assert_true(f->d.locked);
	assert_int_equal(outstanding(f), 1);
	assert_int_equal(journal_read(f->dir, &e, &n, &torn, err, sizeof err), 0);
	assert_int_equal(devchange_restore(&f->c, e, n, res, &nres), 0);
	journal_entries_free(e, n);
	assert_false(f->d.locked || f->d.enabled);
	assert_int_equal(outstanding(f), 0);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_auto),
	    cmocka_unit_test(test_named),
	    cmocka_unit_test(test_failed_erase),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
