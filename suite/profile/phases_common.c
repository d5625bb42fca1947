/* SPDX-License-Identifier: MIT */
/*
 * The parts phases are built from (profile/phases.h): workloads (parse, resolve, JSON), the
 * profile-wide defaults, the cells of a rounds matrix and phase lists (release, JSON, bytes),
 * and the helpers the kinds' hooks share (descriptions, lengths). The kinds themselves are in
 * phases.c and phases_rounds.c, the registry and the parsing of phase lists in
 * phases_registry.c; this file references none of them (it reaches a kind only through a
 * phase's kind pointer). These files implement phases.h and include nothing of profile.h,
 * which sits above them.
 */
#include "profile/phases.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

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
	uint64_t align;
	int bs_na;
};

static const char *const rw_enum[] = {"read",	"write", "randread", "randwrite",
				      "randrw", "rw",	 NULL};
static const char *const dist_enum[] = {"uniform", "zoned", NULL};
static const char *const pattern_enum[] = {"random", "zeros", NULL};
static const char *const bs_na_enum[] = {"refuse", "renormalise", NULL};

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
	WK_ALIGN,
	WK_BS_NA,
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
	[WK_ALIGN] = {.name = "align", .kind = YK_SIZE, .offset = offsetof(struct wl_raw, align),
		      .bounded = true, .min = 512, .max = 1 << 30, .align = 512},
	[WK_BS_NA] = {.name = "bs_not_applicable", .kind = YK_ENUM,
		      .offset = offsetof(struct wl_raw, bs_na), .enum_names = bs_na_enum,
		      .expect = "refuse (a split size the target cannot do refuses the job) or "
				"renormalise (it is left out, the other weights renormalised)"},
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
	if (pctx->pts && out.range.percent) {
		/* SNIA PTS ActiveRange: every workload stays inside the first active_range of the
		 * LBAs (a range in bytes names LBAs itself and is left as written); the random
		 * ones only in the ActiveRange Amount's segments (resolved with the capacity). */
		out.range.lo *= pctx->pts->active_range;
		out.range.hi *= pctx->pts->active_range;
	}
	if (pctx->pts && pctx->pts->amount) {
		out.ar_amount = pctx->pts->amount;
		out.ar_segments = pctx->pts->segments;
	}
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
	if (seen & (1u << WK_ALIGN))
		out.spec.align = (uint32_t)raw.align;
	if (seen & (1u << WK_BS_NA))
		out.bs_renormalise = raw.bs_na == 1;
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
	bool bad = false;

	if (a->kind == AMOUNT_NONE)
		return NULL;
	o = json_object_new_object();
	if (!o)
		return NULL;
	switch (a->kind) {
	case AMOUNT_BYTES:
		bad |= phase_json_add(o, "bytes", json_object_new_uint64(a->bytes));
		break;
	case AMOUNT_CAPACITY:
		bad |= phase_json_add(o, "capacity_multiple", jsonnum_new(a->multiple));
		break;
	case AMOUNT_TIME:
		bad |= phase_json_add(o, "time_ns", json_object_new_uint64(a->ns));
		break;
	default:
		break;
	}
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* An amount under key: a JSON null for AMOUNT_NONE (one pass, no ramp). */
static int add_amount(struct json_object *o, const char *key, const struct amount *a)
{
	if (a->kind == AMOUNT_NONE)
		return json_object_object_add(o, key, NULL) ? -ENOMEM : 0;
	return phase_json_add(o, key, amount_to_json(a));
}

static struct json_object *range_to_json(const struct range *r)
{
	struct json_object *o = json_object_new_object();
	bool bad = false;

	if (!o)
		return NULL;
	if (r->percent) {
		bad |= phase_json_add(o, "lo_fraction", jsonnum_new(r->lo));
		bad |= phase_json_add(o, "hi_fraction", jsonnum_new(r->hi));
	} else {
		bad |= phase_json_add(o, "lo_bytes", json_object_new_uint64(r->lo_b));
		bad |= phase_json_add(o, "hi_bytes", json_object_new_uint64(r->hi_b));
	}
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *profile_workload_to_json(const struct profile_workload *w)
{
	const struct job_spec *s = &w->spec;
	struct json_object *o = json_object_new_object(), *bs, *z;
	bool bad = false;

	if (!o)
		return NULL;
	bad |= phase_json_add(o, "rw", json_object_new_string(rw_mode_name(s->rw)));
	if (rw_is_mixed(s->rw))
		bad |= phase_json_add(o, "rwmix_read", json_object_new_int((int)s->rwmix_read));
	bs = json_object_new_array();
	for (unsigned i = 0; bs && i < s->nbs; i++) {
		struct json_object *e = json_object_new_object();

		bad |= phase_json_add(e, "bs", json_object_new_int64(s->bs[i].bs));
		bad |= phase_json_add(e, "weight", json_object_new_int64(s->bs[i].weight));
		bad |= phase_json_append(bs, e);
	}
	bad |= phase_json_add(o, "bs", bs);
	bad |= phase_json_add(o, "qd", json_object_new_int((int)s->qd));
	bad |= phase_json_add(o, "threads", json_object_new_int((int)s->threads));
	bad |= phase_json_add(o, "range", range_to_json(&w->range));
	if (w->ar_amount) {
		struct json_object *a = json_object_new_object();

		bad |= phase_json_add(a, "bytes", json_object_new_uint64(w->ar_amount));
		bad |= phase_json_add(a, "segments", json_object_new_int((int)w->ar_segments));
		bad |= phase_json_add(o, "active_range_amount", a);
	}
	bad |= add_amount(o, "length", &w->length);
	bad |= add_amount(o, "ramp", &w->ramp);
	bad |= phase_json_add(o, "seed", json_object_new_uint64(s->seed));
	bad |= phase_json_add(o, "random_distribution",
			       json_object_new_string(dist_enum[s->dist == DIST_ZONED]));
	if (s->align)
		bad |= phase_json_add(o, "align", json_object_new_int64(s->align));
	if (w->bs_renormalise)
		bad |= phase_json_add(o, "bs_not_applicable", json_object_new_string("renormalise"));
	if (s->dist == DIST_ZONED) {
		z = json_object_new_array();
		for (unsigned i = 0; z && i < s->nzones; i++) {
			struct json_object *e = json_object_new_object();

			bad |= phase_json_add(e, "io_fraction",
					       jsonnum_new(s->zones[i].io_frac));
			bad |= phase_json_add(e, "range_fraction",
					       jsonnum_new(s->zones[i].range_frac));
			bad |= phase_json_append(z, e);
		}
		bad |= phase_json_add(o, "zones", z);
	}
	bad |= phase_json_add(o, "pattern",
			       json_object_new_string(pattern_enum[s->pattern == PATTERN_ZEROS]));
	bad |= phase_json_add(o, "compressibility", json_object_new_int((int)s->compressibility));
	if (s->interval_ns)
		bad |= phase_json_add(o, "interval_ns", json_object_new_uint64(s->interval_ns));
	if (bad) {
		json_object_put(o);
		return NULL;
	}
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

bool profile_workload_not_applicable(const struct profile_workload *w, uint32_t lbs, char *why,
				     size_t len)
{
	if (!lbs)
		return false;
	/* A split that may drop sizes (bs_not_applicable: renormalise) runs those the target can
	 * do, renormalised and recorded: only one with none left is not applicable (issue 16:
	 * JESD219 on a 4Kn device). */
	for (unsigned i = 0; w->bs_renormalise && w->spec.nbs > 1 && i < w->spec.nbs; i++)
		if (w->spec.bs[i].bs % lbs == 0)
			return false;
	for (unsigned i = 0; i < w->spec.nbs; i++) {
		uint32_t bs = w->spec.bs[i].bs;

		/* In bytes, as the spec's 0.5 KiB is 512 B (SNIA-TERMS): a reader needs no unit. */
		if (bs < lbs) {
			snprintf(why, len,
				 "block size %" PRIu32 " B is below the device's logical block size "
				 "of %" PRIu32 " B",
				 bs, lbs);
			return true;
		}
		if (bs % lbs) {
			snprintf(why, len,
				 "block size %" PRIu32 " B is not a multiple of the device's logical "
				 "block size of %" PRIu32 " B",
				 bs, lbs);
			return true;
		}
	}
	return false;
}

int profile_workload_resolve(const struct profile_workload *w, uint64_t capacity, uint32_t lbs,
			     double time_scale, struct job_spec *out, char *err, size_t len)
{
	struct job_spec s = w->spec;
	uint64_t align = lbs ? lbs : 512, maxbs = 0;
	char a[32], r_buf[16];
	int ret;

	if (!(time_scale > 0))
		time_scale = 1.0;
	/* bs_not_applicable: renormalise: a split's sizes the target cannot do are left out and
	 * the rest renormalised (weights are relative); the job_spec keeps them in bs_dropped for
	 * its record. */
	s.nbs_dropped = 0;
	if (w->bs_renormalise && lbs && s.nbs > 1)
		(void)bs_split_drop(s.bs, &s.nbs, lbs, s.bs_dropped, &s.nbs_dropped);
	if (s.align && s.align % align) {
		snprintf(err, len, "align %s is not a multiple of the logical block size %s",
			 units_fmt_size(s.align, a, sizeof(a)),
			 units_fmt_size(align, a + 16, sizeof(a) - 16));
		return -EINVAL;
	}
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
	if (w->ar_amount && w->ar_segments && !rw_is_seq(s.rw)) {
		/* ActiveRange Amount: a sequential pass (preconditioning) writes the whole active
		 * range; random offsets keep to the segments (engine/workload.h). */
		s.segments = w->ar_segments;
		s.segment_bytes = w->ar_amount / w->ar_segments / align * align;
		if (w->ar_amount > s.range_end - s.range_start || s.segment_bytes < maxbs) {
			snprintf(err, len,
				 "ActiveRange Amount %s does not fit %u segments in the active range "
				 "(%s) with a %s block in each",
				 units_fmt_size(w->ar_amount, a, sizeof(a)), w->ar_segments,
				 units_fmt_size(s.range_end - s.range_start, a + 16, sizeof(a) - 16),
				 units_fmt_size(maxbs, r_buf, sizeof(r_buf)));
			return -ERANGE;
		}
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

/* ---- phase lists (release; parsing them is in phases_registry.c) ------------------------- */

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

/* ---- defaults ------------------------------------------------------------------------------- */

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

int profile_parse_defaults(const struct ydoc_node *n, struct profile_defaults *d,
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
/* The first phase (depth first) that writes, for the destructive check. */
const struct profile_phase *phase_list_first_writer(const struct phase_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct profile_phase *ph = &l->v[i];
		unsigned count;

		if (ph->kind->body) {
			const struct profile_phase *w =
			    phase_list_first_writer(ph->kind->body(ph->data, &count));

			if (w)
				return w;
		} else if (ph->kind->destructive(ph->data)) {
			return ph;
		}
	}
	return NULL;
}
int phase_json_add(struct json_object *o, const char *key, struct json_object *v)
{
	if (!v)
		return -ENOMEM;
	if (!o || json_object_object_add(o, key, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

int phase_json_append(struct json_object *a, struct json_object *v)
{
	if (!v)
		return -ENOMEM;
	if (!a || json_object_array_add(a, v)) {
		json_object_put(v);
		return -ENOMEM;
	}
	return 0;
}

struct json_object *profile_defaults_to_json(const struct profile_defaults *d)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (phase_json_add(o, "qd", json_object_new_int((int)d->qd)) ||
	    phase_json_add(o, "threads", json_object_new_int((int)d->threads)) ||
	    phase_json_add(o, "seed", json_object_new_uint64(d->seed)) ||
	    phase_json_add(o, "pattern",
			   json_object_new_string(pattern_enum[d->pattern == PATTERN_ZEROS])) ||
	    phase_json_add(o, "compressibility", json_object_new_int((int)d->compressibility))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* ---- JSON and bytes of phase lists ------------------------------------------------------------------- */

static struct json_object *phase_to_json(const struct profile_phase *ph)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (phase_json_add(o, "kind", json_object_new_string(ph->kind->name)) ||
	    phase_json_add(o, "line", json_object_new_int(ph->line)) ||
	    phase_json_add(o, "destructive",
			   json_object_new_boolean(ph->kind->destructive(ph->data))) ||
	    phase_json_add(o, "settings", ph->kind->to_json(ph->data)) ||
	    (ph->cooldown.set &&
	     phase_json_add(o, "cooldown", profile_cooldown_to_json(&ph->cooldown)))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *profile_phase_list_to_json(const struct phase_list *l)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < l->n; i++) {
		if (phase_json_append(a, phase_to_json(&l->v[i]))) {
			json_object_put(a);
			return NULL;
		}
	}
	return a;
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

/* ---- for the kinds' hooks (phases.c, phases_rounds.c, phases_registry.c) ------------------ */

bool phase_rw_writes(enum rw_mode m, unsigned rwmix_read)
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
size_t phase_wl_desc_skip(const struct profile_workload *w, bool skip_rw, bool skip_bs,
			  char *buf, size_t len)
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

size_t phase_wl_desc(const struct profile_workload *w, char *buf, size_t len)
{
	return phase_wl_desc_skip(w, false, false, buf, len);
}

const char *phase_amount_text(const struct amount *a, char *buf, size_t len)
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
int phase_length_bytes(const struct amount *a, uint64_t capacity, uint64_t *bytes)
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
void phase_add_length(const struct phase_env *env, const struct amount *a,
		      struct phase_length *l)
{
	if (a->kind == AMOUNT_TIME)
		l->ns += phase_scale_ns(env, a->ns);
	else
		l->bytes += a->kind == AMOUNT_NONE ? env->capacity : amount_bytes(a, env->capacity);
}

void phase_one_instance(struct phase_length *l)
{
	*l = (struct phase_length){.rounds_lo = 1, .rounds_hi = 1};
}
