/* SPDX-License-Identifier: MIT */
/*
 * info_ata: the text of the part of `ssdlab info DEV` that asks a SATA drive itself (IDENTIFY
 * DEVICE and READ NATIVE MAX ADDRESS EXT, read by host/drive_ident.h): the full 40-character model, ACS
 * version, sector sizes, SMART, write cache, TRIM, HPA state, security, sanitize, DEVSLP and
 * ALPM (HIPM/DIPM). sysfs alone cannot tell most of these.
 */
#ifndef SSDLAB_CLI_INFO_ATA_H
#define SSDLAB_CLI_INFO_ATA_H

#include <json-c/json.h>
#include <stdbool.h>

#include "host/drive_ident.h"

/* --dry-run: prints the commands drive_ident_ata_fd() sends. */
void info_ata_dry(const char *dev);

/* What drive_ident_ata_fd() read (host/drive_ident.h) as info's indented text lines; alpm is
 * the host's link power management policy ("" unknown). Its JSON is drive_ident_ata_json(). */
void info_ata_text(const struct drive_ident_ata *a, const char *alpm);

#endif
