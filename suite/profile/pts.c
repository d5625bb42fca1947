/* SPDX-License-Identifier: MIT */
/*
 * pts: the `pts:` block of a profile and what its variant changes (see pts.h). The tables of
 * defaults below are the one place where PTS-E and PTS-C differ.
 */
#include "profile/pts.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

static const char *const test_names[] = {"iops", "throughput", "latency", "wsat", "xsr", "dirth", "hir", "ecw", NULL};
static const char *const variant_names[] = {"enterprise", "client", NULL};
/* SNIA PTS E11 / P201: "Data Pattern: Required = Random" (incompressible); the only one here. */
static const char *const pattern_names[] = {"random", NULL};

/*
 * TC x QD of a measured phase without `queue:`, by test and variant ({0, 0}: the profile's).
 * IOPS: PTS 2.0.1 p.27 as quoted by LJ (reference [I]): PTS-E TC4/QD32, PTS-C TC2/QD16.
 * Latency: TC1/QD1 in both (SNIA-SVC [S]). Throughput, WSAT and XSR leave it to the profile.
 * DIRTH: its preconditioning and pre-writes run at TC32/QD32 (AD, reference [I]); its TOIO
 * rounds vary threads and qd themselves.
 * HIR: the reference gives no TOIO of its own (CH and FE run the IOPS loop's operator choice):
 * the IOPS test's, an unverified reading (the profile's description says so).
 */
static const unsigned toio[PTS_TEST_COUNT][2][2] = {
	[PTS_TEST_IOPS] = {[PTS_ENTERPRISE] = {4, 32}, [PTS_CLIENT] = {2, 16}},
	[PTS_TEST_LATENCY] = {[PTS_ENTERPRISE] = {1, 1}, [PTS_CLIENT] = {1, 1}},
	[PTS_TEST_DIRTH] = {[PTS_ENTERPRISE] = {32, 32}, [PTS_CLIENT] = {32, 32}},
	[PTS_TEST_HIR] = {[PTS_ENTERPRISE] = {4, 32}, [PTS_CLIENT] = {2, 16}},
};
/* ActiveRange when not given: PTS-E 100%, PTS-C 75% (LJ vars/PTS-C.yml, reference [I]). */
static const double active_range_default[2] = {[PTS_ENTERPRISE] = 1.0, [PTS_CLIENT] = 0.75};

struct pts_raw {
	int test;
	const char *spec;
	int variant;
	double active_range;
	uint64_t amount;
	unsigned segments;
	int pattern;
	bool fast;
};

enum { K_TEST, K_SPEC, K_VARIANT, K_AR, K_AMOUNT, K_SEGMENTS, K_PATTERN, K_FAST };

/* clang-format off */
static const struct ydoc_key pts_keys[] = {
	[K_TEST] = {.name = "test", .kind = YK_ENUM, .required = true,
		    .offset = offsetof(struct pts_raw, test), .enum_names = test_names},
	[K_SPEC] = {.name = "spec", .kind = YK_STRING, .required = true,
		    .offset = offsetof(struct pts_raw, spec)},
	[K_VARIANT] = {.name = "variant", .kind = YK_ENUM,
		       .offset = offsetof(struct pts_raw, variant), .enum_names = variant_names},
	[K_AR] = {.name = "active_range", .kind = YK_PERCENT, .bounded = true, .min = 0.001,
		  .max = 1, .offset = offsetof(struct pts_raw, active_range)},
	[K_AMOUNT] = {.name = "active_range_amount", .kind = YK_SIZE, .bounded = true,
		      .min = 1 << 20, .max = 1e18, .align = 512,
		      .offset = offsetof(struct pts_raw, amount)},
	[K_SEGMENTS] = {.name = "segments", .kind = YK_UINT, .bounded = true, .min = 1,
			.max = 1 << 20, .offset = offsetof(struct pts_raw, segments)},
	[K_PATTERN] = {.name = "data_pattern", .kind = YK_ENUM,
		       .offset = offsetof(struct pts_raw, pattern), .enum_names = pattern_names},
	[K_FAST] = {.name = "fast", .kind = YK_BOOL, .offset = offsetof(struct pts_raw, fast)},
	{0},
};
/* clang-format on */

const char *pts_test_name(enum pts_test t)
{
	return (unsigned)t < PTS_TEST_COUNT ? test_names[t] : "?";
}

const char *pts_variant_name(enum pts_variant v)
{
	return (unsigned)v < 2 ? variant_names[v] : "?";
}

/* Whether a phase item's `pts_variant:` (a variant name or a list of them) includes v. */
static int condition_holds(const struct ydoc_node *n, enum pts_variant v, bool *holds,
			   struct ydoc_error *err)
{
	static const struct ydoc_key key = {.name = "pts_variant",
					    .kind = YK_ENUM,
					    .enum_names = variant_names};
	size_t count = n->type == YDOC_SEQUENCE ? n->n : 1;

	if (n->type == YDOC_MAPPING || !count)
		return ydoc_errorf(err, n,
				   "pts_variant: expected enterprise, client or a list of them");
	*holds = false;
	for (size_t i = 0; i < count; i++) {
		int x;
		int ret = ydoc_convert(n->type == YDOC_SEQUENCE ? n->items[i] : n, &key, &x, err);

		if (ret)
			return ret;
		if (x == (int)v)
			*holds = true;
	}
	return 0;
}

/* Drops the top-level phase items the variant does not run (has false: no pts block, where a
 * pts_variant is an error). */
static int filter_phases(struct ydoc_node *phases, bool has, enum pts_variant v,
			 struct ydoc_error *err)
{
	size_t kept = 0;
	const struct ydoc_node *last = NULL;

	if (!phases || phases->type != YDOC_SEQUENCE)
		return 0; /* the profile's own parse says what is wrong */
	for (size_t i = 0; i < phases->n;) {
		struct ydoc_node *item = phases->items[i];
		struct ydoc_node *cond = ydoc_map_get(item, "pts_variant");
		bool holds = true;
		int ret;

		if (!cond) {
			i++, kept++;
			continue;
		}
		if (!has)
			return ydoc_errorf(err, ydoc_map_key(item, "pts_variant"),
					   "pts_variant needs a top-level pts: block (its variant "
					   "decides whether the phase runs)");
		ret = condition_holds(cond, v, &holds, err);
		if (ret)
			return ret;
		last = item;
		if (holds) {
			ret = ydoc_map_remove(item, "pts_variant");
			if (ret)
				return ret;
			i++, kept++;
		} else {
			ret = ydoc_seq_remove(phases, i);
			if (ret)
				return ret;
		}
	}
	if (!kept && last)
		return ydoc_errorf(err, phases,
				   "no phase runs for pts variant %s (every one has a pts_variant "
				   "without it)",
				   pts_variant_name(v));
	return 0;
}

int pts_prepare(struct ydoc *doc, struct profile_pts *out, struct ydoc_error *err)
{
	struct pts_raw raw = {.segments = PTS_SEGMENTS_DEFAULT};
	const struct ydoc_node *n;
	struct profile_pts p = {0};
	uint64_t present = 0;
	int ret;

	if (!doc->root || doc->root->type != YDOC_MAPPING) {
		*out = p;
		return 0; /* the profile's own parse says what is wrong */
	}
	n = ydoc_map_get(doc->root, "pts");
	if (!n) {
		ret = filter_phases(ydoc_map_get(doc->root, "phases"), false, PTS_ENTERPRISE, err);
		if (!ret)
			*out = p;
		return ret;
	}
	ret = ydoc_map_read(n, "pts", pts_keys, &raw, &present, err);
	if (ret)
		return ret;
	if (strlen(raw.spec) >= sizeof(p.spec) || !*raw.spec)
		return ydoc_errorf(err, ydoc_map_get(n, "spec"),
				   "spec: expected the version followed in 1 to %zu characters, "
				   "such as \"PTS-E 1.1\"",
				   sizeof(p.spec) - 1);
	/* ECW is a PTS-E test (E11's Enterprise Composite Workload; the reference knows no PTS-C
	 * counterpart): a client variant would be invented, so it is refused. */
	if (raw.test == PTS_TEST_ECW && raw.variant == PTS_CLIENT)
		return ydoc_errorf(err, ydoc_map_get(n, "variant"),
				   "test ecw is Enterprise only (PTS-E's composite workload has no "
				   "PTS-C counterpart): expected variant: enterprise");
	p.set = true;
	p.test = (enum pts_test)raw.test;
	snprintf(p.spec, sizeof(p.spec), "%s", raw.spec);
	p.variant = (enum pts_variant)raw.variant;
	p.active_range =
	    present & (1u << K_AR) ? raw.active_range : active_range_default[p.variant];
	p.amount = present & (1u << K_AMOUNT) ? raw.amount : 0;
	p.segments = raw.segments;
	p.fast = raw.fast;
	/* The fast shape (a tracking phase, then the measured rounds over a fixed count) exists for
	 * the tests whose steady state is random writes' (docs/profiles.md says why not the others). */
	if (p.fast && p.test != PTS_TEST_IOPS && p.test != PTS_TEST_LATENCY)
		return ydoc_errorf(err, ydoc_map_get(n, "fast"),
				   "fast: only the iops and latency tests have a fast variant "
				   "(throughput's steady state is sequential, WSAT's curve is the "
				   "point)");
	if ((present & (1u << K_SEGMENTS)) && !p.amount)
		return ydoc_errorf(err, ydoc_map_key(n, "segments"),
				   "segments divide the active_range_amount: give one too");
	p.write_cache_on = p.variant == PTS_CLIENT;
	p.settings = (struct phase_pts_settings){
	    .measured_threads = toio[p.test][p.variant][0],
	    .measured_qd = toio[p.test][p.variant][1],
	    .active_range = p.active_range,
	    .amount = p.amount,
	    .segments = p.amount ? p.segments : 0,
	};
	ret = filter_phases(ydoc_map_get(doc->root, "phases"), true, p.variant, err);
	if (ret)
		return ret;
	*out = p;
	return 0;
}

struct json_object *pts_to_json(const struct profile_pts *pts)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (jsonnum_add(o, "test", json_object_new_string(pts_test_name(pts->test))) ||
	    jsonnum_add(o, "spec", json_object_new_string(pts->spec)) ||
	    jsonnum_add(o, "variant", json_object_new_string(pts_variant_name(pts->variant))) ||
	    jsonnum_add(o, "active_range", jsonnum_new(pts->active_range)) ||
	    jsonnum_add(o, "active_range_amount",
			pts->amount ? json_object_new_uint64(pts->amount) : NULL) ||
	    jsonnum_add(o, "segments",
			pts->amount ? json_object_new_int((int)pts->segments) : NULL) ||
	    jsonnum_add(o, "data_pattern", json_object_new_string(pattern_names[0])) ||
	    jsonnum_add(o, "fast", json_object_new_boolean(pts->fast))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
