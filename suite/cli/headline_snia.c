/* SPDX-License-Identifier: MIT */
/*
 * headline_snia: the headline's lines for a SNIA PTS test (headline.h), one set per entry of
 * summary.json's headline.snia (analysis/pass_headline.c, from the "snia" blocks), the test's
 * main result as a PTS report states it:
 *   SNIA IOPS      rwmix_read=0,bs=4k 2985 IOPS (reached, rounds 1-5, 4 threads x QD32)
 *   SNIA IOPS 4k   by read %: 100% 63786, 95% 32780, 65% 7930, 50% 5861, 35% 4497, 5% 3144, 0% 2985
 *   SNIA TP 1m     write 59.2 MB/s, read 547.7 MB/s (reached, rounds 2-6, QD32)
 *   SNIA IOPS      ... (not_yet, steady state predicted at round 4, SNIA window not completed,
 *                  rounds 1-4, ...): a run stopped on an early verdict (docs/early-verdict.md)
 *   SNIA fast      fast run, not a PTS run: sprandom precondition, 5 tracking rounds of the
 *                  tracked cell (phase 2), 2 matrix rounds (phase 3), figures from matrix
 *                  round 2: a *-fast profile's block
 *                  (docs/fast-steady-state.md), whose verdict line then names its tracking rounds
 *   SNIA fast      2 of 14 cells of at most 4 KiB not steady over matrix rounds 1-2 by SNIA's
 *                  rule (...): the block's check of its own rounds (analysis/pass_snia_fast.c)
 *   SNIA latency   4k QD1 mean / p99.99: 100% read 87.44 us / 87.45 us*, ... (* fewer than 10
 *                  samples at or beyond the percentile)
 *   SNIA WSAT      steady 3696 IOPS from 3.01x written, plateau 20779 IOPS, drop at 0.89x
 *                  capacity (958.5 MB written)
 * MB of 10^6 bytes, as the PTS reports them; '.' decimals whatever the locale.
 */
#include "cli/headline.h"
#include "cli/headline_fmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"
#include "base/units.h"

/* "4k", "1m", "512": a block size as profiles write it. */
static const char *bs_text(double b, char *buf, size_t len)
{
	uint64_t v = isfinite(b) && b > 0 ? (uint64_t)b : 0;

	if (v && !(v % (1u << 20)))
		snprintf(buf, len, "%" PRIu64 "m", v >> 20);
	else if (v && !(v % 1024))
		snprintf(buf, len, "%" PRIu64 "k", v >> 10);
	else
		snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

/* " (reached, rounds 1-5, QD32)": the verdict and window behind the figures, and the queue. */
static void window_text(struct json_object *e, FILE *f)
{
	const char *v = jsonget_str(e, "verdict"), *q = jsonget_str(e, "queue");
	int64_t lo, hi;

	fputs(" (", f);
	if (v)
		fprintf(f, "%s, ", strcmp(v, "not_reached") ? v : "steady state NOT reached");
	/* stopped on an early verdict: said beside the SNIA verdict (docs/early-verdict.md) */
	if (jsonget_str(e, "reason") && !jsonget_int(e, "early_round", &lo))
		fprintf(f, "steady state predicted at round %" PRId64 ", %s, ", lo,
			jsonget_str(e, "reason"));
	/* a *-fast run: the verdict is the tracking rounds', the figures the matrix rounds' */
	if (!jsonget_int(e, "tracking_first_round", &lo) &&
	    !jsonget_int(e, "tracking_last_round", &hi)) {
		fprintf(f, "tracking rounds %" PRId64 "-%" PRId64 ", matrix ", lo, hi);
		if (!jsonget_int(e, "first_round", &lo) && !jsonget_int(e, "last_round", &hi) &&
		    lo == hi)
			fprintf(f, "round %" PRId64, lo);
		else if (lo < hi)
			fprintf(f, "rounds %" PRId64 "-%" PRId64, lo, hi);
	} else if (!jsonget_int(e, "first_round", &lo) && !jsonget_int(e, "last_round", &hi)) {
		fprintf(f, "rounds %" PRId64 "-%" PRId64, lo, hi);
	}
	if (q && *q)
		fprintf(f, ", %s", q);
	fputc(')', f);
}

static void print_iops(struct json_object *e, FILE *f)
{
	struct json_object *rows;
	char a[48];
	const char *tc = jsonget_str(e, "tracked_cell");

	fprintf(f, "SNIA IOPS      %s %s IOPS", tc ? tc : "-",
		headline_num(jsonget_num(e, "tracked_iops"), 0, a, sizeof(a)));
	window_text(e, f);
	fputc('\n', f);
	if (!json_object_object_get_ex(e, "bs_4k", &rows) || !json_object_array_length(rows))
		return;
	fprintf(f, "SNIA IOPS 4k   by read %%:");
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		struct json_object *r = json_object_array_get_idx(rows, i), *na;
		int64_t mix = -1;

		(void)jsonget_int(r, "rwmix_read", &mix);
		if (json_object_object_get_ex(r, "not_applicable", &na) && na)
			fprintf(f, "%s %" PRId64 "%% n/a", i ? "," : "", mix);
		else
			fprintf(f, "%s %" PRId64 "%% %s", i ? "," : "", mix,
				headline_num(jsonget_num(r, "iops"), 0, a, sizeof(a)));
	}
	fputc('\n', f);
}

static void print_tp(struct json_object *e, FILE *f)
{
	char a[48], b[48], c[48], label[64];

	snprintf(label, sizeof(label), "SNIA TP %s", bs_text(jsonget_num(e, "bs"), c, sizeof(c)));
	fprintf(f, "%-14s write %s MB/s, read %s MB/s", label,
		headline_num(jsonget_num(e, "write_mb_s"), 1, a, sizeof(a)),
		headline_num(jsonget_num(e, "read_mb_s"), 1, b, sizeof(b)));
	window_text(e, f);
	fputc('\n', f);
}

static void print_latency(struct json_object *e, FILE *f)
{
	struct json_object *rows;
	const char *q = jsonget_str(e, "queue");
	char a[48], b[48];
	int few = 0;

	if (!json_object_object_get_ex(e, "bs_4k", &rows) || !json_object_array_length(rows))
		return;
	fprintf(f, "SNIA latency   4k %s mean / p99.99:", q && *q ? q : "-");
	for (size_t i = 0; i < json_object_array_length(rows); i++) {
		struct json_object *r = json_object_array_get_idx(rows, i), *x;
		int64_t mix = -1;
		int thin;

		(void)jsonget_int(r, "rwmix_read", &mix);
		if (json_object_object_get_ex(r, "not_applicable", &x) && x) {
			fprintf(f, "%s %" PRId64 "%% read n/a", i ? "," : "", mix);
			continue;
		}
		thin = json_object_object_get_ex(r, "few_samples", &x) && x &&
		       json_object_get_boolean(x);
		few |= thin;
		fprintf(f, "%s %" PRId64 "%% read %s / %s%s", i ? "," : "", mix,
			headline_dur(jsonget_num(r, "mean_ns"), a, sizeof(a)),
			headline_dur(jsonget_num(r, "p99_99_ns"), b, sizeof(b)), thin ? "*" : "");
	}
	if (few)
		fprintf(f, " (* fewer than 10 samples at or beyond the percentile)");
	/* a *-fast run: its verdict and rounds, which the full test's line leaves to the
	 * steady-state line above the SNIA ones */
	if (jsonget_str(e, "fast"))
		window_text(e, f);
	fputc('\n', f);
}

static void print_wsat(struct json_object *e, FILE *f)
{
	struct json_object *d;
	char a[48], b[48], c[48], x[48];

	fprintf(f, "SNIA WSAT      steady %s IOPS from %sx written, plateau %s IOPS, ",
		headline_num(jsonget_num(e, "steady_iops"), 0, a, sizeof(a)),
		headline_num(jsonget_num(e, "steady_from_x"), 2, b, sizeof(b)),
		headline_num(jsonget_num(e, "plateau_iops"), 0, c, sizeof(c)));
	if (json_object_object_get_ex(e, "drop_x", &d) && d)
		fprintf(f, "drop at %sx capacity (%s MB written)\n",
			headline_num(jsonget_num(e, "drop_x"), 2, a, sizeof(a)),
			headline_num(jsonget_num(e, "drop_bytes") * 1e-6, 1, x, sizeof(x)));
	else
		fprintf(f, "no drop within %sx written\n",
			headline_num(jsonget_num(e, "written_x"), 2, a, sizeof(a)));
}

void headline_print_snia(struct json_object *summary, FILE *f)
{
	struct json_object *h, *arr;

	if (!json_object_object_get_ex(summary, "headline", &h) ||
	    !json_object_object_get_ex(h, "snia", &arr) ||
	    !json_object_is_type(arr, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *e = json_object_array_get_idx(arr, i);
		const char *t = jsonget_str(e, "test");

		if (!t)
			continue;
		if (jsonget_str(e, "fast"))
			fprintf(f, "SNIA fast      %s\n", jsonget_str(e, "fast"));
		if (jsonget_str(e, "fast_rounds"))
			fprintf(f, "SNIA fast      %s\n", jsonget_str(e, "fast_rounds"));
		if (!strcmp(t, "iops"))
			print_iops(e, f);
		else if (!strcmp(t, "throughput"))
			print_tp(e, f);
		else if (!strcmp(t, "latency"))
			print_latency(e, f);
		else if (!strcmp(t, "wsat"))
			print_wsat(e, f);
		else if (!strcmp(t, "xsr"))
			headline_print_snia_xsr(e, f);
		else if (!strcmp(t, "dirth"))
			headline_print_snia_dirth(e, f);
		else if (!strcmp(t, "hir"))
			headline_print_snia_hir(e, f);
		else if (!strcmp(t, "ecw"))
			headline_print_snia_ecw(e, f);
	}
}
