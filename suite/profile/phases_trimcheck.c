/* SPDX-License-Identifier: MIT */
/*
 * phases_trimcheck: the trim_check kind's row of the registry (phases.h). The check itself
 * (write a pattern, discard aligned and unaligned ranges, verify every neighbour) is
 * targets/trimcheck.h; the runner executes it as one step and records its result.
 */
#include <errno.h>
#include <stdio.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "profile/phases.h"

/* clang-format off */
static const struct ydoc_key trimcheck_keys[] = {
	{.name = "latency_samples", .kind = YK_UINT,
	 .offset = offsetof(struct phase_trim_check, latency_samples), .bounded = true, .min = 1,
	 .max = 4096},
	{.name = "fresh", .kind = YK_AMOUNT, .offset = offsetof(struct phase_trim_check, fresh),
	 .align = 1024 * 1024},
	{.name = "fresh_time", .kind = YK_DURATION,
	 .offset = offsetof(struct phase_trim_check, fresh_time_ns)},
	{0},
};
/* clang-format on */

static int trimcheck_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
			   struct ydoc_error *err)
{
	struct phase_trim_check p = {.latency_samples = 32, .fresh_time_ns = 10000000000ull};
	int ret = ydoc_map_read(n, "trim_check", trimcheck_keys, &p, NULL, err);

	(void)ctx;
	if (ret)
		return ret;
	if (p.fresh.kind == AMOUNT_TIME || !p.fresh_time_ns) {
		return ydoc_errorf(
		    err, n,
		    "trim_check: fresh is a size or a capacity multiple (\"256MiB\", "
		    "\"0.5x\") and fresh_time longer than 0");
	}
	*(struct phase_trim_check *)data = p;
	return 0;
}

/* It writes its region and discards in it. */
static bool trimcheck_destructive(const void *data)
{
	(void)data;
	return true;
}

static struct json_object *trimcheck_json(const void *data)
{
	const struct phase_trim_check *p = data;
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (phase_json_add(o, "latency_samples", json_object_new_uint64(p->latency_samples)) ||
	    (p->fresh.kind != AMOUNT_NONE &&
	     (phase_json_add(o, "fresh_bytes", json_object_new_uint64(p->fresh.bytes)) ||
	      phase_json_add(o, "fresh_multiple", json_object_new_double(p->fresh.multiple)) ||
	      phase_json_add(o, "fresh_time_ns", json_object_new_uint64(p->fresh_time_ns))))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void trimcheck_describe(const void *data, char *buf, size_t len)
{
	const struct phase_trim_check *p = data;
	char a[32];

	snprintf(buf, len, "trim check (pattern, discard aligned and unaligned ranges, verify)%s%s",
		 p->fresh.kind != AMOUNT_NONE ? ", 4k random writes before and after discarding "
					      : "",
		 p->fresh.kind != AMOUNT_NONE ? phase_amount_text(&p->fresh, a, sizeof(a)) : "");
}

static void trimcheck_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	const struct phase_trim_check *p = data;

	phase_one_instance(l); /* the check: under a megabyte of I/O, no time of its own */
	if (p->fresh.kind != AMOUNT_NONE) /* the fresh measurement: two timed jobs */
		l->ns += 2 * phase_scale_ns(env, p->fresh_time_ns);
}

/* clang-format off */
const struct phase_kind phase_trim_check_kind = {
	.name = "trim_check",
	.type = PHASE_TRIM_CHECK,
	.size = sizeof(struct phase_trim_check),
	.parse = trimcheck_parse,
	.destructive = trimcheck_destructive,
	.to_json = trimcheck_json,
	.describe = trimcheck_describe,
	.length = trimcheck_length,
};
/* clang-format on */
