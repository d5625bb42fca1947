/* SPDX-License-Identifier: MIT */
/*
 * test_engine_file: the engine and the io_uring target on regular files in a temp dir.
 * A sequential fill writes every block once with the right data at the right place (the
 * 4 KiB stamps carry the offset); table-driven jobs over modes x queue depths x threads add up
 * (histogram counts = I/Os = series rows, bytes = amount); ramp bytes are excluded; a read past
 * the end of a file that shrank under us is reported with offset and errno; a 512 B job on a
 * 4Kn target is refused; the stop flag stops the job; a file on tmpfs is refused. A scripted
 * virtual-time target checks the single queue of threads x qd, exact latencies, IOPS and series
 * rows, and that a failing submit or a foreign completion tag ends the job instead of hanging.
 * A real-clock scripted target slow to open its queues checks that setup is outside the
 * measured window; a ramp outlasting its window leaves a job with no figures and a reason.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <time.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "targets/target.h"
#include "testutil.h"

#define KiB 1024ull
#define MiB (1024ull * KiB)
#define FILE_SIZE (32 * MiB)

struct fixture {
	char *dir;
	char path[4096];
	struct target *t;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct target_open_opts o = {.writable = true, .create = true, .size = FILE_SIZE};
	char err[256];
	int rc;

	if (!f)
		return -1;
	f->dir = tu_mkdtemp("engine");
	if (!f->dir)
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/target.img", f->dir);
	rc = target_open(f->path, &o, &f->t, err, sizeof(err));
	if (rc == -EINVAL && strstr(err, "O_DIRECT")) {
		tu_rmtree(f->dir);
		tu_skip("the temp dir's file system has no O_DIRECT: %s", err);
	}
	if (rc) {
		print_error("target_open: %s\n", err);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	target_close(f->t);
	tu_rmtree(f->dir);
	free(f->dir);
	free(f);
	return 0;
}

static struct job_spec spec(enum rw_mode rw, uint32_t bs, unsigned qd, unsigned threads)
{
	struct job_spec s;

	memset(&s, 0, sizeof(s));
	s.rw = rw;
	s.rwmix_read = 70;
	s.bs[0].bs = bs;
	s.bs[0].weight = 1;
	s.nbs = 1;
	s.qd = qd;
	s.threads = threads;
	s.range_start = 0;
	s.range_end = FILE_SIZE;
	s.seed = 7;
	return s;
}

static void check_consistent(const struct job_result *r)
{
	uint64_t ios[2] = {0}, bytes[2] = {0};

	assert_int_equal(r->error, 0);
	for (int d = 0; d < 2; d++)
		assert_int_equal(r->d[d].lat.count, r->d[d].ios);
	for (size_t i = 0; i < r->nseries; i++)
		for (int d = 0; d < 2; d++) {
			ios[d] += r->series[i].d[d].ios;
			bytes[d] += r->series[i].d[d].bytes;
			if (i)
				assert_true(r->series[i].t_ns > r->series[i - 1].t_ns);
		}
	for (int d = 0; d < 2; d++) {
		assert_int_equal(ios[d], r->d[d].ios);
		assert_int_equal(bytes[d], r->d[d].bytes);
	}
	if (r->nseries)
		assert_int_equal(r->series[r->nseries - 1].total_bytes_written,
				 r->bytes_written_total);
	assert_true(r->elapsed_ns > 0);
	assert_true(r->effective_qd >= 1);
	assert_true(r->clock_read_ns > 0 && r->clock_read_ns < 10000);
	assert_non_null(strstr(r->clock_source, "CLOCK_MONOTONIC"));
}

/* A full sequential fill: each 4 KiB block starts with its own offset (the data stamp). */
static void test_fill_and_verify(void **state)
{
	struct fixture *f = *state;
	struct job_spec s = spec(RW_WRITE, 128 * KiB, 8, 1);
	struct job_result r;
	unsigned char *buf = malloc(FILE_SIZE);
	int fd;

	assert_non_null(buf);
	assert_int_equal(engine_run(f->t, &s, NULL, &r), 0);
	check_consistent(&r);
	assert_int_equal(r.d[IO_WRITE].bytes, FILE_SIZE);
	assert_int_equal(r.bytes_written_total, FILE_SIZE);
	assert_int_equal(r.d[IO_READ].ios, 0);
	assert_int_equal(r.seq_next, 0); /* wrapped after one pass */
	job_result_release(&r);
	fd = open(f->path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, buf, FILE_SIZE, 0), FILE_SIZE);
	close(fd);
	for (uint64_t off = 0; off < FILE_SIZE; off += 4096) {
		uint64_t stamp;

		memcpy(&stamp, buf + off, 8);
		if (stamp != off)
			fail_msg("block at %llu carries stamp %llu", (unsigned long long)off,
				 (unsigned long long)stamp);
	}
	free(buf);
}

struct job_case {
	enum rw_mode rw;
	uint32_t bs;
	unsigned qd, threads;
	uint64_t amount, ramp_bytes, time_ns;
};

static const struct job_case job_cases[] = {
	{RW_RANDREAD, 4096, 1, 1, 4 * MiB, 0, 0},
	{RW_RANDREAD, 4096, 32, 1, 8 * MiB, 1 * MiB, 0},
	{RW_RANDWRITE, 4096, 16, 2, 8 * MiB, 0, 0},
	{RW_RANDRW, 8192, 8, 2, 8 * MiB, 2 * MiB, 0},
	{RW_READ, 64 * KiB, 4, 1, 48 * MiB, 0, 0},
	{RW_RW, 16 * KiB, 256, 1, 16 * MiB, 0, 0},
	{RW_RANDREAD, 4096, 8, 2, 0, 0, 300000000},
};

static void test_jobs(void **state)
{
	struct fixture *f = *state;

	for (size_t c = 0; c < sizeof(job_cases) / sizeof(job_cases[0]); c++) {
		const struct job_case *jc = &job_cases[c];
		struct job_spec s = spec(jc->rw, jc->bs, jc->qd, jc->threads);
		struct job_result r;
		uint64_t measured;

		s.amount_bytes = jc->amount;
		s.ramp_bytes = jc->ramp_bytes;
		s.time_ns = jc->time_ns;
		s.interval_ns = 50000000; /* 50 ms rows */
		if (engine_run(f->t, &s, NULL, &r))
			fail_msg("case %zu: %s", c, r.errmsg);
		check_consistent(&r);
		measured = r.d[0].bytes + r.d[1].bytes;
		if (jc->amount) {
			assert_int_equal(measured, jc->amount);
			assert_int_equal(r.bytes_read_total + r.bytes_written_total,
					 jc->amount + jc->ramp_bytes);
		} else {
			assert_true(r.elapsed_ns >= jc->time_ns);
			assert_true(r.nseries >= 4);
		}
		if (jc->rw == RW_RANDRW || jc->rw == RW_RW) {
			double rf = (double)r.d[IO_READ].ios / (double)(r.d[0].ios + r.d[1].ios);

			assert_true(fabs(rf - 0.70) < 0.05);
		}
		assert_true(job_iops(&r) > 0 && job_bw(&r) > 0);
		job_result_release(&r);
	}
}

/* The file shrinks under the open target: a read past its end is short, reported, and stops. */
static void test_short_read_error(void **state)
{
	struct fixture *f = *state;
	struct job_spec s = spec(RW_READ, 64 * KiB, 4, 1);
	struct job_result r;

	assert_int_equal(truncate(f->path, 4 * MiB), 0);
	assert_int_equal(engine_run(f->t, &s, NULL, &r), 0);
	assert_int_equal(r.error, -EIO);
	assert_true(r.err_offset >= 4 * MiB);
	assert_int_equal(r.err_len, 64 * KiB);
	assert_non_null(strstr(r.errmsg, "offset"));
	assert_true(r.d[IO_READ].bytes <= 4 * MiB);
	job_result_release(&r);
	assert_int_equal(truncate(f->path, FILE_SIZE), 0);
}

static void test_refusals(void **state)
{
	struct fixture *f = *state;
	struct target_info ti = *target_info(f->t);
	struct job_spec s = spec(RW_RANDREAD, 512, 1, 1);
	struct job_result r;
	char err[256] = "";

	ti.logical_block_size = 4096;
	assert_int_equal(job_validate(&s, &ti, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "4096"));
	s = spec(RW_RANDREAD, 4096, 1, 1);
	s.range_end = FILE_SIZE + 4096;
	assert_int_equal(engine_run(f->t, &s, NULL, &r), -EINVAL);
	assert_non_null(strstr(r.errmsg, "capacity"));
	s = spec(RW_RANDREAD, 4096, 2000, 1);
	assert_int_equal(job_validate(&s, target_info(f->t), err, sizeof(err)), -EINVAL);
}

static void test_stop_flag(void **state)
{
	struct fixture *f = *state;
	struct job_spec s = spec(RW_RANDREAD, 4096, 4, 1);
	volatile sig_atomic_t stop = 1;
	struct engine_hooks h = {.stop = &stop};
	struct job_result r;

	s.time_ns = 10ull * 1000000000u;
	assert_int_equal(engine_run(f->t, &s, &h, &r), 0);
	assert_true(r.interrupted);
	assert_int_equal(r.d[0].ios + r.d[1].ios, 0);
	job_result_release(&r);
}

static void test_tmpfs_refused(void **state)
{
	struct target_open_opts o = {.writable = true, .create = true, .size = 1 * MiB};
	struct statfs sfs;
	struct target *t = NULL;
	char path[256], err[256] = "";
	int rc;

	(void)state;
	if (statfs("/dev/shm", &sfs) || sfs.f_type != 0x01021994) {
		print_message("skipped: /dev/shm is absent or not tmpfs here: no tmpfs to refuse\n");
		skip();
	}
	snprintf(path, sizeof(path), "/dev/shm/ssdlab-engine-test-%d.img", (int)getpid());
	rc = target_open(path, &o, &t, err, sizeof(err));
	unlink(path);
	assert_int_not_equal(rc, 0);
	assert_null(t);
	assert_true(strstr(err, "tmpfs") || strstr(err, "O_DIRECT"));
}


/* ---- a scripted virtual-time target ------------------------------------------------------
 * Reads take exactly 100 us and writes 300 us of virtual time; reap() advances the clock to
 * the completions it returns. It counts I/Os in flight, and can fail a submit or return a
 * tag it never got, to check that the engine neither hangs nor reads out of bounds. */
#define MOCK_MAX 4096
struct mock {
	uint64_t now;
	unsigned n;
	struct target_completion pend[MOCK_MAX];
	unsigned inflight, max_inflight;
	uint64_t submits, fail_submit_at, bad_tag_at, zero_reap_at, reaped;
};

static int mock_open(struct target *t, const char *spec, const struct target_open_opts *o)
{
	struct target_info *ti = target_info_mut(t);
	struct mock *m = calloc(1, sizeof(*m));

	(void)o;
	if (!m)
		return -ENOMEM;
	ti->kind = TARGET_KIND_SIM;
	snprintf(ti->path, sizeof(ti->path), "%s", spec);
	ti->capacity = 1ull << 30;
	ti->logical_block_size = 4096;
	target_set_priv(t, m);
	return 0;
}

static void mock_close(struct target *t)
{
	free(target_priv(t));
}

static int mock_queue_open(struct target *t, const struct target_queue_opts *o,
			   struct target_queue **q)
{
	(void)o;
	*q = (struct target_queue *)t;
	return 0;
}

static void mock_queue_close(struct target_queue *q)
{
	(void)q;
}

static int mock_submit(struct target_queue *q, struct target_io *ios, unsigned n)
{
	struct mock *m = target_priv((struct target *)q);

	if (m->fail_submit_at && m->submits + n >= m->fail_submit_at)
		return -EIO;
	for (unsigned i = 0; i < n; i++) {
		struct target_completion *c = &m->pend[m->n++];

		assert_true(m->n <= MOCK_MAX);
		assert_int_equal(ios[i].submit_ns, m->now); /* stamped with our clock */
		assert_null(ios[i].buf);		     /* no data for a target without NEEDS_DATA */
		c->user = ios[i].user;
		c->res = (int32_t)ios[i].len;
		c->done_ns = m->now + (ios[i].dir == IO_READ ? 100000 : 300000);
		m->inflight++;
	}
	m->submits += n;
	if (m->inflight > m->max_inflight)
		m->max_inflight = m->inflight;
	return (int)n;
}

static int mock_reap(struct target_queue *q, struct target_completion *c, unsigned min,
		     unsigned max)
{
	struct mock *m = target_priv((struct target *)q);
	unsigned got = 0;

	if (m->zero_reap_at && m->reaped >= m->zero_reap_at)
		return 0; /* a broken target: nothing, although I/O is in flight */
	while (got < max && m->n) {
		unsigned best = 0;

		for (unsigned i = 1; i < m->n; i++)
			if (m->pend[i].done_ns < m->pend[best].done_ns)
				best = i;
		if (got >= min && m->pend[best].done_ns > m->now)
			break;
		if (m->pend[best].done_ns > m->now)
			m->now = m->pend[best].done_ns;
		c[got] = m->pend[best];
		m->pend[best] = m->pend[--m->n];
		m->inflight--;
		if (++m->reaped == m->bad_tag_at)
			c[got].user = 1u << 30;
		got++;
	}
	return (int)got;
}

static uint64_t mock_now(struct target *t)
{
	return ((struct mock *)target_priv(t))->now;
}

static const struct target_ops mock_ops = {
	.name = "mock",
	.caps = TARGET_CAP_VIRTUAL_TIME,
	.open = mock_open,
	.close = mock_close,
	.queue_open = mock_queue_open,
	.queue_close = mock_queue_close,
	.submit = mock_submit,
	.reap = mock_reap,
	.now = mock_now,
};

static struct target *mock_target(void)
{
	struct target *t = NULL;
	char err[128];

	assert_int_equal(target_open_ops(&mock_ops, "mock:", NULL, &t, err, sizeof(err)), 0);
	return t;
}

/* The device's own counters: 0 at the first call, then 1 GiB read (ours and another's). */
static unsigned counter_calls;

static int mock_io_counters(struct target *t, struct target_io_counters *c)
{
	(void)t;
	c->bytes_read = counter_calls++ ? 1u << 30 : 0;
	c->bytes_written = 0;
	return 0;
}

/* Foreign I/O comes from the target's io_counters hook, the engine's own bytes taken off. */
static void test_foreign_io(void **state)
{
	struct target_ops ops = mock_ops;
	struct target *t = NULL;
	struct job_spec s = spec(RW_RANDREAD, 4096, 1, 4);
	struct job_result r;
	char err[128];

	(void)state;
	ops.io_counters = mock_io_counters;
	counter_calls = 0;
	assert_int_equal(target_open_ops(&ops, "mock:", NULL, &t, err, sizeof(err)), 0);
	s.range_end = 1ull << 30;
	s.time_ns = 1000000;
	s.ramp_ns = 0; /* the mock's clock starts at 0: without a ramp the job must still end */
	assert_int_equal(engine_run(t, &s, NULL, &r), 0);
	assert_int_equal(counter_calls, 2); /* before and after the job, nowhere else */
	assert_true(r.bytes_read_total > 0);
	assert_int_equal(r.foreign_sectors_read, ((1u << 30) - r.bytes_read_total) / 512);
	assert_int_equal(r.foreign_sectors_written, 0);
	job_result_release(&r);
	target_close(t);
}

/* Virtual time: one queue of threads x qd, exact latencies, exact IOPS and series. */
static void test_virtual_time(void **state)
{
	struct target *t = mock_target();
	struct mock *m = target_priv(t);
	struct job_spec s = spec(RW_RANDREAD, 4096, 8, 4);
	struct job_result r;

	(void)state;
	s.range_end = 1ull << 30;
	s.time_ns = 10000000; /* 10 ms of virtual time */
	s.ramp_ns = 1000000;
	s.interval_ns = 1000000;
	assert_int_equal(engine_run(t, &s, NULL, &r), 0);
	assert_int_equal(m->max_inflight, 32);
	assert_int_equal(r.error, 0);
	assert_int_equal(r.d[IO_READ].lat.min, 100000);
	assert_int_equal(r.d[IO_READ].lat.max, 100000);
	assert_int_equal(hist_percentile(&r.d[IO_READ].lat, 99), 100000);
	assert_int_equal(r.effective_qd, 32);
	assert_string_equal(r.clock_source, "virtual");
	/* 32 in flight, 100 us each: 320 000 IOPS; 10 ms measured after a 1 ms ramp. */
	assert_int_equal(r.d[IO_READ].ios, 3200);
	assert_int_equal(r.elapsed_ns, 10000000);
	assert_int_equal(r.ramp_elapsed_ns, 1000000);
	assert_true(fabs(job_iops(&r) - 320000) < 1);
	assert_int_equal(r.nseries, 10);
	for (size_t i = 0; i < r.nseries; i++) {
		assert_int_equal(r.series[i].t_ns, (i + 1) * 1000000);
		assert_int_equal(r.series[i].d[IO_READ].ios, 320);
		assert_int_equal(r.series[i].d[IO_READ].lat_p99_ns, 100000);
	}
	job_result_release(&r);

	/* Mixed: per-direction latencies stay apart. */
	s = spec(RW_RANDRW, 4096, 16, 1);
	s.range_end = 1ull << 30;
	s.amount_bytes = 4096 * 1000;
	assert_int_equal(engine_run(t, &s, NULL, &r), 0);
	assert_int_equal(r.d[0].ios + r.d[1].ios, 1000);
	assert_true(hist_mean(&r.d[IO_READ].lat) == 100000.0);
	assert_true(hist_mean(&r.d[IO_WRITE].lat) == 300000.0);
	job_result_release(&r);
	target_close(t);
}

/* A failing submit, a foreign tag or an empty reap ends the job with an error, never a hang. */
static void test_target_faults(void **state)
{
	struct target *t = mock_target();
	struct mock *m = target_priv(t);
	struct job_spec s = spec(RW_RANDWRITE, 4096, 8, 1);
	struct job_result r;

	(void)state;
	s.range_end = 1ull << 30;
	s.time_ns = 1000000000;
	m->fail_submit_at = 500;
	assert_int_equal(engine_run(t, &s, NULL, &r), 0);
	assert_int_equal(r.error, -EIO);
	assert_true(r.d[IO_WRITE].ios < 500);
	job_result_release(&r);
	m->fail_submit_at = 0;
	m->bad_tag_at = 50;
	m->reaped = 0;
	assert_int_equal(engine_run(t, &s, NULL, &r), 0);
	assert_int_equal(r.error, -EPROTO);
	assert_non_null(strstr(r.errmsg, "never given"));
	job_result_release(&r);
	m->bad_tag_at = 0;
	m->zero_reap_at = 100;
	m->reaped = 0;
	assert_int_equal(engine_run(t, &s, NULL, &r), 0);
	assert_int_equal(r.error, -EPROTO);
	assert_non_null(strstr(r.errmsg, "no completion"));
	job_result_release(&r);
	target_close(t);
}

/* ---- a scripted real-clock target whose queues are slow to open -------------------------
 * Opening queue k sleeps 250 ms + 50 ms x k (a driver slow to create queues, or large buffers
 * to fill); its I/Os complete at once, stamped with CLOCK_MONOTONIC. It records when the last
 * queue was ready and when the first I/O was submitted. */
#define SLOW_QUEUES 4
struct slow_queue {
	struct target *t;
	struct target_completion pend[64];
	unsigned n;
	uint64_t submitted;
};

struct slow {
	_Atomic unsigned opened;
	_Atomic uint64_t ready_max_ns, first_submit_ns;
	struct slow_queue q[SLOW_QUEUES];
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int slow_open(struct target *t, const char *spec, const struct target_open_opts *o)
{
	struct target_info *ti = target_info_mut(t);
	struct slow *m = calloc(1, sizeof(*m));

	(void)o;
	if (!m)
		return -ENOMEM;
	ti->kind = TARGET_KIND_BLOCKDEV; /* a real device, as the engine sees it */
	snprintf(ti->path, sizeof(ti->path), "%s", spec);
	ti->capacity = 1ull << 30;
	ti->logical_block_size = 4096;
	target_set_priv(t, m);
	return 0;
}

static int slow_queue_open(struct target *t, const struct target_queue_opts *o,
			   struct target_queue **q)
{
	struct slow *m = target_priv(t);
	unsigned k = atomic_fetch_add(&m->opened, 1);
	struct timespec d = {.tv_sec = 0, .tv_nsec = (250 + 50 * (long)k) * 1000000L};
	uint64_t now, prev;

	assert_true(k < SLOW_QUEUES && o->depth <= 64);
	nanosleep(&d, NULL);
	m->q[k].t = t;
	now = mono_ns();
	prev = atomic_load(&m->ready_max_ns);
	while (now > prev && !atomic_compare_exchange_weak(&m->ready_max_ns, &prev, now))
		;
	*q = (struct target_queue *)&m->q[k];
	return 0;
}

static void slow_queue_close(struct target_queue *q)
{
	(void)q;
}

static int slow_submit(struct target_queue *q, struct target_io *ios, unsigned n)
{
	struct slow_queue *sq = (struct slow_queue *)q;
	struct slow *m = target_priv(sq->t);
	uint64_t zero = 0;

	atomic_compare_exchange_strong(&m->first_submit_ns, &zero, ios[0].submit_ns);
	for (unsigned i = 0; i < n; i++) {
		sq->pend[sq->n].user = ios[i].user;
		sq->pend[sq->n].res = (int32_t)ios[i].len;
		sq->n++;
	}
	sq->submitted += n;
	return (int)n;
}

static int slow_reap(struct target_queue *q, struct target_completion *c, unsigned min,
		     unsigned max)
{
	struct slow_queue *sq = (struct slow_queue *)q;
	uint64_t now = mono_ns();
	unsigned got = 0;

	(void)min;
	while (got < max && sq->n) {
		c[got] = sq->pend[--sq->n];
		c[got++].done_ns = now;
	}
	return (int)got;
}

static uint64_t slow_now(struct target *t)
{
	(void)t;
	return mono_ns();
}

static const struct target_ops slow_ops = {
	.name = "slow-setup",
	.open = slow_open,
	.close = mock_close,
	.queue_open = slow_queue_open,
	.queue_close = slow_queue_close,
	.submit = slow_submit,
	.reap = slow_reap,
	.now = slow_now,
};

/* The clock starts when every queue is open: a 200 ms job measures 200 ms of I/O on every
 * thread although opening the queues took 250..400 ms (issue 9, point 3). */
static void test_setup_outside_window(void **state)
{
	struct target *t = NULL;
	struct slow *m;
	struct job_spec s = spec(RW_RANDREAD, 4096, 2, SLOW_QUEUES);
	struct job_result r;
	char err[128];
	uint64_t t0, wall;

	(void)state;
	assert_int_equal(target_open_ops(&slow_ops, "slow:", NULL, &t, err, sizeof(err)), 0);
	m = target_priv(t);
	s.range_end = 1ull << 30;
	s.time_ns = 200000000;
	t0 = mono_ns();
	assert_int_equal(engine_run(t, &s, NULL, &r), 0);
	wall = mono_ns() - t0;
	assert_int_equal(r.error, 0);
	print_message("elapsed %.1f ms, wall %.1f ms, %" PRIu64 " I/Os\n", r.elapsed_ns / 1e6,
		      wall / 1e6, r.d[IO_READ].ios);
	for (unsigned k = 0; k < SLOW_QUEUES; k++)
		assert_true(m->q[k].submitted > 0); /* every thread measured */
	assert_true(m->first_submit_ns >= m->ready_max_ns);
	/* The window is the requested time (the last completions drain right after it). */
	assert_true(r.elapsed_ns >= s.time_ns && r.elapsed_ns < s.time_ns + 50000000);
	assert_true(wall >= 400000000 + s.time_ns);
	job_result_release(&r);
	target_close(t);
}

/* A ramp whose last I/O ends after the measured window leaves nothing measured: the job says
 * so rather than reporting 0 IOPS, and issues no measured I/O after its window. */
static void test_no_io_in_window(void **state)
{
	struct target *t = mock_target();
	struct mock *m = target_priv(t);
	struct job_spec s = spec(RW_RANDWRITE, 4096, 1, 1);
	struct job_result r;
	char why[256];

	(void)state;
	s.range_end = 1ull << 30;
	s.ramp_ns = 100000; /* the ramp's write, issued at 0, ends at 300 us */
	s.time_ns = 50000;  /* the window is (100 us, 150 us] */
	assert_int_equal(engine_run(t, &s, NULL, &r), 0);
	assert_int_equal(r.error, 0);
	assert_int_equal(r.d[IO_WRITE].ios, 0);
	assert_int_equal(m->submits, 1);
	assert_non_null(job_no_io_reason(&r, why, sizeof(why)));
	assert_non_null(strstr(why, "no I/O completed in the measured window"));
	job_result_release(&r);
	/* With a window longer than the ramp's I/O, there are figures and no reason. */
	s.time_ns = 1000000;
	assert_int_equal(engine_run(t, &s, NULL, &r), 0);
	assert_true(r.d[IO_WRITE].ios > 0);
	assert_null(job_no_io_reason(&r, why, sizeof(why)));
	job_result_release(&r);
	target_close(t);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	struct statfs sfs;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fill_and_verify, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jobs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_read_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_flag, setup, teardown),
		cmocka_unit_test(test_tmpfs_refused),
		cmocka_unit_test(test_virtual_time),
		cmocka_unit_test(test_foreign_io),
		cmocka_unit_test(test_target_faults),
		cmocka_unit_test(test_setup_outside_window),
		cmocka_unit_test(test_no_io_in_window),
	};

	/* O_DIRECT needs a disk-backed file system: where /tmp is tmpfs, use /var/tmp. */
	if (!statfs(tmp && *tmp ? tmp : "/tmp", &sfs) && sfs.f_type == 0x01021994 &&
	    !statfs("/var/tmp", &sfs) && sfs.f_type != 0x01021994)
		setenv("TMPDIR", "/var/tmp", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
