// SPDX-License-Identifier: MIT
/*
 * test_variants_drive: a `variants` phase with method hpa (and auto, which picks it on a SATA
 * drive that is no virtual SSD and has no namespaces) run by the runner over the scripted HPA
 * drive (hpa_drive.h). The drive: native max LBA 131071 (64 MiB of 512-byte sectors); 75% of
 * it is 48 MiB = 98304 sectors, max LBA 98303 (hand-worked; 1 MiB divides it, so the variant
 * alignment leaves it as is). Shown: the journal's change and done lines of the set come before
 * the variant's body (its trim) and the restored line after it; the whole device is discarded
 * before each variant; the drive's max is back at 131071 at the end, also when the body of the
 * shrunk variant fails. The same for method namespace over the scripted NVMe controller
 * (nvme_ns_ctrl.h), and auto's fall to the trimmed tail on a controller like QEMU 7.2's. After
 * the namespace is created again the target is opened again (its handle named the deleted one):
 * the shrunk variant's body sees 192 MiB, and a reopen that still sees the old size fails the
 * variant and restores all the same.
 */
#include <errno.h>
#include <fcntl.h>
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

#include "profile/profile.h"
#include "results/journal.h"
#include "results/results.h"
#include "run/drive_settings.h"
#include "run/runner.h"
#include "targets/target.h"

#include "hpa_drive.h"
#include "nvme_ns_ctrl.h"

#define NATIVE_MAX 131071ull /* 64 MiB - 1 sector */

struct fx {
	char dir[64], jpath[256];
	bool nvme; /* the drive: the NVMe controller n, else the SATA drive d */
	struct hpa_drive d;
	struct nvme_ns_ctrl n;
	struct ioctl_ops ops;
	/* each discard: offset, length, and how many journal lines existed when it came */
	uint64_t off[16], len[16], cap[16]; /* cap: the target's capacity at the discard */
	int lines[16];
	int ndiscard;
	int reopens;	   /* target_reopen() calls */
	bool stale_reopen; /* the reopen finds the old size, as a kernel that missed the rescan */
	char notes[2048]; /* the runner's notes, one a line */
};

static void on_note(const char *msg, void *arg)
{
	struct fx *f = arg;
	size_t l = strlen(f->notes);

	snprintf(f->notes + l, sizeof(f->notes) - l, "%s\n", msg);
}

static int count_lines(const char *path)
{
	FILE *fp = fopen(path, "r");
	int n = 0, ch;

	if (!fp)
		return 0;
	while ((ch = fgetc(fp)) != EOF)
		n += ch == '\n';
	fclose(fp);
	return n;
}

static int sd_open(struct target *t, const char *spec, const struct target_open_opts *o)
{
	struct target_info *ti = target_info_mut(t);

	(void)o;
	ti->kind = TARGET_KIND_BLOCKDEV;
	snprintf(ti->path, sizeof(ti->path), "%s", spec);
	snprintf(ti->serial, sizeof(ti->serial), "HPA0001");
	ti->capacity = (NATIVE_MAX + 1) * 512;
	ti->logical_block_size = 512;
	ti->has_drive = true;
	ti->drive.kind = DRIVE_IDENT_SATA;
	ti->drive.read = true;
	snprintf(ti->drive.serial, sizeof(ti->drive.serial), "HPA0001");
	snprintf(ti->drive.transport, sizeof(ti->drive.transport), "sata");
	return 0;
}

/* The scripted NVMe drive: namespace 1 of 256 MiB in 512-byte blocks (nvme_ns_ctrl.h). */
static int nv_open(struct target *t, const char *spec, const struct target_open_opts *o)
{
	struct target_info *ti = target_info_mut(t);

	(void)o;
	ti->kind = TARGET_KIND_BLOCKDEV;
	snprintf(ti->path, sizeof(ti->path), "%s", spec);
	snprintf(ti->serial, sizeof(ti->serial), "S1");
	ti->capacity = 256ull << 20;
	ti->logical_block_size = 512;
	ti->has_drive = true;
	ti->drive.kind = DRIVE_IDENT_NVME;
	ti->drive.read = true;
	ti->drive.nsid = 1;
	snprintf(ti->drive.serial, sizeof(ti->drive.serial), "S1");
	snprintf(ti->drive.transport, sizeof(ti->drive.transport), "nvme");
	return 0;
}

static void sd_close(struct target *t)
{
	(void)t;
}

static int sd_queue_open(struct target *t, const struct target_queue_opts *o,
			 struct target_queue **q)
{
	(void)t, (void)o, (void)q;
	return -EOPNOTSUPP; /* the bodies here only trim */
}

static void sd_queue_close(struct target_queue *q)
{
	(void)q;
}

static int sd_submit(struct target_queue *q, struct target_io *ios, unsigned n)
{
	(void)q, (void)ios, (void)n;
	return -EOPNOTSUPP;
}

static int sd_reap(struct target_queue *q, struct target_completion *c, unsigned min, unsigned max)
{
	(void)q, (void)c, (void)min, (void)max;
	return -EOPNOTSUPP;
}

static uint64_t sd_now(struct target *t)
{
	(void)t;
	return 0;
}

static int sd_idle(struct target *t, uint64_t ns)
{
	(void)t, (void)ns;
	return 0;
}

static int sd_discard(struct target *t, uint64_t off, uint64_t len)
{
	struct fx *cur = target_priv(t);

	/* the drive refuses what lies past its accessible max, as a real one would */
	if ((off + len) / 512 >
	    (cur->nvme ? (cur->n.exists ? cur->n.nsze : 0) : cur->d.current_max_lba + 1))
		return -EIO;
	if (cur->ndiscard < 16) {
		cur->off[cur->ndiscard] = off;
		cur->len[cur->ndiscard] = len;
		cur->lines[cur->ndiscard] = count_lines(cur->jpath);
		cur->cap[cur->ndiscard] = target_info(t)->capacity;
		cur->ndiscard++;
	}
	return 0;
}

static const struct target_ops sd_ops = {
    .name = "scripted-sata",
    .caps = TARGET_CAP_DISCARD,
    .open = sd_open,
    .close = sd_close,
    .queue_open = sd_queue_open,
    .queue_close = sd_queue_close,
    .submit = sd_submit,
    .reap = sd_reap,
    .now = sd_now,
    .idle = sd_idle,
    .discard = sd_discard,
};

/* Opened again after a namespace change: the namespace's size as the controller has it now
 * (what the kernel reads after its rescan), unless the fixture plays a stale kernel. */
static int nv_reopen(struct target *t)
{
	struct fx *cur = target_priv(t);

	cur->reopens++;
	if (!cur->n.exists || !cur->n.attached) {
		target_set_error(t, "no such device");
		return -ENXIO;
	}
	if (!cur->stale_reopen)
		target_info_mut(t)->capacity = cur->n.nsze * 512;
	return 0;
}

static const struct target_ops nv_ops = {
    .name = "scripted-nvme",
    .caps = TARGET_CAP_DISCARD,
    .open = nv_open,
    .close = sd_close,
    .queue_open = sd_queue_open,
    .queue_close = sd_queue_close,
    .submit = sd_submit,
    .reap = sd_reap,
    .now = sd_now,
    .idle = sd_idle,
    .discard = sd_discard,
    .reopen = nv_reopen,
};

static uint64_t wall(void)
{
	return 42;
}

/* Runs profile yaml over the scripted drive; returns runner_execute's result. */
static int run(struct fx *f, const char *yaml, char *err, size_t errlen)
{
	char dev[128], rdir[128];
	struct ydoc_error perr;
	struct profile *p = NULL;
	struct target *t = NULL;
	struct drive_settings *ds = NULL;
	struct results *res = NULL;
	struct runner *r = NULL;
	struct runner_opts o = {.seed = 3};
	struct json_object *m;
	char msg[1024] = "";
	int fd, rc;

	snprintf(dev, sizeof(dev), "%s/dev", f->dir);
	snprintf(rdir, sizeof(rdir), "%s/res", f->dir);
	snprintf(f->jpath, sizeof(f->jpath), "%s/%s", rdir, JOURNAL_FILE);
	fd = open(dev, O_CREAT | O_WRONLY, 0600); /* what the settings open read-only */
	assert_true(fd >= 0);
	close(fd);
	memset(&perr, 0, sizeof(perr));
	assert_int_equal(profile_parse_string(yaml, strlen(yaml), "v.yaml", NULL, 0, &p, &perr), 0);
	assert_int_equal(target_open_ops(f->nvme ? &nv_ops : &sd_ops, dev, NULL, &t, err, errlen),
			 0);
	target_set_priv(t, f); /* the discard hook's fixture */
	assert_int_equal(results_create(rdir, &res), 0);
	if (f->nvme)
		f->ops = (struct ioctl_ops){.admin = nvme_ns_ctrl_admin, .ctx = &f->n};
	assert_int_equal(drive_settings_open(t, rdir, p, wall, &f->ops, &ds, err, errlen), 0);
	o.settings = ds;
	o.note = on_note;
	o.arg = f;
	o.chunk_bytes = 1 << 20;
	m = runner_manifest_new(p, dev, t, &o);
	assert_non_null(m);
	assert_int_equal(results_write_manifest(res, m, NULL), 0);
	json_object_put(m);
	assert_int_equal(runner_new(p, t, res, &o, NULL, false, &r, err, errlen), 0);
	rc = runner_execute(r, err, errlen);
	runner_free(r);
	/* the run's end restores whatever is left: nothing, when the phase did its job */
	assert_int_equal(drive_settings_restore(ds, msg, sizeof(msg)), 0);
	assert_string_equal(msg, "");
	assert_int_equal(target_info(t)->capacity, f->nvme ? 256ull << 20 : (NATIVE_MAX + 1) * 512);
	drive_settings_free(ds);
	results_close(res);
	target_close(t);
	profile_free(p);
	return rc;
}

/* The journal's lines as "op kind id" strings (kind "-" on the lines that only name the id),
 * in file order. */
static int journal_events(const char *path, char ev[][64], int max)
{
	FILE *fp = fopen(path, "r");
	char line[8192];
	int n = 0;

	assert_non_null(fp);
	while (n < max && fgets(line, sizeof(line), fp)) {
		struct json_object *o = json_tokener_parse(line), *e, *k, *id;

		assert_non_null(o);
		assert_true(json_object_object_get_ex(o, "op", &e));
		assert_true(json_object_object_get_ex(o, "id", &id));
		k = json_object_object_get(o, "kind");
		snprintf(ev[n++], 64, "%s %s %s", json_object_get_string(e),
			 k ? json_object_get_string(k) : "-", json_object_get_string(id));
		json_object_put(o);
	}
	fclose(fp);
	return n;
}

static struct fx *fx_new(bool nvme)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_variants_drive.XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	f->d = (struct hpa_drive){.native_max_lba = NATIVE_MAX, .current_max_lba = NATIVE_MAX};
	f->ops = (struct ioctl_ops){.sg_io = hpa_drive_sg_io, .ctx = &f->d};
	f->nvme = nvme;
	/* QEMU's test namespace: 256 MiB = 524288 blocks; a controller that really manages them */
	f->n = (struct nvme_ns_ctrl){.exists = true,
				     .attached = true,
				     .nsze = 524288,
				     .ncap = 524288,
				     .oacs = 0x000a,
				     .effects = 1};
	return f;
}

static void fx_free(struct fx *f)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	assert_int_equal(system(cmd), 0);
	free(f);
}

/* The HPA SET MAX ADDRESS EXT commands the drive saw: their LBAs in order. */
static int set_max_lbas(const struct hpa_drive *d, uint64_t *lba, int max)
{
	int n = 0;

	for (int i = 0; i < d->ncdb && n < max; i++) {
		const uint8_t *c = d->cdbs[i];

		if (c[14] != 0x37)
			continue;
		lba[n++] = (uint64_t)c[11] << 40 | (uint64_t)c[9] << 32 | (uint64_t)c[7] << 24 |
			   (uint64_t)c[12] << 16 | (uint64_t)c[10] << 8 | c[8];
	}
	return n;
}

static void check_order(struct fx *f, uint64_t body_len)
{
	char ev[16][64];
	uint64_t lba[4];
	int n = journal_events(f->jpath, ev, 16);

	/* one change, made and undone through the journal */
	assert_int_equal(n, 3);
	assert_string_equal(ev[0], "change hpa hpa-1");
	assert_string_equal(ev[1], "done - hpa-1");
	assert_string_equal(ev[2], "restored - hpa-1");
	assert_int_equal(f->d.current_max_lba, NATIVE_MAX);
	/* 98303 set, then the native max back */
	assert_int_equal(set_max_lbas(&f->d, lba, 4), 2);
	assert_int_equal(lba[0], 98303);
	assert_int_equal(lba[1], NATIVE_MAX);
	/* variant 1: the whole device before it, then its trim, before any journal line */
	assert_true(f->ndiscard >= 3);
	assert_int_equal(f->off[0], 0);
	assert_int_equal(f->len[0], 64ull << 20);
	assert_int_equal(f->lines[0], 0);
	assert_int_equal(f->len[1], body_len);
	assert_int_equal(f->lines[1], 0);
	/* variant 2: the whole (still full) device discarded before the set, the body after it */
	assert_int_equal(f->len[2], 64ull << 20);
	assert_int_equal(f->lines[2], 0);
	if (f->ndiscard > 3)
		assert_int_equal(f->lines[3], 2);
}

static void test_hpa_order(void **state)
{
	static const char *const methods[] = {"hpa", "auto"};

	(void)state;
	for (unsigned i = 0; i < 2; i++) {
		char yaml[512], err[1024] = "";
		struct fx *f = fx_new(false);

		snprintf(yaml, sizeof(yaml),
			 "name: v\ndestructive: true\nphases:\n  - variants:\n"
			 "      method: %s\n      fractions: [100%%, 75%%]\n"
			 "      phases:\n        - trim: {range: 0-1048576}\n",
			 methods[i]);
		if (run(f, yaml, err, sizeof(err)))
			fail_msg("%s: %s", methods[i], err);
		check_order(f, 1ull << 20);
		/* auto says what it passed by on the way to hpa */
		if (i == 1 && !strstr(f->notes, "variants (hpa): passed by sim: not a virtual SSD; "
						"namespace: not an NVMe drive\n"))
			fail_msg("the notes: %s", f->notes);
		assert_int_equal(f->ndiscard, 4);
		fx_free(f);
	}
}

/* The shrunk variant's body asks for 60 MiB, past its 48: the run fails, the capacity comes
 * back all the same, through the same journal entry. */
static void test_hpa_fails(void **state)
{
	char err[1024] = "";
	struct fx *f = fx_new(false);

	(void)state;
	if (!run(f,
		 "name: v\ndestructive: true\nphases:\n  - variants:\n"
		 "      method: hpa\n      fractions: [100%, 75%]\n"
		 "      phases:\n        - trim: {range: 0-62914560}\n",
		 err, sizeof(err)))
		fail_msg("the run should have failed");
	check_order(f, 60ull << 20);
	if (!strstr(err, "does not fit"))
		fail_msg("the failure: %s", err);
	assert_int_equal(f->ndiscard, 3);
	fx_free(f);
}

/*
 * The namespace method (and auto, which picks it first on a controller that manages
 * namespaces): 75% of 256 MiB = 192 MiB = 393216 blocks created, the 524288 back at the end;
 * the journal's change and done lines before the shrunk variant's body, restored after it.
 * On a controller like QEMU 7.2's (the effects log does not list Namespace Management) auto
 * says why it passed namespace by and falls to the trimmed tail, journaling nothing.
 */
static void test_namespace(void **state)
{
	static const char *const methods[] = {"namespace", "auto", "auto"};

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		char yaml[512], err[1024] = "", ev[16][64];
		struct fx *f = fx_new(true);
		int n;

		if (i == 2)
			f->n.effects = 2;
		snprintf(yaml, sizeof(yaml),
			 "name: v\ndestructive: true\nphases:\n  - variants:\n"
			 "      method: %s\n      fractions: [100%%, 75%%]\n"
			 "      phases:\n        - trim: {range: 0-1048576}\n",
			 methods[i]);
		if (run(f, yaml, err, sizeof(err)))
			fail_msg("%s: %s", methods[i], err);
		assert_true(f->n.exists && f->n.attached);
		assert_int_equal(f->n.nsze, 524288);
		assert_int_equal(f->n.ncap, 524288);
		/* trim-tail: no whole-device discard of its own (the body's purge does that), the
		 * tail past 192 MiB discarded before the second variant */
		assert_int_equal(f->ndiscard, i == 2 ? 3 : 4);
		if (i == 2) {
			if (!strstr(f->notes, "variants (trim-tail): passed by sim: not a virtual "
					      "SSD; namespace: ") ||
			    !strstr(f->notes, "; hpa: not a SATA drive\n"))
				fail_msg("the notes: %s", f->notes);
			assert_int_equal(count_lines(f->jpath), 0);
			assert_int_equal(f->off[1], 192ull << 20);
			assert_int_equal(f->len[1], 64ull << 20);
			fx_free(f);
			continue;
		}
		n = journal_events(f->jpath, ev, 16);
		assert_int_equal(n, 3);
		assert_string_equal(ev[0], "change nvme_namespace ns-1");
		assert_string_equal(ev[1], "done - ns-1");
		assert_string_equal(ev[2], "restored - ns-1");
		/* the creates the controller saw: 393216 blocks, then 524288 */
		{
			uint64_t sz[4];
			int nc = 0;

			for (int k = 0; k < f->n.n && nc < 4; k++)
				if (f->n.log[k].opcode == 0x0d && f->n.log[k].cdw10 == 0)
					sz[nc++] = nvme_le(f->n.log[k].data, 8);
			assert_int_equal(nc, 2);
			assert_int_equal(sz[0], 393216);
			assert_int_equal(sz[1], 524288);
		}
		/* whole device, body, whole device (before the set), body after change + done */
		assert_int_equal(f->len[0], 256ull << 20);
		assert_int_equal(f->len[2], 256ull << 20);
		assert_int_equal(f->lines[2], 0);
		assert_int_equal(f->lines[3], 2);
		assert_int_equal(f->len[3], 1ull << 20);
		/* the target opened again after the create and after the restore: the shrunk
		 * variant's body ran on a handle of 393216 x 512 = 192 MiB, the discard before the
		 * change on the full 256 MiB */
		assert_int_equal(f->reopens, 2);
		assert_int_equal(f->cap[2], 256ull << 20);
		assert_int_equal(f->cap[3], 192ull << 20);
		fx_free(f);
	}
}

/* A reopen that still sees the old size (the kernel missed the rescan): the variant fails
 * with the sizes named, and the namespace and the handle are back at 256 MiB all the same. */
static void test_namespace_stale(void **state)
{
	char err[1024] = "";
	struct fx *f = fx_new(true);

	(void)state;
	f->stale_reopen = true;
	if (!run(f,
		 "name: v\ndestructive: true\nphases:\n  - variants:\n"
		 "      method: namespace\n      fractions: [100%, 75%]\n"
		 "      phases:\n        - trim: {range: 0-1048576}\n",
		 err, sizeof(err)))
		fail_msg("the run should have failed");
	if (!strstr(err, "has 268435456 bytes, not 201326592"))
		fail_msg("the failure: %s", err);
	assert_true(f->n.exists && f->n.attached);
	assert_int_equal(f->n.nsze, 524288);
	assert_int_equal(f->reopens, 2);
	/* the shrunk variant's body never ran: discards of variant 1 (2) and the one before
	 * the change */
	assert_int_equal(f->ndiscard, 3);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hpa_order),
	    cmocka_unit_test(test_hpa_fails),
	    cmocka_unit_test(test_namespace),
	    cmocka_unit_test(test_namespace_stale),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
