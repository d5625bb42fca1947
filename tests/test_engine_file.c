/* SPDX-License-Identifier: MIT */
/*
 * test_engine_file: the engine and the io_uring target on regular files in a temp dir.
 * A sequential fill writes every block once with the right data at the right place (the
 * 4 KiB stamps carry the offset); table-driven jobs over modes x queue depths x threads add up
 * (histogram counts = I/Os = series rows, bytes = amount); ramp bytes are excluded; a read past
 * the end of a file that shrank under us is reported with offset and errno; a 512 B job on a
 * 4Kn target is refused; the stop flag stops the job; a file on tmpfs is refused.
 */
#include <errno.h>
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

#include "engine.h"
#include "target.h"
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
	if (statfs("/dev/shm", &sfs) || sfs.f_type != 0x01021994)
		skip();
	snprintf(path, sizeof(path), "/dev/shm/ssdlab-engine-test-%d.img", (int)getpid());
	rc = target_open(path, &o, &t, err, sizeof(err));
	unlink(path);
	assert_int_not_equal(rc, 0);
	assert_null(t);
	assert_true(strstr(err, "tmpfs") || strstr(err, "O_DIRECT"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fill_and_verify, setup, teardown),
		cmocka_unit_test_setup_teardown(test_jobs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_short_read_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_flag, setup, teardown),
		cmocka_unit_test(test_tmpfs_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
