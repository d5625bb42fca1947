/* SPDX-License-Identifier: MIT */
/*
 * pts: a profile's `pts:` block, the SNIA PTS operator settings of one test (docs/profiles.md,
 * "SNIA PTS settings"):
 *
 *   pts: {test: iops, spec: "PTS-E 1.1 / PTS 2.0.1", variant: enterprise, active_range: 100%,
 *         active_range_amount: 16g, segments: 2048, data_pattern: random, fast: false}
 *
 * The variant is one setting that changes what PTS-C changes against PTS-E, so that a Client
 * profile is its Enterprise one with `set: {pts.variant: client}` (profile extends), not a copy:
 *   - the volatile write cache: Enterprise off, Client on (profile.c sets `write_cache:` from
 *     it; an explicit `write_cache:` wins);
 *   - the TC x QD of a measured phase (rounds, write_until) that gives no `queue:`: IOPS PTS-E
 *     TC4/QD32, PTS-C TC2/QD16 (PTS 2.0.1 p.27 as the reference quotes it); latency TC1/QD1 for
 *     both; throughput and WSAT keep the profile's;
 *   - the ActiveRange when not given: Enterprise 100%, Client 75% (an [I] reading of PTS 2.0.1
 *     7.2, docs/profiles.md);
 *   - phases kept for some variants only: a top-level phase item's `pts_variant: enterprise`
 *     (or a list) beside its kind drops it for the others (PTS-C throughput: 1024 KiB only).
 * The ActiveRange Amount (PTS-C: 8 or 16 GiB in 2048 segments) is an operator choice here,
 * none unless given, for either variant.
 *
 * pts_prepare() works on the document tree before the phases are parsed: it reads the block
 * into struct profile_pts (with the variant's defaults filled in) and removes the phase items
 * the variant does not run. The parse context then carries pts.settings to every workload
 * (profile/phases.h, struct phase_pts_settings).
 */
#ifndef SSDLAB_PTS_H
#define SSDLAB_PTS_H

#include <stdbool.h>
#include <stdint.h>

#include "profile/phases.h"
#include "base/ydoc.h"

struct json_object;

enum pts_test {
	PTS_TEST_IOPS = 0,
	PTS_TEST_THROUGHPUT,
	PTS_TEST_LATENCY,
	PTS_TEST_WSAT,
	PTS_TEST_XSR, /* cross-stimulus recovery (issue 16) */
	PTS_TEST_DIRTH, /* demand intensity / response-time histogram (issue 16) */
	PTS_TEST_HIR, /* host idle recovery (issue 16): also pins the power states */
	PTS_TEST_ECW, /* Enterprise Composite Workload (PTS-E only: see pts.c) */
	PTS_TEST_COUNT /* how many tests (not a test) */
};
enum pts_variant { PTS_ENTERPRISE = 0, PTS_CLIENT };

#define PTS_SEGMENTS_DEFAULT 2048u

struct profile_pts {
	bool set; /* the profile has a pts: block (all else is meaningless without it) */
	enum pts_test test;
	char spec[64]; /* the version followed, as written ("PTS-E 1.1 / PTS 2.0.1") */
	enum pts_variant variant;
	double active_range;	     /* fraction of the LBAs, (0, 1] */
	uint64_t amount;	     /* ActiveRange Amount in bytes, 0 = none */
	unsigned segments;	     /* the Amount's segments (default 2048) */
	bool write_cache_on;	     /* what the variant asks of the write cache */
	bool fast; /* `fast: true`: the *-fast shape (docs/fast-steady-state.md): a tracking rounds
		    * phase with the steady-state rule, then the measured rounds over a fixed count;
		    * the analysis makes one SNIA block of the two */
	struct phase_pts_settings settings; /* what reaches the workloads */
};

/* "iops", "throughput", "latency", "wsat", "xsr", "dirth", "hir", "ecw"; "enterprise", "client". */
const char *pts_test_name(enum pts_test t);
const char *pts_variant_name(enum pts_variant v);

/*
 * Reads doc's top-level `pts:` into *out (out->set false when there is none) and removes the
 * top-level phase items whose `pts_variant:` excludes the variant (and the key from the others).
 * 0, or -EINVAL with err at the offending node (a bad pts key or value, pts_variant without a
 * pts block, a pts_variant that drops every phase), -ENOMEM.
 */
int pts_prepare(struct ydoc *doc, struct profile_pts *out, struct ydoc_error *err);

/* The block as resolved, for the manifest's plan: {test, spec, variant, active_range,
 * active_range_amount, segments, data_pattern, fast}. New reference; NULL on -ENOMEM. */
struct json_object *pts_to_json(const struct profile_pts *pts);

#endif
