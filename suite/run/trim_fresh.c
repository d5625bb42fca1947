/* SPDX-License-Identifier: MIT */
/*
 * trim_fresh: the fresh-behaviour part of trim_check (run/trim_fresh.h says what and why).
 */
#include "run/trim_fresh.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/hist.h"
#include "base/jsonnum.h"
#include "engine/engine.h"
#include "results/snapshot.h"

/* One timed job of 4 KiB random writes at QD32 over the region into *sd. */
static int measure(struct target *t, uint64_t off, uint64_t len, uint64_t time_ns, uint64_t seed,
		   volatile sig_atomic_t *stop, const char *when, struct trim_fresh_side *sd,
		   char *err, size_t errlen)
{
	struct engine_hooks h = {.stop = stop};
	struct job_result r;
	struct job_spec s;
	char verr[256] = "";
	int rc;

	memset(&s, 0, sizeof(s));
	s.rw = RW_RANDWRITE;
	s.bs[0].bs = 4096;
	s.bs[0].weight = 1;
	s.nbs = 1;
	s.qd = 32;
	s.threads = 1;
	s.seed = seed; /* the same offsets before and after: only the discard differs */
	s.pattern = PATTERN_RANDOM;
	s.range_start = off;
	s.range_end = off + len;
	s.time_ns = time_ns;
	rc = job_validate(&s, target_info(t), verr, sizeof(verr));
	if (rc) {
		snprintf(err, errlen, "fresh %s: %s", when, verr[0] ? verr : strerror(-rc));
		return rc;
	}
	memset(&r, 0, sizeof(r));
	rc = engine_run(t, &s, &h, &r);
	if (!rc && r.interrupted)
		rc = -EINTR;
	else if (!rc && r.error)
		rc = r.error < 0 ? r.error : -EIO;
	if (rc) {
		snprintf(err, errlen, "fresh %s: %s", when, r.errmsg[0] ? r.errmsg : strerror(-rc));
		goto out;
	}
	sd->iops = job_iops(&r);
	sd->mbps = job_bw(&r) / 1e6;
	sd->bytes = r.d[IO_WRITE].bytes;
	sd->elapsed_ns = r.elapsed_ns;
	sd->p50_ns = hist_percentile(&r.d[IO_WRITE].lat, 50);
	sd->p99_ns = hist_percentile(&r.d[IO_WRITE].lat, 99);
out:
	job_result_release(&r);
	return rc;
}

/* valid_bytes and free_blocks of a snapshot; false when the target has not both. */
static bool counters(struct target *t, double *valid, double *freeb)
{
	const struct counter *v, *f;
	struct snapshot s;
	bool ok = false;

	snapshot_init(&s, "none"); /* target_snapshot releases what it finds: it must be valid */
	if (target_snapshot(t, &s))
		goto out;
	v = snapshot_get(&s, "valid_bytes");
	f = snapshot_get(&s, "free_blocks");
	if (!v || !f)
		goto out;
	*valid = v->value;
	*freeb = f->value;
	ok = true;
out:
	snapshot_release(&s);
	return ok;
}

int trim_fresh_run(struct target *t, uint64_t offset, uint64_t len, uint64_t time_ns, uint64_t seed,
		   volatile sig_atomic_t *stop, struct trim_fresh *out, char *err, size_t errlen)
{
	struct trim_fresh f = {.offset = offset, .len = len, .time_ns = time_ns};
	int rc;

	rc = measure(t, offset, len, time_ns, seed, stop, "before the discard", &f.before, err,
		     errlen);
	if (rc)
		return rc;
	rc = target_flush(t);
	if (rc) {
		snprintf(err, errlen, "fresh: flush: %s", strerror(-rc));
		return rc;
	}
	f.has_counters = counters(t, &f.valid_before, &f.free_before);
	rc = target_discard(t, offset, len);
	if (rc) {
		snprintf(err, errlen, "fresh: discard of %llu bytes at %llu: %s",
			 (unsigned long long)len, (unsigned long long)offset, strerror(-rc));
		return rc;
	}
	f.has_counters = f.has_counters && counters(t, &f.valid_after, &f.free_after);
	rc = measure(t, offset, len, time_ns, seed, stop, "after the discard", &f.after, err,
		     errlen);
	if (rc)
		return rc;
	*out = f;
	return 0;
}

static struct json_object *side(const struct trim_fresh_side *sd)
{
	struct json_object *o = json_object_new_object();
	int e = 0;

	jsonnum_build_num(o, "iops", sd->iops, &e);
	jsonnum_build_num(o, "mbps", sd->mbps, &e);
	jsonnum_build_num(o, "bytes", (double)sd->bytes, &e);
	jsonnum_build_num(o, "elapsed_ns", (double)sd->elapsed_ns, &e);
	jsonnum_build_num(o, "p50_ns", (double)sd->p50_ns, &e);
	jsonnum_build_num(o, "p99_ns", (double)sd->p99_ns, &e);
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *trim_fresh_to_json(const struct trim_fresh *f)
{
	struct json_object *o = json_object_new_object();
	int e = 0;

	jsonnum_build_num(o, "offset", (double)f->offset, &e);
	jsonnum_build_num(o, "bytes", (double)f->len, &e);
	jsonnum_build_num(o, "time_ns", (double)f->time_ns, &e);
	jsonnum_build_add(o, "before", side(&f->before), &e);
	jsonnum_build_add(o, "after", side(&f->after), &e);
	if (f->has_counters) {
		jsonnum_build_num(o, "valid_bytes_before", f->valid_before, &e);
		jsonnum_build_num(o, "valid_bytes_after", f->valid_after, &e);
		jsonnum_build_num(o, "free_blocks_before", f->free_before, &e);
		jsonnum_build_num(o, "free_blocks_after", f->free_after, &e);
	}
	if (e) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
