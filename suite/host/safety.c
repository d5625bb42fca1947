/* SPDX-License-Identifier: MIT */
/*
 * safety: decides whether a destructive action may touch a target (see safety.h for the rules).
 *
 * Everything is read from the kernel's own bookkeeping, never from device names: a block device
 * is identified by its major:minor (stat of the node), found in sysfs through /sys/dev/block/M:m,
 * and compared with mountinfo, /proc/swaps and the root filesystem by number. Names only appear
 * in the messages. The sysfs and proc roots, stat(2), the O_EXCL probe and the terminal are
 * parameters (struct safety_opts, struct safety_sys) so that the unit tests can stand up a fake
 * machine with md/dm holders this kernel does not have.
 */
#include "host/safety.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/errmsg.h"
#include "base/units.h"
#include "host/sysfs.h"

/* How deep dm-on-md-on-dm stacks are followed down to the physical disks. */
#define SLAVE_DEPTH_MAX 8

struct ctx {
	const char *sysfs;
	const char *proc;
	const struct safety_sys *sys;
	char *reason;
	size_t len;
};

/* A block device as sysfs knows it. */
struct bdev {
	unsigned major, minor;
	char name[NAME_MAX + 1]; /* kernel name: sdb, sdb1, nvme0n1p2, dm-0 */
	char dir[PATH_MAX];	 /* canonical sysfs directory */
};

struct devset {
	struct bdev *v;
	size_t n, cap;
};

/* A refusal: its reason in the caller's buffer, rc returned. */
#define fail(c, rc, ...) errmsg_set((c)->reason, (c)->len, rc, __VA_ARGS__)

/* Formats a path; -ENAMETOOLONG instead of a silently truncated one. */
static int pathf(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int pathf(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* ---- the kernel boundary --------------------------------------------------------------- */

static int k_stat(struct ctx *c, const char *path, struct stat *st)
{
	if (c->sys && c->sys->stat)
		return c->sys->stat(c->sys->ctx, path, st);
	return stat(path, st) ? -errno : 0;
}

static int k_probe_excl(struct ctx *c, const char *path)
{
	int fd;

	if (c->sys && c->sys->probe_excl)
		return c->sys->probe_excl(c->sys->ctx, path);
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static bool k_isatty(struct ctx *c, int fd)
{
	if (c->sys && c->sys->isatty)
		return c->sys->isatty(c->sys->ctx, fd);
	return isatty(fd) == 1;
}

static int k_ask(struct ctx *c, const char *prompt, char *answer, size_t len)
{
	FILE *in;
	int rc = 0;

	if (c->sys && c->sys->ask)
		return c->sys->ask(c->sys->ctx, prompt, answer, len);
	fputs(prompt, stderr);
	fflush(stderr);
	/* the controlling terminal, so that a pipe into stdin cannot answer for the user */
	in = fopen("/dev/tty", "re");
	if (!in)
		return -errno;
	if (!fgets(answer, (int)(len > INT_MAX ? INT_MAX : len), in))
		rc = ferror(in) ? -EIO : -ECANCELED;
	fclose(in);
	return rc;
}

/* ---- small helpers --------------------------------------------------------------------- */

/* A small sysfs/proc attribute at path, trimmed: 0 or -errno (-EOVERFLOW when it does not fit:
 * a cut device number or backing-file path must not be compared). */
static int read_attr(const char *path, char *buf, size_t len)
{
	ssize_t n = sysfs_read(NULL, path, buf, len);

	return n < 0 ? (int)n : 0;
}

static bool exists(const char *dir, const char *leaf)
{
	char p[PATH_MAX];

	if (pathf(p, sizeof(p), "%s/%s", dir, leaf))
		return false;
	return access(p, F_OK) == 0;
}

/* Copies s without leading and trailing whitespace; false when it does not fit. */
static bool trim_copy(const char *s, char *out, size_t len)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= len)
		return false;
	memcpy(out, s, n);
	out[n] = '\0';
	return true;
}

/* Undoes the octal escapes (\040 space, \011 tab, \012 newline, \134 backslash) of
 * /proc/self/mountinfo and /proc/swaps, in place. */
static void unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* ---- sysfs block devices --------------------------------------------------------------- */

static int bdev_from_dir(const char *dir, struct bdev *b)
{
	char p[PATH_MAX], num[32];
	const char *slash;
	int rc;

	if (!realpath(dir, b->dir))
		return -errno;
	slash = strrchr(b->dir, '/');
	if (pathf(b->name, sizeof(b->name), "%s", slash ? slash + 1 : b->dir))
		return -ENAMETOOLONG;
	if (pathf(p, sizeof(p), "%s/dev", b->dir))
		return -ENAMETOOLONG;
	rc = read_attr(p, num, sizeof(num));
	if (rc)
		return rc;
	if (sscanf(num, "%u:%u", &b->major, &b->minor) != 2)
		return -EINVAL;
	return 0;
}

static int bdev_by_num(struct ctx *c, unsigned major, unsigned minor, struct bdev *b)
{
	char p[PATH_MAX];

	if (pathf(p, sizeof(p), "%s/dev/block/%u:%u", c->sysfs, major, minor))
		return -ENAMETOOLONG;
	return bdev_from_dir(p, b);
}

static int bdev_by_name(struct ctx *c, const char *name, struct bdev *b)
{
	char p[PATH_MAX];

	if (pathf(p, sizeof(p), "%s/class/block/%s", c->sysfs, name))
		return -ENAMETOOLONG;
	return bdev_from_dir(p, b);
}

static bool bdev_is_partition(const struct bdev *b)
{
	return exists(b->dir, "partition");
}

/* A partition's sysfs directory sits inside its disk's. */
static int bdev_parent(const struct bdev *part, struct bdev *disk)
{
	char p[PATH_MAX];
	char *slash;

	snprintf(p, sizeof(p), "%s", part->dir);
	slash = strrchr(p, '/');
	if (!slash || slash == p)
		return -ENOENT;
	*slash = '\0';
	return bdev_from_dir(p, disk);
}

/* "dm-0 (vg-root)" for device-mapper nodes, whose kernel names say little; else the name. */
static void bdev_label(const char *dir, const char *name, char *out, size_t len)
{
	char p[PATH_MAX], dmname[128];

	if (pathf(p, sizeof(p), "%s/dm/name", dir) == 0 &&
	    read_attr(p, dmname, sizeof(dmname)) == 0 && dmname[0])
		snprintf(out, len, "%s (%s)", name, dmname);
	else
		snprintf(out, len, "%s", name);
}

static ssize_t devset_find(const struct devset *s, unsigned major, unsigned minor)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i].major == major && s->v[i].minor == minor)
			return (ssize_t)i;
	return -1;
}

static int devset_add(struct devset *s, const struct bdev *b)
{
	struct bdev *v;

	if (devset_find(s, b->major, b->minor) >= 0)
		return 0;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;

		v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = *b;
	return 0;
}

static void devset_release(struct devset *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/* Adds the disk and all its partitions (sub-directories holding a "partition" file). */
static int add_disk_and_partitions(const struct bdev *disk, struct devset *s)
{
	struct dirent *de;
	struct bdev part;
	char p[PATH_MAX];
	DIR *d;
	int rc;

	rc = devset_add(s, disk);
	if (rc)
		return rc;
	d = opendir(disk->dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (pathf(p, sizeof(p), "%s/%s", disk->dir, de->d_name))
			continue;
		if (!exists(p, "partition") || bdev_from_dir(p, &part))
			continue;
		rc = devset_add(s, &part);
		if (rc)
			break;
	}
	closedir(d);
	return rc;
}

/* Adds b, its parent disk when it is a partition, and (through slaves/) everything below. */
static int add_stack(struct ctx *c, const struct bdev *b, struct devset *s, int depth)
{
	struct dirent *de;
	struct bdev lower;
	char p[PATH_MAX];
	DIR *d;
	int rc;

	rc = devset_add(s, b);
	if (rc)
		return rc;
	if (bdev_is_partition(b) && bdev_parent(b, &lower) == 0) {
		rc = devset_add(s, &lower);
		if (rc)
			return rc;
	}
	if (depth >= SLAVE_DEPTH_MAX)
		return 0;
	if (pathf(p, sizeof(p), "%s/slaves", b->dir))
		return -ENAMETOOLONG;
	d = opendir(p);
	if (!d)
		return 0; /* no slaves directory: a physical device */
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || bdev_by_name(c, de->d_name, &lower))
			continue;
		rc = add_stack(c, &lower, s, depth + 1);
		if (rc)
			break;
	}
	closedir(d);
	return rc;
}

/* ---- mountinfo ------------------------------------------------------------------------- */

struct mount_ent {
	unsigned major, minor;
	char *mountpoint; /* unescaped, points into the line */
	char *source;	  /* unescaped, points into the line or at nosrc ("") */
	char nosrc[1];
};

/* Splits one mountinfo line (proc(5)): ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPT...] - TYPE
 * SOURCE SUPEROPTS. Returns false on a line it cannot read. */
static bool parse_mountinfo_line(char *line, struct mount_ent *m)
{
	char *f[6], *save = NULL, *tok;
	int i = 0;

	for (tok = strtok_r(line, " \n", &save); tok && i < 6; tok = strtok_r(NULL, " \n", &save))
		f[i++] = tok;
	if (i < 6 || sscanf(f[2], "%u:%u", &m->major, &m->minor) != 2)
		return false;
	m->mountpoint = f[4];
	m->nosrc[0] = '\0';
	m->source = m->nosrc;
	/* optional fields end at a lone "-", then fstype and source */
	while (tok && strcmp(tok, "-") != 0)
		tok = strtok_r(NULL, " \n", &save);
	if (tok && strtok_r(NULL, " \n", &save)) {
		tok = strtok_r(NULL, " \n", &save);
		if (tok)
			m->source = tok;
	}
	unescape_octal(m->mountpoint);
	unescape_octal(m->source);
	return true;
}

/* The device number a mount is on: its major:minor, or, for filesystems that show an anonymous
 * 0:N there (btrfs), the device node it was mounted from. False when neither is a block device. */
static bool mount_source_dev(struct ctx *c, const struct mount_ent *m, unsigned *major,
			     unsigned *minor)
{
	struct stat st;

	if (strncmp(m->source, "/dev/", 5) != 0 || k_stat(c, m->source, &st) ||
	    !S_ISBLK(st.st_mode))
		return false;
	*major = major(st.st_rdev);
	*minor = minor(st.st_rdev);
	return true;
}

static FILE *open_proc(struct ctx *c, const char *leaf, char *path, size_t len)
{
	if (pathf(path, len, "%s/%s", c->proc, leaf)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	return fopen(path, "re");
}

/*
 * Finds the first mount of a device in `s`. Returns 1 and fills idx and mountpoint when one is
 * mounted, 0 when none is, -errno when mountinfo cannot be read.
 */
static int find_mount(struct ctx *c, const struct devset *s, size_t *idx, char *mp, size_t mplen)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	int rc = 0;
	FILE *f;

	f = open_proc(c, "self/mountinfo", path, sizeof(path));
	if (!f)
		return fail(c, -errno, "cannot read %s to check for mounts: %s", path,
			    strerror(errno));
	while (getline(&line, &cap, f) > 0) {
		struct mount_ent m;
		unsigned ma, mi;
		ssize_t i;

		if (!parse_mountinfo_line(line, &m))
			continue;
		i = devset_find(s, m.major, m.minor);
		if (i < 0 && mount_source_dev(c, &m, &ma, &mi))
			i = devset_find(s, ma, mi);
		if (i >= 0) {
			*idx = (size_t)i;
			snprintf(mp, mplen, "%s", m.mountpoint);
			rc = 1;
			break;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

/* Collects the devices the root filesystem depends on: the device of "/" (mountinfo, and the
 * st_dev of "/"), its disk, and through slaves/ down to the physical disks. `root` names the
 * device "/" is on (for messages). A root on no block device (overlay, tmpfs) yields an empty
 * set: nothing to protect. */
static int root_devices(struct ctx *c, struct devset *s, char *root, size_t rootlen)
{
	unsigned cand[3][2];
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0, ncand = 0;
	struct stat st;
	struct bdev b;
	FILE *f;
	int rc = 0;

	root[0] = '\0';
	f = open_proc(c, "self/mountinfo", path, sizeof(path));
	if (!f)
		return fail(c, -errno, "cannot read %s to find the root filesystem: %s", path,
			    strerror(errno));
	/* the last "/" entry is the one on top (a later mount over / hides earlier ones) */
	while (getline(&line, &cap, f) > 0) {
		struct mount_ent m;
		unsigned ma, mi;

		if (!parse_mountinfo_line(line, &m) || strcmp(m.mountpoint, "/") != 0)
			continue;
		ncand = 0;
		cand[ncand][0] = m.major;
		cand[ncand][1] = m.minor;
		ncand++;
		if (mount_source_dev(c, &m, &ma, &mi)) {
			cand[ncand][0] = ma;
			cand[ncand][1] = mi;
			ncand++;
		}
	}
	free(line);
	fclose(f);
	if (k_stat(c, "/", &st) == 0) {
		cand[ncand][0] = major(st.st_dev);
		cand[ncand][1] = minor(st.st_dev);
		ncand++;
	}
	for (size_t i = 0; i < ncand; i++) {
		if (bdev_by_num(c, cand[i][0], cand[i][1], &b))
			continue; /* anonymous device (0:N) or not a block device */
		if (!root[0])
			snprintf(root, rootlen, "%s", b.name);
		rc = add_stack(c, &b, s, 0);
		if (rc)
			return fail(c, rc, "cannot follow the root filesystem's devices: %s",
				    strerror(-rc));
	}
	return 0;
}

/* ---- /proc/swaps ----------------------------------------------------------------------- */

/*
 * Calls match(st) for each active swap area that can be stat'ed; returns 1 on the first match
 * (swap path copied out), 0 when none matches, -errno when /proc/swaps cannot be read. A kernel
 * without swap support has no /proc/swaps: nothing is swap.
 */
static int find_swap(struct ctx *c, bool (*match)(const struct stat *st, const void *arg),
		     const void *arg, char *hit, size_t hitlen)
{
	char path[PATH_MAX], *line = NULL;
	size_t cap = 0;
	bool header = true;
	int rc = 0;
	FILE *f;

	f = open_proc(c, "swaps", path, sizeof(path));
	if (!f) {
		if (errno == ENOENT)
			return 0;
		return fail(c, -errno, "cannot read %s to check for swap: %s", path,
			    strerror(errno));
	}
	while (getline(&line, &cap, f) > 0) {
		char *save = NULL, *name;
		struct stat st;

		if (header) { /* "Filename Type Size Used Priority" */
			header = false;
			continue;
		}
		name = strtok_r(line, " \t\n", &save);
		if (!name)
			continue;
		unescape_octal(name);
		if (k_stat(c, name, &st) == 0 && match(&st, arg)) {
			snprintf(hit, hitlen, "%s", name);
			rc = 1;
			break;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

static bool swap_is_in_set(const struct stat *st, const void *arg)
{
	return S_ISBLK(st->st_mode) &&
	       devset_find(arg, major(st->st_rdev), minor(st->st_rdev)) >= 0;
}

static bool swap_is_file(const struct stat *st, const void *arg)
{
	const struct stat *file = arg;

	return S_ISREG(st->st_mode) && st->st_dev == file->st_dev && st->st_ino == file->st_ino;
}

/* ---- the checks ------------------------------------------------------------------------ */

/* First holder of b (md0, dm-0, bcache0), labelled; false when none. */
static bool first_holder(const struct bdev *b, char *out, size_t len)
{
	struct dirent *de;
	char p[PATH_MAX], hp[PATH_MAX];
	bool found = false;
	DIR *d;

	if (pathf(p, sizeof(p), "%s/holders", b->dir))
		return false;
	d = opendir(p);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (pathf(hp, sizeof(hp), "%s/%s", p, de->d_name))
			snprintf(hp, sizeof(hp), "%s", p);
		bdev_label(hp, de->d_name, out, len);
		found = true;
		break;
	}
	closedir(d);
	return found;
}

/* When the device a refusal names is not the one the user gave, says how they are related, so
 * that "writing p2" refused for "p1 is mounted" reads as what it is. Appended to the reason. */
static int same_disk(struct ctx *c, int rc, const struct bdev *target, const struct bdev *named,
		     const struct bdev *disk)
{
	size_t n = c->reason ? strnlen(c->reason, c->len) : 0;

	if (!c->reason || !c->len || !strcmp(target->name, named->name))
		return rc;
	if (!strcmp(target->name, disk->name))
		snprintf(c->reason + n, c->len - n, "; /dev/%s is a partition of /dev/%s",
			 named->name, disk->name);
	else if (!strcmp(named->name, disk->name))
		snprintf(c->reason + n, c->len - n, "; /dev/%s is on that disk", target->name);
	else
		snprintf(c->reason + n, c->len - n, "; /dev/%s is on the same disk, /dev/%s",
			 target->name, disk->name);
	return rc;
}

static int check_blockdev(struct ctx *c, const char *path, const struct stat *st, bool excl)
{
	struct devset set = {0}, root = {0};
	char mp[PATH_MAX], rootname[NAME_MAX + 1], label[NAME_MAX + 160];
	struct bdev b, disk;
	size_t idx = 0;
	int rc;

	rc = bdev_by_num(c, major(st->st_rdev), minor(st->st_rdev), &b);
	if (rc) {
		rc = fail(c, -ENODEV,
			  "cannot find %s (%u:%u) in %s/dev/block, so cannot check whether it is "
			  "in use",
			  path, major(st->st_rdev), minor(st->st_rdev), c->sysfs);
		goto out;
	}
	if (bdev_is_partition(&b)) {
		rc = bdev_parent(&b, &disk);
		if (rc) {
			rc = fail(c, rc, "cannot find the disk that partition %s belongs to: %s",
				  path, strerror(-rc));
			goto out;
		}
	} else {
		disk = b;
	}
	rc = add_disk_and_partitions(&disk, &set);
	if (rc) {
		rc = fail(c, rc, "cannot list the partitions of /dev/%s: %s", disk.name,
			  strerror(-rc));
		goto out;
	}

	rc = root_devices(c, &root, rootname, sizeof(rootname));
	if (rc)
		goto out;
	/* The partitions first (set.v[0] is the disk): the root's disk is in `root` too, and
	 * naming the disk would hide which partition holds "/". */
	for (size_t k = 1; k <= set.n; k++) {
		size_t i = k % set.n;

		if (devset_find(&root, set.v[i].major, set.v[i].minor) < 0)
			continue;
		if (strcmp(set.v[i].name, rootname) == 0)
			rc = fail(c, -EPERM, "/dev/%s holds the root filesystem", set.v[i].name);
		else
			rc = fail(c, -EPERM, "/dev/%s holds the root filesystem (/ is on /dev/%s)",
				  set.v[i].name, rootname);
		rc = same_disk(c, rc, &b, &set.v[i], &disk);
		goto out;
	}

	rc = find_mount(c, &set, &idx, mp, sizeof(mp));
	if (rc < 0)
		goto out;
	if (rc > 0) {
		rc = fail(c, -EPERM, "/dev/%s is mounted on %s", set.v[idx].name, mp);
		rc = same_disk(c, rc, &b, &set.v[idx], &disk);
		goto out;
	}

	rc = find_swap(c, swap_is_in_set, &set, mp, sizeof(mp));
	if (rc < 0)
		goto out;
	if (rc > 0) {
		struct stat sw;

		/* name the partition, not the path the swap table happens to use */
		rc = k_stat(c, mp, &sw);
		idx = 0;
		if (rc == 0) {
			ssize_t i = devset_find(&set, major(sw.st_rdev), minor(sw.st_rdev));

			idx = i < 0 ? 0 : (size_t)i;
		}
		rc = fail(c, -EPERM, "/dev/%s is used as swap", set.v[idx].name);
		rc = same_disk(c, rc, &b, &set.v[idx], &disk);
		goto out;
	}

	for (size_t i = 0; i < set.n; i++) {
		if (first_holder(&set.v[i], label, sizeof(label))) {
			rc = fail(c, -EPERM, "/dev/%s is held by %s", set.v[i].name, label);
			rc = same_disk(c, rc, &b, &set.v[i], &disk);
			goto out;
		}
	}

	if (excl) {
		rc = k_probe_excl(c, path);
		if (rc == -EBUSY) {
			rc = fail(c, -EPERM,
				  "%s is in use: another program holds it open exclusively "
				  "(O_EXCL open: device busy)",
				  path);
			goto out;
		}
		if (rc) {
			rc = fail(c, rc, "cannot open %s with O_EXCL to check that it is free: %s",
				  path, strerror(-rc));
			goto out;
		}
	}
	rc = 0;
out:
	devset_release(&set);
	devset_release(&root);
	return rc;
}

/* Is the file the backing file of an attached loop device? Compared by inode, and by canonical
 * path for a backing file the kernel shows as "(deleted)" or that cannot be stat'ed. */
static int check_loop_backing(struct ctx *c, const char *path, const struct stat *st)
{
	char dir[PATH_MAX], p[PATH_MAX], backing[PATH_MAX], canon[PATH_MAX];
	struct dirent *de;
	struct stat bs;
	int rc = 0;
	DIR *d;

	if (!realpath(path, canon))
		snprintf(canon, sizeof(canon), "%s", path);
	if (pathf(dir, sizeof(dir), "%s/block", c->sysfs))
		return fail(c, -ENAMETOOLONG, "sysfs root too long: %s", c->sysfs);
	d = opendir(dir);
	if (!d)
		return fail(c, -errno, "cannot list %s to check for loop devices: %s", dir,
			    strerror(errno));
	while ((de = readdir(d))) {
		size_t n;

		if (strncmp(de->d_name, "loop", 4) != 0)
			continue;
		if (pathf(p, sizeof(p), "%s/%s/loop/backing_file", dir, de->d_name))
			continue;
		if (read_attr(p, backing, sizeof(backing)))
			continue; /* not attached: no loop/ directory */
		n = strlen(backing);
		if (n > 10 && strcmp(backing + n - 10, " (deleted)") == 0)
			backing[n - 10] = '\0';
		if (strcmp(backing, canon) == 0 ||
		    (k_stat(c, backing, &bs) == 0 && bs.st_dev == st->st_dev &&
		     bs.st_ino == st->st_ino)) {
			rc = fail(c, -EPERM, "%s is the backing file of /dev/%s", path, de->d_name);
			break;
		}
	}
	closedir(d);
	return rc;
}

static void ctx_init(struct ctx *c, const struct safety_opts *o, char *reason, size_t len)
{
	c->sysfs = o && o->sysfs_root ? o->sysfs_root : "/sys";
	c->proc = o && o->proc_root ? o->proc_root : "/proc";
	c->sys = o ? o->sys : NULL;
	c->reason = reason;
	c->len = len;
	if (reason && len)
		reason[0] = '\0';
}

int safety_check_in_use(const char *path, const struct safety_opts *o, char *reason, size_t len)
{
	struct stat st;
	struct ctx c;
	int rc;

	ctx_init(&c, o, reason, len);
	if (!path || !*path)
		return fail(&c, -EINVAL, "no target path given");
	rc = k_stat(&c, path, &st);
	if (rc)
		return fail(&c, rc, "cannot stat %s: %s", path, strerror(-rc));
	if (S_ISBLK(st.st_mode))
		return check_blockdev(&c, path, &st, o && o->probe_excl);
	if (!S_ISREG(st.st_mode))
		return fail(&c, -EPERM, "%s is neither a block device nor a regular file", path);
	rc = check_loop_backing(&c, path, &st);
	if (rc)
		return rc;
	rc = find_swap(&c, swap_is_file, &st, NULL, 0);
	if (rc > 0)
		return fail(&c, -EPERM, "%s is used as swap", path);
	return rc;
}

/* ---- confirmation ---------------------------------------------------------------------- */

/* The part of a WWN that identifies the device: without "0x", "naa.", "eui." or "nguid.". */
static const char *wwn_body(const char *w)
{
	static const char *const prefixes[] = {"0x", "naa.", "eui.", "nguid."};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);

		if (strncasecmp(w, prefixes[i], n) == 0)
			return w + n;
	}
	return w;
}

/* What the user must type, and how to call it in messages. */
struct expect {
	char serial[DEVINFO_SERIAL_LEN];
	char wwn[DEVINFO_WWN_LEN];
	char path[PATH_MAX]; /* canonical; used when there is neither serial nor WWN */
	const char *value;   /* serial, else WWN, else path */
	const char *what;    /* "serial", "WWN", "path" */
};

static void expect_init(const struct safety_target *ti, struct expect *e)
{
	if (!trim_copy(ti->serial, e->serial, sizeof(e->serial)))
		e->serial[0] = '\0';
	if (!trim_copy(ti->wwn, e->wwn, sizeof(e->wwn)))
		e->wwn[0] = '\0';
	if (!realpath(ti->path, e->path))
		snprintf(e->path, sizeof(e->path), "%s", ti->path);
	if (ti->kind == SAFETY_FILE) /* a file's identity is its path, whatever the fs */
		e->serial[0] = e->wwn[0] = '\0';
	if (e->serial[0]) {
		e->value = e->serial;
		e->what = "serial";
	} else if (e->wwn[0]) {
		e->value = e->wwn;
		e->what = "WWN";
	} else {
		e->value = e->path;
		e->what = "path";
	}
}

static bool expect_matches(const struct expect *e, const char *given)
{
	char g[PATH_MAX], canon[PATH_MAX];

	if (!given || !trim_copy(given, g, sizeof(g)) || !g[0])
		return false;
	if (e->serial[0] || e->wwn[0]) {
		if (e->serial[0] && strcmp(g, e->serial) == 0)
			return true;
		return e->wwn[0] && strcasecmp(wwn_body(g), wwn_body(e->wwn)) == 0;
	}
	if (!realpath(g, canon))
		return false;
	return strcmp(canon, e->path) == 0;
}

/* "Samsung SSD 860, serial S3Z1NB0K123456, 465.76 GiB"; what is unknown is left out. */
static void describe(const struct safety_target *ti, const struct expect *e, char *out, size_t len)
{
	const struct drive_ident *d = ti->drive;
	char size[32], sum[512];

	units_fmt_size(ti->capacity, size, sizeof(size));
	if (d && d->read) {
		/* the drive's own words (drive_ident.h), as the manifest records them */
		drive_ident_summary(d, sum, sizeof sum);
		snprintf(out, len, "%s, serial %s, firmware %s%s%s, %s; %s", drive_ident_model(d),
			 drive_ident_serial(d), drive_ident_firmware(d), e->wwn[0] ? ", WWN " : "", e->wwn,
			 size, sum);
		return;
	}
	snprintf(out, len, "%s%s%s%s%s%s%s", ti->model, ti->model[0] ? ", " : "",
		 e->serial[0] ? "serial " : "", e->serial, e->serial[0] ? ", " : "",
		 e->wwn[0] ? "WWN " : "", e->wwn);
	snprintf(out + strlen(out), len - strlen(out), "%s%s", e->wwn[0] ? ", " : "", size);
	if (d) {
		/* sysfs's identity, and why the drive itself was not asked or did not answer */
		drive_ident_summary(d, sum, sizeof sum);
		snprintf(out + strlen(out), len - strlen(out), "; %s", sum);
	}
}

/* The prompt's lines for what the drive says of itself ("" without ti->drive). */
static void drive_lines(const struct safety_target *ti, char *out, size_t len)
{
	char sum[512];

	*out = '\0';
	if (!ti->drive)
		return;
	drive_ident_summary(ti->drive, sum, sizeof sum);
	snprintf(out, len, "  firmware %s\n  drive   %s\n", drive_ident_firmware(ti->drive), sum);
}

/* "  NVMe    namespace nvme0n1 (nsid 1), controller nvme0, subsystem nvme-subsys0 (...)\n" */
static void nvme_describe(const struct safety_target *ti, char *out, size_t len)
{
	const struct devinfo_nvme *nv = ti->nvme;

	if (!nv || !nv->ns[0])
		return;
	snprintf(out, len, "  NVMe    namespace %s (nsid %u), controller %s, subsystem %s%s%s%s\n",
		 nv->ns, nv->nsid, nv->controller[0] ? nv->controller : "(unknown)",
		 nv->subsystem[0] ? nv->subsystem : "(unknown)",
		 nv->subsystem_ns[0] ? " (namespaces " : "", nv->subsystem_ns,
		 nv->subsystem_ns[0] ? ")" : "");
}

/*
 * With o->whole_subsystem: every other namespace of the target's NVMe subsystem must be free
 * too, since the action reaches them all.
 */
static int check_subsystem(struct ctx *c, const struct safety_target *ti, const char *what,
			   const struct safety_opts *o, char *reason, size_t len)
{
	const struct devinfo_nvme *nv = ti->nvme;
	char list[sizeof(nv->subsystem_ns)], *save = NULL, path[64];
	int rc;

	if (!o || !o->whole_subsystem || !nv || !nv->subsystem_ns[0])
		return 0;
	snprintf(list, sizeof(list), "%s", nv->subsystem_ns);
	for (char *ns = strtok_r(list, " ", &save); ns; ns = strtok_r(NULL, " ", &save)) {
		if (!strcmp(ns, nv->ns))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", ns);
		rc = safety_check_in_use(path, o, reason, len);
		if (rc == -ENOENT) /* a namespace without a node here holds nothing of ours */
			continue;
		if (rc) {
			char inner[1024];

			snprintf(inner, sizeof(inner), "%s", reason);
			return fail(c, rc, "%s on %s reaches all of NVMe subsystem %s, and %s", what,
				    ti->path, nv->subsystem[0] ? nv->subsystem : "?",
				    inner[0] ? inner : strerror(-rc));
		}
	}
	return 0;
}

static int prompt(struct ctx *c, const struct safety_target *ti, const char *what,
		  const struct expect *e)
{
	/* The path, and the WWN twice when it is the value to type (the longest is 1024). */
	char text[PATH_MAX + 5120], answer[PATH_MAX], size[32], nvme[sizeof(*ti->nvme) + 64] = "";
	char drive[1024];
	const char *model = ti->drive ? drive_ident_model(ti->drive) : ti->model;
	int rc;

	units_fmt_size(ti->capacity, size, sizeof(size));
	nvme_describe(ti, nvme, sizeof(nvme));
	drive_lines(ti, drive, sizeof drive);
	snprintf(text, sizeof(text),
		 "\nssdlab: %s on %s destroys the data on it.\n"
		 "  model   %s\n  serial  %s\n%s  WWN     %s\n  size    %s (%llu bytes)\n%s"
		 "Type its %s (%s) to go ahead, anything else to cancel: ",
		 what, ti->path, model[0] ? model : "(unknown)",
		 e->serial[0] ? e->serial : "(none)", drive, e->wwn[0] ? e->wwn : "(none)", size,
		 (unsigned long long)ti->capacity, nvme, e->what, e->value);
	rc = k_ask(c, text, answer, sizeof(answer));
	if (rc)
		return fail(c, -EPERM, "no answer to the confirmation prompt for %s; nothing done",
			    ti->path);
	if (!expect_matches(e, answer))
		return fail(c, -EPERM, "the answer did not match the %s of %s (%s); nothing done",
			    e->what, ti->path, e->value);
	return 0;
}

int safety_confirm_destructive(const struct safety_target *ti, const char *what,
			       const struct safety_opts *o, char *reason, size_t len)
{
	char desc[2048]; /* model, serial, WWN (up to 1024 characters), size */
	struct expect e;
	struct ctx c;
	int rc;

	ctx_init(&c, o, reason, len);
	if (!ti)
		return fail(&c, -EINVAL, "no target");
	if (!what || !*what)
		what = "a destructive action";
	if (ti->kind == SAFETY_VIRTUAL)
		return 0; /* the virtual SSD: nothing real to destroy */
	if (ti->kind == SAFETY_FILE && ti->created_by_ssdlab)
		return 0;
	if (ti->kind != SAFETY_BLOCKDEV && ti->kind != SAFETY_FILE)
		return fail(&c, -EINVAL, "unknown target kind %d for %s", (int)ti->kind, ti->path);

	rc = safety_check_in_use(ti->path, o, reason, len);
	if (rc)
		return rc;
	rc = check_subsystem(&c, ti, what, o, reason, len);
	if (rc)
		return rc;

	expect_init(ti, &e);
	if (o && o->yes_destroy) {
		if (expect_matches(&e, o->yes_destroy))
			return 0;
		if (strcmp(e.what, "path") == 0)
			return fail(&c, -EPERM,
				    "%s%s is confirmed by its path: pass --yes-destroy=%s (got "
				    "\"%s\")",
				    ti->path,
				    ti->kind != SAFETY_FILE ? " reports no serial or WWN and" : "",
				    e.path, o->yes_destroy);
		if (ti->drive) {
			/* name the drive that is there: the user may have meant another one */
			describe(ti, &e, desc, sizeof(desc));
			return fail(&c, -EPERM, "the %s of %s is %s; pass --yes-destroy=%s (got \"%s\"; %s)",
				    e.what, ti->path, e.value, e.value, o->yes_destroy, desc);
		}
		return fail(&c, -EPERM, "the %s of %s is %s; pass --yes-destroy=%s (got \"%s\")",
			    e.what, ti->path, e.value, e.value, o->yes_destroy);
	}
	if (o && o->allow_prompt && k_isatty(&c, STDIN_FILENO) && k_isatty(&c, STDERR_FILENO))
		return prompt(&c, ti, what, &e);
	describe(ti, &e, desc, sizeof(desc));
	return fail(&c, -EPERM,
		    "%s on %s destroys its data and needs confirmation: pass --yes-destroy=%s (its "
		    "%s; %s)%s",
		    what, ti->path, e.value, e.what, desc,
		    o && o->allow_prompt ? "; no terminal to ask on" : "");
}

int safety_check_reach(const struct safety_target *ti, const char *what,
		       const struct safety_opts *o, char *reason, size_t len)
{
	struct safety_opts so = o ? *o : (struct safety_opts){0};
	struct ctx c;

	so.whole_subsystem = true;
	ctx_init(&c, &so, reason, len);
	if (!ti)
		return fail(&c, -EINVAL, "no target");
	return check_subsystem(&c, ti, what && *what ? what : "the command", &so, reason, len);
}
