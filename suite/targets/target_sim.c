/* SPDX-License-Identifier: MIT */
/*
 * target_sim: the "sim:MODEL" target, the virtual SSD behind the target ops of target.h.
 * It owns the virtual clock: submit() hands each I/O to the FTL simulator (sim.h) at the
 * current clock, which answers with its completion time at once; the completion waits in a
 * per-queue min-heap until reap() returns it and moves the clock to it. So the engine's loop is
 * the same as for a real device, and latency = done_ns - submit_ns is exact in simulated time.
 * Data buffers are ignored (no TARGET_CAP_NEEDS_DATA).
 */
#include "targets/target.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "sim/sim.h"
#include "sim/sim_model.h"
#include "base/jsonnum.h"
#include "results/snapshot.h"

struct sim_target {
	struct sim_model model;
	struct sim_ssd *ssd;
	uint64_t clock;
};

struct pending {
	uint64_t done, seq, user;
	int32_t res;
};

struct target_queue {
	struct target *t;
	struct sim_target *st;
	struct pending *heap; /* min-heap by (done, seq): equal times complete in submission order */
	unsigned n, cap;
	uint64_t seq;
};

static bool before(const struct pending *a, const struct pending *b)
{
	return a->done < b->done || (a->done == b->done && a->seq < b->seq);
}

static void heap_push(struct target_queue *q, const struct pending *p)
{
	unsigned i = q->n++;

	while (i && before(p, &q->heap[(i - 1) / 2])) {
		q->heap[i] = q->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->heap[i] = *p;
}

static struct pending heap_pop(struct target_queue *q)
{
	struct pending top = q->heap[0], last = q->heap[--q->n];
	unsigned i = 0;

	for (;;) {
		unsigned c = 2 * i + 1;

		if (c >= q->n)
			break;
		if (c + 1 < q->n && before(&q->heap[c + 1], &q->heap[c]))
			c++;
		if (!before(&q->heap[c], &last))
			break;
		q->heap[i] = q->heap[c];
		i = c;
	}
	if (q->n)
		q->heap[i] = last;
	return top;
}

static struct sim_target *st_of(struct target *t)
{
	return target_priv(t);
}

static int sim_open(struct target *t, const char *spec, const struct target_open_opts *o)
{
	struct target_info *ti = target_info_mut(t);
	struct sim_target *st;
	struct target_spec ts;
	struct ydoc_error e;
	char buf[1024];
	int ret;

	st = calloc(1, sizeof(*st));
	if (!st)
		return -ENOMEM;
	target_spec_parse(spec, &ts);
	ret = sim_model_load(ts.arg, o->models_dir, &st->model, &e);
	if (ret) {
		target_set_error(t, "%s", ydoc_error_format(&e, buf, sizeof(buf)));
		free(st);
		return ret;
	}
	st->model.cfg.seed = o->seed;
	if (o->time_scale > 0)
		st->model.cfg.time_scale = o->time_scale;
	else if (!(st->model.cfg.time_scale > 0))
		st->model.cfg.time_scale = sim_model_time_scale(&st->model);
	ret = sim_create(&st->model.cfg, &st->ssd);
	if (ret) {
		target_set_error(t, "%s: cannot create the virtual SSD: %s", spec, strerror(-ret));
		free(st);
		return ret;
	}
	ti->kind = TARGET_KIND_SIM;
	snprintf(ti->clock, sizeof(ti->clock), "virtual");
	snprintf(ti->safe_name, sizeof(ti->safe_name), "sim-%s", st->model.name);
	snprintf(ti->model, sizeof(ti->model), "%s", st->model.name);
	snprintf(ti->serial, sizeof(ti->serial), "sim-seed-%llu", (unsigned long long)o->seed);
	snprintf(ti->firmware, sizeof(ti->firmware), "ssdlab-sim");
	ti->capacity = sim_capacity(st->ssd);
	ti->logical_block_size = st->model.cfg.logical_block_size;
	ti->physical_block_size = st->model.cfg.mapping_unit;
	ti->rotational = false;
	snprintf(ti->scheduler, sizeof(ti->scheduler), "none");
	ti->nomerges = -1;
	ti->hw_queue_depth = 0;
	ti->created_by_ssdlab = true; /* nothing real is at stake */
	ti->time_scale = st->model.cfg.time_scale;
	/* as sim.c applies it: the model's delay is in the real drive's time */
	ti->idle_gc_delay_ns =
	    st->model.cfg.idle_gc.enabled
		? (uint64_t)((double)st->model.cfg.idle_gc.delay * st->model.cfg.time_scale)
		: 0;
	ti->nand_bytes = sim_config_physical_blocks(&st->model.cfg) *
			 (uint64_t)st->model.cfg.page_size * st->model.cfg.pages_per_block;
	ti->gc_space_bytes = sim_config_gc_space_bytes(&st->model.cfg);
	ti->slc_known = true;
	ti->slc_cache_bytes = st->model.cfg.slc.size;
	snprintf(ti->gc_policy, sizeof(ti->gc_policy), "%s",
		 sim_gc_policy_name(st->model.cfg.gc_policy));
	ti->slc_static = st->model.cfg.slc.size && !st->model.cfg.slc.dynamic;
	ti->slc_dynamic_no_plp = st->model.cfg.slc.size && st->model.cfg.slc.dynamic &&
				 !st->model.cfg.power_loss_protection;
	ti->write_cache_at_open = sim_write_cache(st->ssd);
	ti->blocks_per_die = (double)sim_config_physical_blocks(&st->model.cfg) /
			     sim_config_dies(&st->model.cfg);
	/* The clock starts at 1 ns, not 0: the engine reads a start time of 0 as "not known yet"
	 * (a real device's CLOCK_MONOTONIC is never 0). */
	st->clock = 1;
	sim_advance(st->ssd, st->clock);
	target_set_priv(t, st);
	return 0;
}

static void sim_close(struct target *t)
{
	struct sim_target *st = st_of(t);

	if (!st)
		return;
	sim_free(st->ssd);
	free(st);
	target_set_priv(t, NULL);
}

static int sim_queue_open(struct target *t, const struct target_queue_opts *o,
			  struct target_queue **out)
{
	struct target_queue *q;

	if (!o->depth) {
		target_set_error(t, "queue depth must be at least 1");
		return -EINVAL;
	}
	q = calloc(1, sizeof(*q));
	if (!q)
		return -ENOMEM;
	q->heap = calloc(o->depth, sizeof(*q->heap));
	if (!q->heap) {
		free(q);
		return -ENOMEM;
	}
	q->t = t;
	q->st = st_of(t);
	q->cap = o->depth;
	*out = q;
	return 0;
}

static void sim_queue_close(struct target_queue *q)
{
	if (!q)
		return;
	free(q->heap);
	free(q);
}

static int sim_submit(struct target_queue *q, struct target_io *ios, unsigned n)
{
	struct sim_target *st = q->st;

	if (n > q->cap - q->n)
		return -EBUSY;
	/* hint the maps a few I/Os ahead: on a big model their cache misses then overlap */
	for (unsigned i = 0; i < n && i < 4; i++)
		sim_prefetch(st->ssd, ios[i].offset, false);
	for (unsigned i = 0; i < n; i++) {
		struct pending p = {.done = st->clock, .seq = q->seq++, .user = ios[i].user};
		int ret;

		if (i + 4 < n)
			sim_prefetch(st->ssd, ios[i + 4].offset, false);
		if (i + 2 < n)
			sim_prefetch(st->ssd, ios[i + 2].offset, true);

		if (ios[i].dir == IO_WRITE)
			ret = sim_write(st->ssd, ios[i].offset, ios[i].len, st->clock, &p.done);
		else
			ret = sim_read(st->ssd, ios[i].offset, ios[i].len, st->clock, &p.done);
		p.res = ret ? ret : (int32_t)ios[i].len;
		heap_push(q, &p);
	}
	return (int)n;
}

static int sim_reap(struct target_queue *q, struct target_completion *c, unsigned min,
		    unsigned max)
{
	struct sim_target *st = q->st;
	unsigned got = 0;

	/* return the earliest completions: at least min (as many as are pending), then whatever is
	 * already done at the clock */
	while (got < max && q->n && (got < min || q->heap[0].done <= st->clock)) {
		struct pending p = heap_pop(q);

		if (p.done > st->clock) {
			st->clock = p.done;
			sim_advance(st->ssd, st->clock);
		}
		c[got].user = p.user;
		c[got].res = p.res;
		c[got].done_ns = p.done;
		got++;
	}
	return (int)got;
}

static uint64_t sim_now_hook(struct target *t)
{
	return st_of(t)->clock;
}

static int sim_idle(struct target *t, uint64_t ns)
{
	struct sim_target *st = st_of(t);

	st->clock += ns;
	sim_advance(st->ssd, st->clock);
	return 0;
}

/* A synchronous command in virtual time: the clock moves to its completion. */
static void clock_to(struct sim_target *st, uint64_t done)
{
	if (done > st->clock) {
		st->clock = done;
		sim_advance(st->ssd, st->clock);
	}
}

static int sim_flush_hook(struct target *t)
{
	struct sim_target *st = st_of(t);
	uint64_t done;
	int ret = sim_flush(st->ssd, st->clock, &done);

	if (!ret)
		clock_to(st, done);
	return ret;
}

static int sim_set_write_cache_hook(struct target *t, bool on)
{
	struct sim_target *st = st_of(t);
	uint64_t done;
	int ret = sim_set_write_cache(st->ssd, on, st->clock, &done);

	if (!ret)
		clock_to(st, done);
	return ret;
}

static int sim_discard_hook(struct target *t, uint64_t offset, uint64_t len)
{
	return sim_discard(st_of(t)->ssd, offset, len);
}

static int sim_purge_hook(struct target *t, char *method, size_t len)
{
	sim_purge(st_of(t)->ssd);
	if (method && len)
		snprintf(method, len, "sim-reset");
	return 0;
}

static int sim_set_capacity_hook(struct target *t, uint64_t bytes)
{
	struct sim_target *st = st_of(t);
	int ret = sim_set_capacity(st->ssd, bytes);

	if (ret)
		target_set_error(t, "capacity must be a multiple of %u bytes between %u and %llu",
				 st->model.cfg.mapping_unit, st->model.cfg.mapping_unit,
				 (unsigned long long)st->model.cfg.user_capacity);
	else
		target_info_mut(t)->capacity = bytes;
	return ret;
}

/* The model as it was run, for a later reader of the snapshot; NULL when out of memory. */
static struct json_object *raw_model(const struct sim_target *st, const struct sim_counters *k)
{
	const struct sim_config *c = &st->model.cfg;
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (jsonnum_add(o, "model", json_object_new_string(st->model.name)) ||
	    jsonnum_add(o, "model_file", json_object_new_string(st->model.path)) ||
	    jsonnum_add(o, "user_capacity", json_object_new_int64((int64_t)c->user_capacity)) ||
	    jsonnum_add(o, "represents", json_object_new_int64((int64_t)c->represents)) ||
	    jsonnum_add(o, "time_scale", jsonnum_new(c->time_scale)) ||
	    jsonnum_add(o, "spare_factor", jsonnum_new(sim_model_spare_factor(&st->model))) ||
	    jsonnum_add(o, "op", jsonnum_new(sim_model_op(&st->model))) ||
	    jsonnum_add(o, "write_cache", json_object_new_boolean(sim_write_cache(st->ssd))) ||
	    jsonnum_add(o, "power_loss_protection",
			json_object_new_boolean(c->power_loss_protection)) ||
	    jsonnum_add(o, "gc_policy", json_object_new_string(sim_gc_policy_name(c->gc_policy))) ||
	    jsonnum_add(o, "physical_blocks", json_object_new_int64((int64_t)k->physical_blocks)) ||
	    /* what the greedy WA model needs (analysis/theory.h; the op-variants pass) */
	    jsonnum_add(o, "capacity", json_object_new_int64((int64_t)sim_capacity(st->ssd))) ||
	    jsonnum_add(o, "block_bytes",
			json_object_new_int64((int64_t)c->page_size * c->pages_per_block)) ||
	    jsonnum_add(o, "mapping_unit", json_object_new_int64((int64_t)c->mapping_unit)) ||
	    jsonnum_add(o, "gc_reserve_blocks",
			json_object_new_int64((int64_t)sim_config_watermark(c))) ||
	    /* the TLC frontier's open blocks, one per die (sim.c): half written on average, so
	     * about half of them is neither data nor spare (the op-variants pass's effective
	     * spare, docs/op-variants.md) */
	    jsonnum_add(o, "open_blocks",
			json_object_new_int64((int64_t)c->channels * c->dies_per_channel)) ||
	    jsonnum_add(o, "slc_cache_bytes", json_object_new_int64((int64_t)c->slc.size)) ||
	    /* with the write cache off and no power-loss protection, a dynamic cache gives each
	     * cell two states (analysis/pass_snia_fast.c, docs/fast-steady-state.md) */
	    jsonnum_add(o, "slc_dynamic", json_object_new_boolean(c->slc.size && c->slc.dynamic)) ||
	    jsonnum_add(o, "seed", json_object_new_int64((int64_t)c->seed))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static int sim_snapshot(struct target *t, struct snapshot *s)
{
	struct sim_target *st = st_of(t);
	struct sim_counters k;
	static const char B[] = "bytes", N[] = "count";
	int ret;

	sim_get_counters(st->ssd, &k);
	{
		const struct {
			const char *name, *unit;
			double v;
		} c[] = {
			{"host_bytes_written", B, (double)k.host_bytes_written},
			{"host_bytes_read", B, (double)k.host_bytes_read},
			{"nand_bytes_written", B, (double)k.nand_bytes_written},
			{"nand_bytes_written_host", B, (double)k.nand_bytes_written_host},
			{"nand_bytes_written_gc", B, (double)k.nand_bytes_written_gc},
			{"nand_bytes_written_fold", B, (double)k.nand_bytes_written_fold},
			{"nand_bytes_written_pad", B, (double)k.nand_bytes_written_pad},
			{"nand_bytes_read", B, (double)k.nand_bytes_read},
			{"erase_count_min", N, k.erase_count_min},
			{"erase_count_mean", N, k.erase_count_mean},
			{"erase_count_max", N, k.erase_count_max},
			{"gc_runs", N, (double)k.gc_runs},
			{"idle_gc_runs", N, (double)k.idle_gc_runs},
			{"slc_folds", N, (double)k.folds},
			{"power_on_ns", "ns", (double)st->clock},
			{"slc_cache_used_bytes", B, (double)k.slc_cache_used_bytes},
			{"slc_cache_limit_bytes", B, (double)k.slc_cache_limit_bytes},
			{"free_blocks", N, (double)k.free_blocks},
			{"valid_bytes", B, (double)k.valid_bytes},
		};

		snapshot_init(s, "sim");
		s->target_ns = st->clock;
		/* the first failure is the one returned (error codes are never combined) */
		for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
			ret = snapshot_set(s, c[i].name, c[i].unit, c[i].v);
			if (ret)
				return ret;
		}
	}
	s->raw = raw_model(st, &k);
	return s->raw ? 0 : -ENOMEM;
}

static int sim_read_unmapped_hook(struct target *t, uint64_t *unmapped, uint64_t *read)
{
	struct sim_counters c;

	sim_get_counters(st_of(t)->ssd, &c);
	*unmapped = c.host_bytes_read_unmapped;
	*read = c.host_bytes_read;
	return 0;
}

const struct target_ops target_sim_ops = {
	.name = "sim",
	.caps = TARGET_CAP_VIRTUAL_TIME | TARGET_CAP_DISCARD | TARGET_CAP_PURGE |
		TARGET_CAP_COUNTERS | TARGET_CAP_SET_CAPACITY,
	.open = sim_open,
	.close = sim_close,
	.queue_open = sim_queue_open,
	.queue_close = sim_queue_close,
	.submit = sim_submit,
	.reap = sim_reap,
	.now = sim_now_hook,
	.idle = sim_idle,
	.discard = sim_discard_hook,
	.purge = sim_purge_hook,
	.snapshot = sim_snapshot,
	.set_capacity = sim_set_capacity_hook,
	.flush = sim_flush_hook,
	.set_write_cache = sim_set_write_cache_hook,
	.read_unmapped = sim_read_unmapped_hook,
};
