/* SPDX-License-Identifier: MIT */
/*
 * phases: the registry of phase kinds (phases.h, "the phase registry"). Each kind is a data
 * struct, its hooks, and one row of `kinds[]`; the rest of the profile layer knows kinds only
 * through that table. To add a kind: an enum phase_type value and data struct in phases.h, the
 * hooks here, a row, and its execute hook in run/runner.c's kind_exec[].
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

#include "profile/phases.h"

#define MAX_CELLS 4096
#define MAX_ROUNDS 10000

/* ---- helpers -------------------------------------------------------------------------------- */

static bool rw_writes(enum rw_mode m, unsigned rwmix_read)
{
	switch (m) {
	case RW_WRITE:
	case RW_RANDWRITE:
		return true;
	case RW_RANDRW:
	case RW_RW:
		return rwmix_read < 100;
	default:
		return false;
	}
}

/*
 * "randwrite 4k qd 32 x 4 threads" (+ " over 0%-50%" when the range is not the whole device).
 * The mode and the block size are left out when a rounds matrix varies them (skip_rw, skip_bs).
 */
static size_t wl_desc_skip(const struct profile_workload *w, bool skip_rw, bool skip_bs, char *buf,
			   size_t len)
{
	const struct job_spec *s = &w->spec;
	size_t pos = 0;
	char v[32];

	buf[0] = '\0';
	if (!skip_rw) {
		pos = (size_t)snprintf(buf, len, "%s ", rw_mode_name(s->rw));
		if (pos < len && (s->rw == RW_RANDRW || s->rw == RW_RW))
			pos += (size_t)snprintf(buf + pos, len - pos, "%u%% read ", s->rwmix_read);
	}
	for (unsigned i = 0; !skip_bs && i < s->nbs && pos < len; i++) {
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%s", i ? ":" : "",
					cell_value_fmt(CELL_BS, s->bs[i].bs, v, sizeof(v)));
		if (s->nbs > 1 && pos < len)
			pos += (size_t)snprintf(buf + pos, len - pos, "/%u", s->bs[i].weight);
		if (i + 1 == s->nbs && pos < len)
			pos += (size_t)snprintf(buf + pos, len - pos, " ");
	}
	/* Weights are relative: say what a split that does not sum to 100 comes to. */
	if (!skip_bs && pos < len) {
		char note[256];

		if (bs_split_normalised(s->bs, s->nbs, note, sizeof(note)))
			pos += (size_t)snprintf(buf + pos, len - pos, "(%s) ", note);
	}
	if (pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, "qd %u x %u thread%s", s->qd,
					s->threads, s->threads == 1 ? "" : "s");
	if (pos < len && !(w->range.percent && w->range.lo == 0 && w->range.hi == 1)) {
		char a[32], b[32];

		if (w->range.percent)
			pos +=
			    (size_t)snprintf(buf + pos, len - pos, " over %s%%-%s%%",
					     units_fmt_double(w->range.lo * 100, 0, a, sizeof(a)),
					     units_fmt_double(w->range.hi * 100, 0, b, sizeof(b)));
		else
			pos += (size_t)snprintf(buf + pos, len - pos, " over %s-%s",
						units_fmt_size(w->range.lo_b, a, sizeof(a)),
						units_fmt_size(w->range.hi_b, b, sizeof(b)));
	}
	if (pos < len && s->dist == DIST_ZONED)
		pos += (size_t)snprintf(buf + pos, len - pos, " zoned");
	return pos < len ? pos : len - 1;
}

static size_t wl_desc(const struct profile_workload *w, char *buf, size_t len)
{
	return wl_desc_skip(w, false, false, buf, len);
}

static const char *amount_text(const struct amount *a, char *buf, size_t len)
{
	char num[32];

	switch (a->kind) {
	case AMOUNT_BYTES:
		return units_fmt_size(a->bytes, buf, len);
	case AMOUNT_CAPACITY:
		snprintf(buf, len, "%sx capacity",
			 units_fmt_double(a->multiple, a->multiple == (long)a->multiple ? 0 : 2,
					  num, sizeof(num)));
		return buf;
	case AMOUNT_TIME:
		return units_fmt_duration(a->ns, buf, len);
	default:
		snprintf(buf, len, "one pass");
		return buf;
	}
}

/* Bytes a write workload of `length` writes: computable for bytes and capacity multiples. */
static int length_bytes(const struct amount *a, uint64_t capacity, uint64_t *bytes)
{
	if (a->kind == AMOUNT_TIME) {
		*bytes = 0;
		return -ENODATA;
	}
	*bytes = amount_bytes(a, capacity);
	return 0;
}

uint64_t phase_scale_ns(const struct phase_env *env, uint64_t ns)
{
	double v = (double)ns * env->scale;

	return v >= 18446744073709549568.0 ? UINT64_MAX : (uint64_t)v;
}

/* Adds a workload's length to l: time (scaled) or bytes (one pass = the capacity). */
static void add_length(const struct phase_env *env, const struct amount *a, struct phase_length *l)
{
	if (a->kind == AMOUNT_TIME)
		l->ns += phase_scale_ns(env, a->ns);
	else
		l->bytes += a->kind == AMOUNT_NONE ? env->capacity : amount_bytes(a, env->capacity);
}

static void one_instance(struct phase_length *l)
{
	*l = (struct phase_length){.rounds_lo = 1, .rounds_hi = 1};
}

/* A job list of one workload (a write phase), named after its kind. */
static int one_job(const struct profile_workload *w, const char *name, struct phase_job **jobs,
		   size_t *n)
{
	struct phase_job *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	j->w = *w;
	snprintf(j->key, sizeof(j->key), "%s", name);
	*jobs = j;
	*n = 1;
	return 0;
}

static struct json_object *json_u64(uint64_t v)
{
	return json_object_new_uint64(v);
}

/* ---- purge ---------------------------------------------------------------------------------- */

static const char *const purge_methods[] = {"auto", "discard", "sim", NULL};

struct purge_extra {
	int method;
	uint64_t settle;
};

/* clang-format off */
static const struct ydoc_key purge_keys[] = {
	{.name = "method", .kind = YK_ENUM, .offset = offsetof(struct purge_extra, method),
	 .enum_names = purge_methods},
	{.name = "settle", .kind = YK_DURATION, .offset = offsetof(struct purge_extra, settle),
	 .bounded = true, .min = 0, .max = 3600e9},
	{0},
};
/* clang-format on */

static int purge_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
		       struct ydoc_error *err)
{
	struct purge_extra x = {.method = PURGE_AUTO, .settle = PURGE_SETTLE_DEFAULT_NS};
	int ret = ydoc_map_read(n, "purge", purge_keys, &x, NULL, err);

	(void)ctx;
	if (ret)
		return ret;
	*(struct phase_purge *)data =
	    (struct phase_purge){.method = (enum purge_method)x.method, .settle_ns = x.settle};
	return 0;
}

static bool always(const void *data)
{
	(void)data;
	return true;
}

static struct json_object *purge_json(const void *data)
{
	const struct phase_purge *p = data;
	struct json_object *o = json_object_new_object();
	bool bad = false;

	if (o) {
		bad |= phase_json_add(o, "method",
				       json_object_new_string(purge_methods[p->method]));
		bad |= phase_json_add(o, "settle_ns", json_u64(p->settle_ns));
	}
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void purge_describe(const void *data, char *buf, size_t len)
{
	const struct phase_purge *p = data;
	char t[32];

	snprintf(buf, len, "purge (%s; settle %s after a discard)", purge_methods[p->method],
		 units_fmt_duration(p->settle_ns, t, sizeof(t)));
}

static void purge_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	const struct phase_purge *p = data;

	one_instance(l);
	l->ns = phase_scale_ns(env, phase_purge_settle_ns(p, env->real_purge));
}

uint64_t phase_purge_settle_ns(const struct phase_purge *p, bool real_purge)
{
	/* A discard is followed by its settle: drives finish a large TRIM in the background. */
	return p->method == PURGE_DISCARD || !real_purge ? p->settle_ns : 0;
}

/* ---- precondition and write_until ----------------------------------------------------------- */

struct write_extra {
	struct amount amount;
	uint64_t round_time, max_time;
};

/* clang-format off */
static const struct ydoc_key precondition_keys[] = {
	{.name = "amount", .kind = YK_AMOUNT, .offset = offsetof(struct write_extra, amount),
	 .align = 512},
	{0},
};
/* clang-format on */

/* clang-format off */
static const struct ydoc_key write_until_keys[] = {
	{.name = "amount", .kind = YK_AMOUNT, .required = true,
	 .offset = offsetof(struct write_extra, amount), .align = 512},
	{.name = "round_time", .kind = YK_DURATION, .offset = offsetof(struct write_extra, round_time),
	 .bounded = true, .min = 1e6, .max = 86400e9},
	{.name = "max_time", .kind = YK_DURATION, .offset = offsetof(struct write_extra, max_time),
	 .bounded = true, .min = 1e6, .max = 3650 * 86400e9},
	{0},
};
/* clang-format on */

static int write_parse(const struct ydoc_node *n, struct phase_write *out,
		       const struct phase_parse_ctx *ctx, bool until, struct ydoc_error *err)
{
	const char *name = until ? "write_until" : "precondition";
	struct phase_write p = {0};
	struct write_extra x = {0};
	uint64_t present = 0;
	int ret;

	if (until) {
		p.w.spec.rw = RW_RANDWRITE;
		p.w.spec.bs[0] = (struct bs_split){4096, 1};
	} else {
		/* SNIA WIPC: 2x the user capacity in 128 KiB sequential writes. */
		p.w.spec.rw = RW_WRITE;
		p.w.spec.bs[0] = (struct bs_split){131072, 1};
		x.amount = (struct amount){.kind = AMOUNT_CAPACITY, .multiple = 2.0};
	}
	p.w.spec.nbs = 1;
	ret = profile_parse_workload(
	    n, name, ctx, &p.w, until ? write_until_keys : precondition_keys, &x, &present, err);
	if (ret)
		return ret;
	if (p.w.spec.rw != RW_WRITE && p.w.spec.rw != RW_RANDWRITE)
		return ydoc_errorf(err, ydoc_map_get(n, "rw") ? ydoc_map_get(n, "rw") : n,
				   "%s writes: expected rw write or randwrite, got %s", name,
				   rw_mode_name(p.w.spec.rw));
	p.w.length = x.amount;
	p.round_time_ns = x.round_time;
	p.max_time_ns = x.max_time;
	if (until && x.round_time && x.amount.kind == AMOUNT_TIME && x.round_time > x.amount.ns)
		return ydoc_errorf(err, ydoc_map_get(n, "round_time"),
				   "round_time is longer than the amount of time to write");
	*out = p;
	return 0;
}

static int precondition_parse(const struct ydoc_node *n, void *data,
			      const struct phase_parse_ctx *ctx, struct ydoc_error *err)
{
	return write_parse(n, data, ctx, false, err);
}

static int write_until_parse(const struct ydoc_node *n, void *data,
			     const struct phase_parse_ctx *ctx, struct ydoc_error *err)
{
	return write_parse(n, data, ctx, true, err);
}

static struct json_object *write_json(const void *data)
{
	const struct phase_write *p = data;
	struct json_object *o = json_object_new_object();
	bool bad = false;

	if (!o)
		return NULL;
	bad |= phase_json_add(o, "workload", profile_workload_to_json(&p->w));
	if (p->round_time_ns)
		bad |= phase_json_add(o, "round_time_ns", json_u64(p->round_time_ns));
	if (p->max_time_ns)
		bad |= phase_json_add(o, "max_time_ns", json_u64(p->max_time_ns));
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void write_describe_as(const struct phase_write *p, const char *name, char *buf, size_t len)
{
	char w[256], a[64], t[32];
	size_t pos;

	wl_desc(&p->w, w, sizeof(w));
	pos = (size_t)snprintf(buf, len, "%s %s%s %s", name, w,
			       strcmp(name, "precondition") ? " until" : ",",
			       amount_text(&p->w.length, a, sizeof(a)));
	if (p->max_time_ns && pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, " or %s",
					units_fmt_duration(p->max_time_ns, t, sizeof(t)));
	if (p->round_time_ns && pos < len)
		snprintf(buf + pos, len - pos, ", a record every %s",
			 units_fmt_duration(p->round_time_ns, t, sizeof(t)));
}

static void precondition_describe(const void *data, char *buf, size_t len)
{
	write_describe_as(data, "precondition", buf, len);
}

static void write_until_describe(const void *data, char *buf, size_t len)
{
	write_describe_as(data, "write_until", buf, len);
}

static int write_bytes(const void *data, uint64_t capacity, uint64_t *bytes)
{
	const struct phase_write *p = data;

	return length_bytes(&p->w.length, capacity, bytes);
}

static void write_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	const struct phase_write *p = data;

	one_instance(l);
	add_length(env, &p->w.length, l);
	l->cap_ns = p->max_time_ns ? phase_scale_ns(env, p->max_time_ns) : 0;
}

static int precondition_jobs(const void *data, struct phase_job **jobs, size_t *n)
{
	return one_job(&((const struct phase_write *)data)->w, "precondition", jobs, n);
}

static int write_until_jobs(const void *data, struct phase_job **jobs, size_t *n)
{
	return one_job(&((const struct phase_write *)data)->w, "write_until", jobs, n);
}

/* ---- rounds --------------------------------------------------------------------------------- */

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
		      .bounded = true, .min = 1, .max = MAX_ROUNDS},
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
};

/* clang-format off */
static const struct ydoc_key ss_keys[] = {
	{.name = "track", .kind = YK_MAPPING, .offset = offsetof(struct ss_raw, track)},
	{.name = "window", .kind = YK_UINT, .offset = offsetof(struct ss_raw, window), .bounded = true,
	 .min = 2, .max = 100},
	{.name = "max_data_excursion", .kind = YK_PERCENT, .offset = offsetof(struct ss_raw, data),
	 .bounded = true, .min = 0.001, .max = 1},
	{.name = "max_slope_excursion", .kind = YK_PERCENT, .offset = offsetof(struct ss_raw, slope),
	 .bounded = true, .min = 0.001, .max = 1},
	{.name = "max_rounds", .kind = YK_UINT, .offset = offsetof(struct ss_raw, max_rounds),
	 .bounded = true, .min = 2, .max = MAX_ROUNDS},
	{0},
};
/* clang-format on */

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
	/* An absent track on a one-cell matrix follows that cell. */
	return parse_track(raw.track, n, r, err);
}

/* clang-format off */
static const struct ydoc_key pre_write_keys[] = {
	{.name = "amount", .kind = YK_AMOUNT, .required = true,
	 .offset = offsetof(struct write_extra, amount), .align = 512},
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
		struct write_extra px = {0};

		r->pre_write.spec.rw = RW_WRITE;
		r->pre_write.spec.bs[0] = (struct bs_split){131072, 1};
		r->pre_write.spec.nbs = 1;
		ret = profile_parse_workload(x.pre_write, "pre_write", ctx, &r->pre_write,
					     pre_write_keys, &px, NULL, err);
		if (ret)
			return ret;
		if (!rw_writes(r->pre_write.spec.rw, r->pre_write.spec.rwmix_read))
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
		w = rw_writes(cells[i].w.spec.rw, cells[i].w.spec.rwmix_read);
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
	bad |= phase_json_add(o, "cell_time_ns", json_u64(r->base.length.ns));
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
				      : json_u64(r->axes[a].v[i]));
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
	wl_desc_skip(&r->base, vary_rw, vary_bs, w, sizeof(w));
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
		free(cells);
	} else {
		pos += (size_t)snprintf(buf + pos, len - pos, ", %u round%s", r->count,
					r->count == 1 ? "" : "s");
	}
	if (r->has_pre_write && pos < len) {
		char a[64];

		wl_desc(&r->pre_write, w, sizeof(w));
		snprintf(buf + pos, len - pos, ", each after a pre-write of %s (%s)",
			 amount_text(&r->pre_write.length, a, sizeof(a)), w);
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
	if (r->has_pre_write && length_bytes(&r->pre_write.length, capacity, &pw) == -ENODATA)
		ret = -ENODATA;
	*bytes = pw * rounds;
	return ret;
}

/* One round: every cell, then the pre-write. A cell's coordinates (mix, bs, qd, threads, rw)
 * never change its length, so each cell runs the base's cell_time: no need to expand them. */
static void rounds_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	const struct phase_rounds *r = data;
	size_t cells = 1;

	one_instance(l);
	for (unsigned a = 0; a < r->naxes; a++)
		cells *= r->axes[a].n;
	for (size_t c = 0; c < cells; c++)
		add_length(env, &r->base.length, l);
	if (r->has_pre_write)
		add_length(env, &r->pre_write.length, l);
	l->rounds_lo = r->has_steady_state ? r->ss.window : r->count;
	l->rounds_hi = r->has_steady_state ? r->ss.max_rounds : r->count;
}

/* ---- idle ----------------------------------------------------------------------------------- */

/* clang-format off */
static const struct ydoc_key idle_keys[] = {
	{.name = "time", .kind = YK_DURATION, .required = true,
	 .offset = offsetof(struct phase_idle, time_ns), .bounded = true, .min = 1e6,
	 .max = 365 * 86400e9},
	{0},
};
/* clang-format on */

static int idle_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
		      struct ydoc_error *err)
{
	struct phase_idle p = {0};
	int ret;

	(void)ctx;
	/* "- idle: 5m" is allowed for {time: 5m}. */
	if (n->type == YDOC_SCALAR && *n->text)
		ret = ydoc_convert(n, &idle_keys[0], &p.time_ns, err);
	else
		ret = ydoc_map_read(n, "idle", idle_keys, &p, NULL, err);
	if (ret)
		return ret;
	*(struct phase_idle *)data = p;
	return 0;
}

static bool never(const void *data)
{
	(void)data;
	return false;
}

static struct json_object *idle_json(const void *data)
{
	struct json_object *o = json_object_new_object();
	bool bad = false;

	if (o)
		bad |= phase_json_add(o, "time_ns",
				       json_u64(((const struct phase_idle *)data)->time_ns));
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void idle_describe(const void *data, char *buf, size_t len)
{
	char t[32];

	snprintf(buf, len, "idle %s",
		 units_fmt_duration(((const struct phase_idle *)data)->time_ns, t, sizeof(t)));
}

static void idle_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	one_instance(l);
	l->ns = phase_scale_ns(env, ((const struct phase_idle *)data)->time_ns);
}

/* ---- trim ----------------------------------------------------------------------------------- */

/* clang-format off */
static const struct ydoc_key trim_keys[] = {
	{.name = "range", .kind = YK_RANGE, .offset = offsetof(struct phase_trim, range), .align = 512},
	{0},
};
/* clang-format on */

static int trim_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
		      struct ydoc_error *err)
{
	struct phase_trim p = {.range = {.percent = true, .lo = 0, .hi = 1}};
	int ret = ydoc_map_read(n, "trim", trim_keys, &p, NULL, err);

	(void)ctx;
	if (ret)
		return ret;
	*(struct phase_trim *)data = p;
	return 0;
}

static struct json_object *trim_json(const void *data)
{
	const struct phase_trim *p = data;
	struct json_object *o = json_object_new_object();
	bool bad = false;

	if (!o)
		return NULL;
	if (p->range.percent) {
		bad |= phase_json_add(o, "lo_fraction", jsonnum_new(p->range.lo));
		bad |= phase_json_add(o, "hi_fraction", jsonnum_new(p->range.hi));
	} else {
		bad |= phase_json_add(o, "lo_bytes", json_u64(p->range.lo_b));
		bad |= phase_json_add(o, "hi_bytes", json_u64(p->range.hi_b));
	}
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void trim_describe(const void *data, char *buf, size_t len)
{
	const struct phase_trim *p = data;
	char a[32], b[32];

	if (p->range.percent)
		snprintf(buf, len, "trim %s%%-%s%%",
			 units_fmt_double(p->range.lo * 100, 0, a, sizeof(a)),
			 units_fmt_double(p->range.hi * 100, 0, b, sizeof(b)));
	else
		snprintf(buf, len, "trim %s-%s", units_fmt_size(p->range.lo_b, a, sizeof(a)),
			 units_fmt_size(p->range.hi_b, b, sizeof(b)));
}

/* ---- repeat --------------------------------------------------------------------------------- */

struct repeat_raw {
	unsigned count;
	const struct ydoc_node *phases;
};

/* clang-format off */
static const struct ydoc_key repeat_keys[] = {
	{.name = "count", .kind = YK_UINT, .required = true,
	 .offset = offsetof(struct repeat_raw, count), .bounded = true, .min = 1, .max = MAX_ROUNDS},
	{.name = "phases", .kind = YK_ANY, .required = true,
	 .offset = offsetof(struct repeat_raw, phases)},
	{0},
};
/* clang-format on */

static int repeat_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
			struct ydoc_error *err)
{
	struct phase_repeat *p = data;
	struct repeat_raw raw = {0};
	struct phase_parse_ctx inner = *ctx;
	int ret = ydoc_map_read(n, "repeat", repeat_keys, &raw, NULL, err);

	if (ret)
		return ret;
	if (ctx->depth + 1 >= PROFILE_MAX_DEPTH)
		return ydoc_errorf(err, n, "repeat nested more than %d deep",
				   PROFILE_MAX_DEPTH - 1);
	inner.depth = ctx->depth + 1;
	ret = profile_parse_phase_list(raw.phases, "repeat.phases", &inner, &p->phases, err);
	if (ret)
		return ret;
	p->count = raw.count;
	return 0;
}

static void repeat_release(void *data)
{
	phase_list_release(&((struct phase_repeat *)data)->phases);
}

static bool repeat_destructive(const void *data)
{
	const struct phase_repeat *p = data;

	for (size_t i = 0; i < p->phases.n; i++) {
		const struct profile_phase *ph = &p->phases.v[i];

		if (ph->kind->destructive && ph->kind->destructive(ph->data))
			return true;
	}
	return false;
}

static struct json_object *repeat_json(const void *data)
{
	const struct phase_repeat *p = data;
	struct json_object *o = json_object_new_object();
	bool bad = false;

	if (!o)
		return NULL;
	bad |= phase_json_add(o, "count", json_object_new_int((int)p->count));
	bad |= phase_json_add(o, "phases", profile_phase_list_to_json(&p->phases));
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void repeat_describe(const void *data, char *buf, size_t len)
{
	const struct phase_repeat *p = data;

	snprintf(buf, len, "repeat %u time%s", p->count, p->count == 1 ? "" : "s");
}

static int repeat_bytes(const void *data, uint64_t capacity, uint64_t *bytes)
{
	const struct phase_repeat *p = data;
	uint64_t b = 0;
	int ret = profile_phase_list_bytes(&p->phases, capacity, &b);

	if (ret && ret != -ENODATA)
		return ret;
	*bytes = b > UINT64_MAX / p->count ? UINT64_MAX : b * p->count;
	return ret;
}

static const struct phase_list *repeat_body(const void *data, unsigned *count)
{
	const struct phase_repeat *p = data;

	*count = p->count;
	return &p->phases;
}

static void trim_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	(void)data;
	(void)env;
	one_instance(l); /* a discard: no time of its own in the plan */
}

/* ---- the registry --------------------------------------------------------------------------- */

/* clang-format off */
static const struct phase_kind kinds[] = {
	{
		.name = "purge",
		.type = PHASE_PURGE,
		.size = sizeof(struct phase_purge),
		.parse = purge_parse,
		.destructive = always,
		.to_json = purge_json,
		.describe = purge_describe,
		.length = purge_length,
	},
	{
		.name = "precondition",
		.type = PHASE_PRECONDITION,
		.size = sizeof(struct phase_write),
		.parse = precondition_parse,
		.destructive = always,
		.to_json = write_json,
		.describe = precondition_describe,
		.bytes = write_bytes,
		.length = write_length,
		.jobs = precondition_jobs,
	},
	{
		.name = "write_until",
		.type = PHASE_WRITE_UNTIL,
		.size = sizeof(struct phase_write),
		.parse = write_until_parse,
		.destructive = always,
		.to_json = write_json,
		.describe = write_until_describe,
		.bytes = write_bytes,
		.length = write_length,
		.jobs = write_until_jobs,
	},
	{
		.name = "rounds",
		.type = PHASE_ROUNDS,
		.size = sizeof(struct phase_rounds),
		.parse = rounds_parse,
		.destructive = rounds_destructive,
		.to_json = rounds_json,
		.describe = rounds_describe,
		.bytes = rounds_bytes,
		.length = rounds_length,
		.jobs = rounds_jobs,
	},
	{
		.name = "idle",
		.type = PHASE_IDLE,
		.size = sizeof(struct phase_idle),
		.parse = idle_parse,
		.destructive = never,
		.to_json = idle_json,
		.describe = idle_describe,
		.length = idle_length,
	},
	{
		.name = "trim",
		.type = PHASE_TRIM,
		.size = sizeof(struct phase_trim),
		.parse = trim_parse,
		.destructive = always,
		.to_json = trim_json,
		.describe = trim_describe,
		.length = trim_length,
	},
	{
		.name = "repeat",
		.type = PHASE_REPEAT,
		.size = sizeof(struct phase_repeat),
		.parse = repeat_parse,
		.release = repeat_release,
		.destructive = repeat_destructive,
		.to_json = repeat_json,
		.describe = repeat_describe,
		.bytes = repeat_bytes,
		.body = repeat_body,
	},
};
/* clang-format on */

const struct phase_kind *phase_kind_find(const char *name)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	return NULL;
}

const struct phase_kind *phase_kind_at(size_t i)
{
	return i < sizeof(kinds) / sizeof(kinds[0]) ? &kinds[i] : NULL;
}
