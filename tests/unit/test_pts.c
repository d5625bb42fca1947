/* SPDX-License-Identifier: MIT */
/*
 * test_pts: a profile's `pts:` block (profile/pts.h) and `extends:` + `set:` (profile/extends.h).
 * What each variant changes, checked against the values the issue and the reference notes give
 * (written here by hand): write cache, TC x QD of measured phases without `queue:`, ActiveRange
 * scaling every workload's range, phases kept by `pts_variant:`; extends and set producing the
 * parent with the overrides (scalars and mappings, then --set); and the errors, each with its
 * file:line:col: unknown parent, a cycle, a bad set path, keys beside extends, bad pts values
 * (the client variant of ECW, which is Enterprise only).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "profile/profile.h"

static char dir[PATH_MAX];

static void put(const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static struct profile *load(const char *name, const char *const *sets, size_t nsets)
{
	char path[PATH_MAX + 64], buf[800];
	struct profile *p = NULL;
	struct ydoc_error e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (profile_load(path, NULL, sets, nsets, &p, &e))
		fail_msg("%s: %s", name, ydoc_error_format(&e, buf, sizeof(buf)));
	return p;
}

/* Loads `name`, which must fail at file `file` (a name in dir), line:col, with `msg` in it. */
static void load_bad(const char *name, const char *file, int line, int col, const char *msg)
{
	char path[PATH_MAX + 64], want[PATH_MAX + 64], buf[800];
	struct profile *p = NULL;
	struct ydoc_error e;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(want, sizeof(want), "%s/%s", dir, file);
	assert_int_equal(profile_load(path, NULL, NULL, 0, &p, &e), -EINVAL);
	assert_null(p);
	ydoc_error_format(&e, buf, sizeof(buf));
	if (strcmp(e.file, want) || e.line != line || e.col != col || !strstr(e.msg, msg))
		fail_msg("%s: got '%s', expected %s:%d:%d with '%s'", name, buf, want, line, col,
			 msg);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "%s/ssdlab-pts-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* An IOPS-like parent: a precondition (queue given), rounds (no queue), a write_until with its
 * own queue and a range, and an enterprise-only idle. */
static const char parent[] = "name: par\n"
			     "description: the parent\n"
			     "destructive: true\n"
			     "pts: {test: iops, spec: \"PTS-E 1.1\"}\n"
			     "phases:\n"
			     "  - precondition: {queue: {threads: 1, depth: 32}}\n"
			     "  - rounds: {rw: randwrite, cells: {bs: [4k, 8k]}, cell_time: 1s, count: 1}\n"
			     "  - write_until: {amount: 1x, range: 0-50%, queue: {threads: 3, depth: 5}}\n"
			     "  - idle: {time: 1s}\n"
			     "    pts_variant: enterprise\n";

static const struct phase_rounds *rounds_of(const struct profile *p)
{
	for (size_t i = 0; i < p->phases.n; i++)
		if (p->phases.v[i].kind->type == PHASE_ROUNDS)
			return p->phases.v[i].data;
	fail_msg("no rounds");
	return NULL;
}

static void test_variants(void **state)
{
	static const char *const client[] = {"pts.variant=client"};
	struct profile *e, *c;
	const struct phase_write *pe, *we, *pc, *wc;
	const struct phase_rounds *re, *rc;

	(void)state;
	put("par.yaml", parent);
	e = load("par.yaml", NULL, 0);
	c = load("par.yaml", client, 1);
	assert_true(e->pts.set);
	assert_int_equal(e->pts.test, PTS_TEST_IOPS);
	assert_string_equal(e->pts.spec, "PTS-E 1.1");
	/* write cache: PTS-E off, PTS-C on */
	assert_int_equal(e->write_cache, PROFILE_OFF);
	assert_int_equal(c->write_cache, PROFILE_ON);
	assert_true(e->write_cache_from_pts);
	/* the enterprise-only idle is gone for the client */
	assert_int_equal(e->phases.n, 4);
	assert_int_equal(c->phases.n, 3);
	pe = e->phases.v[0].data, we = e->phases.v[2].data;
	pc = c->phases.v[0].data, wc = c->phases.v[2].data;
	re = rounds_of(e), rc = rounds_of(c);
	/* TC x QD: the rounds (no queue) PTS-E TC4/QD32, PTS-C TC2/QD16; phases with a queue keep
	 * theirs */
	assert_int_equal(re->base.spec.threads, 4);
	assert_int_equal(re->base.spec.qd, 32);
	assert_int_equal(rc->base.spec.threads, 2);
	assert_int_equal(rc->base.spec.qd, 16);
	assert_int_equal(wc->w.spec.threads, 3);
	assert_int_equal(wc->w.spec.qd, 5);
	assert_int_equal(pc->w.spec.qd, 32);
	/* ActiveRange 100% / 75%: 0-100% stays or becomes 0-75%, 0-50% becomes 0-37.5% */
	assert_true(pe->w.range.percent && pe->w.range.hi == 1.0);
	assert_true(re->base.range.hi == 1.0 && we->w.range.hi == 0.5);
	assert_true(pc->w.range.percent && pc->w.range.hi == 0.75 && pc->w.range.lo == 0);
	assert_true(rc->base.range.hi == 0.75 && wc->w.range.hi == 0.375);
	assert_int_equal(rc->base.ar_amount, 0);
	{
		char buf[2048];

		assert_non_null(strstr(profile_summary(c, buf, sizeof(buf)),
				       "SNIA PTS iops, client variant (PTS-E 1.1): write cache on, "
				       "ActiveRange 75.0%."));
		assert_non_null(strstr(profile_summary(e, buf, sizeof(buf)),
				       "enterprise variant (PTS-E 1.1): write cache off, "
				       "ActiveRange 100.0%."));
	}
	profile_free(e);
	profile_free(c);

	/* An explicit write_cache wins over the variant; an Amount reaches every workload and
	 * resolves into segments for random ones only. */
	{
		static const char *const sets[] = {"pts.variant=client", "write_cache=off",
						   "pts.active_range_amount=8m",
						   "pts.segments=4"};
		struct job_spec js;
		char err[256];

		c = load("par.yaml", sets, 4);
		assert_int_equal(c->write_cache, PROFILE_OFF);
		assert_false(c->write_cache_from_pts);
		rc = rounds_of(c);
		assert_int_equal(rc->base.ar_amount, 8u << 20);
		assert_int_equal(rc->base.ar_segments, 4);
		/* 64 MiB target: 75% = 48 MiB; 8 MiB in 4 segments of 2 MiB */
		assert_int_equal(profile_workload_resolve(&rc->base, 64u << 20, 4096, 1.0, &js, err,
							  sizeof(err)),
				 0);
		assert_int_equal(js.range_end, 48u << 20);
		assert_int_equal(js.segments, 4);
		assert_int_equal(js.segment_bytes, 2u << 20);
		pc = c->phases.v[0].data; /* sequential preconditioning: the whole ActiveRange */
		assert_int_equal(profile_workload_resolve(&pc->w, 64u << 20, 4096, 1.0, &js, err,
							  sizeof(err)),
				 0);
		assert_int_equal(js.segments, 0);
		assert_int_equal(js.range_end, 48u << 20);
		/* an Amount larger than the active range is refused at resolve time */
		assert_int_equal(profile_workload_resolve(&rc->base, 8u << 20, 4096, 1.0, &js, err,
							  sizeof(err)),
				 -ERANGE);
		assert_non_null(strstr(err, "ActiveRange Amount"));
		profile_free(c);
	}
}

static void test_extends(void **state)
{
	static const char *const sets[] = {"pts.variant=enterprise"};
	struct profile *c;

	(void)state;
	put("par.yaml", parent);
	/* scalars, a mapping value, a key added; then its own name and description */
	put("kid.yaml", "name: kid\n"
			"description: the child\n"
			"extends: par\n"
			"set:\n"
			"  pts.variant: client\n"
			"  phases.1.rounds.cell_time: 2s\n"
			"  phases.2: {idle: {time: 7s}}\n"
			"  pts.active_range: 50%\n");
	c = load("kid.yaml", NULL, 0);
	assert_string_equal(c->name, "kid");
	assert_string_equal(c->description, "the child");
	assert_int_equal(c->pts.variant, PTS_CLIENT);
	assert_int_equal(c->phases.n, 3); /* the enterprise-only idle dropped */
	assert_int_equal(rounds_of(c)->base.length.ns, 2000000000ull);
	assert_int_equal(c->phases.v[2].kind->type, PHASE_IDLE);
	assert_int_equal(((const struct phase_idle *)c->phases.v[2].data)->time_ns, 7000000000ull);
	assert_true(rounds_of(c)->base.range.hi == 0.5);
	assert_non_null(strstr(c->path, "kid.yaml"));
	profile_free(c);
	/* --set applies after the child's set: */
	c = load("kid.yaml", sets, 1);
	assert_int_equal(c->pts.variant, PTS_ENTERPRISE);
	assert_int_equal(c->phases.n, 4);
	profile_free(c);
	/* a chain: grandchild of par through kid, its set on top of kid's */
	put("grand.yaml", "name: grand\nextends: kid\nset: {phases.1.rounds.cell_time: 3s}\n");
	c = load("grand.yaml", NULL, 0);
	assert_string_equal(c->description, "the child"); /* none of its own: kid's */
	assert_int_equal(rounds_of(c)->base.length.ns, 3000000000ull);
	assert_int_equal(c->pts.variant, PTS_CLIENT);
	profile_free(c);
}

/* A file written into dir; when `bad` is set, loading it must fail at errfile:line:col with msg. */
struct bad_case {
	const char *file, *text;
	bool bad;
	const char *errfile;
	int line, col;
	const char *msg;
};

static const struct bad_case bad_cases[] = {
	{"unknown.yaml", "name: u\nextends: no-such-parent\n", true, "unknown.yaml", 2, 10,
	 "no such profile"},
	{"self.yaml", "name: s\nextends: self\n", true, "self.yaml", 2, 10, "circle"},
	{"b.yaml", "name: b\nextends: a\n"},
	{"a.yaml", "name: a\nextends: b\n", true, "b.yaml", 2, 10, "circle"},
	{"path.yaml", "name: p\nextends: par\nset:\n  pts.variant: client\n  phases.9.idle.time: 1s\n",
	 true, "path.yaml", 5, 3, "indexes 0 to 3"},
	{"nokey.yaml", "name: p\nextends: par\nset: {pts.varient.x: client}\n", true, "nokey.yaml",
	 3, 7, "no key 'varient'"},
	{"extra.yaml", "name: p\nextends: par\nphases: []\n", true, "extra.yaml", 3, 1,
	 "beside extends"},
	{"noname.yaml", "extends: par\n", true, "noname.yaml", 1, 1, "name of its own"},
	{"noext.yaml", "name: p\nset: {name: q}\nphases: [{idle: {time: 1s}}]\n", true,
	 "noext.yaml", 2, 1, "give extends"},
	/* a bad value set by a child is reported in the child's file, where it was written */
	{"val.yaml", "name: p\nextends: par\nset:\n  phases.1.rounds.cell_time: fast\n", true,
	 "val.yaml", 4, 30, "duration"},
	{"var.yaml", "name: p\nextends: par\nset: {pts.variant: consumer}\n", true, "var.yaml", 3,
	 20, "enterprise"},
	/* pts errors */
	/* ECW is Enterprise only (the reference has no PTS-C ECW): its client variant is refused */
	{"ecwc.yaml",
	 "name: t\ndestructive: true\npts: {test: ecw, spec: x, variant: client}\n"
	 "phases: [{idle: {time: 1s}}]\n",
	 true, "ecwc.yaml", 3, 36, "Enterprise only"},
	{"test.yaml",
	 "name: t\ndestructive: true\npts: {test: foo, spec: x}\nphases: [{idle: {time: 1s}}]\n",
	 true, "test.yaml", 3, 13, "iops"},
	{"cond.yaml", "name: t\nphases:\n  - idle: {time: 1s}\n    pts_variant: client\n", true,
	 "cond.yaml", 4, 5, "needs a top-level pts"},
	{"all.yaml",
	 "name: t\npts: {test: wsat, spec: x, variant: client}\nphases:\n"
	 "  - idle: {time: 1s}\n    pts_variant: enterprise\n",
	 true, "all.yaml", 4, 3, "no phase runs"},
	{"seg.yaml", "name: t\npts: {test: wsat, spec: x, segments: 64}\nphases: [{idle: {time: 1s}}]\n",
	 true, "seg.yaml", 2, 28, "active_range_amount"},
	{"pat.yaml",
	 "name: t\npts: {test: wsat, spec: x, data_pattern: zeros}\nphases: [{idle: {time: 1s}}]\n",
	 true, "pat.yaml", 2, 42, "random"},
};

static void test_errors(void **state)
{
	(void)state;
	put("par.yaml", parent);
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];

		put(c->file, c->text);
		if (c->bad)
			load_bad(c->file, c->errfile, c->line, c->col, c->msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_extends),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
