/* SPDX-License-Identifier: MIT */
/*
 * drive_ident: who a drive says it is, read once and used everywhere (issue 11 point 1: "the
 * same identity goes into every manifest and destructive confirmation"). `ssdlab info` shows it,
 * the target keeps it for the manifest and `io --json` (target.drive), and the safety gate
 * prints it in the confirmation. It sits in the host layer so that the targets and the runner
 * can read it without the CLI.
 *
 * Two sources: sysfs (devinfo.h: always there, also for a loop device or a USB bridge) and the
 * drive itself through the ioctl table: NVMe Identify Controller and Namespace and Get Features
 * VWC/APST (nvme_ident.h); ATA IDENTIFY DEVICE and READ NATIVE MAX ADDRESS EXT (ata_identify.h).
 * A drive that refuses the commands (no CAP_SYS_RAWIO, a bridge without ATA PASS-THROUGH) keeps
 * its sysfs identity and the reason.
 */
#ifndef SSDLAB_HOST_DRIVE_IDENT_H
#define SSDLAB_HOST_DRIVE_IDENT_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "host/ata_identify.h"
#include "host/devinfo.h"
#include "host/ioctl_ops.h"
#include "host/nvme_ident.h"

/* What NVMe Identify and Get Features say. */
struct drive_ident_nvme {
	bool ok;	/* Identify Controller and Namespace read */
	char err[256];	/* why not, when !ok */
	struct nvme_id_ctrl c;
	struct nvme_id_ns ns;
	int vwc_enabled;  /* 1/0, -1 unknown (no cache, or Get Features failed) */
	int apst_enabled; /* 1/0, -1 unknown (not supported, or Get Features failed) */
};

/* What ATA IDENTIFY DEVICE and READ NATIVE MAX ADDRESS EXT say. */
struct drive_ident_ata {
	bool read;     /* IDENTIFY answered */
	char why[256]; /* why not, when !read */
	struct ata_identity id;
	struct ata_hpa hpa;
};

enum drive_ident_kind {
	DRIVE_IDENT_OTHER = 0, /* neither NVMe nor SATA: sysfs only, no command sent */
	DRIVE_IDENT_NVME,
	DRIVE_IDENT_SATA,
};

struct drive_ident {
	enum drive_ident_kind kind;
	char transport[16]; /* sysfs (devinfo_link): "nvme", "sata", "usb", "loop" ... ("" unknown) */
	char alpm[64];	    /* SATA: the host's link power management policy ("" unknown) */
	uint32_t nsid;	    /* NVMe: the namespace asked (0: not NVMe) */
	/* sysfs's identity, kept also when the drive answered */
	char model[DEVINFO_MODEL_LEN];
	char serial[DEVINFO_SERIAL_LEN];
	char firmware[DEVINFO_FIRMWARE_LEN];
	uint64_t capacity; /* bytes */
	bool read;	   /* the drive answered: nvme.ok or ata.read */
	char reason[320];  /* why not, when !read */
	struct drive_ident_nvme nvme;
	struct drive_ident_ata ata;
};

/* NVMe Identify Controller, Identify Namespace nsid and the VWC/APST features through ops on an
 * open fd (_fd) or on dev opened read-only (_read). Never fails: n->err says what went wrong. */
void drive_ident_nvme_fd(const struct ioctl_ops *ops, int fd, uint32_t nsid, struct drive_ident_nvme *n);
void drive_ident_nvme_read(const struct ioctl_ops *ops, const char *dev, uint32_t nsid,
			   struct drive_ident_nvme *n);

/* ATA IDENTIFY DEVICE, then READ NATIVE MAX ADDRESS EXT (HPA), through ops; as above. */
void drive_ident_ata_fd(const struct ioctl_ops *ops, int fd, struct drive_ident_ata *a);
void drive_ident_ata_read(const struct ioctl_ops *ops, const char *dev, struct drive_ident_ata *a);

/* Adds "nvme_identify": {...} (info's key, docs/results-format.md) to o. 0 or -ENOMEM. */
int drive_ident_nvme_json(struct json_object *o, const struct drive_ident_nvme *n);
/* Adds "ata": {...} (info's key) to o; alpm decides whether HIPM is in use. 0 or -ENOMEM. */
int drive_ident_ata_json(struct json_object *o, const struct drive_ident_ata *a, const char *alpm);
/* "active", "none" or "unknown": HPA state from native against current max. */
const char *drive_ident_hpa_state(const struct drive_ident_ata *a);
/* Whether HIPM is in use: the drive accepts it (IDENTIFY word 76 bit 9) and the host's policy
 * alpm uses it. 1/0, -1 unknown (no SATA capability words, or alpm ""). */
int drive_ident_hipm_in_use(const struct ata_identity *d, const char *alpm);

/*
 * The sysfs part for the block device dev (sysfs_root NULL: /sys): kind from the transport,
 * nsid, model, serial, firmware, capacity. Sends nothing. 0, or -errno when sysfs does not know
 * the device (d then holds kind OTHER and the reason).
 */
int drive_ident_sysfs(const char *sysfs_root, dev_t dev, struct drive_ident *d);

/* Asks the drive through ops on fd (open, read-only is enough) as its kind says; a kind OTHER
 * is not asked (reason says so). Never fails: d->read and d->reason tell. */
void drive_ident_ask(const struct ioctl_ops *ops, int fd, struct drive_ident *d);

/* The model, serial and firmware to show: the drive's own when it answered, else sysfs's. */
const char *drive_ident_model(const struct drive_ident *d);
const char *drive_ident_serial(const struct drive_ident *d);
const char *drive_ident_firmware(const struct drive_ident *d);

/*
 * The manifest's and `io --json`'s target.drive (docs/results-format.md): transport, source
 * ("nvme-identify", "ata-identify", "sysfs"), read, reason, model, serial, firmware, capacity,
 * and info's "nvme_identify" (with nsid) or "ata" object. A new object, or NULL (no memory).
 */
struct json_object *drive_ident_to_json(const struct drive_ident *d);

/* One line for the confirmation: "transport nvme, namespace 1, LBA format #0 (512 B data,
 * 0 B metadata)", "transport sata, HPA none (native max LBA 393215 = current)", or why the
 * drive's own identity is missing. Always NUL-terminated. */
void drive_ident_summary(const struct drive_ident *d, char *buf, size_t len);

#endif
