/* SPDX-License-Identifier: MIT */
/*
 * pass_trimcheck: summary.json's "trim_check", one entry per trim_check step (reader.h's
 * reader_trim_checks), with its verdict. The order of the verdict is the order of importance:
 * a corrupted neighbour outweighs everything (queued-TRIM corruption: the data beside a discard
 * must survive it); a discard the device rejected is said plainly; only then does "intact"
 * stand. What the device did with a discard is kept apart from what the block layer sent: a
 * trimmed block read back as zeros proves the discard only on a drive that promises
 * deterministic read-after-trim (ATA DRAT, IDENTIFY word 69 bit 14).
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "analysis/reader.h"

static const char *verdict(const struct reader_trim_check *t)
{
	if (t->no_data)
		return "no_data";
	if (t->neighbours_bad)
		return "neighbours_corrupted";
	return t->supported ? "neighbours_intact" : "discard_rejected";
}

/* ATA's DRAT/RZAT, or on NVMe DLFEAT bits 2:0: deallocated blocks read as zeroes or ones. */
static const char *read_after_trim(const struct reader_trim_check *t)
{
	const char *d = t->read_after_deallocate;

	if (!t->has_ata && d && !strcmp(d, "zeroes"))
		return "deterministic_zeroes";
	if (!t->has_ata && d && !strcmp(d, "ones"))
		return "deterministic";
	if (!t->has_ata)
		return "unknown";
	if (!t->drat)
		return "not_deterministic";
	return t->rzat ? "deterministic_zeroes" : "deterministic";
}

/* What the trimmed blocks read back as: all zeros, all the old data, or some of each. */
static const char *read_back(const struct reader_trim_check *t)
{
	if (!t->read_pattern && !t->read_other)
		return "zeros";
	if (!t->read_zero && !t->read_other)
		return "old_data";
	return "mixed";
}

/* What the discard of a region brought back: the same 4 KiB random-write job before and after
 * it, and on the virtual SSD what the discard unmapped and freed at once. */
static struct json_object *fresh(const struct reader_trim_check *t)
{
	struct json_object *o = json_object_new_object();
	int e = 0;

	jsonnum_build_num(o, "offset", (double)t->fresh_offset, &e);
	jsonnum_build_num(o, "bytes", (double)t->fresh_bytes, &e);
	jsonnum_build_num(o, "time_ns", (double)t->fresh_time_ns, &e);
	jsonnum_build_num(o, "iops_before", t->fresh_iops[0], &e);
	jsonnum_build_num(o, "iops_after", t->fresh_iops[1], &e);
	jsonnum_build_num(o, "mbps_before", t->fresh_mbps[0], &e);
	jsonnum_build_num(o, "mbps_after", t->fresh_mbps[1], &e);
	jsonnum_build_num(o, "p99_ns_before", t->fresh_p99_ns[0], &e);
	jsonnum_build_num(o, "p99_ns_after", t->fresh_p99_ns[1], &e);
	jsonnum_build_num(o, "iops_after_over_before",
			  t->fresh_iops[0] > 0 ? t->fresh_iops[1] / t->fresh_iops[0] : NAN, &e);
	if (t->has_fresh_counters) {
		jsonnum_build_num(o, "unmapped_bytes", t->fresh_valid[0] - t->fresh_valid[1], &e);
		jsonnum_build_num(o, "free_blocks_before", t->fresh_free[0], &e);
		jsonnum_build_num(o, "free_blocks_after", t->fresh_free[1], &e);
	}
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* The drive's own word on the discarded blocks (Get LBA Status): none still allocated is the
 * drive saying it deallocated them; "not_reported" where the allocated query failed. */
static struct json_object *lba_status(const struct reader_trim_check *t)
{
	struct json_object *o = json_object_new_object();
	int e = !o;

	jsonnum_build_add(o, "supported", json_object_new_boolean(t->lbas_supported), &e);
	if (!t->lbas_supported) {
		jsonnum_build_add(o, "reason",
				  json_object_new_string(t->lbas_reason ? t->lbas_reason : "?"), &e);
		goto out;
	}
	jsonnum_build_add(o, "discarded_blocks", json_object_new_uint64(t->lbas_range_blocks), &e);
	if (t->has_lbas_alloc)
		jsonnum_build_add(o, "allocated_blocks", json_object_new_uint64(t->lbas_alloc_blocks),
				  &e);
	else
		jsonnum_build_add(
		    o, "allocated_error",
		    json_object_new_string(t->lbas_alloc_error ? t->lbas_alloc_error : "?"), &e);
	if (t->has_lbas_unrec)
		jsonnum_build_add(o, "unrecoverable_blocks",
				  json_object_new_uint64(t->lbas_unrec_blocks), &e);
	else
		jsonnum_build_add(
		    o, "unrecoverable_error",
		    json_object_new_string(t->lbas_unrec_error ? t->lbas_unrec_error : "?"), &e);
	jsonnum_build_add(o, "says",
			  json_object_new_string(!t->has_lbas_alloc	     ? "not_reported"
						 : t->lbas_alloc_blocks ? "still_allocated"
									: "deallocated"),
			  &e);
out:
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static struct json_object *entry(const struct reader_trim_check *t)
{
	struct json_object *o = json_object_new_object(), *bl, *dv, *nb;
	int e = !o;

	jsonnum_build_add(o, "phase", json_object_new_int64(t->phase), &e);
	jsonnum_build_add(o, "repeat", json_object_new_int64(t->repeat), &e);
	jsonnum_build_add(o, "verdict", json_object_new_string(verdict(t)), &e);
	if (t->has_fresh)
		jsonnum_build_add(o, "fresh", fresh(t), &e);
	if (e || t->no_data)
		goto out;
	bl = json_object_new_object();
	jsonnum_build_add(o, "block_layer", bl, &e);
	dv = json_object_new_object();
	jsonnum_build_add(o, "device", dv, &e);
	nb = json_object_new_object();
	jsonnum_build_add(o, "neighbours", nb, &e);
	e |= !bl || !dv || !nb;
	if (e)
		goto out;
	jsonnum_build_add(bl, "sent", json_object_new_boolean(t->supported), &e);
	if (!t->supported)
		jsonnum_build_add(bl, "reason", json_object_new_string(t->reason ? t->reason : "?"),
				  &e);
	if (t->has_limits) {
		jsonnum_build_add(bl, "discard_max_bytes",
				  json_object_new_uint64(t->discard_max_bytes), &e);
		jsonnum_build_add(bl, "discard_granularity",
				  json_object_new_uint64(t->discard_granularity), &e);
	}
	if (t->has_stat) {
		jsonnum_build_add(bl, "stat_discard_ios", json_object_new_uint64(t->stat_ios), &e);
		jsonnum_build_add(bl, "stat_discard_bytes", json_object_new_uint64(t->stat_bytes),
				  &e);
	}
	jsonnum_build_add(dv, "read_after_trim", json_object_new_string(read_after_trim(t)), &e);
	jsonnum_build_add(dv, "read_back", json_object_new_string(read_back(t)), &e);
	/* zeros prove the discard only where the drive promises them (DRAT + RZAT, DLFEAT 001) */
	jsonnum_build_add(dv, "read_back_proves_discard",
			  json_object_new_boolean(!strcmp(read_after_trim(t), "deterministic_zeroes") &&
						  t->supported && !strcmp(read_back(t), "zeros")),
			  &e);
	if (t->has_nvme) {
		jsonnum_build_add(dv, "nvme_nsze", json_object_new_uint64(t->nsze), &e);
		jsonnum_build_add(dv, "nvme_nuse_before", json_object_new_uint64(t->nuse_before),
				  &e);
		if (t->has_nuse_after) {
			jsonnum_build_add(dv, "nvme_nuse_after",
					  json_object_new_uint64(t->nuse_after), &e);
			/* a namespace that is not thin reports NUSE = NSZE always: no evidence */
			jsonnum_build_add(dv, "nvme_nuse_fell",
					  json_object_new_boolean(t->nuse_after < t->nuse_before),
					  &e);
		}
		jsonnum_build_add(
		    dv, "nvme_read_after_deallocate",
		    json_object_new_string(t->read_after_deallocate ? t->read_after_deallocate : "?"),
		    &e);
	}
	if (t->has_lbas)
		jsonnum_build_add(dv, "nvme_get_lba_status", lba_status(t), &e);
	if (t->has_latency) {
		jsonnum_build_add(dv, "qd1_read_trimmed_ns",
				  json_object_new_uint64(t->lat_trimmed_ns), &e);
		jsonnum_build_add(dv, "qd1_read_mapped_ns",
				  json_object_new_uint64(t->lat_mapped_ns), &e);
		if (t->lat_mapped_ns)
			jsonnum_build_num(dv, "trimmed_over_mapped",
					  (double)t->lat_trimmed_ns / (double)t->lat_mapped_ns, &e);
	}
	jsonnum_build_add(nb, "blocks", json_object_new_uint64(t->neighbours), &e);
	jsonnum_build_add(nb, "bad", json_object_new_uint64(t->neighbours_bad), &e);
	jsonnum_build_add(nb, "intact", json_object_new_boolean(!t->neighbours_bad), &e);
	jsonnum_build_add(nb, "unaligned_ranges",
			  json_object_new_uint64(t->ranges - t->ranges_aligned), &e);
	if (t->has_first_bad)
		jsonnum_build_add(nb, "first_bad_offset", json_object_new_uint64(t->first_bad), &e);
out:
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

int pass_trimcheck(const struct analyze_input *in, struct json_object *summary, char *err,
		   size_t errlen)
{
	struct reader_trim_check *v = NULL;
	struct json_object *a;
	size_t n = 0;
	int rc = reader_trim_checks(&in->records, &v, &n);

	if (rc) {
		pass_err(err, errlen, "%s/records.jsonl: a trim_check record %s", in->dir,
			 rc == -EBADMSG ? "lacks its figures" : "could not be read");
		return rc;
	}
	if (!n) /* no trim_check step: no key */
		return 0;
	rc = -ENOMEM;
	a = json_object_new_array();
	if (!a || jsonnum_add(summary, "trim_check", a))
		goto out;
	for (size_t i = 0; i < n; i++)
		if (jsonnum_push(a, entry(&v[i])))
			goto out;
	rc = 0;
out:
	free(v);
	return rc;
}
