/* SPDX-License-Identifier: MIT */
/*
 * endurance: what `ssdlab plan` says about a profile's writes against the drive's rated endurance
 * (the user's --tbw, else the drive database's row for the model), and what `run` records of it.
 */
#ifndef SSDLAB_CLI_ENDURANCE_H
#define SSDLAB_CLI_ENDURANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct target_info;
struct json_object;

/* The rated endurance a command works with: bytes, and where it comes from. */
struct cli_rated {
	bool known;
	double bytes;	   /* TB x 10^12 */
	char source[512];  /* "--tbw" or "drive database: ENTRY (SOURCE)" */
};

/*
 * The rating for target ti: user_tbw (TB, > 0) when given, else the drive database's endurance
 * row for its model (read-only lookup of profiles/drives/drives.yaml; a block device only).
 * Never fails: unknown is known = false.
 */
void cli_rated_endurance(const struct target_info *ti, double user_tbw, struct cli_rated *out);

/*
 * The line `plan` prints: "this profile writes 1.20 TB = 0.20% of the rated 600 TBW (SOURCE)",
 * "at least" before the bytes when the figure is a lower bound (a time-bound phase). Decimal TB
 * (10^12 bytes), as drives are rated. Returns buf.
 */
const char *cli_endurance_line(uint64_t bytes, bool lower_bound, const struct cli_rated *r,
			       char *buf, size_t len);

/* The manifest's "rated_endurance": {tbw, bytes, source}; NULL when unknown or out of memory. */
struct json_object *cli_rated_json(const struct cli_rated *r);

#endif
