/* SPDX-License-Identifier: MIT */
/*
 * pass_cells: the analysis pass for summary.json's "cells": per (phase, repeat, kind, cell) the I/O
 * figures summed over its records, or over the steady-state window where one was judged (a
 * fast run's matrix phase: over its SNIA block's rounds, pass_fast_run) (analysis/cells.h),
 * their latency QoS (analysis/qos.h) and a per-round table. A pass of
 * analyze.c's table (pass.h).
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/hist.h"
#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "analysis/cells.h"
#include "analysis/qos.h"
#include "analysis/reader.h"

/*
 * One group of measurements: the records of one (phase, repeat, kind, cell), over the steady
 * state window when the phase has a judged tracked series, else over all its records.
 */
struct group {
	struct reader_key k;
	const char *not_applicable;    /* why the target could not run it (reader), or NULL */
	struct cells_sum *sum;	       /* the records taken (cells.h) */
	struct json_object *per_round; /* every record of the group, in or out of the window */
};

static void groups_free(struct group *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(g[i].sum);
		json_object_put(g[i].per_round);
	}
	free(g);
}

/*
 * The round window of a cell group of (phase, repeat): a fast run's matrix rounds (pass_fast_run,
 * the SNIA block's), else the steady_state pass's window if one was judged. 0 when the group
 * takes all its records (*over untouched), else 1 with the window and what it is over.
 */
static int cell_window(struct json_object *summary, const struct pass_fast *fast, int64_t phase,
		       int64_t repeat, int64_t *lo, int64_t *hi, const char **over)
{
	struct json_object *arr;

	if (fast && fast->matrix.phase == phase && fast->matrix.repeat == repeat) {
		*lo = fast->first_round;
		*hi = fast->last_round;
		*over = "fast_matrix_rounds";
		return 1;
	}
	if (!json_object_object_get_ex(summary, "steady_state", &arr))
		return 0;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *s = json_object_array_get_idx(arr, i);
		const char *verdict = jsonget_str(s, "verdict");
		int64_t p, r;

		if (jsonget_int(s, "phase", &p) || jsonget_int(s, "repeat", &r) || p != phase ||
		    r != repeat || !verdict ||
		    (strcmp(verdict, "reached") && strcmp(verdict, "not_reached")))
			continue;
		if (jsonget_int(s, "first_round", lo) || jsonget_int(s, "last_round", hi))
			return 0;
		*over = "steady_state_window";
		return 1;
	}
	return 0;
}

static int same_group(const struct reader_key *a, const struct reader_key *b)
{
	return a->phase == b->phase && a->repeat == b->repeat && !strcmp(a->kind, b->kind) &&
	       !strcmp(a->cell, b->cell);
}

/* Adds a measurement's figures to its group (reader_figures_at, cells_sum_add). */
static int accumulate(struct group *g, const struct results_records *rr, size_t index)
{
	struct hist *h = malloc(2 * sizeof(*h));
	struct cells_figures f;
	int rc;

	if (!h)
		return -ENOMEM;
	rc = reader_figures_at(rr, index, &h[0], &h[1], &f);
	if (!rc)
		cells_sum_add(g->sum, &f);
	free(h);
	return rc;
}

static struct json_object *group_json(const struct group *g, const char *over)
{
	struct json_object *o = json_object_new_object(), *x;
	struct hist *all;

	if (!o)
		return NULL;
	all = malloc(sizeof(*all));
	if (!all)
		goto fail;
	cells_sum_all(g->sum, all);
	if (pass_add_int(o, "phase", g->k.phase) || pass_add_int(o, "repeat", g->k.repeat) ||
	    pass_add_str(o, "phase_kind", g->k.phase_kind) || pass_add_str(o, "kind", g->k.kind) ||
	    pass_add_str(o, "cell", g->k.cell) ||
	    /* A cell the target cannot run: zero I/O by design, the reason said where it is
	     * looked up (issue 15 point 1; the SNIA blocks build on this entry). */
	    (g->not_applicable && pass_add_str(o, "not_applicable", g->not_applicable)) ||
	    pass_add_int(o, "records", (int64_t)g->sum->n) ||
	    pass_add_int(o, "first_round", g->sum->first_round) ||
	    pass_add_int(o, "last_round", g->sum->last_round) || pass_add_str(o, "over", over) ||
	    jsonnum_add(o, "elapsed_ns", json_object_new_uint64(g->sum->elapsed_ns)))
		goto fail;
	for (int d = 0; d < 2; d++) {
		x = results_figures_json(g->sum->ios[d], g->sum->bytes[d], g->sum->elapsed_ns,
					 &g->sum->h[d]);
		if (jsonnum_add(o, d ? "write" : "read", x) || !x)
			goto fail;
	}
	/* Percentiles of the merged histograms, never averaged. */
	x = results_figures_json(g->sum->ios[0] + g->sum->ios[1],
				 g->sum->bytes[0] + g->sum->bytes[1], g->sum->elapsed_ns, all);
	if (jsonnum_add(o, "total", x) || !x ||
	    jsonnum_add(o, "cpu_user_s", jsonnum_new(g->sum->cpu_user_s)) ||
	    jsonnum_add(o, "cpu_sys_s", jsonnum_new(g->sum->cpu_sys_s)) ||
	    pass_add_int(o, "host_limited_records", (int64_t)g->sum->host_limited) ||
	    pass_add_int(o, "io_error_records", (int64_t)g->sum->io_errors))
		goto fail;
	/* Latency QoS per direction from the same merged bins (qos.h, issue 12). */
	x = qos_to_json(&g->sum->h[0], &g->sum->h[1]);
	if (jsonnum_add(o, "qos", x) || !x ||
	    jsonnum_add(o, "per_round", json_object_get(g->per_round)))
		goto fail;
	free(all);
	return o;
fail:
	free(all);
	json_object_put(o);
	return NULL;
}

/* One measurement's headline figures for the per-round table (convergence plots). */
static int per_round_add(struct json_object *arr, const struct reader_measurement *m)
{
	struct json_object *o = json_object_new_object();

	if (json_object_array_add(arr, o) || !o || pass_add_int(o, "round", m->k.round))
		return -ENOMEM;
	/* One column per metric of the table (results/records.h), in its order; null where the
	 * record has none (no I/O, no latency). */
	for (unsigned j = 0; j < RESULTS_NMETRICS; j++)
		if (jsonnum_add(o, results_metric_def((enum results_metric)j)->summary,
				jsonnum_new(m->metric[j])))
			return -ENOMEM;
	return 0;
}

int pass_cells(const struct analyze_input *in, struct json_object *summary, char *err,
	       size_t errlen)
{
	struct json_object *arr = json_object_new_array();
	struct reader_measurement *ms = NULL;
	struct pass_fast fast_run;
	const struct pass_fast *fast = NULL;
	struct group *g = NULL;
	size_t ng = 0, nms = 0;
	int rc = -ENOMEM;

	if (jsonnum_add(summary, "cells", arr) || !arr)
		return -ENOMEM;
	if (reader_measurements(&in->records, &ms, &nms))
		return -ENOMEM;
	if (pass_fast_run(in, ms, nms, &fast_run))
		fast = &fast_run;
	g = calloc(nms + 1, sizeof(*g));
	if (!g)
		goto out;
	for (size_t i = 0; i < nms; i++) {
		const struct reader_key *k = &ms[i].k;
		int64_t lo, hi;
		const char *over;
		size_t j;

		for (j = 0; j < ng && !same_group(&g[j].k, k); j++)
			;
		if (j == ng) {
			g[j].k = *k;
			g[j].sum = malloc(sizeof(*g[j].sum));
			g[j].per_round = json_object_new_array();
			ng++;
			if (!g[j].sum || !g[j].per_round)
				goto out;
			cells_sum_init(g[j].sum);
		}
		if (ms[i].not_applicable)
			g[j].not_applicable = ms[i].not_applicable;
		rc = per_round_add(g[j].per_round, &ms[i]);
		if (rc)
			goto out;
		/* The figures of a judged rounds phase are those of its window (SNIA's report); a
		 * fast run's matrix phase, those of its SNIA block. */
		if (!strcmp(k->kind, "cell") &&
		    cell_window(summary, fast, k->phase, k->repeat, &lo, &hi, &over) &&
		    (k->round < lo || k->round > hi))
			continue;
		rc = accumulate(&g[j], &in->records, ms[i].index);
		if (rc) {
			pass_err(err, errlen, "records.jsonl: record %zu has malformed I/O figures",
				 ms[i].index + 1);
			goto out;
		}
	}
	rc = -ENOMEM;
	for (size_t j = 0; j < ng; j++) {
		int64_t lo, hi;
		const char *over = "all_records";
		struct json_object *o;

		if (!strcmp(g[j].k.kind, "cell"))
			(void)cell_window(summary, fast, g[j].k.phase, g[j].k.repeat, &lo, &hi,
					  &over);
		o = group_json(&g[j], over);

		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			goto out;
		}
	}
	rc = 0;
out:
	groups_free(g, ng);
	free(ms);
	return rc;
}
