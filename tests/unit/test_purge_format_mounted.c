// SPDX-License-Identifier: MIT
/*
 * test_purge_format_mounted (issue 13 point 5): the safety gate refuses a purge's FORMAT of
 * nvme0n1 while nvme0n2, another namespace of the same controller, is MOUNTED, when the
 * controller's FNA bit 0 says a format reaches every namespace. The whole path with nothing
 * stubbed between them: the purge chain (targets/purge_chain.h) over a scripted controller
 * (nvme_script.h), its reach check purge_reach_subsystem() (the one target_uring.c passes), the
 * in-use checks of host/safety.h over a fake sysfs and /proc (nvme0n2 = 259:101 in mountinfo,
 * mounted on /mnt/data). QEMU cannot show this (its FNA is 0: the format is per namespace), so
 * the QEMU test checks the sanitize with a mounted nvme0n2 instead.
 * Expected from NVMe Base Specification 2.0: Identify Controller FNA byte 524 (bit 0: a format
 * applies to all namespaces); Format NVM (0x80) with user-data erase of LBA format 1: cdw10
 * 1 | (1 << 9) = 0x201, to nsid 0xffffffff when it reaches all namespaces, else to nsid 1.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "host/devinfo.h"
#include "host/safety.h"
#include "nvme_script.h"
#include "targets/purge_chain.h"
#include "testutil.h"

enum { R_CTRL, R_NS, R_FORMAT, R_N };

struct fx {
	char *root;
	char sys[1024], proc[1024]; /* short, so every path under them fits PATH_MAX */
	uint8_t ctrl[NVME_IDENTIFY_LEN], ns[NVME_IDENTIFY_LEN];
	struct nvme_script_row rows[R_N];
	struct nvme_script s;
	struct ioctl_ops ops;
	struct safety_sys kernel;
	struct devinfo_nvme nv;
	struct purge_drive d;
	int reach_calls;
};

/* The fake /dev: nvme0n1 259:100, nvme0n2 259:101; "/" on 253:0. */
static int fake_stat(void *ctx, const char *path, struct stat *st)
{
	(void)ctx;
	memset(st, 0, sizeof *st);
	if (!strcmp(path, "/")) {
		st->st_mode = S_IFDIR | 0755;
		st->st_dev = makedev(253, 0);
		return 0;
	}
	if (strcmp(path, "/dev/nvme0n1") && strcmp(path, "/dev/nvme0n2"))
		return -ENOENT;
	st->st_mode = S_IFBLK | 0660;
	st->st_rdev = makedev(259, path[strlen(path) - 1] == '1' ? 100 : 101);
	return 0;
}

static int fake_probe_excl(void *ctx, const char *path)
{
	(void)ctx;
	(void)path;
	return 0; /* nobody holds them open exclusively: the mount is what must be seen */
}

static void put(struct fx *f, const char *rel, const char *text)
{
	char p[PATH_MAX];

	snprintf(p, sizeof p, "%s/%s", f->root, rel);
	for (char *s = p + strlen(f->root) + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		mkdir(p, 0755);
		*s = '/';
	}
	assert_int_equal(tu_write_file(p, text), 0);
}

static void dev(struct fx *f, const char *name, const char *num)
{
	char rel[256], target[PATH_MAX], link[PATH_MAX];

	snprintf(rel, sizeof rel, "sys/devices/virtual/block/%s/dev", name);
	put(f, rel, num);
	snprintf(rel, sizeof rel, "sys/devices/virtual/block/%s/holders/.keep", name);
	put(f, rel, "");
	snprintf(rel, sizeof rel, "sys/devices/virtual/block/%s/slaves/.keep", name);
	put(f, rel, "");
	snprintf(target, sizeof target, "%s/devices/virtual/block/%s", f->sys, name);
	mkdir(f->sys, 0755);
	snprintf(link, sizeof link, "%s/block", f->sys);
	mkdir(link, 0755);
	snprintf(link, sizeof link, "%s/block/%s", f->sys, name);
	assert_int_equal(symlink(target, link), 0);
	snprintf(link, sizeof link, "%s/class", f->sys);
	mkdir(link, 0755);
	snprintf(link, sizeof link, "%s/class/block", f->sys);
	mkdir(link, 0755);
	snprintf(link, sizeof link, "%s/class/block/%s", f->sys, name);
	assert_int_equal(symlink(target, link), 0);
	snprintf(link, sizeof link, "%s/dev", f->sys);
	mkdir(link, 0755);
	snprintf(link, sizeof link, "%s/dev/block", f->sys);
	mkdir(link, 0755);
	snprintf(link, sizeof link, "%s/dev/block/%s", f->sys, num);
	assert_int_equal(symlink(target, link), 0);
}

static void mountinfo(struct fx *f, bool nvme0n2_mounted)
{
	char text[512];

	snprintf(text, sizeof text,
		 "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
		 "27 1 253:0 / / rw,relatime shared:1 - ext4 /dev/mapper/root rw\n%s",
		 nvme0n2_mounted ? "45 27 259:101 / /mnt/data rw,relatime - ext2 /dev/nvme0n2 rw\n"
				 : "");
	put(f, "proc/self/mountinfo", text);
}

static int reach_ok(void *ctx, const char *what, char *reason, size_t len)
{
	struct fx *f = ctx;
	struct safety_opts o = {.sysfs_root = f->sys, .proc_root = f->proc, .sys = &f->kernel};

	f->reach_calls++;
	return purge_reach_subsystem(&f->nv, &o, what, reason, len);
}

static struct fx *fx_new(uint8_t fna)
{
	struct fx *f = calloc(1, sizeof *f);

	assert_non_null(f);
	f->root = tu_mkdtemp("fmtreach");
	assert_non_null(f->root);
	snprintf(f->sys, sizeof f->sys, "%s/sys", f->root);
	snprintf(f->proc, sizeof f->proc, "%s/proc", f->root);
	dev(f, "nvme0n1", "259:100");
	dev(f, "nvme0n2", "259:101");
	put(f, "proc/swaps", "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n");
	mountinfo(f, true);
	f->kernel = (struct safety_sys){.ctx = f, .stat = fake_stat, .probe_excl = fake_probe_excl};
	f->nv = (struct devinfo_nvme){.ns = "nvme0n1",
				      .nsid = 1,
				      .controller = "nvme0",
				      .subsystem = "nvme-subsys0",
				      .subsystem_ns = "nvme0n1 nvme0n2"};
	nvme_script_build_ctrl(f->ctrl);
	nvme_put_le(f->ctrl + 256, 0x0002, 2); /* OACS: Format NVM only */
	f->ctrl[524] = fna;
	nvme_put_le(f->ctrl + 328, 0, 4); /* no sanitize */
	nvme_script_build_ns(f->ns);
	f->rows[R_CTRL] =
	    (struct nvme_script_row){.opcode = 0x06, .cdw10 = 1, .data = f->ctrl, .len = 4096};
	f->rows[R_NS] =
	    (struct nvme_script_row){.opcode = 0x06, .cdw10 = 0, .data = f->ns, .len = 4096};
	f->rows[R_FORMAT] = (struct nvme_script_row){.opcode = 0x80, .cdw10 = 0x201};
	f->s = (struct nvme_script){.rows = f->rows, .n = R_N};
	f->ops = nvme_script_ops(&f->s);
	f->d = (struct purge_drive){.ops = &f->ops,
				    .fd = 3,
				    .transport = PURGE_NVME,
				    .nsid = 1,
				    .reach_ok = reach_ok,
				    .ctx = f};
	return f;
}

static void fx_free(struct fx *f)
{
	tu_rmtree(f->root);
	free(f->root);
	free(f);
}

/* FNA bit 0: the format reaches nvme0n2, which is mounted: refused, no Format NVM sent. */
static void test_format_all_refused_mounted(void **state)
{
	struct fx *f = fx_new(0x01);
	struct purge_outcome o;
	char err[1024] = "";

	(void)state;
	assert_int_equal(purge_chain_run(&f->d, "nvme-format", &o, err, sizeof err), -EPERM);
	print_message("%s\n", err);
	assert_int_equal(f->reach_calls, 1);
	assert_non_null(strstr(err, "an NVMe format (FNA: it reaches every namespace) on "
				    "/dev/nvme0n1 reaches all of NVMe subsystem nvme-subsys0"));
	assert_non_null(strstr(err, "/dev/nvme0n2"));
	assert_non_null(strstr(err, "mounted on /mnt/data"));
	assert_int_equal(f->rows[R_FORMAT].calls, 0);
	assert_int_equal(f->s.unmatched, 0);

	/* unmounted, the same format goes out, to every namespace */
	mountinfo(f, false);
	assert_int_equal(purge_chain_run(&f->d, "nvme-format", &o, err, sizeof err), 0);
	assert_true(o.all_namespaces);
	assert_int_equal(f->rows[R_FORMAT].calls, 1);
	assert_int_equal(f->rows[R_FORMAT].seen.nsid, 0xffffffffu);
	assert_int_equal(f->rows[R_FORMAT].seen.cdw10, 0x201);
	fx_free(f);
}

/* FNA 0 (QEMU's): the format is per namespace, nvme0n2 is not reached and the mount is no
 * reason to refuse: sent to nsid 1 without a reach check. */
static void test_format_per_namespace_mounted(void **state)
{
	struct fx *f = fx_new(0x00);
	struct purge_outcome o;
	char err[1024] = "";

	(void)state;
	assert_int_equal(purge_chain_run(&f->d, "nvme-format", &o, err, sizeof err), 0);
	assert_false(o.all_namespaces);
	assert_int_equal(f->reach_calls, 0);
	assert_int_equal(f->rows[R_FORMAT].calls, 1);
	assert_int_equal(f->rows[R_FORMAT].seen.nsid, 1);
	fx_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_format_all_refused_mounted),
	    cmocka_unit_test(test_format_per_namespace_mounted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
