/* SPDX-License-Identifier: MIT */
/*
 * purge_chain: the one table of a real drive's purge methods (issue 13 point 4): what each is
 * called in a profile's purge `method`, whether it is a SNIA PTS purge, whether a full-device
 * discard must follow it (a crypto erase can leave LBAs mapped), and whether this drive can do
 * it (from facts read before: IDENTIFY for a SATA drive, Identify Controller for NVMe, the
 * transport). `auto` walks the rows marked in_auto in table order and takes the first the
 * drive can do, recording why each earlier one was skipped:
 *
 *   ata-sanitize-block -> nvme-sanitize (block erase) -> nvme-format (user-data erase)
 *     -> ata-security-erase (enhanced only) -> discard (not a PTS purge)
 *
 * A new method is one row in purge_chain.c (its usable() and flags); a sending module (host/
 * ata_purge, host/nvme_format) does the work. Pure: no I/O; only purge_chain_record allocates
 * (the JSON it adds).
 */
#ifndef SSDLAB_TARGETS_PURGE_CHAIN_H
#define SSDLAB_TARGETS_PURGE_CHAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "host/ata_purge.h"
#include "host/drivedb.h"

struct json_object;

#define PURGE_CHAIN_MAX 16
#define PURGE_WHY_MAX 384

/* What is known of the drive before a purge. */
struct purge_facts {
	enum drivedb_transport transport;
	const char *link; /* sysfs: "sata", "nvme", "usb" ... (NULL or "" unknown) */
	bool ata_known;	  /* SATA: IDENTIFY answered, ata holds it */
	struct ata_purge_caps ata;
	bool nvme_known;	  /* NVMe: Identify Controller answered */
	bool nvme_format;	  /* OACS bit 1: Format NVM */
	bool nvme_sanitize_block; /* SANICAP bit 1: block erase sanitize */
	bool discard;		  /* the block device takes a discard (BLKDISCARD) */
};

struct purge_row {
	const char *method; /* the profile's name: "ata-sanitize-block" */
	bool in_auto;	    /* a step of the auto chain (table order) */
	bool pts_purge;	    /* a SNIA PTS purge; false: the results flag it (the discard) */
	bool discard_after; /* a full-device discard follows before it counts as fresh-out-of-box */
	/* 0 when the drive can do it, else -errno and the reason in why. in_auto: the stricter
	 * choice of the auto chain (an ATA security erase only in its enhanced form). */
	int (*usable)(const struct purge_facts *f, bool in_auto, char *why, size_t len);
};

/* The rows, in the auto chain's order; *n their count. */
const struct purge_row *purge_chain_rows(size_t *n);
/* The row named method, or NULL. */
const struct purge_row *purge_chain_find(const char *method);

struct purge_skip {
	const char *method;
	char why[PURGE_WHY_MAX];
};

struct purge_choice {
	const struct purge_row *row; /* NULL when nothing (not even a discard) is possible */
	struct purge_skip skipped[PURGE_CHAIN_MAX]; /* the auto rows passed over, in order */
	size_t nskipped;
	char why[PURGE_WHY_MAX]; /* an explicit method's refusal, or auto's "no method" */
};

/*
 * Chooses the purge for method ("auto" or a row's name) on the drive of f. Returns 0 with
 * out->row; -EINVAL for an unknown method; for an explicit method the drive cannot do, its
 * usable() error with the reason in out->why (never a fall-back to another method); for auto,
 * -EOPNOTSUPP when no row is usable (every reason in skipped).
 */
int purge_chain_choose(const struct purge_facts *f, const char *method, struct purge_choice *out);

/*
 * Adds the choice to a purge record (docs/results-format.md, the purge record): "requested"
 * (method as the profile gave it), "method" (the row taken), "pts_purge", "discard_after" and
 * "skipped" ([{"method", "why"}], the auto rows passed over, in order; [] when none). Returns 0
 * or -ENOMEM (rec then partly filled; the caller drops it).
 */
int purge_chain_record(const struct purge_choice *c, const char *requested,
		       struct json_object *rec);

#endif
