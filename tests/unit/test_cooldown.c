/* SPDX-License-Identifier: MIT */
/*
 * test_cooldown: the temperature path from a target to the results, with a scripted target (an
 * ops table opened with target_open_ops) whose clock is its own and whose temperature follows a
 * hand-written model:
 *   - the profile's `cooldown:` key, global and per phase, and its file:line:col errors;
 *   - the gate (run/cooldown_gate.h) on a drive that cools 2 C a second (it waits the
 *     hand-computed 15 s), one that never cools (max_wait, not reached), one without a sensor,
 *     and a stop request;
 *   - the runner: the gate before each phase, its "cooldown" records, and the analysis'
 *     thermal.cooldowns and flags.cooldown_not_reached of the run;
 *   - the engine: one temperature per series row where the reading is cheap, none where the
 *     target refuses it (a SATA drive's reading drains the queue) or has no sensor;
 *   - the headline's thermal lines, and endurance: the drive database's rated endurance rows
 *     (and their file:line:col errors) and plan's share of it for a hand-worked case.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "analysis/analyze.h"
#include "cli/endurance.h"
#include "cli/headline.h"
#include "host/drivedb.h"
#include "engine/engine.h"
#include "profile/cooldown.h"
#include "profile/profile.h"
#include "results/results.h"
#include "results/snapshot.h"
#include "run/cooldown_gate.h"
#include "run/runner.h"
#include "targets/target.h"
#include "testutil.h"

#define SEC 1000000000ull

/* ---- the scripted target -------------------------------------------------------------------- */

/* Its temperature: T(t) = max(floor_c, start_c - fall_c_per_s x t) at its clock t, or, with
 * by_call, 40 + the number of readings so far (to see one reading per series row). */
struct therm {
	uint64_t clock;
	bool sensor, refuse_cheap, by_call;
	double start_c, fall_c_per_s, floor_c;
	unsigned calls;
	/* snapshots like an NVMe drive's: its temperature, percentage used 3 and available spare
	 * 100 until throttle_at_ns, then 4 and one thermal management transition (0 without) */
	uint64_t throttle_at_ns;
	uint64_t pending[8];
	unsigned npending;
};

static struct therm *priv(struct target *t)
{
	return target_priv(t);
}

static int th_open(struct target *t, const char *spec, const struct target_open_opts *o)
{
	struct target_info *ti = target_info_mut(t);

	(void)spec;
	(void)o;
	ti->kind = TARGET_KIND_BLOCKDEV;
	ti->capacity = 64ull << 20;
	ti->logical_block_size = 512;
	ti->physical_block_size = 4096;
	snprintf(ti->safe_name, sizeof(ti->safe_name), "therm");
	return 0;
}

static void th_close(struct target *t)
{
	(void)t;
}

static int th_queue_open(struct target *t, const struct target_queue_opts *o,
			 struct target_queue **q)
{
	(void)o;
	*q = (struct target_queue *)t; /* one queue: the target itself */
	return 0;
}

static void th_queue_close(struct target_queue *q)
{
	(void)q;
}

static int th_submit(struct target_queue *q, struct target_io *ios, unsigned n)
{
	struct therm *th = priv((struct target *)q);

	if (th->npending + n > 8)
		return -EBUSY;
	for (unsigned i = 0; i < n; i++)
		th->pending[th->npending++] = ios[i].user;
	return (int)n;
}

/* Each I/O takes 1 ms of the target's clock. */
static int th_reap(struct target_queue *q, struct target_completion *c, unsigned min,
		   unsigned max)
{
	struct therm *th = priv((struct target *)q);
	unsigned got = 0;

	(void)min;
	while (got < max && th->npending) {
		th->clock += 1000000;
		c[got].user = th->pending[--th->npending];
		c[got].res = 4096;
		c[got].done_ns = th->clock;
		got++;
	}
	return (int)got;
}

static uint64_t th_now(struct target *t)
{
	return priv(t)->clock;
}

static int th_idle(struct target *t, uint64_t ns)
{
	priv(t)->clock += ns;
	return 0;
}

static int th_temperature(struct target *t, double *c, unsigned flags)
{
	struct therm *th = priv(t);
	double v;

	if (!th->sensor)
		return -EOPNOTSUPP;
	if ((flags & TARGET_TEMP_CHEAP) && th->refuse_cheap)
		return -EAGAIN;
	th->calls++;
	if (th->by_call) {
		*c = 40.0 + th->calls;
		return 0;
	}
	v = th->start_c - th->fall_c_per_s * (double)th->clock / 1e9;
	*c = v > th->floor_c ? v : th->floor_c;
	return 0;
}

static int th_snapshot(struct target *t, struct snapshot *s)
{
	struct therm *th = priv(t);
	bool hot = th->throttle_at_ns && th->clock >= th->throttle_at_ns;
	double c = 0;

	snapshot_init(s, th->throttle_at_ns ? "nvme-smart" : "none");
	s->target_ns = th->clock;
	if (!th->throttle_at_ns)
		return 0;
	th->calls--; /* not a reading the engine test counts */
	if (th_temperature(t, &c, 0) == 0)
		snapshot_set(s, "temperature_c", "celsius", c);
	snapshot_set(s, "percentage_used", "percent", hot ? 4 : 3);
	snapshot_set(s, "available_spare", "percent", 100);
	s->raw = json_tokener_parse(hot ? "{\"thermal_transitions_1\": 1}"
					: "{\"thermal_transitions_1\": 0}");
	return 0;
}

/* A real device's table (the runner gates it) and a virtual-time one (the engine test). */
#define THERM_HOOKS                                                                               \
	.open = th_open, .close = th_close, .queue_open = th_queue_open,                          \
	.queue_close = th_queue_close, .submit = th_submit, .reap = th_reap, .now = th_now,       \
	.idle = th_idle, .temperature = th_temperature, .snapshot = th_snapshot
static const struct target_ops therm_ops = {.name = "therm", THERM_HOOKS};
static const struct target_ops therm_virtual_ops = {
	.name = "therm-virtual", .caps = TARGET_CAP_VIRTUAL_TIME, THERM_HOOKS};

static struct target *open_therm(const struct target_ops *ops, struct therm *th)
{
	struct target *t = NULL;
	char err[256];

	assert_int_equal(target_open_ops(ops, "therm:", NULL, &t, err, sizeof(err)), 0);
	target_set_priv(t, th);
	return t;
}

/* ---- the profile key ------------------------------------------------------------------------ */

static struct profile *parse(const char *text, struct ydoc_error *e)
{
	struct profile *p = NULL;

	memset(e, 0, sizeof(*e));
	if (profile_parse_string(text, strlen(text), "c.yaml", NULL, 0, &p, e))
		return NULL;
	return p;
}

static void test_profile_key(void **state)
{
	static const struct {
		const char *text;
		int line, col;
		const char *msg;
	} bad[] = {
	    {"name: t\ncooldown: {below: hot}\nphases:\n  - idle: 1s\n", 2, 19,
	     "expected a temperature for cooldown.below such as 50C or 323K (at most 150C), got "
	     "hot"},
	    {"name: t\ncooldown: {below: 500C}\nphases:\n  - idle: 1s\n", 2, 19,
	     "expected a temperature for cooldown.below such as 50C or 323K (at most 150C), got "
	     "500C"},
	    {"name: t\ncooldown: {max_wait: 1m}\nphases:\n  - idle: 1s\n", 2, 11,
	     "missing required key 'below' in cooldown"},
	    {"name: t\nphases:\n  - idle: 1s\n    cooldown: {below: 40C, pol: 5s}\n", 4, 28,
	     "unknown key 'pol' in cooldown (did you mean 'poll'?)"},
	    {"name: t\nphases:\n  - idle: 1s\n    cooldown: {below: 40C, poll: 0s}\n", 4, 34, NULL},
	    {"name: t\nphases:\n  - repeat:\n      count: 2\n      phases:\n        - idle: 1s\n"
	     "    cooldown: {below: 40C}\n",
	     7, 5, "'cooldown' applies to the phases inside repeat: give it to them"},
	};
	struct ydoc_error e;
	struct profile *p;
	const struct profile_cooldown *c;
	double v;

	(void)state;
	p = parse("name: t\ncooldown: {below: 50C, max_wait: 2m, poll: 10s}\nphases:\n"
		  "  - idle: 1s\n  - idle: 2s\n    cooldown: {below: 313.15K}\n  - idle: 3s\n"
		  "    cooldown: {below: 45}\n",
		  &e);
	if (!p)
		fail_msg("%d:%d %s", e.line, e.col, e.msg);
	assert_true(p->cooldown.set);
	assert_true(p->cooldown.below_c == 50.0);
	assert_int_equal(p->cooldown.max_wait_ns, 120 * SEC);
	assert_int_equal(p->cooldown.poll_ns, 10 * SEC);
	assert_int_equal(p->phases.n, 3);
	/* phase 0 has none of its own: the profile's applies */
	assert_false(p->phases.v[0].cooldown.set);
	assert_ptr_equal(profile_cooldown_for(&p->phases.v[0].cooldown, &p->cooldown), &p->cooldown);
	/* 313.15 K = 40 C; the defaults 10m and 5s where the phase gives none */
	c = profile_cooldown_for(&p->phases.v[1].cooldown, &p->cooldown);
	assert_ptr_equal(c, &p->phases.v[1].cooldown);
	assert_true(fabs(c->below_c - 40.0) < 1e-9);
	assert_int_equal(c->max_wait_ns, 600 * SEC);
	assert_int_equal(c->poll_ns, 5 * SEC);
	assert_true(p->phases.v[2].cooldown.below_c == 45.0);
	profile_free(p);
	assert_null(profile_cooldown_for(NULL, NULL));

	assert_int_equal(profile_cooldown_temp("50 C", &v), 0);
	assert_true(v == 50.0);
	assert_int_equal(profile_cooldown_temp("0K", &v), 0);
	assert_true(v == -273.15);
	assert_int_equal(profile_cooldown_temp("-1K", &v), -EINVAL);
	assert_int_equal(profile_cooldown_temp("50F", &v), -EINVAL);
	assert_int_equal(profile_cooldown_temp("", &v), -EINVAL);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		p = parse(bad[i].text, &e);
		if (p)
			fail_msg("case %zu parsed", i);
		if (e.line != bad[i].line || e.col != bad[i].col ||
		    (bad[i].msg && strcmp(e.msg, bad[i].msg)))
			fail_msg("case %zu: got %d:%d '%s'", i, e.line, e.col, e.msg);
		assert_string_equal(e.file, "c.yaml");
	}
}

/* ---- the gate ------------------------------------------------------------------------------- */

static void test_gate(void **state)
{
	struct profile_cooldown c = {.set = true, .below_c = 50, .max_wait_ns = 600 * SEC,
				     .poll_ns = 5 * SEC};
	struct cooldown_result r, untouched = {.readings = 99};
	volatile sig_atomic_t stop = 0;
	struct therm th = {.sensor = true, .start_c = 70, .fall_c_per_s = 2, .floor_c = 20};
	struct target *t = open_therm(&therm_ops, &th);

	(void)state;
	/* 70 C falling 2 C/s, below 50 C, a reading every 5 s: 70 (0 s), 60 (5 s), 50 (10 s: not
	 * below), 40 (15 s): reached after 15 s and 4 readings. */
	assert_int_equal(cooldown_gate_wait(t, &c, &stop, &r), 0);
	assert_true(r.reached);
	assert_int_equal(r.waited_ns, 15 * SEC);
	assert_int_equal(r.readings, 4);
	assert_true(r.start_c == 70.0 && r.end_c == 40.0);
	assert_int_equal(th.clock, 15 * SEC);

	/* already cool: one reading, no wait */
	assert_int_equal(cooldown_gate_wait(t, &c, &stop, &r), 0);
	assert_true(r.reached && r.waited_ns == 0 && r.readings == 1);

	/* never cools (80 C flat): 5 + 5 + 2 s up to max_wait 12 s, then not reached */
	th = (struct therm){.sensor = true, .start_c = 80, .floor_c = 80};
	c.max_wait_ns = 12 * SEC;
	assert_int_equal(cooldown_gate_wait(t, &c, &stop, &r), 0);
	assert_false(r.reached);
	assert_int_equal(r.waited_ns, 12 * SEC);
	assert_int_equal(r.readings, 4);
	assert_true(r.end_c == 80.0);

	/* a stop request after the first wait */
	stop = 1;
	assert_int_equal(cooldown_gate_wait(t, &c, &stop, &r), -EINTR);
	assert_int_equal(r.waited_ns, 5 * SEC);
	stop = 0;

	/* no sensor: refused at once, nothing waited, the result untouched */
	th = (struct therm){.sensor = false};
	r = untouched;
	assert_int_equal(cooldown_gate_wait(t, &c, &stop, &r), -EOPNOTSUPP);
	assert_int_equal(r.readings, 99);
	assert_int_equal(th.clock, 0);
	target_close(t);
}

/* ---- the runner and the analysis ----------------------------------------------------------- */

static struct json_object *jpath(struct json_object *o, const char *a, const char *b)
{
	struct json_object *x = NULL, *y = NULL;

	assert_true(json_object_object_get_ex(o, a, &x));
	if (!b)
		return x;
	assert_true(json_object_object_get_ex(x, b, &y));
	return y;
}

static double jnum(struct json_object *o, const char *k)
{
	return json_object_get_double(jpath(o, k, NULL));
}

static void notes(const char *msg, void *arg)
{
	unsigned *n = arg;

	(void)msg;
	(*n)++;
}

static void test_runner(void **state)
{
	/* Gate 1 (the profile's: below 50 C, poll 5 s) before phase 0 at t = 0: 70 C falling 2 C/s
	 * is below 50 C at 15 s (as in test_gate). Phase 0 idles 10 s: phase 1's gate (its own,
	 * below 30 C, max_wait 20 s) starts at 25 s, where the drive sits at its floor of 35 C:
	 * readings at 25, 30, 35, 40 and 45 s, not reached after 20 s. */
	static const char text[] =
	    "name: t\ncooldown: {below: 50C, max_wait: 1m, poll: 5s}\nphases:\n"
	    "  - idle: 10s\n  - idle: 1s\n    cooldown: {below: 30C, max_wait: 20s, poll: 5s}\n";
	/* the drive throttles (a thermal transition) in phase 1, which runs from 45 to 46 s */
	struct therm th = {.sensor = true, .start_c = 70, .fall_c_per_s = 2, .floor_c = 35,
			   .throttle_at_ns = 45 * SEC + SEC / 2};
	struct target *t = open_therm(&therm_ops, &th);
	char *dir = tu_mkdtemp("cooldown"), run[4200], err[512];
	struct runner_opts o = {.seed = 1, .note = notes};
	struct json_object *m, *sum = NULL, *cd, *e, *fl;
	struct results *res;
	struct runner *r = NULL;
	struct ydoc_error ye;
	struct profile *p = parse(text, &ye);
	unsigned nnotes = 0;

	(void)state;
	if (!p)
		fail_msg("%d:%d %s", ye.line, ye.col, ye.msg);
	o.arg = &nnotes;
	/* the plan: 10 s + 1 s of idle; the worst case adds both gates' max_wait, 1m + 20 s */
	{
		struct plan pl;
		uint64_t lo, hi;
		bool known;

		assert_int_equal(runner_plan(p, t, &o, &pl), 0);
		assert_int_equal(pl.n, 2);
		assert_int_equal(pl.v[0].cooldown_ns, 60 * SEC);
		assert_int_equal(pl.v[1].cooldown_ns, 20 * SEC);
		plan_span(&pl, 0, 0, &lo, &hi, &known);
		assert_true(known);
		assert_int_equal(lo, 11 * SEC);
		assert_int_equal(hi, 91 * SEC);
		plan_release(&pl);
	}
	snprintf(run, sizeof(run), "%s/run", dir);
	assert_int_equal(results_create(run, &res), 0);
	m = runner_manifest_new(p, "therm:", t, &o);
	assert_non_null(m);
	assert_int_equal(results_write_manifest(res, m, NULL), 0);
	json_object_put(m);
	assert_int_equal(runner_new(p, t, res, &o, NULL, false, &r, err, sizeof(err)), 0);
	if (runner_execute(r, err, sizeof(err)))
		fail_msg("%s", err);
	runner_free(r);
	results_close(res);
	assert_int_equal(nnotes, 1); /* phase 1: not reached */
	/* 15 s + 10 s + 20 s + 1 s */
	assert_int_equal(th.clock, 46 * SEC);

	if (analyze_dir(run, &sum, err, sizeof(err)))
		fail_msg("%s", err);
	cd = jpath(sum, "thermal", "cooldowns");
	assert_int_equal(json_object_array_length(cd), 2);
	e = json_object_array_get_idx(cd, 0);
	assert_true(jnum(e, "phase") == 0 && jnum(e, "waited_ns") == 15e9);
	assert_true(jnum(e, "start_c") == 70 && jnum(e, "end_c") == 40 && jnum(e, "below_c") == 50);
	assert_true(json_object_get_boolean(jpath(e, "reached", NULL)));
	e = json_object_array_get_idx(cd, 1);
	assert_true(jnum(e, "phase") == 1 && jnum(e, "waited_ns") == 20e9);
	assert_true(jnum(e, "start_c") == 35 && jnum(e, "end_c") == 35 && jnum(e, "below_c") == 30);
	assert_false(json_object_get_boolean(jpath(e, "reached", NULL)));
	fl = jpath(sum, "flags", "cooldown_not_reached");
	assert_int_equal(json_object_array_length(fl), 1);
	assert_true(jnum(json_object_array_get_idx(fl, 0), "phase") == 1);
	/* a marker, not a measurement: no other flag sees it */
	assert_int_equal(json_object_array_length(jpath(sum, "flags", "no_io")), 0);
	/* phase 0 (15 to 25 s: 40 C down to 35 C) did not throttle; phase 1 did: +1 transition */
	e = jpath(sum, "thermal", "phases");
	assert_int_equal(json_object_array_length(e), 2);
	assert_false(json_object_get_boolean(jpath(json_object_array_get_idx(e, 0), "throttled",
						   NULL)));
	assert_true(jnum(json_object_array_get_idx(e, 0), "max_c") == 40);
	fl = jpath(sum, "flags", "thermal_throttling");
	assert_int_equal(json_object_array_length(fl), 1);
	e = json_object_array_get_idx(fl, 0);
	assert_true(jnum(e, "phase") == 1 && jnum(e, "thermal_transitions") == 1);
	assert_string_equal(
	    json_object_get_string(json_object_array_get_idx(jpath(e, "evidence", NULL), 0)),
	    "thermal_transitions");
	/* endurance: the first and the last snapshot (run-start at 0 s, run-end at 46 s) */
	e = jpath(sum, "endurance", "percentage_used");
	assert_true(jnum(e, "start") == 3 && jnum(e, "end") == 4);
	e = jpath(sum, "endurance", "available_spare");
	assert_true(jnum(e, "start") == 100 && jnum(e, "end") == 100);
	json_object_put(sum);

	/* a target without a sensor: one note, no wait, no record */
	th = (struct therm){.sensor = false};
	nnotes = 0;
	snprintf(run, sizeof(run), "%s/run2", dir);
	assert_int_equal(results_create(run, &res), 0);
	m = runner_manifest_new(p, "therm:", t, &o);
	assert_int_equal(results_write_manifest(res, m, NULL), 0);
	json_object_put(m);
	assert_int_equal(runner_new(p, t, res, &o, NULL, false, &r, err, sizeof(err)), 0);
	assert_int_equal(runner_execute(r, err, sizeof(err)), 0);
	runner_free(r);
	results_close(res);
	assert_int_equal(nnotes, 1);
	assert_int_equal(th.clock, 11 * SEC);
	assert_int_equal(analyze_dir(run, &sum, err, sizeof(err)), 0);
	/* no gate ran, nothing thermal known: the summary is as before these keys existed */
	assert_false(json_object_object_get_ex(sum, "thermal", NULL));
	assert_false(json_object_object_get_ex(jpath(sum, "flags", NULL), "cooldown_not_reached",
					       NULL));
	json_object_put(sum);

	profile_free(p);
	target_close(t);
	tu_rmtree(dir);
	free(dir);
}

/* ---- the engine's series -------------------------------------------------------------------- */

static void run_job(struct therm *th, struct job_result *res)
{
	struct target *t = open_therm(&therm_virtual_ops, th);
	struct job_spec s;
	char err[256];
	unsigned n = 0;

	memset(&s, 0, sizeof(s));
	s.rw = RW_RANDWRITE;
	assert_int_equal(bs_split_parse("4k", s.bs, &n, err, sizeof(err)), 0);
	s.nbs = n;
	s.qd = 1;
	s.threads = 1;
	s.time_ns = 3 * SEC;
	s.range_end = target_info(t)->capacity;
	s.seed = 1;
	s.interval_ns = SEC;
	memset(res, 0, sizeof(*res));
	assert_int_equal(engine_run(t, &s, &(struct engine_hooks){0}, res), 0);
	target_close(t);
}

static void test_series(void **state)
{
	struct therm th = {.sensor = true, .by_call = true};
	struct job_result res;

	(void)state;
	/* 3 s in rows of 1 s: one reading per row, in order (the k-th reading is 40 + k) */
	run_job(&th, &res);
	assert_int_equal(res.nseries, 3);
	assert_int_equal(th.calls, 3);
	for (size_t i = 0; i < res.nseries; i++) {
		assert_true(res.series[i].has_temp);
		assert_true(res.series[i].temperature_c == 41.0 + (double)i);
	}
	job_result_release(&res);

	/* a reading that would drain the queue: asked once, refused, no temperature in any row */
	th = (struct therm){.sensor = true, .by_call = true, .refuse_cheap = true};
	run_job(&th, &res);
	assert_int_equal(res.nseries, 3);
	assert_int_equal(th.calls, 0);
	for (size_t i = 0; i < res.nseries; i++)
		assert_false(res.series[i].has_temp);
	job_result_release(&res);

	/* no sensor */
	th = (struct therm){.sensor = false};
	run_job(&th, &res);
	for (size_t i = 0; i < res.nseries; i++)
		assert_false(res.series[i].has_temp);
	job_result_release(&res);
}

/* ---- the headline's lines ------------------------------------------------------------------- */

static void test_headline(void **state)
{
	static const char summary[] =
	    "{\"flags\": {\"thermal_throttling\": [{\"phase\": 2, \"repeat\": 1, \"evidence\": "
	    "[\"thermal_transitions\", \"temperature\"], \"max_c\": 78, \"warning_c\": 75, "
	    "\"warning_source\": \"drive\", \"thermal_transitions\": 1, "
	    "\"warning_temp_minutes\": null}], \"cooldown_not_reached\": [{\"phase\": 1, "
	    "\"repeat\": 0, \"waited_ns\": 20000000000, \"start_c\": 35, \"end_c\": 35, "
	    "\"below_c\": 30, \"reached\": false}]}, \"endurance\": {\"percentage_used\": "
	    "{\"start\": 3, \"end\": 4}, \"available_spare\": {\"start\": 100, \"end\": null}}}";
	struct json_object *o = json_tokener_parse(summary);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(o);
	assert_non_null(f);
	headline_print_thermal(o, f);
	fclose(f);
	assert_string_equal(
	    buf,
	    "FLAG: the drive throttled in phase 2 (repeat 1): thermal management transitions +1; "
	    "78.0 C reached the warning level 75.0 C (drive); a throttling drive looks like an "
	    "SLC-cache cliff, so a drop there may be heat\n"
	    "FLAG: phase 1 started hot: the cool-down gate gave up after 20.00 s at 35.0 C (below "
	    "30.0 C wanted)\n"
	    "endurance      percentage used 3% -> 4%, available spare 100% -> -%\n");
	free(buf);
	json_object_put(o);
}

/* ---- endurance ------------------------------------------------------------------------------ */

static void test_endurance(void **state)
{
	static const char db_text[] =
	    "drives:\n"
	    "  - name: T\n"
	    "    match: '^T'\n"
	    "    transport: ata\n"
	    "    host: {counter: 'ata:241', unit: 512B}\n"
	    "    source: 'test'\n"
	    "    endurance:\n"
	    "      - {match: '^T 1TB$', tbw: 600, source: 'sheet A'}\n"
	    "      - {match: '^T ', tbw_per_tb: 300, source: 'sheet B'}\n";
	static const struct {
		const char *row;
		int line, col;
		const char *msg;
	} bad[] = {
	    {"{match: x, tbw: 1, tbw_per_tb: 1, source: s}", 8, 9,
	     "an endurance row needs exactly one of tbw and tbw_per_tb"},
	    {"{match: x, source: s}", 8, 9, "an endurance row needs exactly one of tbw and tbw_per_tb"},
	    {"{match: x, tbw: 1, source: ''}", 8, 36,
	     "empty source in an endurance row: cite the document that rates the drive"},
	    {"{match: '(', tbw: 1, source: s}", 8, 17, NULL},
	    {"{match: x, tbw: 1}", 8, 9, "missing required key 'source' in endurance"},
	};
	struct cli_rated r = {.known = true, .bytes = 600e12};
	struct target_info ti;
	struct drivedb *db = NULL;
	struct ydoc_error e;
	const struct drivedb_entry *en;
	const char *src = NULL;
	double bytes = 0;
	char line[768], text[1024];

	(void)state;
	/* 1.2 TB of writes against 600 TBW: 1.2 / 600 = 0.2% */
	snprintf(r.source, sizeof(r.source), "--tbw");
	assert_string_equal(cli_endurance_line(1200000000000ull, false, &r, line, sizeof(line)),
			    "this profile writes 1.20 TB = 0.20% of the rated 600 TBW (--tbw)");
	/* 8.59 GB (8 GiB) against 600 TBW: 0.00143%, shown to two significant digits */
	assert_string_equal(cli_endurance_line(8ull << 30, true, &r, line, sizeof(line)),
			    "this profile writes at least 8.59 GB = 0.0014% of the rated 600 TBW "
			    "(--tbw)");
	r.known = false;
	assert_string_equal(cli_endurance_line(1, false, &r, line, sizeof(line)),
			    "no rated endurance known (give --tbw N, in TB written)");

	/* the rows: absolute for the 1 TB model, 300 per TB of capacity (2 TB: 600 TB) else */
	assert_int_equal(drivedb_load_string(db_text, strlen(db_text), "db.yaml", &db, &e), 0);
	en = drivedb_lookup(db, DRIVEDB_ATA, "T 1TB");
	assert_non_null(en);
	assert_int_equal(drivedb_rated_endurance(en, "T 1TB", 1000204886016ull, &bytes, &src), 0);
	assert_true(bytes == 600e12);
	assert_string_equal(src, "sheet A");
	assert_int_equal(drivedb_rated_endurance(en, "T 2TB", 2000000000000ull, &bytes, &src), 0);
	assert_true(bytes == 600e12);
	assert_string_equal(src, "sheet B");
	bytes = 7;
	assert_int_equal(drivedb_rated_endurance(en, "TX", 1, &bytes, &src), -ENOENT);
	assert_int_equal(drivedb_rated_endurance(NULL, "T 1TB", 1, &bytes, &src), -ENOENT);
	assert_true(bytes == 7);
	drivedb_free(db);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(text, sizeof(text),
			 "drives:\n  - name: T\n    match: '^T'\n    transport: ata\n"
			 "    host: {counter: 'ata:241', unit: 512B}\n    source: 'test'\n"
			 "    endurance:\n      - %s\n",
			 bad[i].row);
		db = NULL;
		if (drivedb_load_string(text, strlen(text), "db.yaml", &db, &e) != -EINVAL)
			fail_msg("case %zu loaded", i);
		if (e.line != bad[i].line || e.col != bad[i].col ||
		    (bad[i].msg && strcmp(e.msg, bad[i].msg)))
			fail_msg("case %zu: got %d:%d '%s'", i, e.line, e.col, e.msg);
	}

	/* the bundled database through the CLI's lookup: a Samsung 870 EVO 1TB is rated 600 TBW
	 * (its row's cited specification sheet); its 2TB sibling has no cited row */
	memset(&ti, 0, sizeof(ti));
	ti.kind = TARGET_KIND_BLOCKDEV;
	ti.capacity = 1000204886016ull;
	snprintf(ti.model, sizeof(ti.model), "Samsung SSD 870 EVO 1TB");
	cli_rated_endurance(&ti, 0, &r);
	assert_true(r.known && r.bytes == 600e12);
	assert_non_null(strstr(r.source, "drive database: Samsung client"));
	snprintf(ti.model, sizeof(ti.model), "Samsung SSD 870 EVO 2TB");
	cli_rated_endurance(&ti, 0, &r);
	assert_false(r.known);
	/* --tbw wins */
	cli_rated_endurance(&ti, 150, &r);
	assert_true(r.known && r.bytes == 150e12);
	assert_string_equal(r.source, "--tbw");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_profile_key),
		cmocka_unit_test(test_gate),
		cmocka_unit_test(test_runner),
		cmocka_unit_test(test_series),
		cmocka_unit_test(test_headline),
		cmocka_unit_test(test_endurance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
