/* SPDX-License-Identifier: MIT */
/*
 * drivedb_endurance: a drive's rated endurance and raw NAND size from the drive database
 * (drivedb.h: drivedb_read_endurance() and drivedb_read_raw_nand() for the loader,
 * drivedb_rated_endurance(), drivedb_raw_nand_bytes()): rows of an entry that a regex selects
 * among its models, each with its source. The regexes are compiled
 * when a row is read (to report a bad one at its line) and again at lookup, which happens once
 * per command.
 */
#include "host/drivedb.h"

#include <errno.h>
#include <regex.h>
#include <stddef.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

struct endurance_raw {
	const char *match, *source;
	double tbw, tbw_per_tb;
};

/* clang-format off */
static const struct ydoc_key endurance_keys[] = {
	{.name = "match", .kind = YK_STRING, .required = true,
	 .offset = offsetof(struct endurance_raw, match)},
	{.name = "tbw", .kind = YK_DOUBLE, .bounded = true, .min = 0.001, .max = 1e7,
	 .offset = offsetof(struct endurance_raw, tbw)},
	{.name = "tbw_per_tb", .kind = YK_DOUBLE, .bounded = true, .min = 0.001, .max = 1e6,
	 .offset = offsetof(struct endurance_raw, tbw_per_tb)},
	{.name = "source", .kind = YK_STRING, .required = true,
	 .offset = offsetof(struct endurance_raw, source)},
	{0},
};
/* clang-format on */

int drivedb_read_endurance(const struct ydoc_node *n, struct drivedb_endurance *out,
			   struct ydoc_error *err)
{
	struct endurance_raw raw = {0};
	uint64_t present = 0;
	regex_t re;
	int ret = ydoc_map_read(n, "endurance", endurance_keys, &raw, &present, err);

	if (ret < 0)
		return ret;
	/* bit 1: tbw, bit 2: tbw_per_tb (endurance_keys' order) */
	if (((present >> 1) & 1) == ((present >> 2) & 1))
		return ydoc_errorf(err, n, "an endurance row needs exactly one of tbw and tbw_per_tb");
	if (!raw.source[0])
		return ydoc_errorf(err, ydoc_map_get(n, "source"),
				   "empty source in an endurance row: cite the document that rates "
				   "the drive");
	ret = regcomp(&re, raw.match, REG_EXTENDED | REG_NOSUB);
	if (ret) {
		char msg[128];

		regerror(ret, &re, msg, sizeof(msg));
		return ydoc_errorf(err, ydoc_map_get(n, "match"), "bad regular expression '%s': %s",
				   raw.match, msg);
	}
	regfree(&re);
	*out = (struct drivedb_endurance){.match = raw.match,
					  .source = raw.source,
					  .per_tb = (present >> 2) & 1,
					  .tbw = (present >> 2) & 1 ? raw.tbw_per_tb : raw.tbw};
	return 0;
}

/* Whether a row's model pattern matches model: 1, 0, or -ENOMEM (the pattern compiled when the
 * database was loaded, so only memory can fail here). */
static int row_matches(const char *pattern, const char *model)
{
	regex_t re;
	int hit;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB))
		return -ENOMEM;
	hit = !regexec(&re, model, 0, NULL, 0);
	regfree(&re);
	return hit;
}

int drivedb_rated_endurance(const struct drivedb_entry *e, const char *model, uint64_t capacity,
			    double *bytes, const char **source)
{
	for (size_t i = 0; e && model && i < e->n_endurance; i++) {
		const struct drivedb_endurance *d = &e->endurance[i];
		int hit = row_matches(d->match, model);

		if (hit < 0)
			return hit;
		if (!hit)
			continue;
		/* TB as vendors rate drives: 10^12 bytes */
		*bytes = d->per_tb ? d->tbw * (double)capacity : d->tbw * 1e12;
		*source = d->source;
		return 0;
	}
	return -ENOENT;
}

struct raw_nand_raw {
	const char *match, *source;
	double gib;
};

/* clang-format off */
static const struct ydoc_key raw_nand_keys[] = {
	{.name = "match", .kind = YK_STRING, .required = true,
	 .offset = offsetof(struct raw_nand_raw, match)},
	{.name = "gib", .kind = YK_DOUBLE, .required = true, .bounded = true, .min = 1,
	 .max = 1048576, .offset = offsetof(struct raw_nand_raw, gib)},
	{.name = "source", .kind = YK_STRING, .required = true,
	 .offset = offsetof(struct raw_nand_raw, source)},
	{0},
};
/* clang-format on */

/* Compiles `match` once to report a bad one at its node. */
static int check_regex(const struct ydoc_node *n, const char *match, struct ydoc_error *err)
{
	regex_t re;
	int ret = regcomp(&re, match, REG_EXTENDED | REG_NOSUB);

	if (ret) {
		char msg[128];

		regerror(ret, &re, msg, sizeof(msg));
		return ydoc_errorf(err, ydoc_map_get(n, "match"), "bad regular expression '%s': %s",
				   match, msg);
	}
	regfree(&re);
	return 0;
}

int drivedb_read_raw_nand(const struct ydoc_node *n, struct drivedb_raw_nand *out,
			  struct ydoc_error *err)
{
	struct raw_nand_raw raw = {0};
	int ret = ydoc_map_read(n, "raw_nand", raw_nand_keys, &raw, NULL, err);

	if (ret < 0)
		return ret;
	if (!raw.source[0])
		return ydoc_errorf(err, ydoc_map_get(n, "source"),
				   "empty source in a raw_nand row: cite the datasheet or teardown "
				   "that states the drive's NAND");
	if (!raw.match[0])
		return ydoc_errorf(err, ydoc_map_get(n, "match"),
				   "empty match in a raw_nand row: a raw NAND size belongs to one "
				   "capacity, so the row names its models");
	ret = check_regex(n, raw.match, err);
	if (ret)
		return ret;
	*out = (struct drivedb_raw_nand){.match = raw.match,
					 .source = raw.source,
					 .bytes = (uint64_t)llround(raw.gib * 1073741824.0)};
	return 0;
}

int drivedb_raw_nand_bytes(const struct drivedb_entry *e, const char *model, uint64_t *bytes,
			   const char **source)
{
	for (size_t i = 0; e && model && i < e->n_raw_nand; i++) {
		const struct drivedb_raw_nand *d = &e->raw_nand[i];
		int hit = row_matches(d->match, model);

		if (hit < 0)
			return hit;
		if (!hit)
			continue;
		*bytes = d->bytes;
		*source = d->source;
		return 0;
	}
	return -ENOENT;
}
