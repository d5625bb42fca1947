/* SPDX-License-Identifier: MIT */
/*
 * test_profile: the profile language. A table of malformed profiles, each with the exact
 * line:col and message a user gets; valid profiles parse into the expected plan (phase order,
 * matrix order, cell keys, tracked cell, workloads); every bundled profile validates; --set
 * overrides apply and bad paths are reported; the resolver turns a workload into a job_spec.
 */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
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

#include "profile/profile.h"
#include "results/slcprobe.h"
#include "testutil.h"

static struct profile *parse_ok(const char *text, const char *const *sets, size_t nsets)
{
	struct profile *p = NULL;
	struct ydoc_error e;
	char buf[800];
	int ret = profile_parse_string(text, strlen(text), "t.yaml", sets, nsets, &p, &e);

	if (ret)
		fail_msg("parse failed (%d): %s", ret, ydoc_error_format(&e, buf, sizeof(buf)));
	return p;
}

struct bad {
	const char *text;
	int line, col;
	const char *msg; /* the exact message */
};

#define HDR "name: t\ndestructive: true\nphases:\n"

/* clang-format off */
static const struct bad bad_profiles[] = {
	/* 0: the top level */
	{"nam: t\nphases: [idle: 1s]\n", 1, 1,
	 "unknown key 'nam' in the profile (did you mean 'name'?)"},
	{"phases:\n  - idle: 1s\n", 1, 1, "missing required key 'name' in the profile"},
	{"name: t\n", 1, 1, "missing required key 'phases' in the profile"},
	{"name: t\nphases: []\n", 2, 9, "phases is empty: at least one phase is needed"},
	{"name: t\nphases:\n", 2, 8,
	 "expected a list of phases for phases ('- kind: {...}' items), got nothing"},
	/* 5 */
	{"name: t\nname: u\nphases: [idle: 1s]\n", 2, 1,
	 "duplicate key 'name' (first defined at line 1)"},
	{"name: my test\nphases: [idle: 1s]\n", 1, 7,
	 "name may hold only letters, digits, '-', '_' and '.', got 'my test'"},
	{"name: t\ndestructive: maybe\nphases: [idle: 1s]\n", 2, 14,
	 "expected true or false, got 'maybe'"},
	{"name: t\nphases:\n  - precondition: {amount: 1x}\n", 3, 5,
	 "precondition writes to the target: a profile with writing phases must say "
	 "'destructive: true'"},
	{"name: t\ndestructive: false\nphases:\n  - idle: 1s\n  - repeat:\n      count: 2\n"
	 "      phases:\n        - trim: {}\n",
	 8, 11,
	 "trim writes to the target: a profile with writing phases must say 'destructive: true'"},
	/* 10: phase items */
	{HDR "  - prge: {}\n", 4, 5, "unknown phase kind 'prge' (did you mean 'purge'?)"},
	{HDR "  - frobnicate: {}\n", 4, 5,
	 "unknown phase kind 'frobnicate' (expected one of: purge, precondition, write_until, "
	 "rounds, idle, trim, repeat, idle_sweep, trim_check, surface, variants, dirth_points, bursts)"},
	{HDR "  - idle:\n    time: 5m\n", 5, 5,
	 "a phase has exactly one key, its kind ('idle'); indent 'time' under it"},
	{HDR "  - 42\n", 4, 5, "expected a phase such as '- idle: {time: 5m}', got '42'"},
	{HDR "  - purge: {method: shred}\n", 4, 21,
	 "expected auto, discard, sim, nvme-format, nvme-sanitize, ata-sanitize-block, ata-sanitize-crypto "
	 "or ata-security-erase, got 'shred'"},
	/* 15: units and ranges */
	{HDR "  - idle: {time: fast}\n", 4, 18,
	 "expected a duration such as 60s, 5m or 24h, got 'fast'"},
	{HDR "  - idle: {time: 5 fortnights}\n", 4, 18,
	 "bad unit 'fortnights' in '5 fortnights': expected a duration such as 60s, 5m or 24h"},
	{HDR "  - idle: {}\n", 4, 11, "missing required key 'time' in idle"},
	{HDR "  - precondition: {amount: 1m}\n", 4, 28,
	 "bad unit 'm' in '1m': expected an amount such as 2x (of capacity), 10g or 24h ('1m' "
	 "would be ambiguous: say 1MiB or 1min)"},
	{HDR "  - precondition: {bs: 1000}\n", 4, 24, "block size '1000' is not a multiple of 512"},
	/* 20 */
	{HDR "  - precondition: {bs: 4k/70:64k}\n", 4, 24,
	 "give every block size of the split a weight (4k/70:64k/30) or none"},
	{HDR "  - precondition: {qd: 2000}\n", 4, 24, "qd 2000 is outside 1 to 1024"},
	{HDR "  - precondition: {queue: {threads: 65, depth: 8}}\n", 4, 37,
	 "threads 65 is outside 1 to 64"},
	{HDR "  - precondition: {queue: {depth: 8}, qd: 4}\n", 4, 20,
	 "give either queue: {threads, depth} or qd/threads, not both"},
	{HDR "  - precondition: {rw: randread}\n", 4, 24,
	 "precondition writes: expected rw write or randwrite, got randread"},
	/* 25 */
	{HDR "  - precondition: {range: 60%-20%}\n", 4, 27,
	 "invalid range 60%-20% (expected a range such as 0-50%, 25%-75% or 1g-2g)"},
	{HDR "  - write_until: {rw: randwrite}\n", 4, 18, "missing required key 'amount' in write_until"},
	{HDR "  - write_until: {amount: 1x, pattern: sequential}\n", 4, 40,
	 "expected random or zeros (the data pattern; sequential access is rw: write or read), "
	 "got 'sequential'"},
	{HDR "  - write_until:\n      amount: 1x\n      random_distribution: zoned\n"
	     "      zones: [{io: 80%, range: 20%}, {io: 30%, range: 80%}]\n",
	 7, 14, "zone shares must each sum to 100%: io sums to 110.00%, range to 100.00%"},
	{HDR "  - write_until: {amount: 1x, zones: [{io: 100%, range: 100%}]}\n", 4, 31,
	 "zones needs random_distribution: zoned"},
	/* 30 */
	{HDR "  - write_until: {amount: 1x, random_distribution: zoned}\n", 4, 52,
	 "random_distribution: zoned needs zones: [{io: 80%, range: 20%}, {io: 20%, range: 80%}]"},
	{HDR "  - write_until: {amount: 1x, rw: write, rwmix_read: 30}\n", 4, 54,
	 "rwmix_read applies to rw: randrw or rw, not write (leave rw out to follow the mix)"},
	{HDR "  - write_until: {amount: 1x, compressibility: 150%}\n", 4, 48,
	 "invalid compressibility 150% (expected a percentage from 0% to 100% such as 20%)"},
	/* 33: rounds */
	{HDR "  - rounds:\n      rw: randwrite\n      cell_tme: 60s\n      count: 3\n", 6, 7,
	 "unknown key 'cell_tme' in rounds (did you mean 'cell_time'?)"},
	{HDR "  - rounds: {rw: randwrite, count: 3}\n", 4, 13,
	 "missing required key 'cell_time' in rounds"},
	/* 35 */
	{HDR "  - rounds: {rw: randwrite, cell_time: 1s}\n", 4, 13,
	 "rounds need steady_state: {...} or a fixed count: N of rounds"},
	{HDR "  - rounds: {cell_time: 1s, count: 1}\n", 4, 13,
	 "missing required key 'rw' in rounds (or vary rwmix_read in cells)"},
	{HDR "  - rounds: {rw: randwrite, cell_time: 1s, count: 1, steady_state: {}}\n", 4, 44,
	 "give either steady_state or count, not both"},
	{HDR "  - rounds:\n      cells: {rwmix_read: [100, 0], bs: [4k, 8k]}\n      cell_time: 1s\n"
	     "      count: 1\n",
	 5, 14, "cells vary 2 keys: say which loop is outer with order, such as order: [rwmix_read, bs]"},
	{HDR "  - rounds:\n      cells: {rwmix_read: [100, 0], bs: [4k, 8k], order: [rwmix_read, bz]}\n"
	     "      cell_time: 1s\n      count: 1\n",
	 5, 71, "bad order key 'bz' (did you mean 'bs'?)"},
	/* 40 */
	{HDR "  - rounds:\n      cells: {rwmix_read: [100, 0], bs: [4k, 8k], order: [bs]}\n"
	     "      cell_time: 1s\n      count: 1\n",
	 5, 58, "order lacks 'rwmix_read', which cells varies"},
	{HDR "  - rounds:\n      cells: {bs: [4k, 8k], order: [bs, qd]}\n      cell_time: 1s\n"
	     "      rw: randwrite\n      count: 1\n",
	 5, 41, "order names 'qd', which cells does not vary"},
	{HDR "  - rounds:\n      cells: {bs: [4k, 8k, 4k]}\n      cell_time: 1s\n      rw: randwrite\n"
	     "      count: 1\n",
	 5, 28, "value '4k' appears twice in cells.bs"},
	{HDR "  - rounds:\n      cells: {bs: [4k], blocksize: [8k]}\n      cell_time: 1s\n"
	     "      rw: randwrite\n      count: 1\n",
	 5, 25, "unknown key 'blocksize' in cells (cells vary rwmix_read, bs, qd, threads or rw)"},
	{HDR "  - rounds:\n      bs: 4k\n      cells: {bs: [4k, 8k]}\n      cell_time: 1s\n"
	     "      rw: randwrite\n      count: 1\n",
	 6, 15, "'bs' is both a setting of rounds and a cells axis: keep one"},
	/* 45 */
	{HDR "  - rounds:\n      rw: randwrite\n      cells: {rwmix_read: [100, 0]}\n"
	     "      cell_time: 1s\n      count: 1\n",
	 5, 11,
	 "cells vary rwmix_read, so rw must be randrw or rw (or left out to follow the mix), not "
	 "randwrite"},
	{HDR "  - rounds:\n      cells: {rwmix_read: [100, 0], bs: [4k, 8k], order: [rwmix_read, bs]}\n"
	     "      cell_time: 1s\n      steady_state: {track: {rwmix_read: 0}}\n",
	 7, 29, "steady_state.track must pick one cell: add bs (one of 4k, 8k)"},
	{HDR "  - rounds:\n      cells: {rwmix_read: [100, 0], bs: [4k, 8k], order: [rwmix_read, bs]}\n"
	     "      cell_time: 1s\n      steady_state: {track: {rwmix_read: 50, bs: 4k}}\n",
	 7, 42, "track rwmix_read=50 is not a value of cells.rwmix_read"},
	{HDR "  - rounds:\n      rw: randwrite\n      cell_time: 1s\n"
	     "      steady_state: {track: {metric: throughput}}\n",
	 7, 38, "expected iops, bw, lat_mean or lat_p99, got 'throughput'"},
	{HDR "  - rounds:\n      rw: randwrite\n      cell_time: 1s\n"
	     "      steady_state: {window: 10, max_rounds: 5}\n",
	 7, 46, "max_rounds (5) must be at least the window (10)"},
	/* 50 */
	{HDR "  - rounds:\n      rw: randwrite\n      cell_time: 1s\n"
	     "      steady_state: {max_data_excursion: 0%}\n",
	 7, 42, "max_data_excursion 0% is outside 0.10% to 100%"},
	{HDR "  - rounds:\n      rw: randwrite\n      cell_time: 1s\n      count: 1\n"
	     "      pre_write: {rw: randwrite}\n",
	 8, 18, "missing required key 'amount' in pre_write"},
	{HDR "  - rounds:\n      rw: randwrite\n      cell_time: 1s\n      count: 0\n", 7, 14,
	 "count 0 is outside 1 to 10000"},
	/* 53: repeat */
	{HDR "  - repeat: {count: 2, phases: []}\n", 4, 32,
	 "repeat.phases is empty: at least one phase is needed"},
	{HDR "  - repeat: {count: 2}\n", 4, 13, "missing required key 'phases' in repeat"},
	/* 55 */
	{HDR "  - repeat: {count: 2, phases: [{idle: 1s, trim: {}}]}\n", 4, 44,
	 "a phase has exactly one key, its kind ('idle'); indent 'trim' under it"},
	{HDR "  - repeat:\n      count: 2\n      phases:\n        - repeat:\n            count: 2\n"
	     "            phases:\n              - repeat:\n                  count: 2\n"
	     "                  phases:\n                    - repeat: {count: 2, phases: [idle: 1s]}\n",
	 13, 31, "repeat nested more than 3 deep"},
	{HDR "  - repeat: {count: 2, phases: [{idel: 1s}]}\n", 4, 34,
	 "unknown phase kind 'idel' (did you mean 'idle'?)"},
	/* 58: syntax */
	{HDR "  - idle: {time: 1s\n", 5, 1,
	 "YAML syntax error: did not find expected ',' or '}' while parsing a flow mapping"},
	{HDR "  - idle: &a {time: 1s}\n", 4, 11,
	 "anchors (&a) and aliases are not supported: write the value out"},
	/* 60 */
	{"", 0, 0, "empty profile: expected name, description and phases"},
	{HDR "  - precondition:\n      random_distribution: zoned\n"
	     "      zones: [{io: 50%, range: 50%}, {io: 50%, range: 50%}]\n",
	 5, 28, "random_distribution: zoned needs a random rw mode, not write"},
	{HDR "  - rounds:\n      random_distribution: zoned\n"
	     "      zones: [{io: 50%, range: 50%}, {io: 50%, range: 50%}]\n"
	     "      cells: {rw: [randread, read]}\n      cell_time: 1s\n      count: 1\n",
	 7, 19, "random_distribution: zoned needs random rw modes, not read"},
	{HDR "  - trim: {range: 1000-1g}\n", 4, 19,
	 "range ends must be multiples of 512 B, got 1000-1g"},
	{HDR "  - precondition: {amount: 1000}\n", 4, 28, "amount must be a multiple of 512 B, got 1000"},
	/* the stop rule of a write_until counts bytes, not time */
	{HDR "  - write_until: {amount: 1x, stop: {below_peak: 70%, for: 10s}}\n", 4, 60,
	 "stop.for: expected bytes or a capacity multiple (2GiB, 0.05x)"},
	{HDR "  - write_until: {amount: 1x, stop: {for: 1g}}\n", 4, 37,
	 "missing required key 'below_peak' in stop"},
	/* JESD219's keys (issue 16) */
	{HDR "  - write_until: {rw: randwrite, amount: 1x, bs_not_applicable: drop}\n", 4, 65,
	 "expected refuse (a split size the target cannot do refuses the job) or renormalise (it "
	 "is left out, the other weights renormalised), got 'drop'"},
	{HDR "  - write_until: {rw: randwrite, amount: 1x, align: 1000}\n", 4, 53,
	 "align must be a multiple of 512 B, got 1000"},
	/* steady_state.early (issue 19) */
	{HDR "  - rounds:\n      rw: randwrite\n      cell_time: 1s\n"
	     "      steady_state: {early: {confidence: 1.5}}\n",
	 7, 42, "confidence 1.5 is outside 0.510 to 0.999"},
	{HDR "  - rounds:\n      rw: randwrite\n      cell_time: 1s\n"
	     "      steady_state: {early: {min_rounds: 2}}\n",
	 7, 42, "min_rounds 2 is outside 3 to 10000"},
	{HDR "  - rounds:\n      rw: randwrite\n      cell_time: 1s\n"
	     "      steady_state: {window: 3, early: {}}\n",
	 7, 40, "early needs a window of at least 4 rounds (a fit of 3 with one missing), not 3"},
	{HDR "  - rounds:\n      rw: randwrite\n      cell_time: 1s\n"
	     "      steady_state: {early: {confidance: 0.9}}\n",
	 7, 30, "unknown key 'confidance' in early (did you mean 'confidence'?)"},
	/* precondition method: sprandom (issue 19) */
	{HDR "  - precondition: {method: sprandom, spare: 120%}\n", 4, 45,
	 "spare: expected auto, a percentage (7%) or a fraction (0.07) above 0 and below 1, got "
	 "'120%'"},
	{HDR "  - precondition: {method: sprandom, spare: lots}\n", 4, 45,
	 "spare: expected auto, a percentage (7%) or a fraction (0.07) above 0 and below 1, got "
	 "'lots'"},
	{HDR "  - precondition: {method: sprandom, regions: 1}\n", 4, 47, "regions 1 is outside 2 to 4096"},
	{HDR "  - precondition: {method: sprandom, slc_cache: big}\n", 4, 49,
	 "slc_cache: expected auto, a size (470m, 0) or {from: DIR}, got 'big'"},
	{HDR "  - precondition: {method: sprandom, slc_cache: [1]}\n", 4, 49,
	 "slc_cache: expected auto, a size (470m, 0) or {from: DIR}, got a list"},
	{HDR "  - precondition: {method: sprandom, slc_cache: {form: r/x}}\n", 4, 50,
	 "unknown key 'form' in slc_cache (did you mean 'from'?)"},
	{HDR "  - precondition: {method: sprandom, slc_cache: {}}\n", 4, 49,
	 "missing required key 'from' in slc_cache"},
	{HDR "  - precondition: {method: sprandom, slc_cache: {from: ''}}\n", 4, 56,
	 "slc_cache: from: expected a results directory (1 to 511 characters)"},
	{HDR "  - precondition: {slc_cache: {from: r/x}}\n", 4, 31,
	 "slc_cache is an input of method: sprandom"},
	{HDR "  - precondition: {spare: 7%}\n", 4, 27, "spare is an input of method: sprandom"},
	{HDR "  - precondition: {force: true}\n", 4, 27, "force is an input of method: sprandom"},
	{HDR "  - precondition: {method: sprandom, amount: 2x}\n", 4, 46,
	 "method: sprandom computes its own offsets and length over the whole drive: amount does "
	 "not apply"},
	{HDR "  - precondition: {method: sprandom, rw: write}\n", 4, 42,
	 "method: sprandom writes at random: expected rw randwrite, got write"},
	{HDR "  - precondition: {method: sprandom, bs: 4k/50:8k/50}\n", 4, 42,
	 "method: sprandom writes one block size, not a split"},
	{HDR "  - precondition: {method: sprandm}\n", 4, 28,
	 "expected workload or sprandom, got 'sprandm' (did you mean 'sprandom'?)"},
};
/* clang-format on */

static void test_bad_profiles(void **state)
{
	size_t n = sizeof(bad_profiles) / sizeof(bad_profiles[0]);

	(void)state;
	assert_true(n >= 30);
	for (size_t i = 0; i < n; i++) {
		const struct bad *c = &bad_profiles[i];
		struct profile *p = (struct profile *)0x1;
		struct ydoc_error e;
		int ret =
		    profile_parse_string(c->text, strlen(c->text), "bad.yaml", NULL, 0, &p, &e);

		if (ret != -EINVAL)
			fail_msg("case %zu: ret %d", i, ret);
		assert_ptr_equal(p, (struct profile *)0x1);
		if (e.line != c->line || e.col != c->col || strcmp(e.msg, c->msg))
			fail_msg("case %zu:\n got  %d:%d '%s'\n want %d:%d '%s'", i, e.line, e.col,
				 e.msg, c->line, c->col, c->msg);
		assert_string_equal(e.file, "bad.yaml");
	}
}

static const char *snia =
    "name: snia-iops\n"
    "description: d\n"
    "destructive: true\n"
    "defaults: {seed: 7}\n"
    "phases:\n"
    "  - purge: {method: auto}\n"
    "  - precondition: {rw: write, bs: 128k, amount: 2x}\n"
    "  - rounds:\n"
    "      cells:\n"
    "        rwmix_read: [100, 95, 65, 50, 35, 5, 0]\n"
    "        bs: [1m, 128k, 64k, 32k, 16k, 8k, 4k, 512]\n"
    "        order: [rwmix_read, bs]\n"
    "      cell_time: 60s\n"
    "      queue: {threads: 4, depth: 32}\n"
    "      steady_state: {track: {rwmix_read: 0, bs: 4k, metric: iops}, window: 5,\n"
    "                     max_data_excursion: 20%, max_slope_excursion: 10%,\n"
    "                     max_rounds: 25}\n";

static void test_snia_plan(void **state)
{
	struct profile *p = parse_ok(snia, NULL, 0);
	const struct phase_rounds *r;
	const struct phase_write *w;
	struct profile_cell *cells;
	size_t n;

	(void)state;
	assert_string_equal(p->name, "snia-iops");
	assert_true(p->destructive && profile_writes(p));
	assert_int_equal(p->phases.n, 3);
	assert_string_equal(p->phases.v[0].kind->name, "purge");
	assert_int_equal(p->phases.v[0].line, 6);
	assert_int_equal(p->phases.v[1].kind->type, PHASE_PRECONDITION);
	assert_int_equal(p->phases.v[2].kind->type, PHASE_ROUNDS);
	w = p->phases.v[1].data;
	assert_int_equal(w->w.spec.rw, RW_WRITE);
	assert_int_equal(w->w.spec.bs[0].bs, 131072);
	assert_int_equal(w->w.length.kind, AMOUNT_CAPACITY);
	assert_true(w->w.length.multiple == 2.0);
	/* The profile's seed is the run's default seed; a workload without its own seed leaves
	 * spec.seed 0 so that --seed applies. */
	assert_true(p->defaults.seed == 7);
	assert_true(w->w.spec.seed == 0);
	r = p->phases.v[2].data;
	assert_int_equal(r->naxes, 2);
	assert_int_equal(r->axes[0].key, CELL_RWMIX_READ);
	assert_int_equal(r->axes[1].key, CELL_BS);
	assert_true(r->base.length.ns == 60000000000ull);
	assert_int_equal(r->base.spec.qd, 32);
	assert_int_equal(r->base.spec.threads, 4);
	assert_true(r->has_steady_state);
	assert_int_equal(r->ss.window, 5);
	assert_int_equal(r->ss.max_rounds, 25);
	assert_true(r->ss.max_data_excursion == 0.2 && r->ss.max_slope_excursion == 0.1);
	assert_false(r->has_early); /* absent: no early verdict */
	assert_int_equal(r->track.metric, RESULTS_METRIC_IOPS);
	assert_int_equal(profile_rounds_cells(r, &cells, &n), 0);
	assert_int_equal(n, 56);
	/* Outer loop rwmix_read, inner bs, in the order written. */
	assert_string_equal(cells[0].key, "rwmix_read=100,bs=1m");
	assert_string_equal(cells[1].key, "rwmix_read=100,bs=128k");
	assert_string_equal(cells[7].key, "rwmix_read=100,bs=512");
	assert_string_equal(cells[8].key, "rwmix_read=95,bs=1m");
	assert_string_equal(cells[54].key, "rwmix_read=0,bs=4k");
	assert_string_equal(cells[55].key, "rwmix_read=0,bs=512");
	assert_int_equal(r->tracked_cell, 54);
	/* SNIA convention: 100% reads are randread, 0% randwrite, the rest randrw. */
	assert_int_equal(cells[0].w.spec.rw, RW_RANDREAD);
	assert_int_equal(cells[8].w.spec.rw, RW_RANDRW);
	assert_int_equal(cells[8].w.spec.rwmix_read, 95);
	assert_int_equal(cells[54].w.spec.rw, RW_RANDWRITE);
	assert_int_equal(cells[54].w.spec.bs[0].bs, 4096);
	assert_int_equal(cells[54].w.spec.nbs, 1);
	assert_int_equal(cells[54].w.spec.qd, 32);
	assert_true(cells[54].coord[CELL_RWMIX_READ] == 0 && cells[54].coord[CELL_BS] == 4096);
	assert_int_equal(cells[55].index, 55);
	free(cells);
	{
		/* The manifest's plan names every cell in order and the tracked one. */
		struct json_object *j = profile_to_json(p), *ph, *set, *c, *v;

		assert_non_null(j);
		assert_true(json_object_object_get_ex(j, "phases", &ph));
		assert_int_equal(json_object_array_length(ph), 3);
		assert_true(
		    json_object_object_get_ex(json_object_array_get_idx(ph, 2), "settings", &set));
		assert_true(json_object_object_get_ex(set, "cells", &c));
		assert_int_equal(json_object_array_length(c), 56);
		assert_string_equal(json_object_get_string(json_object_array_get_idx(c, 8)),
				    "rwmix_read=95,bs=1m");
		assert_true(json_object_object_get_ex(set, "tracked_cell", &v));
		assert_string_equal(json_object_get_string(v), "rwmix_read=0,bs=4k");
		assert_true(json_object_object_get_ex(set, "cell_time_ns", &v));
		assert_true(json_object_get_uint64(v) == 60000000000ull);
		json_object_put(j);
	}
	profile_free(p);
}

static void test_order_inner_outer(void **state)
{
	const char *text =
	    HDR "  - rounds:\n"
		"      cells: {rwmix_read: [100, 0], bs: [4k, 8k, 16k], order: [bs, rwmix_read]}\n"
		"      cell_time: 1s\n"
		"      count: 2\n"
		"  - idle: 5m\n"
		"  - rounds: {rw: randread, cell_time: 2s, count: 1, qd: 4}\n";
	struct profile *p = parse_ok(text, NULL, 0);
	const struct phase_rounds *r = p->phases.v[0].data, *r2 = p->phases.v[2].data;
	const struct phase_idle *idle = p->phases.v[1].data;
	static const char *const want[] = {"bs=4k,rwmix_read=100",  "bs=4k,rwmix_read=0",
					   "bs=8k,rwmix_read=100",  "bs=8k,rwmix_read=0",
					   "bs=16k,rwmix_read=100", "bs=16k,rwmix_read=0"};
	struct profile_cell *cells;
	size_t n;

	(void)state;
	assert_int_equal(profile_rounds_cells(r, &cells, &n), 0);
	assert_int_equal(n, 6);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(cells[i].key, want[i]);
	free(cells);
	assert_false(r->has_steady_state);
	assert_int_equal(r->count, 2);
	assert_true(idle->time_ns == 300000000000ull);
	assert_int_equal(profile_rounds_cells(r2, &cells, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(cells[0].key, "all");
	assert_int_equal(cells[0].w.spec.rw, RW_RANDREAD);
	assert_int_equal(cells[0].w.spec.qd, 4);
	free(cells);
	profile_free(p);
}

static void test_workload_keys(void **state)
{
	const char *text = HDR "  - write_until:\n"
			       "      rw: randwrite\n"
			       "      bs: 4k/70:64k/30\n"
			       "      qd: 16\n"
			       "      threads: 2\n"
			       "      range: 0-50%\n"
			       "      random_distribution: zoned\n"
			       "      zones: [{io: 80%, range: 20%}, {io: 20%, range: 80%}]\n"
			       "      pattern: zeros\n"
			       "      compressibility: 50%\n"
			       "      seed: 0x2a\n"
			       "      ramp: 10s\n"
			       "      interval: 500ms\n"
			       "      amount: 4x\n"
			       "      round_time: 1min\n"
			       "      max_time: 24h\n";
	struct profile *p = parse_ok(text, NULL, 0);
	const struct phase_write *w = p->phases.v[0].data;
	const struct job_spec *s = &w->w.spec;
	struct job_spec js;
	char err[256];

	(void)state;
	assert_int_equal(s->rw, RW_RANDWRITE);
	assert_int_equal(s->nbs, 2);
	assert_int_equal(s->bs[0].bs, 4096);
	assert_int_equal(s->bs[0].weight, 70);
	assert_int_equal(s->bs[1].bs, 65536);
	assert_int_equal(s->qd, 16);
	assert_int_equal(s->threads, 2);
	assert_int_equal(s->dist, DIST_ZONED);
	assert_int_equal(s->nzones, 2);
	assert_true(s->zones[0].io_frac == 0.8 && s->zones[0].range_frac == 0.2);
	assert_int_equal(s->pattern, PATTERN_ZEROS);
	assert_int_equal(s->compressibility, 50);
	assert_true(s->seed == 42);
	assert_true(s->interval_ns == 500000000ull);
	assert_int_equal(w->w.ramp.kind, AMOUNT_TIME);
	assert_true(w->round_time_ns == 60000000000ull);
	assert_true(w->max_time_ns == 86400000000000ull);
	assert_false(w->slc_probe); /* off unless asked for */
	/* Resolve for a 1 GiB target with 4 KiB logical blocks at half the time scale. */
	assert_int_equal(
	    profile_workload_resolve(&w->w, 1ull << 30, 4096, 0.5, &js, err, sizeof(err)), 0);
	assert_true(js.range_start == 0 && js.range_end == 512ull << 20);
	assert_true(js.amount_bytes == 4ull << 30);
	assert_true(js.time_ns == 0);
	assert_true(js.ramp_ns == 5000000000ull);
	assert_true(js.ramp_bytes == 0);
	/* A 512 B logical block is fine; a 64 KiB one is not a divisor of 4 KiB. */
	assert_int_equal(
	    profile_workload_resolve(&w->w, 1ull << 30, 65536, 1, &js, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a multiple of the logical block size"));
	assert_int_equal(profile_workload_resolve(&w->w, 4096, 512, 1, &js, err, sizeof(err)),
			 -ERANGE);
	assert_int_equal(profile_bytes_written(p, 1ull << 30, &js.amount_bytes), 0);
	assert_true(js.amount_bytes == 4ull << 30);
	profile_free(p);
}

/*
 * JESD219's keys (issue 16): `align` reaches the job spec; with `bs_not_applicable: renormalise`
 * a 4Kn target leaves the sub-4 KiB sizes out (by hand: 512/4, 1k/1, 1536/1 go, 4k/67 and 8k/10
 * stay) and the cell is applicable; without it the same split is refused and not applicable.
 */
static void test_split_renormalise(void **state)
{
	const char *text = HDR "  - write_until:\n"
			       "      rw: randwrite\n"
			       "      bs: 512/4:1024/1:1536/1:4k/67:8k/10\n"
			       "      align: 4k\n"
			       "      bs_not_applicable: renormalise\n"
			       "      amount: 1x\n"
			       "      round_time: 1min\n";
	struct profile *p = parse_ok(text, NULL, 0);
	struct phase_write *w = p->phases.v[0].data;
	struct job_spec js;
	char err[256], why[256];

	(void)state;
	assert_int_equal(w->w.spec.align, 4096);
	assert_true(w->w.bs_renormalise);
	assert_false(profile_workload_not_applicable(&w->w, 4096, why, sizeof(why)));
	assert_int_equal(profile_workload_resolve(&w->w, 1ull << 30, 4096, 1, &js, err, sizeof(err)),
			 0);
	assert_int_equal(js.nbs, 2);
	assert_true(js.bs[0].bs == 4096 && js.bs[0].weight == 67);
	assert_true(js.bs[1].bs == 8192 && js.bs[1].weight == 10);
	assert_int_equal(js.nbs_dropped, 3);
	assert_true(js.bs_dropped[0].bs == 512 && js.bs_dropped[0].weight == 4);
	assert_true(js.bs_dropped[1].bs == 1024 && js.bs_dropped[2].bs == 1536);
	assert_int_equal(js.align, 4096);
	/* a 512 B device drops nothing */
	assert_int_equal(profile_workload_resolve(&w->w, 1ull << 30, 512, 1, &js, err, sizeof(err)),
			 0);
	assert_int_equal(js.nbs, 5);
	assert_int_equal(js.nbs_dropped, 0);
	/* refused by default */
	w->w.bs_renormalise = false;
	assert_true(profile_workload_not_applicable(&w->w, 4096, why, sizeof(why)));
	assert_int_equal(profile_workload_resolve(&w->w, 1ull << 30, 4096, 1, &js, err, sizeof(err)),
			 -EINVAL);
	profile_free(p);
}

static void test_write_until_slc_probe(void **state)
{
	const char *text = HDR "  - write_until: {rw: write, bs: 128k, range: 50-100%, amount: 0.5x, "
			       "slc_probe: true}\n";
	struct profile *p = parse_ok(text, NULL, 0);
	const struct phase_write *w = p->phases.v[0].data;

	(void)state;
	assert_true(w->slc_probe);
	assert_false(w->has_stop);
	profile_free(p);
	/* the stop rule: a share of the peak and an amount of bytes or capacity */
	p = parse_ok(HDR "  - write_until: {rw: write, bs: 128k, amount: 1x, slc_probe: true,\n"
			 "      stop: {below_peak: 70%, for: 0.1x}}\n",
		     NULL, 0);
	w = p->phases.v[0].data;
	assert_true(w->has_stop);
	assert_true(fabs(w->stop_below_peak - 0.7) < 1e-12);
	assert_int_equal(w->stop_for.kind, AMOUNT_CAPACITY);
	assert_true(fabs(w->stop_for.multiple - 0.1) < 1e-12);
	profile_free(p);
	p = parse_ok(HDR "  - write_until: {amount: 1x, stop: {below_peak: 50%, for: 2GiB}}\n", NULL, 0);
	w = p->phases.v[0].data;
	assert_int_equal(w->stop_for.kind, AMOUNT_BYTES);
	assert_true(w->stop_for.bytes == 2ull << 30);
	profile_free(p);
}

/* precondition method: sprandom (issue 19): the keys, and the inputs resolved against what a
 * target says (model, drive database, nothing), recomputed here. */
static void test_sprandom_precondition(void **state)
{
	struct profile *p = parse_ok(HDR "  - precondition: {method: sprandom, spare: 12%, regions: "
					 "64, slc_cache: 100m, queue: {threads: 2, depth: 8}}\n"
					 "  - precondition: {method: sprandom}\n",
				     NULL, 0);
	const struct phase_write *w = p->phases.v[0].data, *d = p->phases.v[1].data;
	struct phase_nand model = {.gc_space_bytes = 1200ull << 20, .slc_known = true,
				   .slc_cache_bytes = 8 << 20};
	struct sprandom_inputs in;
	char err[400];
	double a;

	(void)state;
	assert_true(w->spr.on && !w->spr.spare_auto && !w->spr.slc_auto);
	assert_true(fabs(w->spr.spare - 0.12) < 1e-12);
	assert_int_equal(w->spr.regions, 64);
	assert_int_equal(w->spr.slc_cache, 100 << 20);
	assert_int_equal(w->w.spec.rw, RW_RANDWRITE);
	assert_int_equal(w->w.spec.bs[0].bs, 4096);
	assert_int_equal(w->w.spec.threads, 2);
	assert_true(d->spr.on && d->spr.spare_auto && d->spr.slc_auto && !d->spr.regions);
	/* given inputs win over the target's */
	assert_int_equal(phase_sprandom_resolve(&w->spr, 4096, 1ull << 30, &model, &in, err,
						sizeof(err)),
			 0);
	assert_int_equal(in.spare_from, SPR_FROM_PROFILE);
	assert_int_equal(in.slc_from, SPR_FROM_PROFILE);
	assert_int_equal(in.regions, 64);
	assert_int_equal(in.units, 262144);
	a = in.alpha;
	assert_true(fabs((1 - a) / log(1 / a) - 0.88) < 1e-9);
	assert_int_equal(in.bytes, in.seq_writes * 4096 + (100 << 20));
	/* auto: the model (1 GiB over 1200 MiB: spare 1 - 1024 / 1200) */
	assert_int_equal(phase_sprandom_resolve(&d->spr, 4096, 1ull << 30, &model, &in, err,
						sizeof(err)),
			 0);
	assert_int_equal(in.spare_from, SPR_FROM_MODEL);
	assert_true(fabs(in.spare - (1 - 1024.0 / 1200.0)) < 1e-12);
	assert_int_equal(in.slc_from, SPR_FROM_MODEL);
	assert_int_equal(in.slc_cache, 8 << 20);
	assert_int_equal(in.regions, 1024);
	assert_int_equal(in.regions_from, SPR_ASSUMED);
	/* nothing known: refused, naming the key; a given spare runs, the SLC cache assumed 0 */
	assert_int_equal(phase_sprandom_resolve(&d->spr, 4096, 1ull << 30, NULL, &in, err,
						sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "set the precondition's spare:"));
	assert_non_null(strstr(err, "add a raw_nand: row"));
	assert_non_null(strstr(err, "or use a virtual SSD model"));
	/* a drive whose drive-database entry states its raw NAND: 1 GiB on 1100 MiB */
	{
		struct phase_nand drive = {.raw_nand_bytes = 1100ull << 20,
					   .raw_nand_entry = "Example SSD"};
		struct json_object *j;

		assert_int_equal(phase_sprandom_resolve(&d->spr, 4096, 1ull << 30, &drive, &in,
							err, sizeof(err)),
				 0);
		assert_int_equal(in.spare_from, SPR_FROM_DRIVEDB);
		assert_true(fabs(in.spare - (1 - 1024.0 / 1100.0)) < 1e-12);
		j = phase_sprandom_inputs_json(&in);
		assert_non_null(j);
		assert_string_equal(
		    json_object_get_string(json_object_object_get(j, "spare_from")),
		    "drive database: Example SSD");
		assert_int_equal(json_object_get_int64(json_object_object_get(j, "raw_nand_bytes")),
				 1100ll << 20);
		json_object_put(j);
	}
	assert_int_equal(phase_sprandom_resolve(&w->spr, 4096, 1ull << 30, NULL, &in, err,
						sizeof(err)),
			 0);
	assert_int_equal(in.spare_from, SPR_FROM_PROFILE);
	profile_free(p);
	p = parse_ok(HDR "  - precondition: {method: sprandom, spare: 0.1}\n", NULL, 0);
	d = p->phases.v[0].data;
	assert_int_equal(phase_sprandom_resolve(&d->spr, 4096, 1ull << 30, NULL, &in, err,
						sizeof(err)),
			 0);
	assert_true(fabs(in.spare - 0.1) < 1e-12);
	assert_int_equal(in.slc_from, SPR_ASSUMED);
	assert_int_equal(in.slc_cache, 0);
	assert_int_equal(in.bytes, in.seq_writes * 4096);
	profile_free(p);
}

/* Writes text to dir/name (the test's own temp directory). */
static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* slc_cache: {from: DIR}: the summary reader takes the lowest-fill probe's knee (entries out of
 * order here, the figure hand-picked); the fill uses it on the same drive, and is refused on
 * another one, on a run with no knee there, and on a directory that is no slc-cache run. */
static void test_sprandom_slc_from_probe(void **state)
{
	static const char man[] = "{\"schema\": 1, \"target\": {\"model\": \"M1\", "
				  "\"serial\": \"S1\", \"wwn\": \"\", \"path\": \"sim:m\"}}";
	char dir[] = "/tmp/ssdlab-test-slcprobe-XXXXXX", yaml[700], err[600], path[600];
	struct results_slc_probe pr;
	struct phase_nand same = {.gc_space_bytes = 1200ull << 20, .model = "M1", .serial = "S1",
				  .wwn = ""};
	struct phase_nand other = same;
	struct sprandom_inputs in;
	struct profile *p;
	const struct phase_write *w;
	struct json_object *j;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "manifest.json", man);
	put(dir, "summary.json",
	    "{\"schema\": 1, \"slc_cache\": ["
	    "{\"phase\": 6, \"fill\": 0.5, \"cache_detected\": true, \"cache_bytes\": 5.0e7},"
	    "{\"phase\": 2, \"fill\": 0, \"cache_detected\": true, \"cache_bytes\": 112433530.6},"
	    "{\"phase\": 10, \"fill\": 0.85, \"cache_detected\": false}]}");
	assert_int_equal(results_slc_probe_read(dir, &pr, err, sizeof(err)), 0);
	assert_int_equal(pr.cache_bytes, 112433531);
	assert_int_equal(pr.phase, 2);
	assert_true(pr.fill == 0);
	assert_string_equal(pr.model, "M1");
	assert_string_equal(pr.serial, "S1");

	snprintf(yaml, sizeof(yaml), HDR "  - precondition: {method: sprandom, slc_cache: {from: %s}}\n",
		 dir);
	p = parse_ok(yaml, NULL, 0);
	w = p->phases.v[0].data;
	assert_string_equal(w->spr.slc_dir, dir);
	assert_int_equal(phase_sprandom_resolve(&w->spr, 4096, 1ull << 30, &same, &in, err,
						sizeof(err)),
			 0);
	assert_int_equal(in.slc_from, SPR_FROM_PROBE);
	assert_int_equal(in.slc_cache, 112433531);
	assert_int_equal(in.bytes, in.seq_writes * 4096 + (112433531 + 4095) / 4096 * 4096);
	j = phase_sprandom_inputs_json(&in);
	assert_non_null(j);
	snprintf(path, sizeof(path), "slc-cache probe %s", dir);
	assert_string_equal(json_object_get_string(json_object_object_get(j, "slc_cache_from")),
			    path);
	json_object_put(j);
	/* another drive: what differs is named */
	other.serial = "S2";
	assert_int_equal(phase_sprandom_resolve(&w->spr, 4096, 1ull << 30, &other, &in, err,
						sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "that probe ran on another drive"));
	assert_non_null(strstr(err, "serial 'S1' there, 'S2' here"));
	assert_null(strstr(err, "model"));
	/* no identity to compare (plan without a target) */
	assert_int_equal(phase_sprandom_resolve(&w->spr, 4096, 1ull << 30, NULL, &in, err,
						sizeof(err)),
			 -EINVAL);
	/* the lowest fill found no knee */
	put(dir, "summary.json",
	    "{\"slc_cache\": [{\"phase\": 2, \"fill\": 0, \"cache_detected\": false}]}");
	assert_int_equal(phase_sprandom_resolve(&w->spr, 4096, 1ull << 30, &same, &in, err,
						sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "cache_detected is false"));
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	assert_non_null(strstr(err, path));
	/* not an slc-cache run */
	put(dir, "summary.json", "{\"schema\": 1, \"steady_state\": []}");
	assert_int_equal(results_slc_probe_read(dir, &pr, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "has no slc_cache entries: not an slc-cache probe run"));
	/* no summary */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(results_slc_probe_read(dir, &pr, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "no such file"));
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(rmdir(dir), 0);
	profile_free(p);
}

/* Where the sprandom layout does not hold (docs/fast-steady-state.md): a model whose GC is not
 * greedy-like, a static SLC cache, a run of the two-state class, fewer than 20 blocks a die;
 * refused unless force: true, which is recorded. */
static void test_sprandom_refusals(void **state)
{
	static const struct {
		const char *policy;
		bool slc_static;
		uint64_t slc;
		bool two_state;
		double blocks_per_die; /* 0: not said */
		const char *why;       /* NULL: runs, not forced */
	} cases[] = {
	    {"greedy", false, 0, false, 0, NULL},
	    {"d-choices", false, 0, false, 0, NULL},
	    {"greedy", true, 0, false, 0, NULL}, /* a static cache of 0 bytes is no cache */
	    {"greedy", false, 8 << 20, false, 0, NULL}, /* a dynamic cache */
	    {"fifo", false, 0, false, 0, "GC policy is fifo"},
	    {"random", false, 0, false, 0, "GC policy is random"},
	    {"greedy", true, 8 << 20, false, 0, "SLC cache is static"},
	    {"greedy", false, 8 << 20, true, 0, "cells run in two states (write_cache: on avoids it)"},
	    {"greedy", false, 0, false, 20, NULL}, /* SPRANDOM_MIN_BLOCKS_PER_DIE itself */
	    {"greedy", false, 0, false, 13.7, "13.7 blocks a die, fewer than 20"},
	};
	struct profile *p = parse_ok(HDR "  - precondition: {method: sprandom}\n"
					 "  - precondition: {method: sprandom, force: true}\n",
				     NULL, 0);
	const struct phase_write *d = p->phases.v[0].data, *f = p->phases.v[1].data;

	(void)state;
	assert_false(d->spr.force);
	assert_true(f->spr.force);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct phase_nand nand = {.gc_space_bytes = 1200ull << 20, .slc_known = true,
					  .slc_cache_bytes = cases[i].slc,
					  .gc_policy = cases[i].policy,
					  .slc_static = cases[i].slc_static,
					  .two_state = cases[i].two_state,
					  .blocks_per_die = cases[i].blocks_per_die};
		struct sprandom_inputs in;
		char err[400] = "";
		int rc = phase_sprandom_resolve(&d->spr, 4096, 1ull << 30, &nand, &in, err,
						sizeof(err));

		if (!cases[i].why) {
			assert_int_equal(rc, 0);
			assert_false(in.forced);
			continue;
		}
		assert_int_equal(rc, -EINVAL);
		assert_non_null(strstr(err, cases[i].why));
		assert_non_null(strstr(err, "docs/fast-steady-state.md"));
		assert_non_null(strstr(err, "force: true"));
		assert_int_equal(phase_sprandom_resolve(&f->spr, 4096, 1ull << 30, &nand, &in, err,
							sizeof(err)),
				 0);
		assert_true(in.forced);
		assert_non_null(strstr(in.force_why, cases[i].why));
	}
	profile_free(p);
}

static void test_sequential_resolve(void **state)
{
	/* A sequential pass ends on a whole I/O of the largest block size. */
	const char *text = HDR "  - precondition: {bs: 128k, range: 0-10%}\n";
	struct profile *p = parse_ok(text, NULL, 0);
	const struct phase_write *w = p->phases.v[0].data;
	struct job_spec js;
	char err[128];

	(void)state;
	assert_int_equal(profile_workload_resolve(&w->w, 10000000, 512, 1, &js, err, sizeof(err)),
			 0);
	assert_true(js.range_start == 0);
	assert_true(js.range_end == 917504); /* 1000000 down to a multiple of 131072 */
	assert_true(js.amount_bytes == 20000000);
	profile_free(p);
}

static void test_defaults_and_convention(void **state)
{
	const char *text = "name: t\n"
			   "defaults: {queue: {threads: 2, depth: 16}, pattern: zeros}\n"
			   "phases:\n"
			   "  - rounds: {rwmix_read: 70, cell_time: 5s, count: 1}\n"
			   "  - rounds: {rw: read, cell_time: 5s, count: 1, qd: 1}\n"
			   "  - purge\n";
	struct profile *p = NULL;
	struct ydoc_error e;
	const struct phase_rounds *r;

	(void)state;
	/* A 70% read mix writes, and the profile does not say destructive. */
	assert_int_equal(profile_parse_string(text, strlen(text), "d.yaml", NULL, 0, &p, &e),
			 -EINVAL);
	assert_int_equal(e.line, 4);
	assert_int_equal(e.col, 5);
	{
		const char *sets[] = {"destructive=true"};

		p = parse_ok(text, sets, 1);
	}
	r = p->phases.v[0].data;
	assert_int_equal(r->base.spec.rw, RW_RANDRW);
	assert_int_equal(r->base.spec.rwmix_read, 70);
	assert_int_equal(r->base.spec.qd, 16);
	assert_int_equal(r->base.spec.threads, 2);
	assert_int_equal(r->base.spec.pattern, PATTERN_ZEROS);
	r = p->phases.v[1].data;
	assert_int_equal(r->base.spec.rw, RW_READ);
	assert_int_equal(r->base.spec.qd, 1);
	assert_int_equal(r->base.spec.threads, 2);
	assert_int_equal(p->phases.v[2].kind->type, PHASE_PURGE);
	profile_free(p);
}

static void test_readonly_not_destructive(void **state)
{
	const char *text = "name: r\nphases:\n"
			   "  - rounds: {cells: {rw: [randread, read]}, cell_time: 1s, count: 1}\n"
			   "  - idle: 1s\n";
	struct profile *p = parse_ok(text, NULL, 0);

	(void)state;
	assert_false(p->destructive);
	assert_false(profile_writes(p));
	profile_free(p);
}

struct set_case {
	const char *set;
	int ret;
	const char *msg;
};

/* clang-format off */
static const struct set_case set_cases[] = {
	{"phases.2.rounds.cell_time=30s", 0, NULL},
	{"phases.2.rounds.steady_state.max_rounds=30", 0, NULL},
	{"phases.2.rounds.cells.bs=[4k, 8k]", 0, NULL},
	{"phases.3.rounds.cell_time=30s", -EINVAL,
	 "phases.3.rounds.cell_time: 'phases' has 3 items (indexes 0 to 2), no 3"},
	{"phases.2.rounds.cell_tme=30s", -EINVAL,
	 "unknown key 'cell_tme' in rounds (did you mean 'cell_time'?)"},
	{"phases.2.round.cell_time=30s", -EINVAL,
	 "phases.2.round.cell_time: no key 'round' in 'phases.2'"},
	{"phases.2.rounds.cell_time=fast", -EINVAL,
	 "expected a duration such as 60s, 5m or 24h, got 'fast'"},
	{"phases.2.rounds.cell_time", -EINVAL,
	 "expected KEY=VALUE such as phases.2.rounds.cell_time=30s, got 'phases.2.rounds.cell_time'"},
};
/* clang-format on */

static void test_set(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(set_cases) / sizeof(set_cases[0]); i++) {
		const struct set_case *c = &set_cases[i];
		const char *sets[] = {c->set};
		struct profile *p = NULL;
		struct ydoc_error e;
		int ret = profile_parse_string(snia, strlen(snia), "s.yaml", sets, 1, &p, &e);

		if (ret != c->ret)
			fail_msg("'%s': ret %d (%s)", c->set, ret, e.msg);
		if (ret) {
			if (strcmp(e.msg, c->msg))
				fail_msg("'%s': '%s', want '%s'", c->set, e.msg, c->msg);
			continue;
		}
		{
			const struct phase_rounds *r = p->phases.v[2].data;

			if (i == 0)
				assert_true(r->base.length.ns == 30000000000ull);
			if (i == 1)
				assert_int_equal(r->ss.max_rounds, 30);
			if (i == 2) {
				assert_int_equal(r->axes[1].n, 2);
				assert_true(r->axes[1].v[1] == 8192);
				assert_int_equal(r->tracked_cell, 12); /* rwmix_read=0 is row 6 */
			}
		}
		/* The raw text is kept as written, not as overridden. */
		assert_string_equal(p->text, snia);
		profile_free(p);
	}
	/* An override that fails validation points at the line of the value it replaced. */
	{
		const char *sets[] = {"phases.2.rounds.cell_time=fast"};
		struct profile *p;
		struct ydoc_error e;

		assert_int_equal(
		    profile_parse_string(snia, strlen(snia), "s.yaml", sets, 1, &p, &e), -EINVAL);
		assert_int_equal(e.line, 13);
		assert_int_equal(e.col, 18);
	}
}

static void test_bundled(void **state)
{
	static const char *const names[] = {"demo", "snia-iops", "snia-throughput", "snia-latency",
					    "snia-wsat", "smoke",	 "readonly",	    "gc-recovery"};
	struct profile_entry *list;
	size_t n;
	char dir[4096];

	(void)state;
	/* The directory the CLI takes from $SSDLAB_PROFILES is an argument: no environment. */
	snprintf(dir, sizeof(dir), "%s/profiles", tu_srcdir());
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct profile *p = NULL;
		struct ydoc_error e;
		struct json_object *j;
		char buf[4096];
		int ret = profile_load(names[i], dir, NULL, 0, &p, &e);

		if (ret)
			fail_msg("%s: %s", names[i], ydoc_error_format(&e, buf, sizeof(buf)));
		assert_string_equal(p->name, names[i]);
		assert_true(strlen(p->description) > 10);
		assert_true(p->text_len > 0);
		/* Only readonly leaves the target's data alone. */
		assert_true(p->destructive == (strcmp(names[i], "readonly") != 0));
		assert_true(profile_writes(p) == p->destructive);
		j = profile_to_json(p);
		assert_non_null(j);
		assert_non_null(json_object_to_json_string(j));
		json_object_put(j);
		assert_non_null(strstr(profile_summary(p, buf, sizeof(buf)), names[i]));
		if (!strcmp(names[i], "snia-iops")) {
			struct profile_cell *cells;
			size_t nc;

			assert_int_equal(profile_rounds_cells(p->phases.v[2].data, &cells, &nc), 0);
			assert_int_equal(nc, 56);
			free(cells);
		}
		profile_free(p);
	}
	assert_int_equal(profile_list_bundled(dir, &list, &n), 0);
	assert_true(n >= 7);
	for (size_t i = 0; i < n; i++) {
		assert_null(strstr(list[i].description, "(invalid"));
		assert_true(list[i].valid);
		/* the read-only ones: readonly and the surface read scan */
		assert_true(list[i].destructive == (strcmp(list[i].name, "readonly") != 0 &&
						    strcmp(list[i].name, "surface") != 0));
		if (i)
			assert_true(strcmp(list[i - 1].name, list[i].name) < 0);
	}
	free(list);
	{
		struct profile *p;
		struct ydoc_error e;
		char path[256];

		assert_int_equal(profile_load("no-such-profile", dir, NULL, 0, &p, &e), -ENOENT);
		assert_non_null(strstr(e.msg, "no bundled profile"));
		assert_int_equal(profile_find("./nope.yaml", dir, path, sizeof(path), &e), -ENOENT);
	}
}

/*
 * idle_sweep: 8 idles from 5 s to 3 h twice each; log-spaced by hand, to the millisecond:
 * 5 x 2160^(i/7) s = 5, 14.973, 44.841, 134.283, 402.135, 1204.267, 3606.394, 10800 s. The body
 * is the sweep written out: per idle the idle (in the shuffled order), then the after phases. The
 * same seed gives the same order, another seed another one; bad keys are refused.
 */
static const char sweep_text[] =
    HDR "  - idle_sweep:\n"
	"      from: 5s\n"
	"      to: 3h\n"
	"      count: 8\n"
	"      seed: %d\n"
	"      after:\n"
	"        - write_until: {rw: randwrite, bs: 4k, amount: 0.1x}\n"
	"        - rounds: {rw: randwrite, bs: 4k, cell_time: 1s, count: 2}\n";

static void sweep_order(int seed, uint64_t *order)
{
	char text[sizeof(sweep_text) + 16];
	struct profile *p;
	const struct phase_idle_sweep *sw;

	snprintf(text, sizeof(text), sweep_text, seed);
	p = parse_ok(text, NULL, 0);
	assert_int_equal(p->phases.n, 1);
	assert_int_equal(p->phases.v[0].kind->type, PHASE_IDLE_SWEEP);
	assert_true(p->destructive);
	sw = p->phases.v[0].data;
	assert_int_equal(sw->n, 16);
	assert_int_equal(sw->reps, 2); /* the default */
	assert_int_equal(sw->body.n, 16 * 3);
	for (size_t i = 0; i < sw->n; i++) {
		const struct profile_phase *ph = &sw->body.v[3 * i];

		assert_int_equal(ph->kind->type, PHASE_IDLE);
		assert_int_equal(((const struct phase_idle *)ph->data)->time_ns, sw->order_ns[i]);
		assert_int_equal(sw->body.v[3 * i + 1].kind->type, PHASE_WRITE_UNTIL);
		assert_int_equal(sw->body.v[3 * i + 2].kind->type, PHASE_ROUNDS);
		order[i] = sw->order_ns[i];
	}
	profile_free(p);
}

/*
 * variants: the fractions as written (percent or bare numbers meaning percent, in order), the
 * issue's default 100 / 87.5 / 75 % without the key, the method, the body; always destructive
 * (it changes the capacity or discards the tail); bad fractions, an unknown method and a
 * missing body refused at their line.
 */
static void test_variants(void **state)
{
	struct profile *p;
	struct ydoc_error e;
	const struct phase_variants *v;
	char buf[256];
	static const char *const bad[] = {
	    HDR "  - variants: {fractions: [100%, 0%], phases: [purge]}\n",
	    HDR "  - variants: {fractions: [150%], phases: [purge]}\n",
	    HDR "  - variants: {fractions: [], phases: [purge]}\n",
	    HDR "  - variants: {method: dco, phases: [purge]}\n",
	    HDR "  - variants: {fractions: [50%]}\n",
	};

	(void)state;
	p = parse_ok(HDR "  - variants:\n"
			 "      method: trim-tail\n"
			 "      fractions: [90%, 60]\n"
			 "      phases:\n"
			 "        - purge\n"
			 "        - idle: {time: 1s}\n",
		     NULL, 0);
	assert_int_equal(p->phases.v[0].kind->type, PHASE_VARIANTS);
	assert_true(p->destructive);
	v = p->phases.v[0].data;
	assert_int_equal(v->method, VARIANT_TRIM_TAIL);
	assert_int_equal(v->n, 2);
	assert_true(fabs(v->fraction[0] - 0.9) < 1e-12 && fabs(v->fraction[1] - 0.6) < 1e-12);
	assert_int_equal(v->phases.n, 2);
	assert_int_equal(v->phases.v[1].kind->type, PHASE_IDLE);
	p->phases.v[0].kind->describe(v, buf, sizeof(buf));
	assert_string_equal(buf, "variants (trim-tail) at 90%, 60% of the capacity");
	profile_free(p);

	p = parse_ok(HDR "  - variants: {phases: [purge]}\n", NULL, 0);
	v = p->phases.v[0].data;
	assert_int_equal(v->method, VARIANT_AUTO);
	assert_int_equal(v->n, 3);
	assert_true(v->fraction[0] == 1.0 && v->fraction[1] == 0.875 && v->fraction[2] == 0.75);
	profile_free(p);

	p = parse_ok(HDR "  - variants: {method: hpa, phases: [purge]}\n", NULL, 0);
	assert_int_equal(((const struct phase_variants *)p->phases.v[0].data)->method, VARIANT_HPA);
	profile_free(p);
	p = parse_ok(HDR "  - variants: {method: namespace, phases: [purge]}\n", NULL, 0);
	v = p->phases.v[0].data;
	assert_int_equal(v->method, VARIANT_NAMESPACE);
	p->phases.v[0].kind->describe(v, buf, sizeof(buf));
	assert_string_equal(buf, "variants (namespace) at 100%, 87.5%, 75% of the capacity");
	profile_free(p);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(
		    profile_parse_string(bad[i], strlen(bad[i]), "b.yaml", NULL, 0, &p, &e),
		    -EINVAL);
		assert_int_equal(e.line, 4);
	}
}

static void test_idle_sweep(void **state)
{
	static const uint64_t want_ms[8] = {5000, 14973, 44841, 134283, 402135, 1204267, 3606394,
					    10800000};
	uint64_t a[16], b[16], c[16];
	struct profile *p = NULL;
	struct ydoc_error e;
	bool sorted = true;

	(void)state;
	sweep_order(12, a);
	sweep_order(12, b);
	sweep_order(13, c);
	assert_memory_equal(a, b, sizeof(a));
	assert_memory_not_equal(a, c, sizeof(a));
	for (int k = 0; k < 8; k++) {
		int seen = 0;

		for (int i = 0; i < 16; i++)
			seen += a[i] == want_ms[k] * 1000000ull;
		if (seen != 2)
			fail_msg("idle %" PRIu64 " ms seen %d times", want_ms[k], seen);
	}
	for (int i = 1; i < 16; i++)
		sorted &= a[i] >= a[i - 1];
	assert_false(sorted);
	{
		static const char *const bad[] = {
		    HDR "  - idle_sweep: {from: 3h, to: 5s, count: 8, after: [idle: 1s]}\n",
		    HDR "  - idle_sweep: {from: 5s, to: 3h, count: 1, after: [idle: 1s]}\n",
		    HDR "  - idle_sweep: {from: 5s, to: 3h, count: 8}\n",
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			assert_int_equal(profile_parse_string(bad[i], strlen(bad[i]), "b.yaml", NULL,
							      0, &p, &e),
					 -EINVAL);
			assert_int_equal(e.line, 4);
		}
	}
}

static void test_registry(void **state)
{
	static const char *const kinds[] = {"purge", "precondition", "write_until", "rounds",
					    "idle",  "trim",	     "repeat",	    "idle_sweep",
					    "trim_check", "surface", "variants", "dirth_points", "bursts"};
	size_t i;

	(void)state;
	for (i = 0; phase_kind_at(i); i++) {
		const struct phase_kind *k = phase_kind_at(i);

		assert_non_null(k->parse);
		assert_non_null(k->destructive);
		assert_non_null(k->to_json);
		assert_non_null(k->describe);
		assert_ptr_equal(phase_kind_find(k->name), k);
	}
	assert_int_equal(i, sizeof(kinds) / sizeof(kinds[0]));
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		assert_non_null(phase_kind_find(kinds[i]));
	assert_null(phase_kind_find("hir"));
}

/* Every metric of the table (results/records.h) is a profile's track metric: it parses to its
 * enum value and is written back under its name in the resolved plan (the manifest). */
static void test_track_metrics(void **state)
{
	const char *const *names = results_metric_names();
	unsigned i;

	(void)state;
	for (i = 0; names[i]; i++) {
		char text[256];
		struct profile *p;
		struct json_object *j, *ss, *m;
		const struct phase_rounds *r;

		snprintf(text, sizeof(text),
			 HDR
			 "  - rounds:\n      cells: {bs: [4k, 8k]}\n      cell_time: 1s\n"
			 "      rw: randwrite\n      steady_state: {track: {bs: 4k, metric: %s}}\n",
			 names[i]);
		p = parse_ok(text, NULL, 0);
		r = p->phases.v[0].data;
		assert_int_equal(r->track.metric, i);
		assert_string_equal(results_metric_name(r->track.metric), names[i]);
		j = p->phases.v[0].kind->to_json(r);
		assert_non_null(j);
		ss = json_object_object_get(j, "steady_state");
		m = json_object_object_get(ss, "metric");
		assert_non_null(m);
		assert_string_equal(json_object_get_string(m), names[i]);
		json_object_put(j);
		profile_free(p);
	}
	assert_int_equal(i, RESULTS_NMETRICS);
}

static void test_repeat_bytes(void **state)
{
	const char *text =
	    HDR "  - repeat:\n"
		"      count: 3\n"
		"      phases:\n"
		"        - precondition: {amount: 1g}\n"
		"        - repeat: {count: 2, phases: [precondition: {amount: 0.5x}]}\n"
		"  - write_until: {amount: 1h}\n";
	struct profile *p = parse_ok(text, NULL, 0);
	uint64_t b = 0;
	char buf[1024];

	(void)state;
	/* 3 x (1 GiB + 2 x 0.5 x 4 GiB) = 15 GiB, plus a time-bound phase. */
	assert_int_equal(profile_bytes_written(p, 4ull << 30, &b), -ENODATA);
	assert_true(b == 15ull << 30);
	assert_string_equal(
	    profile_summary(p, buf, sizeof(buf)),
	    "t: Destructive (writes the target), 2 phases: repeat 3 times [precondition "
	    "write 128k qd 1 x 1 thread, 1 GiB; repeat 2 times [precondition write 128k "
	    "qd 1 x 1 thread, 0.50x capacity]]; write_until randwrite 4k qd 1 x 1 thread "
	    "until 1h00m.");
	/* A summary cut short by a small buffer is still a terminated string. */
	assert_int_equal(strlen(profile_summary(p, buf, 40)), 39);
	profile_free(p);
}

/* Every ```yaml example in docs/profiles.md is a valid profile. */
static void test_doc_examples(void **state)
{
	char path[4096], *text = NULL, *p;
	struct ydoc *doc;
	struct ydoc_error e;
	size_t len, n = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/docs/profiles.md", tu_srcdir());
	/* ydoc reads any text file; the tree itself is not used. */
	if (ydoc_parse_file(path, &doc, &text, &len, &e) == 0)
		ydoc_free(doc);
	if (!text) {
		FILE *f = fopen(path, "r");

		if (!f) {
			print_message("skipped: cannot read %s (SSDLAB_SRCDIR unset outside meson?)\n",
				      path);
			skip();
		}
		text = calloc(1, 1 << 20);
		assert_non_null(text);
		len = fread(text, 1, (1 << 20) - 1, f);
		fclose(f);
	}
	for (p = strstr(text, "```yaml\n"); p; p = strstr(p, "```yaml\n")) {
		char *start = p + 8, *end = strstr(start, "```");
		struct profile *prof;
		char buf[800];

		assert_non_null(end);
		if (profile_parse_string(start, (size_t)(end - start), "docs/profiles.md", NULL, 0,
					 &prof, &e))
			fail_msg("example %zu: %s", n, ydoc_error_format(&e, buf, sizeof(buf)));
		profile_free(prof);
		n++;
		p = end + 3;
	}
	assert_true(n >= 4);
	free(text);
}

/* `ssdlab check` prints file:line:col: message and exits 2; a valid profile exits 0. */
static void test_cli_check(void **state)
{
	const char *exe = getenv("SSDLAB");
	char *dir, path[512], cmd[2048], out[1024] = "";
	FILE *f;
	int status;
	size_t got;

	(void)state;
	if (!exe || !*exe) {
		print_message("skipped: SSDLAB is not set (run outside meson): no binary to call\n");
		skip();
	}
	dir = tu_mkdtemp("check");
	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/bad.yaml", dir);
	assert_int_equal(tu_write_file(path, "name: b\nphases:\n  - idle: {time: fast}\n"), 0);
	snprintf(cmd, sizeof(cmd), "'%s' check '%s' 2>&1", exe, path);
	f = popen(cmd, "r");
	assert_non_null(f);
	got = fread(out, 1, sizeof(out) - 1, f);
	out[got] = '\0';
	status = pclose(f);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 2);
	snprintf(cmd, sizeof(cmd),
		 "%s:3:18: expected a duration such as 60s, 5m or 24h, got 'fast'\n", path);
	assert_string_equal(out, cmd);
	snprintf(cmd, sizeof(cmd), "SSDLAB_PROFILES='%s/profiles' '%s' check smoke >/dev/null 2>&1",
		 tu_srcdir(), exe);
	status = system(cmd);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	snprintf(cmd, sizeof(cmd),
		 "SSDLAB_PROFILES='%s/profiles' '%s' check smoke --set phases.9.idle.time=1s "
		 ">/dev/null 2>&1",
		 tu_srcdir(), exe);
	status = system(cmd);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	/* The profile on standard input. */
	snprintf(cmd, sizeof(cmd), "'%s' check - < '%s' 2>&1", exe, path);
	f = popen(cmd, "r");
	assert_non_null(f);
	got = fread(out, 1, sizeof(out) - 1, f);
	out[got] = '\0';
	status = pclose(f);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 2);
	assert_string_equal(
	    out, "<stdin>:3:18: expected a duration such as 60s, 5m or 24h, got 'fast'\n");
	tu_rmtree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bad_profiles),
	    cmocka_unit_test(test_snia_plan),
	    cmocka_unit_test(test_order_inner_outer),
	    cmocka_unit_test(test_workload_keys),
	    cmocka_unit_test(test_split_renormalise),
	    cmocka_unit_test(test_write_until_slc_probe),
	    cmocka_unit_test(test_sprandom_precondition),
		cmocka_unit_test(test_sprandom_refusals),
	    cmocka_unit_test(test_sprandom_slc_from_probe),
	    cmocka_unit_test(test_sequential_resolve),
	    cmocka_unit_test(test_defaults_and_convention),
	    cmocka_unit_test(test_readonly_not_destructive),
	    cmocka_unit_test(test_set),
	    cmocka_unit_test(test_bundled),
	    cmocka_unit_test(test_registry),
	    cmocka_unit_test(test_idle_sweep),
	    cmocka_unit_test(test_variants),
	    cmocka_unit_test(test_track_metrics),
	    cmocka_unit_test(test_repeat_bytes),
	    cmocka_unit_test(test_doc_examples),
	    cmocka_unit_test(test_cli_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
