/* SPDX-License-Identifier: MIT */
/*
 * test_sim_model: model files. Every bundled model loads and says what it represents; spare is
 * reported both ways; a wrong model gets positioned errors; the default model has the shape the
 * issue asks for (sequential write ~470 MB/s in the SLC cache, ~80 MB/s after it, within 10%);
 * and scaling is checked in dimensionless terms: two sizes of the same drive write the same
 * fraction of it in a scaled cell and reclaim the same fraction of their spare in a scaled idle.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "sim/sim_model.h"
#include "sim_testlib.h"
#include "results/snapshot.h"
#include "analysis/wa.h"
#include "targets/target.h"
#include "testutil.h"

#define SEC 1000000000ULL

static void test_bundled_models(void **state)
{
	char **names = NULL;
	size_t n = 0;
	bool seen[4] = {false};
	static const char *const want[] = {"client-tlc", "idle-gc-aggressive", "no-idle-gc",
					   "enterprise-28op"};

	(void)state;
	assert_int_equal(sim_model_names(NULL, &names, &n), 0);
	assert_true(n >= 4);
	for (size_t i = 0; i < n; i++) {
		struct sim_model m;
		struct ydoc_error e;
		char buf[1024];

		if (sim_model_load(names[i], NULL, &m, &e))
			fail_msg("%s: %s", names[i], ydoc_error_format(&e, buf, sizeof(buf)));
		assert_string_equal(m.name, names[i]);
		assert_true(strlen(m.description) > 10);
		assert_true(strlen(m.sources) > 10);
		assert_true(m.cfg.represents >= m.cfg.user_capacity);
		assert_true(sim_model_time_scale(&m) > 0 && sim_model_time_scale(&m) <= 1);
		/* the two spare measures describe the same space */
		assert_true(fabs(sim_model_op(&m) - sim_model_spare_factor(&m) / (1 - sim_model_spare_factor(&m))) < 1e-9);
		for (size_t k = 0; k < 4; k++)
			if (!strcmp(names[i], want[k]))
				seen[k] = true;
		if (i)
			assert_true(strcmp(names[i - 1], names[i]) < 0);
	}
	for (size_t k = 0; k < 4; k++)
		assert_true(seen[k]);
	sim_model_names_free(names, n);
}

static void test_enterprise_op(void **state)
{
	struct sim_model m;
	struct ydoc_error e;

	(void)state;
	assert_int_equal(sim_model_load("enterprise-28op", NULL, &m, &e), 0);
	/* 28% OP is a spare factor of 0.219; whole blocks round it up a little */
	assert_true(fabs(m.cfg.spare_factor - 0.28 / 1.28) < 1e-12);
	assert_true(sim_model_op(&m) >= 0.28 && sim_model_op(&m) < 0.285);
	assert_int_equal(m.cfg.logical_block_size, 4096);
	assert_true(m.cfg.power_loss_protection);
}

static void test_load_by_path_and_missing(void **state)
{
	struct sim_model m;
	struct ydoc_error e;
	char *dir = tu_mkdtemp("simmodel"), path[4096];

	(void)state;
	snprintf(path, sizeof(path), "%s/mine.yaml", dir);
	assert_int_equal(tu_write_file(path, "user_capacity: 256m\nop: 10%\n"), 0);
	assert_int_equal(sim_model_load(path, NULL, &m, &e), 0);
	assert_string_equal(m.name, "mine");
	assert_string_equal(m.path, path);
	assert_false(m.cfg.idle_gc.enabled);
	assert_int_equal(sim_model_load("no-such-model", NULL, &m, &e), -ENOENT);
	assert_non_null(strstr(e.msg, "no such model"));
	/* By name in the caller's directory (the CLI's $SSDLAB_MODELS), searched first. */
	assert_int_equal(sim_model_load("mine", NULL, &m, &e), -ENOENT);
	assert_int_equal(sim_model_load("mine", dir, &m, &e), 0);
	assert_string_equal(m.path, path);
	{
		char **names;
		size_t n;
		bool found = false;

		assert_int_equal(sim_model_names(dir, &names, &n), 0);
		for (size_t i = 0; i < n; i++)
			found |= !strcmp(names[i], "mine");
		assert_true(found);
		sim_model_names_free(names, n);
	}
	tu_rmtree(dir);
	free(dir);
}

static void test_errors(void **state)
{
	static const struct {
		const char *text;
		int line, col;
		const char *msg;
	} cases[] = {
		{"user_capacity: 64m\nspare_factr: 0.1\n", 2, 1, "did you mean 'spare_factor'"},
		{"user_capacity: 64m\nspare_factor: 0.1\nop: 10%\n", 3, 1, "exactly one of"},
		{"spare_factor: 0.1\n", 1, 1, "user_capacity"},
		{"user_capacity: big\nspare_factor: 0.1\n", 1, 16, "expected"},
		{"user_capacity: 64m\nspare_factor: 0.1\ngc: {policy: lru}\n", 3, 14, "lru"},
		{"user_capacity: 64m\nspare_factor: 0.1\ngc: {policy: greedy, d: 3}\n", 3, 22, "d-choices"},
		{"user_capacity: 64m\nspare_factor: 0.1\ntiming:\n  read: fast\n", 4, 9, "expected"},
		{"user_capacity: 64m\nspare_factor: 0.001\n", 1, 1, "cannot run"},
		{"user_capacity: 64m\nspare_factor: 0.1\nidle_gc: {enabled: true}\n", 3, 10, "rate"},
		{"user_capacity: 64m\nspare_factor: 0.1\npage_size: 6k\n", 1, 1, "page_size"},
		{"user_capacity: 64m\nspare_factor: 0.1\nrepresents: 1m\n", 3, 13, "smaller"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim_model m;
		struct ydoc_error e;
		char buf[1024];

		memset(&m, 0x5a, sizeof(m));
		assert_int_equal(sim_model_parse(cases[i].text, strlen(cases[i].text), "m.yaml", &m, &e), -EINVAL);
		ydoc_error_format(&e, buf, sizeof(buf));
		printf("case %zu: %s\n", i, buf);
		assert_string_equal(e.file, "m.yaml");
		assert_int_equal(e.line, cases[i].line);
		assert_int_equal(e.col, cases[i].col);
		assert_non_null(strstr(e.msg, cases[i].msg));
		assert_int_equal(((unsigned char *)&m)[0], 0x5a); /* untouched on failure */
	}
}

/* A model's sources are kept whole (a 1000-character citation is not cut at 512) or refused
 * with their line when they do not fit; a file that is not a model (sim:../../etc/passwd) is
 * refused without its content in the message. */
static void test_sources_whole_and_non_model(void **state)
{
	static const char passwd[] = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/:/bin/sh\n";
	struct sim_model m;
	struct ydoc_error e;
	size_t n = 1000, len;
	char *text = malloc(8192), buf[1024];

	(void)state;
	assert_non_null(text);
	len = (size_t)snprintf(text, 8192, "user_capacity: 256m\nop: 10%%\nsources: ");
	for (size_t i = 0; i < n; i++)
		text[len++] = (char)('a' + i % 26);
	text[len++] = '\n';
	text[len] = 0;
	if (sim_model_parse(text, len, "m.yaml", &m, &e))
		fail_msg("%s", ydoc_error_format(&e, buf, sizeof(buf)));
	assert_int_equal(strlen(m.sources), n);
	assert_int_equal(m.sources[n - 1], 'a' + (n - 1) % 26);

	n = sizeof(m.sources); /* one more than fits */
	len = (size_t)snprintf(text, 8192, "user_capacity: 256m\nop: 10%%\nsources: ");
	for (size_t i = 0; i < n; i++)
		text[len++] = 'x';
	text[len++] = '\n';
	text[len] = 0;
	assert_int_equal(sim_model_parse(text, len, "m.yaml", &m, &e), -EINVAL);
	assert_int_equal(e.line, 3);
	assert_non_null(strstr(e.msg, "sources is 4096 characters long"));

	assert_int_equal(sim_model_parse(passwd, strlen(passwd), "passwd", &m, &e), -EINVAL);
	ydoc_error_format(&e, buf, sizeof(buf));
	printf("%s\n", buf);
	assert_non_null(strstr(buf, "passwd:1:1: not a model file"));
	assert_null(strstr(buf, "root"));
	free(text);
}

/* Sequential 128 KiB writes at queue depth 32 from fresh, in windows of `win` bytes. */
static void seq_rates(struct sim_ssd *s, uint64_t total, uint64_t win, double *rates, size_t *n)
{
	uint64_t done[32] = {0}, t = sim_now(s), o = 0;
	unsigned inflight = 0;

	*n = 0;
	while (o < total) {
		uint64_t w0 = t, w1 = 0;

		for (uint64_t e = o + win; o < e; o += 131072) {
			unsigned slot = inflight;

			if (inflight == 32) {
				slot = tl_earliest(done, 32);
				t = done[slot];
				sim_advance(s, t);
			} else {
				inflight++;
			}
			assert_int_equal(sim_write(s, o, 131072, t, &done[slot]), 0);
			w1 = done[slot] > w1 ? done[slot] : w1;
		}
		rates[(*n)++] = (double)win * 1e9 / (double)(w1 - w0); /* bytes per second */
	}
}

static void test_client_tlc_shape(void **state)
{
	struct sim_model m;
	struct ydoc_error e;
	struct sim_ssd *s;
	double r[64];
	size_t n;

	(void)state;
	assert_int_equal(sim_model_load("client-tlc", NULL, &m, &e), 0);
	assert_int_equal(sim_create(&m.cfg, &s), 0);
	seq_rates(s, 1ULL << 30, 64ULL << 20, r, &n);
	for (size_t i = 0; i < n; i++)
		printf("client-tlc sequential write, %3zu MiB: %.0f MB/s\n", i * 64, r[i] / 1e6);
	/* the first windows are in the cache (470 MiB), the last ones well after it */
	assert_true(fabs(r[1] / 470e6 - 1.0) < 0.10);
	assert_true(fabs(r[n - 1] / 80e6 - 1.0) < 0.10);
	sim_free(s);
}

/*
 * Scale: the same drive modelled at two sizes. A cell of d seconds of the real drive lasts
 * d x time_scale on a model; it must write the same fraction of the drive, and an idle interval
 * must reclaim the same fraction of the spare.
 */
struct scaled {
	double fill_per_cell;	 /* bytes written in one scaled 60 s cell / user capacity */
	double reclaim_of_spare; /* free space gained in a scaled 1200 s idle / spare space */
};

static struct scaled run_scaled(uint64_t capacity)
{
	struct sim_model m;
	struct ydoc_error e;
	struct sim_ssd *s;
	struct sim_counters a, b;
	struct scaled out;
	uint64_t done = 0, t, x = 77, units, cell, o, spare, block;

	assert_int_equal(sim_model_load("client-tlc", NULL, &m, &e), 0);
	m.cfg.user_capacity = capacity;
	m.cfg.time_scale = (double)capacity / (double)m.cfg.represents;
	m.cfg.slc.size = 0; /* GC alone: a dynamic cache's floor does not scale */
	/* smaller blocks, so that the fixed GC reserve is a small part of the spare at both sizes */
	m.cfg.pages_per_block = 24;
	assert_int_equal(sim_create(&m.cfg, &s), 0);
	units = capacity / 4096;
	/* a scaled 60 s cell of sequential writes at QD1 */
	cell = (uint64_t)(60.0 * SEC * m.cfg.time_scale);
	t = sim_now(s);
	for (o = 0; o < capacity && done < t + cell; o += 131072) {
		assert_int_equal(sim_write(s, o, 131072, sim_now(s), &done), 0);
		sim_advance(s, done);
	}
	out.fill_per_cell = (double)o / (double)capacity;
	/* fill, write randomly to steady state, then rest 1200 s of the real drive's time (long
	 * enough for many victims: idle GC works a block at a time) */
	for (; o < capacity; o += 131072) {
		sim_write(s, o, 131072, sim_now(s), &done);
		sim_advance(s, done);
	}
	for (uint64_t i = 0; i < 2 * units; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		sim_write(s, ((x >> 33) % units) * 4096, 4096, sim_now(s), &done);
		sim_advance(s, done);
	}
	sim_get_counters(s, &a);
	sim_advance(s, sim_now(s) + (uint64_t)(1200.0 * SEC * m.cfg.time_scale));
	sim_get_counters(s, &b);
	block = (uint64_t)m.cfg.page_size * m.cfg.pages_per_block;
	/* the spare GC can use: the fixed reserve and open blocks do not scale with the model */
	spare = (b.physical_blocks - sim_config_watermark(&m.cfg) -
		 m.cfg.channels * m.cfg.dies_per_channel) * block - capacity;
	out.reclaim_of_spare = (double)(b.free_blocks - a.free_blocks) * block / (double)spare;
	if (getenv("SIM_TEST_VERBOSE"))
		printf("  %llu MiB: idle %.3f s, idle GC runs %llu, relocated %.1f MiB, free %llu -> %llu, WA so far %.2f\n",
		       (unsigned long long)(capacity >> 20), 1200.0 * m.cfg.time_scale,
		       (unsigned long long)(b.idle_gc_runs - a.idle_gc_runs),
		       (b.nand_bytes_written_gc - a.nand_bytes_written_gc) / 1048576.0,
		       (unsigned long long)a.free_blocks, (unsigned long long)b.free_blocks,
		       (double)a.nand_bytes_written / (double)a.host_bytes_written);
	sim_free(s);
	return out;
}

static void test_scale_dimensionless(void **state)
{
	struct scaled small = run_scaled(1ULL << 30), big = run_scaled(2ULL << 30);

	(void)state;
	printf("fills per cell: %.4f vs %.4f; idle reclaim of spare: %.4f vs %.4f\n",
	       small.fill_per_cell, big.fill_per_cell, small.reclaim_of_spare, big.reclaim_of_spare);
	assert_true(small.fill_per_cell > 0.001);
	assert_true(fabs(small.fill_per_cell / big.fill_per_cell - 1.0) < 0.05);
	assert_true(small.reclaim_of_spare > 0.01);
	assert_true(fabs(small.reclaim_of_spare / big.reclaim_of_spare - 1.0) < 0.15);
}

/* The sim:MODEL target: identity, the virtual clock through submit/reap, idle, counters. */
static void test_target(void **state)
{
	struct target_open_opts oo = {.writable = true, .seed = 3};
	struct target_queue_opts qo = {.depth = 8};
	struct target *t = NULL;
	struct target_queue *q = NULL;
	struct target_io io[8];
	struct target_completion c[8];
	struct snapshot a, b;
	const struct target_info *ti;
	char err[512], method[32];
	uint64_t last = 0, t0;
	unsigned got = 0;
	double wa;

	(void)state;
	assert_int_equal(target_open("sim:client-tlc", &oo, &t, err, sizeof(err)), 0);
	ti = target_info(t);
	assert_int_equal(ti->kind, TARGET_KIND_SIM);
	assert_string_equal(ti->clock, "virtual");
	assert_string_equal(ti->safe_name, "sim-client-tlc");
	assert_int_equal(ti->logical_block_size, 512);
	assert_int_equal(ti->capacity, 4ULL << 30);
	assert_true(fabs(ti->time_scale - (double)(4ULL << 30) / 480e9) < 1e-12);
	assert_true(ti->created_by_ssdlab);
	assert_int_equal(target_caps(t), TARGET_CAP_VIRTUAL_TIME | TARGET_CAP_DISCARD | TARGET_CAP_PURGE |
					 TARGET_CAP_COUNTERS | TARGET_CAP_SET_CAPACITY);
	assert_int_equal(target_queue_open(t, &qo, &q), 0);
	snapshot_init(&a, NULL);
	assert_int_equal(target_snapshot(t, &a), 0);
	t0 = target_now(t);
	for (unsigned i = 0; i < 8; i++)
		io[i] = (struct target_io){.offset = i * 131072ULL, .len = 131072, .dir = IO_WRITE,
					   .submit_ns = t0, .user = i};
	assert_int_equal(target_submit(t, q, io, 8), 8);
	assert_int_equal(target_submit(t, q, io, 1), -EBUSY); /* the queue is full */
	/* completions come back earliest first, and the clock follows them */
	while (got < 8) {
		int n = target_reap(t, q, c, 1, 8);

		assert_true(n >= 1);
		for (int i = 0; i < n; i++) {
			assert_int_equal(c[i].res, 131072);
			assert_true(c[i].done_ns >= last && c[i].done_ns > t0);
			last = c[i].done_ns;
		}
		assert_int_equal(target_now(t), last);
		got += (unsigned)n;
	}
	assert_int_equal(target_reap(t, q, c, 1, 8), 0); /* nothing pending: no wait */
	assert_int_equal(target_idle(t, 1000000000ULL), 0);
	assert_int_equal(target_now(t), last + 1000000000ULL);
	snapshot_init(&b, NULL);
	assert_int_equal(target_snapshot(t, &b), 0);
	assert_string_equal(b.source, "sim");
	assert_int_equal(b.target_ns, target_now(t));
	assert_int_equal(wa_between(&a, &b, &wa), 0);
	assert_true(fabs(wa - 1.0) < 1e-9);
	assert_true(snapshot_get(&b, "free_blocks") && snapshot_get(&b, "erase_count_max") &&
		    snapshot_get(&b, "slc_cache_used_bytes") && snapshot_get(&b, "gc_runs"));
	assert_int_equal(snapshot_get(&b, "host_bytes_written")->value, 8 * 131072);
	assert_int_equal(snapshot_get(&b, "power_on_ns")->value, (double)target_now(t));
	assert_non_null(b.raw);
	/* a bad I/O completes with an error, not a crash */
	io[0] = (struct target_io){.offset = ti->capacity, .len = 4096, .dir = IO_READ, .user = 99};
	assert_int_equal(target_submit(t, q, io, 1), 1);
	assert_int_equal(target_reap(t, q, c, 1, 8), 1);
	assert_int_equal(c[0].res, -EINVAL);
	assert_int_equal(c[0].user, 99);
	assert_int_equal(target_discard(t, 0, 1 << 20), 0);
	assert_int_equal(target_purge(t, method, sizeof(method)), 0);
	assert_string_equal(method, "sim-reset");
	assert_int_equal(target_set_capacity(t, 1ULL << 30), 0);
	assert_int_equal(target_info(t)->capacity, 1ULL << 30);
	assert_int_equal(target_set_capacity(t, 1000), -EINVAL);
	snapshot_release(&a);
	snapshot_release(&b);
	target_queue_close(t, q);
	target_close(t);

	/* a broken model: the positioned error reaches the caller */
	{
		char *dir = tu_mkdtemp("simtarget"), path[4096], spec[4200];

		snprintf(path, sizeof(path), "%s/bad.yaml", dir);
		assert_int_equal(tu_write_file(path, "user_capacity: 64m\nspare_factor: 0.1\ngc: {policy: lru}\n"), 0);
		snprintf(spec, sizeof(spec), "sim:%s", path);
		assert_int_equal(target_open(spec, &oo, &t, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "bad.yaml:3:14:"));
		assert_int_equal(target_open("sim:nope", &oo, &t, err, sizeof(err)), -ENOENT);
		assert_non_null(strstr(err, "no such model"));
		tu_rmtree(dir);
		free(dir);
	}
}

/* time_scale can be overridden at open (the manifest records what was used). */
static void test_target_time_scale_override(void **state)
{
	struct target_open_opts oo = {.time_scale = 0.5};
	struct target *t = NULL;
	char err[256];

	(void)state;
	assert_int_equal(target_open("sim:enterprise-28op", &oo, &t, err, sizeof(err)), 0);
	assert_true(target_info(t)->time_scale == 0.5);
	assert_int_equal(target_info(t)->logical_block_size, 4096);
	target_close(t);
}

/* The volatile write cache through target.h: the model's default, switching it off (a flush
 * first), writes that then wait for their program (SLC here: client-tlc writes into its cache),
 * padding in the snapshot; with PLP (enterprise-28op) the cache off changes no latency. */
static unsigned long long one_write(struct target *t, struct target_queue *q, uint64_t off)
{
	struct target_io io = {.offset = off, .len = 4096, .dir = IO_WRITE, .user = 1};
	struct target_completion c;

	io.submit_ns = target_now(t);
	assert_int_equal(target_submit(t, q, &io, 1), 1);
	assert_int_equal(target_reap(t, q, &c, 1, 1), 1);
	assert_int_equal(c.res, 4096);
	return (unsigned long long)(c.done_ns - io.submit_ns);
}

static void test_target_write_cache(void **state)
{
	static const char *const models[] = {"client-tlc", "enterprise-28op"};
	struct target_open_opts oo = {.writable = true, .seed = 5};
	struct target_queue_opts qo = {.depth = 1};
	struct sim_model m;
	struct ydoc_error e;
	const char *a = "user_capacity: 256m\nop: 10%\n", *b = "user_capacity: 256m\nop: 10%\nwrite_cache: off\n";
	char err[256], spec[64];

	(void)state;
	assert_int_equal(sim_model_parse(a, strlen(a), "a.yaml", &m, &e), 0);
	assert_true(m.cfg.write_cache);
	assert_false(m.cfg.power_loss_protection);
	assert_int_equal(sim_model_parse(b, strlen(b), "b.yaml", &m, &e), 0);
	assert_false(m.cfg.write_cache);
	for (size_t i = 0; i < 2; i++) {
		struct target *t = NULL;
		struct target_queue *q = NULL;
		struct snapshot snap;
		unsigned long long on, off;
		uint64_t before;
		bool plp;

		assert_int_equal(sim_model_load(models[i], NULL, &m, &e), 0);
		plp = m.cfg.power_loss_protection;
		assert_true(plp == (i == 1)); /* the enterprise model has PLP, the client one not */
		snprintf(spec, sizeof(spec), "sim:%s", models[i]);
		assert_int_equal(target_open(spec, &oo, &t, err, sizeof(err)), 0);
		assert_int_equal(target_queue_open(t, &qo, &q), 0);
		on = one_write(t, q, 0);
		before = target_now(t);
		assert_int_equal(target_set_write_cache(t, false), 0);
		/* the flush behind the switch waited for the partial page's program (none with PLP) */
		if (plp)
			assert_int_equal(target_now(t), before);
		else
			assert_true(target_now(t) >= before + m.cfg.timing.program_slc - on);
		off = one_write(t, q, 1 << 20);
		printf("%s: QD1 write %.3f ms with the cache on, %.3f ms off\n", models[i], on / 1e6, off / 1e6);
		if (plp)
			assert_int_equal(off, on);
		else
			assert_true(off >= m.cfg.timing.program_slc && on < m.cfg.timing.program_slc);
		assert_int_equal(target_flush(t), 0);
		assert_int_equal(target_snapshot(t, &snap), 0);
		assert_true((snapshot_get(&snap, "nand_bytes_written_pad")->value > 0) == !plp);
		assert_false(json_object_get_boolean(json_object_object_get(snap.raw, "write_cache")));
		snapshot_release(&snap);
		assert_int_equal(target_set_write_cache(t, true), 0);
		target_queue_close(t, q);
		target_close(t);
	}
}

/* `ssdlab models`: the list with both spare measures, one model's details, errors. */
static int run_cmd(const char *args, char *out, size_t len)
{
	const char *exe = getenv("SSDLAB");
	char cmd[4096];
	size_t n = 0;
	FILE *f;
	int st;

	snprintf(cmd, sizeof(cmd), "LC_ALL=de_DE.UTF-8 '%s' %s 2>&1", exe, args);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (n + 1 < len && fgets(out + n, (int)(len - n), f))
		n += strlen(out + n);
	out[n] = 0;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_cmd_models(void **state)
{
	static char out[65536];
	char *dir, path[4096], args[4200];

	(void)state;
	if (!getenv("SSDLAB") || access(getenv("SSDLAB"), X_OK))
		tu_skip("SSDLAB (the ssdlab binary) is not set or not built: run through meson test");
	assert_int_equal(run_cmd("models", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "client-tlc"));
	assert_non_null(strstr(out, "idle-gc-aggressive"));
	assert_non_null(strstr(out, "no-idle-gc"));
	assert_non_null(strstr(out, "0.219")); /* enterprise-28op: spare factor ... */
	assert_non_null(strstr(out, "28.0%"));	/* ... and OP, '.' whatever the locale */
	assert_int_equal(run_cmd("models --help", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "usage: ssdlab models"));
	assert_int_equal(run_cmd("models sim:client-tlc", out, sizeof(out)), 0);
	assert_non_null(strstr(out, "time scale 0.008948"));
	assert_non_null(strstr(out, "spare factor 0.1270, OP 14.6%"));
	assert_int_equal(run_cmd("models no-such-model", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "no such model"));
	assert_int_equal(run_cmd("models --bogus", out, sizeof(out)), 2);
	dir = tu_mkdtemp("cmdmodels");
	snprintf(path, sizeof(path), "%s/typo.yaml", dir);
	assert_int_equal(tu_write_file(path, "user_capacity: 1g\nspare_factor: 0.1\nslc_cache: {sise: 1m}\n"), 0);
	snprintf(args, sizeof(args), "models '%s'", path);
	assert_int_equal(run_cmd(args, out, sizeof(out)), 2);
	assert_non_null(strstr(out, "typo.yaml:3:13: unknown key 'sise'"));
	tu_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bundled_models),
		cmocka_unit_test(test_enterprise_op),
		cmocka_unit_test(test_load_by_path_and_missing),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_sources_whole_and_non_model),
		cmocka_unit_test(test_client_tlc_shape),
		cmocka_unit_test(test_scale_dimensionless),
		cmocka_unit_test(test_target),
		cmocka_unit_test(test_target_time_scale_override),
		cmocka_unit_test(test_target_write_cache),
		cmocka_unit_test(test_cmd_models),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
