/* SPDX-License-Identifier: MIT */
/*
 * devcounters: a drive's counters as raw integers, each under a key that says where it was read,
 * so that the readers of each source (ATA SMART, Device Statistics, NVMe logs) hand one neutral
 * list to whatever turns counters into quantities (the drive database, host/drivedb.h, names
 * its counters with the same keys; the snapshot builder in targets/ maps the well-known ones).
 *
 * Keys (the contract shared with profiles/drives/drives.yaml):
 *   ata:ID                   an ATA SMART attribute's raw 48-bit value (ID in decimal)
 *   ata:devstat.P.0xOO       Device Statistics (GP log 0x04) page P, the qword at byte offset
 *                            0xOO, its low 48 bits; present only when its supported (bit 63)
 *                            and valid (bit 62) flags are both set
 *   nvme:smart.FIELD         SMART/Health log 0x02 (data_units_written, data_units_read,
 *                            host_write_cmds, host_read_cmds, percentage_used, available_spare,
 *                            spare_threshold, critical_warning, temperature_k,
 *                            warning_temp_minutes, critical_temp_minutes, thm1_transitions,
 *                            thm2_transitions, thm1_seconds, thm2_seconds)
 *   nvme:endurance.FIELD     Endurance Group Information log 0x09
 *   nvme:ocp_c0.FIELD        OCP SMART / Health Information Extended log 0xC0 (GUID checked)
 *   nvme:intel_ca.FIELD      Intel's vendor log 0xCA
 * A 128-bit NVMe counter whose high half is not zero is stored as UINT64_MAX with key
 * "FIELD.overflow" = 1 beside it, so that no delta is ever taken over a wrapped value.
 */
#ifndef SSDLAB_HOST_DEVCOUNTERS_H
#define SSDLAB_HOST_DEVCOUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DEVCOUNTER_KEY_MAX 48
#define DEVCOUNTERS_MAX 128

struct devcounter {
	char key[DEVCOUNTER_KEY_MAX];
	uint64_t value;
};

struct devcounters {
	size_t n;
	struct devcounter c[DEVCOUNTERS_MAX];
};

void devcounters_init(struct devcounters *dc);
/* Adds or replaces key. -EINVAL for a key that does not fit, -ENOSPC when full. */
int devcounters_set(struct devcounters *dc, const char *key, uint64_t value);
/* printf-style key: devcounters_setf(dc, v, "ata:%u", id). */
int devcounters_setf(struct devcounters *dc, uint64_t value, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The counter under key, or NULL. */
const struct devcounter *devcounters_get(const struct devcounters *dc, const char *key);
/* True when a and b hold the same keys with the same values (order ignored). */
bool devcounters_equal(const struct devcounters *a, const struct devcounters *b);

#endif
