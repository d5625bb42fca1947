/* SPDX-License-Identifier: MIT */
/*
 * target_uring: block devices and regular files through io_uring with O_DIRECT.
 *
 * One ring per queue (the engine opens one queue per thread, in that thread, so the ring can be
 * single-issuer with cooperative task work: completion work runs when the thread next enters
 * the kernel rather than interrupting it). The file and the engine's buffers are
 * registered (fixed files, fixed buffers), so the kernel neither looks up the file nor pins the
 * pages per I/O. Submission is batched: submit() prepares n SQEs, and the following reap()
 * submits them and waits for completions in one system call, then takes whatever is in the CQ
 * ring.
 *
 * Devices without non-blocking submission (zram and other bio-based drivers that do not
 * advertise it: preadv2(RWF_NOWAIT) fails with EOPNOTSUPP) get every I/O punted by io_uring to
 * its io-wq worker threads anyway. io-wq adds a worker only while none is running, and a zram
 * read never sleeps, so all of them would run one at a time on one worker, which caps such a
 * device at one CPU (fio with its defaults has the same cap). For those files the SQEs carry
 * IOSQE_ASYNC: the doomed non-blocking attempt is skipped and io-wq runs the I/Os concurrently,
 * on at most as many workers per thread as there are online CPUs. Devices that accept
 * non-blocking submission (NVMe, SCSI, loop, files on disk file systems) are left alone: there
 * the I/O is issued inline and forcing workers would only add cost.
 *
 * Time is CLOCK_MONOTONIC. A completion's time is read once per reaped batch, right after the
 * completions are seen.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <liburing.h>
#include <linux/fs.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "base/jsonnum.h"
#include "host/devinfo.h"
#include "host/drivedb.h"
#include "targets/drive_capacity.h"
#include "targets/drive_snapshot.h"
#include "host/hwmon.h"
#include "targets/target.h"
#include "targets/purge_chain.h"

struct uring_target {
	int fd;
	bool blockdev;
	dev_t dev; /* the block device (for a file: the device of its file system) */
	bool no_nowait; /* the file has no non-blocking I/O: io_uring punts every I/O to io-wq */
	/* counter snapshots (drive_snapshot.h): the drive's reader, set up at the first snapshot
	 * (so `ssdlab io` never loads the drive database); no_counters says why there is none */
	bool has_counters;
	struct drive_snapshot_cfg snap_cfg;
	struct drive_snapshot *ds;
	char no_counters[256];
	char drivedb_path[PATH_MAX];
	/* queues open now: a snapshot taken while they are (the runner's ramp-end one, from a
	 * worker thread mid-job) must not flush or wait, or it would stall the measured I/O */
	_Atomic unsigned open_queues;
	bool has_temp;	/* a block device with a hwmon temperature sensor (found at open) */
	struct hwmon_temp temp;
	/* an NVMe block device: the purge commands (purge_chain.h) go through this table */
	const struct ioctl_ops *ops;
	enum purge_transport purge_tr;
	char purge_link[16]; /* sysfs: "sata", "usb" (the ATA rows refuse a USB bridge) */
	int open_flags;	     /* a block device's open(2) flags, for uring_reopen */
};

struct target_queue {
	struct io_uring ring;
	struct target *t;
	int fd;		  /* fd or fixed-file index to put in SQEs */
	bool fixed_file;
	bool fixed_bufs;
	bool sqpoll;
	bool pending; /* SQEs prepared by submit() that reap() hands to the kernel */
	uint8_t sqe_flags; /* IOSQE_FIXED_FILE, IOSQE_ASYNC, set once at open */
};

static uint64_t uring_now(struct target *t)
{
	struct timespec ts;

	(void)t;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void base_name(const char *path, const char *prefix, char *out, size_t len)
{
	const char *b = strrchr(path, '/');
	size_t j;

	b = b ? b + 1 : path;
	snprintf(out, len, "%s%s", prefix, b);
	/* Keep directory names portable. */
	for (j = 0; out[j]; j++)
		if (!(out[j] == '-' || out[j] == '.' || out[j] == '_' ||
		      (out[j] >= '0' && out[j] <= '9') || (out[j] >= 'a' && out[j] <= 'z') ||
		      (out[j] >= 'A' && out[j] <= 'Z')))
			out[j] = '_';
}

/* Identity is copied whole, never cut (devinfo.h): the fields are the same size. */
#define SAME_SIZE(f) (sizeof(((struct target_info *)0)->f) == sizeof(((struct devinfo *)0)->f))
_Static_assert(SAME_SIZE(model) && SAME_SIZE(serial) && SAME_SIZE(wwn) && SAME_SIZE(firmware),
	       "target_info and devinfo identity fields differ in size");
#undef SAME_SIZE

static void copy_identity(struct target_info *ti, const struct devinfo *di)
{
	snprintf(ti->model, sizeof(ti->model), "%s", di->model);
	snprintf(ti->serial, sizeof(ti->serial), "%s", di->serial);
	snprintf(ti->wwn, sizeof(ti->wwn), "%s", di->wwn);
	snprintf(ti->firmware, sizeof(ti->firmware), "%s", di->firmware);
	ti->rotational = di->rotational;
	snprintf(ti->scheduler, sizeof(ti->scheduler), "%s", di->scheduler);
	ti->nomerges = di->nomerges;
	ti->hw_queue_depth = di->hw_queue_depth;
}

/*
 * Whether the drive has a counter source: its transport (sysfs) must have reader rows in
 * drive_snapshot.c. Only then is TARGET_CAP_COUNTERS set; otherwise every snapshot says
 * "none" with the reason in raw.no_counters_reason.
 */
static void counters_setup(struct target *t, struct uring_target *u, const char *spec,
			   const struct target_open_opts *o)
{
	const struct target_info *ti = target_info(t);
	struct devinfo_link link;
	size_t n;

	if (devinfo_link_read(NULL, u->dev, &link)) {
		snprintf(u->no_counters, sizeof u->no_counters,
			 "%s: sysfs does not say how the drive is attached, so no counters", spec);
		return;
	}
	if (!strcmp(link.transport, "nvme"))
		u->snap_cfg.transport = DRIVEDB_NVME;
	else if (!strcmp(link.transport, "sata"))
		u->snap_cfg.transport = DRIVEDB_ATA;
	else {
		snprintf(u->no_counters, sizeof u->no_counters,
			 "%s is a %s device: it has no SMART counters ssdlab can read", spec, link.transport);
		return;
	}
	if (!drive_snapshot_readers(u->snap_cfg.transport, &n)) {
		snprintf(u->no_counters, sizeof u->no_counters,
			 "%s: ssdlab cannot read the counters of a %s drive yet", spec, link.transport);
		return;
	}
	u->snap_cfg.fd = u->fd;
	u->snap_cfg.nsid = ti->nvme.nsid;
	u->snap_cfg.model = ti->model;
	/* the unit of the Device Statistics sector counters of a SATA drive */
	u->snap_cfg.sector_bytes = ti->logical_block_size;
	if (o->drivedb_path) {
		snprintf(u->drivedb_path, sizeof u->drivedb_path, "%s", o->drivedb_path);
		u->snap_cfg.drivedb_path = u->drivedb_path;
	}
	u->snap_cfg.opts.settle_ns = o->snapshot_settle_ns;
	u->snap_cfg.opts.interval_ns = o->snapshot_interval_ns;
	u->snap_cfg.opts.max_reads = o->snapshot_max_reads;
	u->has_counters = true;
	target_add_caps(t, TARGET_CAP_COUNTERS);
}

/*
 * The raw NAND size the drive database states for this drive's model (drivedb.h, raw_nand
 * rows), for the sprandom fill's spare: auto. Only for a drive whose counters the database
 * describes (counters_setup found its transport); a database that does not load, or no row
 * for the model, leaves it 0, and spare: auto is then refused with the ways to state it.
 */
static void raw_nand_setup(struct target *t, struct uring_target *u)
{
	struct target_info *ti = target_info_mut(t);
	char dflt[PATH_MAX];
	const char *path = u->snap_cfg.drivedb_path, *src;
	struct drivedb *db = NULL;
	struct ydoc_error err;
	const struct drivedb_entry *e;
	uint64_t bytes;

	if (!u->has_counters || !ti->model[0])
		return;
	if (!path) {
		if (drivedb_default_path(dflt, sizeof(dflt)))
			return;
		path = dflt;
	}
	if (drivedb_load(path, &db, &err))
		return;
	e = drivedb_lookup(db, u->snap_cfg.transport, ti->model);
	if (e && !drivedb_raw_nand_bytes(e, ti->model, &bytes, &src)) {
		ti->raw_nand_bytes = bytes;
		snprintf(ti->raw_nand_entry, sizeof(ti->raw_nand_entry), "%s", e->name);
	}
	drivedb_free(db);
}

/* A drive whose purge commands ssdlab knows (purge_chain.h): NVMe, and SATA (also behind a USB
 * bridge, where the ATA rows refuse with the reason and auto takes the discard); other block
 * devices keep the runner's own discard. */
static void drive_purge_setup(struct target *t, struct uring_target *u,
			      const struct target_open_opts *o)
{
	struct devinfo_link link;

	u->ops = o->ioctl_ops ? o->ioctl_ops : &ioctl_ops_real;
	if (devinfo_link_read(NULL, u->dev, &link))
		return;
	snprintf(u->purge_link, sizeof u->purge_link, "%s", link.transport);
	if (!strcmp(link.transport, "nvme") && target_info(t)->nvme.nsid)
		u->purge_tr = PURGE_NVME;
	else if (!strcmp(link.transport, "sata") || !strcmp(link.transport, "usb"))
		u->purge_tr = PURGE_ATA;
	else
		return;
	target_add_caps(t, TARGET_CAP_DRIVE_PURGE);
}

static int open_blockdev(struct target *t, struct uring_target *u, const char *spec,
			 const struct stat *st, const struct target_open_opts *o)
{
	struct target_info *ti = target_info_mut(t);
	struct devinfo di;
	uint64_t size = 0;
	int lbs = 0;
	unsigned pbs = 0;

	/* O_EXCL on a block device fails with EBUSY while it is mounted or held (md, dm, swap),
	 * and also for up to ~100 ms after a process that used it through io_uring with a
	 * registered file was killed: the kernel releases the ring's files from a worker, in
	 * steps of 50 ms. So EBUSY is retried for a second before it counts. */
	u->open_flags = (o->writable ? O_RDWR | O_EXCL : O_RDONLY) | O_DIRECT | O_CLOEXEC;
	for (int tries = 0;; tries++) {
		u->fd = open(spec, u->open_flags);
		if (u->fd >= 0 || errno != EBUSY || tries == 100)
			break;
		nanosleep(&(struct timespec){.tv_nsec = 10000000}, NULL);
	}
	if (u->fd < 0) {
		int e = errno;

		if (e == EBUSY)
			target_set_error(t, "%s is in use (mounted, swap, or held by another driver)",
					 spec);
		else
			target_set_error(t, "%s: cannot open: %s", spec, strerror(e));
		return -e;
	}
	u->blockdev = true;
	u->dev = st->st_rdev;
	if (ioctl(u->fd, BLKGETSIZE64, &size) < 0 || ioctl(u->fd, BLKSSZGET, &lbs) < 0) {
		int e = errno;

		target_set_error(t, "%s: cannot read size or block size: %s", spec, strerror(e));
		return -e;
	}
	if (ioctl(u->fd, BLKPBSZGET, &pbs) < 0)
		pbs = (unsigned)lbs;
	ti->kind = TARGET_KIND_BLOCKDEV;
	base_name(spec, "dev-", ti->safe_name, sizeof(ti->safe_name));
	ti->capacity = size;
	ti->logical_block_size = (uint32_t)lbs;
	ti->physical_block_size = pbs;
	if (!devinfo_read(NULL, st->st_rdev, &di)) {
		copy_identity(ti, &di);
		/* an NVMe namespace (or a partition of one): where it sits, for the safety checks */
		(void)devinfo_nvme_topology(NULL, di.disk, &ti->nvme);
		/* found once: the engine reads it every series interval */
		u->has_temp = !hwmon_temp_find(NULL, di.disk, ti->nvme.controller, &u->temp);
	}
	if (o->drive_ident) {
		/* sysfs always; the drive itself when it is NVMe or SATA (a refusal keeps the reason) */
		ti->has_drive = true;
		if (!drive_ident_sysfs(NULL, st->st_rdev, &ti->drive))
			drive_ident_ask(o->ioctl_ops ? o->ioctl_ops : &ioctl_ops_real, u->fd, &ti->drive);
		/* a volatile HPA the kernel does not see: ssdlab's own range ends at the drive's max */
		ti->capacity = drive_capacity_limit(&ti->drive, ti->capacity);
	}
	counters_setup(t, u, spec, o);
	raw_nand_setup(t, u);
	drive_purge_setup(t, u, o);
	return 0;
}

/* The O_DIRECT alignment of a file: statx's dio_offset_align, else its device's logical block
 * size, else 4096 (never wrong, at worst stricter than needed). */
static uint32_t file_dio_align(int fd, dev_t dev)
{
	struct devinfo di;
#ifdef STATX_DIOALIGN
	struct statx sx;

	if (!statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) && (sx.stx_mask & STATX_DIOALIGN) &&
	    sx.stx_dio_offset_align)
		return sx.stx_dio_offset_align;
#endif
	if (!devinfo_read(NULL, dev, &di) && di.logical_block_size)
		return di.logical_block_size;
	return 4096;
}

static int open_file(struct target *t, struct uring_target *u, const char *spec,
		     const struct target_open_opts *o, bool create)
{
	struct target_info *ti = target_info_mut(t);
	struct stat st;
	struct devinfo di;
	char fs[16];
	int flags = (o->writable || create ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC;

	if (create)
		flags |= O_CREAT | O_EXCL;
	u->fd = open(spec, flags, 0644);
	if (u->fd < 0) {
		int e = errno;

		if (e == EINVAL)
			target_set_error(t, "%s: the file system does not support O_DIRECT", spec);
		else
			target_set_error(t, "%s: cannot %s: %s", spec, create ? "create" : "open",
					 strerror(e));
		return -e;
	}
	if (!(fcntl(u->fd, F_GETFL) & O_DIRECT)) {
		target_set_error(t, "%s: O_DIRECT is not in effect", spec);
		return -EINVAL;
	}
	if (devinfo_file_memfs(u->fd, fs, sizeof(fs)) == 1) {
		target_set_error(t, "%s is on %s, where O_DIRECT reaches no device: put the file on a "
				 "disk-backed file system", spec, fs);
		return -EINVAL;
	}
	if (create) {
		ti->created_by_ssdlab = true;
		if (ftruncate(u->fd, (off_t)o->size) < 0) {
			int e = errno;

			target_set_error(t, "%s: cannot size to %" PRIu64 " bytes: %s", spec, o->size,
					 strerror(e));
			return -e;
		}
	}
	if (fstat(u->fd, &st) < 0)
		return -errno;
	u->dev = st.st_dev;
	ti->kind = TARGET_KIND_FILE;
	base_name(spec, "file-", ti->safe_name, sizeof(ti->safe_name));
	ti->logical_block_size = file_dio_align(u->fd, st.st_dev);
	ti->physical_block_size = st.st_blksize > 0 ? (uint32_t)st.st_blksize : 4096;
	ti->capacity = (uint64_t)st.st_size / ti->logical_block_size * ti->logical_block_size;
	/* The queue settings that matter are those of the disk under the file system. */
	if (!devinfo_read(NULL, st.st_dev, &di)) {
		ti->rotational = di.rotational;
		snprintf(ti->scheduler, sizeof(ti->scheduler), "%s", di.scheduler);
		ti->nomerges = di.nomerges;
		ti->hw_queue_depth = di.hw_queue_depth;
	}
	return 0;
}

/* Whether the file refuses non-blocking I/O. io_uring first tries each read or write without
 * blocking and, for a file that cannot do that (no FMODE_NOWAIT), hands it to an io-wq worker;
 * preadv2(RWF_NOWAIT) fails with EOPNOTSUPP for exactly those files, and checks that before it
 * looks at the offset. The probe reads at the end of the file, where a read returns 0 without
 * touching the device (no I/O that /sys/block/X/stat would count). Any other outcome, including
 * a failed allocation, counts as "supported", the default path. */
static bool lacks_nowait(int fd)
{
	void *buf = aligned_alloc(4096, 4096);
	struct iovec iov = {.iov_base = buf, .iov_len = 4096};
	struct stat st;
	uint64_t size = 0;
	bool lacks;

	if (!buf)
		return false;
	if (fstat(fd, &st) == 0)
		size = S_ISBLK(st.st_mode) ? (ioctl(fd, BLKGETSIZE64, &size) ? 0 : size)
					   : (uint64_t)st.st_size;
	lacks = size && preadv2(fd, &iov, 1, (off_t)((size + 4095) / 4096 * 4096), RWF_NOWAIT) < 0 &&
		errno == EOPNOTSUPP;
	free(buf);
	return lacks;
}

static int uring_open(struct target *t, const char *spec, const struct target_open_opts *o)
{
	struct uring_target *u = calloc(1, sizeof(*u));
	struct stat st;
	int rc;

	if (!u)
		return -ENOMEM;
	u->fd = -1;
	if (stat(spec, &st) < 0) {
		rc = -errno;
		if (rc == -ENOENT && o->create && o->size) {
			rc = open_file(t, u, spec, o, true);
		} else if (rc == -ENOENT) {
			target_set_error(t, "%s does not exist (give --size SIZE to create a file "
					 "target)", spec);
		} else {
			target_set_error(t, "%s: %s", spec, strerror(-rc));
		}
	} else if (S_ISBLK(st.st_mode)) {
		rc = open_blockdev(t, u, spec, &st, o);
	} else if (S_ISREG(st.st_mode)) {
		rc = open_file(t, u, spec, o, false);
	} else {
		target_set_error(t, "%s is %s: expected a block device, a regular file or sim:MODEL",
				 spec, S_ISDIR(st.st_mode) ? "a directory" : "neither a block device nor a regular file");
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if (!rc && !target_info(t)->capacity) {
		target_set_error(t, "%s has a size of 0 bytes", spec);
		rc = -EINVAL;
	}
	if (!rc) {
		char cs[24];

		u->no_nowait = lacks_nowait(u->fd);
		devinfo_clocksource(NULL, cs, sizeof(cs));
		snprintf(target_info_mut(t)->clock, sizeof(target_info_mut(t)->clock),
			 "CLOCK_MONOTONIC (%.13s)", *cs ? cs : "unknown");
	}
	if (rc) {
		if (u->fd >= 0)
			close(u->fd);
		free(u);
		return rc;
	}
	target_set_priv(t, u);
	return 0;
}

/*
 * The block device behind the path was replaced (an NVMe namespace deleted and created again):
 * the old handle refers to the deleted disk. It is closed first (O_EXCL would refuse a second
 * open of a disk that survived), and the path opened again; the node may take a moment to come
 * back (udev), so a missing one (ENOENT, ENXIO) or a busy one is retried for 5 s. The descriptor
 * keeps its number (dup3), so the snapshot reader's copy of it (counters_setup) stays valid.
 */
static int uring_reopen(struct target *t)
{
	struct uring_target *u = target_priv(t);
	struct target_info *ti = target_info_mut(t);
	int old = u->fd, fd = -1, lbs = 0, e;
	unsigned pbs = 0;
	uint64_t size = 0;
	struct devinfo di;
	struct stat st;

	if (!u->blockdev)
		return 0; /* a file is still the same file */
	if (u->fd >= 0)
		close(u->fd);
	u->fd = -1;
	for (int tries = 0;; tries++) {
		fd = open(ti->path, u->open_flags);
		if (fd >= 0 || (errno != ENOENT && errno != ENXIO && errno != EBUSY) || tries == 100)
			break;
		nanosleep(&(struct timespec){.tv_nsec = 50000000}, NULL);
	}
	if (fd < 0) {
		e = errno;
		target_set_error(t, "%s: cannot open it again: %s", ti->path, strerror(e));
		return -e;
	}
	if (fd != old && old >= 0) {
		if (dup3(fd, old, O_CLOEXEC) < 0) {
			e = errno;
			close(fd);
			target_set_error(t, "%s: dup3: %s", ti->path, strerror(e));
			return -e;
		}
		close(fd);
		fd = old;
	}
	u->fd = fd;
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || ioctl(fd, BLKGETSIZE64, &size) < 0 ||
	    ioctl(fd, BLKSSZGET, &lbs) < 0) {
		e = errno ? errno : ENOTBLK;
		target_set_error(t, "%s: opened again, but no size: %s", ti->path, strerror(e));
		return -e;
	}
	if (ioctl(fd, BLKPBSZGET, &pbs) < 0)
		pbs = (unsigned)lbs;
	/* the same drive, or the commands that follow would go to another one */
	if (!devinfo_read(NULL, st.st_rdev, &di) && ti->serial[0] && di.serial[0] &&
	    strcmp(ti->serial, di.serial)) {
		target_set_error(t, "%s now names another drive (serial %s, was %s)", ti->path,
				 di.serial, ti->serial);
		return -ENODEV;
	}
	u->dev = st.st_rdev;
	ti->capacity = size;
	ti->logical_block_size = (uint32_t)lbs;
	ti->physical_block_size = pbs;
	return 0;
}

static void uring_close(struct target *t)
{
	struct uring_target *u = target_priv(t);

	if (!u)
		return;
	drive_snapshot_free(u->ds);
	if (u->fd >= 0)
		close(u->fd);
	free(u);
}

static int ring_init(struct target_queue *q, const struct target_queue_opts *o)
{
	struct io_uring_params p;
	unsigned cq = o->depth * 2;
	int rc;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE;
	p.cq_entries = cq;
	if (o->hipri)
		p.flags |= IORING_SETUP_IOPOLL;
	if (o->sqpoll) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 1000; /* ms before the kernel thread sleeps */
		return io_uring_queue_init_params(o->depth, &q->ring, &p);
	}
	/* One thread owns the ring, and completion work runs when that thread enters the kernel
	 * instead of interrupting it (kernel 5.19+; fall back for older kernels). Deferred task
	 * work (IORING_SETUP_DEFER_TASKRUN) was measured 10-30% slower here for devices whose I/O
	 * io_uring punts to its workers (zram), and no faster elsewhere (docs/benchmarks.md). */
	p.flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
	rc = io_uring_queue_init_params(o->depth, &q->ring, &p);
	if (rc == -EINVAL) {
		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_CQSIZE | (o->hipri ? IORING_SETUP_IOPOLL : 0);
		p.cq_entries = cq;
		rc = io_uring_queue_init_params(o->depth, &q->ring, &p);
	}
	return rc;
}

static int uring_queue_open(struct target *t, const struct target_queue_opts *o,
			    struct target_queue **out)
{
	struct uring_target *u = target_priv(t);
	struct target_queue *q;
	struct iovec *iov = NULL;
	int rc;

	if (o->hipri) {
		struct devinfo di;

		if (devinfo_read(NULL, u->dev, &di) || di.io_poll != 1) {
			target_set_error(t, "hipri: the device has no polled queues (queue/io_poll "
					 "is not 1; NVMe needs the nvme module's poll_queues=N)");
			return -EOPNOTSUPP;
		}
	}
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->t = t;
	rc = ring_init(q, o);
	if (rc) {
		if (o->sqpoll && (rc == -EPERM || rc == -EINVAL))
			target_set_error(t, "sqpoll: the kernel refused a polling submission thread "
					 "(%s)", strerror(-rc));
		else
			target_set_error(t, "io_uring setup failed: %s", strerror(-rc));
		free(q);
		return rc;
	}
	q->sqpoll = o->sqpoll;
	q->fd = u->fd;
	if (!io_uring_register_files(&q->ring, &u->fd, 1)) {
		q->fixed_file = true;
		q->sqe_flags |= IOSQE_FIXED_FILE;
		q->fd = 0;
	}
	if (u->no_nowait && !o->hipri) {
		/* See the top of the file. Both caps are set: forced-async block-device I/O was seen
		 * on unbound workers too (10-11 workers at QD16-32 on 2 CPUs with the bound cap
		 * alone, kernel 6.18). The cap keeps a deep queue from starting a worker per I/O;
		 * it is a limit, so a failure to set it only leaves io-wq's own. */
		long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		unsigned cap = ncpu > 0 ? (unsigned)ncpu : 1u;
		unsigned max_workers[2] = {cap, cap};

		q->sqe_flags |= IOSQE_ASYNC;
		(void)io_uring_register_iowq_max_workers(&q->ring, max_workers);
	}
	if (o->bufs && o->nbufs) {
		iov = calloc(o->nbufs, sizeof(*iov));
		if (!iov) {
			rc = -ENOMEM;
			goto fail;
		}
		for (unsigned i = 0; i < o->nbufs; i++) {
			iov[i].iov_base = (char *)o->bufs + (size_t)i * o->buf_size;
			iov[i].iov_len = o->buf_size;
		}
		/* Registration can fail on a low RLIMIT_MEMLOCK: plain buffers still work. */
		q->fixed_bufs = !io_uring_register_buffers(&q->ring, iov, o->nbufs);
		free(iov);
	}
	atomic_fetch_add(&u->open_queues, 1);
	*out = q;
	return 0;
fail:
	io_uring_queue_exit(&q->ring);
	free(q);
	return rc;
}

static void uring_queue_close(struct target_queue *q)
{
	if (!q)
		return;
	atomic_fetch_sub(&((struct uring_target *)target_priv(q->t))->open_queues, 1);
	/* The ring drops its registered files and buffers asynchronously when it is torn down,
	 * so the device's O_EXCL claim could outlive target_close() and the next open of the
	 * same device would fail with EBUSY. Unregistering first releases them now. */
	if (q->fixed_file)
		io_uring_unregister_files(&q->ring);
	if (q->fixed_bufs)
		io_uring_unregister_buffers(&q->ring);
	io_uring_queue_exit(&q->ring);
	free(q);
}

static int uring_submit(struct target_queue *q, struct target_io *ios, unsigned n)
{
	int rc;

	for (unsigned i = 0; i < n; i++) {
		const struct target_io *io = &ios[i];
		struct io_uring_sqe *sqe = io_uring_get_sqe(&q->ring);

		if (!sqe) { /* SQ full: hand over what we have and continue */
			rc = io_uring_submit(&q->ring);
			if (rc < 0)
				return rc;
			sqe = io_uring_get_sqe(&q->ring);
			if (!sqe)
				return -EBUSY;
		}
		if (q->fixed_bufs) {
			if (io->dir == IO_READ)
				io_uring_prep_read_fixed(sqe, q->fd, io->buf, io->len, io->offset,
							 io->buf_index);
			else
				io_uring_prep_write_fixed(sqe, q->fd, io->buf, io->len, io->offset,
							  io->buf_index);
		} else {
			if (io->dir == IO_READ)
				io_uring_prep_read(sqe, q->fd, io->buf, io->len, io->offset);
			else
				io_uring_prep_write(sqe, q->fd, io->buf, io->len, io->offset);
		}
		sqe->flags |= q->sqe_flags;
		io_uring_sqe_set_data64(sqe, io->user);
	}
	/* The engine always reaps right after submitting: entering the kernel once there for
	 * both (io_uring_submit_and_wait) halves the system calls at low queue depth. With a
	 * polling kernel thread there is nothing to enter for. */
	if (q->sqpoll) {
		rc = io_uring_submit(&q->ring);
		return rc < 0 ? rc : (int)n;
	}
	q->pending = true;
	return (int)n;
}

static int uring_reap(struct target_queue *q, struct target_completion *c, unsigned min,
		      unsigned max)
{
	unsigned got = 0;
	uint64_t now;

	if (q->pending) {
		/* Submit what submit() queued and wait for `min` completions in one call. */
		int rc = io_uring_submit_and_wait(&q->ring, min);

		q->pending = false;
		if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -ETIME)
			return rc;
	} else if (!min && !io_uring_cq_ready(&q->ring)) {
		/* Completion work pending in the kernel is run only when we enter it. */
		int rc = io_uring_get_events(&q->ring);

		if (rc < 0 && rc != -EINTR && rc != -EAGAIN)
			return rc;
	}
	for (;;) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;

		io_uring_for_each_cqe(&q->ring, head, cqe)
		{
			if (got == max)
				break;
			c[got].user = io_uring_cqe_get_data64(cqe);
			c[got].res = cqe->res;
			got++;
			seen++;
		}
		io_uring_cq_advance(&q->ring, seen);
		if (got >= min || got == max)
			break;
		{
			int rc = io_uring_wait_cqe_nr(&q->ring, &cqe, min - got);

			if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -ETIME)
				return rc;
		}
	}
	now = uring_now(q->t);
	for (unsigned i = 0; i < got; i++)
		c[i].done_ns = now;
	return (int)got;
}

static int uring_discard(struct target *t, uint64_t offset, uint64_t len)
{
	struct uring_target *u = target_priv(t);

	if (u->blockdev) {
		uint64_t range[2] = {offset, len};

		if (ioctl(u->fd, BLKDISCARD, range) < 0) {
			int e = errno;

			target_set_error(t, "discard failed: %s", strerror(e));
			return -e;
		}
		return 0;
	}
	if (fallocate(u->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)offset,
		      (off_t)len) < 0) {
		int e = errno;

		target_set_error(t, "punching a hole failed: %s", strerror(e));
		return -e;
	}
	return 0;
}

static int purge_discard_all(void *ctx)
{
	struct target *t = ctx;

	return uring_discard(t, 0, target_info(t)->capacity);
}

static int purge_reach(void *ctx, const char *what, char *reason, size_t len)
{
	return purge_reach_subsystem(&target_info(ctx)->nvme, NULL, what, reason, len);
}

/* The drive's purge (purge_chain.h) on the open namespace: sanitize, format or discard. */
static int uring_purge_method(struct target *t, const char *want,
			      const struct devchange_ctx *change, struct purge_outcome *out,
			      char *err, size_t errlen)
{
	struct uring_target *u = target_priv(t);
	struct purge_drive d = {
	    .ops = u->ops,
	    .fd = u->fd,
	    .transport = u->purge_tr,
	    .nsid = target_info(t)->nvme.nsid,
	    .discard = purge_discard_all,
	    .reach_ok = purge_reach,
	    .ctx = t,
	    .link = u->purge_link,
	    .change = change,
	};

	return purge_chain_run(&d, want, out, err, errlen);
}

/* A block device's /sys/block/X/stat: every process's I/O, ours included (sectors of 512). */
static int uring_io_counters(struct target *t, struct target_io_counters *c)
{
	struct uring_target *u = target_priv(t);
	struct devinfo_stat st;
	int rc;

	if (!u->blockdev)
		return -EOPNOTSUPP; /* a file's device also carries other files' I/O */
	rc = devinfo_read_stat(NULL, u->dev, &st);
	if (rc)
		return rc;
	c->bytes_read = st.read_sectors * 512;
	c->bytes_written = st.write_sectors * 512;
	return 0;
}

/* The block device's hwmon sensor (host/hwmon.h). A SATA drive's (drivetemp) costs a
 * non-queued SMART/SCT command that drains the drive's queue, so it is refused between series
 * intervals; the runner's phase-boundary snapshots carry a SATA drive's temperature instead. */
static int uring_temperature(struct target *t, double *celsius, unsigned flags)
{
	struct uring_target *u = target_priv(t);

	if (!u->has_temp)
		return -EOPNOTSUPP;
	if ((flags & TARGET_TEMP_CHEAP) && hwmon_temp_drains_queue(&u->temp))
		return -EAGAIN;
	return hwmon_temp_read(&u->temp, celsius);
}

static int uring_flush(struct target *t)
{
	struct uring_target *u = target_priv(t);

	return fsync(u->fd) < 0 ? -errno : 0;
}

/* A snapshot without counters, saying why (docs/results-format.md: raw.no_counters_reason). */
static int snapshot_none(struct target *t, struct snapshot *s, const char *why)
{
	struct json_object *raw = json_object_new_object();
	int e = 0;

	jsonnum_build_add(raw, "no_counters_reason", json_object_new_string(why), &e);
	if (e) {
		json_object_put(raw);
		return e;
	}
	snapshot_release(s);
	snapshot_init(s, "none");
	s->raw = raw;
	s->target_ns = uring_now(t);
	return 0;
}

/*
 * The runner's phase-boundary snapshot: the drive's counters after a flush (what the page
 * cache, the device queue and the drive's write cache hold has not been counted yet), a settle
 * wait and reads until two agree (drive_snapshot_take); while queues are open (a snapshot from
 * inside a job) one read, no flush, no wait. A drive whose reader or database cannot
 * be set up gives "none" with the reason; a failing read or flush is an error (the runner
 * stores "none" and a note).
 */
static int uring_snapshot(struct target *t, struct snapshot *s)
{
	struct uring_target *u = target_priv(t);
	char err[256];
	bool during_io;
	int rc;

	if (!u->has_counters)
		return snapshot_none(t, s, u->no_counters[0] ? u->no_counters : "a file has no drive counters");
	if (!u->ds) {
		rc = drive_snapshot_open(&u->snap_cfg, &u->ds, err, sizeof err);
		if (rc) {
			/* said once, in every snapshot of the run */
			u->has_counters = false;
			snprintf(u->no_counters, sizeof u->no_counters, "%s", err);
			return snapshot_none(t, s, err);
		}
	}
	during_io = atomic_load(&u->open_queues) > 0;
	/* SMART READ DATA and READ LOG EXT are not NCQ commands: the SATA link drains the queue
	 * for each, which would stall the measured I/O right where it starts. So a SATA drive's
	 * snapshot inside a job (the ramp end) is not taken: the measured part's WA is then null
	 * with the reason, and the phase's wa_total spans it. NVMe admin commands run on their own
	 * queue and are read. */
	if (during_io && u->snap_cfg.transport == DRIVEDB_ATA)
		return snapshot_none(t, s, "not read inside a job: a SATA drive's SMART commands are not "
					   "queued and would stall the measured I/O");
	if (!during_io) {
		rc = uring_flush(t);
		if (rc) {
			target_set_error(t, "flush before the snapshot: %s", strerror(-rc));
			return rc;
		}
	}
	rc = drive_snapshot_take(u->ds, during_io, s, err, sizeof err);
	if (rc) {
		target_set_error(t, "%s", err);
		return rc;
	}
	s->target_ns = uring_now(t); /* when the counters were read, after the settle */
	return 0;
}

const struct target_ops target_uring_ops = {
    .name = "uring",
    /* No purge yet: a full-device discard is not a SNIA PTS purge, so the runner's purge
     * phase does that itself and flags it; sanitize, secure erase and format NVM (the real
     * purges of NVMe and ATA drives) come with the real-drive issues. */
    .caps = TARGET_CAP_MULTIQUEUE | TARGET_CAP_NEEDS_DATA | TARGET_CAP_DISCARD,
    .open = uring_open,
    .close = uring_close,
    .queue_open = uring_queue_open,
    .queue_close = uring_queue_close,
    .submit = uring_submit,
    .reap = uring_reap,
    .now = uring_now,
    .discard = uring_discard,
    .drive_purge = uring_purge_method,
    .flush = uring_flush,
    .io_counters = uring_io_counters,
    .snapshot = uring_snapshot,
    .temperature = uring_temperature,
    .reopen = uring_reopen,
};
