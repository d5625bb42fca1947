/* SPDX-License-Identifier: MIT */
/*
 * phases_rounds: the rounds kind of the phase registry (phases.h, phase_rounds_kind): a matrix
 * of cells run round after round, with an optional pre-write before each round and a steady-
 * state rule that stops the rounds (analysis/ss.h). The largest kind by far (the matrix's axes,
 * the track and the rule's keys), hence a file of its own beside phases.c's other kinds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

#include "profile/phases.h"

#define MAX_CELLS 4096

/* What the pre_write mapping holds besides its workload. */
struct pre_write_extra {
	struct amount amount;
};

struct rounds_extra {
	const struct ydoc_node *cells, *pre_write, *steady_state;
	uint64_t cell_time;
	unsigned count;
};

enum { RX_CELLS, RX_CELL_TIME, RX_PRE_WRITE, RX_STEADY, RX_COUNT };

/* clang-format off */
static const struct ydoc_key rounds_keys[] = {
	[RX_CELLS] = {.name = "cells", .kind = YK_MAPPING,
		      .offset = offsetof(struct rounds_extra, cells)},
	[RX_CELL_TIME] = {.name = "cell_time", .kind = YK_DURATION, .required = true,
			  .offset = offsetof(struct rounds_extra, cell_time), .bounded = true,
			  .min = 1e6, .max = 86400e9},
	[RX_PRE_WRITE] = {.name = "pre_write", .kind = YK_MAPPING,
			  .offset = offsetof(struct rounds_extra, pre_write)},
	[RX_STEADY] = {.name = "steady_state", .kind = YK_MAPPING,
		       .offset = offsetof(struct rounds_extra, steady_state)},
	[RX_COUNT] = {.name = "count", .kind = YK_UINT, .offset = offsetof(struct rounds_extra, count),
		      .bounded = true, .min = 1, .max = PHASE_MAX_ROUNDS},
	{0},
};
/* clang-format on */

static const char *const rw_enum_names[] = {"read",   "write", "randread", "randwrite",
					    "randrw", "rw",    NULL};

/* How one value of each cell key is read (also used for steady_state.track). */
/* clang-format off */
static const struct ydoc_key axis_value_keys[CELL_NKEYS] = {
	[CELL_RWMIX_READ] = {.name = "rwmix_read", .kind = YK_UINT, .bounded = true, .min = 0,
			     .max = 100},
	[CELL_BS] = {.name = "bs", .kind = YK_SIZE, .bounded = true, .min = 512, .max = 1 << 30,
		     .align = 512},
	[CELL_QD] = {.name = "qd", .kind = YK_UINT, .bounded = true, .min = 1, .max = 1024},
	[CELL_THREADS] = {.name = "threads", .kind = YK_UINT, .bounded = true, .min = 1, .max = 64},
	[CELL_RW] = {.name = "rw", .kind = YK_ENUM, .enum_names = rw_enum_names},
};
/* clang-format on */

static int cell_key_find(const char *name)
{
	for (int k = 0; k < CELL_NKEYS; k++)
		if (!strcmp(name, cell_key_name((enum cell_key)k)))
			return k;
	return -1;
}

static const char *const cell_names_order[] = {"rwmix_read", "bs", "qd", "threads", "rw", NULL};

/* One value of key k from node n into *v. */
static int axis_value(const struct ydoc_node *n, enum cell_key k, uint64_t *v,
		      struct ydoc_error *err)
{
	const struct ydoc_key *key = &axis_value_keys[k];
	int ret;

	if (key->kind == YK_SIZE)
		return ydoc_convert(n, key, v, err);
	if (key->kind == YK_ENUM) {
		int e;

		ret = ydoc_convert(n, key, &e, err);
		if (!ret)
			*v = (uint64_t)e;
		return ret;
	}
	{
		unsigned u;

		ret = ydoc_convert(n, key, &u, err);
		if (!ret)
			*v = u;
		return ret;
	}
}

static int parse_axis(const struct ydoc_node *n, enum cell_key k, struct profile_axis *ax,
		      struct ydoc_error *err)
{
	const struct ydoc_node *one[1] = {n};
	const struct ydoc_node *const *items = one;
	size_t cnt = 1;
	int ret;

	if (n->type == YDOC_SEQUENCE) {
		items = (const struct ydoc_node *const *)n->items;
		cnt = n->n;
		if (!cnt)
			return ydoc_errorf(err, n, "cells.%s is empty: give at least one value",
					   cell_key_name(k));
		if (cnt > PROFILE_MAX_AXIS_VALUES)
			return ydoc_errorf(err, n->items[PROFILE_MAX_AXIS_VALUES],
					   "cells.%s has more than %d values", cell_key_name(k),
					   PROFILE_MAX_AXIS_VALUES);
	}
	ax->key = k;
	ax->n = 0;
	for (size_t i = 0; i < cnt; i++) {
		uint64_t v;

		ret = axis_value(items[i], k, &v, err);
		if (ret)
			return ret;
		for (unsigned j = 0; j < ax->n; j++)
			if (ax->v[j] == v)
				return ydoc_errorf(err, items[i],
						   "value '%s' appears twice in cells.%s",
						   items[i]->text, cell_key_name(k));
		ax->v[ax->n++] = v;
	}
	return 0;
}

/* cells: {<key>: [values], ..., order: [outer, ..., inner]} into r->axes in that order. */
static int parse_cells(const struct ydoc_node *cells, const struct ydoc_node *rounds,
		       struct phase_rounds *r, struct ydoc_error *err)
{
	struct profile_axis axes[CELL_NKEYS];
	bool have[CELL_NKEYS] = {false};
	const struct ydoc_node *order = NULL, *keynode[CELL_NKEYS] = {NULL};
	unsigned nax = 0;
	size_t total = 1;
	int ret;

	for (size_t i = 0; i < cells->n; i++) {
		const struct ydoc_node *kn = cells->pairs[i].key;
		int k;

		if (!strcmp(kn->text, "order")) {
			order = cells->pairs[i].value;
			continue;
		}
		k = cell_key_find(kn->text);
		if (k < 0) {
			static const char *const names[] = {"rwmix_read", "bs",	   "qd", "threads",
							    "rw",	  "order", NULL};
			const char *near = ydoc_nearest(kn->text, names);

			if (near)
				return ydoc_errorf(err, kn,
						   "unknown key '%s' in cells (did you mean '%s'?)",
						   kn->text, near);
			return ydoc_errorf(
			    err, kn,
			    "unknown key '%s' in cells (cells vary rwmix_read, bs, qd, "
			    "threads or rw)",
			    kn->text);
		}
		if (ydoc_map_key(rounds, kn->text) ||
		    ((k == CELL_QD || k == CELL_THREADS) && ydoc_map_key(rounds, "queue")))
			return ydoc_errorf(
			    err, kn, "'%s' is both a setting of rounds and a cells axis: keep one",
			    kn->text);
		ret = parse_axis(cells->pairs[i].value, (enum cell_key)k, &axes[k], err);
		if (ret)
			return ret;
		have[k] = true;
		keynode[k] = kn;
	}
	if (have[CELL_RW] && have[CELL_RWMIX_READ])
		return ydoc_errorf(err, keynode[CELL_RW],
				   "cells cannot vary both rw and rwmix_read: vary rwmix_read (the "
				   "mode follows the mix) or rw");
	for (int k = 0; k < CELL_NKEYS; k++)
		nax += have[k];
	if (order) {
		bool listed[CELL_NKEYS] = {false};
		unsigned n = 0;

		if (order->type != YDOC_SEQUENCE)
			return ydoc_errorf(
			    err, order,
			    "expected order as a list of cell keys, outer loop first, "
			    "such as [rwmix_read, bs]");
		for (size_t i = 0; i < order->n; i++) {
			const struct ydoc_node *it = order->items[i];
			int k = it->type == YDOC_SCALAR ? cell_key_find(it->text) : -1;

			if (k < 0) {
				const char *near = it->type == YDOC_SCALAR
						       ? ydoc_nearest(it->text, cell_names_order)
						       : NULL;

				if (near)
					return ydoc_errorf(
					    err, it, "bad order key '%s' (did you mean '%s'?)",
					    it->text, near);
				return ydoc_errorf(
				    err, it,
				    "bad order key: expected one of rwmix_read, bs, qd, "
				    "threads, rw");
			}
			if (listed[k])
				return ydoc_errorf(err, it, "order names '%s' twice", it->text);
			if (!have[k])
				return ydoc_errorf(err, it,
						   "order names '%s', which cells does not vary",
						   it->text);
			listed[k] = true;
			r->axes[n++] = axes[k];
		}
		for (int k = 0; k < CELL_NKEYS; k++)
			if (have[k] && !listed[k])
				return ydoc_errorf(err, order,
						   "order lacks '%s', which cells varies",
						   cell_key_name((enum cell_key)k));
	} else {
		if (nax > 1)
			return ydoc_errorf(
			    err, cells,
			    "cells vary %u keys: say which loop is outer with order, "
			    "such as order: [rwmix_read, bs]",
			    nax);
		for (int k = 0; k < CELL_NKEYS; k++)
			if (have[k])
				r->axes[0] = axes[k];
	}
	r->naxes = nax;
	for (unsigned a = 0; a < nax; a++)
		total *= r->axes[a].n;
	if (total > MAX_CELLS)
		return ydoc_errorf(err, cells, "the matrix has %zu cells, more than %d", total,
				   MAX_CELLS);
	return 0;
}

struct ss_raw {
	const struct ydoc_node *track;
	unsigned window;
	double data, slope;
	unsigned max_rounds;
	const struct ydoc_node *early;
};

struct early_raw {
	double confidence;
	unsigned min_rounds;
	uint64_t written;
};

/* clang-format off */
static const struct ydoc_key early_keys[] = {
	{.name = "confidence", .kind = YK_DOUBLE, .offset = offsetof(struct early_raw, confidence),
	 .bounded = true, .min = 0.51, .max = 0.999},
	{.name = "min_rounds", .kind = YK_UINT, .offset = offsetof(struct early_raw, min_rounds),
	 .bounded = true, .min = 3, .max = PHASE_MAX_ROUNDS},
	{.name = "written", .kind = YK_SIZE, .offset = offsetof(struct early_raw, written)},
	{0},
};

static const struct ydoc_key ss_keys[] = {
	{.name = "track", .kind = YK_MAPPING, .offset = offsetof(struct ss_raw, track)},
	{.name = "window", .kind = YK_UINT, .offset = offsetof(struct ss_raw, window), .bounded = true,
	 .min = 2, .max = 100},
	{.name = "max_data_excursion", .kind = YK_PERCENT, .offset = offsetof(struct ss_raw, data),
	 .bounded = true, .min = 0.001, .max = 1},
	{.name = "max_slope_excursion", .kind = YK_PERCENT, .offset = offsetof(struct ss_raw, slope),
	 .bounded = true, .min = 0.001, .max = 1},
	{.name = "max_rounds", .kind = YK_UINT, .offset = offsetof(struct ss_raw, max_rounds),
	 .bounded = true, .min = 2, .max = PHASE_MAX_ROUNDS},
	{.name = "early", .kind = YK_MAPPING, .offset = offsetof(struct ss_raw, early)},
	{0},
};
/* clang-format on */

/* early: {confidence, min_rounds, written} -> r->early (ss_early.h); the guard's stated bytes
 * (written, 0 = the target's physical capacity + SLC cache where it says them). */
static int parse_early(const struct ydoc_node *n, struct phase_rounds *r, struct ydoc_error *err)
{
	struct early_raw raw = {.confidence = SS_EARLY_DEFAULT_CONFIDENCE,
				.min_rounds = SS_EARLY_DEFAULT_MIN_ROUNDS};
	int ret = ydoc_map_read(n, "early", early_keys, &raw, NULL, err);

	if (ret)
		return ret;
	if (r->ss.window < 4)
		return ydoc_errorf(err, n,
				   "early needs a window of at least 4 rounds (a fit of 3 with one "
				   "missing), not %u",
				   r->ss.window);
	r->has_early = true;
	r->early = (struct ss_early_params){.confidence = raw.confidence,
					    .min_rounds = raw.min_rounds};
	r->early_written = raw.written;
	return 0;
}

/* track: {<cell key>: value, ..., metric} -> r->track and r->tracked_cell. */
static int parse_track(const struct ydoc_node *t, const struct ydoc_node *ssn,
		       struct phase_rounds *r, struct ydoc_error *err)
{
	const struct ydoc_key metric_key = {
	    .name = "metric", .kind = YK_ENUM, .enum_names = results_metric_names()};
	size_t idx = 0, stride = 1;
	char vals[256];
	int ret;

	r->track.metric = RESULTS_METRIC_IOPS;
	if (t) {
		for (size_t i = 0; i < t->n; i++) {
			const struct ydoc_node *kn = t->pairs[i].key;
			int k;

			if (!strcmp(kn->text, "metric")) {
				int m;

				ret = ydoc_convert(t->pairs[i].value, &metric_key, &m, err);
				if (ret)
					return ret;
				r->track.metric = (enum results_metric)m;
				continue;
			}
			k = cell_key_find(kn->text);
			if (k < 0) {
				static const char *const names[] = {
				    "rwmix_read", "bs", "qd", "threads", "rw", "metric", NULL};
				const char *near = ydoc_nearest(kn->text, names);

				if (near)
					return ydoc_errorf(
					    err, kn,
					    "unknown key '%s' in track (did you mean "
					    "'%s'?)",
					    kn->text, near);
				return ydoc_errorf(err, kn, "unknown key '%s' in track", kn->text);
			}
			ret = axis_value(t->pairs[i].value, (enum cell_key)k, &r->track.v[k], err);
			if (ret)
				return ret;
			r->track.has[k] = true;
		}
	}
	/* The selector must pick exactly one cell: every axis with more than one value named,
	 * with a value the axis has. */
	for (unsigned a = r->naxes; a-- > 0;) {
		const struct profile_axis *ax = &r->axes[a];
		unsigned j;

		if (!r->track.has[ax->key]) {
			if (ax->n > 1) {
				size_t l = 0;

				vals[0] = '\0';
				for (unsigned i = 0; i < ax->n && l < sizeof(vals); i++) {
					char v[32];

					l += (size_t)snprintf(
					    vals + l, sizeof(vals) - l, "%s%s", i ? ", " : "",
					    cell_value_fmt(ax->key, ax->v[i], v, sizeof(v)));
				}
				return ydoc_errorf(
				    err, t ? t : ssn,
				    "steady_state.track must pick one cell: add %s (one "
				    "of %s)",
				    cell_key_name(ax->key), vals);
			}
			r->track.has[ax->key] = true;
			r->track.v[ax->key] = ax->v[0];
		}
		for (j = 0; j < ax->n; j++)
			if (ax->v[j] == r->track.v[ax->key])
				break;
		if (j == ax->n) {
			char v[32];

			return ydoc_errorf(
			    err, ydoc_map_get(t, cell_key_name(ax->key)),
			    "track %s=%s is not a value of cells.%s", cell_key_name(ax->key),
			    cell_value_fmt(ax->key, r->track.v[ax->key], v, sizeof(v)),
			    cell_key_name(ax->key));
		}
		idx += j * stride;
		stride *= ax->n;
	}
	for (int k = 0; k < CELL_NKEYS; k++) {
		bool axis = false;

		for (unsigned a = 0; a < r->naxes; a++)
			axis |= r->axes[a].key == (enum cell_key)k;
		if (r->track.has[k] && !axis)
			return ydoc_errorf(err, ydoc_map_key(t, cell_key_name((enum cell_key)k)),
					   "track names '%s', which cells does not vary",
					   cell_key_name((enum cell_key)k));
	}
	r->tracked_cell = (unsigned)idx;
	return 0;
}

static int parse_steady(const struct ydoc_node *n, struct phase_rounds *r, struct ydoc_error *err)
{
	struct ss_raw raw = {.window = SS_DEFAULT_WINDOW,
			     .data = SS_DEFAULT_MAX_DATA_EXCURSION,
			     .slope = SS_DEFAULT_MAX_SLOPE_EXCURSION,
			     .max_rounds = SS_DEFAULT_MAX_ROUNDS};
	int ret = ydoc_map_read(n, "steady_state", ss_keys, &raw, NULL, err);

	if (ret)
		return ret;
	if (raw.max_rounds < raw.window)
		return ydoc_errorf(
		    err, ydoc_map_get(n, "max_rounds") ? ydoc_map_get(n, "max_rounds") : n,
		    "max_rounds (%u) must be at least the window (%u)", raw.max_rounds, raw.window);
	r->has_steady_state = true;
	r->ss = (struct ss_params){.window = raw.window,
				   .max_data_excursion = raw.data,
				   .max_slope_excursion = raw.slope,
				   .max_rounds = raw.max_rounds};
	if (raw.early) {
		ret = parse_early(raw.early, r, err);
		if (ret)
			return ret;
	}
	/* An absent track on a one-cell matrix follows that cell. */
	return parse_track(raw.track, n, r, err);
}

/* clang-format off */
static const struct ydoc_key pre_write_keys[] = {
	{.name = "amount", .kind = YK_AMOUNT, .required = true,
	 .offset = offsetof(struct pre_write_extra, amount), .align = 512},
	{0},
};
/* clang-format on */

static int rounds_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
			struct ydoc_error *err)
{
	struct phase_rounds *r = data;
	struct rounds_extra x = {0};
	uint64_t present = 0;
	bool rw_given, mix_axis = false;
	int ret;

	r->base.spec.rw = RW_RANDRW;
	if (ctx->pts) { /* the PTS variant's TC x QD, unless the phase gives its queue */
		r->base.spec.qd = ctx->pts->measured_qd;
		r->base.spec.threads = ctx->pts->measured_threads;
	}
	ret = profile_parse_workload(n, "rounds", ctx, &r->base, rounds_keys, &x, &present, err);
	if (ret)
		return ret;
	r->base.length = (struct amount){.kind = AMOUNT_TIME, .ns = x.cell_time};
	rw_given = ydoc_map_key(n, "rw") || ydoc_map_key(n, "rwmix_read");
	if (x.cells) {
		ret = parse_cells(x.cells, n, r, err);
		if (ret)
			return ret;
	}
	for (unsigned a = 0; a < r->naxes; a++) {
		if (r->axes[a].key == CELL_RWMIX_READ)
			mix_axis = true;
		if (r->axes[a].key != CELL_RW)
			continue;
		rw_given = true;
		for (unsigned i = 0; i < r->axes[a].n && r->base.spec.dist == DIST_ZONED; i++)
			if (r->axes[a].v[i] == RW_READ || r->axes[a].v[i] == RW_WRITE ||
			    r->axes[a].v[i] == RW_RW)
				return ydoc_errorf(
				    err, ydoc_map_get(x.cells, "rw"),
				    "random_distribution: zoned needs random rw modes, "
				    "not %s",
				    rw_mode_name((enum rw_mode)r->axes[a].v[i]));
	}
	if (mix_axis && ydoc_map_key(n, "rw") && r->base.spec.rw != RW_RANDRW &&
	    r->base.spec.rw != RW_RW)
		return ydoc_errorf(err, ydoc_map_get(n, "rw"),
				   "cells vary rwmix_read, so rw must be randrw or rw (or left out "
				   "to follow the mix), not %s",
				   rw_mode_name(r->base.spec.rw));
	if (!rw_given && !mix_axis)
		return ydoc_errorf(err, n,
				   "missing required key 'rw' in rounds (or vary rwmix_read "
				   "in cells)");
	r->rw_follows_mix = mix_axis && !ydoc_map_key(n, "rw");
	if ((present & (1u << RX_STEADY)) && (present & (1u << RX_COUNT)))
		return ydoc_errorf(err, ydoc_map_key(n, "count"),
				   "give either steady_state or count, not both");
	if (!(present & ((1u << RX_STEADY) | (1u << RX_COUNT))))
		return ydoc_errorf(err, n,
				   "rounds need steady_state: {...} or a fixed count: N of rounds");
	if (present & (1u << RX_STEADY)) {
		ret = parse_steady(x.steady_state, r, err);
		if (ret)
			return ret;
	} else {
		r->count = x.count;
	}
	if (x.pre_write) {
		struct pre_write_extra px = {0};

		r->pre_write.spec.rw = RW_WRITE;
		r->pre_write.spec.bs[0] = (struct bs_split){131072, 1};
		r->pre_write.spec.nbs = 1;
		ret = profile_parse_workload(x.pre_write, "pre_write", ctx, &r->pre_write,
					     pre_write_keys, &px, NULL, err);
		if (ret)
			return ret;
		if (!phase_rw_writes(r->pre_write.spec.rw, r->pre_write.spec.rwmix_read))
			return ydoc_errorf(err, ydoc_map_get(x.pre_write, "rw"),
					   "pre_write must write: expected rw write or randwrite");
		r->pre_write.length = px.amount;
		r->has_pre_write = true;
	}
	return 0;
}

static bool rounds_destructive(const void *data)
{
	const struct phase_rounds *r = data;
	struct profile_cell *cells;
	size_t n;
	bool w = r->has_pre_write;

	if (w)
		return true;
	/* Decided on the expanded cells, so that the mix/mode convention is applied once. */
	if (profile_rounds_cells(r, &cells, &n))
		return true; /* out of memory: err on the safe side */
	for (size_t i = 0; i < n && !w; i++)
		w = phase_rw_writes(cells[i].w.spec.rw, cells[i].w.spec.rwmix_read);
	free(cells);
	return w;
}

static struct json_object *rounds_json(const void *data)
{
	const struct phase_rounds *r = data;
	struct json_object *o = json_object_new_object(), *axes, *cj;
	struct profile_cell *cells = NULL;
	size_t n = 0;
	bool bad = false;

	if (!o)
		return NULL;
	bad |= phase_json_add(o, "base", profile_workload_to_json(&r->base));
	bad |= phase_json_add(o, "cell_time_ns", json_object_new_uint64(r->base.length.ns));
	axes = json_object_new_array();
	for (unsigned a = 0; axes && a < r->naxes; a++) {
		struct json_object *ax = json_object_new_object(), *vals = json_object_new_array();

		bad |= phase_json_add(ax, "key",
				       json_object_new_string(cell_key_name(r->axes[a].key)));
		for (unsigned i = 0; vals && i < r->axes[a].n; i++) {
			char v[32];

			bad |= phase_json_append(
			    vals, r->axes[a].key == CELL_RW
				      ? json_object_new_string(
					    cell_value_fmt(CELL_RW, r->axes[a].v[i], v, sizeof(v)))
				      : json_object_new_uint64(r->axes[a].v[i]));
		}
		bad |= phase_json_add(ax, "values", vals);
		bad |= phase_json_append(axes, ax);
	}
	bad |= phase_json_add(o, "order", axes);
	if (profile_rounds_cells(r, &cells, &n) == 0) {
		cj = json_object_new_array();
		for (size_t i = 0; cj && i < n; i++)
			bad |= phase_json_append(cj, json_object_new_string(cells[i].key));
		bad |= phase_json_add(o, "cells", cj);
		if (r->has_steady_state && r->tracked_cell < n)
			bad |= phase_json_add(o, "tracked_cell",
					       json_object_new_string(cells[r->tracked_cell].key));
		free(cells);
	} else {
		bad = true; /* out of memory */
	}
	if (r->has_pre_write)
		bad |= phase_json_add(o, "pre_write", profile_workload_to_json(&r->pre_write));
	if (r->has_steady_state) {
		struct json_object *ss = json_object_new_object();

		bad |= phase_json_add(ss, "metric",
				       json_object_new_string(results_metric_name(r->track.metric)));
		bad |= phase_json_add(ss, "window", json_object_new_int((int)r->ss.window));
		bad |= phase_json_add(ss, "max_data_excursion",
				       jsonnum_new(r->ss.max_data_excursion));
		bad |= phase_json_add(ss, "max_slope_excursion",
				       jsonnum_new(r->ss.max_slope_excursion));
		bad |= phase_json_add(ss, "max_rounds",
				       json_object_new_int((int)r->ss.max_rounds));
		if (r->has_early) {
			struct json_object *ej = ss_early_params_to_json(&r->early);

			if (ej && r->early_written)
				bad |= phase_json_add(ej, "written",
						       json_object_new_uint64(r->early_written));
			bad |= phase_json_add(ss, "early", ej);
		}
		bad |= phase_json_add(o, "steady_state", ss);
	} else {
		bad |= phase_json_add(o, "count", json_object_new_int((int)r->count));
	}
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void rounds_describe(const void *data, char *buf, size_t len)
{
	const struct phase_rounds *r = data;
	size_t ncells = 1, pos;
	char t[32], w[256], axes[96] = "";
	size_t al = 0;
	bool vary_rw = false, vary_bs = false;

	for (unsigned a = 0; a < r->naxes; a++) {
		vary_rw |= r->axes[a].key == CELL_RW || r->axes[a].key == CELL_RWMIX_READ;
		vary_bs |= r->axes[a].key == CELL_BS;
		ncells *= r->axes[a].n;
		al += (size_t)snprintf(axes + al, sizeof(axes) - al, "%s%s", a ? " x " : "",
				       cell_key_name(r->axes[a].key));
		if (al >= sizeof(axes))
			break;
	}
	phase_wl_desc_skip(&r->base, vary_rw, vary_bs, w, sizeof(w));
	pos = (size_t)snprintf(buf, len, "rounds of %zu cell%s%s%s%s of %s (%s)", ncells,
			       ncells == 1 ? "" : "s", r->naxes ? " (" : "", axes,
			       r->naxes ? ")" : "",
			       units_fmt_duration(r->base.length.ns, t, sizeof(t)), w);
	if (pos >= len)
		return;
	if (r->has_steady_state) {
		struct profile_cell *cells;
		size_t n;
		const char *key = "?";

		if (profile_rounds_cells(r, &cells, &n) == 0 && r->tracked_cell < n)
			key = cells[r->tracked_cell].key;
		else
			cells = NULL;
		pos +=
		    (size_t)snprintf(buf + pos, len - pos,
				     ", to steady state on %s%s%s (window %u, at most %u rounds)",
				     results_metric_name(r->track.metric), r->naxes ? " of " : "",
				     r->naxes ? key : "", r->ss.window, r->ss.max_rounds);
		if (r->has_early && pos < len)
			pos += (size_t)snprintf(
			    buf + pos, len - pos,
			    ", may end early when the window is predicted to pass (confidence %g, "
			    "from round %u; not with --strict-pts)",
			    r->early.confidence, r->early.min_rounds);
		free(cells);
	} else {
		pos += (size_t)snprintf(buf + pos, len - pos, ", %u round%s", r->count,
					r->count == 1 ? "" : "s");
	}
	if (r->has_pre_write && pos < len) {
		char a[64];

		phase_wl_desc(&r->pre_write, w, sizeof(w));
		snprintf(buf + pos, len - pos, ", each after a pre-write of %s (%s)",
			 phase_amount_text(&r->pre_write.length, a, sizeof(a)), w);
	}
}

static int rounds_jobs(const void *data, struct phase_job **jobs, size_t *n)
{
	const struct phase_rounds *r = data;
	struct profile_cell *cells = NULL;
	struct phase_job *j;
	size_t nc = 0;

	if (profile_rounds_cells(r, &cells, &nc))
		return -ENOMEM;
	j = calloc(nc + 1, sizeof(*j));
	if (!j) {
		free(cells);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nc; i++) {
		j[i].w = cells[i].w;
		snprintf(j[i].key, sizeof(j[i].key), "%s", cells[i].key);
		j[i].cell = true;
	}
	if (r->has_pre_write) {
		j[nc].w = r->pre_write;
		snprintf(j[nc].key, sizeof(j[nc].key), "pre_write");
		nc++;
	}
	free(cells);
	*jobs = j;
	*n = nc;
	return 0;
}

static int rounds_bytes(const void *data, uint64_t capacity, uint64_t *bytes)
{
	const struct phase_rounds *r = data;
	unsigned rounds = r->has_steady_state ? r->ss.max_rounds : r->count;
	uint64_t pw = 0;
	int ret = rounds_destructive(data) ? -ENODATA : 0;

	/* Cells are time-bound: only the pre-writes are known in bytes. */
	if (r->has_pre_write && phase_length_bytes(&r->pre_write.length, capacity, &pw) == -ENODATA)
		ret = -ENODATA;
	*bytes = pw * rounds;
	return ret;
}

/* The cells of one round the target can run: all of them but those it records as not
 * applicable (profile_workload_not_applicable: 0.5 KiB on a 4Kn device), which take no time. */
static size_t applicable_cells(const struct phase_rounds *r, uint32_t lbs)
{
	struct profile_cell *cells = NULL;
	size_t n = 1, ok = 0;
	char why[128];

	for (unsigned a = 0; a < r->naxes; a++)
		n *= r->axes[a].n;
	/* Without a block size or the matrix (no memory), every cell counts: a longer estimate. */
	if (!lbs || profile_rounds_cells(r, &cells, &n))
		return n;
	for (size_t c = 0; c < n; c++)
		ok += !profile_workload_not_applicable(&cells[c].w, lbs, why, sizeof(why));
	free(cells);
	return ok;
}

/* One round: every cell the target can run, then the pre-write. A cell's coordinates (mix, bs,
 * qd, threads, rw) never change its length, so each cell runs the base's cell_time. */
static void rounds_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	const struct phase_rounds *r = data;
	size_t cells = applicable_cells(r, env->lbs);

	phase_one_instance(l);
	for (size_t c = 0; c < cells; c++)
		phase_add_length(env, &r->base.length, l);
	if (r->has_pre_write)
		phase_add_length(env, &r->pre_write.length, l);
	l->rounds_lo = r->has_steady_state ? r->ss.window : r->count;
	/* an early verdict may end the rounds at min_rounds (docs/early-verdict.md) */
	if (r->has_steady_state && r->has_early && r->early.min_rounds < l->rounds_lo)
		l->rounds_lo = r->early.min_rounds;
	l->rounds_hi = r->has_steady_state ? r->ss.max_rounds : r->count;
}


/* clang-format off */
const struct phase_kind phase_rounds_kind = {
	.name = "rounds",
	.type = PHASE_ROUNDS,
	.flags = PHASE_KIND_ROUNDS,
	.size = sizeof(struct phase_rounds),
	.parse = rounds_parse,
	.destructive = rounds_destructive,
	.to_json = rounds_json,
	.describe = rounds_describe,
	.bytes = rounds_bytes,
	.length = rounds_length,
	.jobs = rounds_jobs,
};
/* clang-format on */
