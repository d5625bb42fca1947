/* SPDX-License-Identifier: MIT */
/*
 * snapshot: one format for counter snapshots from every source (the virtual SSD, ATA SMART,
 * NVMe log pages). A snapshot is a list of named counters with units plus the raw source data,
 * so that a later analysis can re-decode what we decoded wrongly today.
 *
 * Counter names are a contract (docs/results-format.md): host_bytes_written, host_bytes_read,
 * nand_bytes_written, nand_bytes_written_host, nand_bytes_written_gc, nand_bytes_written_fold,
 * erase_count_min, erase_count_mean, erase_count_max, gc_runs, power_on_ns, slc_cache_used_bytes,
 * free_blocks, temperature_c, ... A source fills only what it knows.
 */
#ifndef SSDLAB_SNAPSHOT_H
#define SSDLAB_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

struct json_object;

#define SNAPSHOT_MAX_COUNTERS 64

struct counter {
	char name[48];
	char unit[16]; /* "bytes", "ns", "count", "celsius", ... */
	double value;  /* doubles hold integers exactly up to 2^53 (8 PiB in bytes) */
};

struct snapshot {
	char source[32];     /* "sim", "ata-smart", "nvme-smart", "none" */
	char label[64];	     /* where it was taken: "start", "phase-2-end", ... */
	uint64_t target_ns;  /* the target's clock when taken */
	size_t n;
	struct counter c[SNAPSHOT_MAX_COUNTERS];
	struct json_object *raw; /* owned; may be NULL */
};

void snapshot_init(struct snapshot *s, const char *source);
void snapshot_release(struct snapshot *s); /* frees raw; accepts NULL */
/* Adds or replaces a counter. -ENOSPC when full. */
int snapshot_set(struct snapshot *s, const char *name, const char *unit, double value);
/* Returns the counter or NULL. */
const struct counter *snapshot_get(const struct snapshot *s, const char *name);

/* JSON ("schema": 1). to_json returns a new object (NULL on ENOMEM); from_json fills s. */
struct json_object *snapshot_to_json(const struct snapshot *s);
int snapshot_from_json(struct json_object *o, struct snapshot *s);

#endif
