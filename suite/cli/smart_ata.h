/* SPDX-License-Identifier: MIT */
/*
 * smart_ata: `ssdlab smart DEV` for a SATA drive (host/ata_live.h through the real ioctl
 * table), and the pieces cmd_smart.c shares with it: the ata-smart snapshot printers and the
 * Device Statistics part of that snapshot's raw keys. The counters come from
 * targets/drive_snapshot.h, the mapping the runner's phase-boundary snapshots use.
 */
#ifndef SSDLAB_CLI_SMART_ATA_H
#define SSDLAB_CLI_SMART_ATA_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/ata_smart.h"
#include "host/devcounters.h"
#include "results/snapshot.h"
#include "targets/drive_snapshot.h"

/* Reads DEV live (or, with dry, prints the commands it would send) and prints it as text or,
 * with json, as an ata-smart snapshot; save (may be NULL) gets the blob. Returns an exit code
 * (cli.h): 4 for a drive without SMART or one that refuses ATA PASS-THROUGH. */
int smart_ata_cmd(const char *dev, bool json, bool dry, const char *save);

/* Adds to the snapshot's raw part "device_statistics": {"P.0xOO": value, ...} from dc's
 * "ata:devstat." keys, and "device_statistics_note": why some or all are missing (note, null
 * when NULL or empty). 0 or -ENOMEM. */
int smart_ata_devstat_json(struct json_object *raw, const struct devcounters *dc, const char *note);

/* `smart --load FILE --json`: the blob's attributes (ata_smart_counters()) mapped to counters
 * by the runner's own mapping (drive_snapshot_build() with the drive database's entry for the
 * blob's model; no sector size: a blob has no Device Statistics) and printed with
 * smart_print_ata_json(), label "load". 0 or -errno with err. */
int smart_ata_load_json(const struct ata_smart *s, char *err, size_t errlen);

/* In cmd_smart.c: the snapshot `smart DEV --json` prints, labelled "now": cfg's drive through
 * targets/drive_snapshot.h (reads until two agree), raw.device = dev. snap is snapshot_init()ed
 * with its source by the caller. 0 or -errno with err. */
int smart_take_now(const struct drive_snapshot_cfg *cfg, const char *dev, struct snapshot *snap, char *err,
		   size_t errlen);

/* In cmd_smart.c: prints snap (counters and raw from targets/drive_snapshot.h) as an ata-smart
 * snapshot after adding to its raw part the identity, SMART status and attribute table of s and,
 * where dc is not NULL, the Device Statistics (smart_ata_devstat_json). 0 or -errno. */
int smart_print_ata_json(const struct ata_smart *s, struct snapshot *snap, const struct devcounters *dc,
			 const char *devstat_note);
void smart_print_ata_text(const struct ata_smart *s);

#endif
