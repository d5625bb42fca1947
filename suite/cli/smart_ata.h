/* SPDX-License-Identifier: MIT */
/*
 * smart_ata: `ssdlab smart DEV` for a SATA drive (host/ata_live.h through the real ioctl
 * table), and the pieces cmd_smart.c shares with it: the ata-smart snapshot printers and the
 * Device Statistics part of that snapshot.
 */
#ifndef SSDLAB_CLI_SMART_ATA_H
#define SSDLAB_CLI_SMART_ATA_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

#include "host/ata_smart.h"
#include "host/devcounters.h"
#include "results/snapshot.h"

/* Reads DEV live (or, with dry, prints the commands it would send) and prints it as text or,
 * with json, as an ata-smart snapshot; save (may be NULL) gets the blob. Returns an exit code
 * (cli.h): 4 for a drive without SMART or one that refuses ATA PASS-THROUGH. */
int smart_ata_cmd(const char *dev, bool json, bool dry, const char *save);

/* Adds to the snapshot's raw part "device_statistics": {"P.0xOO": value, ...} from dc's
 * "ata:devstat." keys, and "device_statistics_note": why some or all are missing (note, null
 * when NULL or empty). 0 or -ENOMEM. */
int smart_ata_devstat_json(struct json_object *raw, const struct devcounters *dc, const char *note);

/* Sets the snapshot counters the Device Statistics give: host_bytes_written and
 * host_bytes_read (page 0x01 logical sectors x sector_bytes), percentage_used (page 0x07).
 * 0 or -errno from snapshot_set. */
int smart_ata_devstat_snapshot(const struct devcounters *dc, uint32_t sector_bytes, struct snapshot *snap);

/* In cmd_smart.c: s as an ata-smart snapshot labelled label (dc, sector_bytes and
 * devstat_note: the Device Statistics, NULL, 0 and NULL for a saved blob), or as the text table. */
int smart_print_ata_json(const struct ata_smart *s, const char *label, const struct devcounters *dc,
			 uint32_t sector_bytes, const char *devstat_note);
void smart_print_ata_text(const struct ata_smart *s);

#endif
