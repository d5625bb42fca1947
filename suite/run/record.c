/* SPDX-License-Identifier: MIT */
/*
 * run/record: a measurement's record with its job's I/O figures (see record.h). The keys and
 * their order are those records.jsonl has always had: `ssdlab analyze` and old results
 * directories (tests/data/old-results) read them back, so a change here is a format change.
 */
#include "run/record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/hist.h"
#include "base/jsonnum.h"
#include "results/records.h"

static int add_dir(struct json_object *rec, const char *key, const struct dir_stats *d,
		   uint64_t elapsed_ns)
{
	struct json_object *o = results_figures_json(d->ios, d->bytes, elapsed_ns, &d->lat), *h;

	if (jsonnum_add(rec, key, o) || !o)
		return -ENOMEM;
	/* The bins, so that figures can be merged exactly later. */
	h = hist_to_json(&d->lat);
	if (jsonnum_add(o, "hist", h) || !h)
		return -ENOMEM;
	return 0;
}

/*
 * "io_mix" (docs/results-format.md): a split or zoned random job's measured I/Os per block size
 * and per hundredth of its LBA range, and the sizes the profile left out of its split.
 */
/* Appends v to array a, taking ownership of v even on failure; false when it failed. */
static bool append(struct json_object *a, struct json_object *v)
{
	if (v && !json_object_array_add(a, v))
		return true;
	json_object_put(v);
	return false;
}

/* {"bs": size, key2: n} for an io_mix list, or NULL. */
static struct json_object *bs_pair(uint32_t bs, const char *key2, uint64_t n)
{
	struct json_object *e = json_object_new_object();

	if (!e || jsonnum_add(e, "bs", json_object_new_int64(bs)) ||
	    jsonnum_add(e, key2, json_object_new_uint64(n))) {
		json_object_put(e);
		return NULL;
	}
	return e;
}

static struct json_object *mix_to_json(const struct io_mix *m)
{
	struct json_object *o = json_object_new_object(), *bs, *lba, *ios, *dr;
	bool ok = o != NULL;

	bs = ok ? json_object_new_array() : NULL;
	ok = ok && !jsonnum_add(o, "bs", bs) && bs;
	for (unsigned i = 0; ok && i < m->nbs; i++)
		ok = append(bs, bs_pair(m->bs[i], "ios", m->bs_ios[i]));
	lba = ok ? json_object_new_object() : NULL;
	ok = ok && !jsonnum_add(o, "lba", lba) && lba &&
	     !jsonnum_add(lba, "start", json_object_new_uint64(m->range_start)) &&
	     !jsonnum_add(lba, "end", json_object_new_uint64(m->range_end));
	ios = ok ? json_object_new_array() : NULL;
	ok = ok && !jsonnum_add(lba, "buckets", ios) && ios;
	for (unsigned i = 0; ok && i < IO_MIX_BUCKETS; i++)
		ok = append(ios, json_object_new_uint64(m->lba_ios[i]));
	dr = ok ? json_object_new_array() : NULL;
	ok = ok && !jsonnum_add(o, "bs_dropped", dr) && dr;
	for (unsigned i = 0; ok && i < m->ndropped; i++)
		ok = append(dr, bs_pair(m->dropped[i].bs, "weight", m->dropped[i].weight));
	if (!ok) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int add_job(struct json_object *o, const struct job_result *j)
{
	struct json_object *t, *e;
	uint64_t ios = j->d[0].ios + j->d[1].ios, bytes = j->d[0].bytes + j->d[1].bytes;
	/* No I/O, no rate: null, not 0 (the elapsed time stays recorded). */
	uint64_t el = ios ? j->elapsed_ns : 0;
	char why[256];

	if (jsonnum_add(o, "elapsed_ns", json_object_new_uint64(j->elapsed_ns)) ||
	    jsonnum_add(o, "ramp_ns", json_object_new_uint64(j->ramp_elapsed_ns)) ||
	    jsonnum_add(o, "bytes_written_total", json_object_new_uint64(j->bytes_written_total)) ||
	    jsonnum_add(o, "bytes_read_total", json_object_new_uint64(j->bytes_read_total)) ||
	    jsonnum_add(o, "seq_next", json_object_new_uint64(j->seq_next)) ||
	    jsonnum_add(o, "cpu_user_s", jsonnum_new(j->cpu_user_s)) ||
	    jsonnum_add(o, "cpu_sys_s", jsonnum_new(j->cpu_sys_s)) ||
	    jsonnum_add(o, "effective_qd", json_object_new_int64(j->effective_qd)) ||
	    jsonnum_add(o, "clock_source", json_object_new_string(j->clock_source)) ||
	    jsonnum_add(o, "clock_read_ns", jsonnum_new(j->clock_read_ns)) ||
	    jsonnum_add(o, "foreign_sectors_read",
			json_object_new_uint64(j->foreign_sectors_read)) ||
	    jsonnum_add(o, "foreign_sectors_written",
			json_object_new_uint64(j->foreign_sectors_written)))
		return -ENOMEM;
	t = results_figures_json(ios, bytes, el, NULL);
	if (jsonnum_add(o, "total", t) || !t)
		return -ENOMEM;
	if (add_dir(o, "read", &j->d[IO_READ], el) || add_dir(o, "write", &j->d[IO_WRITE], el))
		return -ENOMEM;
	if (job_no_io_reason(j, why, sizeof(why)) &&
	    jsonnum_add(o, "no_io_reason", json_object_new_string(why)))
		return -ENOMEM;
	if (j->mix.on) {
		struct json_object *m = mix_to_json(&j->mix);

		if (jsonnum_add(o, "io_mix", m) || !m)
			return -ENOMEM;
	}
	if (!j->error)
		return 0;
	e = json_object_new_object();
	if (jsonnum_add(o, "error", e) || !e ||
	    /* The errno's name, not strerror(): that text depends on the locale. */
	    jsonnum_add(e, "errno",
			json_object_new_string(
			    strerrorname_np(-j->error) ? strerrorname_np(-j->error) : "unknown")) ||
	    jsonnum_add(e, "offset", json_object_new_uint64(j->err_offset)) ||
	    jsonnum_add(e, "len", json_object_new_uint64(j->err_len)) ||
	    jsonnum_add(e, "message", json_object_new_string(j->errmsg)))
		return -ENOMEM;
	return 0;
}

struct json_object *run_record_to_json(const struct results_record *rec,
				       const struct job_result *job)
{
	struct results_record r = *rec;
	struct json_object *o;
	char why[8];

	/* The flag goes with the common keys, before the figures: the key order of a record. */
	if (job && job_no_io_reason(job, why, sizeof(why)))
		r.flags |= RESULTS_F_NO_IO;
	o = results_record_to_json(&r);
	if (!o || !job)
		return o;
	if (add_job(o, job)) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *run_record_not_applicable(const struct results_record *rec, const char *why)
{
	struct results_record r = *rec;
	struct json_object *o = NULL, *t;
	struct dir_stats *d = calloc(1, sizeof(*d)); /* large: the bins are inline */

	r.flags |= RESULTS_F_NOT_APPLICABLE;
	if (!d)
		return NULL;
	hist_init(&d->lat);
	o = results_record_to_json(&r);
	if (!o || jsonnum_add(o, "not_applicable", json_object_new_string(why)) ||
	    jsonnum_add(o, "elapsed_ns", json_object_new_uint64(0)))
		goto fail;
	t = results_figures_json(0, 0, 0, NULL);
	if (jsonnum_add(o, "total", t) || !t || add_dir(o, "read", d, 0) ||
	    add_dir(o, "write", d, 0))
		goto fail;
	free(d);
	return o;
fail:
	free(d);
	json_object_put(o);
	return NULL;
}
