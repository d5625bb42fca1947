/* SPDX-License-Identifier: MIT */
/*
 * surface: the surface scan (surface.h). One queue, one thread: a scan measures the device's
 * speed along its LBAs, not the host's parallelism, so QD within a chunk is all it needs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/prng.h"
#include "engine/surface.h"

#define SURFACE_MAX_QD 256

struct failed_io {
	uint64_t offset;
	uint32_t len;
};

/* What one scan holds while it runs; released by scan_release(). */
struct scan {
	struct target *t;
	struct target_queue *q;
	char *bufs; /* qd buffers of bs bytes, mmap'ed (page aligned for O_DIRECT) */
	size_t bufs_len;
	struct target_io *ios;	      /* one per slot */
	struct target_completion *cs; /* reap space, qd entries */
	unsigned qd;
	uint32_t bs, lbs;
	enum io_dir dir;
	size_t max_lbas;
	struct failed_io *failed; /* a chunk's failed I/Os: chunk / bs entries */
	struct surface_result r;
	size_t cap_lbas; /* error_lbas' allocated length */
};

double surface_chunk_mbps(const struct surface_chunk *c)
{
	/* a chunk read in no target time (the virtual SSD answers unmapped LBAs at once) counts
	 * as one tick of the clock: its speed is then a lower bound, finite for the statistics */
	return (double)(c->bytes - c->bad_bytes) * 1e3 / (double)(c->ns ? c->ns : 1);
}

static int note_error(struct scan *s, uint64_t lba)
{
	s->r.errors_total++;
	if (s->r.nerror_lbas >= s->max_lbas)
		return 0;
	if (s->r.nerror_lbas == s->cap_lbas) {
		size_t cap = s->cap_lbas ? s->cap_lbas * 2 : 16;
		uint64_t *v;

		if (cap > s->max_lbas)
			cap = s->max_lbas;
		v = realloc(s->r.error_lbas, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->r.error_lbas = v;
		s->cap_lbas = cap;
	}
	s->r.error_lbas[s->r.nerror_lbas++] = lba;
	return 0;
}

/* Runs one I/O of slot 0 at QD1 and waits for it: 0 with *res and *lat_ns, or a queue -errno. */
static int io_one(struct scan *s, uint64_t off, uint32_t len, int32_t *res, uint64_t *lat_ns)
{
	struct target_io *io = &s->ios[0];
	int ret;

	io->offset = off;
	io->len = len;
	io->user = 0;
	io->submit_ns = target_now(s->t);
	ret = target_submit(s->t, s->q, io, 1);
	if (ret < 0)
		return ret;
	ret = target_reap(s->t, s->q, s->cs, 1, 1);
	if (ret < 0)
		return ret;
	if (ret != 1)
		return -EIO;
	*res = s->cs[0].res;
	*lat_ns = s->cs[0].done_ns - io->submit_ns;
	return 0;
}

/* A failed I/O [off, off + len): each logical block again at QD1, the ones that fail noted. */
static int retry_blocks(struct scan *s, struct surface_chunk *c, uint64_t off, uint32_t len)
{
	for (uint64_t b = off; b < off + len; b += s->lbs) {
		int32_t res;
		uint64_t lat;
		int ret = io_one(s, b, s->lbs, &res, &lat);

		if (ret)
			return ret;
		if (lat > c->max_lat_ns)
			c->max_lat_ns = lat;
		if (res == (int32_t)s->lbs)
			continue;
		c->errors++;
		c->bad_bytes += s->lbs;
		ret = note_error(s, b / s->lbs);
		if (ret)
			return ret;
	}
	return 0;
}

static int cmp_failed(const void *a, const void *b)
{
	uint64_t x = ((const struct failed_io *)a)->offset,
		 y = ((const struct failed_io *)b)->offset;

	return (x > y) - (x < y);
}

/*
 * One chunk: keeps up to qd I/Os in flight over [c->offset, + c->bytes), then drains. Failed
 * I/Os are retried block by block after the drain, so the retries do not share the queue with
 * the chunk's own I/Os.
 */
static int scan_chunk(struct scan *s, struct surface_chunk *c)
{
	uint64_t next = c->offset, end = c->offset + c->bytes, t0 = target_now(s->t);
	size_t nfailed = 0;
	unsigned inflight = 0, free_slot[SURFACE_MAX_QD], nfree = s->qd;
	int ret;

	for (unsigned i = 0; i < s->qd; i++)
		free_slot[i] = s->qd - 1 - i;
	while (next < end || inflight) {
		while (next < end && nfree) {
			unsigned slot = free_slot[--nfree];
			struct target_io *io = &s->ios[slot];
			uint32_t len = end - next < s->bs ? (uint32_t)(end - next) : s->bs;

			io->offset = next;
			io->len = len;
			io->user = slot;
			io->submit_ns = target_now(s->t);
			ret = target_submit(s->t, s->q, io, 1);
			if (ret < 0)
				return ret;
			next += len;
			inflight++;
		}
		ret = target_reap(s->t, s->q, s->cs, 1, inflight);
		if (ret < 0)
			return ret;
		for (int i = 0; i < ret; i++) {
			unsigned slot = (unsigned)s->cs[i].user;
			const struct target_io *io = &s->ios[slot];
			uint64_t lat = s->cs[i].done_ns - io->submit_ns;

			if (lat > c->max_lat_ns)
				c->max_lat_ns = lat;
			if (s->cs[i].res != (int32_t)io->len) {
				s->failed[nfailed++] =
				    (struct failed_io){.offset = io->offset, .len = io->len};
			}
			free_slot[nfree++] = slot;
			inflight--;
		}
	}
	/* completions arrive in any order: retry in ascending offset, so the LBAs come sorted */
	qsort(s->failed, nfailed, sizeof(*s->failed), cmp_failed);
	for (size_t i = 0; i < nfailed; i++) {
		ret = retry_blocks(s, c, s->failed[i].offset, s->failed[i].len);
		if (ret)
			return ret;
	}
	c->ns = target_now(s->t) - t0;
	return 0;
}

static void scan_release(struct scan *s)
{
	if (s->q)
		target_queue_close(s->t, s->q);
	if (s->bufs)
		munmap(s->bufs, s->bufs_len);
	free(s->ios);
	free(s->cs);
	free(s->failed);
	surface_result_release(&s->r);
}

int surface_scan(struct target *t, const struct surface_opts *o, struct surface_result *out,
		 char *err, size_t errlen)
{
	const struct target_info *ti = target_info(t);
	struct scan s = {
	    .t = t, .qd = o->qd, .bs = o->bs, .dir = o->dir, .max_lbas = o->max_error_lbas};
	struct target_queue_opts qo = {.depth = o->qd};
	uint64_t cap = ti->capacity, prng = 0x5eedf00dull, un0 = 0, un1 = 0, rd = 0;
	size_t n;
	int ret;

	s.lbs = ti->logical_block_size;
	if (!s.lbs || !o->bs || o->bs % s.lbs || !o->chunk || o->chunk % o->bs || !o->qd ||
	    o->qd > SURFACE_MAX_QD || cap % s.lbs) {
		snprintf(err, errlen,
			 "surface: bs %" PRIu32
			 " must be a multiple of the logical block size %" PRIu32 ", chunk %" PRIu64
			 " a multiple of bs, qd 1..%d",
			 o->bs, s.lbs, o->chunk, SURFACE_MAX_QD);
		return -EINVAL;
	}
	n = (size_t)((cap + o->chunk - 1) / o->chunk);
	s.r.dir = o->dir;
	s.r.lbs = s.lbs;
	s.r.capacity = cap;
	s.r.chunks = calloc(n ? n : 1, sizeof(*s.r.chunks));
	s.ios = calloc(o->qd, sizeof(*s.ios));
	s.cs = calloc(o->qd, sizeof(*s.cs));
	s.failed = calloc((size_t)(o->chunk / o->bs), sizeof(*s.failed));
	if (!s.r.chunks || !s.ios || !s.cs || !s.failed) {
		ret = -ENOMEM;
		snprintf(err, errlen, "surface: out of memory");
		goto fail;
	}
	s.bufs_len = (size_t)o->qd * o->bs;
	s.bufs = mmap(NULL, s.bufs_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s.bufs == MAP_FAILED) {
		s.bufs = NULL;
		ret = -ENOMEM;
		snprintf(err, errlen, "surface: cannot map %zu bytes of I/O buffers", s.bufs_len);
		goto fail;
	}
	/* written data is incompressible, so a compressing drive is measured, not its compressor */
	if (o->dir == IO_WRITE)
		for (size_t i = 0; i + 8 <= s.bufs_len; i += 8) {
			uint64_t v = prng_splitmix64(&prng);

			memcpy(s.bufs + i, &v, 8);
		}
	for (unsigned i = 0; i < o->qd; i++)
		s.ios[i] = (struct target_io){.dir = (uint8_t)o->dir,
					      .buf = s.bufs + (size_t)i * o->bs,
					      .buf_index = (uint16_t)i};
	qo.bufs = s.bufs;
	qo.nbufs = o->qd;
	qo.buf_size = o->bs;
	ret = target_queue_open(t, &qo, &s.q);
	if (ret) {
		s.q = NULL;
		snprintf(err, errlen, "surface: %s", target_error(t));
		goto fail;
	}
	/* a target that knows its map says which chunks were read without touching the flash */
	s.r.has_unmapped = o->dir == IO_READ && !target_read_unmapped(t, &un0, &rd);
	for (size_t i = 0; i < n; i++) {
		struct surface_chunk *c = &s.r.chunks[i];

		c->offset = (uint64_t)i * o->chunk;
		c->bytes = cap - c->offset < o->chunk ? cap - c->offset : o->chunk;
		if (o->stop && *o->stop) {
			ret = -EINTR;
			snprintf(err, errlen, "surface: stopped at chunk %zu of %zu", i, n);
			goto fail;
		}
		if (s.r.has_unmapped)
			(void)target_read_unmapped(t, &un0, &rd);
		ret = scan_chunk(&s, c);
		if (!ret && s.r.has_unmapped && !target_read_unmapped(t, &un1, &rd))
			c->unmapped_bytes = un1 - un0;
		if (ret) {
			snprintf(err, errlen, "surface: chunk %zu at byte %" PRIu64 ": %s%s%s", i,
				 c->offset, strerror(-ret), target_error(t)[0] ? ": " : "",
				 target_error(t));
			goto fail;
		}
		s.r.n = i + 1;
		if (o->on_chunk)
			o->on_chunk(i + 1, n, o->arg);
	}
	*out = s.r;
	s.r = (struct surface_result){0};
	ret = 0;
fail:
	scan_release(&s);
	return ret;
}

void surface_result_release(struct surface_result *r)
{
	if (!r)
		return;
	free(r->chunks);
	free(r->error_lbas);
	*r = (struct surface_result){0};
}

/* v >= 0 with three decimals and a '.' whatever the locale. */
static int put_fixed3(FILE *f, double v)
{
	uint64_t m = (uint64_t)(v * 1000 + 0.5);

	return fprintf(f, "%" PRIu64 ".%03u", m / 1000, (unsigned)(m % 1000));
}

int surface_write_csv(const struct surface_result *r, FILE *f)
{
	bool bad = fprintf(f, "position_pct,offset_bytes,bytes,mbps,max_lat_us,errors\n") < 0;

	for (size_t i = 0; i < r->n && !bad; i++) {
		const struct surface_chunk *c = &r->chunks[i];

		bad |= put_fixed3(f, ((double)c->offset + (double)c->bytes / 2) * 100 /
					 (double)r->capacity) < 0;
		bad |= fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", c->offset, c->bytes) < 0;
		bad |= put_fixed3(f, surface_chunk_mbps(c)) < 0;
		bad |= fputc(',', f) == EOF;
		bad |= put_fixed3(f, (double)c->max_lat_ns / 1e3) < 0;
		bad |= fprintf(f, ",%" PRIu64 "\n", c->errors) < 0;
	}
	return bad || ferror(f) ? -EIO : 0;
}
