/* SPDX-License-Identifier: MIT */
/*
 * test_ydoc: the YAML tree (positions, key order, refusals), --set overrides and the schema
 * walker's messages. Expected positions and messages are written out by hand.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "testutil.h"
#include "base/ydoc.h"

static struct ydoc *parse_ok(const char *text)
{
	struct ydoc *d = NULL;
	struct ydoc_error e;
	char buf[800];
	int ret = ydoc_parse_string(text, strlen(text), "t.yaml", &d, &e);

	if (ret)
		fail_msg("parse failed: %s", ydoc_error_format(&e, buf, sizeof(buf)));
	return d;
}

static void test_tree(void **state)
{
	const char *text = "name: x\n"
			   "zeta: 1\n"
			   "alpha:\n"
			   "  - a\n"
			   "  - {k: 'v', j: [1, 2]}\n"
			   "q: \"\"\n";
	struct ydoc *d;
	struct ydoc_node *r, *n;

	(void)state;
	d = parse_ok(text);
	r = d->root;
	assert_int_equal(r->type, YDOC_MAPPING);
	assert_int_equal(r->n, 4);
	/* Keys keep document order. */
	assert_string_equal(r->pairs[0].key->text, "name");
	assert_string_equal(r->pairs[1].key->text, "zeta");
	assert_string_equal(r->pairs[2].key->text, "alpha");
	assert_string_equal(r->pairs[3].key->text, "q");
	n = ydoc_map_get(r, "alpha");
	assert_int_equal(n->type, YDOC_SEQUENCE);
	assert_int_equal(n->n, 2);
	assert_int_equal(n->items[0]->line, 4);
	assert_int_equal(n->items[0]->col, 5);
	assert_int_equal(n->items[1]->type, YDOC_MAPPING);
	assert_int_equal(n->items[1]->line, 5);
	assert_int_equal(n->items[1]->col, 5);
	n = ydoc_map_get(n->items[1], "j");
	assert_int_equal(n->items[1]->col, 21);
	assert_string_equal(n->items[1]->text, "2");
	assert_false(n->items[1]->quoted);
	n = ydoc_map_get(r, "q");
	assert_true(n->quoted);
	assert_string_equal(n->text, "");
	assert_int_equal(ydoc_map_key(r, "zeta")->line, 2);
	assert_int_equal(ydoc_map_key(r, "zeta")->col, 1);
	assert_string_equal(ydoc_map_key(r, "zeta")->file, "t.yaml");
	assert_null(ydoc_map_get(r, "nope"));
	ydoc_free(d);
}

struct bad_case {
	const char *text;
	int line, col;
	const char *msg; /* the start of the message */
};

/* clang-format off */
static const struct bad_case bad_docs[] = {
	{"a: 1\nb: 2\na: 3\n", 3, 1, "duplicate key 'a' (first defined at line 1)"},
	{"a: &x 1\nb: *x\n", 1, 4, "anchors (&x) and aliases are not supported"},
	{"a: !!int 1\n", 1, 4, "tags (tag:yaml.org,2002:int) are not supported"},
	{"a: 1\n---\nb: 2\n", 2, 1, "more than one YAML document"},
	{"a: [1, 2\n", 2, 1, "YAML syntax error: did not find expected ',' or ']'"},
	{"a: b: c\n", 1, 5, "YAML syntax error: mapping values are not allowed in this context"},
	{"? [1, 2]\n: x\n", 1, 3, "a key must be a single name, not a list"},
	{"a:\n  - 1\n - 2\n", 3, 2, "YAML syntax error: "},
    {"a:\n\t- 1\n", 2, 1,
     "YAML syntax error: found character that cannot start any token while scanning for the "
     "next token (a tab: YAML indents with spaces only)"},
};
/* clang-format on */

static void test_bad_docs(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_docs) / sizeof(bad_docs[0]); i++) {
		const struct bad_case *c = &bad_docs[i];
		struct ydoc *d = (struct ydoc *)0x1;
		struct ydoc_error e;
		int ret = ydoc_parse_string(c->text, strlen(c->text), "bad.yaml", &d, &e);

		if (ret != -EINVAL)
			fail_msg("case %zu: ret %d", i, ret);
		assert_ptr_equal(d, (struct ydoc *)0x1);
		if (e.line != c->line || e.col != c->col || strncmp(e.msg, c->msg, strlen(c->msg)))
			fail_msg("case %zu: got %d:%d '%s', want %d:%d '%s'", i, e.line, e.col,
				 e.msg, c->line, c->col, c->msg);
		assert_string_equal(e.file, "bad.yaml");
	}
}

static void test_deep_nesting(void **state)
{
	char text[400];
	struct ydoc *d;
	struct ydoc_error e;

	(void)state;
	memset(text, '[', 100);
	text[100] = '\0';
	assert_int_equal(ydoc_parse_string(text, strlen(text), "deep", &d, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "nesting deeper than 64"));
	/* Empty document: no root, not an error. */
	assert_int_equal(ydoc_parse_string("", 0, NULL, &d, &e), 0);
	assert_null(d->root);
	assert_string_equal(d->file, "<string>");
	ydoc_free(d);
}

static void test_error_format(void **state)
{
	struct ydoc_error e = {.file = "p.yaml", .line = 12, .col = 7, .msg = "boom"};
	char buf[128];

	(void)state;
	assert_string_equal(ydoc_error_format(&e, buf, sizeof(buf)), "p.yaml:12:7: boom");
	e.line = 0;
	assert_string_equal(ydoc_error_format(&e, buf, sizeof(buf)), "p.yaml: boom");
}

static void test_parse_file(void **state)
{
	char *dir = tu_mkdtemp("ydoc"), path[512], *text = NULL;
	size_t len = 0;
	struct ydoc *d;
	struct ydoc_error e;

	(void)state;
	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/a.yaml", dir);
	assert_int_equal(tu_write_file(path, "k: v\n"), 0);
	assert_int_equal(ydoc_parse_file(path, &d, &text, &len, &e), 0);
	assert_string_equal(text, "k: v\n");
	assert_int_equal(len, 5);
	assert_string_equal(ydoc_map_key(d->root, "k")->file, path);
	ydoc_free(d);
	free(text);
	snprintf(path, sizeof(path), "%s/missing.yaml", dir);
	assert_int_equal(ydoc_parse_file(path, &d, NULL, NULL, &e), -ENOENT);
	assert_int_equal(e.line, 0);
	assert_non_null(strstr(e.msg, "cannot open"));
	assert_int_equal(ydoc_parse_file(dir, &d, NULL, NULL, &e), -EINVAL);
	tu_rmtree(dir);
	free(dir);
}

static const char *set_doc = "name: x\n"
			     "phases:\n"
			     "  - purge: {method: auto}\n"
			     "  - rounds:\n"
			     "      cell_time: 60s\n"
			     "      cells: {bs: [4k]}\n";

struct set_case {
	const char *assign;
	int ret;
	const char *check_path; /* a path whose scalar text is then checked */
	const char *want;	/* text, or the start of the error message */
};

static const char *get_path(struct ydoc *d, const char *path)
{
	char buf[256], *c, *next;
	struct ydoc_node *n = d->root;

	snprintf(buf, sizeof(buf), "%s", path);
	for (c = buf; c && n; c = next) {
		next = strchr(c, '.');
		if (next)
			*next++ = '\0';
		if (n->type == YDOC_SEQUENCE)
			n = (size_t)atoi(c) < n->n ? n->items[atoi(c)] : NULL;
		else
			n = ydoc_map_get(n, c);
	}
	return n && n->type == YDOC_SCALAR ? n->text : NULL;
}

/* clang-format off */
static const struct set_case set_cases[] = {
	{"name=y", 0, "name", "y"},
	{"phases.1.rounds.cell_time=30s", 0, "phases.1.rounds.cell_time", "30s"},
	{"phases.0.purge.method=discard", 0, "phases.0.purge.method", "discard"},
	{"phases.1.rounds.count=3", 0, "phases.1.rounds.count", "3"},
	{"phases.1.rounds.cells.bs=[8k, 16k]", 0, "phases.1.rounds.cells.bs.1", "16k"},
	{"phases.1.rounds.cells.bs.0=512", 0, "phases.1.rounds.cells.bs.0", "512"},
	{"description=a=b", 0, "description", "a=b"},
	{"phases.2.rounds.cell_time=30s", -EINVAL, NULL,
	 "phases.2.rounds.cell_time: 'phases' has 2 items (indexes 0 to 1), no 2"},
	{"phases.x=1", -EINVAL, NULL, "phases.x: 'phases' is a list: expected an index"},
	{"name.first=1", -EINVAL, NULL, "name.first: 'name' is a single value, it has no 'first'"},
	{"nope.x=1", -EINVAL, NULL, "nope.x: no key 'nope' in 'the document'"},
	{"phases.1.rouns.cell_time=1s", -EINVAL, NULL,
	 "phases.1.rouns.cell_time: no key 'rouns' in 'phases.1'"},
	{"phases..x=1", -EINVAL, NULL, "phases..x: empty component"},
	{"=1", -EINVAL, NULL, "expected KEY=VALUE"},
	{"name", -EINVAL, NULL, "expected KEY=VALUE"},
	{"name=[1,", -EINVAL, NULL, "value '[1,': YAML syntax error"},
	{"[x]=1", 0, "[x]", "1"}, /* a new key is always a plain name, never a flow list */
	{"phases.1.rounds.cells.bs=[]", 0, NULL, NULL},
};
/* clang-format on */

static void test_set_path(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(set_cases) / sizeof(set_cases[0]); i++) {
		const struct set_case *c = &set_cases[i];
		struct ydoc *d = parse_ok(set_doc);
		struct ydoc_error e = {0};
		int ret = ydoc_set_assignment(d, c->assign, &e);

		if (ret != c->ret)
			fail_msg("'%s': ret %d (%s)", c->assign, ret, e.msg);
		if (ret) {
			assert_string_equal(e.file, "--set");
			assert_int_equal(e.line, 0);
			if (strncmp(e.msg, c->want, strlen(c->want)))
				fail_msg("'%s': message '%s', want '%s'", c->assign, e.msg,
					 c->want);
		} else if (c->check_path) {
			const char *got = get_path(d, c->check_path);

			if (!got || strcmp(got, c->want))
				fail_msg("'%s': %s is '%s', want '%s'", c->assign, c->check_path,
					 got ? got : "(none)", c->want);
		}
		ydoc_free(d);
	}
	{
		struct ydoc *d = parse_ok(set_doc);
		struct ydoc_error e;

		assert_int_equal(ydoc_set_assignment(d, "phases.1.rounds.cells.bs=[]", &e), 0);
		assert_int_equal(ydoc_set_assignment(d, "phases.1.rounds.cells.bs.0=1", &e),
				 -EINVAL);
		assert_string_equal(e.msg,
				    "phases.1.rounds.cells.bs.0: 'phases.1.rounds.cells.bs' is "
				    "an empty list");
		ydoc_free(d);
	}
}

/* A small schema like a parser's. */
struct demo {
	const char *name;
	bool on;
	int64_t delta;
	unsigned qd;
	double ratio;
	uint64_t bs, t;
	double pct;
	struct amount amt;
	struct range rng;
	int mode;
	const struct ydoc_node *sub;
};

static const char *const modes[] = {"auto", "discard", "sim", NULL};

/* clang-format off */
static const struct ydoc_key demo_keys[] = {
	{.name = "name", .kind = YK_STRING, .required = true, .offset = offsetof(struct demo, name)},
	{.name = "on", .kind = YK_BOOL, .offset = offsetof(struct demo, on)},
	{.name = "delta", .kind = YK_INT, .offset = offsetof(struct demo, delta)},
	{.name = "qd", .kind = YK_UINT, .offset = offsetof(struct demo, qd), .bounded = true,
	 .min = 1, .max = 1024},
	{.name = "ratio", .kind = YK_DOUBLE, .offset = offsetof(struct demo, ratio), .bounded = true,
	 .min = 0, .max = 1},
	{.name = "bs", .kind = YK_SIZE, .offset = offsetof(struct demo, bs), .align = 512},
	{.name = "cell_time", .kind = YK_DURATION, .required = true,
	 .offset = offsetof(struct demo, t), .bounded = true, .min = 1e6, .max = 86400e9},
	{.name = "excursion", .kind = YK_PERCENT, .offset = offsetof(struct demo, pct),
	 .bounded = true, .min = 0.01, .max = 1},
	{.name = "amount", .kind = YK_AMOUNT, .offset = offsetof(struct demo, amt)},
	{.name = "range", .kind = YK_RANGE, .offset = offsetof(struct demo, rng)},
	{.name = "method", .kind = YK_ENUM, .offset = offsetof(struct demo, mode),
	 .enum_names = modes},
	{.name = "queue", .kind = YK_MAPPING, .offset = offsetof(struct demo, sub)},
	{0},
};
/* clang-format on */

static void test_schema_ok(void **state)
{
	struct ydoc *d = parse_ok("name: n\non: yes\ndelta: -5\nqd: 32\nratio: 0.5\nbs: 4k\n"
				  "cell_time: 60s\nexcursion: 20%\namount: 2x\nrange: 0-50%\n"
				  "method: sim\nqueue: {depth: 1}\n");
	struct demo v = {0};
	uint64_t present = 0;
	struct ydoc_error e;

	(void)state;
	assert_int_equal(ydoc_map_read(d->root, "demo", demo_keys, &v, &present, &e), 0);
	assert_string_equal(v.name, "n");
	assert_true(v.on);
	assert_true(v.delta == -5);
	assert_int_equal(v.qd, 32);
	assert_true(v.ratio == 0.5);
	assert_true(v.bs == 4096);
	assert_true(v.t == 60000000000ull);
	assert_true(v.pct == 0.2);
	assert_int_equal(v.amt.kind, AMOUNT_CAPACITY);
	assert_true(v.rng.percent && v.rng.hi == 0.5);
	assert_int_equal(v.mode, 2);
	assert_int_equal(v.sub->type, YDOC_MAPPING);
	assert_true(present == 0xfff);
	ydoc_free(d);
}

/* clang-format off */
static const struct bad_case schema_cases[] = {
	{"name: n\ncell_tme: 60s\n", 2, 1,
	 "unknown key 'cell_tme' in demo (did you mean 'cell_time'?)"},
	{"name: n\ncell_time: 60s\nfrobnicate: 1\n", 3, 1, "unknown key 'frobnicate' in demo"},
	{"name: n\ncell_time: fast\n", 2, 12,
	 "expected a duration such as 60s, 5m or 24h, got 'fast'"},
	{"name: n\ncell_time: 60q\n", 2, 12,
	 "bad unit 'q' in '60q': expected a duration such as 60s, 5m or 24h"},
	{"name: n\ncell_time:\n", 2, 11, "expected a duration such as 60s, 5m or 24h, got nothing"},
	{"name: n\ncell_time: [1]\n", 2, 12, "expected a duration such as 60s, 5m or 24h, got a list"},
	{"name: n\ncell_time: 100ns\n", 2, 12,
	 "cell_time 100ns is outside 1.00 ms to 1d00h"},
	{"name: n\ncell_time: 1s\nqd: 2000\n", 3, 5, "qd 2000 is outside 1 to 1024"},
	{"name: n\ncell_time: 1s\nqd: -1\n", 3, 5, "expected a whole number such as 4, got '-1'"},
	{"name: n\ncell_time: 1s\nqd: 99999999999999999999\n", 3, 5, "invalid qd 99999999999999999999"},
	{"name: n\ncell_time: 1s\non: maybe\n", 3, 5, "expected true or false, got 'maybe'"},
	{"name: n\ncell_time: 1s\nbs: 1000\n", 3, 5, "bs must be a multiple of 512 B, got 1000"},
	{"name: n\ncell_time: 1s\nbs: 4kq\n", 3, 5, "bad unit 'kq' in '4kq'"},
	{"name: n\ncell_time: 1s\nexcursion: 0%\n", 3, 12,
	 "excursion 0% is outside 1% to 100%"},
	{"name: n\ncell_time: 1s\nexcursion: 120%\n", 3, 12, "invalid excursion 120%"},
	{"name: n\ncell_time: 1s\nratio: 1.5\n", 3, 8, "ratio 1.5 is outside 0 to 1"},
	{"name: n\ncell_time: 1s\namount: 1m\n", 3, 9, "bad unit 'm' in '1m': expected an amount such as 2x"},
	{"name: n\ncell_time: 1s\nrange: 50%-10%\n", 3, 8, "invalid range 50%-10%"},
	{"name: n\ncell_time: 1s\nmethod: discrad\n", 3, 9,
	 "expected auto, discard or sim, got 'discrad' (did you mean 'discard'?)"},
	{"name: n\ncell_time: 1s\nmethod: shred\n", 3, 9, "expected auto, discard or sim, got 'shred'"},
	{"name: n\ncell_time: 1s\nqueue: 4\n", 3, 8, "expected a mapping (key: value, ...), got '4'"},
	{"name: n\n", 1, 1, "missing required key 'cell_time' in demo"},
	{"cell_time: 1s\n", 1, 1, "missing required key 'name' in demo"},
	{"- a\n", 1, 1, "expected a mapping of settings for demo, got a list"},
};
/* clang-format on */

static void test_schema_errors(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(schema_cases) / sizeof(schema_cases[0]); i++) {
		const struct bad_case *c = &schema_cases[i];
		struct ydoc *d = parse_ok(c->text);
		struct demo v = {0};
		uint64_t present = 77;
		struct ydoc_error e;
		int ret = ydoc_map_read(d->root, "demo", demo_keys, &v, &present, &e);

		if (ret != -EINVAL)
			fail_msg("case %zu: ret %d", i, ret);
		assert_true(present == 77);
		if (e.line != c->line || e.col != c->col || strncmp(e.msg, c->msg, strlen(c->msg)))
			fail_msg("case %zu: got %d:%d '%s', want %d:%d '%s'", i, e.line, e.col,
				 e.msg, c->line, c->col, c->msg);
		ydoc_free(d);
	}
}

/* Two key tables over one mapping: values go to their own destinations, suggestions come from
 * both tables, and a null value reads as an empty mapping. */
struct extra {
	uint64_t amount_b;
	bool flag;
};

/* clang-format off */
static const struct ydoc_key extra_keys[] = {
	{.name = "volume", .kind = YK_SIZE, .required = true, .offset = offsetof(struct extra, amount_b)},
	{.name = "flag", .kind = YK_BOOL, .offset = offsetof(struct extra, flag)},
	{0},
};
/* clang-format on */

static void test_schema_multi(void **state)
{
	struct ydoc *d = parse_ok("a:\n  name: n\n  cell_time: 1s\n  volume: 1g\n"
				  "b:\n  name: n\n  cell_time: 1s\n  volme: 1g\n"
				  "c:\n");
	struct demo v = {0};
	struct extra x = {0};
	uint64_t pv = 0, px = 0;
	struct ydoc_schema s[2] = {{demo_keys, &v, &pv}, {extra_keys, &x, &px}};
	struct ydoc_error e;

	(void)state;
	if (ydoc_map_read_multi(ydoc_map_get(d->root, "a"), "a", s, 2, &e))
		fail_msg("%s", e.msg);
	assert_string_equal(v.name, "n");
	assert_true(x.amount_b == 1ull << 30);
	assert_true(pv == ((1u << 0) | (1u << 6)));
	assert_true(px == 1);
	assert_int_equal(ydoc_map_read_multi(ydoc_map_get(d->root, "b"), "b", s, 2, &e), -EINVAL);
	assert_string_equal(e.msg, "unknown key 'volme' in b (did you mean 'volume'?)");
	assert_int_equal(e.line, 8);
	/* "c:" with nothing: no settings; the required keys are then missing, at c's value. */
	assert_int_equal(ydoc_map_read_multi(ydoc_map_get(d->root, "c"), "c", &s[1], 1, &e),
			 -EINVAL);
	assert_string_equal(e.msg, "missing required key 'volume' in c");
	assert_int_equal(e.line, 9);
	{
		const struct ydoc_key opt[] = {{.name = "flag", .kind = YK_BOOL}, {0}};
		bool f = true;
		uint64_t p = 99;

		assert_int_equal(ydoc_map_read(ydoc_map_get(d->root, "c"), "c", opt, &f, &p, &e),
				 0);
		assert_true(f);
		assert_true(p == 0);
	}
	ydoc_free(d);
}

/* ydoc_set_node (a profile's set: with mapping values), ydoc_node_copy, the removals. */
static void test_set_node(void **state)
{
	struct ydoc *doc = parse_ok("a: 1\nb: [x, y, z]\nc: {d: 2}\n");
	struct ydoc *src = parse_ok("v: {e: [3, 4]}\n");
	struct ydoc_node *cp = NULL, *v;
	struct ydoc_error e;

	(void)state;
	v = ydoc_map_get(src->root, "v");
	assert_int_equal(ydoc_set_node(doc, "c.d", v, &e), 0);
	assert_int_equal(ydoc_set_node(doc, "c.f", v, &e), 0); /* a key added */
	/* the copies are deep and keep the source's positions */
	assert_ptr_not_equal(ydoc_map_get(ydoc_map_get(doc->root, "c"), "d"), v);
	v = ydoc_map_get(ydoc_map_get(doc->root, "c"), "d");
	assert_int_equal(v->type, YDOC_MAPPING);
	assert_int_equal(v->line, 1);
	assert_int_equal(v->col, 4);
	assert_string_equal(ydoc_map_get(v, "e")->items[1]->text, "4");
	assert_non_null(ydoc_map_get(ydoc_map_get(doc->root, "c"), "f"));
	assert_int_equal(ydoc_set_node(doc, "b.5", v, &e), -EINVAL);
	assert_non_null(strstr(e.msg, "indexes 0 to 2"));
	/* removals */
	assert_int_equal(ydoc_seq_remove(ydoc_map_get(doc->root, "b"), 1), 0);
	assert_int_equal(ydoc_map_get(doc->root, "b")->n, 2);
	assert_string_equal(ydoc_map_get(doc->root, "b")->items[1]->text, "z");
	assert_int_equal(ydoc_seq_remove(ydoc_map_get(doc->root, "b"), 2), -EINVAL);
	assert_int_equal(ydoc_map_remove(doc->root, "a"), 0);
	assert_null(ydoc_map_get(doc->root, "a"));
	assert_int_equal(ydoc_map_remove(doc->root, "a"), -ENOENT);
	assert_int_equal(doc->root->n, 2);
	assert_int_equal(ydoc_node_copy(doc->root, &cp), 0);
	assert_int_equal(cp->n, 2);
	ydoc_node_free(cp);
	ydoc_free(src);
	ydoc_free(doc);
}

static void test_nearest(void **state)
{
	static const char *const names[] = {"cell_time", "cells", "order", "queue", "count", NULL};

	(void)state;
	assert_string_equal(ydoc_nearest("cell_tme", names), "cell_time");
	assert_string_equal(ydoc_nearest("Cells", names), "cells");
	assert_string_equal(ydoc_nearest("ordr", names), "order");
	assert_null(ydoc_nearest("xyz", names));
	assert_null(ydoc_nearest("steady_state", names));
	assert_string_equal(ydoc_nearest("cuont", names), "count"); /* a swap is one edit */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tree),	 cmocka_unit_test(test_bad_docs),
	    cmocka_unit_test(test_deep_nesting), cmocka_unit_test(test_error_format),
	    cmocka_unit_test(test_parse_file),	 cmocka_unit_test(test_set_path),
	    cmocka_unit_test(test_schema_ok),	 cmocka_unit_test(test_schema_errors),
	    cmocka_unit_test(test_schema_multi), cmocka_unit_test(test_nearest),
	    cmocka_unit_test(test_set_node),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
