// SPDX-License-Identifier: MIT
/*
 * purge_chain: the purge phase's methods for a real drive (issue 13 point 4), one row of a
 * table each, in the order `auto` tries them: a block-erase sanitize, an NVMe format with
 * user-data erase, an ATA enhanced security erase (targets/purge_ata.h), then a full-device
 * discard, which is not a SNIA PTS purge and is flagged so. `auto` records why each earlier row was
 * skipped; a method named in the profile runs that row alone and fails with its reason.
 *
 * Every row checks what the drive says it can do (Identify Controller OACS / FNA / SANICAP)
 * before it sends anything. A row whose command reaches beyond the namespace (a sanitize: the
 * whole subsystem; a format when FNA bit 0 or 1 says it reaches every namespace) first asks the
 * caller's reach hook, which runs the safety gate's in-use checks on every namespace it reaches
 * (host/safety.h, whole_subsystem). A crypto erase leaves LBAs mapped, so it is followed by a
 * full-device discard before the purge counts as fresh-out-of-box. After an NVMe format the LBA
 * format (FLBAS) is read again and must be the one the namespace had.
 */
#ifndef SSDLAB_TARGETS_PURGE_CHAIN_H
#define SSDLAB_TARGETS_PURGE_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "host/ioctl_ops.h"
#include "host/nvme_format.h"

struct devchange_ctx;

/* How the drive is attached (sysfs): which rows can apply. */
enum purge_transport { PURGE_OTHER = 0, PURGE_NVME, PURGE_ATA };

/* The drive a purge is sent to, and the caller's hooks. */
struct purge_drive {
	const struct ioctl_ops *ops; /* NULL: ioctl_ops_real */
	int fd;			     /* the block device, open */
	enum purge_transport transport;
	uint32_t nsid; /* NVMe: the namespace */
	/* the full-device discard (the fallback, and after a crypto erase); NULL: none */
	int (*discard)(void *ctx);
	/* 0 when every namespace of the drive's subsystem may be erased (in-use checks); -EPERM
	 * with the reason otherwise. NULL: refuse every command that reaches beyond the namespace.
	 */
	int (*reach_ok)(void *ctx, const char *what, char *reason, size_t len);
	void *ctx;
	const struct nvme_wait *wait; /* sanitize polling (NULL: 1 s, no bound) */
	bool dry_run;		      /* print the commands to dry_out, send nothing */
	const char *link; /* sysfs transport ("sata", "usb"): the ATA rows refuse a USB bridge */
	/* the journal, for what a purge sets first (an ATA security erase's password:
	 * targets/purge_ata.h); NULL: the security erase is refused */
	const struct devchange_ctx *change;
	FILE *dry_out; /* NULL: stdout */
};

/* What a purge did. */
struct purge_outcome {
	char method[64];     /* the row that ran: "nvme-sanitize (block erase)", "discard" */
	bool pts_purge;	     /* false when a discard stood in */
	bool discard_after;  /* a crypto erase, followed by a full discard */
	bool all_namespaces; /* the command reached every namespace of the subsystem */
	char skipped[1024];  /* "nvme-sanitize: ...; nvme-format: ..." ("" when none) */
};

/* The method names a profile may give (besides "auto"), in `auto` order; NULL-terminated. */
extern const char *const purge_chain_names[];

/*
 * Purges d by method want ("auto" or a row's name). 0 with *out filled; -EOPNOTSUPP with the
 * reason (or, for auto, every row's) when no row applies; -EPERM when the reach check refuses;
 * other -errno with err. out is filled as far as the purge got, whatever the return.
 */
int purge_chain_run(const struct purge_drive *d, const char *want, struct purge_outcome *out,
		    char *err, size_t errlen);

/*
 * The reach check for a real NVMe namespace: every other namespace block device of its subsystem
 * (nv->subsystem_ns, from sysfs) must pass the safety gate's in-use checks (mounted, swap,
 * holders, root disk, and an O_EXCL open); the target's own namespace passed the gate already and
 * is held open by the caller. 0, or -EPERM naming the namespace and why. o: the safety options
 * (roots for tests; NULL: the real /sys and /proc).
 */
struct devinfo_nvme;
struct safety_opts;
int purge_reach_subsystem(const struct devinfo_nvme *nv, const struct safety_opts *o,
			  const char *what, char *reason, size_t len);

#endif
