/* SPDX-License-Identifier: MIT */
/*
 * pass_headline: the analysis pass for summary.json's "headline": the figures the CLI prints after
 * a run (cli/headline.c renders them): steady state and its WA, recovery after each idle
 * (analysis/recovery.h), the measured cells, WSAT fills. A pass of analyze.c's table (pass.h).
 */
#include "analysis/pass.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "base/units.h"
#include "analysis/reader.h"
#include "analysis/recovery.h"
#include "analysis/wa.h"
#include "analysis/wsat.h"

/* For printing a string that may be missing. */
static const char *S(const char *s)
{
	return s ? s : "?";
}

/*
 * WA over a steady-state window: from the last snapshot taken at or before the window's first
 * measurement started to the first taken at or after its last one ended (the runner takes them
 * at phase boundaries, so for a rounds phase that stops at steady state these are its start
 * and end). NULL (JSON null) when no snapshot brackets the window.
 */
static struct json_object *headline_ss_wa(const struct analyze_input *in, struct json_object *ss)
{
	int64_t phase, repeat, lo, hi;
	uint64_t t0, t1;
	size_t a, b;

	if (jsonget_int(ss, "phase", &phase) || jsonget_int(ss, "repeat", &repeat) ||
	    jsonget_int(ss, "first_round", &lo) || jsonget_int(ss, "last_round", &hi))
		return NULL;
	if (reader_round_span(&in->records, phase, repeat, lo, hi, &t0, &t1) ||
	    wa_bracket(in->snaps.t, in->snaps.has_t, in->snaps.n, t0, t1, &a, &b))
		return NULL;
	{
		const struct pass_wa_scope sc = {.check = false};

		return pass_wa_entry(in, a, b, &sc, 0);
	}
}

/* pass.h */
struct json_object *pass_ss_before(const struct analyze_input *in, struct json_object *arr,
				   size_t before)
{
	struct json_object *best = NULL;

	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		int64_t p, r, hi;
		long last;
		double avg;

		if (jsonget_int(s, "phase", &p) || jsonget_int(s, "repeat", &r) ||
		    jsonget_int(s, "last_round", &hi) || jsonnum_get(s, "average", &avg) ||
		    !(avg > 0))
			continue;
		last = reader_round_record(&in->records, p, r, hi, true);
		if (last >= 0 && (size_t)last < before)
			best = s;
	}
	return best;
}

/*
 * Recovery after an idle phase: the measurements after it (reader_recovery) against the
 * steady-state average judged before it, by recovery_scan() and RECOVERY_RULE_DEFAULT. The
 * first one's change; then how much writing (target time, and in the profile's time: divided by
 * the record's time_scale; bytes) came before the drive was back. No entry when the idle has no
 * steady state before it or nothing after.
 */
static int headline_recovery(const struct analyze_input *in, struct json_object *ssarr,
			     const struct reader_idle *idle, struct json_object *out)
{
	const struct recovery_rule rule = RECOVERY_RULE_DEFAULT;
	struct json_object *ss = pass_ss_before(in, ssarr, idle->index), *e, *jr;
	const char *cell = ss ? jsonget_str(ss, "cell") : NULL,
		   *metric = ss ? jsonget_str(ss, "metric") : NULL;
	struct reader_recovery pts = {0};
	struct recovery_result r;
	uint64_t idle_ns = idle->idle_ns;
	double avg = 0, scale = idle->time_scale;
	int rc;

	if (!ss || !cell || !metric || jsonnum_get(ss, "average", &avg))
		return 0;
	rc = reader_recovery(&in->records, idle->index, cell, metric, &pts);
	if (rc)
		return rc;
	rc = recovery_scan(pts.p, pts.n, avg, &rule, &r);
	free(pts.p);
	if (rc)
		return rc == -ENODATA ? 0 : rc;
	if (pts.first_scale > 0)
		scale = pts.first_scale;
	if (!(scale > 0))
		scale = 1;
	e = json_object_new_object();
	if (json_object_array_add(out, e) || !e)
		return -ENOMEM;
	if (pass_add_int(e, "idle_phase", idle->phase) ||
	    pass_add_int(e, "idle_repeat", idle->repeat) ||
	    jsonnum_add(e, "idle_target_ns", json_object_new_uint64(idle_ns)) ||
	    jsonnum_add(e, "idle_profile_ns", jsonnum_new((double)idle_ns / scale)) ||
	    pass_add_int(e, "phase", pts.first_phase) || pass_add_str(e, "cell", cell) ||
	    pass_add_str(e, "metric", metric) || jsonnum_add(e, "steady_state", jsonnum_new(avg)) ||
	    jsonnum_add(e, "first", jsonnum_new(r.first)) ||
	    jsonnum_add(e, "first_change", jsonnum_new(r.first / avg - 1)) ||
	    jsonnum_add(e, "band", jsonnum_new(rule.band)) ||
	    jsonnum_add(e, "measurements", json_object_new_int64((int64_t)r.measurements)) ||
	    pass_add_str(e, "verdict", r.back ? "back" : "not_within_measured_rounds") ||
	    jsonnum_add(e, "back_round", r.back ? json_object_new_int64(r.back_round) : NULL) ||
	    jsonnum_add(e, "back_after_target_ns",
			r.back ? json_object_new_uint64(r.back_after_ns) : NULL) ||
	    jsonnum_add(e, "back_after_profile_ns",
			r.back ? jsonnum_new((double)r.back_after_ns / scale) : NULL) ||
	    jsonnum_add(e, "back_after_bytes",
			r.back ? json_object_new_uint64(r.back_after_bytes) : NULL))
		return -ENOMEM;
	jr = json_object_new_object();
	if (jsonnum_add(e, "rule", jr) || !jr || pass_add_str(jr, "name", RECOVERY_RULE_NAME) ||
	    pass_add_int(jr, "rounds", rule.rounds) ||
	    jsonnum_add(jr, "band", jsonnum_new(rule.band)) ||
	    jsonnum_add(e, "first_in_band_round",
			r.has_first_in_band ? json_object_new_int64(r.first_in_band_round) : NULL))
		return -ENOMEM;
	return 0;
}

/* The plan's phase with depth-first number *n (counted down), through repeat bodies. */
static struct json_object *plan_phase(struct json_object *list, int64_t *n)
{
	for (size_t i = 0; list && i < json_object_array_length(list); i++) {
		struct json_object *ph = json_object_array_get_idx(list, i), *set, *body, *x;

		if (!(*n)--)
			return ph;
		if (json_object_object_get_ex(ph, "settings", &set) &&
		    json_object_object_get_ex(set, "phases", &body) && (x = plan_phase(body, n)))
			return x;
	}
	return NULL;
}

/* "4k", "1m", "512": a block size as profiles write it. */
static void fmt_bs(uint64_t b, char *buf, size_t len)
{
	if (b && !(b % (1u << 20)))
		snprintf(buf, len, "%" PRIu64 "m", b >> 20);
	else if (b && !(b % 1024))
		snprintf(buf, len, "%" PRIu64 "k", b >> 10);
	else
		snprintf(buf, len, "%" PRIu64, b);
}

/* The value of `key` in a cell key such as "rwmix_read=0,bs=4k", into buf; NULL when absent. */
static const char *cell_coord(const char *cell, const char *key, char *buf, size_t len)
{
	size_t kl = strlen(key);

	for (const char *p = cell; p && *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			snprintf(buf, len, "%.*s", (int)(n - kl - 1), p + kl + 1);
			return buf;
		}
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

/* pass.h */
struct json_object *pass_plan_workload(const struct analyze_input *in, int64_t phase)
{
	struct json_object *plan, *list, *ph, *set, *w;
	int64_t n = phase;

	if (phase < 0 || !json_object_object_get_ex(in->manifest, "plan", &plan) ||
	    !json_object_object_get_ex(plan, "phases", &list) || !(ph = plan_phase(list, &n)) ||
	    !json_object_object_get_ex(ph, "settings", &set))
		return NULL;
	if (json_object_object_get_ex(set, "base", &w) ||
	    json_object_object_get_ex(set, "workload", &w))
		return w;
	return NULL;
}

/*
 * A measurement's workload in words, from the plan's workload of its phase with the cell's
 * coordinates applied (profile.c's cell_apply, read back from the manifest since the analysis
 * sees no profile): "4k randwrite", "1m read", "4k randrw 65% read", "4k+64k randread" (a
 * split); the queue into q: "QD32", "4 threads x QD32" ("" when unknown). Without a plan (an
 * older manifest) the workload is the cell key itself.
 */
static void headline_describe(const struct analyze_input *in, int64_t phase, const char *cell,
			      char *wl, size_t wllen, char *q, size_t qlen)
{
	struct json_object *w = pass_plan_workload(in, phase), *bs;
	const char *rw = w ? jsonget_str(w, "rw") : NULL, *c;
	char b[64] = "", v[32], rwc[16], mix[32] = "";
	int64_t qd = 0, threads = 1, rmix = -1;
	int seq;

	snprintf(wl, wllen, "%s", cell);
	q[0] = '\0';
	if (!rw || !json_object_object_get_ex(w, "bs", &bs) ||
	    !json_object_is_type(bs, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(bs); i++) {
		uint64_t x = 0;
		size_t used = strlen(b);

		(void)jsonnum_get_u64(json_object_array_get_idx(bs, i), "bs", &x);
		fmt_bs(x, v, sizeof(v));
		snprintf(b + used, sizeof(b) - used, "%s%s", i ? "+" : "", v);
	}
	(void)jsonget_int(w, "rwmix_read", &rmix);
	(void)jsonget_int(w, "qd", &qd);
	(void)jsonget_int(w, "threads", &threads);
	if ((c = cell_coord(cell, "bs", v, sizeof(v))))
		snprintf(b, sizeof(b), "%s", c);
	if ((c = cell_coord(cell, "rw", rwc, sizeof(rwc))))
		rw = c;
	if ((c = cell_coord(cell, "rwmix_read", v, sizeof(v))))
		rmix = strtoll(c, NULL, 10);
	if ((c = cell_coord(cell, "qd", v, sizeof(v))))
		qd = strtoll(c, NULL, 10);
	if ((c = cell_coord(cell, "threads", v, sizeof(v))))
		threads = strtoll(c, NULL, 10);
	seq = !strcmp(rw, "rw") || !strcmp(rw, "read") || !strcmp(rw, "write");
	if (!strcmp(rw, "randrw") || !strcmp(rw, "rw")) {
		if (rmix == 100)
			rw = seq ? "read" : "randread";
		else if (rmix == 0)
			rw = seq ? "write" : "randwrite";
		else if (rmix > 0)
			snprintf(mix, sizeof(mix), " %" PRId64 "%% read", rmix);
	}
	snprintf(wl, wllen, "%s %s%s", b, rw, mix);
	if (qd > 0 && threads > 1)
		snprintf(q, qlen, "%" PRId64 " threads x QD%" PRId64, threads, qd);
	else if (qd > 0)
		snprintf(q, qlen, "QD%" PRId64, qd);
}

/* Rounds phases with more cells than this show in the headline only those that share the
 * tracked cell's block size (SNIA's IOPS matrix: the 7 mixes at 4 KiB); the rest are in "cells". */
#define HEADLINE_MAX_CELLS 9

/* pass.h */
struct json_object *pass_ss_entry(struct json_object *summary, int64_t phase, int64_t repeat)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(summary, "steady_state", &arr))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		int64_t p, r;

		if (!jsonget_int(s, "phase", &p) && !jsonget_int(s, "repeat", &r) && p == phase &&
		    r == repeat)
			return s;
	}
	return NULL;
}

/* The tracked cell of (phase, repeat) from the steady_state pass, or NULL. */
static const char *tracked_cell(struct json_object *summary, int64_t phase, int64_t repeat)
{
	struct json_object *s = pass_ss_entry(summary, phase, repeat);

	return s ? jsonget_str(s, "cell") : NULL;
}

/* Whether a recovery entry of the headline measures phase `phase` (then that line reports it). */
static int is_recovery_phase(struct json_object *recovery, int64_t phase)
{
	for (size_t i = 0; recovery && i < json_object_array_length(recovery); i++) {
		int64_t p;

		if (!jsonget_int(json_object_array_get_idx(recovery, i), "phase", &p) && p == phase)
			return 1;
	}
	return 0;
}

/*
 * headline.results: the figures of every measured cell of a rounds phase, from the cells pass
 * (over the steady-state window where one was judged): IOPS, MB/s and latency (mean, p99, max)
 * of all its I/O, so that each profile's headline carries its main result whatever it is
 * (SNIA's throughput, IOPS and latency tests, a read-only sweep). Phases after an idle are left
 * to the recovery line; large matrices are cut as HEADLINE_MAX_CELLS says, and the number of
 * cells left out is "results_omitted".
 */
static int headline_results(const struct analyze_input *in, struct json_object *summary,
			    struct json_object *h, struct json_object *recovery)
{
	struct json_object *cells, *arr = json_object_new_array();
	size_t n, omitted = 0;

	if (jsonnum_add(h, "results", arr) || !arr)
		return -ENOMEM;
	if (!json_object_object_get_ex(summary, "cells", &cells))
		return pass_add_int(h, "results_omitted", 0);
	n = json_object_array_length(cells);
	for (size_t i = 0; i < n; i++) {
		struct json_object *c = json_object_array_get_idx(cells, i), *t, *lat = NULL, *e;
		const char *kind = jsonget_str(c, "kind"), *cell = jsonget_str(c, "cell"), *tr;
		char wl[128], q[64], a[32], b[32];
		int64_t p = -1, r = 0, p2, r2;
		size_t in_phase = 0;

		if (!kind || strcmp(kind, "cell") || !cell || jsonget_int(c, "phase", &p) ||
		    jsonget_int(c, "repeat", &r) || !json_object_object_get_ex(c, "total", &t) ||
		    is_recovery_phase(recovery, p))
			continue;
		for (size_t j = 0; j < n; j++)
			in_phase +=
			    !jsonget_int(json_object_array_get_idx(cells, j), "phase", &p2) &&
			    !jsonget_int(json_object_array_get_idx(cells, j), "repeat", &r2) &&
			    p2 == p && r2 == r;
		tr = tracked_cell(summary, p, r);
		if (in_phase > HEADLINE_MAX_CELLS &&
		    (!tr || !cell_coord(tr, "bs", a, sizeof(a)) ||
		     !cell_coord(cell, "bs", b, sizeof(b)) || strcmp(a, b))) {
			omitted++;
			continue;
		}
		headline_describe(in, p, cell, wl, sizeof(wl), q, sizeof(q));
		(void)json_object_object_get_ex(t, "lat_ns", &lat);
		e = json_object_new_object();
		if (json_object_array_add(arr, e) || !e || pass_add_int(e, "phase", p) ||
		    pass_add_int(e, "repeat", r) || pass_add_str(e, "cell", cell) ||
		    pass_add_str(e, "workload", wl) || pass_add_str(e, "queue", q) ||
		    pass_add_str(e, "over", jsonget_str(c, "over")) ||
		    jsonnum_add(e, "first_round",
				json_object_get(json_object_object_get(c, "first_round"))) ||
		    jsonnum_add(e, "last_round",
				json_object_get(json_object_object_get(c, "last_round"))))
			return -ENOMEM;
		/* The table's metrics (results/records.h) in its order, then the maximum latency.
		 */
		for (unsigned m = 0; m < RESULTS_NMETRICS; m++) {
			enum results_metric id = (enum results_metric)m;

			if (jsonnum_add(e, results_metric_def(id)->summary,
					jsonnum_new(results_metric_figure(t, id))))
				return -ENOMEM;
		}
		if (jsonnum_add(e, "lat_max_ns", jsonnum_new(lat ? jsonget_num(lat, "max") : NAN)))
			return -ENOMEM;
	}
	return pass_add_int(h, "results_omitted", (int64_t)omitted);
}

/* The fills of a wsat_result as the summary's array (fills without time left out). */
static struct json_object *wsat_fills_json(const struct wsat_result *w, uint64_t cap)
{
	struct json_object *fa = json_object_new_array();

	if (!fa)
		return NULL;
	for (size_t j = 0; j < w->nfills; j++) {
		const struct wsat_fill *f = &w->fills[j];
		struct json_object *o;

		if (!f->elapsed_ns)
			continue;
		o = json_object_new_object();
		if (json_object_array_add(fa, o) || !o ||
		    jsonnum_add(o, "from_x", jsonnum_new((double)f->from_bytes / (double)cap)) ||
		    jsonnum_add(o, "to_x", jsonnum_new((double)f->to_bytes / (double)cap)) ||
		    jsonnum_add(o, "ios", json_object_new_uint64(f->ios)) ||
		    jsonnum_add(o, "elapsed_ns", json_object_new_uint64(f->elapsed_ns)) ||
		    jsonnum_add(o, "iops", jsonnum_new(f->ios * 1e9 / (double)f->elapsed_ns))) {
			json_object_put(fa);
			return NULL;
		}
	}
	return fa;
}

/*
 * headline.write_saturation: per write_until phase (SNIA's WSAT), IOPS against the capacity
 * written, as the PTS plots it: the first record (fresh out of box), then per drive fill (a
 * record counts in the fill where it started: bytes written before it / the target's capacity)
 * the IOPS of its records together (their I/Os over their time, as the cells pass sums them).
 * The last fill is the level the drive settles at.
 */
static int headline_wsat(const struct analyze_input *in, struct json_object *h)
{
	struct json_object *arr = json_object_new_array(), *tgt;
	struct reader_phase *ph = NULL;
	size_t nph = 0;
	uint64_t cap = 0;
	int rc = 0;

	if (jsonnum_add(h, "write_saturation", arr) || !arr)
		return -ENOMEM;
	if (json_object_object_get_ex(in->manifest, "target", &tgt))
		(void)jsonnum_get_u64(tgt, "capacity", &cap);
	if (reader_write_until_phases(&in->records, &ph, &nph))
		return -ENOMEM;
	for (size_t i = 0; cap && i < nph; i++) {
		const struct reader_phase k = ph[i];
		struct reader_chunks ch = {0};
		struct wsat_result w = {0};
		struct json_object *e, *fa;
		double scale = 1;
		char wl[128], q[64];

		rc = reader_write_until(&in->records, k.phase, k.repeat, &ch);
		if (rc)
			goto out;
		if (!ch.n)
			ch.c[ch.n++] =
			    (struct wsat_chunk){0}; /* no figures: an empty entry, as before */
		rc = wsat_summarize(ch.c, ch.n, cap, &w);
		free(ch.c);
		if (rc)
			goto out;
		if (!isnan(ch.first_scale))
			scale = ch.first_scale;
		if (!(scale > 0))
			scale = 1;
		headline_describe(in, k.phase, "", wl, sizeof(wl), q, sizeof(q));
		e = json_object_new_object();
		fa = e ? wsat_fills_json(&w, cap) : NULL;
		free(w.fills);
		if (json_object_array_add(arr, e) || !e || pass_add_int(e, "phase", k.phase) ||
		    pass_add_int(e, "repeat", k.repeat) || pass_add_str(e, "workload", wl) ||
		    pass_add_str(e, "queue", q) ||
		    jsonnum_add(e, "capacity", json_object_new_uint64(cap)) ||
		    jsonnum_add(e, "written_bytes", json_object_new_uint64(w.written)) ||
		    jsonnum_add(e, "written_x", jsonnum_new((double)w.written / (double)cap)) ||
		    jsonnum_add(e, "target_ns", json_object_new_uint64(w.elapsed_ns)) ||
		    jsonnum_add(e, "profile_ns", jsonnum_new((double)w.elapsed_ns / scale)) ||
		    jsonnum_add(
			e, "iops",
			jsonnum_new(w.elapsed_ns ? w.ios * 1e9 / (double)w.elapsed_ns : NAN)) ||
		    jsonnum_add(e, "first_iops", jsonnum_new(w.first_iops))) {
			json_object_put(fa);
			rc = -ENOMEM;
			goto out;
		}
		rc = -ENOMEM;
		if (jsonnum_add(e, "fills", fa) || !fa)
			goto out;
	}
	rc = 0;
out:
	free(ph);
	return rc;
}

/* Member key of o (borrowed; NULL when absent or null). */
static struct json_object *member(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

/* A copy of member key of src into dst as key dkey (JSON null when absent). */
static void copy_as(struct json_object *dst, const char *dkey, struct json_object *src,
		    const char *key, int *e)
{
	struct json_object *v = member(src, key);

	if (v)
		jsonnum_build_add(dst, dkey, json_object_get(v), e);
	else
		jsonnum_build_num(dst, dkey, NAN, e);
}

/*
 * headline.snia's XSR entry (issue 16 point 2): per access group its workload and end-of-group
 * MB/s, and the recovery of group 3 to group 1's average (status, sample, time), copied from
 * the block (pass_snia_xsr.c).
 */
static void headline_xsr(const struct analyze_input *in, struct json_object *o,
			 struct json_object *b, int *e)
{
	struct json_object *groups = member(b, "groups"), *arr = json_object_new_array(),
			   *r = member(b, "recovery");

	for (size_t j = 0; groups && j < json_object_array_length(groups); j++) {
		struct json_object *g = json_object_array_get_idx(groups, j),
				   *x = json_object_new_object();
		char wl[128], q[64];
		int64_t p = -1;

		(void)jsonget_int(g, "phase", &p);
		headline_describe(in, p, "", wl, sizeof(wl), q, sizeof(q));
		copy_as(x, "group", g, "group", e);
		copy_as(x, "phase", g, "phase", e);
		jsonnum_build_add(x, "workload", json_object_new_string(wl), e);
		copy_as(x, "end_mb_s", g, "end_mb_s", e);
		jsonnum_build_push(arr, x, e);
	}
	jsonnum_build_add(o, "groups", arr, e);
	copy_as(o, "reference_mb_s", r, "reference_mb_s", e);
	copy_as(o, "recovery", r, "status", e);
	copy_as(o, "recovery_sample", r, "sample", e);
	copy_as(o, "recovery_after_ns", r, "after_ns", e);
	copy_as(o, "recovery_after_profile_ns", r, "after_profile_ns", e);
	copy_as(o, "band", r, "band", e);
	copy_as(o, "samples_in_row", r, "samples_in_row", e);
}

/*
 * A DIRTH block's headline entry (issue 16 point 3): the Max-IOPS point's rounds IOPS and its TC
 * x QD, and the three points' runs: IOPS, mean and p99.99. The TOIO rounds have no one queue:
 * "queue" is "".
 */
static void headline_snia_dirth(struct json_object *o, struct json_object *b, int *e)
{
	struct json_object *pts = member(b, "points"), *arr = json_object_new_array();

	json_object_object_del(o, "queue");
	jsonnum_build_add(o, "queue", json_object_new_string(""), e);
	for (size_t i = 0; pts && json_object_is_type(pts, json_type_array) &&
			   i < json_object_array_length(pts);
	     i++) {
		struct json_object *p = json_object_array_get_idx(pts, i), *c, *run;
		const char *name = jsonget_str(p, "point");

		if (name && !strcmp(name, "max")) {
			copy_as(o, "max_iops", p, "rounds_iops", e);
			copy_as(o, "max_threads", p, "threads", e);
			copy_as(o, "max_qd", p, "qd", e);
		}
		c = json_object_new_object();
		run = member(p, "run");
		run = run && json_object_is_type(run, json_type_object) ? run : NULL;
		copy_as(c, "point", p, "point", e);
		copy_as(c, "threads", p, "threads", e);
		copy_as(c, "qd", p, "qd", e);
		copy_as(c, "iops", run, "iops", e);
		copy_as(c, "mean_ns", run, "mean_ns", e);
		copy_as(c, "p99_99_ns", member(run, "percentiles"), "p99_99", e);
		jsonnum_build_push(arr, c, e);
	}
	jsonnum_build_add(o, "points", arr, e);
}

/*
 * headline.snia's host idle recovery entry (issue 16 point 1): the steady-state IOPS and, per
 * wait state, the mean IOPS of its bursts (and its ratio to the steady level), from the hir
 * block (pass_snia_hir.c); the window's rounds from its steady_state entry.
 */
static void headline_snia_hir(struct json_object *b, struct json_object *o, int *e)
{
	struct json_object *ws = member(b, "wait_states"), *arr = json_object_new_array();
	struct json_object *ss = member(b, "steady_state");

	copy_as(o, "first_round", ss, "first_round", e);
	copy_as(o, "last_round", ss, "last_round", e);
	copy_as(o, "steady_iops", b, "steady_iops", e);
	for (size_t j = 0; ws && j < json_object_array_length(ws); j++) {
		struct json_object *w = json_object_array_get_idx(ws, j),
				   *c = json_object_new_object();
		static const char *const keys[] = {"phase",	   "wait_profile_ns", "wait_ns",
						   "wait_floored", "bursts",	      "mean_iops",
						   "of_steady"};

		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			copy_as(c, keys[k], w, keys[k], e);
		jsonnum_build_push(arr, c, e);
	}
	jsonnum_build_add(o, "wait_states", arr, e);
}

/*
 * headline.snia's ECW entry (issue 16 point 4): the preconditioning block's rounds and first and
 * last IOPS; the TOIO block's highest IOPS and its point, TC1/QD1's mean response time and IOPS,
 * and how many block sizes of the mix the device could not run (4Kn: the sub-4 KiB ones).
 */
static void headline_snia_ecw(struct json_object *b, struct json_object *o, int *e)
{
	struct json_object *r = member(b, "rounds"), *d;
	size_t n;

	copy_as(o, "stage", b, "stage", e);
	if (!strcmp(jsonget_str(b, "stage") ? jsonget_str(b, "stage") : "", "precondition")) {
		n = r ? json_object_array_length(r) : 0;
		jsonnum_build_add(o, "rounds", json_object_new_uint64(n), e);
		copy_as(o, "first_iops", n ? json_object_array_get_idx(r, 0) : NULL, "iops", e);
		copy_as(o, "last_iops", n ? json_object_array_get_idx(r, n - 1) : NULL, "iops", e);
		return;
	}
	copy_as(o, "rounds", b, "rounds", e);
	copy_as(o, "max_iops", member(b, "max_iops"), "iops", e);
	copy_as(o, "max_threads", member(b, "max_iops"), "threads", e);
	copy_as(o, "max_qd", member(b, "max_iops"), "qd", e);
	copy_as(o, "max_toio", member(b, "max_iops"), "toio", e);
	copy_as(o, "tc1_qd1_iops", member(b, "tc1_qd1"), "iops", e);
	copy_as(o, "tc1_qd1_lat_mean_ns", member(b, "tc1_qd1"), "lat_mean_ns", e);
	d = member(member(member(b, "header"), "bs_not_applicable"), "dropped");
	jsonnum_build_add(o, "bs_dropped",
			  json_object_new_uint64(d ? json_object_array_length(d) : 0), e);
}

/*
 * headline.snia (issue 15 point 4): per block of summary.json's "snia" its test's main result:
 * IOPS: the tracked cell's steady-state IOPS (the window's mean) and the 4 KiB row of the
 * matrix; throughput: MB/s read and write at the phase's block size; latency: the 4 KiB mean and
 * p99.99 per mix (QD1 in the PTS); WSAT: the steady level, the plateau and where the drop is.
 */
static int headline_snia(const struct analyze_input *in, struct json_object *summary,
			 struct json_object *h)
{
	struct json_object *arr = json_object_new_array(), *blocks = member(summary, "snia");
	int e = 0;

	if (jsonnum_add(h, "snia", arr) || !arr)
		return -ENOMEM;
	for (size_t i = 0; blocks && i < json_object_array_length(blocks) && !e; i++) {
		struct json_object *b = json_object_array_get_idx(blocks, i), *o, *ss, *w, *x;
		const char *t = jsonget_str(b, "test");
		int64_t phase = -1;
		char wl[128], q[64];

		if (!t)
			continue;
		o = json_object_new_object();
		jsonnum_build_push(arr, o, &e);
		if (e)
			break;
		(void)jsonget_int(b, "phase", &phase);
		headline_describe(in, phase, "", wl, sizeof(wl), q, sizeof(q));
		jsonnum_build_add(o, "test", json_object_new_string(t), &e);
		copy_as(o, "phase", b, "phase", &e);
		copy_as(o, "repeat", b, "repeat", &e);
		jsonnum_build_add(o, "queue", json_object_new_string(q), &e);
		ss = member(b, "steady_state");
		w = member(b, "window");
		copy_as(o, "verdict", ss, "verdict", &e);
		/* a run stopped on an early verdict (docs/early-verdict.md): the reason and the
		 * predicted round, beside the SNIA verdict */
		if (member(ss, "reason")) {
			copy_as(o, "reason", ss, "reason", &e);
			copy_as(o, "early_round", member(ss, "early"), "round", &e);
		}
		copy_as(o, "first_round", w, "first_round", &e);
		copy_as(o, "last_round", w, "last_round", &e);
		/* a *-fast profile's block (pass_snia.c): the verdict's rounds are the tracking
		 * phase's, the figures' the matrix phase's; the method in words */
		if (member(member(b, "header"), "fast")) {
			copy_as(o, "fast", member(member(b, "header"), "fast"), "text", &e);
			copy_as(o, "fast_rounds",
				member(member(member(b, "header"), "fast"), "rounds_check"), "text",
				&e);
			copy_as(o, "tracking_first_round", ss, "first_round", &e);
			copy_as(o, "tracking_last_round", ss, "last_round", &e);
		}
		if (!strcmp(t, "iops") || !strcmp(t, "latency")) {
			struct json_object *rows = member(b, strcmp(t, "iops") ? "table" : "matrix"),
					   *sel = json_object_new_array();

			if (!strcmp(t, "iops")) {
				copy_as(o, "tracked_cell", member(b, "tracked"), "cell", &e);
				copy_as(o, "tracked_iops", member(b, "tracked"), "iops", &e);
			}
			/* The 4 KiB row, in the matrix's (the spec's) order of mixes. */
			for (size_t j = 0; rows && j < json_object_array_length(rows); j++) {
				struct json_object *r = json_object_array_get_idx(rows, j), *c;
				uint64_t bs = 0;

				if (jsonnum_get_u64(r, "bs", &bs) || bs != 4096 ||
				    !member(r, "rwmix_read"))
					continue;
				c = json_object_new_object();
				copy_as(c, "rwmix_read", r, "rwmix_read", &e);
				if (member(r, "not_applicable")) {
					copy_as(c, "not_applicable", r, "not_applicable", &e);
				} else if (!strcmp(t, "iops")) {
					copy_as(c, "iops", r, "iops", &e);
				} else {
					x = member(member(r, "percentiles"), "p99_99");
					copy_as(c, "mean_ns", r, "mean_ns", &e);
					copy_as(c, "p99_99_ns", x, "ns", &e);
					copy_as(c, "p99_99_samples", x, "samples", &e);
					copy_as(c, "few_samples", x, "few_samples", &e);
				}
				jsonnum_build_push(sel, c, &e);
			}
			jsonnum_build_add(o, "bs_4k", sel, &e);
		} else if (!strcmp(t, "throughput")) {
			struct json_object *rows = member(b, "table");

			copy_as(o, "bs", b, "bs", &e);
			for (size_t j = 0; rows && j < json_object_array_length(rows); j++) {
				struct json_object *r = json_object_array_get_idx(rows, j);
				const char *d = jsonget_str(r, "direction");

				if (d && !member(r, "not_applicable"))
					copy_as(o, strcmp(d, "read") ? "write_mb_s" : "read_mb_s", r,
						"mb_s", &e);
			}
		} else if (!strcmp(t, "wsat")) {
			jsonnum_build_add(o, "workload", json_object_new_string(wl), &e);
			copy_as(o, "steady_iops", member(b, "steady"), "iops", &e);
			copy_as(o, "steady_from_x", member(b, "steady"), "from_x", &e);
			copy_as(o, "plateau_iops", member(b, "plateau"), "iops", &e);
			copy_as(o, "drop_bytes", member(b, "drop"), "bytes", &e);
			copy_as(o, "drop_x", member(b, "drop"), "x", &e);
			copy_as(o, "written_x", b, "written_x", &e);
		} else if (!strcmp(t, "xsr")) {
			headline_xsr(in, o, b, &e);
		} else if (!strcmp(t, "dirth")) {
			headline_snia_dirth(o, b, &e);
		} else if (!strcmp(t, "hir")) {
			headline_snia_hir(b, o, &e);
		} else if (!strcmp(t, "ecw")) {
			headline_snia_ecw(b, o, &e);
		}
	}
	return e;
}

int pass_headline(const struct analyze_input *in, struct json_object *summary, char *err,
		  size_t errlen)
{
	struct json_object *h = json_object_new_object(), *ss = NULL, *arr, *wa, *run;
	struct reader_idle *idles = NULL;
	size_t nidles = 0;
	double v;

	(void)err;
	(void)errlen;
	if (jsonnum_add(summary, "headline", h) || !h)
		return -ENOMEM;
	(void)json_object_object_get_ex(summary, "steady_state", &ss);
	arr = json_object_new_array();
	if (jsonnum_add(h, "steady_state", arr) || !arr)
		return -ENOMEM;
	for (size_t i = 0; ss && i < json_object_array_length(ss); i++) {
		static const char *const copy[] = {"phase",	  "repeat",    "cell",
						   "metric",	  "verdict",   "average",
						   "first_round", "last_round", "reason",
						   "early",	  "wa_guard"};
		struct json_object *s = json_object_array_get_idx(ss, i),
				   *e = json_object_new_object();
		struct json_object *x;

		if (json_object_array_add(arr, e) || !e)
			return -ENOMEM;
		for (size_t c = 0; c < sizeof(copy) / sizeof(copy[0]); c++)
			if (json_object_object_get_ex(s, copy[c], &x) &&
			    jsonnum_add(e, copy[c], json_object_get(x)))
				return -ENOMEM;
		{
			char wl[128], q[64];
			int64_t p = -1;

			(void)jsonget_int(s, "phase", &p);
			headline_describe(in, p, S(jsonget_str(s, "cell")), wl, sizeof(wl), q,
					  sizeof(q));
			if (pass_add_str(e, "workload", wl) || pass_add_str(e, "queue", q))
				return -ENOMEM;
		}
		x = headline_ss_wa(in, s);
		if (jsonnum_add(e, "wa",
				x ? json_object_get(json_object_object_get(x, "wa")) : NULL) ||
		    pass_add_str(e, "wa_from", x ? jsonget_str(x, "from_label") : NULL) ||
		    pass_add_str(e, "wa_to", x ? jsonget_str(x, "to_label") : NULL)) {
			json_object_put(x);
			return -ENOMEM;
		}
		json_object_put(x);
	}
	v = NAN;
	if (json_object_object_get_ex(summary, "wa", &wa) &&
	    json_object_object_get_ex(wa, "run", &run) && run && jsonnum_get(run, "wa", &v))
		v = NAN;
	if (jsonnum_add(h, "wa_run", jsonnum_new(v)))
		return -ENOMEM;
	arr = json_object_new_array();
	if (jsonnum_add(h, "recovery", arr) || !arr)
		return -ENOMEM;
	if (reader_idles(&in->records, &idles, &nidles))
		return -ENOMEM;
	for (size_t i = 0; i < nidles; i++) {
		int rc = headline_recovery(in, ss, &idles[i], arr);

		if (rc) {
			free(idles);
			return rc;
		}
	}
	free(idles);
	if (headline_results(in, summary, h, arr) || headline_wsat(in, h) ||
	    headline_snia(in, summary, h))
		return -ENOMEM;
	return 0;
}
