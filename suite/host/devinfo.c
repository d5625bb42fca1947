/* SPDX-License-Identifier: MIT */
/*
 * devinfo: block device identity and state from sysfs and udev's database (see devinfo.h).
 * Every read is best effort: a missing attribute leaves its field empty or "unknown", because
 * drivers differ in what they expose and the caller records what there is.
 */
#include "host/devinfo.h"
#include "host/sysfs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define PATHBUF (PATH_MAX + 128)

static const char *sysfs_root(const struct devinfo_roots *r)
{
	return r && r->sysfs ? r->sysfs : "/sys";
}

static const char *udev_root(const struct devinfo_roots *r)
{
	return r && r->udev ? r->udev : "/run/udev";
}

/* Copies a string, truncating to fit (kernel names, the scheduler; identity uses fill_id()). */
static void copy_str(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = 0;
}

static void trim(char *s)
{
	size_t n = strlen(s), i = 0;

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	while (s[i] && isspace((unsigned char)s[i]))
		i++;
	if (i)
		memmove(s, s + i, n - i + 1);
}

/* sysfs shows a text attribute in at most one page. */
#define ATTR_MAX 4096

/*
 * Fills an empty identity field with a non-empty value, only if it fits whole: a serial or WWN
 * cut to its first bytes would be another identifier, which a confirmation could then match
 * (devinfo.h sizes the fields from what the sources can hold).
 */
static void fill_id(char *field, size_t len, const char *v)
{
	size_t n = strlen(v);

	if (*field || !n || n >= len)
		return;
	memcpy(field, v, n + 1);
}

/* Copies an attribute into a field if the field is still empty. */
static void fill_attr(char *field, size_t len, const char *dir, const char *attr)
{
	char buf[ATTR_MAX + 1];

	if (*field)
		return;
	if (sysfs_read(dir, attr, buf, sizeof(buf)) > 0)
		fill_id(field, len, buf);
}

/* SCSI VPD page 0x80 (unit serial number): 4-byte header, then ASCII (SPC-5, 7.7.18). */
static void fill_vpd80(char *field, size_t len, const char *dir)
{
	unsigned char buf[4 + 1024];
	ssize_t n;

	if (*field)
		return;
	n = sysfs_read_bin(dir, "device/vpd_pg80", buf, sizeof(buf) - 1);
	if (n > 4 && buf[1] == 0x80) {
		size_t l = ((size_t)buf[2] << 8 | buf[3]);
		char *s = (char *)buf + 4;

		if (l > (size_t)n - 4)
			return; /* longer than we read: not cut short */
		s[l] = 0;
		trim(s);
		fill_id(field, len, s);
	}
}

/*
 * An ATA string (ACS-4, 7.13.6) of `words` 16-bit words from word `word` of IDENTIFY data: two
 * characters per word, the first in the high byte, the words little-endian; padded with spaces.
 * out holds at least 2 x words + 1 bytes.
 */
static void ata_string(const unsigned char *id, unsigned word, unsigned words, char *out)
{
	for (unsigned i = 0; i < 2 * words; i++)
		out[i] = (char)id[2 * word + (i ^ 1)];
	out[2 * words] = 0;
	trim(out);
}

/* udev's *_ENC values escape bytes as \xHH (udev's encode_devnode_name()); decoded in place. */
static void unescape_hex(char *s)
{
	char *o = s;

	for (; *s; s++) {
		unsigned v;

		if (s[0] == '\\' && s[1] == 'x' && isxdigit((unsigned char)s[2]) &&
		    isxdigit((unsigned char)s[3]) && sscanf(s + 2, "%2x", &v) == 1 && v) {
			*o++ = (char)v;
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = 0;
}

/*
 * udev's database: lines "E:KEY=VALUE". The value of `key`, trimmed, in buf: its length,
 * -EOVERFLOW when it does not fit, -ENOENT when absent.
 */
static int udev_value(const struct devinfo_roots *r, dev_t dev, const char *key, char *buf,
		      size_t len)
{
	char path[PATHBUF], *line = NULL;
	size_t cap = 0, kl = strlen(key);
	int rc = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/data/b%u:%u", udev_root(r), major(dev), minor(dev));
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (rc == -ENOENT && getline(&line, &cap, f) > 0) {
		char *v = line + 2 + kl;

		if (strncmp(line, "E:", 2) || strncmp(line + 2, key, kl) || v[0] != '=')
			continue;
		trim(++v);
		rc = strlen(v) < len ? (int)strlen(v) : -EOVERFLOW;
		if (rc >= 0)
			memcpy(buf, v, (size_t)rc + 1);
	}
	free(line);
	fclose(f);
	return rc;
}

static void fill_udev(struct devinfo *di, const struct devinfo_roots *r, dev_t dev)
{
	static const struct {
		const char *key;
		size_t off, len;
	} keys[] = {
		{"ID_MODEL", offsetof(struct devinfo, model), sizeof(((struct devinfo *)0)->model)},
		{"ID_SERIAL_SHORT", offsetof(struct devinfo, serial),
		 sizeof(((struct devinfo *)0)->serial)},
		{"ID_WWN", offsetof(struct devinfo, wwn), sizeof(((struct devinfo *)0)->wwn)},
		{"ID_REVISION", offsetof(struct devinfo, firmware),
		 sizeof(((struct devinfo *)0)->firmware)},
	};
	char v[ATTR_MAX + 1];

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char *field = (char *)di + keys[i].off;

		if (!*field && udev_value(r, dev, keys[i].key, v, sizeof(v)) > 0)
			fill_id(field, keys[i].len, v);
	}
}

/*
 * An ATA disk behind the SCSI layer: model, serial and firmware from its IDENTIFY DEVICE data,
 * whose model the INQUIRY product field cuts to 16 characters (devinfo.h).
 *   - sysfs vpd_pg89, SAT's ATA Information VPD page (SAT-5, 10.4.4): a 60-byte header (byte 1
 *     the page code 0x89, bytes 2-3 the page length 0x238, byte 56 the command that filled it,
 *     ECh IDENTIFY DEVICE or A1h IDENTIFY PACKET DEVICE), then the 512 bytes of IDENTIFY data:
 *     serial at words 10-19, firmware at 23-26, model at 27-46;
 *   - else udev, when its ata_id read IDENTIFY (ID_ATA=1): ID_MODEL_ENC (ID_MODEL has its
 *     spaces turned into underscores), ID_SERIAL_SHORT, ID_REVISION.
 */
static void fill_ata(struct devinfo *di, const char *dir, const struct devinfo_roots *r, dev_t dev)
{
	unsigned char pg[60 + 512];
	char s[41], v[256];
	ssize_t n = sysfs_read_bin(dir, "device/vpd_pg89", pg, sizeof(pg));

	if (n == (ssize_t)sizeof(pg) && pg[1] == 0x89 && ((unsigned)pg[2] << 8 | pg[3]) >= 0x238 &&
	    (pg[56] == 0xec || pg[56] == 0xa1)) {
		const unsigned char *id = pg + 60;

		ata_string(id, 27, 20, s);
		fill_id(di->model, sizeof(di->model), s);
		ata_string(id, 10, 10, s);
		fill_id(di->serial, sizeof(di->serial), s);
		ata_string(id, 23, 4, s);
		fill_id(di->firmware, sizeof(di->firmware), s);
	}
	if (udev_value(r, dev, "ID_ATA", v, sizeof(v)) <= 0 || strcmp(v, "1"))
		return;
	if (udev_value(r, dev, "ID_MODEL_ENC", v, sizeof(v)) > 0) {
		unescape_hex(v);
		trim(v);
		fill_id(di->model, sizeof(di->model), v);
	}
	if (udev_value(r, dev, "ID_SERIAL_SHORT", v, sizeof(v)) > 0)
		fill_id(di->serial, sizeof(di->serial), v);
	if (udev_value(r, dev, "ID_REVISION", v, sizeof(v)) > 0)
		fill_id(di->firmware, sizeof(di->firmware), v);
}

static void fill_scheduler(struct devinfo *di, const char *qdir)
{
	char buf[256], *open_b, *close_b;

	if (sysfs_read(qdir, "scheduler", buf, sizeof(buf)) <= 0)
		return;
	open_b = strchr(buf, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (open_b && close_b) {
		*close_b = 0;
		copy_str(di->scheduler, sizeof(di->scheduler), open_b + 1);
	} else {
		copy_str(di->scheduler, sizeof(di->scheduler), buf);
	}
}

/* Resolves <sysfs>/dev/block/MAJ:MIN to the device's directory. */
static int dev_dir(const struct devinfo_roots *r, dev_t dev, char *dir)
{
	char link[PATHBUF];

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sysfs_root(r), major(dev), minor(dev));
	if (!realpath(link, dir))
		return -errno;
	return 0;
}

int devinfo_read(const struct devinfo_roots *r, dev_t dev, struct devinfo *out)
{
	char dir[PATH_MAX], qdir[PATHBUF], buf[64];
	struct devinfo *di;
	uint64_t v;
	int rc;

	di = calloc(1, sizeof(*di));
	if (!di)
		return -ENOMEM;
	rc = dev_dir(r, dev, dir);
	if (rc)
		goto out;
	copy_str(di->name, sizeof(di->name), strrchr(dir, '/') + 1);
	di->partition = sysfs_read(dir, "partition", buf, sizeof(buf)) > 0;
	if (di->partition) {
		char *slash;

		copy_str(qdir, sizeof(qdir), dir);
		slash = strrchr(qdir, '/');
		*slash = 0; /* the disk's directory */
		copy_str(di->disk, sizeof(di->disk), strrchr(qdir, '/') + 1);
		/* Identity and queue belong to the disk. */
		copy_str(dir, sizeof(dir), qdir);
	} else {
		copy_str(di->disk, sizeof(di->disk), di->name);
	}
	if (!sysfs_read_u64(dir, "size", &v) && !di->partition)
		di->capacity = v * 512;
	if (di->partition) { /* the partition's own size */
		char pdir[PATHBUF];

		snprintf(pdir, sizeof(pdir), "%s/%s", dir, di->name);
		if (!sysfs_read_u64(pdir, "size", &v))
			di->capacity = v * 512;
	}

	fill_ata(di, dir, r, dev);
	fill_attr(di->model, sizeof(di->model), dir, "device/model");
	fill_attr(di->serial, sizeof(di->serial), dir, "device/serial"); /* NVMe */
	fill_attr(di->serial, sizeof(di->serial), dir, "serial");	   /* virtio, mmc */
	fill_vpd80(di->serial, sizeof(di->serial), dir);		   /* SCSI, SATA */
	fill_attr(di->firmware, sizeof(di->firmware), dir, "device/firmware_rev");
	fill_attr(di->firmware, sizeof(di->firmware), dir, "device/rev");
	fill_attr(di->wwn, sizeof(di->wwn), dir, "wwid");
	fill_attr(di->wwn, sizeof(di->wwn), dir, "device/wwid");
	fill_udev(di, r, dev);

	snprintf(qdir, sizeof(qdir), "%s/queue", dir);
	if (!sysfs_read_u64(qdir, "logical_block_size", &v))
		di->logical_block_size = (uint32_t)v;
	if (!sysfs_read_u64(qdir, "physical_block_size", &v))
		di->physical_block_size = (uint32_t)v;
	if (!sysfs_read_u64(qdir, "rotational", &v))
		di->rotational = v != 0;
	di->nomerges = sysfs_read_u64(qdir, "nomerges", &v) ? -1 : (int)v;
	if (!sysfs_read_u64(qdir, "nr_requests", &v))
		di->hw_queue_depth = (uint32_t)v;
	di->io_poll = sysfs_read_u64(qdir, "io_poll", &v) ? -1 : (int)(v != 0);
	if (!sysfs_read_u64(qdir, "discard_max_bytes", &v))
		di->discard_max_bytes = v;
	fill_scheduler(di, qdir);
	di->loop_dio = sysfs_read_u64(dir, "loop/dio", &v) ? -1 : (int)(v != 0);
	fill_attr(di->backing_file, sizeof(di->backing_file), dir, "loop/backing_file");
	memcpy(out, di, sizeof(*di));
out:
	free(di);
	return rc;
}

int devinfo_read_stat(const struct devinfo_roots *r, dev_t dev, struct devinfo_stat *st)
{
	char dir[PATH_MAX], buf[512];
	unsigned long long f[17] = {0};
	int n;

	if (dev_dir(r, dev, dir))
		return -ENOENT;
	if (sysfs_read(dir, "stat", buf, sizeof(buf)) <= 0)
		return -ENOENT;
	n = sscanf(buf, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10],
		   &f[11], &f[12], &f[13], &f[14], &f[15], &f[16]);
	if (n < 11)
		return -EINVAL;
	st->read_ios = f[0];
	st->read_sectors = f[2];
	st->write_ios = f[4];
	st->write_sectors = f[6];
	st->in_flight = f[8];
	st->discard_ios = f[11];
	st->discard_sectors = f[13];
	st->flush_ios = f[15];
	return 0;
}

static int unwritten_seek(int fd, uint64_t size, uint64_t *unwritten)
{
	uint64_t total = 0;
	off_t pos = 0;

	while ((uint64_t)pos < size) {
		off_t hole = lseek(fd, pos, SEEK_HOLE), data;

		if (hole < 0)
			return -errno;
		if ((uint64_t)hole >= size)
			break;
		data = lseek(fd, hole, SEEK_DATA);
		if (data < 0 && errno != ENXIO)
			return -errno;
		if (data < 0 || (uint64_t)data > size)
			data = (off_t)size;
		total += (uint64_t)(data - hole);
		pos = data;
	}
	*unwritten = total;
	return 0;
}

int devinfo_file_unwritten(int fd, uint64_t size, uint64_t *unwritten)
{
	enum { NEXT = 256 };
	struct fiemap *fm;
	uint64_t pos = 0, covered = 0, unw = 0;
	int rc = 0;

	fm = calloc(1, sizeof(*fm) + NEXT * sizeof(struct fiemap_extent));
	if (!fm)
		return -ENOMEM;
	while (pos < size) {
		bool last = false;

		memset(fm, 0, sizeof(*fm));
		fm->fm_start = pos;
		fm->fm_length = size - pos;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = NEXT;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			rc = errno == EOPNOTSUPP || errno == ENOTTY ? unwritten_seek(fd, size, &unw)
								    : -errno;
			if (!rc)
				*unwritten = unw;
			goto out;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (unsigned i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];
			uint64_t s = e->fe_logical, end = e->fe_logical + e->fe_length;

			if (s < pos)
				s = pos;
			if (end > size)
				end = size;
			if (end > s) {
				covered += end - s;
				if (e->fe_flags & FIEMAP_EXTENT_UNWRITTEN)
					unw += end - s;
			}
			pos = e->fe_logical + e->fe_length;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				last = true;
		}
		if (last)
			break;
	}
	/* Whatever no extent covers is a hole. */
	*unwritten = unw + (size > covered ? size - covered : 0);
out:
	free(fm);
	return rc;
}

int devinfo_file_memfs(int fd, char *fs, size_t len)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs) < 0)
		return -errno;
	if (sfs.f_type == TMPFS_MAGIC) {
		snprintf(fs, len, "tmpfs");
		return 1;
	}
	if (sfs.f_type == RAMFS_MAGIC) {
		snprintf(fs, len, "ramfs");
		return 1;
	}
	return 0;
}

void devinfo_clocksource(const struct devinfo_roots *r, char *buf, size_t len)
{
	char dir[PATHBUF], v[64];

	snprintf(dir, sizeof(dir), "%s/devices/system/clocksource/clocksource0", sysfs_root(r));
	if (sysfs_read(dir, "current_clocksource", v, sizeof(v)) > 0)
		copy_str(buf, len, v);
	else if (len)
		*buf = 0;
}

/* Whether snprintf's result n fitted a buffer of len (a path cut short is never used). */
static bool fits(int n, size_t len)
{
	return n >= 0 && (size_t)n < len;
}

/* The last component of a symlink's target ("nvme0" for "../../nvme0"), or -errno. */
static int link_base(const char *path, char *out, size_t len)
{
	char buf[PATH_MAX];
	ssize_t n = readlink(path, buf, sizeof(buf) - 1);
	const char *b;

	if (n < 0)
		return -errno;
	buf[n] = 0;
	b = strrchr(buf, '/');
	copy_str(out, len, b ? b + 1 : buf);
	return 0;
}

/* "nvme" digits, and with ns "n" digits after them: a controller or a namespace head node. */
static bool nvme_name(const char *s, bool ns)
{
	const char *p = s + 4;

	if (strncmp(s, "nvme", 4) || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (!ns)
		return !*p;
	if (*p++ != 'n' || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return !*p;
}

/* Appends a namespace to the space-separated list once (the kernel names are short). */
static void ns_add(struct devinfo_nvme *nv, const char *name)
{
	size_t n = strlen(nv->subsystem_ns), k = strlen(name);
	const char *p = nv->subsystem_ns;

	while ((p = strstr(p, name))) {
		if ((p == nv->subsystem_ns || p[-1] == ' ') && (p[k] == ' ' || !p[k]))
			return;
		p += k;
	}
	if (n + !!n + k + 1 > sizeof(nv->subsystem_ns))
		return;
	if (n)
		nv->subsystem_ns[n++] = ' ';
	memcpy(nv->subsystem_ns + n, name, k + 1);
}

/* Adds the namespace heads listed in dir (a subsystem's or, without multipath, a controller's). */
static void ns_scan(struct devinfo_nvme *nv, const char *dir, bool controllers)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char sub[PATHBUF];

		if (nvme_name(de->d_name, true)) {
			ns_add(nv, de->d_name);
		} else if (controllers && nvme_name(de->d_name, false)) {
			if (fits(snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name), sizeof(sub)))
				ns_scan(nv, sub, false);
		}
	}
	closedir(d);
}

/* The subsystem that lists controller ctrl, found by scanning class/nvme-subsystem. */
static void find_subsystem(const struct devinfo_roots *r, const char *ctrl, char *out, size_t len)
{
	char dir[PATHBUF], p[PATHBUF];
	struct dirent *de;
	struct stat st;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/nvme-subsystem", sysfs_root(r));
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (fits(snprintf(p, sizeof(p), "%s/%s/%s", dir, de->d_name, ctrl), sizeof(p)) &&
		    !lstat(p, &st)) {
			copy_str(out, len, de->d_name);
			break;
		}
	}
	closedir(d);
}

int devinfo_nvme_topology(const struct devinfo_roots *r, const char *name, struct devinfo_nvme *nv)
{
	char dir[PATHBUF], p[PATHBUF], dev[64] = "";
	uint64_t nsid;

	memset(nv, 0, sizeof(*nv));
	if (!nvme_name(name, true))
		return -ENODEV;
	if (!fits(snprintf(dir, sizeof(dir), "%s/block/%s", sysfs_root(r), name), sizeof(dir)) ||
	    !fits(snprintf(p, sizeof(p), "%s/device", dir), sizeof(p)) || link_base(p, dev, sizeof(dev)))
		return -ENODEV;
	copy_str(nv->ns, sizeof(nv->ns), name);
	if (!sysfs_read_u64(dir, "nsid", &nsid) && nsid <= UINT32_MAX)
		nv->nsid = (unsigned)nsid;
	/* Without native multipath the namespace hangs off its controller; with it, the block
	 * device is the subsystem's head node and its device link names the subsystem. */
	if (!strncmp(dev, "nvme-subsys", 11))
		copy_str(nv->subsystem, sizeof(nv->subsystem), dev);
	else if (nvme_name(dev, false))
		copy_str(nv->controller, sizeof(nv->controller), dev);
	if (!*nv->subsystem && *nv->controller)
		find_subsystem(r, nv->controller, nv->subsystem, sizeof(nv->subsystem));
	if (*nv->subsystem &&
	    fits(snprintf(p, sizeof(p), "%s/class/nvme-subsystem/%s", sysfs_root(r), nv->subsystem),
		 sizeof(p))) {
		fill_attr(nv->subsysnqn, sizeof(nv->subsysnqn), p, "subsysnqn");
		ns_scan(nv, p, true);
	} else if (*nv->controller &&
		   fits(snprintf(p, sizeof(p), "%s/class/nvme/%s", sysfs_root(r), nv->controller),
			sizeof(p))) {
		ns_scan(nv, p, false);
	}
	ns_add(nv, name);
	return 0;
}

/* The path component after "/<prefix>" that starts with digits ("1" for ".../ata1/..."), or
 * NULL: sysfs names a libata port ataN and a SCSI host hostN this way. */
static bool path_num(const char *path, const char *prefix, char *num, size_t len)
{
	size_t k = strlen(prefix);

	for (const char *p = strchr(path, '/'); p; p = strchr(p + 1, '/')) {
		size_t n = 0;

		if (strncmp(p + 1, prefix, k))
			continue;
		while (isdigit((unsigned char)p[1 + k + n]))
			n++;
		if (n && (p[1 + k + n] == '/' || !p[1 + k + n]) && n < len) {
			memcpy(num, p + 1 + k, n);
			num[n] = 0;
			return true;
		}
	}
	return false;
}

/* Reads attr from the nearest directory at or above dir, stopping at <sysfs>/devices: PCI
 * attributes (link, numa_node) sit on the PCI function, some levels above the block device. */
static int read_up(const struct devinfo_roots *r, const char *dir, const char *attr, char *buf,
		   size_t len)
{
	char top[PATHBUF], d[PATH_MAX];
	size_t toplen;

	if (!realpath(sysfs_root(r), top) || !fits((int)strlen(top) + 8, sizeof(top)))
		return -ENOENT;
	strcat(top, "/devices");
	toplen = strlen(top);
	copy_str(d, sizeof(d), dir);
	while (strlen(d) > toplen && !strncmp(d, top, toplen)) {
		char *slash;

		if (sysfs_read(d, attr, buf, len) > 0)
			return 0;
		slash = strrchr(d, '/');
		*slash = 0;
	}
	*buf = 0;
	return -ENOENT;
}

static const char *transport_of(const char *dir, const char *name)
{
	char num[16];

	/* USB first: a USB bridge's disk also sits below a SCSI host (and may speak SAT) */
	if (strstr(dir, "/usb"))
		return "usb";
	if (!strncmp(name, "loop", 4))
		return "loop";
	if (!strncmp(name, "zram", 4))
		return "zram";
	if (nvme_name(name, true) || strstr(dir, "/nvme/"))
		return "nvme";
	if (strstr(dir, "/virtio"))
		return "virtio";
	if (path_num(dir, "ata", num, sizeof(num)))
		return "sata";
	if (path_num(dir, "host", num, sizeof(num)))
		return "scsi";
	return "unknown";
}

int devinfo_link_read(const struct devinfo_roots *r, dev_t dev, struct devinfo_link *out)
{
	char dir[PATH_MAX], p[PATHBUF], num[16], buf[64];
	struct devinfo_link x = {.link_width = -1, .discard_granularity = -1, .numa_node = -1};
	uint64_t v;
	int rc;

	rc = dev_dir(r, dev, dir);
	if (rc)
		return rc;
	if (sysfs_read(dir, "partition", buf, sizeof(buf)) > 0)
		*strrchr(dir, '/') = 0; /* the disk's directory */
	copy_str(x.transport, sizeof(x.transport), transport_of(dir, strrchr(dir, '/') + 1));

	snprintf(p, sizeof(p), "%s/queue", dir);
	if (!sysfs_read_u64(p, "discard_granularity", &v) && v <= INT64_MAX)
		x.discard_granularity = (int64_t)v;
	if (sysfs_read(p, "write_cache", buf, sizeof(buf)) > 0)
		copy_str(x.write_cache, sizeof(x.write_cache), buf);
	if (!read_up(r, dir, "numa_node", buf, sizeof(buf))) {
		x.numa_node = atoi(buf);
		x.numa_known = true;
	}

	if (!strcmp(x.transport, "nvme")) {
		char ctrl[PATH_MAX];

		read_up(r, dir, "current_link_speed", x.link_speed, sizeof(x.link_speed));
		if (!read_up(r, dir, "current_link_width", buf, sizeof(buf)))
			x.link_width = atoi(buf);
		/* the controller is the namespace's parent directory (nvme0/nvme0n1) */
		copy_str(ctrl, sizeof(ctrl), dir);
		*strrchr(ctrl, '/') = 0;
		if (nvme_name(strrchr(ctrl, '/') + 1, false))
			sysfs_read(ctrl, "power/pm_qos_latency_tolerance_us", x.apst_latency,
				   sizeof(x.apst_latency));
	} else if (!strcmp(x.transport, "sata")) {
		path_num(dir, "ata", num, sizeof(num));
		snprintf(p, sizeof(p), "%s/class/ata_link/link%s", sysfs_root(r), num);
		sysfs_read(p, "sata_spd", x.link_speed, sizeof(x.link_speed));
		if (!strcmp(x.link_speed, "<unknown>"))
			*x.link_speed = 0;
	}
	if (path_num(dir, "host", num, sizeof(num)) && strcmp(x.transport, "usb")) {
		snprintf(p, sizeof(p), "%s/class/scsi_host/host%s", sysfs_root(r), num);
		sysfs_read(p, "link_power_management_policy", x.alpm, sizeof(x.alpm));
	}

	/* SMART: ATA and NVMe define it; loop, zram and virtio have no such log; behind USB or a
	 * SCSI HBA it depends on the bridge (SAT pass-through), which sysfs cannot tell. Drive
	 * write-cache control: ATA SET FEATURES 02h/82h, NVMe Set Features 06h when the drive has a
	 * volatile cache (the kernel shows "write back" then). */
	if (!strcmp(x.transport, "sata")) {
		x.smart = 1;
		x.write_cache_control = 1;
	} else if (!strcmp(x.transport, "nvme")) {
		x.smart = 1;
		x.write_cache_control = !*x.write_cache ? -1 : !strcmp(x.write_cache, "write back");
	} else if (!strcmp(x.transport, "loop") || !strcmp(x.transport, "zram")) {
		x.smart = 0;
		x.write_cache_control = 0;
	} else if (!strcmp(x.transport, "virtio")) {
		/* virtio-blk has no SMART command; its cache mode is the host's (cache_type may be
		 * writable when the device offers VIRTIO_BLK_F_CONFIG_WCE), so control is unknown */
		x.smart = 0;
		x.write_cache_control = -1;
	} else {
		x.smart = -1;
		x.write_cache_control = -1;
	}
	*out = x;
	return 0;
}
