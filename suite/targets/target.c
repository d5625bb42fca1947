/* SPDX-License-Identifier: MIT */
/*
 * target: the registry of target implementations and the target_*() wrappers of target.h.
 * A spec starting with "sim:" is the virtual SSD; anything else is a block device or a regular
 * file driven through io_uring. The wrappers supply the default of a missing optional hook, so
 * that the core never calls ops->x directly.
 */
#include "targets/target.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct target {
	const struct target_ops *ops;
	struct target_info info;
	void *priv;
	char err[256]; /* reason set by an implementation's failing hook */
};

static const struct target_ops *ops_for(const char *spec)
{
	if (!strncmp(spec, "sim:", 4))
		return &target_sim_ops;
	return &target_uring_ops;
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
	const struct target_ops *ops = ops_for(spec);

	if (!ops) {
		snprintf(err, errlen, "%s: this build has no virtual SSD target", spec);
		return -ENOTSUP;
	}
	return target_open_ops(ops, spec, o, out, err, errlen);
}

int target_open_ops(const struct target_ops *ops, const char *spec,
		    const struct target_open_opts *o, struct target **out, char *err, size_t errlen)
{
	static const struct target_open_opts defaults;
	struct target *t;
	int rc;

	t = calloc(1, sizeof(*t));
	if (!t) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	t->ops = ops;
	t->info.nomerges = -1;
	t->info.time_scale = 1.0;
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
	return t->ops->caps;
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
