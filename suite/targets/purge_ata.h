/* SPDX-License-Identifier: MIT */
/*
 * purge_ata: a SATA drive's purge methods of the purge chain (targets/purge_chain.h) carried out:
 * ata-sanitize-block, ata-sanitize-crypto and ata-security-erase (host/ata_purge.h). The drive is
 * checked first from a fresh IDENTIFY (frozen, locked, a password already set, a USB bridge, the
 * command missing: refused with the reason, nothing sent). A security erase sets the user
 * password through devchange_set (kind `security`), so the password is in the journal, fsync'ed,
 * before SECURITY SET PASSWORD is sent; the erase clears it on success, and when it fails the
 * drive may stay locked: the run's restore (or `ssdlab restore DIR`) unlocks it and disables the
 * password. A crypto scramble leaves the mapping in place: the caller follows it with a
 * full-device discard (the row's discard_after).
 */
#ifndef SSDLAB_TARGETS_PURGE_ATA_H
#define SSDLAB_TARGETS_PURGE_ATA_H

#include <stddef.h>

#include "host/ata_purge.h"
#include "targets/devchange.h"

/* What was done, for the purge record. */
struct purge_ata_done {
	bool enhanced;	     /* a security erase in its enhanced form */
	uint32_t timeout_ms; /* the SG_IO timeout of SECURITY ERASE UNIT (0 for a sanitize) */
};

/*
 * Whether the SATA drive on fd can be purged with method (one of the three above), from a fresh
 * IDENTIFY: 0, or -errno with why (ata_purge_check's refusals; -EINVAL for another method).
 * in_auto: the purge chain's auto walk is asking, which takes a security erase only in its
 * enhanced form (the normal one need only write the user LBAs, ACS-3 7.49.1, not the spare).
 */
int purge_ata_check(const struct ioctl_ops *ops, int fd, const char *link, const char *method,
		    bool in_auto, char *why, size_t len);

/*
 * Purges the SATA drive of c with method (one of the three above; link as purge_facts.link).
 * Returns 0 with *done filled; -EINVAL for another method; the refusal of ata_purge_check();
 * or the drive's answer (-EIO with it in err). With c->dry_run: prints the commands to
 * c->dry_out and sends nothing but IDENTIFY (the check needs it).
 */
int purge_ata_run(const struct devchange_ctx *c, const char *link, const char *method,
		  const struct ata_poll *poll, struct purge_ata_done *done, char *err,
		  size_t errlen);

#endif
