/* SPDX-License-Identifier: MIT */
/*
 * reader_trimcheck: the trim_check records (run/runner.c) as typed values for
 * pass_trimcheck.c (reader.h's contract: the reader alone walks records).
 */
#include "analysis/reader.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"

static struct json_object *obj(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_object)
		   ? v
		   : NULL;
}

static bool flag(struct json_object *o, const char *k, bool *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, k, &x) || !json_object_is_type(x, json_type_boolean))
		return false;
	*v = json_object_get_boolean(x);
	return true;
}

/* The record's "fresh" object, when there is one; -EBADMSG when it lacks its figures. */
static int fresh(struct json_object *f, struct reader_trim_check *t)
{
	static const char *const side[2] = {"before", "after"};

	if (!f)
		return 0;
	if (jsonnum_get_u64(f, "offset", &t->fresh_offset) ||
	    jsonnum_get_u64(f, "bytes", &t->fresh_bytes) ||
	    jsonnum_get_u64(f, "time_ns", &t->fresh_time_ns))
		return -EBADMSG;
	for (int i = 0; i < 2; i++) {
		struct json_object *s = obj(f, side[i]);

		if (!s || jsonnum_get(s, "iops", &t->fresh_iops[i]) ||
		    jsonnum_get(s, "mbps", &t->fresh_mbps[i]) ||
		    jsonnum_get(s, "p99_ns", &t->fresh_p99_ns[i]))
			return -EBADMSG;
	}
	t->has_fresh_counters = !jsonnum_get(f, "valid_bytes_before", &t->fresh_valid[0]) &&
				!jsonnum_get(f, "valid_bytes_after", &t->fresh_valid[1]) &&
				!jsonnum_get(f, "free_blocks_before", &t->fresh_free[0]) &&
				!jsonnum_get(f, "free_blocks_after", &t->fresh_free[1]);
	t->has_fresh = true;
	return 0;
}

/* The device's "nvme_get_lba_status" (targets/trimcheck.c), where it was asked. */
static void lba_status(struct json_object *dv, struct reader_trim_check *t)
{
	struct json_object *g = obj(dv, "nvme_get_lba_status"), *a, *u;

	if (!g || !flag(g, "supported", &t->lbas_supported))
		return;
	t->has_lbas = true;
	if (!t->lbas_supported) {
		t->lbas_reason = jsonget_str(g, "reason");
		return;
	}
	(void)jsonnum_get_u64(g, "range_blocks", &t->lbas_range_blocks);
	a = obj(g, "allocated");
	u = obj(g, "unrecoverable");
	t->has_lbas_alloc = a && !jsonnum_get_u64(a, "blocks", &t->lbas_alloc_blocks);
	t->lbas_alloc_error = a && !t->has_lbas_alloc ? jsonget_str(a, "error") : NULL;
	t->has_lbas_unrec = u && !jsonnum_get_u64(u, "blocks", &t->lbas_unrec_blocks);
	t->lbas_unrec_error = u && !t->has_lbas_unrec ? jsonget_str(u, "error") : NULL;
}

static int one(struct json_object *tc, struct reader_trim_check *t)
{
	struct json_object *bl = obj(tc, "block_layer"), *dv = obj(tc, "device");
	struct json_object *nb = obj(tc, "neighbours"), *rs;
	bool intact;

	if (!bl || !dv || !nb || !flag(bl, "supported", &t->supported) ||
	    jsonnum_get_u64(tc, "region_bytes", &t->region) ||
	    jsonnum_get_u64(tc, "granularity_bytes", &t->granularity) ||
	    jsonnum_get_u64(nb, "blocks", &t->neighbours) ||
	    jsonnum_get_u64(nb, "bad", &t->neighbours_bad) || !flag(nb, "intact", &intact) ||
	    jsonnum_get_u64(dv, "trimmed_read_zero", &t->read_zero) ||
	    jsonnum_get_u64(dv, "trimmed_read_pattern", &t->read_pattern) ||
	    jsonnum_get_u64(dv, "trimmed_read_other", &t->read_other) ||
	    !json_object_object_get_ex(bl, "ranges", &rs) ||
	    !json_object_is_type(rs, json_type_array))
		return -EBADMSG;
	t->reason = t->supported ? NULL : jsonget_str(bl, "reason");
	for (size_t i = 0; i < json_object_array_length(rs); i++) {
		bool al = false;

		t->ranges++;
		if (flag(json_object_array_get_idx(rs, i), "aligned", &al) && al)
			t->ranges_aligned++;
	}
	t->has_limits = !jsonnum_get_u64(bl, "discard_max_bytes", &t->discard_max_bytes) &&
			!jsonnum_get_u64(bl, "discard_granularity", &t->discard_granularity);
	t->has_stat = !jsonnum_get_u64(bl, "stat_discard_ios", &t->stat_ios) &&
		      !jsonnum_get_u64(bl, "stat_discard_bytes", &t->stat_bytes);
	t->has_ata = flag(dv, "ata_drat", &t->drat) && flag(dv, "ata_rzat", &t->rzat);
	t->has_latency = !jsonnum_get_u64(dv, "qd1_read_trimmed_ns", &t->lat_trimmed_ns) &&
			 !jsonnum_get_u64(dv, "qd1_read_mapped_ns", &t->lat_mapped_ns);
	t->has_first_bad = !jsonnum_get_u64(nb, "first_bad_offset", &t->first_bad);
	t->has_nvme = !jsonnum_get_u64(dv, "nvme_nsze", &t->nsze) &&
		      !jsonnum_get_u64(dv, "nvme_nuse_before", &t->nuse_before);
	t->has_nuse_after = t->has_nvme && !jsonnum_get_u64(dv, "nvme_nuse_after", &t->nuse_after);
	t->read_after_deallocate = t->has_nvme ? jsonget_str(dv, "nvme_read_after_deallocate") : NULL;
	lba_status(dv, t);
	return 0;
}

int reader_trim_checks(const struct results_records *rr, struct reader_trim_check **out, size_t *n)
{
	struct reader_trim_check *v = NULL;
	size_t m = 0;
	int rc = 0;

	for (size_t i = 0; i < rr->n && !rc; i++) {
		struct reader_key k;
		struct json_object *tc;
		struct reader_trim_check *nv;

		if (reader_key(rr->rec[i], &k) || strcmp(k.kind, "trim_check"))
			continue;
		nv = realloc(v, (m + 1) * sizeof(*v));
		if (!nv) {
			rc = -ENOMEM;
			break;
		}
		v = nv;
		memset(&v[m], 0, sizeof(v[m]));
		v[m].phase = k.phase;
		v[m].repeat = k.repeat;
		tc = obj(rr->rec[i], "trim_check");
		if (tc)
			rc = one(tc, &v[m]);
		else
			v[m].no_data = true;
		if (!rc)
			rc = fresh(obj(rr->rec[i], "fresh"), &v[m]);
		m++;
	}
	if (rc) {
		free(v);
		return rc;
	}
	*out = v;
	*n = m;
	return 0;
}
