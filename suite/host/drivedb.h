/* SPDX-License-Identifier: MIT */
/*
 * drivedb: the drive database (profiles/drives/drives.yaml): for a drive model, which SMART counters
 * hold host writes and NAND writes, in which units, and the document each entry comes from.
 * This module loads the file through base/ydoc (so a bad entry is reported at file:line:col),
 * finds the entry for a model string, and computes host bytes, NAND bytes and write
 * amplification from two counter snapshots. It reads no device: the live SMART reading is
 * elsewhere and hands the counters over as plain (name, before, after) rows.
 */
#ifndef SSDLAB_DRIVEDB_H
#define SSDLAB_DRIVEDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/ydoc.h"

enum drivedb_transport { DRIVEDB_ATA = 0, DRIVEDB_NVME };

/* A counter's unit. PAGE is a NAND page of unknown size: only page ratios mean anything. */
enum drivedb_unit {
	DRIVEDB_U_512B = 0,
	DRIVEDB_U_32MIB,
	DRIVEDB_U_1GIB,
	DRIVEDB_U_1GB,
	DRIVEDB_U_1B,
	DRIVEDB_U_512000B,
	DRIVEDB_U_PAGE,
};

enum drivedb_wa_rule {
	DRIVEDB_WA_NAND_OVER_HOST = 0, /* WA = NAND bytes / host bytes */
	DRIVEDB_WA_PAGES_RATIO,	       /* WA = (d host_pages + d nand) / d host_pages (Micron) */
};

enum drivedb_combine { DRIVEDB_SUM = 0, DRIVEDB_FIRST };

#define DRIVEDB_MAX_NAND 4

/* Which NAND writes a counter holds, where a drive reports SLC and TLC writes apart. */
enum drivedb_part { DRIVEDB_PART_TOTAL = 0, DRIVEDB_PART_SLC, DRIVEDB_PART_TLC };

struct drivedb_counter {
	const char *counter; /* "ata:241", "nvme:smart.data_units_written", ... */
	enum drivedb_unit unit;
	bool verified; /* false: no source confirms the unit */
	enum drivedb_part part; /* YAML `part: slc | tlc`; total when absent */
};

/* A rated endurance (what the vendor warrants as total host writes), for the models of an entry
 * that `match` selects: absolute (tbw, in TB of 10^12 bytes) or per TB of the drive's capacity
 * (tbw_per_tb), with the document that states it. */
#define DRIVEDB_MAX_ENDURANCE 8
struct drivedb_endurance {
	const char *match, *source;
	bool per_tb;
	double tbw; /* TB written, or TB written per TB of capacity when per_tb */
};

/* A raw NAND capacity (all the flash on the board, user capacity and spare together), for the
 * models of an entry that `match` selects, with the document that states it (a datasheet or a
 * teardown that counts the packages). The sprandom fill's spare: auto uses it on a drive. */
#define DRIVEDB_MAX_RAW_NAND 8
struct drivedb_raw_nand {
	const char *match, *source;
	uint64_t bytes;
};

/* Model strings an entry lists as examples of what it must match (examples) and of a
 * neighbouring family it must not (not_examples): data for the test and for `ssdlab drives`. */
#define DRIVEDB_MAX_EXAMPLES 40

struct drivedb_entry {
	const char *name, *match, *source, *note; /* note may be NULL */
	enum drivedb_transport transport;
	int line;		    /* where the entry starts in the file */
	struct drivedb_counter host;
	bool has_host_pages;
	struct drivedb_counter host_pages;
	size_t n_nand; /* 0: no NAND-write counter known */
	struct drivedb_counter nand[DRIVEDB_MAX_NAND];
	enum drivedb_combine combine;
	enum drivedb_wa_rule wa;
	bool compresses; /* the controller compresses: WA < 1 is expected */
	size_t n_endurance; /* 0: no rated endurance known */
	struct drivedb_endurance endurance[DRIVEDB_MAX_ENDURANCE];
	size_t n_raw_nand; /* 0: no raw NAND size known */
	struct drivedb_raw_nand raw_nand[DRIVEDB_MAX_RAW_NAND];
	size_t n_examples, n_not_examples; /* strings point into the database */
	const char *examples[DRIVEDB_MAX_EXAMPLES];
	const char *not_examples[DRIVEDB_MAX_EXAMPLES];
};

struct drivedb;

/* Loads and checks the database at `path`. On success *out owns it (drivedb_free()). Errors:
 * -ENOENT/-EACCES (err holds the file), -EINVAL with err at the offending node's file:line:col
 * (unknown key, bad unit or transport, a regex regcomp refuses, a missing source, an example
 * that is not a non-empty string), -ENOMEM. Examples are loaded, not checked against the
 * regex: a wrong one is the test's to find, not every command's to refuse. */
int drivedb_load(const char *path, struct drivedb **out, struct ydoc_error *err);
/* The same over text in memory; `file` names it in errors. */
int drivedb_load_string(const char *text, size_t len, const char *file, struct drivedb **out,
			struct ydoc_error *err);
void drivedb_free(struct drivedb *db);

/* The bundled database's path, found as profiles and models are: drives/drives.yaml under the
 * profiles directory next to the running program (base/datadir.h: an installed or staged copy
 * reads its own), else the source tree's, else the configured prefix's. Writes the first that
 * is readable into buf; when none is, the prefix's (so the error names where it should be).
 * Returns 0, or -ENAMETOOLONG (buf untouched). */
int drivedb_default_path(char *buf, size_t len);

size_t drivedb_count(const struct drivedb *db);
const struct drivedb_entry *drivedb_entry(const struct drivedb *db, size_t i);

/* The first entry (in file order) of `transport` whose regex matches `model`, or NULL. The
 * returned entry lives as long as db. */
const struct drivedb_entry *drivedb_lookup(const struct drivedb *db,
					   enum drivedb_transport transport, const char *model);

const char *drivedb_unit_name(enum drivedb_unit u);
const char *drivedb_transport_name(enum drivedb_transport t);
/* Bytes in one unit; 0 for DRIVEDB_U_PAGE (unknown size). */
uint64_t drivedb_unit_bytes(enum drivedb_unit u);

/* One counter's values at the start and the end of a window. */
struct drivedb_reading {
	const char *counter;
	uint64_t before, after;
};

#define DRIVEDB_REASON_MAX 192

struct drivedb_wa {
	bool host_known;
	double host_bytes; /* d host counter x its unit */
	bool nand_known;   /* NAND bytes known (false for page counters: see wa) */
	double nand_bytes;
	bool wa_known; /* false: wa is null, reason says why */
	double wa;
	bool compression; /* wa < 1: the controller compressed the data */
	bool unverified;  /* a unit used here is not confirmed by a source */
	char reason[DRIVEDB_REASON_MAX];
};

/*
 * Pure: computes the window's host bytes, NAND bytes and WA per `e` from the readings (the
 * counters' before/after values; extra rows are ignored). `e` may be NULL (no entry for the
 * model). WA is null (wa_known false) with a reason: "no NAND-write counter known for MODEL"
 * when the entry has none (or e is NULL, or no listed NAND counter was read, or all read 0 with
 * nand_combine first); "no host writes in the window" when the host delta is 0. A counter that
 * went backwards returns -ERANGE; *out is left untouched on failure. Returns 0.
 */
int drivedb_compute_wa(const struct drivedb_entry *e, const char *model,
		       const struct drivedb_reading *r, size_t n, struct drivedb_wa *out);

/*
 * The rated endurance of `model` (capacity bytes) from entry e: the first of its endurance rows
 * whose regex matches, in bytes (tbw x 10^12, or tbw_per_tb x capacity). 0 with *bytes and
 * *source (pointing into the database) set; -ENOENT when e is NULL or no row matches (outputs
 * untouched); -ENOMEM.
 */
int drivedb_rated_endurance(const struct drivedb_entry *e, const char *model, uint64_t capacity,
			    double *bytes, const char **source);

/*
 * The raw NAND bytes of `model` from entry e: the first of its raw_nand rows whose regex
 * matches. 0 with *bytes and *source (pointing into the database) set; -ENOENT when e or model
 * is NULL or no row matches (outputs untouched); -ENOMEM.
 */
int drivedb_raw_nand_bytes(const struct drivedb_entry *e, const char *model, uint64_t *bytes,
			   const char **source);

/* For drivedb.c (drivedb_endurance.c): reads one `raw_nand:` row {match, gib, source} into
 * *out (gib: GiB of 2^30 bytes, 1 to 2^20); 0, or -EINVAL with err at the node. */
int drivedb_read_raw_nand(const struct ydoc_node *n, struct drivedb_raw_nand *out,
			  struct ydoc_error *err);

/* For drivedb.c (drivedb_endurance.c): reads one `endurance:` row {match, tbw | tbw_per_tb,
 * source} into *out (strings point into the tree); the regex is compiled once to check it.
 * 0, or -EINVAL with err at the node (*out untouched). */
int drivedb_read_endurance(const struct ydoc_node *n, struct drivedb_endurance *out,
			   struct ydoc_error *err);

#endif
