/* SPDX-License-Identifier: MIT */
/*
 * engine: runs one job on a target (see engine.h).
 *
 * Workers. One worker per thread, each with its own target queue of depth qd, its own buffers
 * (qd x the largest block, registered with the queue) and its own PRNG stream; a virtual-time
 * target gets one worker with a queue of depth threads x qd (its clock is one timeline). A
 * worker loops: top the queue up to its depth (one clock read stamps the whole batch, one
 * submit call), reap at least one completion (the target stamps the batch when it sees it),
 * account, repeat. Nothing is allocated in the loop; the stop flag is checked between batches.
 *
 * Start. The clock starts when every worker has its buffers and its queue (a start gate): with
 * many threads and large buffers, or a driver slow to create queues, setup takes longer than a
 * short job, and counting it would leave a window with no I/O in it.
 *
 * Ramp. An I/O issued while its worker is in the ramp is executed but not counted. A time ramp
 * ends at start + ramp_ns for everyone; a byte ramp ends per worker after its share of
 * ramp_bytes, and the measured window starts when the first worker leaves the ramp. That
 * moment (the start itself without a ramp) is where the CPU time is measured from and where the
 * measure_start hook runs, so that CPU time and counter snapshots cover what the figures cover.
 *
 * Length. time_ns after the measured start, or amount_bytes of measured I/O split evenly over
 * the workers, or one pass over the range when neither is given. In-flight I/Os are drained at
 * the end and count (their latency is real); no measured I/O is issued after the window (a
 * ramp I/O that completes past it leaves the job with nothing measured, see job_no_io_reason).
 *
 * Series. Each worker accumulates the completions of the current interval locally (counts and
 * a latency histogram per direction). When a completion belongs to a later interval, it merges
 * its local interval into a shared ring of open intervals under a mutex, once per interval,
 * and the intervals every worker has moved past are turned into series rows, in order, with
 * empty intervals (a GC stall) as rows of zeros. A worker that lags more than SERIES_RING
 * intervals has its late data merged into the oldest open interval.
 *
 * Errors. The first failing completion (res < 0, or fewer bytes than asked) is recorded with
 * offset, length and errno; every worker stops issuing, drains what is in flight and returns.
 */
#include "engine/engine.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "base/units.h"
#include "engine/workload.h"

#define SERIES_RING 64
#define MAX_QD 1024
#define MAX_THREADS 64

struct series_slot {
	uint64_t idx;
	bool used;
	uint64_t ios[2], bytes[2];
	uint64_t written; /* bytes written since the previous flushes (ramp included) */
	struct hist lat[2];
};

struct shared {
	struct target *t;
	const struct job_spec *s;
	const struct engine_hooks *h;
	struct workload *w;
	unsigned nworkers;
	unsigned depth;
	size_t buf_size;
	bool needs_data;
	bool mix_on; /* job_result.mix is counted */
	uint64_t start_ns; /* set by the start gate */
	_Atomic uint64_t measure_start; /* 0 until known (byte ramp) */
	atomic_bool measure_begun;	/* begin_measure() ran */
	struct rusage cpu0;		/* at the measured start; valid once measure_begun */

	/* The start gate: workers wait here until every queue is open. */
	pthread_cond_t gate_cond;
	unsigned gate_arrived, gate_expected;
	bool gate_open;

	uint64_t interval_ns;
	uint64_t amount_total; /* measured bytes, 0 = time-bound */
	atomic_int stop_issuing;

	pthread_mutex_t lock;
	uint64_t *worker_idx; /* interval each worker is in; UINT64_MAX when finished */
	struct series_slot *ring;
	uint64_t next_final;
	uint64_t written_cum;
	uint64_t measured_bytes_cum;
	struct series_row *rows;
	size_t nrows, caprows;
	int row_error;

	struct job_result *res; /* the first error goes here, under lock */
	bool temp_off; /* the target has no cheap temperature: stop asking */
};

struct worker {
	struct shared *sh;
	unsigned index;
	pthread_t thread;
	struct target_queue *q;
	struct workload_stream st;
	void *bufs;
	size_t bufs_len;
	struct target_io *slots;
	uint8_t *slot_ramp;
	unsigned *free_slots;
	unsigned nfree;
	struct target_io *batch;
	struct target_completion *comp;

	uint64_t budget;	/* measured bytes this worker may issue; UINT64_MAX = unbounded */
	uint64_t ramp_budget;	/* bytes of ramp */
	uint64_t issued, issued_ramp;
	bool in_ramp;

	struct dir_stats d[2];
	uint64_t written_total, read_total;
	uint64_t last_done;
	uint64_t mix_bs[JOB_MAX_BS], mix_lba[IO_MIX_BUCKETS]; /* job_result.mix, this worker's */

	uint64_t cur_idx;
	struct series_slot local;
	uint64_t written_unflushed;
	int setup_rc;
	char setup_msg[256];
	bool broken; /* the target returned a tag we never gave it: stop without draining */
};

/* ---- series ---------------------------------------------------------------------------- */

static void slot_clear(struct series_slot *s)
{
	s->used = false;
	s->idx = 0;
	s->written = 0;
	for (int d = 0; d < 2; d++) {
		s->ios[d] = s->bytes[d] = 0;
		hist_reset(&s->lat[d]);
	}
}

static void slot_merge(struct series_slot *dst, const struct series_slot *src)
{
	dst->written += src->written;
	for (int d = 0; d < 2; d++) {
		dst->ios[d] += src->ios[d];
		dst->bytes[d] += src->bytes[d];
		hist_merge(&dst->lat[d], &src->lat[d]);
	}
}

/* Turns interval sh->next_final into a row (empty when no slot holds it). Under lock. */
static void finalize_one(struct shared *sh, uint64_t end_ns)
{
	struct series_slot *sl = &sh->ring[sh->next_final % SERIES_RING];
	bool have = sl->used && sl->idx == sh->next_final;
	struct series_row *r;

	if (sh->nrows == sh->caprows) {
		size_t cap = sh->caprows ? sh->caprows * 2 : 64;
		struct series_row *n = realloc(sh->rows, cap * sizeof(*n));

		if (!n) {
			sh->row_error = -ENOMEM;
			goto done;
		}
		sh->rows = n;
		sh->caprows = cap;
	}
	r = &sh->rows[sh->nrows++];
	memset(r, 0, sizeof(*r));
	r->t_ns = (sh->next_final + 1) * sh->interval_ns;
	if (end_ns && r->t_ns > end_ns)
		r->t_ns = end_ns;
	if (have) {
		sh->written_cum += sl->written;
		for (int d = 0; d < 2; d++) {
			r->d[d].ios = sl->ios[d];
			r->d[d].bytes = sl->bytes[d];
			r->d[d].lat_mean_ns = hist_mean(&sl->lat[d]);
			r->d[d].lat_p99_ns = hist_percentile(&sl->lat[d], 99);
			r->d[d].lat_max_ns = sl->lat[d].count ? sl->lat[d].max : 0;
			sh->measured_bytes_cum += sl->bytes[d];
		}
	}
	r->total_bytes_written = sh->written_cum;
	/* The drive's temperature with each row, where reading it disturbs no I/O (an NVMe hwmon
	 * read is a Get Log Page on the admin queue; a SATA drive's SMART/SCT read would drain its
	 * queue, so the target refuses it with -EAGAIN). Read under the lock, once per interval:
	 * a sysfs read of a few microseconds beside a second-long interval. A target that refuses
	 * once is not asked again in this job. */
	if (!sh->temp_off) {
		double c;
		int trc = target_temperature(sh->t, &c, TARGET_TEMP_CHEAP);

		if (!trc) {
			r->has_temp = true;
			r->temperature_c = c;
		} else if (trc == -EOPNOTSUPP || trc == -EAGAIN) {
			sh->temp_off = true;
		}
	}
	if (sh->h && sh->h->progress) {
		struct engine_progress p = {
			.t_ns = r->t_ns,
			.total_ns = sh->s->time_ns,
			.bytes = sh->measured_bytes_cum,
			.total_bytes = sh->amount_total,
			.written = sh->written_cum,
			.iops = (double)(r->d[0].ios + r->d[1].ios) * 1e9 / (double)sh->interval_ns,
		};
		sh->h->progress(&p, sh->h->arg);
	}
done:
	if (have)
		slot_clear(sl);
	sh->next_final++;
}

/* Worker w moves from interval local.idx to next (UINT64_MAX = finished). */
static void series_flush(struct worker *wk, uint64_t next)
{
	struct shared *sh = wk->sh;
	uint64_t idx = wk->cur_idx, lo = UINT64_MAX;
	struct series_slot *sl;

	wk->local.written = wk->written_unflushed;
	pthread_mutex_lock(&sh->lock);
	if (idx < sh->next_final) /* too late: the interval is out; the oldest open one takes it */
		idx = sh->next_final;
	/* Make room: an older interval in our ring position is finalized first. */
	while (idx >= sh->next_final + SERIES_RING)
		finalize_one(sh, 0);
	sl = &sh->ring[idx % SERIES_RING];
	if (!sl->used) {
		sl->used = true;
		sl->idx = idx;
	}
	slot_merge(sl, &wk->local);
	sh->worker_idx[wk->index] = next;
	for (unsigned i = 0; i < sh->nworkers; i++)
		if (sh->worker_idx[i] < lo)
			lo = sh->worker_idx[i];
	if (lo != UINT64_MAX)
		while (sh->next_final < lo)
			finalize_one(sh, 0);
	pthread_mutex_unlock(&sh->lock);
	slot_clear(&wk->local);
	wk->written_unflushed = 0;
	wk->cur_idx = next;
}

/* ---- the worker loop -------------------------------------------------------------------- */

static void record_error(struct worker *wk, const struct target_io *io, int err, int32_t res,
			 const char *what)
{
	struct job_result *r = wk->sh->res;

	atomic_store(&wk->sh->stop_issuing, 1);
	pthread_mutex_lock(&wk->sh->lock);
	if (!r->error) {
		r->error = err;
		r->err_offset = io ? io->offset : 0;
		r->err_len = io ? io->len : 0;
		if (io && res >= 0)
			snprintf(r->errmsg, sizeof(r->errmsg),
				 "short %s: %" PRId32 " of %" PRIu32 " bytes at offset %" PRIu64,
				 io->dir == IO_READ ? "read" : "write", res, io->len, io->offset);
		else if (io)
			snprintf(r->errmsg, sizeof(r->errmsg),
				 "I/O error: %s of %" PRIu32 " bytes at offset %" PRIu64 ": %s (errno %d)",
				 io->dir == IO_READ ? "read" : "write", io->len, io->offset,
				 strerror(-err), -err);
		else
			snprintf(r->errmsg, sizeof(r->errmsg), "%s: %s (errno %d)",
				 what ? what : "queue error", strerror(-err), -err);
	}
	pthread_mutex_unlock(&wk->sh->lock);
}

/* The measured part starts: CPU time from here, then the caller's hook. Once per job. */
static void begin_measure(struct shared *sh, uint64_t now)
{
	if (atomic_exchange(&sh->measure_begun, true))
		return;
	getrusage(RUSAGE_SELF, &sh->cpu0);
	if (sh->h && sh->h->measure_start)
		sh->h->measure_start(now, sh->h->arg);
}

/* Leaves the ramp; the first worker to do so starts the measured window at `now`. */
static void leave_ramp(struct worker *wk, uint64_t now)
{
	uint64_t zero = 0;

	wk->in_ramp = false;
	atomic_compare_exchange_strong(&wk->sh->measure_start, &zero, now ? now : 1);
	begin_measure(wk->sh, now);
}

/* A time-bound job's measured window is over at `now`. */
static bool window_over(const struct shared *sh, uint64_t now)
{
	uint64_t ms = atomic_load_explicit(&sh->measure_start, memory_order_relaxed);

	return sh->s->time_ns && ms && now >= ms + sh->s->time_ns;
}

/*
 * The start gate: a worker arrives with its queue open (or failed); the last of `expected` to
 * arrive starts the clock, and the measured part too when there is no ramp. Returns when the
 * gate is open.
 */
static void gate_open_locked(struct shared *sh)
{
	const struct job_spec *s = sh->s;

	sh->start_ns = target_now(sh->t);
	/* 0 means "not known yet" (a byte ramp): a clock that starts at 0 stores 1, as
	 * leave_ramp() does, or a time-bound job at time 0 without a ramp would never end. */
	if (!s->ramp_bytes)
		atomic_store(&sh->measure_start,
			     sh->start_ns + s->ramp_ns ? sh->start_ns + s->ramp_ns : 1);
	sh->gate_open = true;
	pthread_cond_broadcast(&sh->gate_cond);
}

static void gate_arrive(struct shared *sh)
{
	pthread_mutex_lock(&sh->lock);
	if (++sh->gate_arrived >= sh->gate_expected && !sh->gate_open)
		gate_open_locked(sh);
	while (!sh->gate_open)
		pthread_cond_wait(&sh->gate_cond, &sh->lock);
	pthread_mutex_unlock(&sh->lock);
	/* Without a ramp, measurement starts with the clock (unless a setup failed). */
	if (!sh->s->ramp_ns && !sh->s->ramp_bytes && !atomic_load(&sh->stop_issuing))
		begin_measure(sh, sh->start_ns);
}

static bool ramp_over(const struct worker *wk, uint64_t now)
{
	const struct job_spec *s = wk->sh->s;
	bool time_done = !s->ramp_ns || now >= wk->sh->start_ns + s->ramp_ns;
	bool bytes_done = !s->ramp_bytes || wk->issued_ramp >= wk->ramp_budget;

	return time_done && bytes_done;
}

/* Fills the queue; returns the number submitted or -errno. */
static int issue(struct worker *wk, uint64_t now)
{
	struct shared *sh = wk->sh;
	unsigned n = 0;
	int rc;

	while (wk->nfree) {
		unsigned slot;
		struct target_io *io;

		if (wk->in_ramp && ramp_over(wk, now))
			leave_ramp(wk, now);
		if (!wk->in_ramp && (wk->issued >= wk->budget || window_over(sh, now)))
			break;
		slot = wk->free_slots[--wk->nfree];
		io = &wk->slots[slot];
		workload_next(&wk->st, io);
		if (sh->needs_data) {
			io->buf = (char *)wk->bufs + (size_t)slot * sh->buf_size;
			if (io->dir == IO_WRITE)
				workload_stamp(&wk->st, io->buf, io->len, io->offset);
		}
		wk->slot_ramp[slot] = wk->in_ramp;
		if (wk->in_ramp)
			wk->issued_ramp += io->len;
		else
			wk->issued += io->len;
		wk->batch[n++] = *io;
	}
	if (!n)
		return 0;
	now = target_now(sh->t);
	for (unsigned i = 0; i < n; i++) {
		wk->batch[i].submit_ns = now;
		wk->slots[wk->batch[i].user].submit_ns = now;
	}
	rc = target_submit(sh->t, wk->q, wk->batch, n);
	if (rc < 0) /* a failed submit queued nothing: the slots are free again */
		for (unsigned i = 0; i < n; i++)
			wk->free_slots[wk->nfree++] = (unsigned)wk->batch[i].user;
	return rc;
}

/* One measured I/O into the worker's job_result.mix counts (at most JOB_MAX_BS compares). */
static void mix_count(struct worker *wk, const struct target_io *io)
{
	const struct job_spec *s = wk->sh->s;
	uint64_t span = s->range_end - s->range_start, b;

	for (unsigned i = 0; i < s->nbs; i++)
		if (s->bs[i].bs == io->len) {
			wk->mix_bs[i]++;
			break;
		}
	if (io->offset < s->range_start || io->offset >= s->range_end)
		return;
	/* In two steps, so that an offset of a large drive times 100 cannot overflow: whole
	 * buckets, then the bucket inside the remainder (rem < span/100 + 1, rem * 100 fits). */
	{
		uint64_t off = io->offset - s->range_start, per = span / IO_MIX_BUCKETS;

		b = span >= (UINT64_MAX / IO_MIX_BUCKETS) ? off / (per ? per : 1)
							  : off * IO_MIX_BUCKETS / span;
	}
	wk->mix_lba[b < IO_MIX_BUCKETS ? b : IO_MIX_BUCKETS - 1]++;
}

static void complete(struct worker *wk, const struct target_completion *c)
{
	struct shared *sh = wk->sh;
	unsigned slot = (unsigned)c->user;
	const struct target_io *io;
	uint64_t lat;

	if (c->user >= sh->depth) { /* a target bug; never index with it */
		record_error(wk, NULL, -EPROTO, -EPROTO, "the target completed an I/O it was never given");
		wk->broken = true;
		return;
	}
	io = &wk->slots[slot];
	lat = c->done_ns >= io->submit_ns ? c->done_ns - io->submit_ns : 0;
	wk->free_slots[wk->nfree++] = slot;
	if (c->res != (int32_t)io->len) {
		record_error(wk, io, c->res < 0 ? c->res : -EIO, c->res, NULL);
		return;
	}
	if (io->dir == IO_WRITE) {
		wk->written_total += io->len;
		wk->written_unflushed += io->len;
	} else {
		wk->read_total += io->len;
	}
	if (wk->slot_ramp[slot])
		return;
	{
		uint64_t ms = atomic_load_explicit(&sh->measure_start, memory_order_relaxed);
		/* Interval i is (i, i + 1] intervals after the start: a completion exactly on a
		 * boundary (common in virtual time) closes the interval it ends. */
		uint64_t idx = c->done_ns > ms ? (c->done_ns - ms - 1) / sh->interval_ns : 0;
		struct dir_stats *d = &wk->d[io->dir];

		/* A time-bound job drains its queue after the end: those completions belong to
		 * the last interval, not to a sliver of a row after it. */
		if (sh->s->time_ns && idx > (sh->s->time_ns - 1) / sh->interval_ns)
			idx = (sh->s->time_ns - 1) / sh->interval_ns;

		if (idx != wk->cur_idx)
			series_flush(wk, idx);
		d->ios++;
		d->bytes += io->len;
		hist_add(&d->lat, lat);
		if (sh->mix_on)
			mix_count(wk, io);
		wk->local.ios[io->dir]++;
		wk->local.bytes[io->dir] += io->len;
		hist_add(&wk->local.lat[io->dir], lat);
		if (c->done_ns > wk->last_done)
			wk->last_done = c->done_ns;
	}
}

static int worker_setup(struct worker *wk)
{
	struct shared *sh = wk->sh;
	struct target_queue_opts qo = {
		.depth = sh->depth,
		.sqpoll = sh->s->sqpoll,
		.hipri = sh->s->hipri,
	};
	int rc;

	if (sh->needs_data) {
		wk->bufs_len = (size_t)sh->depth * sh->buf_size;
		wk->bufs = mmap(NULL, wk->bufs_len, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (wk->bufs == MAP_FAILED) {
			wk->bufs = NULL;
			snprintf(wk->setup_msg, sizeof(wk->setup_msg),
				 "cannot map %zu bytes of I/O buffers", wk->bufs_len);
			return -ENOMEM;
		}
		for (unsigned i = 0; i < sh->depth; i++)
			workload_buf_init(sh->w, (char *)wk->bufs + (size_t)i * sh->buf_size,
					  sh->buf_size, wk->index * sh->depth + i);
		qo.bufs = wk->bufs;
		qo.nbufs = sh->depth;
		qo.buf_size = sh->buf_size;
	}
	for (unsigned i = 0; i < sh->depth; i++) {
		wk->slots[i].buf_index = (uint16_t)i;
		wk->slots[i].user = i;
		wk->slots[i].buf = NULL;
		wk->free_slots[i] = sh->depth - 1 - i;
	}
	wk->nfree = sh->depth;
	/* The queue is opened in the thread that uses it (io_uring single-issuer rings). */
	rc = target_queue_open(sh->t, &qo, &wk->q);
	if (rc) {
		const char *why = target_error(sh->t);

		snprintf(wk->setup_msg, sizeof(wk->setup_msg), "cannot open a queue of depth %u: %s",
			 sh->depth, *why ? why : strerror(-rc));
		wk->q = NULL;
	}
	return rc;
}

static void *worker_run(void *arg)
{
	struct worker *wk = arg;
	struct shared *sh = wk->sh;
	volatile sig_atomic_t *stop = sh->h ? sh->h->stop : NULL;
	bool issuing = true;
	uint64_t now;

	wk->setup_rc = worker_setup(wk);
	if (wk->setup_rc)
		atomic_store(&sh->stop_issuing, 1);
	gate_arrive(sh); /* also on failure: the others wait for everyone */
	if (wk->setup_rc)
		goto out;
	now = target_now(sh->t);
	for (;;) {
		unsigned inflight;
		int n;

		if (issuing && ((stop && *stop) || atomic_load_explicit(&sh->stop_issuing,
									memory_order_relaxed)))
			issuing = false;
		if (issuing && !wk->in_ramp && window_over(sh, now))
			issuing = false;
		if (issuing) {
			n = issue(wk, now);
			if (n < 0) {
				record_error(wk, NULL, n, n, "submit failed");
				issuing = false;
			}
		}
		inflight = sh->depth - wk->nfree;
		if (!inflight)
			break;
		n = target_reap(sh->t, wk->q, wk->comp, 1, inflight);
		if (n < 0) {
			record_error(wk, NULL, n, n, "reap failed");
			break; /* the queue is unusable; closing it cancels what is left */
		}
		for (int i = 0; i < n; i++) {
			complete(wk, &wk->comp[i]);
			if (wk->comp[i].done_ns > now)
				now = wk->comp[i].done_ns;
		}
		if (wk->broken)
			break;
		if (!n) {
			/* target.h: reap() waits for at least `min`. Returning nothing with I/O in
			 * flight would spin here forever: stop with an error instead. */
			record_error(wk, NULL, -EPROTO, -EPROTO,
				     "the target returned no completion with I/O in flight");
			break;
		}
		if (issuing && !wk->in_ramp && wk->issued >= wk->budget)
			issuing = false;
	}
out:
	if (!wk->setup_rc) {
		series_flush(wk, UINT64_MAX);
	} else {
		pthread_mutex_lock(&sh->lock);
		sh->worker_idx[wk->index] = UINT64_MAX;
		pthread_mutex_unlock(&sh->lock);
	}
	target_queue_close(sh->t, wk->q);
	wk->q = NULL;
	return NULL;
}

/* ---- setup and results ------------------------------------------------------------------ */

static void worker_release(struct worker *wk)
{
	if (wk->bufs)
		munmap(wk->bufs, wk->bufs_len);
	free(wk->slots);
	free(wk->slot_ramp);
	free(wk->free_slots);
	free(wk->batch);
	free(wk->comp);
}

static int worker_alloc(struct worker *wk, unsigned depth)
{
	wk->slots = calloc(depth, sizeof(*wk->slots));
	wk->slot_ramp = calloc(depth, 1);
	wk->free_slots = calloc(depth, sizeof(*wk->free_slots));
	wk->batch = calloc(depth, sizeof(*wk->batch));
	wk->comp = calloc(depth, sizeof(*wk->comp));
	if (!wk->slots || !wk->slot_ramp || !wk->free_slots || !wk->batch || !wk->comp)
		return -ENOMEM;
	for (int d = 0; d < 2; d++) {
		hist_init(&wk->d[d].lat);
		hist_init(&wk->local.lat[d]);
	}
	return 0;
}

int job_validate(const struct job_spec *s, const struct target_info *ti, char *err, size_t len)
{
	struct workload *w = NULL;
	int rc;

	if (s->qd < 1 || s->qd > MAX_QD) {
		snprintf(err, len, "queue depth must be 1..%d, not %u", MAX_QD, s->qd);
		return -EINVAL;
	}
	if (s->threads < 1 || s->threads > MAX_THREADS) {
		snprintf(err, len, "threads must be 1..%d, not %u", MAX_THREADS, s->threads);
		return -EINVAL;
	}
	if (s->range_end > ti->capacity) {
		snprintf(err, len,
			 "the LBA range ends at byte %" PRIu64 ", past the target's capacity of %" PRIu64
			 " bytes",
			 s->range_end, ti->capacity);
		return -EINVAL;
	}
	rc = workload_create(s, ti->logical_block_size, &w, err, len);
	workload_free(w);
	return rc;
}

static double cpu_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

static void measure_clock(struct target *t, bool virt, struct job_result *res)
{
	const char *clock = target_info(t)->clock;

	snprintf(res->clock_source, sizeof(res->clock_source), "%.31s", *clock ? clock : "unknown");
	if (virt) {
		res->clock_read_ns = 0;
		return;
	}
	{
		uint64_t t0, t1;
		enum { N = 1000 };

		t0 = target_now(t);
		for (int i = 0; i < N - 1; i++)
			(void)target_now(t);
		t1 = target_now(t);
		res->clock_read_ns = (double)(t1 - t0) / N;
	}
}

static void collect(struct shared *sh, struct worker *wk, struct job_result *res)
{
	uint64_t last = 0, ms = atomic_load(&sh->measure_start);

	for (unsigned i = 0; i < sh->nworkers; i++) {
		for (int d = 0; d < 2; d++) {
			res->d[d].ios += wk[i].d[d].ios;
			res->d[d].bytes += wk[i].d[d].bytes;
			hist_merge(&res->d[d].lat, &wk[i].d[d].lat);
		}
		res->bytes_written_total += wk[i].written_total;
		res->bytes_read_total += wk[i].read_total;
		for (unsigned b = 0; sh->mix_on && b < JOB_MAX_BS; b++)
			res->mix.bs_ios[b] += wk[i].mix_bs[b];
		for (unsigned b = 0; sh->mix_on && b < IO_MIX_BUCKETS; b++)
			res->mix.lba_ios[b] += wk[i].mix_lba[b];
		if (wk[i].last_done > last)
			last = wk[i].last_done;
	}
	if (ms && last > ms)
		res->elapsed_ns = last - ms;
	res->ramp_elapsed_ns = ms > sh->start_ns ? ms - sh->start_ns : 0;
	if (res->elapsed_ns)
		res->effective_qd = (unsigned)((res->d[0].lat.sum + res->d[1].lat.sum) /
						   (double)res->elapsed_ns +
					       0.5);
	/* The last row ends at the end of the measured part, not of its interval. */
	if (sh->nrows && res->elapsed_ns && sh->rows[sh->nrows - 1].t_ns > res->elapsed_ns)
		sh->rows[sh->nrows - 1].t_ns = res->elapsed_ns;
	res->series = sh->rows;
	res->nseries = sh->nrows;
	sh->rows = NULL;
	res->seq_next = workload_seq_next(sh->w);
}

static void split_budgets(struct shared *sh, struct worker *wk)
{
	const struct job_spec *s = sh->s;
	uint64_t amount = s->amount_bytes;

	if (!s->time_ns && !amount)
		amount = s->range_end - s->range_start; /* one pass */
	/* With both a time and an amount, whichever comes first ends the job. */
	sh->amount_total = amount;
	for (unsigned i = 0; i < sh->nworkers; i++) {
		wk[i].budget = UINT64_MAX;
		if (amount)
			wk[i].budget = amount / sh->nworkers + (i == 0 ? amount % sh->nworkers : 0);
		wk[i].ramp_budget = s->ramp_bytes / sh->nworkers + (i == 0 ? s->ramp_bytes % sh->nworkers : 0);
		wk[i].in_ramp = s->ramp_ns || s->ramp_bytes;
		wk[i].cur_idx = 0;
	}
}

int engine_run(struct target *t, const struct job_spec *s, const struct engine_hooks *h,
	       struct job_result *res)
{
	const struct target_info *ti = target_info(t);
	unsigned caps = target_caps(t);
	bool virt = caps & TARGET_CAP_VIRTUAL_TIME;
	struct shared sh;
	struct worker *wk = NULL;
	struct rusage ru1;
	struct target_io_counters io0, io1;
	bool have_io = false;
	int rc;

	memset(res, 0, sizeof(*res));
	hist_init(&res->d[0].lat);
	hist_init(&res->d[1].lat);
	memset(&sh, 0, sizeof(sh));
	res->time_ns = s->time_ns;
	rc = job_validate(s, ti, res->errmsg, sizeof(res->errmsg));
	if (rc)
		return rc;
	sh.t = t;
	sh.s = s;
	sh.h = h;
	sh.nworkers = virt ? 1 : s->threads;
	sh.depth = virt ? s->threads * s->qd : s->qd;
	sh.needs_data = caps & TARGET_CAP_NEEDS_DATA;
	sh.interval_ns = s->interval_ns ? s->interval_ns : 1000000000u;
	/* The mix is worth checking only where the generator draws one (a random job). */
	sh.mix_on = rw_mode_random(s->rw) &&
		    (s->nbs > 1 || s->dist == DIST_ZONED || s->nbs_dropped);
	if (sh.mix_on) {
		res->mix.on = true;
		res->mix.range_start = s->range_start;
		res->mix.range_end = s->range_end;
		res->mix.nbs = s->nbs;
		for (unsigned i = 0; i < s->nbs; i++)
			res->mix.bs[i] = s->bs[i].bs;
		res->mix.ndropped = s->nbs_dropped;
		memcpy(res->mix.dropped, s->bs_dropped, sizeof(res->mix.dropped));
	}
	rc = workload_create(s, ti->logical_block_size, &sh.w, res->errmsg, sizeof(res->errmsg));
	if (rc)
		return rc;
	sh.buf_size = ((size_t)workload_max_bs(sh.w) + 4095) / 4096 * 4096;
	pthread_mutex_init(&sh.lock, NULL);
	pthread_cond_init(&sh.gate_cond, NULL);
	sh.worker_idx = calloc(sh.nworkers, sizeof(*sh.worker_idx));
	sh.ring = calloc(SERIES_RING, sizeof(*sh.ring));
	wk = calloc(sh.nworkers, sizeof(*wk));
	sh.res = res;
	if (!sh.worker_idx || !sh.ring || !wk) {
		rc = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < SERIES_RING; i++)
		slot_clear(&sh.ring[i]);
	for (unsigned i = 0; i < sh.nworkers; i++) {
		wk[i].sh = &sh;
		wk[i].index = i;
		rc = worker_alloc(&wk[i], sh.depth);
		if (rc)
			goto out;
		workload_stream_init(&wk[i].st, sh.w, i);
	}
	split_budgets(&sh, wk);
	measure_clock(t, virt, res);
	/* Another process's I/O on the device: what its own counters saw beyond our bytes. */
	have_io = !target_io_counters(t, &io0);
	sh.gate_expected = sh.nworkers;
	if (sh.nworkers == 1) {
		worker_run(&wk[0]);
	} else {
		unsigned started = 0;

		for (; started < sh.nworkers; started++)
			if (pthread_create(&wk[started].thread, NULL, worker_run, &wk[started])) {
				/* Stop those already running; the rest never start. */
				atomic_store(&sh.stop_issuing, 1);
				pthread_mutex_lock(&sh.lock);
				for (unsigned i = started; i < sh.nworkers; i++)
					sh.worker_idx[i] = UINT64_MAX;
				/* Those already at the gate must not wait for the rest. */
				sh.gate_expected = started;
				if (sh.gate_arrived >= started && !sh.gate_open)
					gate_open_locked(&sh);
				pthread_mutex_unlock(&sh.lock);
				snprintf(res->errmsg, sizeof(res->errmsg), "cannot start thread %u",
					 started);
				rc = -EAGAIN;
				break;
			}
		for (unsigned i = 0; i < started; i++)
			pthread_join(wk[i].thread, NULL);
	}

	if (atomic_load(&sh.measure_begun)) {
		getrusage(RUSAGE_SELF, &ru1);
		res->cpu_user_s = cpu_seconds(&ru1.ru_utime) - cpu_seconds(&sh.cpu0.ru_utime);
		res->cpu_sys_s = cpu_seconds(&ru1.ru_stime) - cpu_seconds(&sh.cpu0.ru_stime);
	}
	for (unsigned i = 0; i < sh.nworkers && !rc; i++)
		if (wk[i].setup_rc) {
			rc = wk[i].setup_rc;
			snprintf(res->errmsg, sizeof(res->errmsg), "%s", wk[i].setup_msg);
		}
	/* Intervals still open when every worker had finished are turned into rows here. */
	pthread_mutex_lock(&sh.lock);
	{
		uint64_t last_idx = sh.next_final;

		for (unsigned i = 0; i < SERIES_RING; i++)
			if (sh.ring[i].used && sh.ring[i].idx + 1 > last_idx)
				last_idx = sh.ring[i].idx + 1;
		while (sh.next_final < last_idx)
			finalize_one(&sh, 0);
	}
	pthread_mutex_unlock(&sh.lock);
	collect(&sh, wk, res);
	if (sh.row_error && !rc) {
		rc = sh.row_error;
		snprintf(res->errmsg, sizeof(res->errmsg), "out of memory for the time series");
	}
	if (h && h->stop && *h->stop)
		res->interrupted = true;
	if (have_io && !target_io_counters(t, &io1)) {
		uint64_t rd = io1.bytes_read - io0.bytes_read;
		uint64_t wr = io1.bytes_written - io0.bytes_written;

		res->foreign_sectors_read =
			rd > res->bytes_read_total ? (rd - res->bytes_read_total) / 512 : 0;
		res->foreign_sectors_written =
			wr > res->bytes_written_total ? (wr - res->bytes_written_total) / 512 : 0;
	}
out:
	if (wk)
		for (unsigned i = 0; i < sh.nworkers; i++)
			worker_release(&wk[i]);
	free(wk);
	free(sh.rows);
	free(sh.ring);
	free(sh.worker_idx);
	workload_free(sh.w);
	pthread_mutex_destroy(&sh.lock);
	pthread_cond_destroy(&sh.gate_cond);
	if (rc && !res->errmsg[0])
		snprintf(res->errmsg, sizeof(res->errmsg), "%s", strerror(-rc));
	return rc;
}

void job_result_release(struct job_result *res)
{
	if (!res)
		return;
	free(res->series);
	res->series = NULL;
	res->nseries = 0;
}

const char *job_no_io_reason(const struct job_result *r, char *buf, size_t len)
{
	char a[32], b[32];

	if (r->d[0].ios + r->d[1].ios || r->error || r->interrupted)
		return NULL;
	if (r->time_ns && r->ramp_elapsed_ns)
		snprintf(buf, len,
			 "no I/O completed in the measured window: the ramp's last I/Os ended "
			 "after the window of %s had passed (after a ramp of %s); lengthen the time",
			 units_fmt_duration(r->time_ns, a, sizeof(a)),
			 units_fmt_duration(r->ramp_elapsed_ns, b, sizeof(b)));
	else if (r->time_ns)
		snprintf(buf, len,
			 "no I/O completed in the measured window of %s; lengthen the time",
			 units_fmt_duration(r->time_ns, a, sizeof(a)));
	else
		snprintf(buf, len, "no I/O completed");
	return buf;
}

double job_iops(const struct job_result *r)
{
	if (!r->elapsed_ns)
		return 0;
	return (double)(r->d[0].ios + r->d[1].ios) * 1e9 / (double)r->elapsed_ns;
}

double job_bw(const struct job_result *r)
{
	if (!r->elapsed_ns)
		return 0;
	return (double)(r->d[0].bytes + r->d[1].bytes) * 1e9 / (double)r->elapsed_ns;
}
