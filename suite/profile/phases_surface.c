/* SPDX-License-Identifier: MIT */
/*
 * phases_surface: the surface kind (phases.h), a full-range sequential read (or, destructive,
 * write) in fixed-size chunks, the zcav / HD Tune scan that engine/surface.h runs:
 *
 *   - surface: {rw: read, chunk: 256m, bs: 128k, qd: 1, max_error_lbas: 1000, slow_below: 50%}
 *
 * (the defaults: 128 KiB at QD 1, as HD Tune reads, so that a read that has to go to the flash
 * shows against one the controller answers from its map; at QD 4 of 1 MiB a SATA drive
 * saturates its link either way)
 *
 * rw read (the default) leaves the data alone; rw write overwrites every LBA and makes the
 * profile destructive. chunk must be a multiple of bs, bs a multiple of 512 (the target's
 * logical block size is checked when the scan starts). slow_below is the analysis's threshold
 * of a slow chunk as a fraction of the median speed (analysis/surface.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "base/units.h"
#include "profile/phases.h"

static const char *const surface_rw_names[] = {"read", "write", NULL};

struct surface_raw {
	int rw;
	uint64_t chunk, bs;
	unsigned qd, max_error_lbas;
	double slow_below;
};

/* clang-format off */
static const struct ydoc_key surface_keys[] = {
	{.name = "rw", .kind = YK_ENUM, .offset = offsetof(struct surface_raw, rw),
	 .enum_names = surface_rw_names},
	{.name = "chunk", .kind = YK_SIZE, .offset = offsetof(struct surface_raw, chunk), .align = 512},
	{.name = "bs", .kind = YK_SIZE, .offset = offsetof(struct surface_raw, bs), .align = 512},
	{.name = "qd", .kind = YK_UINT, .offset = offsetof(struct surface_raw, qd),
	 .bounded = true, .min = 1, .max = 256},
	{.name = "max_error_lbas", .kind = YK_UINT,
	 .offset = offsetof(struct surface_raw, max_error_lbas), .bounded = true, .min = 0,
	 .max = 1000000},
	{.name = "slow_below", .kind = YK_PERCENT, .offset = offsetof(struct surface_raw, slow_below)},
	{0},
};
/* clang-format on */

static int surface_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
			 struct ydoc_error *err)
{
	struct surface_raw raw = {.rw = 0,
				  .chunk = PHASE_SURFACE_CHUNK_DEFAULT,
				  .bs = PHASE_SURFACE_BS_DEFAULT,
				  .qd = PHASE_SURFACE_QD_DEFAULT,
				  .max_error_lbas = PHASE_SURFACE_MAX_LBAS_DEFAULT,
				  .slow_below = 0.5};
	struct phase_surface *p = data;
	int ret;

	(void)ctx;
	/* "- surface" alone reads with the defaults */
	if (n->type == YDOC_SCALAR && !n->quoted && !*n->text)
		goto done;
	ret = ydoc_map_read(n, "surface", surface_keys, &raw, NULL, err);
	if (ret)
		return ret;
	if (!raw.chunk || !raw.bs || raw.chunk % raw.bs || raw.bs > (1u << 30))
		return ydoc_errorf(
		    err, n, "surface: chunk must be a non-zero multiple of bs (bs up to 1g)");
	if (!(raw.slow_below > 0 && raw.slow_below <= 1))
		return ydoc_errorf(err, n, "surface: slow_below must be in (0%%, 100%%]");
done:
	*p = (struct phase_surface){.write = raw.rw == 1,
				    .chunk = raw.chunk,
				    .bs = (uint32_t)raw.bs,
				    .qd = raw.qd,
				    .max_error_lbas = raw.max_error_lbas,
				    .slow_below = raw.slow_below};
	return 0;
}

static bool surface_destructive(const void *data)
{
	return ((const struct phase_surface *)data)->write;
}

static struct json_object *surface_json(const void *data)
{
	const struct phase_surface *p = data;
	struct json_object *o = json_object_new_object();
	bool bad = false;

	if (!o)
		return NULL;
	bad |= phase_json_add(o, "rw", json_object_new_string(p->write ? "write" : "read"));
	bad |= phase_json_add(o, "chunk_bytes", json_object_new_uint64(p->chunk));
	bad |= phase_json_add(o, "bs", json_object_new_uint64(p->bs));
	bad |= phase_json_add(o, "qd", json_object_new_uint64(p->qd));
	bad |= phase_json_add(o, "max_error_lbas", json_object_new_uint64(p->max_error_lbas));
	bad |= phase_json_add(o, "slow_below", jsonnum_new(p->slow_below));
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void surface_describe(const void *data, char *buf, size_t len)
{
	const struct phase_surface *p = data;
	char c[32], b[32];

	snprintf(buf, len, "surface %s scan, %s chunks of %s I/Os at qd %u",
		 p->write ? "write" : "read", units_fmt_size(p->chunk, c, sizeof(c)),
		 units_fmt_size(p->bs, b, sizeof(b)), p->qd);
}

static int surface_bytes(const void *data, uint64_t capacity, uint64_t *bytes)
{
	*bytes = ((const struct phase_surface *)data)->write ? capacity : 0;
	return 0;
}

/* One pass over the capacity, read or written: its time depends on the device's speed. */
static void surface_length(const void *data, const struct phase_env *env, struct phase_length *l)
{
	(void)data;
	phase_one_instance(l);
	l->bytes = env->capacity;
}

/* The scan as a workload, for the planner's speed probe: one sequential pass of bs at qd. */
static int surface_jobs(const void *data, struct phase_job **jobs, size_t *n)
{
	const struct phase_surface *p = data;
	struct phase_job *j = calloc(1, sizeof(*j));

	if (!j)
		return -ENOMEM;
	j->w.spec.rw = p->write ? RW_WRITE : RW_READ;
	j->w.spec.bs[0] = (struct bs_split){.bs = p->bs, .weight = 1};
	j->w.spec.nbs = 1;
	j->w.spec.qd = p->qd;
	j->w.spec.threads = 1;
	j->w.range = (struct range){.percent = true, .lo = 0, .hi = 1};
	j->w.length = (struct amount){.kind = AMOUNT_NONE};
	snprintf(j->key, sizeof(j->key), "surface");
	*jobs = j;
	*n = 1;
	return 0;
}

/* clang-format off */
const struct phase_kind phase_surface_kind = {
	.name = "surface",
	.type = PHASE_SURFACE,
	.size = sizeof(struct phase_surface),
	.parse = surface_parse,
	.destructive = surface_destructive,
	.to_json = surface_json,
	.describe = surface_describe,
	.bytes = surface_bytes,
	.length = surface_length,
	.jobs = surface_jobs,
};
/* clang-format on */
