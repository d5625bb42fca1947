/* SPDX-License-Identifier: MIT */
/*
 * drivedb: loading profiles/drives/drives.yaml, looking a model up, and the WA arithmetic. The file's
 * format is described at its top; the contract is in drivedb.h.
 */
#include "host/drivedb.h"

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/datadir.h"
#include "config.h"

struct drivedb {
	struct ydoc *doc; /* the entries' strings point into it */
	size_t n;
	struct drivedb_entry *e;
	regex_t *re; /* re[i] compiled from e[i].match */
};

static const char *const transport_names[] = {"ata", "nvme", NULL};
static const char *const unit_names[] = {"512B", "32MiB", "1GiB", "1GB", "1B", "512000B", "page",
					 NULL};
static const char *const wa_names[] = {"nand_over_host", "pages_ratio", NULL};
static const char *const combine_names[] = {"sum", "first", NULL};
static const char *const part_names[] = {"total", "slc", "tlc", NULL};

const char *drivedb_unit_name(enum drivedb_unit u)
{
	return unit_names[u];
}

const char *drivedb_transport_name(enum drivedb_transport t)
{
	return transport_names[t];
}

uint64_t drivedb_unit_bytes(enum drivedb_unit u)
{
	switch (u) {
	case DRIVEDB_U_512B:
		return 512;
	case DRIVEDB_U_32MIB:
		return 32ull << 20;
	case DRIVEDB_U_1GIB:
		return 1ull << 30;
	case DRIVEDB_U_1GB:
		return 1000000000ull;
	case DRIVEDB_U_1B:
		return 1;
	case DRIVEDB_U_512000B:
		/* NVMe data unit: thousands of 512-byte units (NVMe base spec, log 0x02). */
		return 512000;
	case DRIVEDB_U_PAGE:
		break;
	}
	return 0;
}

struct counter_raw {
	const char *counter;
	int unit;
	bool verified;
	int part;
};

/* clang-format off */
static const struct ydoc_key counter_keys[] = {
	{.name = "counter", .kind = YK_STRING, .required = true,
	 .offset = offsetof(struct counter_raw, counter)},
	{.name = "unit", .kind = YK_ENUM, .required = true, .enum_names = unit_names,
	 .offset = offsetof(struct counter_raw, unit)},
	{.name = "verified", .kind = YK_BOOL, .offset = offsetof(struct counter_raw, verified)},
	{.name = "part", .kind = YK_ENUM, .enum_names = part_names,
	 .offset = offsetof(struct counter_raw, part)},
	{0},
};

struct entry_raw {
	const char *name, *match, *source, *note;
	int transport, wa, combine;
	bool compresses;
	const struct ydoc_node *host, *host_pages, *nand, *endurance, *raw_nand, *examples,
	    *not_examples;
};

static const struct ydoc_key entry_keys[] = {
	{.name = "name", .kind = YK_STRING, .required = true, .offset = offsetof(struct entry_raw, name)},
	{.name = "match", .kind = YK_STRING, .required = true,
	 .offset = offsetof(struct entry_raw, match)},
	{.name = "transport", .kind = YK_ENUM, .required = true, .enum_names = transport_names,
	 .offset = offsetof(struct entry_raw, transport)},
	{.name = "host", .kind = YK_MAPPING, .required = true,
	 .offset = offsetof(struct entry_raw, host)},
	{.name = "host_pages", .kind = YK_MAPPING, .offset = offsetof(struct entry_raw, host_pages)},
	{.name = "nand", .kind = YK_SEQUENCE, .offset = offsetof(struct entry_raw, nand)},
	{.name = "nand_combine", .kind = YK_ENUM, .enum_names = combine_names,
	 .offset = offsetof(struct entry_raw, combine)},
	{.name = "wa", .kind = YK_ENUM, .enum_names = wa_names, .offset = offsetof(struct entry_raw, wa)},
	{.name = "compresses", .kind = YK_BOOL, .offset = offsetof(struct entry_raw, compresses)},
	{.name = "note", .kind = YK_STRING, .offset = offsetof(struct entry_raw, note)},
	{.name = "endurance", .kind = YK_SEQUENCE, .offset = offsetof(struct entry_raw, endurance)},
	{.name = "raw_nand", .kind = YK_SEQUENCE, .offset = offsetof(struct entry_raw, raw_nand)},
	{.name = "source", .kind = YK_STRING, .required = true,
	 .offset = offsetof(struct entry_raw, source)},
	{.name = "examples", .kind = YK_SEQUENCE, .offset = offsetof(struct entry_raw, examples)},
	{.name = "not_examples", .kind = YK_SEQUENCE,
	 .offset = offsetof(struct entry_raw, not_examples)},
	{0},
};

struct top_raw {
	const struct ydoc_node *drives;
};

static const struct ydoc_key top_keys[] = {
	{.name = "drives", .kind = YK_SEQUENCE, .required = true,
	 .offset = offsetof(struct top_raw, drives)},
	{0},
};
/* clang-format on */

/* "ata:N" with N in 1..255, or one of the NVMe counters this project knows how to read. */
static bool counter_name_ok(const char *s)
{
	static const char *const nvme[] = {
	    "nvme:smart.data_units_written",	     "nvme:endurance.media_units_written",
	    "nvme:endurance.data_units_written",     "nvme:ocp_c0.physical_media_written",
	    "nvme:intel_ca.nand_bytes_written",	     "nvme:intel_ca.host_bytes_written",
	};
	if (strncmp(s, "ata:", 4) == 0) {
		char *end;
		long id;
		if (s[4] < '0' || s[4] > '9')
			return false;
		id = strtol(s + 4, &end, 10);
		return *end == '\0' && id >= 1 && id <= 255;
	}
	for (size_t i = 0; i < sizeof(nvme) / sizeof(nvme[0]); i++)
		if (strcmp(s, nvme[i]) == 0)
			return true;
	return false;
}

static int read_counter(const struct ydoc_node *n, const char *ctx, struct drivedb_counter *out,
			struct ydoc_error *err)
{
	struct counter_raw raw = {.verified = true};
	int ret = ydoc_map_read(n, ctx, counter_keys, &raw, NULL, err);
	if (ret < 0)
		return ret;
	if (!counter_name_ok(raw.counter))
		return ydoc_errorf(err, ydoc_map_get(n, "counter"),
				   "unknown counter '%s' in %s: expected ata:ID (1-255) or an NVMe "
				   "log field such as nvme:smart.data_units_written",
				   raw.counter, ctx);
	out->counter = raw.counter;
	out->unit = (enum drivedb_unit)raw.unit;
	out->verified = raw.verified;
	out->part = (enum drivedb_part)raw.part;
	return 0;
}

/* An `examples:` or `not_examples:` list: model strings, so each item a non-empty scalar. */
static int read_models(const struct ydoc_node *seq, const char *key, const char **out, size_t *n,
		       struct ydoc_error *err)
{
	if (seq->n > DRIVEDB_MAX_EXAMPLES)
		return ydoc_errorf(err, seq, "at most %d %s, got %zu", DRIVEDB_MAX_EXAMPLES, key,
				   seq->n);
	for (size_t i = 0; i < seq->n; i++) {
		const struct ydoc_node *it = seq->items[i];
		if (it->type != YDOC_SCALAR)
			return ydoc_errorf(err, it, "expected a model string in %s, got %s", key,
					   ydoc_type_name(it->type));
		if (it->text[0] == '\0')
			return ydoc_errorf(err, it, "empty model string in %s", key);
		out[i] = it->text;
	}
	*n = seq->n;
	return 0;
}

static int read_entry(const struct ydoc_node *n, struct drivedb_entry *e, regex_t *re,
		      struct ydoc_error *err)
{
	struct entry_raw raw = {0};
	int ret = ydoc_map_read(n, "a drive entry", entry_keys, &raw, NULL, err);
	if (ret < 0)
		return ret;
	if (raw.source[0] == '\0')
		return ydoc_errorf(err, ydoc_map_get(n, "source"),
				   "empty source in '%s': cite the document the entry comes from",
				   raw.name);
	memset(e, 0, sizeof(*e));
	e->name = raw.name;
	e->match = raw.match;
	e->source = raw.source;
	e->note = raw.note;
	e->transport = (enum drivedb_transport)raw.transport;
	e->wa = (enum drivedb_wa_rule)raw.wa;
	e->combine = (enum drivedb_combine)raw.combine;
	e->compresses = raw.compresses;
	e->line = n->line;
	ret = read_counter(raw.host, "host", &e->host, err);
	if (ret < 0)
		return ret;
	if (e->host.unit == DRIVEDB_U_PAGE)
		return ydoc_errorf(err, ydoc_map_get(raw.host, "unit"),
				   "host counter in pages: host bytes need a counter of known unit "
				   "(put the page counter under host_pages)");
	if (raw.host_pages) {
		ret = read_counter(raw.host_pages, "host_pages", &e->host_pages, err);
		if (ret < 0)
			return ret;
		e->has_host_pages = true;
	}
	if (raw.nand) {
		if (raw.nand->n > DRIVEDB_MAX_NAND)
			return ydoc_errorf(err, raw.nand, "at most %d NAND counters, got %zu",
					   DRIVEDB_MAX_NAND, raw.nand->n);
		for (size_t i = 0; i < raw.nand->n; i++) {
			ret = read_counter(raw.nand->items[i], "nand", &e->nand[i], err);
			if (ret < 0)
				return ret;
		}
		e->n_nand = raw.nand->n;
	}
	/* The pages ratio needs both page counters, and page counters need the ratio: a NAND
	 * page count over a byte count is not a WA. */
	if (e->wa == DRIVEDB_WA_PAGES_RATIO) {
		if (!e->has_host_pages || e->n_nand == 0)
			return ydoc_errorf(err, ydoc_map_get(n, "wa"),
					   "wa: pages_ratio needs host_pages and nand counters");
	} else {
		for (size_t i = 0; i < e->n_nand; i++)
			if (e->nand[i].unit == DRIVEDB_U_PAGE)
				return ydoc_errorf(
				    err, ydoc_map_get(raw.nand->items[i], "unit"),
				    "a NAND counter in pages needs wa: pages_ratio");
	}
	if (raw.endurance) {
		if (raw.endurance->n > DRIVEDB_MAX_ENDURANCE)
			return ydoc_errorf(err, raw.endurance, "at most %d endurance rows, got %zu",
					   DRIVEDB_MAX_ENDURANCE, raw.endurance->n);
		for (size_t i = 0; i < raw.endurance->n; i++) {
			ret = drivedb_read_endurance(raw.endurance->items[i], &e->endurance[i], err);
			if (ret < 0)
				return ret;
		}
		e->n_endurance = raw.endurance->n;
	}
	if (raw.raw_nand) {
		if (raw.raw_nand->n > DRIVEDB_MAX_RAW_NAND)
			return ydoc_errorf(err, raw.raw_nand, "at most %d raw_nand rows, got %zu",
					   DRIVEDB_MAX_RAW_NAND, raw.raw_nand->n);
		for (size_t i = 0; i < raw.raw_nand->n; i++) {
			ret = drivedb_read_raw_nand(raw.raw_nand->items[i], &e->raw_nand[i], err);
			if (ret < 0)
				return ret;
		}
		e->n_raw_nand = raw.raw_nand->n;
	}
	if (raw.examples) {
		ret = read_models(raw.examples, "examples", e->examples, &e->n_examples, err);
		if (ret < 0)
			return ret;
	}
	if (raw.not_examples) {
		ret = read_models(raw.not_examples, "not_examples", e->not_examples,
				  &e->n_not_examples, err);
		if (ret < 0)
			return ret;
	}
	ret = regcomp(re, raw.match, REG_EXTENDED | REG_NOSUB);
	if (ret != 0) {
		char msg[128];
		regerror(ret, re, msg, sizeof(msg));
		return ydoc_errorf(err, ydoc_map_get(n, "match"), "bad regular expression '%s': %s",
				   raw.match, msg);
	}
	return 0;
}

static int load_doc(struct ydoc *doc, struct drivedb **out, struct ydoc_error *err)
{
	struct top_raw top = {0};
	struct drivedb *db = NULL;
	int ret;

	if (!doc->root) {
		ret = ydoc_errorf(err, NULL, "empty drive database: expected 'drives:'");
		goto fail;
	}
	ret = ydoc_map_read(doc->root, "the drive database", top_keys, &top, NULL, err);
	if (ret < 0)
		goto fail;
	db = calloc(1, sizeof(*db));
	if (!db) {
		ret = -ENOMEM;
		goto fail;
	}
	db->doc = doc;
	db->e = calloc(top.drives->n ? top.drives->n : 1, sizeof(*db->e));
	db->re = calloc(top.drives->n ? top.drives->n : 1, sizeof(*db->re));
	if (!db->e || !db->re) {
		ret = -ENOMEM;
		goto fail;
	}
	for (size_t i = 0; i < top.drives->n; i++) {
		ret = read_entry(top.drives->items[i], &db->e[i], &db->re[i], err);
		if (ret < 0)
			goto fail;
		db->n++; /* counts compiled regexes, for drivedb_free() */
	}
	*out = db;
	return 0;
fail:
	if (db)
		drivedb_free(db); /* frees doc too */
	else
		ydoc_free(doc);
	return ret;
}

int drivedb_load_string(const char *text, size_t len, const char *file, struct drivedb **out,
			struct ydoc_error *err)
{
	struct ydoc *doc = NULL;
	int ret = ydoc_parse_string(text, len, file, &doc, err);
	if (ret < 0)
		return ret;
	return load_doc(doc, out, err);
}

int drivedb_load(const char *path, struct drivedb **out, struct ydoc_error *err)
{
	struct ydoc *doc = NULL;
	int ret = ydoc_parse_file(path, &doc, NULL, NULL, err);
	if (ret < 0)
		return ret;
	return load_doc(doc, out, err);
}

void drivedb_free(struct drivedb *db)
{
	if (!db)
		return;
	for (size_t i = 0; i < db->n; i++)
		regfree(&db->re[i]);
	free(db->re);
	free(db->e);
	ydoc_free(db->doc);
	free(db);
}

size_t drivedb_count(const struct drivedb *db)
{
	return db->n;
}

const struct drivedb_entry *drivedb_entry(const struct drivedb *db, size_t i)
{
	return i < db->n ? &db->e[i] : NULL;
}

const struct drivedb_entry *drivedb_lookup(const struct drivedb *db,
					   enum drivedb_transport transport, const char *model)
{
	for (size_t i = 0; i < db->n; i++)
		if (db->e[i].transport == transport && regexec(&db->re[i], model, 0, NULL, 0) == 0)
			return &db->e[i];
	return NULL;
}

/* The delta of counter `name` in the readings: 1 found, 0 absent, -ERANGE went backwards. */
static int delta_of(const struct drivedb_reading *r, size_t n, const char *name, uint64_t *d)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(r[i].counter, name) != 0)
			continue;
		if (r[i].after < r[i].before)
			return -ERANGE;
		*d = r[i].after - r[i].before;
		return 1;
	}
	return 0;
}

int drivedb_compute_wa(const struct drivedb_entry *e, const char *model,
		       const struct drivedb_reading *r, size_t n, struct drivedb_wa *out)
{
	struct drivedb_wa w = {0};
	uint64_t dh = 0, dp = 0, dn = 0, d;
	bool have_nand = false;
	int ret;

	if (!e) {
		snprintf(w.reason, sizeof(w.reason), "no NAND-write counter known for %s", model);
		*out = w;
		return 0;
	}
	ret = delta_of(r, n, e->host.counter, &dh);
	if (ret < 0)
		return ret;
	if (ret == 1) {
		w.host_known = true;
		w.host_bytes = (double)dh * (double)drivedb_unit_bytes(e->host.unit);
		w.unverified |= !e->host.verified;
	}

	/* NAND: a sum (SLC + TLC) or the first counter present and non-zero (an NVMe Media
	 * Units Written of 0 means the drive does not know, never a WA of 0). NAND bytes are
	 * summed per counter because the units may differ. */
	for (size_t i = 0; i < e->n_nand; i++) {
		ret = delta_of(r, n, e->nand[i].counter, &d);
		if (ret < 0)
			return ret;
		if (ret == 0)
			continue;
		if (e->combine == DRIVEDB_FIRST) {
			uint64_t after = 0;
			for (size_t j = 0; j < n; j++)
				if (strcmp(r[j].counter, e->nand[i].counter) == 0)
					after = r[j].after;
			if (after == 0)
				continue;
		}
		have_nand = true;
		dn += d;
		w.nand_bytes += (double)d * (double)drivedb_unit_bytes(e->nand[i].unit);
		w.unverified |= !e->nand[i].verified;
		if (e->combine == DRIVEDB_FIRST)
			break;
	}
	w.nand_known = have_nand && e->wa == DRIVEDB_WA_NAND_OVER_HOST;
	if (!w.nand_known)
		w.nand_bytes = 0;

	if (!have_nand) {
		snprintf(w.reason, sizeof(w.reason), "no NAND-write counter known for %s", model);
	} else if (e->wa == DRIVEDB_WA_PAGES_RATIO) {
		ret = delta_of(r, n, e->host_pages.counter, &dp);
		if (ret < 0)
			return ret;
		w.unverified |= !e->host_pages.verified;
		if (ret == 0)
			snprintf(w.reason, sizeof(w.reason), "host page counter %s not read",
				 e->host_pages.counter);
		else if (dp == 0)
			snprintf(w.reason, sizeof(w.reason), "no host writes in the window");
		else {
			w.wa_known = true;
			w.wa = (double)(dp + dn) / (double)dp;
		}
	} else if (!w.host_known) {
		snprintf(w.reason, sizeof(w.reason), "host-write counter %s not read",
			 e->host.counter);
	} else if (dh == 0) {
		snprintf(w.reason, sizeof(w.reason), "no host writes in the window");
	} else {
		w.wa_known = true;
		w.wa = w.nand_bytes / w.host_bytes;
	}
	w.compression = w.wa_known && w.wa < 1.0;
	*out = w;
	return 0;
}

int drivedb_default_path(char *buf, size_t len)
{
	static const char tail[] = "/drives/drives.yaml";
	char exe[PATH_MAX], cand[3][PATH_MAX + sizeof(tail)];
	size_t n = 0, pick;

	/* next to the program first: the order profile_find() and the model search keep */
	if (!datadir_exe_profiles(exe, sizeof(exe)))
		snprintf(cand[n++], sizeof(cand[0]), "%s%s", exe, tail);
	snprintf(cand[n++], sizeof(cand[0]), "%s%s", SSDLAB_PROFILES_SRCDIR, tail);
	snprintf(cand[n++], sizeof(cand[0]), "%s%s", SSDLAB_PROFILES_DIR, tail);
	for (pick = 0; pick + 1 < n && access(cand[pick], R_OK); pick++)
		;
	if (strlen(cand[pick]) >= len)
		return -ENAMETOOLONG;
	memcpy(buf, cand[pick], strlen(cand[pick]) + 1);
	return 0;
}
