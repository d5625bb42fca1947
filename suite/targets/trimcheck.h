/* SPDX-License-Identifier: MIT */
/*
 * trimcheck: does a discard reach the device, and does it leave the data beside it alone?
 * (issue 14 point 2, docs/trim-check.md). On a small region at the start of the target it writes
 * a known pattern (every logical block its own seeded content), discards three ranges (one
 * aligned to the discard granularity, one whose both ends are not, one smaller than a granule),
 * then reads the whole region back and checks every block outside the ranges: queued-TRIM bugs
 * (the reason Linux blacklists NCQ TRIM on some drives) corrupt exactly those.
 *
 * Evidence at two levels, kept apart in the result:
 *   - the block layer sent it: each discard's return, the queue's discard limits and the
 *     discard counters of /sys/block/X/stat (fields 12-15) before and after;
 *   - the device acted on it: ATA DRAT/RZAT (IDENTIFY word 69) where the drive answered; on
 *     an NVMe namespace its utilisation (Identify Namespace NUSE) before and after the discards
 *     and DLFEAT (what a read of a deallocated block returns); and, where Identify Controller
 *     sets OACS bit 9, Get LBA Status over each discarded range (host/nvme_lba_status.h):
 *     the blocks the drive still reports allocated (ATYPE 02h) and those it tracks as
 *     potentially unrecoverable (ATYPE 11h);
 *     what the trimmed blocks read back as, and the QD1 read latency of trimmed against mapped
 *     blocks. Without deterministic read-after-trim the read-back proves nothing.
 *
 * A target that rejects discard (-EOPNOTSUPP: a loop device without discard, a USB bridge)
 * gives a result with `supported` false and the reason; the neighbours are still verified.
 */
#ifndef SSDLAB_TRIMCHECK_H
#define SSDLAB_TRIMCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/devinfo.h"
#include "host/ioctl_ops.h"
#include "targets/target.h"

struct json_object;

#define TRIMCHECK_NRANGES 3

struct trimcheck_opts {
	uint64_t seed;			   /* of the pattern; 0 means 1 */
	unsigned latency_samples;	   /* QD1 reads of each kind; 0 means 32 */
	const struct devinfo_roots *roots; /* sysfs for the block-layer evidence; NULL: /sys */
	/* the NVMe Identify Namespace reads (target_info.nvme names the namespace); NULL: the
	 * kernel's (ioctl_ops_real) */
	const struct ioctl_ops *ops;
};

struct trimcheck_range {
	uint64_t offset, len;
	bool aligned; /* both ends on the discard granularity */
	int rc;	      /* the discard's return: 0 or -errno */
};

/* One Get LBA Status action type summed over the discarded ranges. */
struct trimcheck_lbas {
	int rc;			/* 0, or the first range's -errno (error says why) */
	uint64_t blocks;	/* blocks of the ranges inside a descriptor */
	uint32_t descriptors, commands;
	uint8_t status_or;	/* the descriptors' Status bytes ORed */
	char error[160];
};

struct trimcheck_result {
	uint64_t region;      /* bytes written and verified, from offset 0 */
	uint32_t block;	      /* the verification unit: the logical block size */
	uint64_t granularity; /* the discard granularity the ranges were laid out by */
	struct trimcheck_range r[TRIMCHECK_NRANGES];
	/* block layer */
	bool supported;	  /* every discard returned 0 */
	char reason[160]; /* why not, when !supported */
	bool has_limits;  /* queue/discard_max_bytes and discard_granularity were read */
	uint64_t discard_max_bytes, discard_granularity;
	bool has_stat; /* the discard counters (stat fields 12 and 13), as differences */
	uint64_t discard_ios, discard_bytes;
	/* device */
	int drat, rzat; /* ATA IDENTIFY word 69 bits 14 and 5: 1, 0, -1 unknown */
	/* NVMe: Identify Namespace before the discards (and NUSE again after them); has_nvme false
	 * when the target is no NVMe namespace or the first read failed (nvme_error says why) */
	bool has_nvme, has_nuse_after;
	uint64_t nsze, nuse_before, nuse_after; /* logical blocks */
	uint8_t dlfeat;				/* byte 33 as read */
	char nvme_error[160];
	/* Get LBA Status, asked after the discards on an NVMe namespace (has_lbas); lbas_supported
	 * false with lbas_reason when OACS bit 9 is clear or Identify Controller failed */
	bool has_lbas, lbas_supported;
	char lbas_reason[160];
	uint64_t lbas_range_blocks; /* the discarded ranges in logical blocks */
	struct trimcheck_lbas lbas_alloc, lbas_unrec; /* ATYPE 02h, ATYPE 11h */
	uint64_t trimmed_zero, trimmed_pattern, trimmed_other; /* blocks inside the ranges */
	bool has_latency;
	uint64_t lat_trimmed_ns, lat_mapped_ns; /* medians of the QD1 reads */
	/* the neighbours: every block of the region outside the ranges */
	uint64_t neighbours, neighbours_bad, first_bad; /* first_bad: byte offset, if any */
};

/*
 * Runs the check on t (opened writable; destroys the region). 0 with *out filled, also when the
 * target rejects discard; -EOPNOTSUPP when t keeps no data (the virtual SSD) or is too small;
 * -errno on an I/O error, with a message in err. *out untouched on failure.
 */
int trimcheck_run(struct target *t, const struct trimcheck_opts *o, struct trimcheck_result *out,
		  char *err, size_t errlen);

/* The result as the record's and summary's "trim_check" object (docs/results-format.md), or
 * NULL when out of memory. */
struct json_object *trimcheck_to_json(const struct trimcheck_result *r);

#endif
