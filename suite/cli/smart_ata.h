/* SPDX-License-Identifier: MIT */
/*
 * smart_ata: `ssdlab smart DEV` for a SATA drive (host/ata_live.h through the real ioctl
 * table); the printers it shares with cmd_smart.c are in cli/smart_print.h. The counters come from
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
#include "cli/smart_print.h"

/* Reads DEV live (or, with dry, prints the commands it would send) and prints it as text or,
 * with json, as an ata-smart snapshot; save (may be NULL) gets the blob. Returns an exit code
 * (cli.h): 4 for a drive without SMART or one that refuses ATA PASS-THROUGH. */
int smart_ata_cmd(const char *dev, bool json, bool dry, const char *save);

/* `smart --load FILE --json`: the blob's attributes (ata_smart_counters()) mapped to counters
 * by the runner's own mapping (drive_snapshot_build() with the drive database's entry for the
 * blob's model; no sector size: a blob has no Device Statistics) and printed with
 * smart_print_ata_json(), label "load". 0 or -errno with err. */
int smart_ata_load_json(const struct ata_smart *s, char *err, size_t errlen);


#endif
