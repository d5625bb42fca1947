/* SPDX-License-Identifier: MIT */
/*
 * test_units: the unit parsers and printers (units.c) and the job-setting texts and helpers
 * (jobspec.c: rw modes, block-size splits, which modes write and read, the fill job),
 * table-driven: every row is an input and the exact expected value or error. The expected
 * values are written out by hand (4k = 4096, 1.5g = 1610612736), not recomputed with the
 * module.
 */
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "testutil.h"
#include "base/units.h"

struct u64_case {
	const char *in;
	int ret;
	uint64_t v;
};

static const struct u64_case size_cases[] = {
    {"512", 0, 512},
    {"0", 0, 0},
    {"4k", 0, 4096},
    {"4K", 0, 4096},
    {"4KiB", 0, 4096},
    {"4kib", 0, 4096},
    {"4KB", 0, 4096},
    {"4 KiB", 0, 4096},
    {" 4k ", 0, 4096},
    {"1m", 0, 1048576},
    {"2g", 0, 2147483648ull},
    {"1.5g", 0, 1610612736ull},
    {"0.5k", 0, 512},
    {"1t", 0, 1099511627776ull},
    {"512b", 0, 512},
    {"16383p", 0, 16383ull << 50},
    {"16384p", -ERANGE, 0},
    {"18446744073709551615", 0, UINT64_MAX},
    {"18446744073709551616", -ERANGE, 0},
    {"99999999999999999999999", -ERANGE, 0},
    {"0.3k", -EINVAL, 0}, /* 307.2 bytes is not a size */
    {"", -EINVAL, 0},
    {"k", -EINVAL, 0},
    {"4q", -EINVAL, 0},
    {"4kk", -EINVAL, 0},
    {"-4k", -EINVAL, 0},
    {"4,5k", -EINVAL, 0},
    {"0x10", -EINVAL, 0},
    {"fast", -EINVAL, 0},
};

static const struct u64_case duration_cases[] = {
    {"500ms", 0, 500000000ull},	  {"60s", 0, 60000000000ull},	  {"60", 0, 60000000000ull},
    {"5m", 0, 300000000000ull},	  {"5min", 0, 300000000000ull},	  {"24h", 0, 86400000000000ull},
    {"1d", 0, 86400000000000ull}, {"1.5s", 0, 1500000000ull},	  {"250us", 0, 250000ull},
    {"850ns", 0, 850ull},	  {"1h30m", 0, 5400000000000ull}, {"2h03m", 0, 7380000000000ull},
    {"0.5ns", 0, 1ull}, /* rounded to nearest */
    {"1h30", -EINVAL, 0},	  {"fast", -EINVAL, 0},		  {"", -EINVAL, 0},
    {"10x", -EINVAL, 0},	  {"300000d", -ERANGE, 0},	  {"-1s", -EINVAL, 0},
};

static const struct u64_case u64_cases[] = {
    {"0", 0, 0},
    {"42", 0, 42},
    {"0x10", 0, 16},
    {"0xFFFFFFFFFFFFFFFF", 0, UINT64_MAX},
    {"0x1FFFFFFFFFFFFFFFF", -ERANGE, 0},
    {"18446744073709551615", 0, UINT64_MAX},
    {"18446744073709551616", -ERANGE, 0},
    {"-1", -EINVAL, 0},
    {"1.0", -EINVAL, 0},
    {"0x", -EINVAL, 0},
    {"", -EINVAL, 0},
};

static void run_u64_table(const struct u64_case *c, size_t n, int (*fn)(const char *, uint64_t *))
{
	for (size_t i = 0; i < n; i++) {
		uint64_t v = 0xdeadbeef;
		int ret = fn(c[i].in, &v);

		if (ret != c[i].ret || (ret == 0 && v != c[i].v) || (ret != 0 && v != 0xdeadbeef))
			fail_msg("'%s': got ret %d v %llu, want ret %d v %llu", c[i].in, ret,
				 (unsigned long long)v, c[i].ret, (unsigned long long)c[i].v);
	}
}

static void test_sizes(void **state)
{
	(void)state;
	run_u64_table(size_cases, sizeof(size_cases) / sizeof(size_cases[0]), units_parse_size);
}

static void test_durations(void **state)
{
	(void)state;
	run_u64_table(duration_cases, sizeof(duration_cases) / sizeof(duration_cases[0]),
		      units_parse_duration);
}

static void test_u64(void **state)
{
	(void)state;
	run_u64_table(u64_cases, sizeof(u64_cases) / sizeof(u64_cases[0]), units_parse_u64);
}

struct dbl_case {
	const char *in;
	int ret;
	double v;
};

/* clang-format off */
static const struct dbl_case percent_cases[] = {
	{"20%", 0, 0.2},  {"20", 0, 0.2},      {"0%", 0, 0.0},     {"100%", 0, 1.0},
	{"12.5%", 0, 0.125}, {" 50 % ", 0, 0.5}, {"101%", -ERANGE, 0}, {"-1%", -ERANGE, 0},
	{"%", -EINVAL, 0}, {"abc%", -EINVAL, 0}, {"20%%", -EINVAL, 0}, {"", -EINVAL, 0},
};
/* clang-format on */

/* clang-format off */
static const struct dbl_case double_cases[] = {
	{"1.5", 0, 1.5},      {"-2", 0, -2.0},	   {"1e3", 0, 1000.0}, {"0.001", 0, 0.001},
	{"1,5", -EINVAL, 0},  {"inf", -EINVAL, 0}, {"nan", -EINVAL, 0}, {"0x1p3", -EINVAL, 0},
	{"1e", -EINVAL, 0},   {"", -EINVAL, 0},	   {"1e999", -ERANGE, 0},
};
/* clang-format on */

static void run_dbl_table(const struct dbl_case *c, size_t n, int (*fn)(const char *, double *))
{
	for (size_t i = 0; i < n; i++) {
		double v = -12345.0;
		int ret = fn(c[i].in, &v);

		if (ret != c[i].ret || (ret == 0 && fabs(v - c[i].v) > 1e-12) ||
		    (ret != 0 && v != -12345.0))
			fail_msg("'%s': got ret %d v %g, want ret %d v %g", c[i].in, ret, v,
				 c[i].ret, c[i].v);
	}
}

static void test_percent(void **state)
{
	(void)state;
	run_dbl_table(percent_cases, sizeof(percent_cases) / sizeof(percent_cases[0]),
		      units_parse_percent);
}

static void test_double(void **state)
{
	(void)state;
	run_dbl_table(double_cases, sizeof(double_cases) / sizeof(double_cases[0]),
		      units_parse_double);
}

/*
 * A comma-decimal locale: an installed one, else de_DE compiled with localedef into a temp dir
 * (LOCPATH). Returns the temp dir to remove (or NULL) and sets *ok.
 */
static char *comma_locale(bool *ok)
{
	const char *locs[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "nl_NL.UTF-8", NULL};
	char cmd[1024], *dir;

	*ok = false;
	for (int i = 0; locs[i]; i++)
		if (setlocale(LC_ALL, locs[i]))
			return *ok = true, NULL;
	dir = tu_mkdtemp("locale");
	if (!dir)
		return NULL;
	snprintf(cmd, sizeof(cmd), "localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8' >/dev/null 2>&1",
		 dir);
	if (system(cmd) == 0) {
		setenv("LOCPATH", dir, 1);
		*ok = setlocale(LC_ALL, "de_DE.UTF-8") != NULL;
	}
	return dir;
}

/* The parsers and printers must not follow the process locale: a comma-decimal locale changes
 * nothing. */
static void test_locale(void **state)
{
	char buf[64], *dir;
	double v;
	uint64_t b;
	bool ok;

	(void)state;
	dir = comma_locale(&ok);
	if (!ok) {
		tu_rmtree(dir);
		free(dir);
		print_message("skipped: neither an installed comma-decimal locale nor localedef\n");
		skip();
	}
	/* The locale is really in effect: printf now writes a comma. */
	snprintf(buf, sizeof(buf), "%.1f", 1.5);
	assert_string_equal(buf, "1,5");
	assert_int_equal(units_parse_double("1.5", &v), 0);
	assert_true(v == 1.5);
	assert_int_equal(units_parse_double("1,5", &v), -EINVAL);
	assert_int_equal(units_parse_percent("12.5%", &v), 0);
	assert_true(v == 0.125);
	assert_int_equal(units_parse_size("1.5g", &b), 0);
	assert_true(b == 1610612736ull);
	assert_string_equal(units_fmt_double(2.25, 2, buf, sizeof(buf)), "2.25");
	assert_string_equal(units_fmt_size(1610612736ull, buf, sizeof(buf)), "1.50 GiB");
	assert_string_equal(units_fmt_duration(1200000, buf, sizeof(buf)), "1.20 ms");
	setlocale(LC_ALL, "C");
	unsetenv("LOCPATH");
	tu_rmtree(dir);
	free(dir);
}

struct amount_case {
	const char *in;
	int ret;
	enum amount_kind kind;
	uint64_t bytes;
	double multiple;
	uint64_t ns;
};

/* clang-format off */
static const struct amount_case amount_cases[] = {
	{"2x", 0, AMOUNT_CAPACITY, 0, 2.0, 0},
	{"0.5x", 0, AMOUNT_CAPACITY, 0, 0.5, 0},
	{"4X", 0, AMOUNT_CAPACITY, 0, 4.0, 0},
	{"10g", 0, AMOUNT_BYTES, 10737418240ull, 0, 0},
	{"1MiB", 0, AMOUNT_BYTES, 1048576, 0, 0},
	{"4096", 0, AMOUNT_BYTES, 4096, 0, 0},
	{"60s", 0, AMOUNT_TIME, 0, 0, 60000000000ull},
	{"24h", 0, AMOUNT_TIME, 0, 0, 86400000000000ull},
	{"1min", 0, AMOUNT_TIME, 0, 0, 60000000000ull},
	{"1m", -EINVAL, AMOUNT_NONE, 0, 0, 0}, /* MiB or minute? refused */
	{"0x", -ERANGE, AMOUNT_NONE, 0, 0, 0},
	{"0", -ERANGE, AMOUNT_NONE, 0, 0, 0},
	{"-1x", -ERANGE, AMOUNT_NONE, 0, 0, 0},
	{"x", -EINVAL, AMOUNT_NONE, 0, 0, 0},
	{"lots", -EINVAL, AMOUNT_NONE, 0, 0, 0},
	{"99999999999999999999g", -ERANGE, AMOUNT_NONE, 0, 0, 0},
};
/* clang-format on */

static void test_amount(void **state)
{
	const size_t n = sizeof(amount_cases) / sizeof(amount_cases[0]);
	struct amount a;

	(void)state;
	for (size_t i = 0; i < n; i++) {
		const struct amount_case *c = &amount_cases[i];
		int ret;

		memset(&a, 0x5a, sizeof(a));
		ret = units_parse_amount(c->in, &a);
		if (ret != c->ret)
			fail_msg("'%s': ret %d, want %d", c->in, ret, c->ret);
		if (ret)
			continue;
		if (a.kind != c->kind || a.bytes != c->bytes || a.multiple != c->multiple ||
		    a.ns != c->ns)
			fail_msg("'%s': kind %d bytes %llu mult %g ns %llu", c->in, a.kind,
				 (unsigned long long)a.bytes, a.multiple, (unsigned long long)a.ns);
	}
	a = (struct amount){.kind = AMOUNT_CAPACITY, .multiple = 2.0};
	assert_true(amount_bytes(&a, 1000) == 2000);
	a = (struct amount){.kind = AMOUNT_BYTES, .bytes = 77};
	assert_true(amount_bytes(&a, 1000) == 77);
	a = (struct amount){.kind = AMOUNT_TIME, .ns = 5};
	assert_true(amount_bytes(&a, 1000) == 0);
	a = (struct amount){.kind = AMOUNT_CAPACITY, .multiple = 1e6};
	assert_true(amount_bytes(&a, UINT64_MAX / 2) == UINT64_MAX);
}

struct range_case {
	const char *in;
	int ret;
	uint64_t cap, align;
	int rret;
	uint64_t start, end;
};

/* clang-format off */
static const struct range_case range_cases[] = {
	{"0-50%", 0, 1000000, 512, 0, 0, 499712},
	{"25%-75%", 0, 1 << 20, 4096, 0, 262144, 786432},
	{"50%", 0, 1 << 20, 512, 0, 0, 524288},
	{"10-50%", 0, 1000 << 10, 1024, 0, 102400, 512000},
	{"12.5-25%", 0, 1 << 20, 512, 0, 131072, 262144},
	{"0-100%", 0, 1 << 20, 512, 0, 0, 1 << 20},
	{"0-10g", 0, 20ull << 30, 4096, 0, 0, 10ull << 30},
	{"1g-2g", 0, 20ull << 30, 4096, 0, 1ull << 30, 2ull << 30},
	{"1g-2g", 0, 1ull << 30, 4096, -ERANGE, 0, 0},	/* past the capacity */
	{"0-1%", 0, 1000, 4096, -ERANGE, 0, 0},		/* empty once aligned */
	{"50%-50%", -ERANGE, 0, 0, 0, 0, 0},
	{"2g-1g", -ERANGE, 0, 0, 0, 0, 0},
	{"0-150%", -ERANGE, 0, 0, 0, 0, 0},
	{"1g-50%", -EINVAL, 0, 0, 0, 0, 0},
	{"-50%", -EINVAL, 0, 0, 0, 0, 0},
	{"half", -EINVAL, 0, 0, 0, 0, 0},
	{"", -EINVAL, 0, 0, 0, 0, 0},
};
/* clang-format on */

static void test_range(void **state)
{
	const size_t n = sizeof(range_cases) / sizeof(range_cases[0]);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		const struct range_case *c = &range_cases[i];
		struct range r;
		uint64_t s = 1, e = 1;
		int ret = units_parse_range(c->in, &r);

		if (ret != c->ret)
			fail_msg("'%s': ret %d, want %d", c->in, ret, c->ret);
		if (ret)
			continue;
		ret = range_resolve(&r, c->cap, c->align, &s, &e);
		if (ret != c->rret || (ret == 0 && (s != c->start || e != c->end)) ||
		    (ret && (s != 1 || e != 1)))
			fail_msg("'%s': resolve ret %d [%llu, %llu), want %d [%llu, %llu)", c->in,
				 ret, (unsigned long long)s, (unsigned long long)e, c->rret,
				 (unsigned long long)c->start, (unsigned long long)c->end);
	}
}

static void test_fmt(void **state)
{
	static const struct {
		uint64_t v;
		const char *size, *dur;
	} rows[] = {
	    {0, "0 B", "0 ns"},
	    {850, "850 B", "850 ns"},
	    {4096, "4 KiB", "4.10 us"},
	    {1200000, "1.14 MiB", "1.20 ms"},
	    {1610612736ull, "1.50 GiB", "1.61 s"},
	    {125000000000ull, "116.42 GiB", "2m05s"},
	    {7380000000000ull, "6.71 TiB", "2h03m"},
	    {93600000000000ull, "85.13 TiB", "1d02h"},
	    {999999ull, "976.56 KiB", "1.00 ms"},
	    {59999000000ull, "55.88 GiB", "1m00s"},
	    {3599600000000ull, "3.27 TiB", "1h00m"},
	    {86399000000000ull, "78.58 TiB", "1d00h"},
	    {UINT64_MAX, "16.00 EiB", "213504d00h"},
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_string_equal(units_fmt_size(rows[i].v, buf, sizeof(buf)), rows[i].size);
		assert_string_equal(units_fmt_duration(rows[i].v, buf, sizeof(buf)), rows[i].dur);
	}
	assert_string_equal(units_fmt_double(-0.004, 2, buf, sizeof(buf)), "0.00");
	assert_string_equal(units_fmt_double(-1.5, 1, buf, sizeof(buf)), "-1.5");
	assert_string_equal(units_fmt_double(2.0 / 3.0, 3, buf, sizeof(buf)), "0.667");
	assert_string_equal(units_fmt_double(42.0, 0, buf, sizeof(buf)), "42");
	assert_string_equal(units_fmt_double(NAN, 2, buf, sizeof(buf)), "nan");
	assert_non_null(strstr(units_expect_duration(), "60s"));
	assert_non_null(strstr(units_expect_size(), "4k"));
	assert_non_null(strstr(units_expect_percent(), "%"));
	assert_non_null(strstr(units_expect_amount(), "2x"));
	assert_non_null(strstr(units_expect_range(), "0-50%"));
}

static void test_rw_modes(void **state)
{
	static const struct {
		const char *name;
		enum rw_mode m;
	} rows[] = {
	    {"read", RW_READ},		 {"write", RW_WRITE},	{"randread", RW_RANDREAD},
	    {"randwrite", RW_RANDWRITE}, {"randrw", RW_RANDRW}, {"rw", RW_RW},
	};
	enum rw_mode m;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(rw_mode_parse(rows[i].name, &m), 0);
		assert_int_equal(m, rows[i].m);
		assert_string_equal(rw_mode_name(rows[i].m), rows[i].name);
	}
	m = RW_RW;
	assert_int_equal(rw_mode_parse("Read", &m), -EINVAL);
	assert_int_equal(rw_mode_parse("randomwrite", &m), -EINVAL);
	assert_int_equal(m, RW_RW);
	assert_string_equal(rw_mode_name((enum rw_mode)99), "?");
}

struct bs_case {
	const char *in;
	int ret;
	unsigned n;
	uint32_t bs[3], w[3];
	const char *err; /* substring of the message on failure */
};

/* clang-format off */
static const struct bs_case bs_cases[] = {
	{"4k", 0, 1, {4096}, {1}, NULL},
	{"512", 0, 1, {512}, {1}, NULL},
	{"4k/70:64k/30", 0, 2, {4096, 65536}, {70, 30}, NULL},
	{"4k:8k:16k", 0, 3, {4096, 8192, 16384}, {1, 1, 1}, NULL},
	{"4k/1:8k/2:1m/3", 0, 3, {4096, 8192, 1048576}, {1, 2, 3}, NULL},
	{"4k/70:64k", -EINVAL, 0, {0}, {0}, "weight"},
	{"4k/0", -ERANGE, 0, {0}, {0}, "weight"},
	{"4k/x", -EINVAL, 0, {0}, {0}, "weight"},
	{"4k:4k", -EINVAL, 0, {0}, {0}, "twice"},
	{"1000", -EINVAL, 0, {0}, {0}, "multiple of 512"},
	{"0", -ERANGE, 0, {0}, {0}, "out of range"},
	{"2g", -ERANGE, 0, {0}, {0}, "out of range"},
	{"fast", -EINVAL, 0, {0}, {0}, "expected a block size"},
	{"", -EINVAL, 0, {0}, {0}, "expected"},
	{"4k::8k", -EINVAL, 0, {0}, {0}, "split"},
	{"4k:", -EINVAL, 0, {0}, {0}, "split"},
	{"512:1k:2k:3k:4k:5k:6k:7k:8k:9k:10k:11k:12k:13k:14k:15k:16k", -ERANGE, 0, {0}, {0},
	 "too many"},
};
/* clang-format on */

static void test_bs_split(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bs_cases) / sizeof(bs_cases[0]); i++) {
		const struct bs_case *c = &bs_cases[i];
		struct bs_split out[JOB_MAX_BS];
		unsigned n = 99;
		char err[256] = "";
		int ret = bs_split_parse(c->in, out, &n, err, sizeof(err));

		if (ret != c->ret)
			fail_msg("'%s': ret %d (%s), want %d", c->in, ret, err, c->ret);
		if (ret) {
			assert_int_equal(n, 99);
			if (!strstr(err, c->err))
				fail_msg("'%s': message '%s' lacks '%s'", c->in, err, c->err);
			continue;
		}
		assert_int_equal(n, c->n);
		for (unsigned j = 0; j < n; j++) {
			assert_int_equal(out[j].bs, c->bs[j]);
			assert_int_equal(out[j].weight, c->w[j]);
		}
	}
}

/* Weights are relative: the note tells the user what a split that does not sum to 100 became,
 * with each share recomputed by hand (70/90 = 77.8%, 20/90 = 22.2%). */
static void test_bs_split_normalised(void **state)
{
	static const struct {
		const char *split;
		const char *note; /* NULL: nothing to say */
	} cases[] = {
	    {"4k", NULL},
	    {"4k/70:64k/30", NULL},
	    {"4k/70:64k/20", "weights 70+20 = 90, normalised to 4 KiB 77.8%, 64 KiB 22.2%"},
	    {"4k:8k:16k", "weights 1+1+1 = 3, normalised to 4 KiB 33.3%, 8 KiB 33.3%, 16 KiB 33.3%"},
	    {"4k/1:1m/3", "weights 1+3 = 4, normalised to 4 KiB 25.0%, 1 MiB 75.0%"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bs_split b[JOB_MAX_BS];
		unsigned n = 0;
		char err[128], buf[256] = "untouched";
		const char *got;

		assert_int_equal(bs_split_parse(cases[i].split, b, &n, err, sizeof(err)), 0);
		got = bs_split_normalised(b, n, buf, sizeof(buf));
		if (!cases[i].note) {
			assert_null(got);
			assert_string_equal(buf, "untouched");
		} else {
			assert_non_null(got);
			assert_string_equal(got, cases[i].note);
		}
	}
}

/* Which modes write and read, at the mix's edges (0 and 100 percent reads). */
static void test_rw_mode_directions(void **state)
{
	static const struct {
		enum rw_mode m;
		unsigned mix;
		bool writes, reads;
	} rows[] = {
		{RW_READ, 50, false, true},	  {RW_RANDREAD, 0, false, true},
		{RW_WRITE, 100, true, false},	  {RW_RANDWRITE, 50, true, false},
		{RW_RANDRW, 0, true, false},	  {RW_RANDRW, 100, false, true},
		{RW_RANDRW, 70, true, true},	  {RW_RW, 0, true, false},
		{RW_RW, 100, false, true},	  {RW_RW, 1, true, true},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		assert_int_equal(rw_mode_writes(rows[i].m, rows[i].mix), rows[i].writes);
		assert_int_equal(rw_mode_reads(rows[i].m, rows[i].mix), rows[i].reads);
	}
}

/* A fill is one sequential pass with the largest power of two up to 1 MiB that divides the
 * capacity and is a multiple of the logical block. */
static void test_job_spec_fill(void **state)
{
	static const struct {
		uint64_t capacity;
		uint32_t lbs, bs;
	} rows[] = {
		{16ull << 20, 512, 1u << 20}, /* 16 MiB: 1 MiB blocks */
		{16ull << 20, 0, 1u << 20},   /* no logical block size: 512 */
		{3ull << 19, 4096, 524288},   /* 1.5 MiB: 512 KiB */
		{12288, 4096, 4096},	      /* 12 KiB: 4 KiB */
		{1536, 512, 512},	      /* 3 sectors: one sector */
		{1536, 0, 512},
	};
	struct job_spec s;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		memset(&s, 0xa5, sizeof(s));
		job_spec_fill(&s, rows[i].capacity, rows[i].lbs);
		assert_int_equal(s.rw, RW_WRITE);
		assert_int_equal(s.nbs, 1);
		assert_int_equal(s.bs[0].bs, rows[i].bs);
		assert_int_equal(s.bs[0].weight, 1);
		assert_int_equal(s.qd, 8);
		assert_int_equal(s.threads, 1);
		assert_int_equal(s.range_start, 0);
		assert_int_equal(s.range_end, rows[i].capacity);
		assert_int_equal(s.time_ns, 0);
		assert_int_equal(s.amount_bytes, 0);
		assert_int_equal(s.seed, 0);
		assert_int_equal(s.pattern, PATTERN_RANDOM);
	}
}

/* Kelvin to Celsius to hundredths: the double nearest 49.85, not 323 - 273.15 (49.850000000000023,
 * which printed as such in snapshots before). */
static void test_kelvin(void **state)
{
	(void)state;
	assert_true(323 - 273.15 != 49.85); /* the tail this rounds away */
	assert_true(units_kelvin_to_celsius(323) == 49.85);
	assert_true(units_kelvin_to_celsius(348) == 74.85);
	assert_true(units_kelvin_to_celsius(273.15) == 0.0);
	assert_true(units_kelvin_to_celsius(0) == -273.15);
	assert_true(units_kelvin_to_celsius(310.5) == 37.35);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sizes),    cmocka_unit_test(test_durations),
	    cmocka_unit_test(test_u64),	     cmocka_unit_test(test_percent),
	    cmocka_unit_test(test_double),   cmocka_unit_test(test_amount),
	    cmocka_unit_test(test_range),    cmocka_unit_test(test_fmt),
	    cmocka_unit_test(test_rw_modes), cmocka_unit_test(test_bs_split),
	    cmocka_unit_test(test_bs_split_normalised),
	    cmocka_unit_test(test_rw_mode_directions),
	    cmocka_unit_test(test_job_spec_fill),
	    cmocka_unit_test(test_locale),
	    cmocka_unit_test(test_kelvin),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
