/* SPDX-License-Identifier: MIT */
/*
 * fio: fio's JSON through ssdlab's analysis (fio.h). The histogram decoder is ours, from the
 * layout in fio's stat.h (plat_val_to_idx / plat_idx_to_val); json+ writes each non-empty bin
 * as "value": count, and the value is mapped back to its bin here, so a key that is not a bin
 * midpoint (a different fio layout) is refused rather than misplaced.
 */
#include "analysis/fio.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

/* fio's default percentile list (the one its clat_ns.percentile object holds). */
static const double PCTS[] = {1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99};
#define NPCTS (sizeof(PCTS) / sizeof(PCTS[0]))

unsigned fio_plat_val_to_idx(uint64_t v)
{
	unsigned msb = v ? 63u - (unsigned)__builtin_clzll(v) : 0, err_bits, idx;

	/* below 2^(PLAT_BITS+1) every value has its own bin */
	if (msb <= FIO_PLAT_BITS)
		return (unsigned)v;
	err_bits = msb - FIO_PLAT_BITS;
	idx = ((err_bits + 1) << FIO_PLAT_BITS) + (unsigned)((v >> err_bits) & (FIO_PLAT_VAL - 1));
	return idx < FIO_PLAT_NR ? idx : FIO_PLAT_NR - 1;
}

uint64_t fio_plat_idx_to_val(unsigned idx)
{
	unsigned err_bits;

	if (idx < (FIO_PLAT_VAL << 1))
		return idx;
	err_bits = (idx >> FIO_PLAT_BITS) - 1;
	/* the midpoint: 2^m + (k + 0.5) 2^(m-6), computed in integers (fio truncates a double) */
	return (1ull << (err_bits + FIO_PLAT_BITS)) + (uint64_t)(idx % FIO_PLAT_VAL) * (1ull << err_bits) +
	       (1ull << err_bits) / 2;
}

static int fail(char *err, size_t len, int rc, const char *msg, const char *what)
{
	snprintf(err, len, "%s%s%s", msg, what ? ": " : "", what ? what : "");
	return rc;
}

/* The bins of json+'s clat_ns.bins into counts[FIO_PLAT_NR]; *total the count. 0, -ENOENT (no
 * histogram: plain json), -EINVAL. */
static int read_bins(struct json_object *dir, uint64_t *counts, uint64_t *total, char *err,
		     size_t len)
{
	struct json_object *clat, *bins;

	*total = 0;
	if (!json_object_object_get_ex(dir, "clat_ns", &clat) ||
	    !json_object_object_get_ex(clat, "bins", &bins))
		return -ENOENT;
	if (!json_object_is_type(bins, json_type_object))
		return fail(err, len, -EINVAL, "clat_ns.bins is not an object", NULL);
	json_object_object_foreach(bins, k, v)
	{
		char *end;
		unsigned long long val = strtoull(k, &end, 10);
		unsigned idx = fio_plat_val_to_idx(val);
		int64_t c = json_object_get_int64(v);

		if (*end || end == k || c < 0)
			return fail(err, len, -EINVAL, "clat_ns.bins: bad bin", k);
		if (fio_plat_idx_to_val(idx) != val && idx != FIO_PLAT_NR - 1)
			return fail(err, len, -EINVAL, "clat_ns.bins: not a bin of fio's layout", k);
		counts[idx] += (uint64_t)c;
		*total += (uint64_t)c;
	}
	return 0;
}

__extension__ typedef unsigned __int128 u128;

bool fio_reaches(uint64_t sum, double p, uint64_t n)
{
	int e;
	uint64_t m = (uint64_t)ldexp(frexp(p, &e), 53);

	/* p in [1, 100]: e - 53 is -52 .. -46, a left shift of the count (fio.h) */
	e -= 53;
	return ((u128)sum * 100 << -e) >= (u128)m * n;
}

static struct json_object *percentiles(const uint64_t *counts, uint64_t total)
{
	struct json_object *o = json_object_new_object();
	uint64_t sum = 0;
	size_t j = 0;

	if (!o)
		return NULL;
	for (unsigned i = 0; i < FIO_PLAT_NR && j < NPCTS; i++) {
		sum += counts[i];
		/* as fio's calc_clat_percentiles: the first bin where the sum reaches p% */
		while (j < NPCTS && fio_reaches(sum, PCTS[j], total)) {
			char key[16];

			snprintf(key, sizeof(key), "%g", PCTS[j]);
			json_object_object_add(o, key, json_object_new_int64((int64_t)fio_plat_idx_to_val(i)));
			j++;
		}
	}
	return o;
}

static int64_t get_i64(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_int64(v) : 0;
}

static double get_dbl(struct json_object *o, const char *k)
{
	struct json_object *v;

	return json_object_object_get_ex(o, k, &v) ? json_object_get_double(v) : 0;
}

/* One direction of a job: ios, bytes, iops, bw_bps, and our percentiles from the histogram. */
static int direction(struct json_object *job, const char *name, struct json_object *out,
		     double *iops, bool *hist, char *err, size_t len)
{
	struct json_object *d, *o;
	uint64_t *counts, total;
	int rc;

	if (!json_object_object_get_ex(job, name, &d) || !json_object_is_type(d, json_type_object))
		return fail(err, len, -EINVAL, "a job without", name);
	o = json_object_new_object();
	counts = calloc(FIO_PLAT_NR, sizeof(*counts));
	if (!o || !counts) {
		rc = -ENOMEM;
		goto out;
	}
	json_object_object_add(o, "ios", json_object_new_int64(get_i64(d, "total_ios")));
	json_object_object_add(o, "bytes", json_object_new_int64(get_i64(d, "io_bytes")));
	json_object_object_add(o, "iops", json_object_new_double(get_dbl(d, "iops")));
	json_object_object_add(o, "bw_bps", json_object_new_int64(get_i64(d, "bw_bytes")));
	*iops += get_dbl(d, "iops");
	rc = read_bins(d, counts, &total, err, len);
	if (rc == -ENOENT) {
		/* plain json (no bins); a direction without I/O has none in json+ either */
		if (get_i64(d, "total_ios"))
			*hist = false;
		rc = 0;
	} else if (rc) {
		goto out;
	} else if (total) {
		struct json_object *p = percentiles(counts, total);

		if (!p) {
			rc = -ENOMEM;
			goto out;
		}
		json_object_object_add(o, "clat_ns_percentiles", p);
	}
	json_object_object_add(out, name, o);
	o = NULL;
out:
	json_object_put(o);
	free(counts);
	return rc;
}

/* A job named by export-fio: p<phase>.i<iteration>.r<round>.<cell>. */
static bool parse_name(const char *s, int *phase, unsigned *rep, unsigned *round, const char **cell)
{
	int n = 0;

	if (sscanf(s, "p%d.i%u.r%u.%n", phase, rep, round, &n) != 3 || !n)
		return false;
	*cell = s + n;
	return true;
}

struct series {
	int phase;
	unsigned rep;
	char cell[96];
	double y[10000];
	unsigned first, n;
};

/* Steady state over the rounds (>= 1) of every (phase, iteration, cell), in file order. */
static int steady(struct json_object *jobs, const struct ss_params *p, struct json_object *out)
{
	size_t nj = json_object_array_length(jobs);
	struct series *s = malloc(sizeof(*s));
	bool *done = calloc(nj ? nj : 1, sizeof(*done));
	int rc = 0;

	if (!s || !done) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nj && !rc; i++) {
		struct json_object *a = json_object_array_get_idx(jobs, i), *v, *rounds, *ro;
		struct ss_result r;
		const char *cell;
		unsigned round;

		if (done[i] || !json_object_object_get_ex(a, "round", &v) || !json_object_get_int(v))
			continue;
		memset(s, 0, sizeof(*s));
		s->phase = json_object_get_int(json_object_object_get(a, "phase"));
		s->rep = (unsigned)json_object_get_int(json_object_object_get(a, "iteration"));
		snprintf(s->cell, sizeof(s->cell), "%s",
			 json_object_get_string(json_object_object_get(a, "cell")));
		rounds = json_object_new_array();
		if (!rounds) {
			rc = -ENOMEM;
			break;
		}
		for (size_t k = i; k < nj && s->n < 10000; k++) {
			struct json_object *b = json_object_array_get_idx(jobs, k);

			if (json_object_get_int(json_object_object_get(b, "phase")) != s->phase ||
			    (unsigned)json_object_get_int(json_object_object_get(b, "iteration")) != s->rep)
				continue;
			cell = json_object_get_string(json_object_object_get(b, "cell"));
			round = (unsigned)json_object_get_int(json_object_object_get(b, "round"));
			if (!round || strcmp(cell, s->cell))
				continue;
			done[k] = true;
			if (!s->n)
				s->first = round;
			s->y[s->n++] = json_object_get_double(json_object_object_get(b, "iops"));
			json_object_array_add(rounds, json_object_new_double(s->y[s->n - 1]));
		}
		ro = json_object_new_object();
		if (!ro || ss_scan(s->y, s->n, s->first, p, &r)) {
			json_object_put(rounds);
			json_object_put(ro);
			rc = ro ? -EINVAL : -ENOMEM;
			break;
		}
		json_object_object_add(ro, "phase", json_object_new_int(s->phase));
		json_object_object_add(ro, "iteration", json_object_new_int((int)s->rep));
		json_object_object_add(ro, "cell", json_object_new_string(s->cell));
		json_object_object_add(ro, "metric", json_object_new_string("iops"));
		json_object_object_add(ro, "rounds", rounds);
		json_object_object_add(ro, "result", ss_result_to_json(&r));
		json_object_array_add(out, ro);
	}
out:
	free(s);
	free(done);
	return rc;
}

int fio_analyze(struct json_object *fio, const struct ss_params *p, struct json_object **out,
		char *err, size_t len)
{
	struct json_object *jobs, *o = NULL, *arr, *ss, *v;
	bool hist = true;
	int rc;

	if (!json_object_is_type(fio, json_type_object) ||
	    !json_object_object_get_ex(fio, "jobs", &jobs) ||
	    !json_object_is_type(jobs, json_type_array))
		return fail(err, len, -EINVAL, "not fio's JSON output (no \"jobs\" array)", NULL);
	o = json_object_new_object();
	arr = json_object_new_array();
	ss = json_object_new_array();
	if (!o || !arr || !ss) {
		json_object_put(arr);
		json_object_put(ss);
		rc = -ENOMEM;
		goto fail;
	}
	json_object_object_add(o, "source", json_object_new_string("fio"));
	json_object_object_add(o, "fio_version",
			       json_object_object_get_ex(fio, "fio version", &v)
				       ? json_object_new_string(json_object_get_string(v))
				       : NULL);
	json_object_object_add(o, "jobs", arr);
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i), *a, *name;
		const char *nm, *cell;
		double iops = 0;
		unsigned rep, round;
		int phase;

		if (!json_object_object_get_ex(j, "jobname", &name)) {
			rc = fail(err, len, -EINVAL, "a job without a jobname", NULL);
			json_object_put(ss);
			goto fail;
		}
		nm = json_object_get_string(name);
		a = json_object_new_object();
		if (!a) {
			rc = -ENOMEM;
			json_object_put(ss);
			goto fail;
		}
		json_object_array_add(arr, a);
		json_object_object_add(a, "name", json_object_new_string(nm));
		if (parse_name(nm, &phase, &rep, &round, &cell)) {
			json_object_object_add(a, "phase", json_object_new_int(phase));
			json_object_object_add(a, "iteration", json_object_new_int((int)rep));
			json_object_object_add(a, "round", json_object_new_int((int)round));
			json_object_object_add(a, "cell", json_object_new_string(cell));
		}
		rc = direction(j, "read", a, &iops, &hist, err, len);
		if (!rc)
			rc = direction(j, "write", a, &iops, &hist, err, len);
		if (rc) {
			json_object_put(ss);
			goto fail;
		}
		json_object_object_add(a, "iops", json_object_new_double(iops));
	}
	json_object_object_add(o, "histogram", json_object_new_boolean(hist));
	json_object_object_add(o, "steady_state_params", ss_params_to_json(p));
	json_object_object_add(o, "steady_state", ss);
	rc = steady(arr, p, ss);
	if (rc)
		goto fail;
	*out = o;
	return 0;
fail:
	json_object_put(o);
	return rc;
}
