/* SPDX-License-Identifier: MIT */
/*
 * results/records: the JSON shapes of the record format (see records.h): I/O figures (latency
 * and rates, the same in records and in summary.json) and a record's key. Reading records.jsonl
 * is records_read.c; writing a record, results_record.c.
 */
#include "results/records.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include <json-c/json.h>

#include "base/hist.h"
#include "base/jsonnum.h"

/* The percentiles every record and summary reports, and their key names. */
static const struct {
	double p;
	const char *key;
} percentiles[] = {
    {50, "p50"},     {90, "p90"},	{95, "p95"},	     {99, "p99"},
    {99.9, "p99_9"}, {99.99, "p99_99"}, {99.999, "p99_999"},
};

static double rate(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : NAN;
}

struct json_object *results_lat_json(const struct hist *h)
{
	struct json_object *o;

	if (!h->count)
		return NULL; /* JSON null: no latency without I/O */
	o = json_object_new_object();
	if (!o)
		return NULL;
	if (jsonnum_add(o, "mean", jsonnum_new(hist_mean(h))) ||
	    jsonnum_add(o, "min", json_object_new_uint64(h->min)))
		goto fail;
	for (size_t i = 0; i < sizeof(percentiles) / sizeof(percentiles[0]); i++)
		if (jsonnum_add(o, percentiles[i].key,
				json_object_new_uint64(hist_percentile(h, percentiles[i].p))))
			goto fail;
	if (jsonnum_add(o, "max", json_object_new_uint64(h->max)))
		goto fail;
	return o;
fail:
	json_object_put(o);
	return NULL;
}

struct json_object *results_figures_json(uint64_t ios, uint64_t bytes, uint64_t elapsed_ns,
					 const struct hist *h)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (jsonnum_add(o, "ios", json_object_new_uint64(ios)) ||
	    jsonnum_add(o, "bytes", json_object_new_uint64(bytes)) ||
	    jsonnum_add(o, "iops", jsonnum_new(rate(ios, elapsed_ns))) ||
	    jsonnum_add(o, "bw_bps", jsonnum_new(rate(bytes, elapsed_ns))) ||
	    (h && jsonnum_add(o, "lat_ns", results_lat_json(h)))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int get_str(struct json_object *o, const char *key, const char **s)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_string))
		return -EINVAL;
	*s = json_object_get_string(x);
	return 0;
}

int results_record_key(struct json_object *rec, char *buf, size_t len)
{
	const char *cell, *kind;
	struct json_object *x;
	uint64_t repeat, round;
	int64_t phase;
	int n;

	if (!rec || !json_object_object_get_ex(rec, "phase", &x) ||
	    !json_object_is_type(x, json_type_int) || jsonnum_get_u64(rec, "repeat", &repeat) ||
	    jsonnum_get_u64(rec, "round", &round) || get_str(rec, "cell", &cell) ||
	    get_str(rec, "kind", &kind))
		return -EINVAL;
	phase = json_object_get_int64(x);
#define KEY_FMT "phase=%" PRId64 ",repeat=%" PRIu64 ",round=%" PRIu64 ",cell=%s,kind=%s"
	n = snprintf(NULL, 0, KEY_FMT, phase, repeat, round, cell, kind);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	snprintf(buf, len, KEY_FMT, phase, repeat, round, cell, kind);
#undef KEY_FMT
	return 0;
}
