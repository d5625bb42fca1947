/* SPDX-License-Identifier: MIT */
/*
 * target: the registry of target implementations and the target_*() wrappers of target.h.
 * A spec starting with "sim:" is the virtual SSD; anything else is a block device or a regular
 * file driven through io_uring (target_spec_parse(), the one place that reads a spec). The
 * wrappers supply the default of a missing optional hook, so that the core never calls ops->x
 * directly.
 */
#include "targets/target.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

struct target {
	const struct target_ops *ops;
	struct target_info info;
	void *priv;
	char err[256]; /* reason set by an implementation's failing hook */
	unsigned caps_found; /* target_add_caps() */
};

void target_spec_parse(const char *spec, struct target_spec *out)
{
	out->sim = !strncmp(spec, "sim:", 4);
	out->arg = out->sim ? spec + 4 : spec;
	out->ops = out->sim ? &target_sim_ops : &target_uring_ops;
}

const char *target_kind_name(enum target_kind k)
{
	switch (k) {
	case TARGET_KIND_BLOCKDEV:
		return "blockdev";
	case TARGET_KIND_FILE:
		return "file";
	case TARGET_KIND_SIM:
		return "sim";
	}
	return "?";
}

void target_safety_identity(const struct target_info *ti, struct safety_target *out)
{
	*out = (struct safety_target){
		.kind = ti->kind == TARGET_KIND_SIM	 ? SAFETY_VIRTUAL
			: ti->kind == TARGET_KIND_FILE ? SAFETY_FILE
						       : SAFETY_BLOCKDEV,
		.path = ti->path,
		.model = ti->model,
		.serial = ti->serial,
		.wwn = ti->wwn,
		.capacity = ti->capacity,
		.created_by_ssdlab = ti->created_by_ssdlab,
		.nvme = ti->nvme.ns[0] ? &ti->nvme : NULL,
		.drive = ti->has_drive ? &ti->drive : NULL,
	};
}

int target_ops_check(const struct target_ops *ops, const char **missing)
{
	const char *miss = NULL;

	if (!ops->name || !*ops->name)
		miss = "name";
#define REQUIRED(h)                                                                               \
	else if (!ops->h) miss = #h;
	TARGET_OPS_REQUIRED(REQUIRED)
#undef REQUIRED
	if (!miss)
		return 0;
	if (missing)
		*missing = miss;
	return -EINVAL;
}

void target_set_error(struct target *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->err, sizeof(t->err), fmt, ap);
	va_end(ap);
}

int target_open(const char *spec, const struct target_open_opts *o, struct target **out,
		char *err, size_t errlen)
{
	struct target_spec ts;

	target_spec_parse(spec, &ts);
	return target_open_ops(ts.ops, spec, o, out, err, errlen);
}

int target_open_ops(const struct target_ops *ops, const char *spec,
		    const struct target_open_opts *o, struct target **out, char *err, size_t errlen)
{
	static const struct target_open_opts defaults;
	const char *missing = NULL;
	struct target *t;
	int rc;

	if (target_ops_check(ops, &missing)) {
		snprintf(err, errlen, "%s: target implementation '%s' lacks its %s hook", spec,
			 ops->name ? ops->name : "?", missing);
		return -EINVAL;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	t->ops = ops;
	t->info.nomerges = -1;
	t->info.time_scale = 1.0;
	/* the implementation names its clock; a virtual one needs no more than that */
	snprintf(t->info.clock, sizeof(t->info.clock), "%s",
		 ops->caps & TARGET_CAP_VIRTUAL_TIME ? "virtual" : "unknown");
	snprintf(t->info.path, sizeof(t->info.path), "%s", spec);
	rc = ops->open(t, spec, o ? o : &defaults);
	if (rc) {
		if (t->err[0])
			snprintf(err, errlen, "%s", t->err);
		else
			snprintf(err, errlen, "%s: %s", spec, strerror(-rc));
		free(t);
		return rc;
	}
	*out = t;
	return 0;
}

void target_close(struct target *t)
{
	if (!t)
		return;
	t->ops->close(t);
	free(t);
}

const struct target_info *target_info(const struct target *t)
{
	return &t->info;
}

struct target_info *target_info_mut(struct target *t)
{
	return &t->info;
}

unsigned target_caps(const struct target *t)
{
	return t->ops->caps | t->caps_found;
}

void target_add_caps(struct target *t, unsigned caps)
{
	t->caps_found |= caps;
}

void *target_priv(const struct target *t)
{
	return t->priv;
}

void target_set_priv(struct target *t, void *priv)
{
	t->priv = priv;
}

const char *target_error(const struct target *t)
{
	return t->err;
}

int target_queue_open(struct target *t, const struct target_queue_opts *o,
		      struct target_queue **q)
{
	t->err[0] = 0;
	return t->ops->queue_open(t, o, q);
}

void target_queue_close(struct target *t, struct target_queue *q)
{
	if (q)
		t->ops->queue_close(q);
}

int target_submit(struct target *t, struct target_queue *q, struct target_io *ios, unsigned n)
{
	return t->ops->submit(q, ios, n);
}

int target_reap(struct target *t, struct target_queue *q, struct target_completion *c,
		unsigned min, unsigned max)
{
	return t->ops->reap(q, c, min, max);
}

uint64_t target_now(struct target *t)
{
	return t->ops->now(t);
}

int target_idle(struct target *t, uint64_t ns)
{
	struct timespec ts;

	if (t->ops->idle)
		return t->ops->idle(t, ns);
	/* A real device idles in real time. */
	ts.tv_sec = (time_t)(ns / 1000000000u);
	ts.tv_nsec = (long)(ns % 1000000000u);
	while (nanosleep(&ts, &ts) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

int target_discard(struct target *t, uint64_t offset, uint64_t len)
{
	if (!t->ops->discard || !(t->ops->caps & TARGET_CAP_DISCARD))
		return -EOPNOTSUPP;
	return t->ops->discard(t, offset, len);
}

int target_purge(struct target *t, char *method, size_t len)
{
	if (!t->ops->purge)
		return -EOPNOTSUPP;
	return t->ops->purge(t, method, len);
}

int target_purge_method(struct target *t, const char *want, const struct devchange_ctx *change,
			struct purge_outcome *out, char *err, size_t errlen)
{
	if (!t->ops->drive_purge || !(target_caps(t) & TARGET_CAP_DRIVE_PURGE)) {
		snprintf(err, errlen, "%s has no drive purge commands", t->info.path);
		return -EOPNOTSUPP;
	}
	return t->ops->drive_purge(t, want, change, out, err, errlen);
}

int target_snapshot(struct target *t, struct snapshot *s)
{
	if (t->ops->snapshot)
		return t->ops->snapshot(t, s);
	/* No counters: an empty snapshot saying so (built by hand so that this layer does not
	 * depend on snapshot.c). */
	memset(s, 0, sizeof(*s));
	snprintf(s->source, sizeof(s->source), "none");
	s->target_ns = target_now(t);
	return 0;
}

int target_set_capacity(struct target *t, uint64_t bytes)
{
	if (!t->ops->set_capacity)
		return -EOPNOTSUPP;
	return t->ops->set_capacity(t, bytes);
}

int target_reopen(struct target *t)
{
	if (!t->ops->reopen) {
		target_set_error(t, "%s cannot be opened again", t->info.path);
		return -EOPNOTSUPP;
	}
	return t->ops->reopen(t);
}

int target_flush(struct target *t)
{
	if (!t->ops->flush)
		return 0; /* nothing cached on our side */
	return t->ops->flush(t);
}

int target_set_write_cache(struct target *t, bool on)
{
	if (!t->ops->set_write_cache) {
		target_set_error(t, "%s: switching the write cache is not supported for this target",
				 t->info.path);
		return -EOPNOTSUPP;
	}
	return t->ops->set_write_cache(t, on);
}

int target_read_unmapped(struct target *t, uint64_t *unmapped, uint64_t *read)
{
	if (!t->ops->read_unmapped)
		return -EOPNOTSUPP;
	return t->ops->read_unmapped(t, unmapped, read);
}

int target_io_counters(struct target *t, struct target_io_counters *c)
{
	if (!t->ops->io_counters)
		return -EOPNOTSUPP;
	return t->ops->io_counters(t, c);
}

int target_temperature(struct target *t, double *celsius, unsigned flags)
{
	if (!t->ops->temperature)
		return -EOPNOTSUPP;
	return t->ops->temperature(t, celsius, flags);
}

/* The NVMe placement, only for a namespace (other targets' manifests stay as they were). */
static int nvme_json(struct json_object *o, const struct devinfo_nvme *nv)
{
	struct json_object *n;

	if (!*nv->ns)
		return 0;
	n = json_object_new_object();
	if (jsonnum_add(o, "nvme", n) || !n)
		return -ENOMEM;
	if (jsonnum_add(n, "namespace", json_object_new_string(nv->ns)) ||
	    jsonnum_add(n, "nsid", json_object_new_int64(nv->nsid)) ||
	    jsonnum_add(n, "controller", json_object_new_string(nv->controller)) ||
	    jsonnum_add(n, "subsystem", json_object_new_string(nv->subsystem)) ||
	    jsonnum_add(n, "subsysnqn", json_object_new_string(nv->subsysnqn)) ||
	    jsonnum_add(n, "subsystem_namespaces", json_object_new_string(nv->subsystem_ns)))
		return -ENOMEM;
	return 0;
}

struct json_object *target_info_to_json(const struct target_info *ti, const char *spec)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if ((spec && jsonnum_add(o, "spec", json_object_new_string(spec))) ||
	    jsonnum_add(o, "kind", json_object_new_string(target_kind_name(ti->kind))) ||
	    jsonnum_add(o, "path", json_object_new_string(ti->path)) ||
	    jsonnum_add(o, "safe_name", json_object_new_string(ti->safe_name)) ||
	    jsonnum_add(o, "model", json_object_new_string(ti->model)) ||
	    jsonnum_add(o, "serial", json_object_new_string(ti->serial)) ||
	    jsonnum_add(o, "wwn", json_object_new_string(ti->wwn)) ||
	    jsonnum_add(o, "firmware", json_object_new_string(ti->firmware)) ||
	    jsonnum_add(o, "capacity", json_object_new_uint64(ti->capacity)) ||
	    jsonnum_add(o, "logical_block_size", json_object_new_int64(ti->logical_block_size)) ||
	    jsonnum_add(o, "physical_block_size", json_object_new_int64(ti->physical_block_size)) ||
	    jsonnum_add(o, "rotational", json_object_new_boolean(ti->rotational)) ||
	    jsonnum_add(o, "scheduler", json_object_new_string(ti->scheduler)) ||
	    jsonnum_add(o, "nomerges", json_object_new_int(ti->nomerges)) ||
	    jsonnum_add(o, "hw_queue_depth", json_object_new_int64(ti->hw_queue_depth)) ||
	    jsonnum_add(o, "created_by_ssdlab", json_object_new_boolean(ti->created_by_ssdlab)) ||
	    jsonnum_add(o, "time_scale", jsonnum_new(ti->time_scale)) ||
	    nvme_json(o, &ti->nvme)) {
		json_object_put(o);
		return NULL;
	}
	if (ti->nand_bytes &&
	    (jsonnum_add(o, "nand_bytes", json_object_new_uint64(ti->nand_bytes)) ||
	     jsonnum_add(o, "slc_cache_bytes", json_object_new_uint64(ti->slc_cache_bytes)))) {
		json_object_put(o);
		return NULL;
	}
	if (ti->has_drive) {
		struct json_object *d = drive_ident_to_json(&ti->drive);

		if (!d || jsonnum_add(o, "drive", d)) {
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}
