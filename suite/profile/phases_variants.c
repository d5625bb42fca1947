/* SPDX-License-Identifier: MIT */
/*
 * phases_variants: the `variants` phase kind (phases.h): a phase list run once per user-capacity
 * fraction, the over-provisioning experiment ("turn 256 GB into 200 GB plus spare and test
 * again"). This file only parses and describes it; run/variants.c shrinks and restores the
 * capacity, the runner walks the body once per fraction like a repeat's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "profile/phases.h"

static const char *const variant_methods[] = {"auto", "sim", "trim-tail", "hpa", "namespace", NULL};

const char *phase_variant_method_name(enum variant_method m)
{
	return (unsigned)m < sizeof(variant_methods) / sizeof(variant_methods[0]) - 1
		   ? variant_methods[m]
		   : "?";
}

struct variants_raw {
	int method;
	const struct ydoc_node *fractions;
	const struct ydoc_node *phases;
};

/* clang-format off */
static const struct ydoc_key variants_keys[] = {
	{.name = "method", .kind = YK_ENUM, .offset = offsetof(struct variants_raw, method),
	 .enum_names = variant_methods},
	{.name = "fractions", .kind = YK_SEQUENCE,
	 .offset = offsetof(struct variants_raw, fractions)},
	{.name = "phases", .kind = YK_ANY, .required = true,
	 .offset = offsetof(struct variants_raw, phases)},
	{0},
};
/* A fraction of the visible capacity: more than none, at most all of it. */
static const struct ydoc_key fraction_key = {
	.name = "fractions", .kind = YK_PERCENT, .bounded = true, .min = 0.01, .max = 1.0,
};
/* clang-format on */

/* The default: the whole device, then 1/8 and 1/4 of it left unused. */
static const double default_fractions[] = {1.0, 0.875, 0.75};

static int variants_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
			  struct ydoc_error *err)
{
	struct phase_variants *p = data;
	struct variants_raw raw = {0};
	struct phase_parse_ctx inner = *ctx;
	double f[PHASE_MAX_VARIANTS];
	unsigned nf = 0;
	int ret = ydoc_map_read(n, "variants", variants_keys, &raw, NULL, err);

	if (ret)
		return ret;
	if (raw.fractions) {
		if (raw.fractions->n == 0 || raw.fractions->n > PHASE_MAX_VARIANTS)
			return ydoc_errorf(err, raw.fractions,
					   "variants.fractions: 1 to %d fractions expected",
					   PHASE_MAX_VARIANTS);
		for (size_t i = 0; i < raw.fractions->n; i++) {
			ret = ydoc_convert(raw.fractions->items[i], &fraction_key, &f[nf], err);
			if (ret)
				return ret;
			nf++;
		}
	} else {
		memcpy(f, default_fractions, sizeof(default_fractions));
		nf = sizeof(default_fractions) / sizeof(default_fractions[0]);
	}
	if (ctx->depth + 1 >= PROFILE_MAX_DEPTH)
		return ydoc_errorf(err, n, "variants nested more than %d deep",
				   PROFILE_MAX_DEPTH - 1);
	inner.depth = ctx->depth + 1;
	ret = profile_parse_phase_list(raw.phases, "variants.phases", &inner, &p->phases, err);
	if (ret)
		return ret;
	p->method = (enum variant_method)raw.method;
	p->n = nf;
	memcpy(p->fraction, f, nf * sizeof(f[0]));
	return 0;
}

static void variants_release(void *data)
{
	phase_list_release(&((struct phase_variants *)data)->phases);
}

static bool variants_destructive(const void *data)
{
	(void)data;
	/* it changes the visible capacity or discards the tail, whatever its body does */
	return true;
}

static struct json_object *variants_json(const void *data)
{
	const struct phase_variants *p = data;
	struct json_object *o = json_object_new_object(), *a = json_object_new_array();
	bool bad = !a;

	if (!o) {
		json_object_put(a);
		return NULL;
	}
	for (unsigned i = 0; a && i < p->n && !bad; i++)
		bad |= phase_json_append(a, jsonnum_new(p->fraction[i])) != 0;
	bad |= phase_json_add(o, "method",
			      json_object_new_string(phase_variant_method_name(p->method)));
	bad |= phase_json_add(o, "fractions", a);
	bad |= phase_json_add(o, "phases", profile_phase_list_to_json(&p->phases));
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void variants_describe(const void *data, char *buf, size_t len)
{
	const struct phase_variants *p = data;
	size_t l =
	    (size_t)snprintf(buf, len, "variants (%s) at", phase_variant_method_name(p->method));

	for (unsigned i = 0; i < p->n && l < len; i++)
		l += (size_t)snprintf(buf + l, len - l, "%s %.4g%%", i ? "," : "",
				      p->fraction[i] * 100.0);
	if (l < len)
		snprintf(buf + l, len - l, " of the capacity");
}

static int variants_bytes(const void *data, uint64_t capacity, uint64_t *bytes)
{
	const struct phase_variants *p = data;
	uint64_t sum = 0;
	int ret = 0;

	/* each variant's body on its own share of the capacity */
	for (unsigned i = 0; i < p->n; i++) {
		uint64_t b = 0;
		int r =
		    profile_phase_list_bytes(&p->phases, (uint64_t)(capacity * p->fraction[i]), &b);

		if (r && r != -ENODATA)
			return r;
		if (r)
			ret = r;
		sum = sum + b < sum ? UINT64_MAX : sum + b;
	}
	*bytes = sum;
	return ret;
}

static const struct phase_list *variants_body(const void *data, unsigned *count)
{
	const struct phase_variants *p = data;

	*count = p->n;
	return &p->phases;
}

/* clang-format off */
const struct phase_kind phase_variants_kind = {
	.name = "variants",
	.type = PHASE_VARIANTS,
	.size = sizeof(struct phase_variants),
	.parse = variants_parse,
	.release = variants_release,
	.destructive = variants_destructive,
	.to_json = variants_json,
	.describe = variants_describe,
	.bytes = variants_bytes,
	.body = variants_body,
};
/* clang-format on */
