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
 * An ATA disk behind the kernel's SCSI translation (libata, SAT bridges) reports a SCSI INQUIRY
 * whose product field holds 16 characters of the 40-character ATA model ("Samsung SSD 870 EVO
 * 1TB" reads "Samsung SSD 870 ") and 4 of the 8 of its firmware revision. Its model, serial and
 * firmware are therefore taken from the ATA IDENTIFY data first: sysfs device/vpd_pg89 (SAT's
 * ATA Information VPD page), else udev's database when udev's ata_id read IDENTIFY (ID_ATA=1:
 * ID_MODEL_ENC, ID_SERIAL_SHORT, ID_REVISION).
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

/*
 * Identity field sizes, from what the sources can hold, plus the NUL. A value longer than its
 * field is dropped, never cut: a prefix of an identifier is not the identifier, and the serial
 * and WWN are what a destructive action is confirmed with (safety.h).
 *  - model: NVMe Identify Controller MN, 40 bytes; ATA IDENTIFY words 27-46, 40 characters;
 *    SCSI INQUIRY product, 16.
 *  - serial: NVMe SN, 20 bytes; ATA words 10-19, 20 characters; virtio, 20; SCSI VPD page 0x80
 *    has a 16-bit length, of which at most 255 bytes are read.
 *  - wwn: the kernel's wwid attribute. NVMe (drivers/nvme/host/core.c, wwid_show()): "uuid." +
 *    36, "eui." + 32 hex, or for a namespace with neither "nvme.VVVV-<serial in hex>-<model in
 *    hex>-NNNNNNNN", at most 5 + 4 + 1 + 40 + 1 + 80 + 1 + 8 = 140. SCSI (drivers/scsi/
 *    scsi_lib.c, scsi_vpd_lun_id()): "naa." or "eui." + at most 32 hex, a SCSI name string of at
 *    most 255, or "t10." + a T10 vendor ID designator of up to 255 bytes printed with %pE, which
 *    escapes a non-printable byte as 4 characters: at most 4 + 4 x 255 = 1024. (libata's form for
 *    a SATA disk without a WWN is "t10.ATA     " + the 40-character model + the 20-character
 *    serial: 72, trailing spaces included.) udev's ID_WWN: "0x" + 16 hex.
 *  - firmware: NVMe FR, 8 bytes; ATA words 23-26, 8 characters; SCSI INQUIRY revision, 4.
 */
#define DEVINFO_MODEL_LEN 64
#define DEVINFO_SERIAL_LEN 256
#define DEVINFO_WWN_LEN 1025
#define DEVINFO_FIRMWARE_LEN 32

struct devinfo {
	char name[64];	     /* kernel name: "sda", "sda1", "nvme0n1", "loop3" */
	char disk[64];	     /* the whole disk ("sda" for "sda1"; = name for a disk) */
	bool partition;
	char model[DEVINFO_MODEL_LEN];
	char serial[DEVINFO_SERIAL_LEN];
	char wwn[DEVINFO_WWN_LEN];
	char firmware[DEVINFO_FIRMWARE_LEN];
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

/*
 * For an NVMe namespace, where it sits: a format or sanitize reaches beyond the one block device
 * named (a sanitize the whole subsystem's NVM, a format with secure erase possibly every
 * namespace of the controller), so the safety checks must look at all of it. All empty for a
 * device that is not an NVMe namespace.
 */
struct devinfo_nvme {
	char ns[32];	     /* block device of the namespace: "nvme0n1" ("" = not NVMe) */
	unsigned nsid;	     /* namespace ID (0 unknown) */
	char controller[32]; /* the controller: "nvme0" ("" unknown, e.g. a multipath head) */
	char subsystem[32];  /* "nvme-subsys0" ("" unknown) */
	char subsysnqn[256]; /* the subsystem's NQN ("" unknown) */
	/* every namespace block device of the subsystem (this one included), space-separated */
	char subsystem_ns[256];
};

/*
 * Fills *nv for the disk called name ("nvme0n1"; a partition's disk is the caller's to find):
 * <sysfs>/block/NAME/nsid, its device link (the controller, or the subsystem for a multipath
 * head node), and <sysfs>/class/nvme-subsystem/<subsys>/ (subsysnqn, its controllers and
 * namespace entries). -ENODEV (and *nv zeroed) when name is not an NVMe namespace.
 */
int devinfo_nvme_topology(const struct devinfo_roots *r, const char *name, struct devinfo_nvme *nv);

/*
 * What `ssdlab info` shows beyond identity, from sysfs only (ATA IDENTIFY and NVMe Identify
 * are not read here). Strings are "" and numbers -1 where sysfs cannot tell: never a guess.
 */
struct devinfo_link {
	/* "sata", "nvme", "usb" (a USB bridge), "virtio", "loop", "zram", "scsi" or "unknown",
	 * from the device's path under <sysfs>/devices */
	char transport[16];
	char link_speed[64];  /* NVMe: PCIe current_link_speed ("8.0 GT/s PCIe"); SATA: sata_spd */
	int link_width;	      /* NVMe: PCIe current_link_width (lanes) */
	int64_t discard_granularity; /* queue/discard_granularity, bytes */
	char write_cache[16]; /* queue/write_cache: "write back" or "write through" */
	char alpm[64];	      /* SATA: scsi_host's link_power_management_policy */
	/* NVMe: the controller's power/pm_qos_latency_tolerance_us, the bound the kernel gives
	 * APST ("0" or "off": APST off); "" where the controller has no such file */
	char apst_latency[32];
	int numa_node;	      /* numa_node of the nearest device above that has one (-1: none) */
	bool numa_known;
	/* offers: 1 yes, 0 no, -1 unknown */
	int smart, write_cache_control;
};

/* Fills *x for the disk holding dev (a partition's disk). -ENOENT when sysfs does not know it. */
int devinfo_link_read(const struct devinfo_roots *r, dev_t dev, struct devinfo_link *x);

/* Fills *di for the block device dev. -ENOENT when sysfs does not know it. */
int devinfo_read(const struct devinfo_roots *r, dev_t dev, struct devinfo *di);

/* /sys/block/X/stat (Documentation/block/stat.rst); sectors are 512 bytes whatever the device. */
struct devinfo_stat {
	uint64_t read_ios, read_sectors, write_ios, write_sectors;
	uint64_t discard_ios, discard_sectors, flush_ios;
	uint64_t in_flight; /* requests the block layer has not finished accounting */
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
