/* SPDX-License-Identifier: MIT */
/*
 * profile: the profile language's top level, workloads, the cell matrix, lookup of bundled
 * profiles, the resolved plan as JSON and the summary text. The phase kinds themselves are in
 * phases.c (the registry); this file calls them only through struct phase_kind. See profile.h.
 */
#include "profile/profile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "config.h"

/* ---- workloads ------------------------------------------------------------------------------ */

/* The raw values of a workload's keys, before they are checked together and applied. */
struct wl_raw {
	int rw;
	unsigned rwmix;
	const char *bs;
	unsigned qd, threads;
	const struct ydoc_node *queue;
	struct range range;
	int dist;
	const struct ydoc_node *zones;
	int pattern;
	double compress;
	uint64_t seed;
	struct amount ramp;
	uint64_t interval;
};

static const char *const rw_enum[] = {"read",	"write", "randread", "randwrite",
				      "randrw", "rw",	 NULL};
static const char *const dist_enum[] = {"uniform", "zoned", NULL};
static const char *const pattern_enum[] = {"random", "zeros", NULL};

enum {
	WK_RW,
	WK_RWMIX,
	WK_BS,
	WK_QD,
	WK_THREADS,
	WK_QUEUE,
	WK_RANGE,
	WK_DIST,
	WK_ZONES,
	WK_PATTERN,
	WK_COMPRESS,
	WK_SEED,
	WK_RAMP,
	WK_INTERVAL,
};

#define QD_KEY(nm, off)                                                                            \
	{                                                                                          \
		.name = nm, .kind = YK_UINT, .offset = off, .bounded = true, .min = 1, .max = 1024 \
	}
#define THREADS_KEY(nm, off)                                                                       \
	{                                                                                          \
		.name = nm, .kind = YK_UINT, .offset = off, .bounded = true, .min = 1, .max = 64   \
	}

/* clang-format off */
static const struct ydoc_key wl_keys[] = {
	[WK_RW] = {.name = "rw", .kind = YK_ENUM, .offset = offsetof(struct wl_raw, rw),
		   .enum_names = rw_enum},
	[WK_RWMIX] = {.name = "rwmix_read", .kind = YK_UINT, .offset = offsetof(struct wl_raw, rwmix),
		      .bounded = true, .min = 0, .max = 100},
	[WK_BS] = {.name = "bs", .kind = YK_STRING, .offset = offsetof(struct wl_raw, bs)},
	[WK_QD] = QD_KEY("qd", offsetof(struct wl_raw, qd)),
	[WK_THREADS] = THREADS_KEY("threads", offsetof(struct wl_raw, threads)),
	[WK_QUEUE] = {.name = "queue", .kind = YK_MAPPING, .offset = offsetof(struct wl_raw, queue)},
	[WK_RANGE] = {.name = "range", .kind = YK_RANGE, .offset = offsetof(struct wl_raw, range),
		      .align = 512},
	[WK_DIST] = {.name = "random_distribution", .kind = YK_ENUM,
		     .offset = offsetof(struct wl_raw, dist), .enum_names = dist_enum},
	[WK_ZONES] = {.name = "zones", .kind = YK_SEQUENCE, .offset = offsetof(struct wl_raw, zones)},
	[WK_PATTERN] = {.name = "pattern", .kind = YK_ENUM, .offset = offsetof(struct wl_raw, pattern),
			.enum_names = pattern_enum,
			.expect = "random or zeros (the data pattern; sequential access is rw: "
				  "write or read)"},
	[WK_COMPRESS] = {.name = "compressibility", .kind = YK_PERCENT,
			 .offset = offsetof(struct wl_raw, compress)},
	[WK_SEED] = {.name = "seed", .kind = YK_U64, .offset = offsetof(struct wl_raw, seed)},
	[WK_RAMP] = {.name = "ramp", .kind = YK_AMOUNT, .offset = offsetof(struct wl_raw, ramp),
		     .align = 512},
	[WK_INTERVAL] = {.name = "interval", .kind = YK_DURATION,
			 .offset = offsetof(struct wl_raw, interval), .bounded = true, .min = 1e6,
			 .max = 3600e9},
	{0},
};
/* clang-format on */

struct queue_raw {
	unsigned threads, depth;
};

/* clang-format off */
static const struct ydoc_key queue_keys[] = {
	THREADS_KEY("threads", offsetof(struct queue_raw, threads)),
	QD_KEY("depth", offsetof(struct queue_raw, depth)),
	{0},
};
/* clang-format on */

/* Reads `queue: {threads, depth}` into qd/threads (keeping what it does not say). */
static int parse_queue(const struct ydoc_node *n, unsigned *qd, unsigned *threads,
		       struct ydoc_error *err)
{
	struct queue_raw q = {.threads = *threads, .depth = *qd};
	int ret = ydoc_map_read(n, "queue", queue_keys, &q, NULL, err);

	if (ret)
		return ret;
	*qd = q.depth;
	*threads = q.threads;
	return 0;
}

struct zone_raw {
	double io, range;
};

/* clang-format off */
static const struct ydoc_key zone_keys[] = {
	{.name = "io", .kind = YK_PERCENT, .required = true, .offset = offsetof(struct zone_raw, io)},
	{.name = "range", .kind = YK_PERCENT, .required = true,
	 .offset = offsetof(struct zone_raw, range)},
	{0},
};
/* clang-format on */

static int parse_zones(const struct ydoc_node *seq, struct job_spec *s, struct ydoc_error *err)
{
	double io = 0, range = 0;

	if (seq->n == 0)
		return ydoc_errorf(err, seq,
				   "zones is empty: expected a list such as "
				   "[{io: 80%%, range: 20%%}, {io: 20%%, range: 80%%}]");
	if (seq->n > JOB_MAX_ZONES)
		return ydoc_errorf(err, seq->items[JOB_MAX_ZONES], "too many zones (at most %d)",
				   JOB_MAX_ZONES);
	for (size_t i = 0; i < seq->n; i++) {
		struct zone_raw z = {0};
		int ret = ydoc_map_read(seq->items[i], "a zone", zone_keys, &z, NULL, err);

		if (ret)
			return ret;
		s->zones[i].io_frac = z.io;
		s->zones[i].range_frac = z.range;
		io += z.io;
		range += z.range;
	}
	/* The shares are percentages written in decimal: allow for binary rounding only. */
	if (io < 1 - 1e-9 || io > 1 + 1e-9 || range < 1 - 1e-9 || range > 1 + 1e-9) {
		char a[32], b[32];

		return ydoc_errorf(
		    err, seq, "zone shares must each sum to 100%%: io sums to %s%%, range to %s%%",
		    units_fmt_double(io * 100, 2, a, sizeof(a)),
		    units_fmt_double(range * 100, 2, b, sizeof(b)));
	}
	s->nzones = (unsigned)seq->n;
	return 0;
}

static bool rw_is_mixed(enum rw_mode m)
{
	return m == RW_RANDRW || m == RW_RW;
}

static bool rw_is_seq(enum rw_mode m)
{
	return m == RW_READ || m == RW_WRITE || m == RW_RW;
}

/* SNIA's convention for a mix given without a mode: 100 reads, 0 writes, else mixed. */
static enum rw_mode rw_for_mix(unsigned mix, bool seq)
{
	if (mix == 100)
		return seq ? RW_READ : RW_RANDREAD;
	if (mix == 0)
		return seq ? RW_WRITE : RW_RANDWRITE;
	return seq ? RW_RW : RW_RANDRW;
}

int profile_parse_workload(const struct ydoc_node *map, const char *ctx,
			   const struct phase_parse_ctx *pctx, struct profile_workload *w,
			   const struct ydoc_key *extra, void *extra_dst, uint64_t *present,
			   struct ydoc_error *err)
{
	const struct profile_defaults *d = pctx->defaults;
	struct profile_workload out = *w;
	struct wl_raw raw = {.rw = (int)w->spec.rw, .rwmix = w->spec.rwmix_read};
	struct ydoc_schema s[2] = {{.keys = wl_keys, .dst = &raw}};
	uint64_t seen = 0, xseen = 0;
	char msg[256];
	int ret;

	s[0].present = &seen;
	if (extra) {
		s[1] = (struct ydoc_schema){.keys = extra, .dst = extra_dst, .present = &xseen};
	}
	ret = ydoc_map_read_multi(map, ctx, s, extra ? 2 : 1, err);
	if (ret)
		return ret;

	/* Defaults first (the profile's, then the caller's preset in *w), then what was said. */
	if (!out.spec.qd)
		out.spec.qd = d->qd;
	if (!out.spec.threads)
		out.spec.threads = d->threads;
	if (!out.spec.nbs) {
		out.spec.bs[0] = (struct bs_split){4096, 1};
		out.spec.nbs = 1;
	}
	out.spec.seed = 0; /* the run's seed unless the workload names its own */
	out.spec.pattern = d->pattern;
	out.spec.compressibility = d->compressibility;
	if (!out.range.percent && !out.range.hi_b) {
		out.range.percent = true;
		out.range.lo = 0;
		out.range.hi = 1;
	}

	if (seen & (1u << WK_RW))
		out.spec.rw = (enum rw_mode)raw.rw;
	if (seen & (1u << WK_RWMIX)) {
		const struct ydoc_node *n = ydoc_map_get(map, "rwmix_read");

		if (!(seen & (1u << WK_RW)))
			out.spec.rw = rw_for_mix(raw.rwmix, false);
		else if (!rw_is_mixed(out.spec.rw))
			return ydoc_errorf(err, n,
					   "rwmix_read applies to rw: randrw or rw, not %s "
					   "(leave rw out to follow the mix)",
					   rw_mode_name(out.spec.rw));
		out.spec.rwmix_read = raw.rwmix;
	} else if (rw_is_mixed(out.spec.rw) && !out.spec.rwmix_read) {
		out.spec.rwmix_read = 50; /* fio's default mix */
	}
	if (seen & (1u << WK_BS)) {
		const struct ydoc_node *n = ydoc_map_get(map, "bs");

		ret = bs_split_parse(raw.bs, out.spec.bs, &out.spec.nbs, msg, sizeof(msg));
		if (ret)
			return ydoc_errorf(err, n, "%s", msg);
	}
	if ((seen & (1u << WK_QUEUE)) && (seen & ((1u << WK_QD) | (1u << WK_THREADS))))
		return ydoc_errorf(err, ydoc_map_key(map, "queue"),
				   "give either queue: {threads, depth} or qd/threads, not both");
	if (seen & (1u << WK_QD))
		out.spec.qd = raw.qd;
	if (seen & (1u << WK_THREADS))
		out.spec.threads = raw.threads;
	if (seen & (1u << WK_QUEUE)) {
		ret = parse_queue(raw.queue, &out.spec.qd, &out.spec.threads, err);
		if (ret)
			return ret;
	}
	if (seen & (1u << WK_RANGE))
		out.range = raw.range;
	if (seen & (1u << WK_DIST))
		out.spec.dist = (enum rand_dist)raw.dist;
	if (seen & (1u << WK_ZONES)) {
		if (out.spec.dist != DIST_ZONED)
			return ydoc_errorf(err, ydoc_map_key(map, "zones"),
					   "zones needs random_distribution: zoned");
		ret = parse_zones(raw.zones, &out.spec, err);
		if (ret)
			return ret;
	} else if (out.spec.dist == DIST_ZONED && !out.spec.nzones) {
		return ydoc_errorf(
		    err, ydoc_map_get(map, "random_distribution"),
		    "random_distribution: zoned needs zones: [{io: 80%%, range: 20%%}, "
		    "{io: 20%%, range: 80%%}]");
	}
	if (seen & (1u << WK_PATTERN))
		out.spec.pattern = (enum data_pattern)raw.pattern;
	if (seen & (1u << WK_COMPRESS))
		out.spec.compressibility = (unsigned)(raw.compress * 100 + 0.5);
	if (seen & (1u << WK_SEED))
		out.spec.seed = raw.seed;
	if (seen & (1u << WK_RAMP))
		out.ramp = raw.ramp;
	if (seen & (1u << WK_INTERVAL))
		out.spec.interval_ns = raw.interval;
	/* Also when the sequential mode is the phase's default (precondition: write). */
	if (out.spec.dist == DIST_ZONED && rw_is_seq(out.spec.rw))
		return ydoc_errorf(
		    err, ydoc_map_get(map, (seen & (1u << WK_RW)) ? "rw" : "random_distribution"),
		    "random_distribution: zoned needs a random rw mode, not %s",
		    rw_mode_name(out.spec.rw));
	if (present)
		*present = xseen;
	*w = out;
	return 0;
}

static const char *range_fmt(const struct range *r, char *buf, size_t len)
{
	char a[32], b[32];

	if (r->percent)
		snprintf(buf, len, "%s%%-%s%%",
			 units_fmt_double(r->lo * 100, r->lo * 100 == (long)(r->lo * 100) ? 0 : 2,
					  a, sizeof(a)),
			 units_fmt_double(r->hi * 100, r->hi * 100 == (long)(r->hi * 100) ? 0 : 2,
					  b, sizeof(b)));
	else
		snprintf(buf, len, "%s-%s", units_fmt_size(r->lo_b, a, sizeof(a)),
			 units_fmt_size(r->hi_b, b, sizeof(b)));
	return buf;
}

static struct json_object *amount_to_json(const struct amount *a)
{
	struct json_object *o;

	if (a->kind == AMOUNT_NONE)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	switch (a->kind) {
	case AMOUNT_BYTES:
		json_object_object_add(o, "bytes", json_object_new_uint64(a->bytes));
		break;
	case AMOUNT_CAPACITY:
		json_object_object_add(o, "capacity_multiple", json_object_new_double(a->multiple));
		break;
	case AMOUNT_TIME:
		json_object_object_add(o, "time_ns", json_object_new_uint64(a->ns));
		break;
	default:
		break;
	}
	return o;
}

static struct json_object *range_to_json(const struct range *r)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (r->percent) {
		json_object_object_add(o, "lo_fraction", json_object_new_double(r->lo));
		json_object_object_add(o, "hi_fraction", json_object_new_double(r->hi));
	} else {
		json_object_object_add(o, "lo_bytes", json_object_new_uint64(r->lo_b));
		json_object_object_add(o, "hi_bytes", json_object_new_uint64(r->hi_b));
	}
	return o;
}

struct json_object *profile_workload_to_json(const struct profile_workload *w)
{
	const struct job_spec *s = &w->spec;
	struct json_object *o = json_object_new_object(), *bs, *z;

	if (!o)
		return NULL;
	json_object_object_add(o, "rw", json_object_new_string(rw_mode_name(s->rw)));
	if (rw_is_mixed(s->rw))
		json_object_object_add(o, "rwmix_read", json_object_new_int((int)s->rwmix_read));
	bs = json_object_new_array();
	for (unsigned i = 0; bs && i < s->nbs; i++) {
		struct json_object *e = json_object_new_object();

		json_object_object_add(e, "bs", json_object_new_int64(s->bs[i].bs));
		json_object_object_add(e, "weight", json_object_new_int64(s->bs[i].weight));
		json_object_array_add(bs, e);
	}
	json_object_object_add(o, "bs", bs);
	json_object_object_add(o, "qd", json_object_new_int((int)s->qd));
	json_object_object_add(o, "threads", json_object_new_int((int)s->threads));
	json_object_object_add(o, "range", range_to_json(&w->range));
	json_object_object_add(o, "length", amount_to_json(&w->length));
	json_object_object_add(o, "ramp", amount_to_json(&w->ramp));
	json_object_object_add(o, "seed", json_object_new_uint64(s->seed));
	json_object_object_add(o, "random_distribution",
			       json_object_new_string(dist_enum[s->dist == DIST_ZONED]));
	if (s->dist == DIST_ZONED) {
		z = json_object_new_array();
		for (unsigned i = 0; z && i < s->nzones; i++) {
			struct json_object *e = json_object_new_object();

			json_object_object_add(e, "io_fraction",
					       json_object_new_double(s->zones[i].io_frac));
			json_object_object_add(e, "range_fraction",
					       json_object_new_double(s->zones[i].range_frac));
			json_object_array_add(z, e);
		}
		json_object_object_add(o, "zones", z);
	}
	json_object_object_add(o, "pattern",
			       json_object_new_string(pattern_enum[s->pattern == PATTERN_ZEROS]));
	json_object_object_add(o, "compressibility", json_object_new_int((int)s->compressibility));
	if (s->interval_ns)
		json_object_object_add(o, "interval_ns", json_object_new_uint64(s->interval_ns));
	return o;
}

/* Resolves an amount into (time, bytes). */
static void amount_resolve(const struct amount *a, uint64_t capacity, double time_scale,
			   uint64_t *ns, uint64_t *bytes)
{
	*ns = 0;
	*bytes = 0;
	if (a->kind == AMOUNT_TIME) {
		double t = (double)a->ns * time_scale;

		*ns = t >= 1.8e19 ? UINT64_MAX : (uint64_t)(t + 0.5);
		if (!*ns)
			*ns = 1;
	} else {
		*bytes = amount_bytes(a, capacity);
	}
}

int profile_workload_resolve(const struct profile_workload *w, uint64_t capacity, uint32_t lbs,
			     double time_scale, struct job_spec *out, char *err, size_t len)
{
	struct job_spec s = w->spec;
	uint64_t align = lbs ? lbs : 512, maxbs = 0;
	char a[32];
	int ret;

	if (!(time_scale > 0))
		time_scale = 1.0;
	for (unsigned i = 0; i < s.nbs; i++) {
		if (s.bs[i].bs % align) {
			snprintf(err, len,
				 "block size %s is not a multiple of the logical block size %s",
				 units_fmt_size(s.bs[i].bs, a, sizeof(a)),
				 units_fmt_size(align, a + 16, sizeof(a) - 16));
			return -EINVAL;
		}
		if (s.bs[i].bs > maxbs)
			maxbs = s.bs[i].bs;
	}
	/* A sequential pass should end on a whole I/O of the largest size. */
	ret = range_resolve(&w->range, capacity, rw_is_seq(s.rw) && maxbs ? maxbs : align,
			    &s.range_start, &s.range_end);
	if (ret) {
		char r[64];

		snprintf(err, len, "range %s is empty or past the capacity (%s)",
			 range_fmt(&w->range, r, sizeof(r)),
			 units_fmt_size(capacity, a, sizeof(a)));
		return ret;
	}
	if (s.range_end - s.range_start < maxbs) {
		snprintf(err, len, "range is smaller than the block size");
		return -ERANGE;
	}
	amount_resolve(&w->length, capacity, time_scale, &s.time_ns, &s.amount_bytes);
	amount_resolve(&w->ramp, capacity, time_scale, &s.ramp_ns, &s.ramp_bytes);
	s.seq_start = 0;
	*out = s;
	return 0;
}

/* ---- cells ---------------------------------------------------------------------------------- */

/* clang-format off */
static const char *const cell_key_names[CELL_NKEYS] = {
	[CELL_RWMIX_READ] = "rwmix_read", [CELL_BS] = "bs", [CELL_QD] = "qd",
	[CELL_THREADS] = "threads",	  [CELL_RW] = "rw",
};
/* clang-format on */

const char *cell_key_name(enum cell_key k)
{
	return (unsigned)k < CELL_NKEYS ? cell_key_names[k] : "?";
}

const char *ss_metric_name(enum ss_metric m)
{
	static const char *const names[] = {"iops", "bw", "lat_mean", "lat_p99"};

	return (unsigned)m < 4 ? names[m] : "?";
}

const char *cell_value_fmt(enum cell_key k, uint64_t v, char *buf, size_t len)
{
	static const char sfx[] = "kmgt";

	switch (k) {
	case CELL_BS:
		for (int i = 3; i >= 0; i--) {
			uint64_t u = 1ull << (10 * (i + 1));

			if (v >= u && v % u == 0) {
				snprintf(buf, len, "%llu%c", (unsigned long long)(v / u), sfx[i]);
				return buf;
			}
		}
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return buf;
	case CELL_RW:
		snprintf(buf, len, "%s", rw_mode_name((enum rw_mode)v));
		return buf;
	default:
		snprintf(buf, len, "%llu", (unsigned long long)v);
		return buf;
	}
}

/* Applies one coordinate to a cell's workload. `rw_follows_mix`: the rounds gave no rw. */
static void cell_apply(struct profile_workload *w, enum cell_key k, uint64_t v, bool rw_follows_mix)
{
	switch (k) {
	case CELL_RWMIX_READ:
		w->spec.rwmix_read = (unsigned)v;
		if (rw_follows_mix)
			w->spec.rw = rw_for_mix((unsigned)v, rw_is_seq(w->spec.rw));
		break;
	case CELL_BS:
		w->spec.bs[0] = (struct bs_split){(uint32_t)v, 1};
		w->spec.nbs = 1;
		break;
	case CELL_QD:
		w->spec.qd = (unsigned)v;
		break;
	case CELL_THREADS:
		w->spec.threads = (unsigned)v;
		break;
	case CELL_RW:
		w->spec.rw = (enum rw_mode)v;
		break;
	default:
		break;
	}
}

int profile_rounds_cells(const struct phase_rounds *r, struct profile_cell **cells, size_t *n)
{
	size_t total = 1;
	struct profile_cell *v;

	for (unsigned a = 0; a < r->naxes; a++)
		total *= r->axes[a].n;
	v = calloc(total, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < total; i++) {
		struct profile_cell *c = &v[i];
		size_t rest = i, klen = 0;
		unsigned idx[CELL_NKEYS];

		/* Mixed-radix digits of i, last axis fastest. */
		for (unsigned a = r->naxes; a-- > 0;) {
			idx[a] = (unsigned)(rest % r->axes[a].n);
			rest /= r->axes[a].n;
		}
		c->index = (unsigned)i;
		c->w = r->base;
		for (unsigned a = 0; a < r->naxes; a++) {
			const struct profile_axis *ax = &r->axes[a];
			char val[32];

			c->coord[ax->key] = ax->v[idx[a]];
			cell_apply(&c->w, ax->key, ax->v[idx[a]], r->rw_follows_mix);
			klen += (size_t)snprintf(
			    c->key + klen, sizeof(c->key) - klen, "%s%s=%s", a ? "," : "",
			    cell_key_name(ax->key),
			    cell_value_fmt(ax->key, ax->v[idx[a]], val, sizeof(val)));
			if (klen >= sizeof(c->key))
				klen = sizeof(c->key) - 1;
		}
		if (!r->naxes)
			snprintf(c->key, sizeof(c->key), "all");
	}
	*cells = v;
	*n = total;
	return 0;
}

/* ---- phase lists ---------------------------------------------------------------------------- */

static const char *kind_names(char *buf, size_t len)
{
	const struct phase_kind *k;
	size_t l = 0;

	buf[0] = '\0';
	for (size_t i = 0; (k = phase_kind_at(i)); i++) {
		l += (size_t)snprintf(buf + l, len - l, "%s%s", i ? ", " : "", k->name);
		if (l >= len)
			break;
	}
	return buf;
}

static void phase_release(struct profile_phase *ph)
{
	if (ph->data && ph->kind->release)
		ph->kind->release(ph->data);
	free(ph->data);
	ph->data = NULL;
}

void phase_list_release(struct phase_list *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		phase_release(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

static int parse_phase(const struct ydoc_node *item, const struct phase_parse_ctx *pctx,
		       struct profile_phase *out, struct ydoc_error *err)
{
	const struct phase_kind *k;
	const struct ydoc_node *kn, *settings;
	struct ydoc_node none;
	char g[64], kinds[256], empty[1] = "";
	void *data;
	int ret;

	if (item->type != YDOC_MAPPING || item->n == 0) {
		if (item->type == YDOC_SCALAR && (k = phase_kind_find(item->text)))
			kn = item; /* "- purge" alone: a kind with its defaults */
		else
			return ydoc_errorf(err, item,
					   "expected a phase such as '- idle: {time: 5m}', got %s",
					   item->type == YDOC_SCALAR && *item->text
					       ? (snprintf(g, sizeof(g), "'%.40s'", item->text), g)
					       : ydoc_type_name(item->type));
	} else {
		if (item->n > 1)
			return ydoc_errorf(err, item->pairs[1].key,
					   "a phase has exactly one key, its kind ('%s'); indent "
					   "'%s' under it",
					   item->pairs[0].key->text, item->pairs[1].key->text);
		kn = item->pairs[0].key;
		k = phase_kind_find(kn->text);
	}
	if (!k) {
		const char *names[32];
		const char *near;
		size_t i;

		for (i = 0; i < 31 && phase_kind_at(i); i++)
			names[i] = phase_kind_at(i)->name;
		names[i] = NULL;
		near = ydoc_nearest(kn->text, names);
		if (near)
			return ydoc_errorf(err, kn, "unknown phase kind '%s' (did you mean '%s'?)",
					   kn->text, near);
		return ydoc_errorf(err, kn, "unknown phase kind '%s' (expected one of: %s)",
				   kn->text, kind_names(kinds, sizeof(kinds)));
	}
	if (kn == item) {
		/* "- purge" reads like "- purge:" (no settings): hand the kind a null value. */
		none = (struct ydoc_node){.type = YDOC_SCALAR,
					  .line = item->line,
					  .col = item->col,
					  .file = item->file,
					  .text = empty};
		settings = &none;
	} else {
		settings = item->pairs[0].value;
	}
	data = calloc(1, k->size ? k->size : 1);
	if (!data)
		return -ENOMEM;
	ret = k->parse(settings, data, pctx, err);
	if (ret) {
		if (k->release)
			k->release(data);
		free(data);
		return ret;
	}
	out->kind = k;
	out->data = data;
	out->line = item->line;
	out->col = item->col;
	return 0;
}

int profile_parse_phase_list(const struct ydoc_node *seq, const char *ctx,
			     const struct phase_parse_ctx *pctx, struct phase_list *out,
			     struct ydoc_error *err)
{
	struct phase_list l = {0};
	char g[64];
	int ret;

	if (seq->type != YDOC_SEQUENCE) {
		if (seq->type == YDOC_SCALAR && !seq->quoted && !*seq->text)
			snprintf(g, sizeof(g), "nothing");
		else if (seq->type == YDOC_SCALAR)
			snprintf(g, sizeof(g), "'%.40s'", seq->text);
		else
			snprintf(g, sizeof(g), "%s", ydoc_type_name(seq->type));
		return ydoc_errorf(
		    err, seq, "expected a list of phases for %s ('- kind: {...}' items), got %s",
		    ctx, g);
	}
	if (seq->n == 0)
		return ydoc_errorf(err, seq, "%s is empty: at least one phase is needed", ctx);
	l.v = calloc(seq->n, sizeof(*l.v));
	if (!l.v)
		return -ENOMEM;
	for (size_t i = 0; i < seq->n; i++) {
		ret = parse_phase(seq->items[i], pctx, &l.v[i], err);
		if (ret) {
			phase_list_release(&l);
			return ret;
		}
		l.n = i + 1;
	}
	*out = l;
	return 0;
}

/* ---- profiles ------------------------------------------------------------------------------- */

struct top_raw {
	const char *name, *description;
	bool destructive;
	const struct ydoc_node *defaults, *phases;
};

/* clang-format off */
static const struct ydoc_key top_keys[] = {
	{.name = "name", .kind = YK_STRING, .required = true, .offset = offsetof(struct top_raw, name)},
	{.name = "description", .kind = YK_STRING, .offset = offsetof(struct top_raw, description)},
	{.name = "destructive", .kind = YK_BOOL, .offset = offsetof(struct top_raw, destructive)},
	{.name = "defaults", .kind = YK_MAPPING, .offset = offsetof(struct top_raw, defaults)},
	{.name = "phases", .kind = YK_ANY, .required = true,
	 .offset = offsetof(struct top_raw, phases)},
	{0},
};
/* clang-format on */

struct defaults_raw {
	const struct ydoc_node *queue;
	unsigned qd, threads;
	uint64_t seed;
	int pattern;
	double compress;
};

/* clang-format off */
static const struct ydoc_key defaults_keys[] = {
	{.name = "queue", .kind = YK_MAPPING, .offset = offsetof(struct defaults_raw, queue)},
	QD_KEY("qd", offsetof(struct defaults_raw, qd)),
	THREADS_KEY("threads", offsetof(struct defaults_raw, threads)),
	{.name = "seed", .kind = YK_U64, .offset = offsetof(struct defaults_raw, seed)},
	{.name = "pattern", .kind = YK_ENUM, .offset = offsetof(struct defaults_raw, pattern),
	 .enum_names = pattern_enum},
	{.name = "compressibility", .kind = YK_PERCENT,
	 .offset = offsetof(struct defaults_raw, compress)},
	{0},
};
/* clang-format on */

static int parse_defaults(const struct ydoc_node *n, struct profile_defaults *d,
			  struct ydoc_error *err)
{
	struct defaults_raw raw = {
	    .qd = d->qd, .threads = d->threads, .seed = d->seed, .pattern = (int)d->pattern};
	uint64_t seen = 0;
	int ret = ydoc_map_read(n, "defaults", defaults_keys, &raw, &seen, err);

	if (ret)
		return ret;
	if ((seen & 1) && (seen & 6))
		return ydoc_errorf(err, ydoc_map_key(n, "queue"),
				   "give either queue: {threads, depth} or qd/threads, not both");
	if (seen & 1) {
		ret = parse_queue(raw.queue, &raw.qd, &raw.threads, err);
		if (ret)
			return ret;
	}
	d->qd = raw.qd;
	d->threads = raw.threads;
	d->seed = raw.seed;
	d->pattern = (enum data_pattern)raw.pattern;
	if (seen & (1u << 5))
		d->compressibility = (unsigned)(raw.compress * 100 + 0.5);
	return 0;
}

/* Names become directory names (results/<profile>-...): keep them tame. */
static int check_name(const struct ydoc_node *n, const char *name, struct ydoc_error *err)
{
	size_t len = strlen(name);

	if (len == 0 || len > 63)
		return ydoc_errorf(err, n, "name must be 1 to 63 characters");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (!isalnum(c) && c != '-' && c != '_' && c != '.')
			return ydoc_errorf(err, n,
					   "name may hold only letters, digits, '-', '_' and '.', "
					   "got '%.63s'",
					   name);
	}
	return 0;
}

/* The first phase (depth first) that writes, for the destructive check. */
static const struct profile_phase *first_writer(const struct phase_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct profile_phase *ph = &l->v[i];

		if (ph->kind->type == PHASE_REPEAT) {
			const struct phase_repeat *r = ph->data;
			const struct profile_phase *w = first_writer(&r->phases);

			if (w)
				return w;
		} else if (ph->kind->destructive && ph->kind->destructive(ph->data)) {
			return ph;
		}
	}
	return NULL;
}

bool profile_writes(const struct profile *p)
{
	return first_writer(&p->phases) != NULL;
}

int profile_parse_string(const char *text, size_t len, const char *file, const char *const *sets,
			 size_t nsets, struct profile **out, struct ydoc_error *err)
{
	struct ydoc *doc = NULL;
	struct profile *p = NULL;
	struct top_raw raw = {0};
	struct phase_parse_ctx pctx;
	const struct profile_phase *w;
	int ret;

	ret = ydoc_parse_string(text, len, file, &doc, err);
	if (ret)
		return ret;
	for (size_t i = 0; i < nsets; i++) {
		ret = ydoc_set_assignment(doc, sets[i], err);
		if (ret)
			goto out;
	}
	if (!doc->root) {
		ret =
		    ydoc_errorf(err, NULL, "empty profile: expected name, description and phases");
		snprintf(err->file, sizeof(err->file), "%s", doc->file);
		goto out;
	}
	ret = ydoc_map_read(doc->root, "the profile", top_keys, &raw, NULL, err);
	if (ret)
		goto out;
	ret = check_name(ydoc_map_get(doc->root, "name"), raw.name, err);
	if (ret)
		goto out;
	p = calloc(1, sizeof(*p));
	if (!p) {
		ret = -ENOMEM;
		goto out;
	}
	p->defaults = (struct profile_defaults){.qd = 1, .threads = 1, .seed = 0};
	if (raw.defaults) {
		ret = parse_defaults(raw.defaults, &p->defaults, err);
		if (ret)
			goto out;
	}
	pctx = (struct phase_parse_ctx){.defaults = &p->defaults, .depth = 0};
	ret = profile_parse_phase_list(raw.phases, "phases", &pctx, &p->phases, err);
	if (ret)
		goto out;
	p->destructive = raw.destructive;
	w = first_writer(&p->phases);
	if (w && !p->destructive) {
		struct ydoc_node at = {.file = doc->file, .line = w->line, .col = w->col};

		ret = ydoc_errorf(err, &at,
				  "%s writes to the target: a profile with writing phases must say "
				  "'destructive: true'",
				  w->kind->name);
		goto out;
	}
	p->name = strdup(raw.name);
	p->description = strdup(raw.description ? raw.description : "");
	p->path = strdup(doc->file);
	p->text = malloc(len + 1);
	if (!p->name || !p->description || !p->path || !p->text) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(p->text, text, len);
	p->text[len] = '\0';
	p->text_len = len;
	*out = p;
	p = NULL;
out:
	profile_free(p);
	ydoc_free(doc);
	return ret;
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	phase_list_release(&p->phases);
	free(p->name);
	free(p->description);
	free(p->text);
	free(p->path);
	free(p);
}

static bool looks_like_path(const char *s)
{
	size_t n = strlen(s);

	return strchr(s, '/') || (n > 5 && !strcmp(s + n - 5, ".yaml")) ||
	       (n > 4 && !strcmp(s + n - 4, ".yml"));
}

/* The bundled-profile directories in search order; returns how many (at most 3). */
static size_t search_dirs(const char *user_dir, const char *dirs[3])
{
	size_t n = 0;

	if (user_dir && *user_dir)
		dirs[n++] = user_dir;
	dirs[n++] = SSDLAB_PROFILES_SRCDIR;
	dirs[n++] = SSDLAB_PROFILES_DIR;
	return n;
}

int profile_find(const char *name, const char *user_dir, char *path, size_t len,
		 struct ydoc_error *err)
{
	const char *dirs[3];
	size_t nd;
	struct stat st;
	char buf[PATH_MAX];

	if (!name || !*name) {
		memset(err, 0, sizeof(*err));
		snprintf(err->file, sizeof(err->file), "profile");
		snprintf(err->msg, sizeof(err->msg), "no profile named");
		return -ENOENT;
	}
	if (looks_like_path(name) || (stat(name, &st) == 0 && S_ISREG(st.st_mode))) {
		if (strlen(name) >= len)
			return -ENAMETOOLONG;
		if (stat(name, &st) != 0) {
			memset(err, 0, sizeof(*err));
			snprintf(err->file, sizeof(err->file), "%s", name);
			snprintf(err->msg, sizeof(err->msg), "no such file");
			return -ENOENT;
		}
		snprintf(path, len, "%s", name);
		return 0;
	}
	nd = search_dirs(user_dir, dirs);
	for (size_t i = 0; i < nd; i++) {
		if ((size_t)snprintf(buf, sizeof(buf), "%s/%s.yaml", dirs[i], name) >= sizeof(buf))
			continue;
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode)) {
			if (strlen(buf) >= len)
				return -ENAMETOOLONG;
			snprintf(path, len, "%s", buf);
			return 0;
		}
	}
	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", name);
	snprintf(err->msg, sizeof(err->msg),
		 "no such profile file, and no bundled profile of that name in %s%s%s%s%s "
		 "(see ssdlab profiles)",
		 dirs[0], nd > 1 ? ", " : "", nd > 1 ? dirs[1] : "", nd > 2 ? ", " : "",
		 nd > 2 ? dirs[2] : "");
	return -ENOENT;
}

int profile_load(const char *name_or_path, const char *user_dir, const char *const *sets,
		 size_t nsets, struct profile **out, struct ydoc_error *err)
{
	char path[PATH_MAX];
	struct ydoc *doc;
	char *text = NULL;
	size_t len = 0;
	int ret;

	ret = profile_find(name_or_path, user_dir, path, sizeof(path), err);
	if (ret)
		return ret;
	/* Read through ydoc for its file checks and errors; the tree is parsed again below
	 * (cheap) so that --set applies to a fresh tree. */
	ret = ydoc_parse_file(path, &doc, &text, &len, err);
	if (ret)
		return ret;
	ydoc_free(doc);
	ret = profile_parse_string(text, len, path, sets, nsets, out, err);
	free(text);
	return ret;
}

/* ---- listing -------------------------------------------------------------------------------- */

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct profile_entry *)a)->name,
		      ((const struct profile_entry *)b)->name);
}

static int add_dir(const char *dir, struct profile_entry **list, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		struct profile_entry *e;
		struct profile *p = NULL;
		struct ydoc_error err;
		bool dup = false;

		if (l <= 5 || l - 5 >= sizeof(e->name) || strcmp(de->d_name + l - 5, ".yaml"))
			continue;
		for (size_t i = 0; i < *n; i++)
			if (!strncmp((*list)[i].name, de->d_name, l - 5) && !(*list)[i].name[l - 5])
				dup = true;
		if (dup)
			continue;
		if (*n == *cap) {
			size_t nc = *cap ? *cap * 2 : 16;
			struct profile_entry *nl = realloc(*list, nc * sizeof(*nl));

			if (!nl) {
				ret = -ENOMEM;
				break;
			}
			*list = nl;
			*cap = nc;
		}
		e = &(*list)[*n];
		memset(e, 0, sizeof(*e));
		memcpy(e->name, de->d_name, l - 5);
		snprintf(e->path, sizeof(e->path), "%s/%.*s", dir, (int)(sizeof(e->path) - 300),
			 de->d_name);
		if (profile_load(e->path, NULL, NULL, 0, &p, &err) == 0) {
			snprintf(e->description, sizeof(e->description), "%s", p->description);
			e->valid = true;
			e->destructive = profile_writes(p);
			profile_free(p);
		} else {
			snprintf(e->description, sizeof(e->description), "(invalid: %d:%d: %.200s)",
				 err.line, err.col, err.msg);
		}
		(*n)++;
	}
	closedir(d);
	return ret;
}

int profile_list_bundled(const char *user_dir, struct profile_entry **list, size_t *n)
{
	const char *dirs[3];
	size_t nd = search_dirs(user_dir, dirs), cnt = 0, cap = 0;
	struct profile_entry *l = NULL;
	int ret;

	for (size_t i = 0; i < nd; i++) {
		ret = add_dir(dirs[i], &l, &cnt, &cap);
		if (ret) {
			free(l);
			return ret;
		}
	}
	if (cnt)
		qsort(l, cnt, sizeof(*l), entry_cmp);
	*list = l;
	*n = cnt;
	return 0;
}

/* ---- JSON, summary, bytes ------------------------------------------------------------------- */

static struct json_object *phase_list_to_json(const struct phase_list *l);

static struct json_object *phase_to_json(const struct profile_phase *ph)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "kind", json_object_new_string(ph->kind->name));
	json_object_object_add(o, "line", json_object_new_int(ph->line));
	json_object_object_add(
	    o, "destructive",
	    json_object_new_boolean(
		ph->kind->type == PHASE_REPEAT
		    ? first_writer(&((const struct phase_repeat *)ph->data)->phases) != NULL
		    : ph->kind->destructive && ph->kind->destructive(ph->data)));
	if (ph->kind->to_json)
		json_object_object_add(o, "settings", ph->kind->to_json(ph->data));
	return o;
}

static struct json_object *phase_list_to_json(const struct phase_list *l)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < l->n; i++)
		json_object_array_add(a, phase_to_json(&l->v[i]));
	return a;
}

struct json_object *profile_phase_list_to_json(const struct phase_list *l)
{
	return phase_list_to_json(l);
}

struct json_object *profile_to_json(const struct profile *p)
{
	struct json_object *o = json_object_new_object(), *d;

	if (!o)
		return NULL;
	json_object_object_add(o, "name", json_object_new_string(p->name));
	json_object_object_add(o, "description", json_object_new_string(p->description));
	json_object_object_add(o, "destructive", json_object_new_boolean(p->destructive));
	d = json_object_new_object();
	if (d) {
		json_object_object_add(d, "qd", json_object_new_int((int)p->defaults.qd));
		json_object_object_add(d, "threads", json_object_new_int((int)p->defaults.threads));
		json_object_object_add(d, "seed", json_object_new_uint64(p->defaults.seed));
		json_object_object_add(
		    d, "pattern",
		    json_object_new_string(pattern_enum[p->defaults.pattern == PATTERN_ZEROS]));
		json_object_object_add(d, "compressibility",
				       json_object_new_int((int)p->defaults.compressibility));
	}
	json_object_object_add(o, "defaults", d);
	json_object_object_add(o, "phases", phase_list_to_json(&p->phases));
	return o;
}

static void list_describe(const struct phase_list *l, char *buf, size_t len, size_t *pos)
{
	for (size_t i = 0; i < l->n && *pos < len; i++) {
		const struct profile_phase *ph = &l->v[i];
		char line[512];

		ph->kind->describe(ph->data, line, sizeof(line));
		*pos += (size_t)snprintf(buf + *pos, len - *pos, "%s%s", i ? "; " : "", line);
		if (*pos >= len)
			break;
		if (ph->kind->type == PHASE_REPEAT) {
			const struct phase_repeat *r = ph->data;

			*pos += (size_t)snprintf(buf + *pos, len - *pos, " [");
			if (*pos < len)
				list_describe(&r->phases, buf, len, pos);
			if (*pos < len)
				*pos += (size_t)snprintf(buf + *pos, len - *pos, "]");
		}
	}
}

const char *profile_summary(const struct profile *p, char *buf, size_t len)
{
	size_t pos = 0;

	if (!len)
		return buf;
	pos += (size_t)snprintf(buf, len, "%s: %s%s%s, %zu phase%s: ", p->name, p->description,
				*p->description ? ". " : "",
				p->destructive ? "Destructive (writes the target)"
					       : "Non-destructive (writes nothing)",
				p->phases.n, p->phases.n == 1 ? "" : "s");
	if (pos < len)
		list_describe(&p->phases, buf, len, &pos);
	if (pos < len)
		snprintf(buf + pos, len - pos, ".");
	return buf;
}

static int list_bytes(const struct phase_list *l, uint64_t capacity, uint64_t *bytes)
{
	int ret = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct profile_phase *ph = &l->v[i];
		uint64_t b = 0;
		int r;

		if (!ph->kind->bytes)
			continue;
		r = ph->kind->bytes(ph->data, capacity, &b);
		if (r == -ENODATA)
			ret = -ENODATA;
		else if (r)
			return r;
		*bytes = *bytes + b < *bytes ? UINT64_MAX : *bytes + b;
	}
	return ret;
}

int profile_phase_list_bytes(const struct phase_list *l, uint64_t capacity, uint64_t *bytes)
{
	return list_bytes(l, capacity, bytes);
}

int profile_bytes_written(const struct profile *p, uint64_t capacity, uint64_t *bytes)
{
	uint64_t b = 0;
	int ret = list_bytes(&p->phases, capacity, &b);

	if (ret && ret != -ENODATA)
		return ret;
	*bytes = b;
	return ret;
}
