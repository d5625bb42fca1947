/* SPDX-License-Identifier: MIT */
/*
 * test_surface: the surface scan (engine/surface.h) and its figures (analysis/surface.h):
 *   - surface_stats on a hand-worked table (median of an even count, two slow regions);
 *   - a scripted target whose reads fail in four LBAs of one chunk: the LBAs come back in
 *     order, the scan completes every chunk, and the chunk speeds are the script's (hand-worked);
 *   - the virtual SSD with its first half written: the never-written half reads faster, and the
 *     sim's own read_unmapped counters say that half, and only it, was unmapped;
 *   - a regular file through io_uring and O_DIRECT (the block-device path), read and written:
 *     chunk count = capacity / chunk, the chunks' bytes add up to the capacity, the CSV's lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "analysis/pass.h"
#include "analysis/surface.h"
#include "base/jsonget.h"
#include "engine/surface.h"
#include "profile/profile.h"
#include "results/results.h"
#include "run/surface_step.h"
#include "targets/target.h"
#include "testutil.h"

/* ---- the figures ---------------------------------------------------------------------------- */

static void test_stats(void **state)
{
	/* sorted: 20 30 40 100 100 100 100 100: median (100 + 100) / 2 = 100, threshold 50:
	 * chunks 2-3 (mean 35) and 6 (20) are slow */
	const double v[] = {100, 100, 40, 30, 100, 100, 20, 100};
	struct surface_stats s;

	(void)state;
	assert_int_equal(surface_stats(v, 8, 0.5, &s), 0);
	assert_true(s.min_mbps == 20 && s.max_mbps == 100 && s.median_mbps == 100);
	assert_int_equal(s.min_chunk, 6);
	assert_int_equal(s.max_chunk, 0);
	assert_true(s.slow_threshold_mbps == 50);
	assert_int_equal(s.slow_chunks, 3);
	assert_int_equal(s.nregions, 2);
	assert_int_equal(s.regions[0].first, 2);
	assert_int_equal(s.regions[0].n, 2);
	assert_true(s.regions[0].mean_mbps == 35);
	assert_int_equal(s.regions[1].first, 6);
	assert_int_equal(s.regions[1].n, 1);
	/* odd count: the middle value; a region reaching the end is closed */
	assert_int_equal(surface_stats((const double[]){9, 1, 5}, 3, 0.5, &s), 0);
	assert_true(s.median_mbps == 5);
	assert_int_equal(s.nregions, 1);
	assert_int_equal(s.regions[0].first, 1);
	assert_int_equal(surface_stats(v, 0, 0.5, &s), -EINVAL);
	assert_int_equal(surface_stats(v, 8, 0, &s), -EINVAL);
	assert_int_equal(surface_stats((const double[]){-1}, 1, 0.5, &s), -EINVAL);
}

/* ---- the phase kind ------------------------------------------------------------------------ */

static void test_kind(void **state)
{
	static const char read_text[] = "name: t\nphases:\n  - surface\n";
	static const char write_text[] = "name: t\ndestructive: true\nphases:\n"
					 "  - surface: {rw: write, chunk: 64m, bs: 1m, qd: 8, "
					 "max_error_lbas: 10, slow_below: 30%}\n";
	static const char *const bad[] = {
	    "name: t\nphases:\n  - surface: {chunk: 100k, bs: 64k}\n",
	    "name: t\nphases:\n  - surface: {rw: trim}\n",
	    "name: t\nphases:\n  - surface: {qd: 0}\n",
	    /* a write scan in a profile that does not say it destroys */
	    "name: t\nphases:\n  - surface: {rw: write}\n",
	};
	struct profile *p = NULL;
	struct ydoc_error e;
	const struct phase_surface *ps;
	char line[256];

	(void)state;
	assert_int_equal(
	    profile_parse_string(read_text, strlen(read_text), "t.yaml", NULL, 0, &p, &e), 0);
	ps = p->phases.v[0].data;
	assert_false(ps->write);
	assert_int_equal(ps->chunk, 256u << 20);
	assert_int_equal(ps->bs, 128u << 10);
	assert_int_equal(ps->qd, 1);
	assert_int_equal(ps->max_error_lbas, 1000);
	assert_true(ps->slow_below == 0.5);
	assert_false(profile_writes(p));
	p->phases.v[0].kind->describe(ps, line, sizeof(line));
	assert_string_equal(line, "surface read scan, 256 MiB chunks of 128 KiB I/Os at qd 1");
	profile_free(p);
	p = NULL;
	assert_int_equal(
	    profile_parse_string(write_text, strlen(write_text), "t.yaml", NULL, 0, &p, &e), 0);
	ps = p->phases.v[0].data;
	assert_true(ps->write && ps->chunk == 64u << 20 && ps->bs == 1u << 20 && ps->qd == 8);
	assert_true(ps->max_error_lbas == 10 && ps->slow_below == 0.3);
	assert_true(profile_writes(p));
	profile_free(p);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = NULL;
		if (profile_parse_string(bad[i], strlen(bad[i]), "t.yaml", NULL, 0, &p, &e) !=
		    -EINVAL)
			fail_msg("bad case %zu parsed", i);
		print_message("bad case %zu: %d:%d %s\n", i, e.line, e.col, e.msg);
	}
}

/* ---- a scripted target that fails reads of four LBAs ---------------------------------------- */

/* 1 MiB of 512-byte blocks; an I/O takes SCRIPT_IO_NS whatever its size, one at a time. */
#define SCRIPT_CAP (1u << 20)
#define SCRIPT_IO_NS 1000u
#define BAD_LBA0 1000u
#define BAD_NLBA 4u

struct target_queue {
	struct target *t;
	unsigned n;
	struct target_completion c[64];
};

static uint64_t script_clock;

static int script_open(struct target *t, const char *spec, const struct target_open_opts *o)
{
	struct target_info *ti = target_info_mut(t);

	(void)spec;
	(void)o;
	ti->kind = TARGET_KIND_BLOCKDEV;
	ti->capacity = SCRIPT_CAP;
	ti->logical_block_size = 512;
	script_clock = 0;
	return 0;
}

static void script_close(struct target *t)
{
	(void)t;
}

static int script_queue_open(struct target *t, const struct target_queue_opts *o,
			     struct target_queue **q)
{
	if (o->depth > 64)
		return -EINVAL;
	*q = calloc(1, sizeof(**q));
	if (!*q)
		return -ENOMEM;
	(*q)->t = t;
	return 0;
}

static void script_queue_close(struct target_queue *q)
{
	free(q);
}

/* The device serves I/Os one after another: each completes SCRIPT_IO_NS after the previous. */
static int script_submit(struct target_queue *q, struct target_io *ios, unsigned n)
{
	uint64_t busy_until;

	if (q->n + n > 64)
		return -EBUSY;
	busy_until = q->n ? q->c[q->n - 1].done_ns : script_clock;
	for (unsigned i = 0; i < n; i++) {
		uint64_t lba = ios[i].offset / 512, nl = ios[i].len / 512;
		bool bad =
		    ios[i].dir == IO_READ && lba < BAD_LBA0 + BAD_NLBA && lba + nl > BAD_LBA0;

		busy_until += SCRIPT_IO_NS;
		q->c[q->n++] = (struct target_completion){.user = ios[i].user,
							  .res = bad ? -EIO : (int32_t)ios[i].len,
							  .done_ns = busy_until};
	}
	return (int)n;
}

static int script_reap(struct target_queue *q, struct target_completion *c, unsigned min,
		       unsigned max)
{
	unsigned n = q->n < max ? q->n : max;

	(void)min;
	memcpy(c, q->c, n * sizeof(*c));
	memmove(q->c, q->c + n, (q->n - n) * sizeof(*c));
	q->n -= n;
	if (n)
		script_clock = c[n - 1].done_ns;
	return (int)n;
}

static uint64_t script_now(struct target *t)
{
	(void)t;
	return script_clock;
}

static const struct target_ops script_ops = {
    .name = "surface-script",
    .open = script_open,
    .close = script_close,
    .queue_open = script_queue_open,
    .queue_close = script_queue_close,
    .submit = script_submit,
    .reap = script_reap,
    .now = script_now,
};

struct chunk_calls {
	size_t calls, last_done, n;
	bool in_order;
};

/* the progress hook: counts the calls and checks they come once per chunk, in order */
static void count_chunk(size_t done, size_t n, void *arg)
{
	struct chunk_calls *c = arg;

	c->calls++;
	if (done != c->last_done + 1)
		c->in_order = false;
	c->last_done = done;
	c->n = n;
}

static void test_errors(void **state)
{
	struct target *t = NULL;
	struct surface_result r;
	char err[512] = "";
	struct chunk_calls calls = {.in_order = true};
	/* 64 KiB chunks of 4 KiB I/Os at QD 4: LBAs 1000-1003 (bytes 512000-514047) are in chunk
	 * 512000 / 65536 = 7, in the I/O at 512000 - 512000 % 4096 = 510976 (LBAs 998-1005) */
	const struct surface_opts o = {.dir = IO_READ,
				       .chunk = 65536,
				       .bs = 4096,
				       .qd = 4,
				       .max_error_lbas = 100,
				       .on_chunk = count_chunk,
				       .arg = &calls};

	(void)state;
	assert_int_equal(target_open_ops(&script_ops, "script", NULL, &t, err, sizeof(err)), 0);
	assert_int_equal(surface_scan(t, &o, &r, err, sizeof(err)), 0);
	assert_int_equal(r.n, SCRIPT_CAP / 65536);
	/* the hook saw every chunk once, 1 .. n of n */
	assert_int_equal(calls.calls, SCRIPT_CAP / 65536);
	assert_true(calls.in_order);
	assert_int_equal(calls.n, SCRIPT_CAP / 65536);
	assert_int_equal(r.errors_total, BAD_NLBA);
	assert_int_equal(r.nerror_lbas, BAD_NLBA);
	for (unsigned i = 0; i < BAD_NLBA; i++)
		assert_int_equal(r.error_lbas[i], BAD_LBA0 + i);
	for (size_t i = 0; i < r.n; i++) {
		assert_int_equal(r.chunks[i].errors, i == 7 ? BAD_NLBA : 0);
		assert_int_equal(r.chunks[i].bad_bytes, i == 7 ? BAD_NLBA * 512 : 0);
	}
	/* a clean chunk: 16 I/Os served one after another, 1 us each: 65536 B / 16 us =
	 * 4096 MB/s, and no single I/O waited longer than the queue ahead of it: 4 us at QD 4 */
	assert_int_equal(r.chunks[0].ns, 16000);
	assert_true(surface_chunk_mbps(&r.chunks[0]) == 4096.0);
	assert_int_equal(r.chunks[0].max_lat_ns, 4000);
	/* chunk 7 adds 8 single-block retries (LBAs 998-1005): 24 us for 63488 good bytes:
	 * 2645.333 MB/s */
	assert_int_equal(r.chunks[7].ns, 24000);
	assert_true(fabs(surface_chunk_mbps(&r.chunks[7]) - 2645.3333) < 1e-3);
	surface_result_release(&r);

	/* fewer LBAs kept than failed: all counted, the first kept */
	assert_int_equal(
	    surface_scan(
		t,
		&(struct surface_opts){
		    .dir = IO_READ, .chunk = 65536, .bs = 4096, .qd = 4, .max_error_lbas = 2},
		&r, err, sizeof(err)),
	    0);
	assert_int_equal(r.errors_total, BAD_NLBA);
	assert_int_equal(r.nerror_lbas, 2);
	assert_int_equal(r.error_lbas[1], BAD_LBA0 + 1);
	surface_result_release(&r);

	/* a raised stop flag ends the scan between chunks, with nothing handed out */
	{
		volatile sig_atomic_t stop = 1;
		struct surface_result untouched = {.n = 12345};

		assert_int_equal(
		    surface_scan(
			t,
			&(struct surface_opts){
			    .dir = IO_READ, .chunk = 65536, .bs = 4096, .qd = 4, .stop = &stop},
			&untouched, err, sizeof(err)),
		    -EINTR);
		assert_int_equal(untouched.n, 12345);
	}

	/* options that do not fit */
	assert_int_equal(
	    surface_scan(
		t, &(struct surface_opts){.dir = IO_READ, .chunk = 65536, .bs = 1000, .qd = 4}, &r,
		err, sizeof(err)),
	    -EINVAL);
	assert_true(err[0] != 0);
	target_close(t);
}

/*
 * The same scripted scan through the runner's step (run/surface_step.h: the series file and the
 * record) and the analysis pass: summary.json's surface reports the four LBAs, and with
 * slow_below 70 % (threshold 0.7 x the median 4096 = 2867.2 MB/s) chunk 7 (2645.333 MB/s) is the
 * one slow region, bytes 7 x 65536 = 458752 to 524288.
 */
static void test_errors_pass(void **state)
{
	char *dir = tu_mkdtemp("surface");
	char rdir[4200], path[4300], err[512] = "";
	struct target *t = NULL;
	struct results *res = NULL;
	const struct phase_surface ps = {
	    .chunk = 65536, .bs = 4096, .qd = 4, .max_error_lbas = 100, .slow_below = 0.7};
	struct json_object *rec = json_object_new_object(), *summary = json_object_new_object();
	struct json_object *arr, *s0, *x;
	struct analyze_input in = {0};
	FILE *f;
	char line[256];

	(void)state;
	assert_non_null(dir);
	snprintf(rdir, sizeof(rdir), "%s/run", dir);
	assert_int_equal(results_create(rdir, &res), 0);
	assert_int_equal(target_open_ops(&script_ops, "script", NULL, &t, err, sizeof(err)), 0);
	/* the key fields the reader needs, as the runner's step record has them */
	json_object_object_add(rec, "kind", json_object_new_string("surface"));
	json_object_object_add(rec, "phase", json_object_new_int(0));
	json_object_object_add(rec, "repeat", json_object_new_int(0));
	json_object_object_add(rec, "round", json_object_new_int(0));
	json_object_object_add(rec, "cell", json_object_new_string(""));
	if (surface_step_run(t, &ps, res, "phase-00-rep-00-surface", rec, NULL, NULL, NULL, err,
			     sizeof(err)))
		fail_msg("%s", err);
	/* the series: a header and 16 rows, chunk 7's with its 4 errors */
	snprintf(path, sizeof(path), "%s/series/phase-00-rep-00-surface.csv", rdir);
	f = fopen(path, "r");
	assert_non_null(f);
	for (int i = 0; i < 9; i++)
		assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	/* the middle of chunk 7: 7.5 x 65536 / 1 MiB = 46.875 % */
	assert_string_equal(line, "46.875,458752,65536,2645.333,4.000,4\n");

	in.dir = rdir;
	in.records.rec = &rec;
	in.records.n = 1;
	assert_int_equal(pass_surface(&in, summary, err, sizeof(err)), 0);
	assert_true(json_object_object_get_ex(summary, "surface", &arr));
	assert_int_equal(json_object_array_length(arr), 1);
	s0 = json_object_array_get_idx(arr, 0);
	assert_true(jsonget_num(s0, "errors_total") == BAD_NLBA);
	assert_true(json_object_object_get_ex(s0, "error_lbas", &x));
	assert_int_equal(json_object_array_length(x), BAD_NLBA);
	for (unsigned i = 0; i < BAD_NLBA; i++)
		assert_int_equal(json_object_get_int64(json_object_array_get_idx(x, i)),
				 BAD_LBA0 + i);
	assert_true(jsonget_num(s0, "median_mbps") == 4096);
	assert_true(jsonget_num(s0, "max_mbps") == 4096);
	assert_true(fabs(jsonget_num(s0, "min_mbps") - 2645.3333) < 1e-3);
	assert_true(jsonget_num(s0, "min_at_pct") == 7.5 * 65536 * 100 / SCRIPT_CAP);
	assert_true(jsonget_num(s0, "max_lat_ns") == 4000);
	assert_true(json_object_object_get_ex(s0, "slow_regions", &x));
	assert_int_equal(json_object_array_length(x), 1);
	assert_true(jsonget_num(json_object_array_get_idx(x, 0), "from_bytes") == 458752);
	assert_true(jsonget_num(json_object_array_get_idx(x, 0), "to_bytes") == 524288);

	json_object_put(rec);
	json_object_put(summary);
	results_close(res);
	target_close(t);
	tu_rmtree(dir);
	free(dir);
}

/* ---- the virtual SSD, half written ---------------------------------------------------------- */

static const char small_model[] = "name: tiny\n"
				  "description: test model\n"
				  "represents: 16m\n"
				  "user_capacity: 16m\n"
				  "spare_factor: 0.125\n"
				  "mapping_unit: 4k\n"
				  "logical_block_size: 512\n"
				  "page_size: 16k\n"
				  "pages_per_block: 16\n"
				  "channels: 2\n"
				  "dies_per_channel: 1\n"
				  "timing:\n"
				  "  read: 50us\n"
				  "  program: 500us\n"
				  "  erase: 2ms\n"
				  "gc:\n"
				  "  policy: greedy\n";

static void test_sim_half(void **state)
{
	char *dir = tu_mkdtemp("surface");
	char model[4096], spec[4200], err[1024] = "";
	struct target *t = NULL;
	struct target_queue *q = NULL;
	struct target_io io = {.len = 131072, .dir = IO_WRITE};
	struct target_completion c;
	struct surface_result r;
	uint64_t un0 = 0, rd0 = 0, un1 = 0, rd1 = 0, cap, half;
	double slowest_unmapped = 1e300, fastest_mapped = 0;

	(void)state;
	assert_non_null(dir);
	snprintf(model, sizeof(model), "%s/tiny.yaml", dir);
	assert_int_equal(tu_write_file(model, small_model), 0);
	snprintf(spec, sizeof(spec), "sim:%s", model);
	assert_int_equal(
	    target_open(spec, &(struct target_open_opts){.seed = 1}, &t, err, sizeof(err)), 0);
	cap = target_info(t)->capacity;
	half = cap / 2;
	/* the first half written once, sequentially */
	assert_int_equal(target_queue_open(t, &(struct target_queue_opts){.depth = 1}, &q), 0);
	for (io.offset = 0; io.offset < half; io.offset += io.len) {
		io.submit_ns = target_now(t);
		assert_int_equal(target_submit(t, q, &io, 1), 1);
		assert_int_equal(target_reap(t, q, &c, 1, 1), 1);
		assert_int_equal(c.res, (int)io.len);
	}
	target_queue_close(t, q);

	assert_int_equal(target_read_unmapped(t, &un0, &rd0), 0);
	assert_int_equal(
	    surface_scan(
		t, &(struct surface_opts){.dir = IO_READ, .chunk = 1u << 20, .bs = 131072, .qd = 8},
		&r, err, sizeof(err)),
	    0);
	assert_int_equal(target_read_unmapped(t, &un1, &rd1), 0);
	/* the sim says: the scan read the capacity, and exactly the unwritten half was unmapped */
	assert_int_equal(rd1 - rd0, cap);
	assert_int_equal(un1 - un0, cap - half);
	assert_int_equal(r.n, cap >> 20);
	/* and chunk by chunk: the written half mapped, the other not */
	assert_true(r.has_unmapped);
	for (size_t i = 0; i < r.n; i++)
		assert_int_equal(r.chunks[i].unmapped_bytes,
				 r.chunks[i].offset >= half ? 1u << 20 : 0);
	for (size_t i = 0; i < r.n; i++) {
		double v = surface_chunk_mbps(&r.chunks[i]);

		if (r.chunks[i].offset >= half)
			slowest_unmapped = v < slowest_unmapped ? v : slowest_unmapped;
		else
			fastest_mapped = v > fastest_mapped ? v : fastest_mapped;
	}
	print_message("sim half written: mapped chunks up to %.1f MB/s, unmapped from %.1f MB/s\n",
		      fastest_mapped, slowest_unmapped);
	assert_true(slowest_unmapped > fastest_mapped);
	assert_int_equal(r.errors_total, 0);
	surface_result_release(&r);
	target_close(t);
	tu_rmtree(dir);
	free(dir);
}

/* ---- a file through io_uring: the block-device path ----------------------------------------- */

static void test_file(void **state)
{
	char *dir = tu_mkdtemp("surface");
	char path[4096], err[1024] = "";
	struct target *t = NULL;
	struct surface_result r;
	const uint64_t cap = 4u << 20, chunk = 256u << 10;
	FILE *csv;
	char *text = NULL;
	size_t textlen = 0, lines = 0;
	int ret;

	(void)state;
	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/scan.img", dir);
	ret = target_open(path,
			  &(struct target_open_opts){.writable = true, .create = true, .size = cap},
			  &t, err, sizeof(err));
	if (ret) {
		tu_rmtree(dir);
		free(dir);
		print_message("skip: cannot open a file with O_DIRECT and io_uring here: %s\n",
			      err);
		skip();
	}
	assert_int_equal(target_info(t)->capacity, cap);
	for (int dir_i = IO_WRITE; dir_i >= IO_READ; dir_i--) {
		uint64_t sum = 0;

		ret = surface_scan(
		    t,
		    &(struct surface_opts){
			.dir = (enum io_dir)dir_i, .chunk = chunk, .bs = 65536, .qd = 4},
		    &r, err, sizeof(err));
		if (ret)
			fail_msg("%s", err);
		assert_int_equal(r.n, cap / chunk);
		for (size_t i = 0; i < r.n; i++) {
			assert_int_equal(r.chunks[i].offset, sum);
			sum += r.chunks[i].bytes;
			assert_true(r.chunks[i].ns > 0);
		}
		assert_int_equal(sum, cap);
		assert_int_equal(r.errors_total, 0);
		csv = open_memstream(&text, &textlen);
		assert_non_null(csv);
		assert_int_equal(surface_write_csv(&r, csv), 0);
		fclose(csv);
		for (size_t i = 0; i < textlen; i++)
			lines += text[i] == '\n';
		assert_int_equal(lines, r.n + 1);
		assert_non_null(
		    strstr(text, "\n3.125,0,262144,")); /* chunk 0's middle: 128k / 4m */
		free(text);
		text = NULL;
		lines = 0;
		surface_result_release(&r);
	}
	target_close(t);
	tu_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_stats),    cmocka_unit_test(test_kind),
	    cmocka_unit_test(test_errors),   cmocka_unit_test(test_errors_pass),
	    cmocka_unit_test(test_sim_half), cmocka_unit_test(test_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
