/* SPDX-License-Identifier: MIT */
/*
 * pass_snia_dirth: summary.json's "snia" block of a DIRTH run (issue 16 point 3), appended to the
 * "snia" array pass_snia made (it knows no dirth, so leaves the array empty for it):
 *   - the TOIO rounds' table per TC: each (TC, QD) cell's IOPS and mean response time averaged
 *     over the measurement window, for "IOPS vs total outstanding I/O" (Demand Variation) and
 *     "average response time vs IOPS" (Demand Intensity), one series per TC;
 *   - the Max, Mid and Min points as snia_dirth_choose() picks them from that table (the
 *     runner chose with the same function from the same records) with their 10-minute runs'
 *     response-time histograms (both directions merged), mean, max and percentiles;
 *   - what TC x QD means on the target (the virtual SSD: total outstanding I/O on one queue).
 * The window is the dirth_points phase's (manifest plan, default 5): the last `window` rounds
 * recorded. Reads the reader's measurements and figures, the manifest and the earlier
 * steady_state keys; no record walking, no printing. A pass of analyze.c's table (pass.h).
 */
#include "analysis/pass.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/hist.h"
#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "analysis/reader.h"
#include "analysis/snia.h"
#include "analysis/snia_dirth.h"

/* The manifest's "pts" keys the block's header copies. */
static const char *const header_keys[] = {"spec",	 "variant",	 "active_range",
					  "write_cache", "data_pattern", "toio"};

/* The first dirth_points phase of a plan list (depth first), its window into *window. */
static bool plan_dirth(struct json_object *list, unsigned *window)
{
	for (size_t i = 0; list && i < json_object_array_length(list); i++) {
		struct json_object *ph = json_object_array_get_idx(list, i), *set, *body;
		const char *kind = jsonget_str(ph, "kind");
		int64_t w;

		if (!json_object_object_get_ex(ph, "settings", &set))
			continue;
		if (kind && !strcmp(kind, "dirth_points")) {
			if (!jsonget_int(set, "window", &w) && w > 0)
				*window = (unsigned)w;
			return true;
		}
		if (json_object_object_get_ex(set, "phases", &body) && plan_dirth(body, window))
			return true;
	}
	return false;
}

/* One TOIO cell of the rounds: its measurements (indexes into ms) in round order. */
struct tcell {
	unsigned threads, qd;
	size_t *m, n;
	double iops, mean_ns;
	int64_t rounds;
};

/* The mean response time of record `index` over both directions (sum / count of its
 * histograms); NaN without I/O. */
static int rec_mean(const struct analyze_input *in, size_t index, struct hist *h, double *out)
{
	struct cells_figures f;
	int rc = reader_figures_at(&in->records, index, &h[0], &h[1], &f);

	if (rc)
		return rc;
	*out = h[0].count + h[1].count ? (h[0].sum + h[1].sum) / (double)(h[0].count + h[1].count)
				       : NAN;
	return 0;
}

static void add_num(struct json_object *o, const char *k, double v, int *e)
{
	jsonnum_build_num(o, k, v, e);
}

/* The latency figures of a merged histogram, as the latency block writes them. */
static void lat_json(struct json_object *o, const struct hist *h, int *e)
{
	struct snia_lat l;
	struct json_object *pa = json_object_new_object();

	snia_latency(h, &l);
	jsonnum_build_add(o, "samples", json_object_new_uint64(l.samples), e);
	add_num(o, "mean_ns", l.mean_ns, e);
	add_num(o, "max_ns", l.samples ? (double)l.max_ns : NAN, e);
	for (int i = 0; i < SNIA_NPCT; i++)
		add_num(pa, l.pct[i].key, l.samples ? (double)l.pct[i].ns : NAN, e);
	jsonnum_build_add(o, "percentiles", pa, e);
	jsonnum_build_add(o, "histogram", hist_to_json(h), e);
}

/* The points' entries: the choice over cells c and each point's dirth_point record. */
static int points_json(const struct analyze_input *in, const struct reader_measurement *ms,
		       size_t nms, const struct tcell *c, size_t nc, int64_t repeat,
		       struct json_object *block, struct hist *h, int *e)
{
	struct snia_dirth_cell *dc = calloc(nc + 1, sizeof(*dc));
	struct snia_dirth_choice ch;
	struct json_object *arr;
	int rc;

	if (!dc)
		return -ENOMEM;
	for (size_t i = 0; i < nc; i++)
		dc[i] = (struct snia_dirth_cell){c[i].threads, c[i].qd, c[i].iops};
	rc = snia_dirth_choose(dc, nc, &ch);
	free(dc);
	if (rc) {
		jsonnum_build_add(block, "points",
				  json_object_new_string(rc == -ENOENT ? "no TC1/QD1 cell"
								       : "fewer than three cells"),
				  e);
		return 0;
	}
	add_num(block, "mid_target_iops", ch.mid_target, e);
	arr = json_object_new_array();
	for (int p = 0; p < SNIA_DIRTH_NPOINTS; p++) {
		const struct tcell *pc = &c[ch.idx[p]];
		struct json_object *o = json_object_new_object();
		const char *name = snia_dirth_point_name(p);
		size_t found = nms;

		jsonnum_build_add(o, "point", json_object_new_string(name), e);
		jsonnum_build_add(o, "threads", json_object_new_int((int)pc->threads), e);
		jsonnum_build_add(o, "qd", json_object_new_int((int)pc->qd), e);
		jsonnum_build_add(o, "toio", json_object_new_int((int)(pc->threads * pc->qd)), e);
		add_num(o, "rounds_iops", pc->iops, e);
		jsonnum_build_add(o, "why", json_object_new_string(ch.why[p]), e);
		for (size_t i = 0; i < nms; i++)
			if (!strcmp(ms[i].k.kind, "dirth_point") && ms[i].k.repeat == repeat &&
			    !strcmp(ms[i].k.cell, name))
				found = i;
		if (found == nms) {
			jsonnum_build_add(o, "run", json_object_new_string("not run"), e);
		} else {
			struct json_object *r = json_object_new_object();
			struct cells_figures f;

			rc = reader_figures_at(&in->records, ms[found].index, &h[0], &h[1], &f);
			if (rc) {
				json_object_put(r);
				json_object_put(o);
				json_object_put(arr);
				return rc;
			}
			hist_merge(&h[0], &h[1]);
			jsonnum_build_add(r, "phase", json_object_new_int64(ms[found].k.phase), e);
			add_num(r, "iops", ms[found].metric[RESULTS_METRIC_IOPS], e);
			lat_json(r, &h[0], e);
			jsonnum_build_add(o, "run", r, e);
		}
		jsonnum_build_push(arr, o, e);
	}
	jsonnum_build_add(block, "points", arr, e);
	return 0;
}

/* The TOIO cells of (phase, repeat) in round order, their window figures. */
static int table(const struct analyze_input *in, const struct reader_measurement *ms, size_t nms,
		 int64_t phase, int64_t repeat, int64_t lo, int64_t hi, struct tcell *c, size_t *nc,
		 struct hist *h)
{
	double *y = calloc(nms + 1, sizeof(*y)), *lat = calloc(nms + 1, sizeof(*lat));
	int64_t *rd = calloc(nms + 1, sizeof(*rd));
	int rc = -ENOMEM;

	*nc = 0;
	if (!y || !lat || !rd)
		goto out;
	for (size_t i = 0; i < nms; i++) {
		unsigned t, q;
		size_t k;

		if (ms[i].k.phase != phase || ms[i].k.repeat != repeat ||
		    strcmp(ms[i].k.kind, "cell") || snia_dirth_cell(ms[i].k.cell, &t, &q))
			continue;
		for (k = 0; k < *nc && !(c[k].threads == t && c[k].qd == q); k++)
			;
		if (k == *nc) {
			c[k] =
			    (struct tcell){.threads = t, .qd = q, .m = calloc(nms, sizeof(size_t))};
			if (!c[k].m)
				goto out;
			(*nc)++;
		}
		c[k].m[c[k].n++] = i;
	}
	for (size_t k = 0; k < *nc; k++) {
		size_t used = 0;

		for (size_t j = 0; j < c[k].n; j++) {
			const struct reader_measurement *x = &ms[c[k].m[j]];

			rd[j] = x->k.round;
			y[j] = x->not_applicable ? NAN : x->metric[RESULTS_METRIC_IOPS];
			rc = rec_mean(in, x->index, h, &lat[j]);
			if (rc)
				goto out;
		}
		c[k].iops = snia_window_mean(y, rd, c[k].n, lo, hi, &used);
		c[k].mean_ns = snia_window_mean(lat, rd, c[k].n, lo, hi, NULL);
		c[k].rounds = (int64_t)used;
	}
	rc = 0;
out:
	free(rd);
	free(lat);
	free(y);
	return rc;
}

static int dirth_block(const struct analyze_input *in, struct json_object *summary,
		       const struct reader_measurement *ms, size_t nms, int64_t phase,
		       int64_t repeat, unsigned window, struct json_object *block)
{
	struct tcell *c = calloc(nms + 1, sizeof(*c));
	struct hist *h = malloc(2 * sizeof(*h));
	struct json_object *ss = pass_ss_entry(summary, phase, repeat), *per, *tgt = NULL, *x;
	const char *kind = NULL;
	int64_t hi = 0, lo;
	size_t nc = 0;
	int e = 0, rc = -ENOMEM;

	if (!c || !h)
		goto out;
	for (size_t i = 0; i < nms; i++)
		if (ms[i].k.phase == phase && ms[i].k.repeat == repeat &&
		    !strcmp(ms[i].k.kind, "cell") && ms[i].k.round > hi)
			hi = ms[i].k.round;
	lo = hi - (int64_t)window + 1 > 1 ? hi - (int64_t)window + 1 : 1;
	rc = table(in, ms, nms, phase, repeat, lo, hi, c, &nc, h);
	if (rc)
		goto out;
	if (json_object_object_get_ex(in->manifest, "target", &tgt))
		kind = jsonget_str(tgt, "kind");
	jsonnum_build_add(block, "steady_state", ss ? json_object_get(ss) : NULL, &e);
	jsonnum_build_add(
	    block, "outstanding_io",
	    json_object_new_string(
		kind && !strcmp(kind, "sim")
		    ? "total: on the virtual SSD the threads share its one queue model, so TC x QD "
		      "is the total outstanding I/O"
		    : "TC threads each with its own queue of depth QD: TC x QD outstanding I/O"),
	    &e);
	x = json_object_new_object();
	jsonnum_build_add(x, "first_round", json_object_new_int64(lo), &e);
	jsonnum_build_add(x, "last_round", json_object_new_int64(hi), &e);
	jsonnum_build_add(x, "rounds", json_object_new_int64(window), &e);
	jsonnum_build_add(block, "window", x, &e);
	per = json_object_new_array();
	for (size_t k = 0; k < nc; k++) {
		struct json_object *tc = NULL, *pts;
		size_t j;

		/* one series per TC, in the order the rounds first ran the TC */
		for (j = 0; j < k && c[j].threads != c[k].threads; j++)
			;
		if (j < k)
			continue;
		tc = json_object_new_object();
		pts = json_object_new_array();
		jsonnum_build_add(tc, "threads", json_object_new_int((int)c[k].threads), &e);
		for (j = k; j < nc; j++) {
			struct json_object *p;

			if (c[j].threads != c[k].threads)
				continue;
			p = json_object_new_object();
			jsonnum_build_add(p, "qd", json_object_new_int((int)c[j].qd), &e);
			jsonnum_build_add(p, "toio",
					  json_object_new_int((int)(c[j].threads * c[j].qd)), &e);
			jsonnum_build_add(p, "rounds", json_object_new_int64(c[j].rounds), &e);
			add_num(p, "iops", c[j].iops, &e);
			add_num(p, "mean_ns", c[j].mean_ns, &e);
			jsonnum_build_push(pts, p, &e);
		}
		jsonnum_build_add(tc, "points", pts, &e);
		jsonnum_build_push(per, tc, &e);
	}
	jsonnum_build_add(block, "by_tc", per, &e);
	rc = e ? e : points_json(in, ms, nms, c, nc, repeat, block, h, &e);
	if (!rc)
		rc = e;
out:
	for (size_t k = 0; c && k < nc; k++)
		free(c[k].m);
	free(c);
	free(h);
	return rc;
}

int pass_snia_dirth(const struct analyze_input *in, struct json_object *summary, char *err,
		    size_t errlen)
{
	struct json_object *arr, *pts = NULL, *plan, *list, *b, *hd;
	struct reader_measurement *ms = NULL;
	unsigned window = 5;
	int64_t phase = -1, repeat = 0;
	size_t nms = 0;
	int e = 0, rc;

	if (!json_object_object_get_ex(summary, "snia", &arr) ||
	    !json_object_object_get_ex(in->manifest, "pts", &pts) || !pts ||
	    !jsonget_str(pts, "test") || strcmp(jsonget_str(pts, "test"), "dirth"))
		return 0;
	if (json_object_object_get_ex(in->manifest, "plan", &plan) &&
	    json_object_object_get_ex(plan, "phases", &list))
		(void)plan_dirth(list, &window);
	rc = reader_measurements(&in->records, &ms, &nms);
	if (rc)
		return rc;
	/* The TOIO rounds: the last phase with threads=T,qd=Q cells (the preconditioning's one
	 * cell has the key "all"). */
	for (size_t i = 0; i < nms; i++) {
		unsigned t, q;

		if (!strcmp(ms[i].k.kind, "cell") && !snia_dirth_cell(ms[i].k.cell, &t, &q) &&
		    ms[i].k.phase >= phase)
			phase = ms[i].k.phase, repeat = ms[i].k.repeat;
	}
	if (phase < 0) {
		free(ms);
		return 0;
	}
	b = json_object_new_object();
	hd = json_object_new_object();
	jsonnum_build_add(b, "test", json_object_new_string("dirth"), &e);
	jsonnum_build_add(b, "phase", json_object_new_int64(phase), &e);
	jsonnum_build_add(b, "repeat", json_object_new_int64(repeat), &e);
	for (size_t i = 0; i < sizeof(header_keys) / sizeof(*header_keys); i++) {
		struct json_object *v = NULL;

		if (json_object_object_get_ex(pts, header_keys[i], &v) && v)
			jsonnum_build_add(hd, header_keys[i], json_object_get(v), &e);
		else
			jsonnum_build_num(hd, header_keys[i], NAN, &e);
	}
	jsonnum_build_add(b, "header", hd, &e);
	rc = e ? -ENOMEM : dirth_block(in, summary, ms, nms, phase, repeat, window, b);
	if (rc) {
		if (rc != -ENOMEM)
			pass_err(err, errlen,
				 "records.jsonl: a record of DIRTH phase %" PRId64
				 " has malformed I/O figures",
				 phase);
		json_object_put(b);
	} else if (json_object_array_add(arr, b)) {
		json_object_put(b);
		rc = -ENOMEM;
	}
	free(ms);
	return rc;
}
