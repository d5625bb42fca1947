/* SPDX-License-Identifier: MIT */
/*
 * headline_snia_ecw: the headline's lines for SNIA ECW (headline.h), from summary.json's
 * headline.snia entries of test "ecw" (analysis/pass_headline.c), one per block:
 *   SNIA ECW PC    25 rounds: 25387 IOPS first, 6927 IOPS last
 *   SNIA ECW       max 2819 IOPS at TC32/QD1 (TOIO 32), TC1/QD1 422 IOPS mean 2.37 ms (10 rounds)
 * and, on a device that cannot run some sizes of the mix, "; 7 sizes not applicable, the
 * other weights renormalised" before the closing parenthesis. '.' decimals whatever the locale.
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

void headline_print_snia_ecw(struct json_object *e, FILE *f)
{
	const char *stage = jsonget_str(e, "stage");
	char a[48], b[48], c[48];
	int64_t rounds = -1, t = -1, q = -1, toio = -1, dropped = 0;

	(void)jsonget_int(e, "rounds", &rounds);
	if (stage && !strcmp(stage, "precondition")) {
		fprintf(f, "SNIA ECW PC    %" PRId64 " rounds: %s IOPS first, %s IOPS last\n",
			rounds, headline_num(jsonget_num(e, "first_iops"), 0, a, sizeof(a)),
			headline_num(jsonget_num(e, "last_iops"), 0, b, sizeof(b)));
		return;
	}
	(void)jsonget_int(e, "max_threads", &t);
	(void)jsonget_int(e, "max_qd", &q);
	(void)jsonget_int(e, "max_toio", &toio);
	(void)jsonget_int(e, "bs_dropped", &dropped);
	fprintf(f,
		"SNIA ECW       max %s IOPS at TC%" PRId64 "/QD%" PRId64 " (TOIO %" PRId64
		"), TC1/QD1 %s IOPS mean %s (%" PRId64 " rounds",
		headline_num(jsonget_num(e, "max_iops"), 0, a, sizeof(a)), t, q, toio,
		headline_num(jsonget_num(e, "tc1_qd1_iops"), 0, b, sizeof(b)),
		headline_dur(jsonget_num(e, "tc1_qd1_lat_mean_ns"), c, sizeof(c)), rounds);
	if (dropped > 0)
		fprintf(f, "; %" PRId64 " size%s not applicable, the other weights renormalised",
			dropped, dropped == 1 ? "" : "s");
	fputs(")\n", f);
}
