/* SPDX-License-Identifier: MIT */
/*
 * cmpfast: drive time and host bytes to a steady-state verdict, and the fast path's keys, of one
 * run (cmpfast.h). Records are read as the runner writes them (docs/results-format.md): phase,
 * repeat, round, elapsed_ns (the target's time the job ran) and write.bytes.
 */
#include "report/cmpfast.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "results/records.h"

static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, key, &v)
		       ? v
		       : NULL;
}

static long long num_or(struct json_object *o, const char *key, long long dflt)
{
	double v = jsonget_num(o, key);

	return isfinite(v) ? (long long)v : dflt;
}

struct json_object *cmpfast_ss_result(struct json_object *summary)
{
	struct json_object *a = member(summary, "steady_state"), *snia = member(summary, "snia");

	if (a && json_object_is_type(a, json_type_array) && json_object_array_length(a))
		return json_object_array_get_idx(a, 0);
	for (size_t i = 0; snia && json_object_is_type(snia, json_type_array) &&
			   i < json_object_array_length(snia); i++) {
		struct json_object *ss = member(json_object_array_get_idx(snia, i), "steady_state");
		if (ss && json_object_is_type(ss, json_type_object))
			return ss;
	}
	return NULL;
}

/* Whether record r comes before the verdict: an earlier phase, an earlier repeat of the
 * verdict's phase, or a round of it at or before the verdict's. */
static bool before(struct json_object *r, const struct cmpfast_verdict *v)
{
	long long ph = num_or(r, "phase", -1), rep = num_or(r, "repeat", 0), rd = num_or(r, "round", 0);

	if (ph < 0)
		return false;
	if (ph != v->phase)
		return ph < v->phase;
	return rep < v->repeat || (rep == v->repeat && rd <= v->round);
}

static void copy(char *dst, size_t len, const char *s)
{
	snprintf(dst, len, "%s", s ? s : "");
}

void cmpfast_verdict(struct json_object *ss, const struct results_records *rr,
		     struct cmpfast_verdict *out)
{
	struct json_object *early = member(ss, "early");
	struct cmpfast_verdict v = {0};

	memset(out, 0, sizeof(*out));
	if (!ss)
		return;
	v.found = true;
	copy(v.cell, sizeof(v.cell), jsonget_str(ss, "cell"));
	copy(v.metric, sizeof(v.metric), jsonget_str(ss, "metric"));
	v.phase = num_or(ss, "phase", -1);
	v.repeat = num_or(ss, "repeat", 0);
	copy(v.snia, sizeof(v.snia), jsonget_str(ss, "verdict") ? jsonget_str(ss, "verdict") : "-");
	v.snia_round = json_object_get_boolean(member(ss, "reached")) ? num_or(ss, "last_round", -1)
								       : -1;
	v.early_round = -1;
	v.early_confidence = NAN;
	v.stopped_run = -1;
	if (early && json_object_is_type(early, json_type_object)) {
		struct json_object *stop = member(early, "stopped_run");
		v.early_present = true;
		copy(v.early, sizeof(v.early), jsonget_str(early, "verdict") ? jsonget_str(early, "verdict")
									      : "-");
		v.early_round = num_or(early, "round", -1);
		v.early_confidence = jsonget_num(early, "confidence");
		copy(v.early_method, sizeof(v.early_method), jsonget_str(early, "method"));
		if (stop && json_object_is_type(stop, json_type_boolean))
			v.stopped_run = json_object_get_boolean(stop);
	} else {
		copy(v.early, sizeof(v.early), "absent");
	}
	if (v.early_present && !strcmp(v.early, "predicted") && v.early_round >= 0) {
		v.round = v.early_round;
		v.round_from = "early verdict";
	} else if (v.snia_round >= 0) {
		v.round = v.snia_round;
		v.round_from = "SNIA window";
	} else {
		/* no verdict: the whole rounds phase, to its last recorded round */
		v.round = 0;
		for (size_t i = 0; i < rr->n; i++) {
			long long rd = num_or(rr->rec[i], "round", 0);
			if (num_or(rr->rec[i], "phase", -1) == v.phase &&
			    num_or(rr->rec[i], "repeat", 0) == v.repeat && rd > v.round)
				v.round = rd;
		}
		v.round_from = "last round (no verdict)";
	}
	for (size_t i = 0; i < rr->n; i++) {
		struct json_object *r = rr->rec[i];
		double ns = jsonget_num(r, "elapsed_ns"), b = jsonget_num(member(r, "write"), "bytes");
		if (num_or(r, "phase", -1) >= 0) {
			v.run_records++;
			if (isfinite(ns) && ns > 0)
				v.run_drive_ns += (uint64_t)ns;
			if (isfinite(b) && b > 0)
				v.run_host_bytes += (uint64_t)b;
		}
		if (!before(r, &v))
			continue;
		v.records++;
		if (isfinite(ns) && ns > 0)
			v.drive_ns += (uint64_t)ns;
		if (isfinite(b) && b > 0)
			v.host_bytes += (uint64_t)b;
	}
	*out = v;
}

const char *cmpfast_forced(struct json_object *summary)
{
	struct json_object *snia = member(summary, "snia");

	for (size_t i = 0; snia && json_object_is_type(snia, json_type_array) &&
			   i < json_object_array_length(snia); i++) {
		struct json_object *b = json_object_array_get_idx(snia, i);
		const char *why = jsonget_str(member(member(b, "header"), "fast"), "forced_past");

		if (why)
			return why;
	}
	return NULL;
}

void cmpfast_precondition(struct json_object *manifest, const struct results_records *rr,
			  char *buf, size_t len)
{
	struct json_object *sets = member(manifest, "sets");
	const char *text = jsonget_str(member(manifest, "profile"), "text");

	for (size_t i = 0; i < rr->n; i++) {
		const char *kind = jsonget_str(rr->rec[i], "kind");
		const char *m = jsonget_str(member(rr->rec[i], "precondition"), "method");
		if (kind && !strcmp(kind, "precondition") && m) {
			copy(buf, len, m);
			return;
		}
	}
	/* a run made before the method was recorded per record: its profile (or a --set) says */
	if (text && strstr(text, "sprandom")) {
		copy(buf, len, "sprandom (profile text)");
		return;
	}
	for (size_t i = 0; sets && json_object_is_type(sets, json_type_array) &&
			   i < json_object_array_length(sets); i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(sets, i));
		if (s && strstr(s, "sprandom")) {
			copy(buf, len, "sprandom (--set)");
			return;
		}
	}
	copy(buf, len, "sequential (none recorded)");
}

/*
 * The SNIA block and matrix row compare's figure key "TEST[#REP] matrix[I].iops" names in
 * summary (borrowed), or NULL for any other key or a block or row that is not there.
 */
static struct json_object *matrix_row(struct json_object *summary, const char *key,
				      struct json_object **block)
{
	struct json_object *snia = member(summary, "snia");
	char test[64], tail[32];
	long long rep = 0;
	size_t i;
	int n = 0;

	/* "iops matrix[3].iops" or "iops#2 matrix[3].iops" */
	if (sscanf(key, "%63[^ #] matrix[%zu].%31s%n", test, &i, tail, &n) != 3 || key[n] ||
	    strcmp(tail, "iops")) {
		if (sscanf(key, "%63[^ #]#%lld matrix[%zu].%31s%n", test, &rep, &i, tail, &n) != 4 ||
		    key[n] || strcmp(tail, "iops"))
			return NULL;
	}
	for (size_t b = 0; snia && json_object_is_type(snia, json_type_array) &&
			   b < json_object_array_length(snia); b++) {
		struct json_object *blk = json_object_array_get_idx(snia, b);
		struct json_object *mat = member(blk, "matrix");
		const char *t = jsonget_str(blk, "test");

		if (!t || strcmp(t, test) || num_or(blk, "repeat", 0) != rep)
			continue;
		if (!mat || !json_object_is_type(mat, json_type_array) ||
		    i >= json_object_array_length(mat))
			return NULL;
		*block = blk;
		return json_object_array_get_idx(mat, i);
	}
	return NULL;
}

bool cmpfast_round_range(struct json_object *summary, const char *key, double *lo, double *hi)
{
	struct json_object *blk = NULL, *row = matrix_row(summary, key, &blk), *trk, *w;
	const char *cell = row ? jsonget_str(row, "cell") : NULL;
	long long first, last;
	bool any = false;

	if (!cell)
		return false;
	trk = member(blk, "tracking");
	w = member(blk, "window");
	first = num_or(w, "first_round", -1);
	last = num_or(w, "last_round", -1);
	if (!trk || !json_object_is_type(trk, json_type_array) || first < 0 || last < first)
		return false;
	for (size_t c = 0; c < json_object_array_length(trk); c++) {
		struct json_object *e = json_object_array_get_idx(trk, c);
		struct json_object *rounds = member(e, "rounds"), *iops = member(e, "iops");
		const char *ec = jsonget_str(e, "cell");

		if (!ec || strcmp(ec, cell) || !rounds || !iops ||
		    !json_object_is_type(rounds, json_type_array) ||
		    !json_object_is_type(iops, json_type_array))
			continue;
		for (size_t k = 0;
		     k < json_object_array_length(rounds) && k < json_object_array_length(iops); k++) {
			long long r = json_object_get_int64(json_object_array_get_idx(rounds, k));
			double v = json_object_get_double(json_object_array_get_idx(iops, k));

			if (r < first || r > last || !isfinite(v))
				continue;
			if (!any || v < *lo)
				*lo = v;
			if (!any || v > *hi)
				*hi = v;
			any = true;
		}
		return any;
	}
	return false;
}

bool cmpfast_fast_unsteady(struct json_object *summary, const char *key)
{
	struct json_object *blk = NULL, *row = matrix_row(summary, key, &blk), *fr, *st;

	fr = row ? member(row, "fast_rounds") : NULL;
	st = fr ? member(fr, "steady") : NULL;
	return st && json_object_is_type(st, json_type_boolean) && !json_object_get_boolean(st);
}

double cmpfast_diff(double fast, double full)
{
	if (!isfinite(fast) || !isfinite(full) || full == 0)
		return NAN;
	return (fast - full) / full;
}
