/* SPDX-License-Identifier: MIT */
/*
 * test_cli_util: the CLI helpers that the user sees through (cli/options, signals, progress,
 * quote, runflow): the printed resume command must survive a shell (quoting table, checked by
 * running it through /bin/sh), the progress line's text, option values with their error
 * messages, the exit-code mapping, the stop flag raised by a real SIGINT and SIGTERM, and the
 * repeatable-option list.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/quote.h"
#include "cli/runflow.h"
#include "cli/signals.h"
#include "base/units.h"

/* cli_error() lives in main.c, which a test does not link: keep the last message instead. */
static char last_error[512];

void cli_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(last_error, sizeof(last_error), "ssdlab %s: ", cmd);

	va_start(ap, fmt);
	vsnprintf(last_error + n, sizeof(last_error) - (size_t)n, fmt, ap);
	va_end(ap);
}

static void test_shell_quote(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"results/run-1", "results/run-1"},
		{"--yes-destroy=/dev/loop0", "--yes-destroy=/dev/loop0"},
		{"with space", "'with space'"},
		{"it's", "'it'\\''s'"},
		{"", "''"},
		{"$HOME", "'$HOME'"},
		{"a;b", "'a;b'"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char buf[128] = "", cmd[512], back[128];
		FILE *p;

		assert_int_equal(cli_shell_append(buf, sizeof(buf), cases[i].in), 0);
		assert_string_equal(buf, cases[i].out);
		/* What the shell makes of it is the original word. */
		snprintf(cmd, sizeof(cmd), "printf '%%s' %s", buf);
		p = popen(cmd, "r");
		assert_non_null(p);
		memset(back, 0, sizeof(back));
		(void)!fread(back, 1, sizeof(back) - 1, p);
		assert_int_equal(pclose(p), 0);
		assert_string_equal(back, cases[i].in);
	}
}

static void test_shell_join_and_space(void **state)
{
	char buf[24] = "";

	(void)state;
	assert_int_equal(cli_shell_append(buf, sizeof(buf), "ssdlab"), 0);
	assert_int_equal(cli_shell_append(buf, sizeof(buf), "resume"), 0);
	assert_string_equal(buf, "ssdlab resume");
	/* Does not fit: -ENOSPC and the buffer is unchanged. */
	assert_int_equal(cli_shell_append(buf, sizeof(buf), "a much longer word"), -ENOSPC);
	assert_string_equal(buf, "ssdlab resume");
}

static void test_progress_format(void **state)
{
	struct cli_progress_state s = {
		.phase = "rounds", .phase_index = 2, .nphases = 5, .round = 3,
		.cell = "rwmix_read=0,bs=4k", .bytes_written = 3ull << 30, .iops = 12345.6,
		.eta_ns = 90000000000ull, .eta_run_lo_ns = 600000000000ull,
		.eta_run_hi_ns = 600000000000ull, .eta_run_known = true,
	};
	/* The run's rest: exact, a range (steady-state rounds to go), a lower bound (no speed for
	 * an amount yet), unknown. */
	static const struct {
		uint64_t lo, hi;
		bool known;
		const char *want;
	} runs[] = {
		{600000000000ull, 600000000000ull, true, "run 10m00s"},
		{300000000000ull, 900000000000ull, true, "run 5m00s..15m00s"},
		{300000000000ull, 300000000000ull, false, "run > 5m00s"},
		{0, 0, false, "run ?"},
	};
	char buf[256], want[256], size[32], eta[32];

	(void)state;
	snprintf(want, sizeof(want), "[3/5] rounds round 3 rwmix_read=0,bs=4k | %s written | 12346 IOPS | ETA %s | run 10m00s",
		 units_fmt_size(3ull << 30, size, sizeof(size)),
		 units_fmt_duration(90000000000ull, eta, sizeof(eta)));
	assert_string_equal(cli_progress_format(&s, buf, sizeof(buf)), want);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		const char *bar;

		s.eta_run_lo_ns = runs[i].lo;
		s.eta_run_hi_ns = runs[i].hi;
		s.eta_run_known = runs[i].known;
		bar = strrchr(cli_progress_format(&s, buf, sizeof(buf)), '|');
		assert_non_null(bar);
		assert_string_equal(bar + 2, runs[i].want);
	}
	s.round = 0;
	s.cell = "";
	s.eta_ns = 0;
	s.replay = true;
	s.phase = "idle";
	snprintf(want, sizeof(want), "(replay) [3/5] idle | %s written | 12346 IOPS | ETA ? | run ?",
		 size);
	assert_string_equal(cli_progress_format(&s, buf, sizeof(buf)), want);
}

/*
 * Issue 9, point 7, with hand-worked values: on a virtual SSD the line gives both clocks (the
 * target time done and left, and a wall-clock ETA); a chunk of a write phase says "chunk 3/29";
 * no "0 IOPS" while I/O runs (a step that has just started, an interval without completions).
 */
static void test_progress_two_clocks(void **state)
{
	struct cli_progress_state s = {
		.phase = "precondition", .phase_index = 1, .nphases = 6, .round = 3, .chunk = true,
		.nchunks = 29, .bytes_written = 3ull << 30, .iops = 12345.6, .eta_ns = 1500000,
		.eta_run_lo_ns = 60000000000ull, .eta_run_hi_ns = 90000000000ull,
		.eta_run_known = true, .virt = true, .target_done_ns = 48000000000ull,
	};
	char buf[320];
	uint64_t lo = 7, hi = 7;

	(void)state;
	/* 2 s of wall time for 80 s of target time: 40 s .. 120 s left take 1 s .. 3 s; 1 s for
	 * 32 s: 60 s .. 90 s left take 1.875 s .. 2.8125 s. */
	assert_false(cli_wall_eta(2000000000ull, 0, 1, 2, &lo, &hi));
	assert_int_equal(lo, 7);
	assert_true(cli_wall_eta(2000000000ull, 80000000000ull, 40000000000ull, 120000000000ull,
				 &lo, &hi));
	assert_int_equal(lo, 1000000000ull);
	assert_int_equal(hi, 3000000000ull);

	s.wall_known = cli_wall_eta(1000000000ull, 32000000000ull, s.eta_run_lo_ns,
				    s.eta_run_hi_ns, &s.wall_lo_ns, &s.wall_hi_ns);
	assert_string_equal(cli_progress_format(&s, buf, sizeof(buf)),
			    "[2/6] precondition chunk 3/29 | 3 GiB written | 12346 IOPS | "
			    "target 48.00 s done, 1m00s..1m30s left | wall ETA 1.88 s..2.81 s");
	/* A step that has just started: no figure, not "0 IOPS"; no speed yet: wall "?". */
	s.iops = 0;
	s.wall_known = false;
	s.nchunks = 0;
	assert_string_equal(cli_progress_format(&s, buf, sizeof(buf)),
			    "[2/6] precondition chunk 3 | 3 GiB written | "
			    "target 48.00 s done, 1m00s..1m30s left | wall ETA ?");
	/* WSAT: rounds until an amount or max_time, so the count is only a bound. */
	s.phase = "write_until";
	s.nchunks = 1440;
	s.nchunks_at_most = true;
	assert_non_null(strstr(cli_progress_format(&s, buf, sizeof(buf)),
			       "[2/6] write_until chunk 3 of at most 1440 | "));
	s.chunk = false;
	s.phase = "rounds";
	s.cell = "bs=4k";
	assert_null(strstr(cli_progress_format(&s, buf, sizeof(buf)), "IOPS"));
	assert_non_null(strstr(buf, "[2/6] rounds round 3 bs=4k |"));
}

/* What was written to f, as a string (len > 0); closes f. */
static void read_back(FILE *f, char *text, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(text, 1, len - 1, f);
	text[n] = '\0';
	fclose(f);
}

/* Not on a terminal: the last line of each phase, once, and nothing stale (issue 9, point 7). */
static void test_progress_log(void **state)
{
	static const unsigned phases[] = {0, 0, 0, 1, 1, 2};
	struct cli_progress p;
	struct cli_progress_state s = {.phase = "rounds", .nphases = 3, .eta_run_known = true};
	char text[2048] = "", want[2048] = "", line[320];
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	cli_progress_init(&p, f, false, 3600000000000ull); /* no periodic line in this test */
	for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		s.phase_index = phases[i];
		s.iops = 1000.0 * (double)(i + 1);
		cli_progress_update(&p, &s);
		if (i + 1 == sizeof(phases) / sizeof(phases[0]) || phases[i + 1] != phases[i])
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s\n",
				 cli_progress_format(&s, line, sizeof(line)));
	}
	cli_progress_finish(&p);
	read_back(f, text, sizeof(text));
	assert_string_equal(text, want);
}

/* On a terminal a line is drawn in place, a shorter one blanks what is left of the longer one,
 * and the finish ends the line; not on a terminal cli_progress_line draws nothing. */
static void test_progress_line(void **state)
{
	static const char want[] = "\rchunk 10 of 12\rchunk 9       \n"; /* 7 blanks */
	struct cli_progress p;
	char text[256] = "";
	FILE *f = tmpfile();

	(void)state;
	assert_non_null(f);
	cli_progress_init(&p, f, false, 0);
	cli_progress_line(&p, "not a terminal"); /* tmpfile: nothing */
	p.tty = true; /* as cli_progress_init sets it on a terminal */
	cli_progress_line(&p, "chunk 10 of 12");
	cli_progress_line(&p, "chunk 9");
	cli_progress_finish(&p);
	read_back(f, text, sizeof(text));
	assert_string_equal(text, want);
}

static void test_option_values(void **state)
{
	uint64_t v = 7, ns = 7;
	double d = 7;

	(void)state;
	assert_int_equal(cli_opt_u64("run", "--seed", "42", &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(cli_opt_u64("run", "--seed", "4x", &v), -EINVAL);
	assert_int_equal(v, 42); /* untouched on failure */
	assert_non_null(strstr(last_error, "--seed: '4x' is not a non-negative integer"));
	assert_int_equal(cli_opt_double("run", "--time-scale", "0.25", &d), 0);
	assert_true(d == 0.25);
	assert_int_equal(cli_opt_duration("run", "--x", "1m", &ns), 0);
	assert_int_equal(ns, 60000000000ull);
	assert_int_not_equal(cli_opt_size("run", "--y", "lots", &v), 0);
	assert_non_null(strstr(last_error, "--y: 'lots' is not"));
}

static void test_exit_codes(void **state)
{
	static const struct {
		int rc, code;
	} cases[] = {
		{0, EXIT_OK},		  {-EINTR, EXIT_INTERRUPTED}, {-EPERM, EXIT_SAFETY},
		{-EBUSY, EXIT_SAFETY},	  {-EOPNOTSUPP, EXIT_CAPABILITY}, {-EINVAL, EXIT_USAGE},
		{-EIO, EXIT_FAILED},	  {-ENOSPC, EXIT_FAILED},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(cli_exit_code(cases[i].rc), cases[i].code);
}

static void test_stop_flag(void **state)
{
	static const int sigs[] = {SIGINT, SIGTERM};

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		struct cli_stop s;
		struct sigaction now;

		assert_int_equal(cli_signals_install(&s), 0);
		assert_int_equal(s.flag, 0);
		assert_int_equal(raise(sigs[i]), 0);
		assert_int_equal(s.flag, 1);
		assert_int_equal(s.signo, sigs[i]);
		/* The second signal would take the default action (the user can force quit). */
		assert_int_equal(sigaction(sigs[i], NULL, &now), 0);
		assert_true(now.sa_handler == SIG_DFL);
		cli_signals_restore();
	}
}

static void test_strlist(void **state)
{
	struct cli_strlist l = {0};
	char buf[16];

	(void)state;
	for (int i = 0; i < 20; i++) {
		snprintf(buf, sizeof(buf), "k%d=v", i);
		assert_int_equal(cli_strlist_add(&l, buf), 0);
	}
	assert_int_equal(l.n, 20);
	assert_string_equal(l.v[0], "k0=v");
	assert_string_equal(l.v[19], "k19=v");
	cli_strlist_release(&l);
	assert_null(l.v);
	cli_strlist_release(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shell_quote),    cmocka_unit_test(test_shell_join_and_space),
		cmocka_unit_test(test_progress_format), cmocka_unit_test(test_option_values),
		cmocka_unit_test(test_progress_two_clocks), cmocka_unit_test(test_progress_log),
		cmocka_unit_test(test_progress_line),
		cmocka_unit_test(test_exit_codes),     cmocka_unit_test(test_stop_flag),
		cmocka_unit_test(test_strlist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
