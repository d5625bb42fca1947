/* SPDX-License-Identifier: MIT */
/*
 * hpa_report: what `ssdlab hpa DEV` prints about a SATA drive's capacity (host/ata_hpa.h's
 * state: native against current max, hidden bytes, method HPA or AMAC, DCO, security) as text
 * and as JSON, and the max LBA a --set BYTES|PERCENT asks for. Kept apart from cmd_hpa.c (which
 * opens the device) so that the tests feed it a scripted drive's state.
 */
#ifndef SSDLAB_CLI_HPA_REPORT_H
#define SSDLAB_CLI_HPA_REPORT_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "host/ata_hpa.h"

/*
 * The max LBA for --set spec: "N%" of the native capacity (sectors rounded down), or a size
 * ("200g", units.h) rounded down to whole sectors; 0 or -EINVAL/-ERANGE with the reason (less
 * than one sector, more than the native capacity, not a size or a percentage).
 */
int hpa_report_target(const struct ata_hpa_state *st, const char *spec, uint64_t *max_lba,
		      char *err, size_t errlen);

/* The state as indented text lines after a header line naming path. */
void hpa_report_text(FILE *f, const char *path, const struct ata_hpa_state *st);

/* The state as a new JSON object ({"schema": 1, ...}; docs/cli.md); refusal: why a change is
 * refused (NULL when it is not). NULL when out of memory. */
struct json_object *hpa_report_json(const char *path, const struct ata_hpa_state *st,
				    const char *refusal);

#endif
