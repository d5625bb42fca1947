/* SPDX-License-Identifier: MIT */
/*
 * phases: the simple phase kinds (purge, precondition, write_until, idle, trim). Each kind is a
 * data struct, its hooks, and one row (a struct phase_kind, declared in phases.h) that
 * phases_registry.c lists in `kinds[]`; the rest of the profile layer knows kinds only through
 * that table. To add a kind: an enum phase_type value and data struct in phases.h, the hooks and
 * the row here (or in a phases_<kind>.c of its own, as the rounds kind is in phases_rounds.c),
 * the row's declaration in phases.h, its address in kinds[] (phases_registry.c), and its execute
 * hook in run/runner.c's kind_exec[]. The helpers the kinds share are in phases_common.c.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "base/units.h"

#include "engine/sprandom.h"
#include "profile/phases.h"


/* ---- helpers -------------------------------------------------------------------------------- */

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

/* enum purge_method order */
static const char *const purge_methods[] = {"auto",
					    "discard",
					    "sim",
					    "nvme-format",
					    "nvme-sanitize",
					    "ata-sanitize-block",
					    "ata-sanitize-crypto",
					    "ata-security-erase",
					    NULL};

const char *phase_purge_method_name(enum purge_method m)
{
	return (unsigned)m < sizeof purge_methods / sizeof purge_methods[0] - 1 ? purge_methods[m]
										: "?";
}

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

	phase_one_instance(l);
	l->ns = phase_scale_ns(env, phase_purge_settle_ns(p, env->real_purge));
	/* A settle is what a discard needs: the target has no real purge, or was told not to. */
	if (l->ns)
		snprintf(l->note, sizeof(l->note), "a discard on this target, not a PTS purge");
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
	bool slc_probe, gc_pass;
	const struct ydoc_node *stop;
	/* precondition's method and the sprandom inputs (struct phase_sprandom) */
	int method;
	const char *spare;
	const struct ydoc_node *slc_cache; /* a size, auto, or {from: DIR} */
	unsigned regions;
	bool force;
};

static const char *const precondition_methods[] = {"workload", "sprandom", NULL};
enum { PRECOND_WORKLOAD = 0, PRECOND_SPRANDOM };

struct stop_extra {
	double below_peak;
	struct amount for_amount;
};

/* clang-format off */
static const struct ydoc_key stop_keys[] = {
	{.name = "below_peak", .kind = YK_PERCENT, .required = true,
	 .offset = offsetof(struct stop_extra, below_peak), .bounded = true, .min = 0.01, .max = 0.99},
	{.name = "for", .kind = YK_AMOUNT, .required = true,
	 .offset = offsetof(struct stop_extra, for_amount), .align = 512},
	{0},
};
/* clang-format on */

/* clang-format off */
static const struct ydoc_key precondition_keys[] = {
	{.name = "amount", .kind = YK_AMOUNT, .offset = offsetof(struct write_extra, amount),
	 .align = 512},
	{.name = "method", .kind = YK_ENUM, .offset = offsetof(struct write_extra, method),
	 .enum_names = precondition_methods},
	{.name = "spare", .kind = YK_STRING, .offset = offsetof(struct write_extra, spare),
	 .expect = "auto, a percentage (7%) or a fraction (0.07)"},
	{.name = "regions", .kind = YK_UINT, .offset = offsetof(struct write_extra, regions),
	 .bounded = true, .min = 2, .max = SPRANDOM_MAX_REGIONS},
	{.name = "slc_cache", .kind = YK_ANY, .offset = offsetof(struct write_extra, slc_cache)},
	{.name = "force", .kind = YK_BOOL, .offset = offsetof(struct write_extra, force)},
	{0},
};
/* bits of `present` for precondition_keys[] */
enum { PK_AMOUNT = 0, PK_METHOD, PK_SPARE, PK_REGIONS, PK_SLC, PK_FORCE };
/* clang-format on */

/* clang-format off */
static const struct ydoc_key write_until_keys[] = {
	{.name = "amount", .kind = YK_AMOUNT, .required = true,
	 .offset = offsetof(struct write_extra, amount), .align = 512},
	{.name = "round_time", .kind = YK_DURATION, .offset = offsetof(struct write_extra, round_time),
	 .bounded = true, .min = 1e6, .max = 86400e9},
	{.name = "max_time", .kind = YK_DURATION, .offset = offsetof(struct write_extra, max_time),
	 .bounded = true, .min = 1e6, .max = 3650 * 86400e9},
	{.name = "slc_probe", .kind = YK_BOOL, .offset = offsetof(struct write_extra, slc_probe)},
	{.name = "gc_pass", .kind = YK_BOOL, .offset = offsetof(struct write_extra, gc_pass)},
	{.name = "stop", .kind = YK_MAPPING, .offset = offsetof(struct write_extra, stop)},
	{0},
};
/* clang-format on */

struct slc_from_extra {
	const char *from;
};

/* clang-format off */
static const struct ydoc_key slc_from_keys[] = {
	{.name = "from", .kind = YK_STRING, .required = true,
	 .offset = offsetof(struct slc_from_extra, from),
	 .expect = "the results directory of an slc-cache run on this drive"},
	{0},
};
/* clang-format on */

/* slc_cache: auto, a size, or {from: DIR} (an slc-cache run's results directory, read when the
 * inputs are resolved against the target: phase_sprandom_resolve). */
static int slc_cache_parse(const struct ydoc_node *v, struct phase_sprandom *spr,
			   struct ydoc_error *err)
{
	if (v->type == YDOC_MAPPING) {
		struct slc_from_extra f = {0};
		int ret = ydoc_map_read(v, "slc_cache", slc_from_keys, &f, NULL, err);

		if (ret)
			return ret;
		if (!f.from[0] || strlen(f.from) >= sizeof(spr->slc_dir))
			return ydoc_errorf(err, ydoc_map_get(v, "from"),
					   "slc_cache: from: expected a results directory (1 to %zu "
					   "characters)",
					   sizeof(spr->slc_dir) - 1);
		snprintf(spr->slc_dir, sizeof(spr->slc_dir), "%s", f.from);
		spr->slc_auto = false;
		return 0;
	}
	if (v->type != YDOC_SCALAR)
		return ydoc_errorf(err, v,
				   "slc_cache: expected auto, a size (470m, 0) or {from: DIR}, got %s",
				   ydoc_type_name(v->type));
	if (!strcmp(v->text, "auto"))
		return 0;
	if (units_parse_size(v->text, &spr->slc_cache))
		return ydoc_errorf(err, v,
				   "slc_cache: expected auto, a size (470m, 0) or {from: DIR}, got '%s'",
				   v->text);
	spr->slc_auto = false;
	return 0;
}

/*
 * precondition's `method: sprandom`: the fill is randwrite in one block size (default 4 KiB,
 * the usual mapping unit) over the whole drive, for a length it computes; its inputs
 * (struct phase_sprandom) are `auto` unless given. The sprandom keys without the method are
 * an error at the key, as are the workload keys the fill cannot honour.
 */
static int sprandom_parse(const struct ydoc_node *n, const struct write_extra *x, uint64_t present,
			  struct phase_write *p, struct ydoc_error *err)
{
	static const char *const refused[] = {"amount", "range", "random_distribution", "zones",
					      "align", NULL};
	struct phase_sprandom spr = {.spare_auto = true, .slc_auto = true};
	const struct ydoc_node *k;

	if (x->method != PRECOND_SPRANDOM) {
		static const char *const keys[] = {"spare", "regions", "slc_cache", "force", NULL};

		for (unsigned i = 0; keys[i]; i++)
			if ((k = ydoc_map_get(n, keys[i])))
				return ydoc_errorf(err, k, "%s is an input of method: sprandom", keys[i]);
		return 0;
	}
	for (unsigned i = 0; refused[i]; i++)
		if ((k = ydoc_map_get(n, refused[i])))
			return ydoc_errorf(err, k,
					   "method: sprandom computes its own offsets and length over "
					   "the whole drive: %s does not apply",
					   refused[i]);
	if ((k = ydoc_map_get(n, "rw")) && p->w.spec.rw != RW_RANDWRITE)
		return ydoc_errorf(err, k, "method: sprandom writes at random: expected rw randwrite, "
					   "got %s",
				   rw_mode_name(p->w.spec.rw));
	p->w.spec.rw = RW_RANDWRITE;
	if (!ydoc_map_get(n, "bs"))
		p->w.spec.bs[0] = (struct bs_split){4096, 1};
	else if (p->w.spec.nbs != 1)
		return ydoc_errorf(err, ydoc_map_get(n, "bs"),
				   "method: sprandom writes one block size, not a split");
	if (present & (1u << PK_SPARE) && strcmp(x->spare, "auto")) {
		const char *t = x->spare;
		char *end = NULL;
		double v = NAN;

		if (t[0] && t[strlen(t) - 1] == '%') {
			if (units_parse_percent(t, &v))
				v = NAN;
		} else {
			v = strtod(t, &end);
			if (end == t || *end)
				v = NAN;
		}
		if (!(v > 0 && v < 1))
			return ydoc_errorf(err, ydoc_map_get(n, "spare"),
					   "spare: expected auto, a percentage (7%%) or a fraction "
					   "(0.07) above 0 and below 1, got '%s'",
					   t);
		spr.spare_auto = false;
		spr.spare = v;
	}
	spr.regions = x->regions;
	if (present & (1u << PK_SLC)) {
		int ret = slc_cache_parse(x->slc_cache, &spr, err);

		if (ret)
			return ret;
	}
	spr.force = x->force;
	spr.on = true;
	p->w.length = (struct amount){.kind = AMOUNT_NONE};
	p->spr = spr;
	return 0;
}

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
		if (ctx->pts) { /* the PTS variant's TC x QD, unless the phase gives its queue */
			p.w.spec.qd = ctx->pts->measured_qd;
			p.w.spec.threads = ctx->pts->measured_threads;
		}
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
	if (!until) {
		ret = sprandom_parse(n, &x, present, &p, err);
		if (ret)
			return ret;
	}
	if (p.w.spec.rw != RW_WRITE && p.w.spec.rw != RW_RANDWRITE)
		return ydoc_errorf(err, ydoc_map_get(n, "rw") ? ydoc_map_get(n, "rw") : n,
				   "%s writes: expected rw write or randwrite, got %s", name,
				   rw_mode_name(p.w.spec.rw));
	if (!p.spr.on)
		p.w.length = x.amount;
	p.round_time_ns = x.round_time;
	p.max_time_ns = x.max_time;
	p.slc_probe = x.slc_probe;
	p.gc_pass = x.gc_pass;
	if (x.stop) {
		struct stop_extra st = {0};

		ret = ydoc_map_read(x.stop, "stop", stop_keys, &st, NULL, err);
		if (ret)
			return ret;
		/* the rule counts bytes written; a time would need the chunks' own scaling */
		if (st.for_amount.kind != AMOUNT_BYTES && st.for_amount.kind != AMOUNT_CAPACITY)
			return ydoc_errorf(err, ydoc_map_get(x.stop, "for"),
					   "stop.for: expected bytes or a capacity multiple (2GiB, "
					   "0.05x)");
		p.has_stop = true;
		p.stop_below_peak = st.below_peak;
		p.stop_for = st.for_amount;
	}
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
	if (p->spr.on) {
		struct json_object *sp = json_object_new_object();

		bad |= !sp;
		if (sp) {
			bad |= phase_json_add(o, "method", json_object_new_string("sprandom"));
			bad |= phase_json_add(sp, "spare", p->spr.spare_auto
								  ? json_object_new_string("auto")
								  : jsonnum_new(p->spr.spare));
			bad |= phase_json_add(sp, "regions",
					      p->spr.regions ? json_object_new_int64(p->spr.regions)
							     : json_object_new_string("auto"));
			if (p->spr.slc_dir[0]) {
				struct json_object *f = json_object_new_object();

				bad |= phase_json_add(f, "from",
						      json_object_new_string(p->spr.slc_dir));
				bad |= phase_json_add(sp, "slc_cache", f);
			} else {
				bad |= phase_json_add(sp, "slc_cache",
						      p->spr.slc_auto ? json_object_new_string("auto")
								      : json_u64(p->spr.slc_cache));
			}
			bad |= phase_json_add(sp, "force", json_object_new_boolean(p->spr.force));
			bad |= phase_json_add(o, "sprandom", sp);
		}
	}
	if (p->round_time_ns)
		bad |= phase_json_add(o, "round_time_ns", json_u64(p->round_time_ns));
	if (p->max_time_ns)
		bad |= phase_json_add(o, "max_time_ns", json_u64(p->max_time_ns));
	if (p->slc_probe)
		bad |= phase_json_add(o, "slc_probe", json_object_new_boolean(1));
	if (p->gc_pass)
		bad |= phase_json_add(o, "gc_pass", json_object_new_boolean(1));
	if (p->has_stop) {
		struct json_object *st = json_object_new_object();

		bad |= !st;
		if (st) {
			bad |= phase_json_add(st, "below_peak", jsonnum_new(p->stop_below_peak));
			if (p->stop_for.kind == AMOUNT_BYTES)
				bad |= phase_json_add(st, "for_bytes",
						      json_object_new_uint64(p->stop_for.bytes));
			else
				bad |= phase_json_add(st, "for_capacity_multiple",
						      jsonnum_new(p->stop_for.multiple));
			bad |= phase_json_add(o, "stop", st);
		}
	}
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

	phase_wl_desc(&p->w, w, sizeof(w));
	pos = (size_t)snprintf(buf, len, "%s %s%s %s", name, w,
			       strcmp(name, "precondition") ? " until" : ",",
			       phase_amount_text(&p->w.length, a, sizeof(a)));
	if (p->max_time_ns && pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, " or %s",
					units_fmt_duration(p->max_time_ns, t, sizeof(t)));
	if (p->round_time_ns && pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, ", a record every %s",
					units_fmt_duration(p->round_time_ns, t, sizeof(t)));
	if (p->has_stop && pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, ", or once below %.0f%% of the peak for %s",
					100 * p->stop_below_peak,
					phase_amount_text(&p->stop_for, a, sizeof(a)));
	if (p->slc_probe && pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, ", SLC-cache probe");
	if (p->gc_pass && pos < len)
		snprintf(buf + pos, len - pos, ", GC pass (fast region measured)");
}

static void precondition_describe(const void *data, char *buf, size_t len)
{
	const struct phase_write *p = data;
	char w[256], sp[32] = "auto", sc[PHASE_SPR_DIR_MAX + 32] = "auto", rg[16] = "auto";

	if (!p->spr.on) {
		write_describe_as(data, "precondition", buf, len);
		return;
	}
	phase_wl_desc(&p->w, w, sizeof(w));
	if (!p->spr.spare_auto)
		snprintf(sp, sizeof(sp), "%.4g%%", 100 * p->spr.spare);
	if (p->spr.slc_dir[0])
		snprintf(sc, sizeof(sc), "from the slc-cache probe in %s", p->spr.slc_dir);
	else if (!p->spr.slc_auto)
		units_fmt_size(p->spr.slc_cache, sc, sizeof(sc));
	if (p->spr.regions)
		snprintf(rg, sizeof(rg), "%u", p->spr.regions);
	snprintf(buf, len,
		 "precondition sprandom %s, about the physical capacity once (spare %s, %s regions, "
		 "SLC cache %s)",
		 w, sp, rg, sc);
}

static void write_until_describe(const void *data, char *buf, size_t len)
{
	write_describe_as(data, "write_until", buf, len);
}

static int write_bytes(const void *data, uint64_t capacity, uint64_t *bytes)
{
	const struct phase_write *p = data;

	if (p->spr.on) {
		struct sprandom_inputs in;
		char err[256];

		/* no target here: the inputs it gives are unknown, an unresolved fill counts
		 * as one capacity (phase_sprandom_resolve) */
		*bytes = phase_sprandom_resolve(&p->spr, p->w.spec.bs[0].bs, capacity, NULL, &in,
						err, sizeof(err))
			     ? capacity
			     : in.bytes;
		return 0;
	}

	return phase_length_bytes(&p->w.length, capacity, bytes);
}

static void write_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	const struct phase_write *p = data;

	phase_one_instance(l);
	if (p->spr.on) {
		struct sprandom_inputs in;
		char err[480];

		/* the fill's bytes as the target's inputs resolve them, and the inputs, so that
		 * `plan` shows the spare a run would use before it writes; a target that cannot
		 * resolve them is refused by the runner (with err): counted as one capacity */
		if (!phase_sprandom_resolve(&p->spr, p->w.spec.bs[0].bs, env->capacity, &env->nand,
					    &in, err, sizeof(err))) {
			char sf[PHASE_SPR_DIR_MAX + 32], cf[PHASE_SPR_DIR_MAX + 32], slc[32];

			l->bytes += in.bytes;
			snprintf(l->note, sizeof(l->note),
				 "sprandom here: spare %.2f %% (%s), clean validity %.4f, %u regions "
				 "(%s), SLC cache %s (%s)",
				 in.spare * 100, phase_sprandom_spare_from(&in, sf, sizeof(sf)),
				 in.alpha, in.regions, phase_spr_source_name(in.regions_from),
				 units_fmt_size(in.slc_cache, slc, sizeof(slc)),
				 phase_sprandom_slc_from(&in, cf, sizeof(cf)));
		} else {
			l->bytes += env->capacity;
			snprintf(l->note, sizeof(l->note),
				 "refused on this target, counted as one capacity: %s", err);
		}
		return;
	}
	phase_add_length(env, &p->w.length, l);
	l->cap_ns = p->max_time_ns ? phase_scale_ns(env, p->max_time_ns) : 0;
	l->chunks_by_time = p->round_time_ns != 0;
	l->upper_bound = p->has_stop;
}

static int precondition_jobs(const void *data, struct phase_job **jobs, size_t *n)
{
	return one_job(&((const struct phase_write *)data)->w, "precondition", jobs, n);
}

static int write_until_jobs(const void *data, struct phase_job **jobs, size_t *n)
{
	return one_job(&((const struct phase_write *)data)->w, "write_until", jobs, n);
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

static bool never_destructive(const void *data)
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
	phase_one_instance(l);
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

static void trim_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	(void)data;
	(void)env;
	phase_one_instance(l); /* a discard: no time of its own in the plan */
}

/* ---- the rows of the registry (listed in phases_registry.c) ------------------------------- */

/* clang-format off */
const struct phase_kind phase_purge_kind = {
	.name = "purge",
	.type = PHASE_PURGE,
	.size = sizeof(struct phase_purge),
	.parse = purge_parse,
	.destructive = always,
	.to_json = purge_json,
	.describe = purge_describe,
	.length = purge_length,
};

const struct phase_kind phase_precondition_kind = {
	.name = "precondition",
	.type = PHASE_PRECONDITION,
	.flags = PHASE_KIND_CHUNKED,
	.size = sizeof(struct phase_write),
	.parse = precondition_parse,
	.destructive = always,
	.to_json = write_json,
	.describe = precondition_describe,
	.bytes = write_bytes,
	.length = write_length,
	.jobs = precondition_jobs,
};

const struct phase_kind phase_write_until_kind = {
	.name = "write_until",
	.type = PHASE_WRITE_UNTIL,
	.flags = PHASE_KIND_CHUNKED,
	.size = sizeof(struct phase_write),
	.parse = write_until_parse,
	.destructive = always,
	.to_json = write_json,
	.describe = write_until_describe,
	.bytes = write_bytes,
	.length = write_length,
	.jobs = write_until_jobs,
};

const struct phase_kind phase_idle_kind = {
	.name = "idle",
	.type = PHASE_IDLE,
	.flags = PHASE_KIND_WAIT,
	.size = sizeof(struct phase_idle),
	.parse = idle_parse,
	.destructive = never_destructive,
	.to_json = idle_json,
	.describe = idle_describe,
	.length = idle_length,
};

const struct phase_kind phase_trim_kind = {
	.name = "trim",
	.type = PHASE_TRIM,
	.size = sizeof(struct phase_trim),
	.parse = trim_parse,
	.destructive = always,
	.to_json = trim_json,
	.describe = trim_describe,
	.length = trim_length,
};
/* clang-format on */
