/* SPDX-License-Identifier: MIT */
/*
 * ata_smart: decodes an ATA SMART readout saved in libatasmart's blob format (what
 * `skdump --save` writes and people attach to bug reports) into attributes, with the raw 48-bit
 * value turned into a quantity by OUR unit table, never libatasmart's guessed "pretty" units
 * (it reads 241/242 as 32 MiB on every drive; reference ftl_smart_hpa.md, D "Pitfall").
 *
 * Blob format (libatasmart atasmart.c; reference D): a sequence of {4-byte ASCII tag, 32-bit
 * big-endian length, payload}. 'IDFY' = 512 B IDENTIFY DEVICE (mandatory), 'SMST' = 4 B big-endian
 * "SMART status good", 'SMDT' = 512 B SMART READ DATA, 'SMTH' = 512 B SMART READ THRESHOLDS.
 */
#ifndef SSDLAB_ATA_SMART_H
#define SSDLAB_ATA_SMART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/devcounters.h"

#define ATA_SMART_MAX_ATTRS 30 /* SMART data holds 30 entries of 12 bytes from byte 2 */

struct ata_smart_attr {
	uint8_t id;
	const char *name;	/* static string from our name table ("Unknown_Attribute") */
	uint16_t flags;		/* bit 0 prefailure, bit 1 online (ATA-8 annex) */
	uint8_t current, worst; /* normalized values */
	uint8_t threshold;
	bool threshold_valid;	/* an SMTH block with this id was present */
	uint64_t raw;		/* raw48, little-endian raw[0..5] (reference C "Rules") */
	const char *unit;	/* "bytes", "hours", "count", "celsius", or "raw" (not decoded) */
	double value;		/* raw decoded into unit (= raw when unit is "raw") */
	bool verified;		/* the unit has a cited source in our table */
};

struct ata_smart {
	char model[41], serial[21], firmware[9]; /* from IDENTIFY, trimmed */
	bool status_valid, status_good;		 /* SMST block */
	size_t n;
	struct ata_smart_attr a[ATA_SMART_MAX_ATTRS];
};

/* Decodes a blob of len bytes into *out. Returns 0, or -EINVAL with a message in err (a
 * truncated block, no IDFY, a block of the wrong size) and *out untouched. */
int ata_smart_decode_blob(const void *blob, size_t len, struct ata_smart *out, char *err,
			  size_t errlen);

/* Returns the attribute with this id or NULL. */
const struct ata_smart_attr *ata_smart_find(const struct ata_smart *s, uint8_t id);

/* Adds every attribute's raw48 to dc under "ata:ID" (host/devcounters.h). 0 or -ENOSPC. */
int ata_smart_counters(const struct ata_smart *s, struct devcounters *dc);

#endif
