/* SPDX-License-Identifier: MIT */
/*
 * test_targets: the seam between the core and the devices (targets/target.h), checked directly:
 *   - every ops table ssdlab ships has its required hooks, and target_open_ops() refuses a
 *     table that lacks one (each required hook removed in turn);
 *   - the wrappers' defaults for each optional hook, on a table that has none of them;
 *   - the spec parser (the one reader of "sim:"), kind names and target_info_to_json();
 *   - the virtual SSD target end to end: open, queued I/O in virtual time, discard, snapshot,
 *     purge, capacity, close.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "targets/target.h"
#include "testutil.h"

/* ---- a target with only the required hooks ------------------------------------------------ */

struct target_queue {
	unsigned pending;
	uint64_t user[4];
	struct target *t;
};

static uint64_t bare_clock;

static int bare_open(struct target *t, const char *spec, const struct target_open_opts *o)
{
	struct target_info *ti = target_info_mut(t);

	(void)spec;
	(void)o;
	ti->kind = TARGET_KIND_BLOCKDEV;
	ti->capacity = 1u << 20;
	ti->logical_block_size = 512;
	return 0;
}

static void bare_close(struct target *t)
{
	(void)t;
}

static int bare_queue_open(struct target *t, const struct target_queue_opts *o,
			   struct target_queue **q)
{
	(void)o;
	*q = calloc(1, sizeof(**q));
	if (!*q)
		return -ENOMEM;
	(*q)->t = t;
	return 0;
}

static void bare_queue_close(struct target_queue *q)
{
	free(q);
}

static int bare_submit(struct target_queue *q, struct target_io *ios, unsigned n)
{
	if (q->pending + n > 4)
		return -EBUSY;
	for (unsigned i = 0; i < n; i++)
		q->user[q->pending++] = ios[i].user;
	return (int)n;
}

static int bare_reap(struct target_queue *q, struct target_completion *c, unsigned min,
		     unsigned max)
{
	unsigned got = 0;

	(void)min;
	while (got < max && q->pending) {
		c[got].user = q->user[--q->pending];
		c[got].res = 512;
		c[got].done_ns = ++bare_clock;
		got++;
	}
	return (int)got;
}

static uint64_t bare_now(struct target *t)
{
	(void)t;
	return bare_clock;
}

static const struct target_ops bare_ops = {
	.name = "bare",
	.caps = TARGET_CAP_DISCARD, /* claims discard, but has no hook: still unsupported */
	.open = bare_open,
	.close = bare_close,
	.queue_open = bare_queue_open,
	.queue_close = bare_queue_close,
	.submit = bare_submit,
	.reap = bare_reap,
	.now = bare_now,
};

/* ---- ops tables ---------------------------------------------------------------------------- */

static void test_shipped_tables_complete(void **state)
{
	const struct target_ops *tables[] = {&target_uring_ops, &target_sim_ops, &bare_ops};
	const char *missing = NULL;

	(void)state;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		int rc = target_ops_check(tables[i], &missing);

		if (rc)
			fail_msg("ops table '%s' lacks its %s hook", tables[i]->name, missing);
	}
}

/* Each required hook removed in turn: the check names it and target_open_ops() refuses. */
static void test_missing_required_hook(void **state)
{
	static const char *const names[] = {
#define NAME(h) #h,
		TARGET_OPS_REQUIRED(NAME)
#undef NAME
	};
	char err[256];

	(void)state;
	assert_int_equal(sizeof(names) / sizeof(names[0]), 7);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct target_ops ops = bare_ops;
		const char *missing = NULL;
		struct target *t = (struct target *)&ops; /* must stay untouched */

#define DROP(h)                                                                                   \
	if (!strcmp(names[i], #h))                                                                \
		ops.h = NULL;
		TARGET_OPS_REQUIRED(DROP)
#undef DROP
		assert_int_equal(target_ops_check(&ops, &missing), -EINVAL);
		assert_string_equal(missing, names[i]);
		assert_int_equal(target_open_ops(&ops, "bare:", NULL, &t, err, sizeof(err)), -EINVAL);
		assert_ptr_equal(t, (struct target *)&ops);
		assert_non_null(strstr(err, names[i]));
	}
	{
		struct target_ops ops = bare_ops;
		const char *missing = NULL;

		ops.name = NULL;
		assert_int_equal(target_ops_check(&ops, &missing), -EINVAL);
		assert_string_equal(missing, "name");
	}
}

/* ---- the wrappers' defaults ---------------------------------------------------------------- */

static void test_wrapper_defaults(void **state)
{
	struct target *t = NULL;
	struct snapshot s;
	struct target_io_counters io = {.bytes_read = 7, .bytes_written = 8};
	struct timespec a, b;
	uint64_t unmapped = 11, read = 12;
	char err[256], method[32] = "untouched";

	(void)state;
	bare_clock = 5;
	assert_int_equal(target_open_ops(&bare_ops, "bare:", NULL, &t, err, sizeof(err)), 0);
	/* the clock a real target did not name */
	assert_string_equal(target_info(t)->clock, "unknown");
	assert_int_equal(target_info(t)->nomerges, -1);
	assert_true(target_info(t)->time_scale == 1.0);

	/* idle: a real device waits in real time */
	clock_gettime(CLOCK_MONOTONIC, &a);
	assert_int_equal(target_idle(t, 20000000), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert_true((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec) >= 20000000LL);

	assert_int_equal(target_discard(t, 0, 4096), -EOPNOTSUPP);
	assert_int_equal(target_purge(t, method, sizeof(method)), -EOPNOTSUPP);
	assert_string_equal(method, "untouched");
	assert_int_equal(target_set_capacity(t, 512), -EOPNOTSUPP);
	assert_int_equal(target_info(t)->capacity, 1u << 20);
	assert_int_equal(target_flush(t), 0); /* nothing cached on our side */
	assert_int_equal(target_set_write_cache(t, false), -EOPNOTSUPP);
	assert_non_null(strstr(target_error(t), "write cache is not supported"));
	assert_int_equal(target_read_unmapped(t, &unmapped, &read), -EOPNOTSUPP);
	assert_int_equal(unmapped, 11);
	assert_int_equal(read, 12);
	assert_int_equal(target_io_counters(t, &io), -EOPNOTSUPP);
	assert_int_equal(io.bytes_read, 7);
	assert_int_equal(io.bytes_written, 8);
	{
		double c = 3; /* no sensor: refused, c untouched */

		assert_int_equal(target_temperature(t, &c, 0), -EOPNOTSUPP);
		assert_int_equal(target_temperature(t, &c, TARGET_TEMP_CHEAP), -EOPNOTSUPP);
		assert_true(c == 3);
	}

	/* no counters: an empty snapshot that says so, at the target's time */
	memset(&s, 0x5a, sizeof(s));
	assert_int_equal(target_snapshot(t, &s), 0);
	assert_string_equal(s.source, "none");
	assert_int_equal(s.n, 0);
	assert_null(s.raw);
	assert_int_equal(s.target_ns, 5);

	/* the required hooks go straight through */
	{
		struct target_queue *q = NULL;
		struct target_io ios[2] = {{.offset = 0, .len = 512, .user = 1},
					   {.offset = 512, .len = 512, .user = 2}};
		struct target_completion c[2];

		assert_int_equal(target_queue_open(t, &(struct target_queue_opts){.depth = 4}, &q), 0);
		assert_int_equal(target_submit(t, q, ios, 2), 2);
		assert_int_equal(target_reap(t, q, c, 2, 2), 2);
		assert_int_equal(c[0].user + c[1].user, 3);
		assert_int_equal(target_now(t), 7);
		target_queue_close(t, q);
		target_queue_close(t, NULL);
	}
	target_close(t);
	target_close(NULL);
}

/* A virtual-time table without a clock name of its own reads "virtual". */
static void test_virtual_clock_default(void **state)
{
	struct target_ops ops = bare_ops;
	struct target *t;
	char err[128];

	(void)state;
	ops.caps |= TARGET_CAP_VIRTUAL_TIME;
	assert_int_equal(target_open_ops(&ops, "bare:", NULL, &t, err, sizeof(err)), 0);
	assert_string_equal(target_info(t)->clock, "virtual");
	target_close(t);
}

/* ---- specs, kinds, JSON -------------------------------------------------------------------- */

static void test_spec_parse(void **state)
{
	static const struct {
		const char *spec;
		bool sim;
		const char *arg;
		const struct target_ops *ops;
	} cases[] = {
	    {"sim:client-tlc", true, "client-tlc", &target_sim_ops},
	    {"sim:./my model.yaml", true, "./my model.yaml", &target_sim_ops},
	    {"sim:", true, "", &target_sim_ops},
	    {"/dev/sdb", false, "/dev/sdb", &target_uring_ops},
	    {"./t.img", false, "./t.img", &target_uring_ops},
	    {"sim", false, "sim", &target_uring_ops},		/* a file called "sim" */
	    {"SIM:client-tlc", false, "SIM:client-tlc", &target_uring_ops}, /* case matters */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct target_spec ts;

		target_spec_parse(cases[i].spec, &ts);
		assert_int_equal(ts.sim, cases[i].sim);
		assert_string_equal(ts.arg, cases[i].arg);
		assert_ptr_equal(ts.ops, cases[i].ops);
	}
	assert_string_equal(target_kind_name(TARGET_KIND_BLOCKDEV), "blockdev");
	assert_string_equal(target_kind_name(TARGET_KIND_FILE), "file");
	assert_string_equal(target_kind_name(TARGET_KIND_SIM), "sim");
	assert_string_equal(target_kind_name((enum target_kind)42), "?");
}

static const char *jget(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : NULL;
}

static void test_info_json(void **state)
{
	struct target_info ti = {.kind = TARGET_KIND_BLOCKDEV,
				 .capacity = 1000204886016ull,
				 .logical_block_size = 512,
				 .physical_block_size = 4096,
				 .nomerges = -1,
				 .time_scale = 1.0};
	struct json_object *o, *n;

	(void)state;
	snprintf(ti.path, sizeof(ti.path), "/dev/nvme0n1");
	snprintf(ti.serial, sizeof(ti.serial), "S1");
	o = target_info_to_json(&ti, NULL);
	assert_non_null(o);
	assert_null(jget(o, "spec"));
	assert_string_equal(jget(o, "kind"), "blockdev");
	assert_string_equal(jget(o, "path"), "/dev/nvme0n1");
	assert_string_equal(jget(o, "capacity"), "1000204886016");
	assert_string_equal(jget(o, "nomerges"), "-1");
	assert_string_equal(jget(o, "time_scale"), "1");
	assert_false(json_object_object_get_ex(o, "nvme", NULL)); /* not a namespace */
	json_object_put(o);

	snprintf(ti.nvme.ns, sizeof(ti.nvme.ns), "nvme0n1");
	ti.nvme.nsid = 1;
	snprintf(ti.nvme.controller, sizeof(ti.nvme.controller), "nvme0");
	snprintf(ti.nvme.subsystem, sizeof(ti.nvme.subsystem), "nvme-subsys0");
	snprintf(ti.nvme.subsystem_ns, sizeof(ti.nvme.subsystem_ns), "nvme0n1 nvme0n2");
	o = target_info_to_json(&ti, "/dev/nvme0n1");
	assert_non_null(o);
	assert_string_equal(jget(o, "spec"), "/dev/nvme0n1");
	assert_true(json_object_object_get_ex(o, "nvme", &n));
	assert_string_equal(jget(n, "namespace"), "nvme0n1");
	assert_string_equal(jget(n, "nsid"), "1");
	assert_string_equal(jget(n, "controller"), "nvme0");
	assert_string_equal(jget(n, "subsystem"), "nvme-subsys0");
	assert_string_equal(jget(n, "subsystem_namespaces"), "nvme0n1 nvme0n2");
	json_object_put(o);

	/* and what safety is handed */
	{
		struct safety_target id;

		target_safety_identity(&ti, &id);
		assert_int_equal(id.kind, SAFETY_BLOCKDEV);
		assert_string_equal(id.path, "/dev/nvme0n1");
		assert_string_equal(id.serial, "S1");
		assert_ptr_equal(id.nvme, &ti.nvme);
		ti.kind = TARGET_KIND_SIM;
		ti.nvme.ns[0] = 0;
		target_safety_identity(&ti, &id);
		assert_int_equal(id.kind, SAFETY_VIRTUAL);
		assert_null(id.nvme);
	}
}

/* ---- the virtual SSD target ---------------------------------------------------------------- */

/* A small model (16 MiB), so that the test runs in milliseconds. */
static const char small_model[] =
    "name: tiny\n"
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

static double counter(const struct snapshot *s, const char *name)
{
	const struct counter *c = snapshot_get(s, name);

	if (!c)
		fail_msg("snapshot has no counter %s", name);
	return c->value;
}

static void test_sim_target(void **state)
{
	char *dir = tu_mkdtemp("targets");
	char model[4096], spec[4200], err[1024], method[32] = "";
	struct target *t = NULL;
	struct target_queue *q = NULL;
	const struct target_info *ti;
	struct target_io ios[8];
	struct target_completion c[8];
	struct snapshot s;
	uint64_t t0, unmapped = 0, read = 0;
	int n, got = 0;

	(void)state;
	assert_non_null(dir);
	snprintf(model, sizeof(model), "%s/tiny.yaml", dir);
	assert_int_equal(tu_write_file(model, small_model), 0);
	snprintf(spec, sizeof(spec), "sim:%s", model);

	/* a model that does not exist is refused with a reason */
	assert_int_not_equal(target_open("sim:/nonexistent/model.yaml", NULL, &t, err, sizeof(err)), 0);
	assert_true(err[0] != 0);

	assert_int_equal(
	    target_open(spec, &(struct target_open_opts){.seed = 3}, &t, err, sizeof(err)), 0);
	ti = target_info(t);
	assert_int_equal(ti->kind, TARGET_KIND_SIM);
	assert_string_equal(ti->clock, "virtual");
	assert_string_equal(ti->model, "tiny");
	assert_string_equal(ti->serial, "sim-seed-3");
	assert_string_equal(ti->safe_name, "sim-tiny");
	assert_int_equal(ti->capacity, 16u << 20);
	assert_int_equal(ti->logical_block_size, 512);
	assert_true(ti->created_by_ssdlab);
	assert_true(target_caps(t) & TARGET_CAP_VIRTUAL_TIME);
	assert_false(target_caps(t) & TARGET_CAP_NEEDS_DATA);
	assert_int_equal(target_io_counters(t, &(struct target_io_counters){0}), -EOPNOTSUPP);

	/* queued writes complete in virtual time, in order of completion */
	assert_int_equal(target_queue_open(t, &(struct target_queue_opts){.depth = 0}, &q), -EINVAL);
	assert_true(target_error(t)[0] != 0);
	assert_int_equal(target_queue_open(t, &(struct target_queue_opts){.depth = 8}, &q), 0);
	t0 = target_now(t);
	for (unsigned i = 0; i < 8; i++)
		ios[i] = (struct target_io){.offset = (uint64_t)i * 4096, .len = 4096, .dir = IO_WRITE,
					    .submit_ns = t0, .user = 100 + i};
	assert_int_equal(target_submit(t, q, ios, 8), 8);
	assert_int_equal(target_submit(t, q, ios, 1), -EBUSY); /* the queue is full */
	while (got < 8) {
		n = target_reap(t, q, c + got, 1, (unsigned)(8 - got));
		assert_true(n >= 1);
		got += n;
	}
	for (int i = 0; i < 8; i++) {
		assert_int_equal(c[i].res, 4096);
		assert_true(c[i].done_ns >= t0); /* a cached write may complete at once */
		assert_true(c[i].user >= 100 && c[i].user < 108);
		if (i)
			assert_true(c[i].done_ns >= c[i - 1].done_ns);
	}
	assert_int_equal(target_now(t), c[7].done_ns);

	/* reads of written and of never-written LBAs */
	ios[0] = (struct target_io){.offset = 0, .len = 8192, .dir = IO_READ, .user = 1};
	ios[1] = (struct target_io){.offset = 1u << 20, .len = 4096, .dir = IO_READ, .user = 2};
	assert_int_equal(target_submit(t, q, ios, 2), 2);
	assert_int_equal(target_reap(t, q, c, 2, 2), 2);
	assert_int_equal(target_read_unmapped(t, &unmapped, &read), 0);
	assert_int_equal(read, 12288);
	assert_int_equal(unmapped, 4096);

	/* idle advances the clock instantly */
	t0 = target_now(t);
	assert_int_equal(target_idle(t, 5000000000ull), 0);
	assert_int_equal(target_now(t), t0 + 5000000000ull);

	/* discard: the trimmed LBAs read as unmapped */
	assert_int_equal(target_discard(t, 0, 8192), 0);
	ios[0] = (struct target_io){.offset = 0, .len = 4096, .dir = IO_READ, .user = 3};
	assert_int_equal(target_submit(t, q, ios, 1), 1);
	assert_int_equal(target_reap(t, q, c, 1, 1), 1);
	assert_int_equal(target_read_unmapped(t, &unmapped, &read), 0);
	assert_int_equal(unmapped, 8192);

	/* snapshot: the counters and the model as run */
	assert_int_equal(target_snapshot(t, &s), 0);
	assert_string_equal(s.source, "sim");
	assert_int_equal(s.target_ns, target_now(t));
	assert_true(counter(&s, "host_bytes_written") == 32768);
	assert_true(counter(&s, "nand_bytes_written") >= 0);
	assert_non_null(s.raw);
	assert_string_equal(jget(s.raw, "model"), "tiny");
	assert_string_equal(jget(s.raw, "gc_policy"), "greedy");
	assert_string_equal(jget(s.raw, "seed"), "3");
	snapshot_release(&s);

	/* flush, write cache, capacity */
	assert_int_equal(target_flush(t), 0);
	assert_int_equal(target_set_write_cache(t, false), 0);
	assert_int_equal(target_set_capacity(t, 8u << 20), 0);
	assert_int_equal(target_info(t)->capacity, 8u << 20);
	assert_int_equal(target_set_capacity(t, 1000), -EINVAL);
	assert_non_null(strstr(target_error(t), "multiple of 4096"));

	/* purge: back to fresh-out-of-box */
	assert_int_equal(target_purge(t, method, sizeof(method)), 0);
	assert_string_equal(method, "sim-reset");
	assert_int_equal(target_snapshot(t, &s), 0);
	assert_true(counter(&s, "valid_bytes") == 0);
	snapshot_release(&s);

	target_queue_close(t, q);
	target_close(t);
	tu_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shipped_tables_complete),
	    cmocka_unit_test(test_missing_required_hook),
	    cmocka_unit_test(test_wrapper_defaults),
	    cmocka_unit_test(test_virtual_clock_default),
	    cmocka_unit_test(test_spec_parse),
	    cmocka_unit_test(test_info_json),
	    cmocka_unit_test(test_sim_target),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
