/* SPDX-License-Identifier: MIT */
/*
 * devinfo: identity and state of a block device from sysfs (and udev's database as a fallback
 * for identity), read-only and without ioctls, so that it works on any device node and can be
 * tested against a fake tree.
 *
 * A device is found by its dev_t through <sysfs>/dev/block/MAJ:MIN. Queue attributes of a
 * partition are those of its disk (<dir>/../queue). Identity comes from the driver's sysfs
 * files where it has them (NVMe: device/{model,serial,firmware_rev}, wwid; SCSI/SATA:
 * device/{vendor,model,rev,wwid}, device/vpd_pg80 for the serial; virtio: serial), else from
 * <udev>/data/bMAJ:MIN (ID_MODEL, ID_SERIAL_SHORT, ID_WWN, ID_REVISION).
 *
 * Also here: /sys/block/X/stat counters (to detect other processes' I/O during a job), and two
 * checks on regular files (holes or unwritten extents that would read back zeros without
 * touching the device; file systems on which O_DIRECT is emulated).
 */
#ifndef SSDLAB_DEVINFO_H
#define SSDLAB_DEVINFO_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct devinfo_roots {
	const char *sysfs; /* NULL = "/sys" */
	const char *udev;  /* NULL = "/run/udev" */
};

struct devinfo {
	char name[64];	     /* kernel name: "sda", "sda1", "nvme0n1", "loop3" */
	char disk[64];	     /* the whole disk ("sda" for "sda1"; = name for a disk) */
	bool partition;
	char model[64];
	char serial[64];
	char wwn[64];
	char firmware[32];
	uint64_t capacity; /* bytes (size x 512) */
	uint32_t logical_block_size, physical_block_size;
	bool rotational;
	char scheduler[32]; /* the active one, "none" ... ("" unknown) */
	int nomerges;	    /* -1 unknown */
	uint32_t hw_queue_depth; /* queue/nr_requests; 0 unknown */
	int io_poll;		 /* queue/io_poll: 1 polled queues present, 0 not, -1 unknown */
	uint64_t discard_max_bytes;
	int loop_dio;		      /* loop devices: loop/dio (1 direct I/O, 0 buffered), -1 other */
	char backing_file[PATH_MAX]; /* loop devices: loop/backing_file */
};

/* Fills *di for the block device dev. -ENOENT when sysfs does not know it. */
int devinfo_read(const struct devinfo_roots *r, dev_t dev, struct devinfo *di);

/* /sys/block/X/stat (Documentation/block/stat.rst); sectors are 512 bytes whatever the device. */
struct devinfo_stat {
	uint64_t read_ios, read_sectors, write_ios, write_sectors;
	uint64_t discard_ios, discard_sectors, flush_ios;
};
/* Reads the stat file of the device dev. */
int devinfo_read_stat(const struct devinfo_roots *r, dev_t dev, struct devinfo_stat *st);

/*
 * Regular files: bytes of [0, size) that are holes or unwritten (fallocated) extents, from
 * FIEMAP (or SEEK_HOLE where FIEMAP is missing). 0 = every byte was written. -errno when it
 * cannot be told.
 */
int devinfo_file_unwritten(int fd, uint64_t size, uint64_t *unwritten);

/* Regular files: is the file system one where O_DIRECT does not reach a device (tmpfs, ramfs)?
 * Returns 1 (and its name in fs, e.g. "tmpfs"), 0, or -errno. */
int devinfo_file_memfs(int fd, char *fs, size_t len);

/* The clock source of CLOCK_MONOTONIC ("tsc", "kvm-clock", ...), or "" when unknown. */
void devinfo_clocksource(const struct devinfo_roots *r, char *buf, size_t len);

#endif
