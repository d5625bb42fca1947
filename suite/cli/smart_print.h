/* SPDX-License-Identifier: MIT */
/*
 * smart_print: the output `ssdlab smart` shares between its NVMe/--load path (cmd_smart.c) and
 * its live SATA path (smart_ata.c).
 */
#ifndef SSDLAB_CLI_SMART_PRINT_H
#define SSDLAB_CLI_SMART_PRINT_H

#include <json-c/json.h>
#include <stddef.h>

#include "host/ata_smart.h"
#include "host/devcounters.h"
#include "results/snapshot.h"
#include "targets/drive_snapshot.h"

/* The prefix of the Device Statistics keys (host/devcounters.h). */
#define DEVSTAT_PREFIX "ata:devstat."

/* Prints snap as the snapshot JSON (docs/results-format.md). 0 or -ENOMEM. */
int smart_print_snapshot(const struct snapshot *snap);

/* Adds to the snapshot's raw part "device_statistics": {"P.0xOO": value, ...} from dc's
 * "ata:devstat." keys, and "device_statistics_note": why some or all are missing (note, null
 * when NULL or empty). 0 or -ENOMEM. */
int smart_ata_devstat_json(struct json_object *raw, const struct devcounters *dc, const char *note);

/* The snapshot `smart DEV --json` prints, labelled "now": cfg's drive through
 * targets/drive_snapshot.h (reads until two agree), raw.device = dev. snap is snapshot_init()ed
 * with its source by the caller. 0 or -errno with err. */
int smart_take_now(const struct drive_snapshot_cfg *cfg, const char *dev, struct snapshot *snap, char *err,
		   size_t errlen);

/* Prints snap (counters and raw from targets/drive_snapshot.h) as an ata-smart
 * snapshot after adding to its raw part the identity, SMART status and attribute table of s and,
 * where dc is not NULL, the Device Statistics (smart_ata_devstat_json). 0 or -errno. */
int smart_print_ata_json(const struct ata_smart *s, struct snapshot *snap, const struct devcounters *dc,
			 const char *devstat_note);
void smart_print_ata_text(const struct ata_smart *s);

#endif
