/* SPDX-License-Identifier: MIT */
/*
 * ata_live: reads a SATA drive's SMART state live through the ioctl table (host/ata_cmd.h) and
 * decodes it with the same code as a saved blob: IDENTIFY, SMART RETURN STATUS, SMART READ DATA
 * and SMART READ THRESHOLDS are assembled into libatasmart's blob format (what `skdump --save`
 * writes, reference D) and handed to ata_smart_decode_blob(), so the live and offline paths are
 * one decoder and `--save` writes a blob `skdump --load` reads. The Device Statistics log (GP
 * log 0x04; ACS-3 9.5) pages 0x01 (General Statistics) and 0x07 (Solid State Device
 * Statistics) add counters under "ata:devstat.P.0xOO" (host/devcounters.h), each qword only
 * with its supported (bit 63) and valid (bit 62) flags set.
 */
#ifndef SSDLAB_HOST_ATA_LIVE_H
#define SSDLAB_HOST_ATA_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/ata_cmd.h"
#include "host/ata_identify.h"
#include "host/ata_smart.h"
#include "host/devcounters.h"

/* IDFY + SMST + SMDT + SMTH: four 8-byte headers, three 512-byte blocks and 4 bytes. */
#define ATA_LIVE_BLOB_MAX (4 * 8 + 3 * ATA_SECTOR + 4)

/* Device Statistics offsets used by name (ACS-3 table A.7, A.13). */
#define ATA_DEVSTAT_GENERAL 0x01
#define ATA_DEVSTAT_SSD 0x07
#define ATA_DEVSTAT_LOGICAL_SECTORS_WRITTEN 0x18 /* page 0x01 */
#define ATA_DEVSTAT_LOGICAL_SECTORS_READ 0x28	 /* page 0x01 */
#define ATA_DEVSTAT_PERCENT_USED 0x08		 /* page 0x07, low byte */

struct ata_live {
	uint8_t blob[ATA_LIVE_BLOB_MAX];
	size_t blob_len;
	struct ata_identity ident;
	struct ata_smart smart;	 /* ata_smart_decode_blob() of blob */
	struct devcounters dc;	 /* ata_smart_counters() + the Device Statistics keys */
	bool devstat_read;	 /* at least one Device Statistics page was read */
	char devstat_note[192];	 /* why not, when !devstat_read */
};

/* The commands ata_live_read() sends, in order, at most max of them (for --dry-run): the
 * READ LOG EXT ones go only to a drive whose IDENTIFY reports GPL and whose page 0x00 lists
 * the page. Returns how many there are. */
size_t ata_live_plan(struct ata_cmd *cmds, size_t max);

/*
 * Reads everything above. -EOPNOTSUPP with a message for a drive without SMART or with SMART
 * disabled; -errno (-EIO for an ATA error) with a message when a command fails. A Device
 * Statistics log the drive lacks or refuses is not an error: devstat_note says why. *out
 * (caller-allocated, large: put it on the heap) holds what was read so far on failure.
 */
int ata_live_read(const struct ioctl_ops *ops, int fd, struct ata_live *out, char *err, size_t errlen);

/* Adds the qwords of one 512-byte Device Statistics page that are supported and valid to dc
 * under "ata:devstat.<page>.0x<offset>", value = bits 47:0. A page whose header names another
 * page number is -EINVAL; otherwise 0 or -ENOSPC. */
int ata_devstat_counters(const uint8_t pagebuf[ATA_SECTOR], uint8_t page, struct devcounters *dc);

#endif
