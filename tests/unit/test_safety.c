/* SPDX-License-Identifier: MIT */
/*
 * test_safety: the safety gate against a fake machine. Each test builds a sysfs tree and a
 * proc tree in a temp dir (disks, partitions, holders, a dm device whose slave is the root
 * disk's partition, mountinfo, swaps, loop backing files) and replaces the kernel boundary
 * (stat of /dev nodes, the O_EXCL probe, the terminal) with a scripted table, so that md/dm
 * holders and a root disk can be checked on a kernel that has none and without touching a real
 * device. The checks under test (sysfs walking, mountinfo and swaps parsing, confirmation
 * matching) are the real ones.
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

#include "host/safety.h"
#include "testutil.h"

/* A device node of the fake /dev, or "/" with the device it lives on. */
struct node {
	char path[PATH_MAX];
	mode_t type; /* S_IFBLK, S_IFCHR, S_IFDIR */
	unsigned major, minor;
};

struct fake {
	char *root;
	char sys[PATH_MAX], proc[PATH_MAX];
	struct node nodes[48];
	size_t n;
	const char *busy; /* path whose O_EXCL probe answers EBUSY */
	bool tty;
	const char *answer; /* NULL: the prompt gets EOF */
	int asked;
	char prompt[4096];
	struct safety_sys kernel;
};

/* ---- the scripted kernel boundary -------------------------------------------------------- */

static int fake_stat(void *ctx, const char *path, struct stat *st)
{
	struct fake *f = ctx;

	for (size_t i = 0; i < f->n; i++) {
		if (strcmp(f->nodes[i].path, path) != 0)
			continue;
		memset(st, 0, sizeof(*st));
		st->st_mode = f->nodes[i].type | 0660;
		if (f->nodes[i].type == S_IFDIR)
			st->st_dev = makedev(f->nodes[i].major, f->nodes[i].minor);
		else
			st->st_rdev = makedev(f->nodes[i].major, f->nodes[i].minor);
		return 0;
	}
	/* real files of the test (loop backing files, swap files) live in the temp dir */
	if (strncmp(path, f->root, strlen(f->root)) == 0)
		return stat(path, st) ? -errno : 0;
	return -ENOENT;
}

static int fake_probe_excl(void *ctx, const char *path)
{
	struct fake *f = ctx;

	return f->busy && strcmp(path, f->busy) == 0 ? -EBUSY : 0;
}

static bool fake_isatty(void *ctx, int fd)
{
	return ((struct fake *)ctx)->tty;
}

static int fake_ask(void *ctx, const char *prompt, char *answer, size_t len)
{
	struct fake *f = ctx;

	f->asked++;
	snprintf(f->prompt, sizeof(f->prompt), "%s", prompt);
	if (!f->answer)
		return -ECANCELED;
	snprintf(answer, len, "%s", f->answer);
	return 0;
}

/* snprintf that fails the test instead of truncating a path */
static void xfmt(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void xfmt(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < len);
}

/* ---- building the fake trees ------------------------------------------------------------- */

enum mk_kind { MK_FILE, MK_LINK };

/* Creates a file holding `arg` (MK_FILE) or a symlink to `arg` (MK_LINK) at the formatted
 * path, with the directories above it. */
static void mk(enum mk_kind kind, const char *arg, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void mk(enum mk_kind kind, const char *arg, const char *fmt, ...)
{
	char p[PATH_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(p, sizeof(p), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && (size_t)n < sizeof(p));
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	if (kind == MK_FILE)
		assert_int_equal(tu_write_file(p, arg), 0);
	else
		assert_int_equal(symlink(arg, p), 0);
}

static void add_node(struct fake *f, const char *path, mode_t type, unsigned ma, unsigned mi)
{
	assert_true(f->n < sizeof(f->nodes) / sizeof(f->nodes[0]));
	snprintf(f->nodes[f->n].path, sizeof(f->nodes[0].path), "%s", path);
	f->nodes[f->n].type = type;
	f->nodes[f->n].major = ma;
	f->nodes[f->n].minor = mi;
	f->n++;
}

/* A disk (parent NULL) or a partition of `parent`, the way sysfs lays them out: the device
 * directory, /sys/dev/block/M:m, /sys/class/block/NAME, /sys/block/NAME for disks, and a
 * /dev/NAME node in the scripted stat. */
static void add_dev(struct fake *f, const char *name, const char *parent, unsigned ma, unsigned mi)
{
	char dir[PATH_MAX], num[32], devpath[PATH_MAX];

	if (parent)
		xfmt(dir, sizeof(dir), "%s/devices/virtual/block/%s/%s", f->sys, parent, name);
	else
		xfmt(dir, sizeof(dir), "%s/devices/virtual/block/%s", f->sys, name);
	snprintf(num, sizeof(num), "%u:%u", ma, mi);
	mk(MK_FILE, num, "%s/dev", dir);
	mk(MK_FILE, "", "%s/holders/.keep", dir);
	if (parent)
		mk(MK_FILE, "1", "%s/partition", dir);
	else
		mk(MK_FILE, "", "%s/slaves/.keep", dir);
	mk(MK_LINK, dir, "%s/dev/block/%u:%u", f->sys, ma, mi);
	mk(MK_LINK, dir, "%s/class/block/%s", f->sys, name);
	if (!parent)
		mk(MK_LINK, dir, "%s/block/%s", f->sys, name);
	snprintf(devpath, sizeof(devpath), "/dev/%s", name);
	add_node(f, devpath, S_IFBLK, ma, mi);
}

static void sysdir(const struct fake *f, const char *name, char *out, size_t len)
{
	char p[PATH_MAX];

	xfmt(p, sizeof(p), "%s/class/block/%s", f->sys, name);
	assert_non_null(realpath(p, out));
	(void)len;
}

/* `holder` (md0, dm-1) holds `lower`; both exist. */
static void add_holder(struct fake *f, const char *lower, const char *holder)
{
	char ldir[PATH_MAX], hdir[PATH_MAX];

	sysdir(f, lower, ldir, sizeof(ldir));
	sysdir(f, holder, hdir, sizeof(hdir));
	mk(MK_LINK, hdir, "%s/holders/%s", ldir, holder);
	mk(MK_LINK, ldir, "%s/slaves/%s", hdir, lower);
}

/* The fake machine every test starts from:
 *   vda (254:0): vda1, vda2; dm-0 "root" (253:0) on vda2 holds "/"
 *   sdb: sdb1 mounted on "/mnt/my disk", sdb2 free      sdc: swap (whole disk)
 *   sdd: sdd1 held by md0                               sde: free, no partitions
 *   sdf: sdf1 is swap                                   sdg: btrfs (mountinfo 0:45)
 *   sdh: free but someone holds it O_EXCL               sdi: sdi1 held by dm-1 "vg-data"
 *   loop3: loop3p1 mounted on /mnt/x                    loop5: backing file <tmp>/backing.img
 *   loop7: free, no serial; its node is <tmp>/dev-loop7 (a real file, so realpath works)
 *   sdl: mounted on a path with a tab and a backslash (mountinfo escapes them)
 *   <tmp>/swapfile is an active swap file, <tmp>/free.img a plain file. */
static int setup(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));
	char text[8192], p[PATH_MAX];

	assert_non_null(f);
	f->root = tu_mkdtemp("safety");
	assert_non_null(f->root);
	snprintf(f->sys, sizeof(f->sys), "%s/sys", f->root);
	snprintf(f->proc, sizeof(f->proc), "%s/proc", f->root);

	add_dev(f, "vda", NULL, 254, 0);
	add_dev(f, "vda1", "vda", 254, 1);
	add_dev(f, "vda2", "vda", 254, 2);
	add_dev(f, "dm-0", NULL, 253, 0);
	mk(MK_FILE, "root", "%s/devices/virtual/block/dm-0/dm/name", f->sys);
	add_holder(f, "vda2", "dm-0");
	add_node(f, "/dev/mapper/root", S_IFBLK, 253, 0);
	add_node(f, "/", S_IFDIR, 253, 0);

	add_dev(f, "sdb", NULL, 8, 16);
	add_dev(f, "sdb1", "sdb", 8, 17);
	add_dev(f, "sdb2", "sdb", 8, 18);
	add_dev(f, "sdc", NULL, 8, 32);
	add_dev(f, "sdd", NULL, 8, 48);
	add_dev(f, "sdd1", "sdd", 8, 49);
	add_dev(f, "md0", NULL, 9, 0);
	add_holder(f, "sdd1", "md0");
	add_dev(f, "sde", NULL, 8, 64);
	add_dev(f, "sdf", NULL, 8, 80);
	add_dev(f, "sdf1", "sdf", 8, 81);
	add_dev(f, "sdg", NULL, 8, 96);
	add_dev(f, "sdh", NULL, 8, 112);
	add_dev(f, "sdi", NULL, 8, 128);
	add_dev(f, "sdi1", "sdi", 8, 129);
	add_dev(f, "dm-1", NULL, 253, 1);
	mk(MK_FILE, "vg-data", "%s/devices/virtual/block/dm-1/dm/name", f->sys);
	add_holder(f, "sdi1", "dm-1");
	add_dev(f, "sdl", NULL, 8, 176);
	add_dev(f, "loop3", NULL, 7, 3);
	add_dev(f, "loop3p1", "loop3", 259, 0);
	add_dev(f, "loop5", NULL, 7, 5);
	add_dev(f, "loop7", NULL, 7, 7);
	snprintf(p, sizeof(p), "%s/dev-loop7", f->root);
	mk(MK_FILE, "", "%s", p);
	add_node(f, p, S_IFBLK, 7, 7);
	add_node(f, "/dev/sdz", S_IFBLK, 8, 208); /* a node sysfs does not know */
	add_node(f, "/dev/tty0", S_IFCHR, 4, 0);

	mk(MK_FILE, "", "%s/backing.img", f->root);
	mk(MK_FILE, "", "%s/free.img", f->root);
	mk(MK_FILE, "", "%s/swapfile", f->root);
	snprintf(text, sizeof(text), "%s/backing.img\n", f->root);
	mk(MK_FILE, text, "%s/devices/virtual/block/loop5/loop/backing_file", f->sys);

	mk(MK_FILE,
	   "22 27 0:21 / /proc rw,relatime - proc proc rw\n"
	   "27 1 253:0 / / rw,relatime shared:1 - ext4 /dev/mapper/root rw\n"
	   "30 27 254:1 / /boot rw,relatime - vfat /dev/vda1 rw\n"
	   "40 27 8:17 / /mnt/my\\040disk rw,relatime shared:5 master:2 - ext4 /dev/sdb1 rw\n"
	   "41 27 0:45 / /data rw,relatime - btrfs /dev/sdg rw,space_cache=v2\n"
	   "42 27 259:0 / /mnt/x rw - ext4 /dev/loop3p1 rw\n"
	   "44 27 8:176 / /mnt/tab\\011and\\134back rw - ext4 /dev/sdl rw\n"
	   "43 27 0:50 / /net rw - nfs server:/export rw\n",
	   "%s/self/mountinfo", f->proc);
	snprintf(text, sizeof(text),
		 "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
		 "/dev/sdc                                partition\t8388604\t\t0\t\t-2\n"
		 "/dev/sdf1                               partition\t8388604\t\t0\t\t-3\n"
		 "%s/swapfile                             file\t\t1024\t\t0\t\t-4\n",
		 f->root);
	mk(MK_FILE, text, "%s/swaps", f->proc);

	f->kernel = (struct safety_sys){.ctx = f,
					.stat = fake_stat,
					.probe_excl = fake_probe_excl,
					.isatty = fake_isatty,
					.ask = fake_ask};
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fake *f = *state;

	tu_rmtree(f->root);
	free(f->root);
	free(f);
	return 0;
}

static struct safety_opts opts(struct fake *f)
{
	return (struct safety_opts){.sysfs_root = f->sys, .proc_root = f->proc, .sys = &f->kernel};
}

/* ---- in use ----------------------------------------------------------------------------- */

struct in_use_case {
	const char *path; /* "@name" = <tmp>/name */
	bool probe_excl;
	int rc;
	const char *reason; /* substring; "@" is replaced by the temp dir */
};

static const struct in_use_case in_use_cases[] = {
    {"/dev/vda", false, -EPERM,
     "/dev/vda2 holds the root filesystem (/ is on /dev/dm-0); /dev/vda2 is a partition of /dev/vda"},
    /* vda1 is free: the refusal names vda2, which holds "/", not the disk */
    {"/dev/vda1", false, -EPERM,
     "/dev/vda2 holds the root filesystem (/ is on /dev/dm-0); /dev/vda1 is on the same disk, /dev/vda"},
    {"/dev/mapper/root", false, -EPERM, "/dev/dm-0 holds the root filesystem"},
    {"/dev/sdb", false, -EPERM, "/dev/sdb1 is mounted on /mnt/my disk; /dev/sdb1 is a partition of /dev/sdb"},
    {"/dev/sdb2", false, -EPERM, "/dev/sdb1 is mounted on /mnt/my disk; /dev/sdb2 is on the same disk, /dev/sdb"},
    {"/dev/sdc", false, -EPERM, "/dev/sdc is used as swap"},
    {"/dev/sdf", false, -EPERM, "/dev/sdf1 is used as swap"},
    {"/dev/sdd", false, -EPERM, "/dev/sdd1 is held by md0"},
    {"/dev/sdd1", false, -EPERM, "/dev/sdd1 is held by md0"},
    {"/dev/sdi", false, -EPERM, "/dev/sdi1 is held by dm-1 (vg-data)"},
    {"/dev/sdg", false, -EPERM, "/dev/sdg is mounted on /data"},
    {"/dev/loop3", false, -EPERM, "/dev/loop3p1 is mounted on /mnt/x"},
    {"/dev/sdl", false, -EPERM, "/dev/sdl is mounted on /mnt/tab\tand\\back"},
    {"/dev/sde", false, 0, ""},
    {"/dev/sde", true, 0, ""},
    {"/dev/sdh", false, 0, ""},
    {"/dev/sdh", true, -EPERM, "/dev/sdh is in use: another program holds it open exclusively"},
    {"/dev/nothere", false, -ENOENT, "cannot stat /dev/nothere"},
    {"/dev/sdz", false, -ENODEV, "cannot find /dev/sdz (8:208)"},
    {"/dev/tty0", false, -EPERM, "/dev/tty0 is neither a block device nor a regular file"},
    {"@backing.img", false, -EPERM, "@/backing.img is the backing file of /dev/loop5"},
    {"@swapfile", false, -EPERM, "@/swapfile is used as swap"},
    {"@free.img", true, 0, ""},
};

/* Replaces a leading '@' by the temp dir. */
static void expand(const struct fake *f, const char *s, char *out, size_t len)
{
	if (s[0] == '@')
		snprintf(out, len, "%s/%s", f->root, s + 1);
	else
		snprintf(out, len, "%s", s);
}

static void test_in_use_table(void **state)
{
	struct fake *f = *state;

	for (size_t i = 0; i < sizeof(in_use_cases) / sizeof(in_use_cases[0]); i++) {
		const struct in_use_case *c = &in_use_cases[i];
		struct safety_opts o = opts(f);
		char path[PATH_MAX], want[PATH_MAX], reason[1024];
		int rc;

		f->busy = "/dev/sdh";
		o.probe_excl = c->probe_excl;
		expand(f, c->path, path, sizeof(path));
		expand(f, c->reason, want, sizeof(want));
		if (c->reason[0] == '@') /* "@/x" expanded to "<tmp>//x" */
			snprintf(want, sizeof(want), "%s%s", f->root, c->reason + 1);
		memset(reason, 'x', sizeof(reason));
		rc = safety_check_in_use(path, &o, reason, sizeof(reason));
		print_message("%-24s -> %d %s\n", c->path, rc, reason);
		assert_int_equal(rc, c->rc);
		if (c->reason[0])
			assert_non_null(strstr(reason, want));
		else
			assert_string_equal(reason, "");
	}
}

/* Root directly on a whole disk (like this VM: ext4 on /dev/vda), found by the mount source
 * alone when mountinfo's number is anonymous and "/" cannot be stat'ed. */
static void test_root_on_whole_disk(void **state)
{
	struct fake *f = *state;
	struct safety_opts o = opts(f);
	char reason[512];

	for (size_t i = 0; i < f->n; i++) /* hide "/" from the stat seam */
		if (strcmp(f->nodes[i].path, "/") == 0)
			f->nodes[i].path[0] = '\0';
	mk(MK_FILE, "27 1 0:33 / / rw - btrfs /dev/sde rw\n", "%s/self/mountinfo", f->proc);
	assert_int_equal(safety_check_in_use("/dev/sde", &o, reason, sizeof(reason)), -EPERM);
	assert_string_equal(reason, "/dev/sde holds the root filesystem");
	/* dm-0 no longer holds "/", but it still holds vda2 */
	assert_int_equal(safety_check_in_use("/dev/vda", &o, reason, sizeof(reason)), -EPERM);
	assert_string_equal(reason, "/dev/vda2 is held by dm-0 (root); /dev/vda2 is a partition of /dev/vda");
}

/* Root on dm-2 over md1 over (sdj1, sdk): both physical disks hold the root filesystem, found
 * through two levels of slaves/; sde, next to them, stays free. */
static void test_root_through_stack(void **state)
{
	static const struct {
		const char *path, *reason;
	} cases[] = {
	    {"/dev/sdj", "/dev/sdj1 holds the root filesystem (/ is on /dev/dm-2); /dev/sdj1 is a "
			 "partition of /dev/sdj"},
	    {"/dev/sdj1", "/dev/sdj1 holds the root filesystem (/ is on /dev/dm-2)"},
	    {"/dev/sdk", "/dev/sdk holds the root filesystem (/ is on /dev/dm-2)"},
	    {"/dev/md1", "/dev/md1 holds the root filesystem (/ is on /dev/dm-2)"},
	    {"/dev/sde", ""},
	};
	struct fake *f = *state;
	struct safety_opts o = opts(f);
	char reason[512];

	add_dev(f, "sdj", NULL, 8, 144);
	add_dev(f, "sdj1", "sdj", 8, 145);
	add_dev(f, "sdk", NULL, 8, 160);
	add_dev(f, "md1", NULL, 9, 1);
	add_dev(f, "dm-2", NULL, 253, 2);
	add_holder(f, "sdj1", "md1");
	add_holder(f, "sdk", "md1");
	add_holder(f, "md1", "dm-2");
	for (size_t i = 0; i < f->n; i++) /* "/" is now known from mountinfo only */
		if (strcmp(f->nodes[i].path, "/") == 0)
			f->nodes[i].path[0] = '\0';
	mk(MK_FILE, "27 1 253:2 / / rw - xfs /dev/dm-2 rw\n", "%s/self/mountinfo", f->proc);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int rc = safety_check_in_use(cases[i].path, &o, reason, sizeof(reason));

		print_message("%-10s -> %d %s\n", cases[i].path, rc, reason);
		assert_int_equal(rc, cases[i].reason[0] ? -EPERM : 0);
		assert_string_equal(reason, cases[i].reason);
	}
}

/* Without the proc tree nothing can be checked: refuse, saying why. */
static void test_unreadable_proc_refuses(void **state)
{
	struct fake *f = *state;
	struct safety_opts o = opts(f);
	char reason[512], empty[PATH_MAX];

	snprintf(empty, sizeof(empty), "%s/noproc", f->root);
	o.proc_root = empty;
	assert_int_equal(safety_check_in_use("/dev/sde", &o, reason, sizeof(reason)), -ENOENT);
	assert_non_null(strstr(reason, "cannot read"));
	assert_non_null(strstr(reason, "noproc/self/mountinfo"));
}

/* ---- confirmation ------------------------------------------------------------------------- */

#define SERIAL "S3Z1NB0K123456"
#define WWN "naa.5000c500a1b2c3d4"
/* Longer than the 63 characters the WWN field once held (issue 9, point 4): an NVMe namespace
 * without EUI/NGUID (140 characters) and a SATA disk's t10 form (67); and their first 63. */
#define WWN_NVME                                                                                 \
	"nvme.144d-533445574e583052313233343536414243444546-53414d53554e47204d5a564c4231543048424c522d3" \
	"030304c3720504d39383161204e564d652031-00000001"
#define WWN_NVME_63 "nvme.144d-533445574e583052313233343536414243444546-53414d53554e"
#define WWN_T10 "t10.ATA     Samsung SSD 870 EVO 1TB                 S5Y1NX0R123456K"
#define WWN_T10_63 "t10.ATA     Samsung SSD 870 EVO 1TB                 S5Y1NX0R123"

struct confirm_case {
	const char *name;
	const char *kind, *path, *serial, *wwn;
	bool created;
	const char *yes; /* "@x" = <tmp>/x */
	bool allow_prompt, tty;
	const char *answer;
	int rc;
	const char *reason; /* substring; "@x" = <tmp>/x at its start */
	int asked;
};

static const struct confirm_case confirm_cases[] = {
    {"sim", "sim", "sim:client-tlc", "", "", false, NULL, false, false, NULL, 0, "", 0},
    {"created file", "file", "@new.img", "", "", true, NULL, false, false, NULL, 0, "", 0},
    {"serial", "blockdev", "/dev/sde", "  " SERIAL "  ", "", false, SERIAL, false, false, NULL, 0,
     "", 0},
    {"serial trimmed", "blockdev", "/dev/sde", SERIAL, "", false, " " SERIAL "\n", false, false,
     NULL, 0, "", 0},
    {"serial case", "blockdev", "/dev/sde", SERIAL, "", false, "s3z1nb0k123456", false, false, NULL,
     -EPERM, "the serial of /dev/sde is " SERIAL "; pass --yes-destroy=" SERIAL " (got", 0},
    {"wrong serial", "blockdev", "/dev/sde", SERIAL, WWN, false, "S3Z1NB0K000000", false, false,
     NULL, -EPERM, "pass --yes-destroy=" SERIAL, 0},
    {"empty value", "blockdev", "/dev/sde", SERIAL, "", false, "", false, false, NULL, -EPERM,
     "pass --yes-destroy=" SERIAL, 0},
    {"WWN", "blockdev", "/dev/sde", SERIAL, WWN, false, WWN, false, false, NULL, 0, "", 0},
    {"WWN 0x upper", "blockdev", "/dev/sde", SERIAL, WWN, false, "0x5000C500A1B2C3D4", false, false,
     NULL, 0, "", 0},
    {"WWN only, wrong", "blockdev", "/dev/sde", "", WWN, false, "naa.5000c500a1b2c3d5", false,
     false, NULL, -EPERM, "the WWN of /dev/sde is " WWN, 0},
    {"path when serial", "blockdev", "/dev/sde", SERIAL, "", false, "/dev/sde", false, false, NULL,
     -EPERM, "pass --yes-destroy=" SERIAL, 0},
    {"path fallback", "blockdev", "@dev-loop7", "", "", false, "@dev-loop7", false, false, NULL, 0,
     "", 0},
    {"path via symlink", "blockdev", "@dev-loop7", "", "", false, "@link-loop7", false, false, NULL,
     0, "", 0},
    {"path wrong", "blockdev", "@dev-loop7", "", "", false, "@free.img", false, false, NULL, -EPERM,
     "reports no serial or WWN and is confirmed by its path: pass --yes-destroy=@", 0},
    {"file path", "file", "@free.img", "", "", false, "@free.img", false, false, NULL, 0, "", 0},
    {"file ignores serial", "file", "@free.img", "XYZ", "", false, "XYZ", false, false, NULL,
     -EPERM, "is confirmed by its path: pass --yes-destroy=@", 0},
    {"file in use", "file", "@backing.img", "", "", false, "@backing.img", false, false, NULL,
     -EPERM, "is the backing file of /dev/loop5", 0},
    {"in use before confirm", "blockdev", "/dev/sdb", SERIAL, "", false, SERIAL, true, true, SERIAL,
     -EPERM, "/dev/sdb1 is mounted on /mnt/my disk", 0},
    {"no value, no terminal", "blockdev", "/dev/sde", SERIAL, "", false, NULL, true, false, NULL,
     -EPERM,
     "write on /dev/sde destroys its data and needs confirmation: pass "
     "--yes-destroy=" SERIAL " (its serial; Acme 1, serial " SERIAL,
     0},
    {"no value, prompt off", "blockdev", "/dev/sde", SERIAL, "", false, NULL, false, true, NULL,
     -EPERM, "pass --yes-destroy=" SERIAL, 0},
    {"prompt answered", "blockdev", "/dev/sde", SERIAL, WWN, false, NULL, true, true, SERIAL "\n",
     0, "", 1},
    {"prompt WWN", "blockdev", "/dev/sde", SERIAL, WWN, false, NULL, true, true, WWN "\n", 0, "",
     1},
    {"prompt wrong", "blockdev", "/dev/sde", SERIAL, "", false, NULL, true, true, "yes\n", -EPERM,
     "the answer did not match the serial of /dev/sde", 1},
    {"prompt EOF", "blockdev", "/dev/sde", SERIAL, "", false, NULL, true, true, NULL, -EPERM,
     "no answer to the confirmation prompt", 1},
    {"prompt path", "blockdev", "@dev-loop7", "", "", false, NULL, true, true, "@link-loop7", 0, "",
     1},
    {"long WWN", "blockdev", "/dev/sde", "", WWN_NVME, false, WWN_NVME, false, false, NULL, 0, "",
     0},
    {"long WWN cut", "blockdev", "/dev/sde", "", WWN_NVME, false, WWN_NVME_63, false, false, NULL,
     -EPERM, "the WWN of /dev/sde is " WWN_NVME "; pass --yes-destroy=" WWN_NVME, 0},
    {"t10 WWN", "blockdev", "/dev/sde", SERIAL, WWN_T10, false, WWN_T10, false, false, NULL, 0, "",
     0},
    {"t10 WWN cut", "blockdev", "/dev/sde", SERIAL, WWN_T10, false, WWN_T10_63, false, false, NULL,
     -EPERM, "pass --yes-destroy=" SERIAL, 0},
    {"prompt long WWN", "blockdev", "/dev/sde", "", WWN_NVME, false, NULL, true, true,
     WWN_NVME "\n", 0, "", 1},
    {"prompt long WWN cut", "blockdev", "/dev/sde", "", WWN_NVME, false, NULL, true, true,
     WWN_NVME_63 "\n", -EPERM, "the answer did not match the WWN of /dev/sde (" WWN_NVME ")", 1},
    {"unknown kind", "tape", "/dev/st0", "", "", false, "x", false, false, NULL, -EINVAL,
     "unknown target kind", 0},
};

/* The kinds of the table by name; an unknown name is a kind the gate does not know. */
static enum safety_kind kind_of(const char *name)
{
	if (!strcmp(name, "blockdev"))
		return SAFETY_BLOCKDEV;
	if (!strcmp(name, "file"))
		return SAFETY_FILE;
	if (!strcmp(name, "sim"))
		return SAFETY_VIRTUAL;
	return (enum safety_kind)99;
}

static void test_confirm_table(void **state)
{
	struct fake *f = *state;
	char link[PATH_MAX], target[PATH_MAX];

	snprintf(link, sizeof(link), "%s/link-loop7", f->root);
	snprintf(target, sizeof(target), "%s/dev-loop7", f->root);
	assert_int_equal(symlink(target, link), 0);

	for (size_t i = 0; i < sizeof(confirm_cases) / sizeof(confirm_cases[0]); i++) {
		const struct confirm_case *c = &confirm_cases[i];
		struct safety_opts o = opts(f);
		struct safety_target ti = {0};
		char yes[PATH_MAX], answer[PATH_MAX], want[PATH_MAX + 256], reason[1024];
		char path[PATH_MAX];
		int rc;

		ti.kind = kind_of(c->kind);
		expand(f, c->path, path, sizeof(path));
		ti.path = path;
		ti.serial = c->serial;
		ti.wwn = c->wwn;
		ti.model = "Acme 1";
		ti.capacity = 500107862016ull;
		ti.created_by_ssdlab = c->created;
		if (c->yes) {
			expand(f, c->yes, yes, sizeof(yes));
			o.yes_destroy = yes;
		}
		if (c->answer) {
			expand(f, c->answer, answer, sizeof(answer));
			f->answer = answer;
		} else {
			f->answer = NULL;
		}
		o.allow_prompt = c->allow_prompt;
		f->tty = c->tty;
		f->asked = 0;
		f->prompt[0] = '\0';
		/* "...=@" in an expected reason stands for the canonical temp dir */
		snprintf(want, sizeof(want), "%s", c->reason);
		if (strchr(c->reason, '@')) {
			char canon[PATH_MAX];

			assert_non_null(realpath(f->root, canon));
			*strchr(want, '@') = '\0';
			strncat(want, canon, sizeof(want) - strlen(want) - 1);
		}

		rc = safety_confirm_destructive(&ti, "write", &o, reason, sizeof(reason));
		print_message("%-24s -> %d %s\n", c->name, rc, reason);
		assert_int_equal(rc, c->rc);
		assert_int_equal(f->asked, c->asked);
		if (c->reason[0])
			assert_non_null(strstr(reason, want));
		else
			assert_string_equal(reason, "");
	}
}

/* The prompt shows model, serial, WWN and size, and asks for the serial. */
static void test_prompt_text(void **state)
{
	struct fake *f = *state;
	struct safety_opts o = opts(f);
	struct safety_target ti = {.kind = SAFETY_BLOCKDEV,
				   .path = "/dev/sde",
				   .model = "Samsung SSD 860 EVO 500GB",
				   .serial = SERIAL,
				   .wwn = WWN};
	char reason[512];

	ti.capacity = 500107862016ull;
	o.allow_prompt = true;
	f->tty = true;
	f->answer = "nope";
	assert_int_equal(safety_confirm_destructive(&ti, "purge", &o, reason, sizeof(reason)),
			 -EPERM);
	assert_non_null(strstr(f->prompt, "purge on /dev/sde destroys the data on it"));
	assert_non_null(strstr(f->prompt, "Samsung SSD 860 EVO 500GB"));
	assert_non_null(strstr(f->prompt, "serial  " SERIAL));
	assert_non_null(strstr(f->prompt, "WWN     " WWN));
	assert_non_null(strstr(f->prompt, "500107862016 bytes"));
	assert_non_null(strstr(f->prompt, "Type its serial (" SERIAL ")"));
}

/*
 * An NVMe namespace: the prompt names its controller and subsystem, and an action that reaches
 * the whole subsystem (a sanitize) is refused while another namespace of it is in use.
 */
static void test_nvme_subsystem(void **state)
{
	struct fake *f = *state;
	struct safety_opts o = opts(f);
	struct devinfo_nvme nv = {.ns = "nvme0n1",
				  .nsid = 1,
				  .controller = "nvme0",
				  .subsystem = "nvme-subsys0",
				  /* nvme0n3 has no node here: it holds nothing of ours */
				  .subsystem_ns = "nvme0n1 nvme0n2 nvme0n3"};
	struct safety_target ti = {.kind = SAFETY_BLOCKDEV,
				   .path = "/dev/nvme0n1",
				   .model = "Samsung SSD 980 PRO 1TB",
				   .serial = SERIAL,
				   .wwn = "",
				   .capacity = 1000204886016ull,
				   .nvme = &nv};
	char reason[1024];

	add_dev(f, "nvme0n1", NULL, 259, 100);
	add_dev(f, "nvme0n2", NULL, 259, 101);
	add_dev(f, "md9", NULL, 9, 99);
	add_holder(f, "nvme0n2", "md9");

	/* a write reaches only the namespace named, which is free */
	o.yes_destroy = SERIAL;
	assert_int_equal(safety_confirm_destructive(&ti, "write", &o, reason, sizeof(reason)), 0);
	/* a sanitize reaches nvme0n2 too, which md9 holds */
	o.whole_subsystem = true;
	assert_int_equal(safety_confirm_destructive(&ti, "sanitize", &o, reason, sizeof(reason)),
			 -EPERM);
	print_message("%s\n", reason);
	assert_non_null(strstr(reason, "sanitize on /dev/nvme0n1 reaches all of NVMe subsystem "
				       "nvme-subsys0"));
	assert_non_null(strstr(reason, "md9"));
	/* the reach check alone, as a purge's format or sanitize runs it later in a run */
	o.whole_subsystem = false;
	assert_int_equal(safety_check_reach(&ti, "an NVMe format", &o, reason, sizeof(reason)),
			 -EPERM);
	assert_non_null(strstr(reason,
			       "an NVMe format on /dev/nvme0n1 reaches all of NVMe subsystem "
			       "nvme-subsys0"));
	assert_non_null(strstr(reason, "md9"));
	o.whole_subsystem = true;
	/* without the holder the whole subsystem is free */
	nv.subsystem_ns[strlen("nvme0n1")] = 0;
	assert_int_equal(safety_confirm_destructive(&ti, "sanitize", &o, reason, sizeof(reason)), 0);
	assert_int_equal(safety_check_reach(&ti, "an NVMe format", &o, reason, sizeof(reason)), 0);

	/* the prompt shows where the namespace sits */
	o.yes_destroy = NULL;
	o.allow_prompt = true;
	f->tty = true;
	f->answer = "nope";
	assert_int_equal(safety_confirm_destructive(&ti, "format", &o, reason, sizeof(reason)),
			 -EPERM);
	assert_non_null(strstr(f->prompt, "NVMe    namespace nvme0n1 (nsid 1), controller nvme0, "
					  "subsystem nvme-subsys0"));
}

/* The real machine, read only: the disk holding "/" must be refused with that reason. */
static void test_real_root_refused(void **state)
{
	char sysp[PATH_MAX], dir[PATH_MAX], dev[PATH_MAX], reason[1024];
	struct safety_opts o = {0};
	struct stat st;
	const char *name;

	(void)state;
	assert_int_equal(stat("/", &st), 0);
	xfmt(sysp, sizeof(sysp), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	if (!realpath(sysp, dir)) {
		print_message("root is not on a block device here (%s); nothing to check\n", sysp);
		skip();
	}
	name = strrchr(dir, '/') + 1;
	xfmt(dev, sizeof(dev), "/dev/%s", name);
	if (stat(dev, &st) || !S_ISBLK(st.st_mode)) {
		print_message("no device node %s here; nothing to check\n", dev);
		skip();
	}
	assert_int_equal(safety_check_in_use(dev, &o, reason, sizeof(reason)), -EPERM);
	print_message("%s -> %s\n", dev, reason);
	assert_non_null(strstr(reason, "holds the root filesystem"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_in_use_table, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_root_on_whole_disk, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_root_through_stack, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_unreadable_proc_refuses, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_confirm_table, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_prompt_text, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_nvme_subsystem, setup, teardown),
	    cmocka_unit_test(test_real_root_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
