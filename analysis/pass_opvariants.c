/* SPDX-License-Identifier: MIT */
/*
 * pass_opvariants: the analysis pass for summary.json's "op_variants" (the op-variants profile,
 * docs/op-variants.md): per variant of each top-level `variants` phase of the plan, the spare
 * it added (user capacity given up; the raw NAND size of a real drive is unknown, so no spare
 * factor is claimed for one), and over its measured phase (the body's last write_until or
 * rounds phase, run as repeat i for variant i) the IOPS, the write latency percentiles and the
 * WA (summary.json's "wa" entry of that phase). On a virtual SSD with greedy GC and no SLC cache
 * the analytic greedy WA (analysis/theory.h) sits beside the measured one, with alpha from the
 * model as run (the snapshot's raw part): (physical blocks - GC reserve) x block size over the
 * variant's user capacity, as tests/unit/test_sim_wa.c defines it, and the same with the
 * effective spare (less the unwritten half of the open blocks: greedy_wa() says why). Absent
 * when the plan has no variants phase.
 */
#include "analysis/pass.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "analysis/reader.h"
#include "analysis/theory.h"
#include "base/jsonget.h"
#include "base/jsonnum.h"
#include "base/units.h"

/* What one variants phase of the plan says, and where its measured phase is. */
struct opv_phase {
	int64_t phase;	  /* the variants phase's own number */
	int64_t measured; /* the body's last write_until or rounds phase; -1 when none */
	const char *measured_kind;
	const char *method;
	struct json_object *fractions; /* borrowed from the manifest */
};

/* Phases in a list and its bodies, numbered depth first as the runner does (docs/profiles.md). */
static int64_t count_phases(struct json_object *phases)
{
	int64_t n = 0;

	for (size_t i = 0; i < json_object_array_length(phases); i++) {
		struct json_object *ph = json_object_array_get_idx(phases, i), *st, *kids;

		n++;
		if (ph && json_object_object_get_ex(ph, "settings", &st) && st &&
		    json_object_object_get_ex(st, "phases", &kids) &&
		    json_object_is_type(kids, json_type_array))
			n += count_phases(kids);
	}
	return n;
}

/* The top-level variants phases (at most max) into v; returns how many. */
static size_t find_variants(struct json_object *phases, struct opv_phase *v, size_t max)
{
	int64_t next = 0;
	size_t n = 0;

	for (size_t i = 0; i < json_object_array_length(phases); i++) {
		struct json_object *ph = json_object_array_get_idx(phases, i), *st = NULL,
				   *kids = NULL;
		const char *kind = ph ? jsonget_str(ph, "kind") : NULL;
		int64_t me = next++;

		if (!ph || !json_object_object_get_ex(ph, "settings", &st) || !st)
			continue;
		if (!json_object_object_get_ex(st, "phases", &kids) ||
		    !json_object_is_type(kids, json_type_array))
			continue;
		if (kind && !strcmp(kind, "variants") && n < max) {
			struct opv_phase *o = &v[n++];
			int64_t k = me + 1;

			*o = (struct opv_phase){
			    .phase = me, .measured = -1, .method = jsonget_str(st, "method")};
			json_object_object_get_ex(st, "fractions", &o->fractions);
			for (size_t j = 0; j < json_object_array_length(kids); j++) {
				struct json_object *c = json_object_array_get_idx(kids, j), *cs,
						   *gk;
				const char *ck = jsonget_str(c, "kind");

				if (ck && (!strcmp(ck, "write_until") || !strcmp(ck, "rounds"))) {
					o->measured = k;
					o->measured_kind = ck;
				}
				k++;
				if (json_object_object_get_ex(c, "settings", &cs) && cs &&
				    json_object_object_get_ex(cs, "phases", &gk) &&
				    json_object_is_type(gk, json_type_array))
					k += count_phases(gk);
			}
		}
		next += count_phases(kids);
	}
	return n;
}

/* summary.json's "wa" entry's figure for (phase, repeat); NaN when absent or null. */
static double phase_wa(struct json_object *summary, int64_t phase, int64_t repeat)
{
	struct json_object *wa, *arr;

	if (!json_object_object_get_ex(summary, "wa", &wa) ||
	    !json_object_object_get_ex(wa, "phases", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return NAN;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		int64_t p, r;

		if (!jsonget_int(e, "phase", &p) && !jsonget_int(e, "repeat", &r) && p == phase &&
		    r == repeat)
			return jsonget_num(e, "wa");
	}
	return NAN;
}

/* The model as run, from the last snapshot of (phase, repeat) that has a raw part; NULL if none. */
static struct json_object *model_raw(const struct analyze_input *in, int64_t phase, int64_t repeat)
{
	struct json_object *raw = NULL;

	for (size_t i = 0; i < in->snaps.n; i++)
		if (in->snaps.parsed[i] && in->snaps.at[i].phase == phase &&
		    in->snaps.at[i].has_repeat && in->snaps.at[i].repeat == repeat &&
		    in->snaps.s[i].raw)
			raw = in->snaps.s[i].raw;
	return raw;
}

/* The greedy model at one alpha: {alpha, wa, measured_over_model}, plus open_blocks (the
 * blocks taken off the spare) when open >= 0. NULL with *e set when out of memory. */
static struct json_object *model_json(double alpha, double theory, double wa, double open, int *e)
{
	struct json_object *g = json_object_new_object();

	if (!g)
		*e = -ENOMEM;
	jsonnum_build_num(g, "alpha", alpha, e);
	if (open >= 0)
		jsonnum_build_num(g, "unwritten_open_blocks", open, e);
	jsonnum_build_num(g, "wa", theory, e);
	jsonnum_build_num(g, "measured_over_model", wa / theory, e);
	return g;
}

/*
 * The greedy model's WA for the variant's user capacity, or NaN with *why: a virtual SSD
 * with greedy GC and no SLC cache only (the model's assumptions). *alpha gets its alpha.
 * Nominal: alpha = (physical blocks - GC reserve) x block / user, the spare as the model file
 * gives it. Effective (*eff_wa, *eff_alpha, *open; NaN when the snapshot predates open_blocks):
 * the same minus half of the open blocks, one per die on the frontier, which are half written
 * on average: their unwritten half holds neither data nor invalid units, so it is not spare
 * that greedy GC can use. Measured with the simulator's counters (docs/op-variants.md): on
 * enterprise-28op's geometry with 1, 4, 16, 32 and 64 dies the long-run WA is within 1.6 % of
 * the effective model, while the nominal one is off by up to 16 % (64 dies).
 */
static double greedy_wa(struct json_object *raw, uint64_t user, double *alpha, double *eff_wa,
			double *eff_alpha, double *open, const char **why)
{
	double ob = raw ? jsonget_num(raw, "open_blocks") : NAN;

	const char *gc = raw ? jsonget_str(raw, "gc_policy") : NULL;
	double pb, res, bb, mu, slc;

	*alpha = *eff_wa = *eff_alpha = *open = NAN;
	if (!gc) {
		*why = "not a virtual SSD: the raw NAND size is unknown";
		return NAN;
	}
	pb = jsonget_num(raw, "physical_blocks");
	res = jsonget_num(raw, "gc_reserve_blocks");
	bb = jsonget_num(raw, "block_bytes");
	mu = jsonget_num(raw, "mapping_unit");
	slc = jsonget_num(raw, "slc_cache_bytes");
	if (strcmp(gc, "greedy")) {
		*why = "the model's GC is not greedy";
		return NAN;
	}
	if (!(slc == 0)) {
		*why = isnan(slc) ? "the model's SLC cache size is not recorded"
				  : "the model has an SLC cache";
		return NAN;
	}
	if (isnan(pb) || isnan(res) || isnan(bb) || !(mu > 0) || !user) {
		*why = "the model's geometry is not recorded";
		return NAN;
	}
	*alpha = (pb - res) * bb / (double)user;
	*why = NULL;
	if (ob >= 0) {
		*open = ob / 2.0;
		*eff_alpha = (pb - res - *open) * bb / (double)user;
		*eff_wa = theory_wa_greedy(*eff_alpha, (unsigned)(bb / mu));
	}
	return theory_wa_greedy(*alpha, (unsigned)(bb / mu));
}

/* Adds v, or a JSON null when v is NULL on purpose (absent), to o under key (jsonnum_build_add's
 * error rule otherwise). */
static void add_or_null(struct json_object *o, const char *key, struct json_object *v, int *e)
{
	if (v || *e) {
		jsonnum_build_add(o, key, v, e);
		return;
	}
	if (!o || json_object_object_add(o, key, NULL))
		*e = -ENOMEM;
}

static struct json_object *variant_json(const struct analyze_input *in, struct json_object *summary,
					const struct opv_phase *v, size_t i, uint64_t capacity,
					struct cells_sum *sum, int *e)
{
	struct json_object *o = json_object_new_object(), *lat = NULL, *g = NULL, *ge = NULL;
	double f = json_object_get_double(json_object_array_get_idx(v->fractions, i));
	uint64_t user = units_fraction_floor(capacity, f, UNITS_VARIANT_ALIGN);
	double alpha, wa = NAN, theory = NAN, iops = NAN, eff = NAN, eff_alpha, open;
	const char *why = "no measured phase";
	static const struct {
		const char *key;
		double p;
	} pct[] = {{"p50", 50}, {"p99", 99}, {"p99_9", 99.9}, {"p99_99", 99.99}};
	int rc;

	jsonnum_build_add(o, "variant", json_object_new_int64((int64_t)i + 1), e);
	jsonnum_build_add(o, "phase", json_object_new_int64(v->measured), e);
	jsonnum_build_add(o, "repeat", json_object_new_int64((int64_t)i), e);
	jsonnum_build_num(o, "fraction", f, e);
	jsonnum_build_add(o, "method", json_object_new_string(v->method ? v->method : "auto"), e);
	jsonnum_build_add(o, "user_capacity", json_object_new_int64((int64_t)user), e);
	jsonnum_build_add(o, "spare_added_bytes", json_object_new_int64((int64_t)(capacity - user)),
			  e);
	jsonnum_build_num(o, "spare_added_fraction",
			  capacity ? (double)(capacity - user) / (double)capacity : NAN, e);
	if (v->measured >= 0) {
		rc = reader_phase_sum(&in->records, v->measured, (int64_t)i, sum);
		if (rc) {
			*e = rc;
			return o;
		}
		if (sum->n && sum->elapsed_ns)
			iops = (double)(sum->ios[0] + sum->ios[1]) * 1e9 / (double)sum->elapsed_ns;
		if (sum->ios[1]) {
			lat = json_object_new_object();
			if (!lat)
				*e = -ENOMEM;
			jsonnum_build_num(lat, "mean", hist_mean(&sum->h[1]), e);
			for (size_t k = 0; k < sizeof(pct) / sizeof(pct[0]); k++)
				jsonnum_build_num(lat, pct[k].key,
						  (double)hist_percentile(&sum->h[1], pct[k].p), e);
			jsonnum_build_num(lat, "max", (double)sum->h[1].max, e);
		}
		wa = phase_wa(summary, v->measured, (int64_t)i);
		theory = greedy_wa(model_raw(in, v->measured, (int64_t)i), user, &alpha, &eff,
				   &eff_alpha, &open, &why);
		if (!why)
			g = model_json(alpha, theory, wa, -1, e);
		if (!why && !isnan(eff))
			ge = model_json(eff_alpha, eff, wa, open, e);
	}
	add_or_null(o, "measured_kind",
		    v->measured_kind ? json_object_new_string(v->measured_kind) : NULL, e);
	jsonnum_build_add(o, "ios", json_object_new_int64((int64_t)(sum->ios[0] + sum->ios[1])), e);
	jsonnum_build_num(o, "iops", iops, e);
	add_or_null(o, "write_lat_ns", lat, e);
	jsonnum_build_num(o, "wa", wa, e);
	add_or_null(o, "greedy_model", g, e);
	add_or_null(o, "greedy_model_effective", ge, e);
	add_or_null(o, "greedy_model_absent", why ? json_object_new_string(why) : NULL, e);
	return o;
}

#define OPV_MAX 16

int pass_opvariants(const struct analyze_input *in, struct json_object *summary, char *err,
		    size_t errlen)
{
	struct json_object *plan, *phases, *target, *arr = NULL;
	struct opv_phase v[OPV_MAX];
	struct cells_sum *sum = NULL;
	int64_t cap = 0;
	size_t n;
	int e = 0;

	if (!json_object_object_get_ex(in->manifest, "plan", &plan) ||
	    !json_object_object_get_ex(plan, "phases", &phases) ||
	    !json_object_is_type(phases, json_type_array))
		return 0;
	n = find_variants(phases, v, OPV_MAX);
	if (!n)
		return 0;
	if (json_object_object_get_ex(in->manifest, "target", &target))
		jsonget_int(target, "capacity", &cap);
	sum = malloc(sizeof(*sum));
	arr = json_object_new_array();
	if (!sum || !arr) {
		e = -ENOMEM;
		goto out;
	}
	for (size_t k = 0; k < n && !e; k++) {
		size_t nf = v[k].fractions ? json_object_array_length(v[k].fractions) : 0;

		for (size_t i = 0; i < nf && !e; i++) {
			cells_sum_init(sum);
			jsonnum_build_push(arr,
					   variant_json(in, summary, &v[k], i,
							cap > 0 ? (uint64_t)cap : 0, sum, &e),
					   &e);
		}
	}
	if (!e) {
		e = jsonnum_add(summary, "op_variants", arr);
		arr = NULL;
	}
out:
	json_object_put(arr);
	free(sum);
	if (e)
		pass_err(err, errlen, "op_variants: %s", strerror(-e));
	return e;
}
