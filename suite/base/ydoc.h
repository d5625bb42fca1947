/* SPDX-License-Identifier: MIT */
/*
 * ydoc: a YAML document as a plain tree with positions, and a schema-driven way to read it.
 *
 * Profiles (profile.c) and virtual-SSD model files (sim_model.c) are YAML; users write them by
 * hand and must get errors like a compiler's: "snia.yaml:12:7: unknown key 'cell_tme' in rounds
 * (did you mean 'cell_time'?)". This module is the one place that talks to libyaml and turns
 * a document into a tree whose every node carries its file, 1-based line and column, and the
 * one place that formats those errors.
 *
 * Layers:
 *   1. The tree: ydoc_parse_string() / ydoc_parse_file() -> struct ydoc. Scalars, sequences and
 *      mappings; mapping keys keep their document order; keys must be scalars; a duplicate key
 *      is an error; anchors, aliases and tags are refused (a profile must read the same to a
 *      human and to ssdlab); exactly one document.
 *   2. Overrides: ydoc_set_path(doc, "phases.2.rounds.cell_time", "30s") replaces a scalar (or
 *      adds a key to an existing mapping) before validation, for `--set KEY=VALUE`.
 *   3. The schema: a parser is a table of struct ydoc_key (name, kind, required, bounds, where
 *      to store). ydoc_map_read() walks a mapping against it and reports the first problem in
 *      document order: unknown key (with the nearest valid name by edit distance), wrong type
 *      ("expected a duration such as 60s, 5m or 24h, got 'fast'"), out of range, and, at the
 *      position of the mapping, a missing required key.
 *
 * Every function that can fail returns 0 or -errno (-EINVAL for a document error, with `err`
 * filled; -ENOMEM; -ENOENT / -EACCES for files) and leaves its outputs untouched on failure.
 */
#ifndef SSDLAB_YDOC_H
#define SSDLAB_YDOC_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/units.h"

/* ---- errors --------------------------------------------------------------------------------- */

#define YDOC_FILE_MAX 256
#define YDOC_MSG_MAX 512

/* A user-facing error at a place in a file. line/col are 1-based; 0 when not applicable (e.g.
 * a file that cannot be opened). Shared by profile and model parsing. */
struct ydoc_error {
	char file[YDOC_FILE_MAX];
	int line, col;
	char msg[YDOC_MSG_MAX];
};

/* "file:line:col: message" (or "file: message" without a position). Returns buf. */
const char *ydoc_error_format(const struct ydoc_error *e, char *buf, size_t len);

/* ---- the tree ------------------------------------------------------------------------------- */

enum ydoc_type { YDOC_SCALAR = 0, YDOC_SEQUENCE, YDOC_MAPPING };

struct ydoc_node;

struct ydoc_pair {
	struct ydoc_node *key; /* always a scalar */
	struct ydoc_node *value;
};

struct ydoc_node {
	enum ydoc_type type;
	int line, col;	  /* 1-based, where the node starts */
	const char *file; /* the document's file name (owned by the doc) */

	/* YDOC_SCALAR: NUL-terminated text (a NUL inside the scalar is refused by the parser). */
	char *text;
	bool quoted; /* written with quotes or as a block scalar: never null, never a number */

	/* YDOC_SEQUENCE: items[0..n); YDOC_MAPPING: pairs[0..n) in document order. */
	size_t n;
	struct ydoc_node **items;
	struct ydoc_pair *pairs;
};

struct ydoc {
	char *file;
	struct ydoc_node *root; /* NULL for an empty document */
};

/*
 * Parses text[0..len) (need not be NUL-terminated) into a tree. `file` names the source in
 * errors ("<string>" when NULL). On success *out owns everything; free it with ydoc_free().
 */
int ydoc_parse_string(const char *text, size_t len, const char *file, struct ydoc **out,
		      struct ydoc_error *err);
/* Reads and parses a file (at most 16 MiB). If text is non-NULL, also returns the raw bytes
 * (malloc'ed, NUL-terminated; the caller frees) and their length in *text_len. */
int ydoc_parse_file(const char *path, struct ydoc **out, char **text, size_t *text_len,
		    struct ydoc_error *err);
void ydoc_free(struct ydoc *doc);

/* The value for `key` in a mapping, or NULL (also when map is not a mapping). */
struct ydoc_node *ydoc_map_get(const struct ydoc_node *map, const char *key);
/* The key node of `key` in a mapping (for positions), or NULL. */
struct ydoc_node *ydoc_map_key(const struct ydoc_node *map, const char *key);

/* Human name of a node's type: "a scalar", "a list", "a mapping". */
const char *ydoc_type_name(enum ydoc_type t);

/*
 * Fills err at node `at` (its file, line, col; or just the file when at is NULL) with a
 * printf-style message and returns -EINVAL, so that parsers can `return ydoc_errorf(...)`.
 * err may be NULL (then only -EINVAL is returned).
 */
int ydoc_errorf(struct ydoc_error *err, const struct ydoc_node *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int ydoc_verrorf(struct ydoc_error *err, const struct ydoc_node *at, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* ---- overrides ------------------------------------------------------------------------------ */

/*
 * Sets the scalar at a dotted path to `value`: "name", "phases.2.rounds.cell_time",
 * "phases.0.precondition.amount". List indexes are 0-based numbers. The last component may be a
 * key that the mapping lacks (it is appended); every earlier component must exist. The new
 * scalar is unquoted (typed like a plain YAML scalar) and carries the position of the node it
 * replaces (of the mapping, when added) so that a bad value is still reported somewhere useful.
 * Errors (-EINVAL, err filled with file = "--set" and no position): empty path, a component
 * that does not exist ("--set phases.9: the list has 3 items"), a path through a scalar, a
 * path naming a list or mapping (only scalars are replaced).
 */
int ydoc_set_path(struct ydoc *doc, const char *path, const char *value, struct ydoc_error *err);

/*
 * The same with a node as the value (a profile's `set: {PATH: VALUE}`, where VALUE may be a
 * mapping or a list): a deep copy of `value` replaces the node at `path` (or is added as the
 * last key), keeping value's positions and file name, so the copy must not outlive the
 * document `value` came from. Errors as ydoc_set_path()'s.
 */
int ydoc_set_node(struct ydoc *doc, const char *path, const struct ydoc_node *value,
		  struct ydoc_error *err);

/* A deep copy of n (positions and the file name pointer kept). 0 or -ENOMEM. */
int ydoc_node_copy(const struct ydoc_node *n, struct ydoc_node **out);
/* Frees a node made by ydoc_node_copy() (or detached from a document); accepts NULL. */
void ydoc_node_free(struct ydoc_node *n);
/* Removes (and frees) item i of a list: 0, or -EINVAL when seq is no list or i is past it. */
int ydoc_seq_remove(struct ydoc_node *seq, size_t i);
/* Removes (and frees) `key` and its value from a mapping: 0, -ENOENT when absent, -EINVAL when
 * map is no mapping. */
int ydoc_map_remove(struct ydoc_node *map, const char *key);

/* Splits "KEY=VALUE" and calls ydoc_set_path(). -EINVAL with err filled when there is no '='. */
int ydoc_set_assignment(struct ydoc *doc, const char *assignment, struct ydoc_error *err);

/* ---- the schema ----------------------------------------------------------------------------- */

enum ydoc_kind {
	YK_STRING = 0, /* const char * into the tree (valid while the doc lives) */
	YK_BOOL,       /* bool: true/false/yes/no/on/off */
	YK_INT,	       /* int64_t */
	YK_UINT,       /* unsigned (bounded by min/max; default 0..UINT_MAX) */
	YK_U64,	       /* uint64_t, decimal or 0x hex */
	YK_DOUBLE,     /* double */
	YK_SIZE,       /* uint64_t bytes (units_parse_size) */
	YK_DURATION,   /* uint64_t ns (units_parse_duration) */
	YK_PERCENT,    /* double fraction 0..1 ("20%" or 20) */
	YK_AMOUNT,     /* struct amount (units_parse_amount) */
	YK_RANGE,      /* struct range (units_parse_range) */
	YK_ENUM,       /* int index into enum_names */
	YK_MAPPING,    /* const struct ydoc_node * (checked to be a mapping) */
	YK_SEQUENCE,   /* const struct ydoc_node * (checked to be a list) */
	YK_ANY,	       /* const struct ydoc_node * (anything; the caller checks) */
};

struct ydoc_key {
	const char *name;
	enum ydoc_kind kind;
	bool required;
	size_t offset; /* where to store the value in the destination struct (offsetof) */
	/* Bounds, checked when `bounded`, in the kind's own unit: bytes, ns, the fraction for
	 * percents (0.2 = 20%), the number for ints/doubles. Inclusive. */
	bool bounded;
	double min, max;
	uint64_t
	    align; /* YK_SIZE, and YK_RANGE / YK_AMOUNT in bytes: must be a multiple (0 = any) */
	const char *const *enum_names; /* YK_ENUM: NULL-terminated */
	const char *expect;	       /* overrides the "expected ..." text for this key */
};

/*
 * Converts one node as `key` says (its name is only used in messages) and stores the value at
 * `out` (the address of a field of the key's type). Errors at the node: wrong type, bad unit,
 * out of range, not aligned.
 */
int ydoc_convert(const struct ydoc_node *n, const struct ydoc_key *key, void *out,
		 struct ydoc_error *err);

/*
 * Reads mapping `map` against `keys` (terminated by an entry with name NULL) into the struct at
 * `dst`: every value is converted with ydoc_convert() and stored at dst + key->offset. `ctx`
 * names the mapping in messages ("rounds", "the profile"). Bit i of *present (if not NULL) is
 * set when keys[i] appeared (at most 64 keys). An empty plain value (YAML null, "purge:" with
 * nothing after it) reads as an empty mapping. Errors, first in document order: map is not a
 * mapping; unknown key ("unknown key 'cell_tme' in rounds (did you mean 'cell_time'?)"); a bad
 * value; then a missing required key, reported at the mapping ("missing required key 'time'
 * in idle"). On failure dst may be partly written.
 */
int ydoc_map_read(const struct ydoc_node *map, const char *ctx, const struct ydoc_key *keys,
		  void *dst, uint64_t *present, struct ydoc_error *err);

/*
 * The same over several key tables at once, each with its own destination (a workload's keys
 * plus a phase's own keys in one mapping): unknown-key suggestions come from all tables.
 * At most YDOC_SCHEMA_MAX tables of at most 64 keys each; a name in two tables goes to the first.
 */
#define YDOC_SCHEMA_MAX 4
#define YDOC_SCHEMA_MAX_KEYS 128
struct ydoc_schema {
	const struct ydoc_key *keys;
	void *dst;
	uint64_t *present; /* may be NULL */
};
int ydoc_map_read_multi(const struct ydoc_node *map, const char *ctx,
			const struct ydoc_schema *schemas, size_t nschemas, struct ydoc_error *err);

/* The valid name nearest to `name` by edit distance among `names` (NULL-terminated), or NULL
 * when none is close enough to be a plausible typo. */
const char *ydoc_nearest(const char *name, const char *const *names);

/* "expected ..." text for a kind (e.g. units_expect_duration() for YK_DURATION). */
const char *ydoc_kind_expect(enum ydoc_kind kind);

#endif
