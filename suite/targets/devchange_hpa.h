/* SPDX-License-Identifier: MIT */
/*
 * devchange_hpa: the devchange kind "hpa" (targets/devchange.h), a SATA drive's accessible max
 * LBA set by HPA's SET MAX ADDRESS EXT or ACS-3's SET ACCESSIBLE MAX ADDRESS EXT (host/ata_hpa.h).
 * Its value: {"max_lba": N, "native_max_lba": N, "volatile": bool}. A value read from the drive
 * has "volatile": false (the drive does not say how its max was set), so a restore to the
 * original value is a non-volatile set back to the native max: the one that also undoes a
 * persistent change. Two values are the same setting when their max_lba are equal. In a dry
 * run nothing is sent, IDENTIFY included: a volatile value prints the HPA commands, a
 * persistent one those of both methods.
 */
#ifndef SSDLAB_TARGETS_DEVCHANGE_HPA_H
#define SSDLAB_TARGETS_DEVCHANGE_HPA_H

#include <stdbool.h>
#include <stdint.h>

#include "targets/devchange.h"

extern const struct devchange_kind devchange_kind_hpa;

/* A new value object {"max_lba", "native_max_lba", "volatile"}; NULL when out of memory. */
struct json_object *devchange_hpa_value(uint64_t max_lba, uint64_t native_max_lba,
					bool volatile_value);
/* Reads a value's fields: 0, or -EINVAL when a field is missing or has the wrong type. */
int devchange_hpa_parse(struct json_object *v, uint64_t *max_lba, uint64_t *native_max_lba,
			bool *volatile_value);

#endif
