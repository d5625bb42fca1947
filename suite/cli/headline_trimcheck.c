/* SPDX-License-Identifier: MIT */
/*
 * headline_trimcheck: the headline's trim-check lines (headline.h) from summary.json's
 * trim_check (analysis/pass_trimcheck.c): the neighbours first (what matters most), then what
 * the block layer sent and what the device showed, each said for what it is worth.
 */
#include "cli/headline.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/units.h"

static struct json_object *sub(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* The NVMe namespace's own word: NUSE around the discards (equal to NSZE on a namespace that is
 * not thin, which then proves nothing) and DLFEAT's read-after-deallocate. */
static void print_nvme(struct json_object *dv, FILE *f)
{
	int64_t nsze = 0, before = 0, after = 0;
	const char *rd = jsonget_str(dv, "nvme_read_after_deallocate");

	if (jsonget_int(dv, "nvme_nsze", &nsze) || jsonget_int(dv, "nvme_nuse_before", &before))
		return;
	if (!jsonget_int(dv, "nvme_nuse_after", &after))
		fprintf(f,
			"TRIM check: NVMe utilisation %" PRId64 " -> %" PRId64 " of %" PRId64
			" blocks%s",
			before, after, nsze,
			after < before	  ? " (fell: the device deallocated)"
			: before == nsze ? " (NUSE = NSZE: not reported, proves nothing)"
					  : " (did not fall)");
	else
		fprintf(f, "TRIM check: NVMe utilisation %" PRId64 " of %" PRId64 " blocks before",
			before, nsze);
	fprintf(f, "; deallocated blocks read as %s (DLFEAT)\n", rd ? rd : "?");
}

/* Get LBA Status over the discarded blocks: the drive's own word on whether it deallocated them
 * (allocated blocks left, ATYPE 02h) and on any it now tracks as unreadable (ATYPE 11h). */
static void print_lba_status(struct json_object *dv, FILE *f)
{
	struct json_object *g = sub(dv, "nvme_get_lba_status");
	int64_t n = 0, a = 0, u = 0;
	const char *says = jsonget_str(g, "says"), *r;

	if (!g)
		return;
	if (!says) {
		r = jsonget_str(g, "reason");
		fprintf(f, "TRIM check: NVMe Get LBA Status not supported: %s\n", r ? r : "?");
		return;
	}
	(void)jsonget_int(g, "discarded_blocks", &n);
	fprintf(f, "TRIM check: NVMe Get LBA Status over the %" PRId64 " discarded blocks: ", n);
	if (!jsonget_int(g, "allocated_blocks", &a))
		fprintf(f, "%" PRId64 " still allocated (%s)", a,
			a ? "the drive kept them mapped" : "the drive reports them deallocated");
	else
		fprintf(f, "allocated not reported (%s)",
			jsonget_str(g, "allocated_error") ? jsonget_str(g, "allocated_error") : "?");
	if (!jsonget_int(g, "unrecoverable_blocks", &u))
		fprintf(f, "; %" PRId64 " potentially unrecoverable\n", u);
	else
		fprintf(f, "; potentially unrecoverable not reported (%s)\n",
			jsonget_str(g, "unrecoverable_error") ? jsonget_str(g, "unrecoverable_error")
							      : "?");
}

static void print_one(struct json_object *e, FILE *f)
{
	const char *v = jsonget_str(e, "verdict"), *rb, *rat;
	struct json_object *bl = sub(e, "block_layer"), *dv = sub(e, "device");
	struct json_object *nb = sub(e, "neighbours");
	int64_t blocks = 0, bad = 0, unal = 0, ios = 0, bytes = 0, first = 0;
	char a[32], b[32];

	if (!v || !strcmp(v, "no_data")) {
		fprintf(f, "TRIM check: the target keeps no data, nothing verified\n");
		return;
	}
	(void)jsonget_int(nb, "blocks", &blocks);
	(void)jsonget_int(nb, "bad", &bad);
	(void)jsonget_int(nb, "unaligned_ranges", &unal);
	if (bad) {
		(void)jsonget_int(nb, "first_bad_offset", &first);
		fprintf(f,
			"FLAG: TRIM check: %" PRId64 " of %" PRId64 " untrimmed neighbour blocks "
			"changed (first at byte %" PRId64 "): discard corrupts data beside it\n",
			bad, blocks, first);
	} else {
		fprintf(f,
			"TRIM check: all %" PRId64 " neighbour blocks intact (%" PRId64
			" of the discarded ranges not aligned to the granularity)\n",
			blocks, unal);
	}
	if (!strcmp(v, "discard_rejected")) {
		fprintf(f, "TRIM check: discard not sent: %s\n",
			jsonget_str(bl, "reason") ? jsonget_str(bl, "reason") : "?");
		return;
	}
	if (!jsonget_int(bl, "stat_discard_ios", &ios) &&
	    !jsonget_int(bl, "stat_discard_bytes", &bytes))
		fprintf(f, "TRIM check: block layer sent it (%" PRId64 " discards, %s counted)\n",
			ios, units_fmt_size((uint64_t)bytes, a, sizeof(a)));
	else
		fprintf(f, "TRIM check: every discard returned success\n");
	rb = jsonget_str(dv, "read_back");
	rat = jsonget_str(dv, "read_after_trim");
	fprintf(f, "TRIM check: trimmed blocks read back as %s; read-after-trim %s%s",
		rb ? rb : "?", rat ? rat : "?",
		rat && !strncmp(rat, "deterministic", 13) ? ""
							  : " (so the read-back proves nothing)");
	if (!isnan(jsonget_num(dv, "trimmed_over_mapped")))
		fprintf(f, "; QD1 read of trimmed %s vs mapped %s",
			units_fmt_double(jsonget_num(dv, "qd1_read_trimmed_ns") / 1000, 1, a,
					 sizeof(a)),
			units_fmt_double(jsonget_num(dv, "qd1_read_mapped_ns") / 1000, 1, b,
					 sizeof(b)));
	fprintf(f, "%s\n", isnan(jsonget_num(dv, "trimmed_over_mapped")) ? "" : " us");
	print_nvme(dv, f);
	print_lba_status(dv, f);
}

/* The fresh-behaviour line: the same 4 KiB random writes before and after the discard. */
static void print_fresh(struct json_object *e, FILE *f)
{
	struct json_object *fr = sub(e, "fresh");
	char a[32];

	if (!fr)
		return;
	fprintf(f,
		"TRIM check: 4k random writes over the %s discarded: %.0f IOPS before, %.0f after "
		"(x%.2f), p99 %.2f ms before, %.2f ms after",
		units_fmt_size((uint64_t)jsonget_num(fr, "bytes"), a, sizeof(a)),
		jsonget_num(fr, "iops_before"), jsonget_num(fr, "iops_after"),
		jsonget_num(fr, "iops_after_over_before"), jsonget_num(fr, "p99_ns_before") / 1e6,
		jsonget_num(fr, "p99_ns_after") / 1e6);
	if (!isnan(jsonget_num(fr, "unmapped_bytes")))
		fprintf(f, "; the discard unmapped %s, free blocks %.0f -> %.0f",
			units_fmt_size((uint64_t)jsonget_num(fr, "unmapped_bytes"), a, sizeof(a)),
			jsonget_num(fr, "free_blocks_before"),
			jsonget_num(fr, "free_blocks_after"));
	fprintf(f, "\n");
}

void headline_print_trimcheck(struct json_object *summary, FILE *f)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(summary, "trim_check", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		print_one(json_object_array_get_idx(arr, i), f);
		print_fresh(json_object_array_get_idx(arr, i), f);
	}
}
