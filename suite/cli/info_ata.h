/* SPDX-License-Identifier: MIT */
/*
 * info_ata: the part of `ssdlab info DEV` that asks a SATA drive itself (IDENTIFY DEVICE and
 * READ NATIVE MAX ADDRESS EXT through host/ata_identify.h): the full 40-character model, ACS
 * version, sector sizes, SMART, write cache, TRIM, HPA state, security, sanitize, DEVSLP and
 * ALPM (HIPM/DIPM). sysfs alone cannot tell most of these.
 */
#ifndef SSDLAB_CLI_INFO_ATA_H
#define SSDLAB_CLI_INFO_ATA_H

#include <json-c/json.h>
#include <stdbool.h>

#include "host/ata_identify.h"

struct info_ata {
	bool read;     /* IDENTIFY answered */
	char why[256]; /* why not, when !read */
	struct ata_identity id;
	struct ata_hpa hpa;
};

/* Opens dev read-only and reads it; never fails: out->why says what went wrong. */
void info_ata_read(const char *dev, struct info_ata *out);

/* --dry-run: prints the commands info_ata_read() would send. */
void info_ata_dry(const char *dev);

/* Adds "ata": {...} to o (docs/results-format.md); alpm is the host's link power management
 * policy from sysfs ("" unknown), which decides whether HIPM is in use. 0 or -ENOMEM. */
int info_ata_json(struct json_object *o, const struct info_ata *a, const char *alpm);

/* The same as indented text lines. */
void info_ata_text(const struct info_ata *a, const char *alpm);

#endif
