/* SPDX-License-Identifier: MIT */
/*
 * snapshot: counter snapshots in one format for every source (see snapshot.h). The JSON form,
 * a contract of the results directory (docs/results-format.md):
 *
 *   {"schema": 1, "source": "sim", "label": "phase-2-end", "target_ns": 123,
 *    "counters": {"host_bytes_written": {"value": 4096, "unit": "bytes"}, ...},
 *    "raw": <the source's own data, any JSON, optional>}
 *
 * Counters keep the order in which the source set them, so the same snapshot always serializes
 * to the same bytes.
 *
 * The snapshot files of a results directory are read back here too (results_read_snapshots,
 * declared in records.h for readers); results_snapshot.c writes them.
 */
#include "results/snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "results/files.h"
#include "results/records.h"

#define SNAPSHOT_SCHEMA 1

/* Copies src into a fixed field; -ENAMETOOLONG rather than silently truncating a counter name. */
static int copy_field(char *dst, size_t len, const char *src)
{
	size_t n = strlen(src);

	if (n >= len)
		return -ENAMETOOLONG;
	memcpy(dst, src, n + 1);
	return 0;
}

void snapshot_init(struct snapshot *s, const char *source)
{
	memset(s, 0, sizeof(*s));
	/* A source name is ours (a literal), not user data: truncation cannot lose information. */
	snprintf(s->source, sizeof(s->source), "%s", source ? source : "none");
}

void snapshot_release(struct snapshot *s)
{
	if (!s)
		return;
	json_object_put(s->raw);
	s->raw = NULL;
}

const struct counter *snapshot_get(const struct snapshot *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].name, name))
			return &s->c[i];
	return NULL;
}

int snapshot_set(struct snapshot *s, const char *name, const char *unit, double value)
{
	struct counter c;
	size_t i;

	memset(&c, 0, sizeof(c));
	if (!name || !*name || !unit)
		return -EINVAL;
	if (copy_field(c.name, sizeof(c.name), name) || copy_field(c.unit, sizeof(c.unit), unit))
		return -ENAMETOOLONG;
	c.value = value;
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->c[i].name, name))
			break;
	if (i == s->n && s->n == SNAPSHOT_MAX_COUNTERS)
		return -ENOSPC;
	s->c[i] = c;
	if (i == s->n)
		s->n++;
	return 0;
}

struct json_object *snapshot_to_json(const struct snapshot *s)
{
	struct json_object *o = json_object_new_object(), *cs = NULL;

	if (!o)
		return NULL;
	if (jsonnum_add(o, "schema", json_object_new_int(SNAPSHOT_SCHEMA)) ||
	    jsonnum_add(o, "source", json_object_new_string(s->source)) ||
	    jsonnum_add(o, "label", json_object_new_string(s->label)) ||
	    jsonnum_add(o, "target_ns", json_object_new_uint64(s->target_ns)))
		goto fail;
	cs = json_object_new_object();
	if (jsonnum_add(o, "counters", cs) || !cs)
		goto fail;
	for (size_t i = 0; i < s->n; i++) {
		struct json_object *c = json_object_new_object();

		if (jsonnum_add(cs, s->c[i].name, c) || !c ||
		    jsonnum_add(c, "value", jsonnum_new(s->c[i].value)) ||
		    jsonnum_add(c, "unit", json_object_new_string(s->c[i].unit)))
			goto fail;
	}
	if (s->raw && jsonnum_add(o, "raw", json_object_get(s->raw)))
		goto fail;
	return o;
fail:
	json_object_put(o);
	return NULL;
}

static int get_string(struct json_object *o, const char *key, char *dst, size_t len)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_string))
		return -EINVAL;
	return copy_field(dst, len, json_object_get_string(x)) ? -EINVAL : 0;
}

int snapshot_from_json(struct json_object *o, struct snapshot *out)
{
	struct snapshot s;
	struct json_object *cs, *raw;
	uint64_t schema;

	if (!o || !json_object_is_type(o, json_type_object))
		return -EINVAL;
	memset(&s, 0, sizeof(s));
	if (jsonnum_get_u64(o, "schema", &schema) || schema != SNAPSHOT_SCHEMA)
		return -EINVAL;
	if (get_string(o, "source", s.source, sizeof(s.source)) ||
	    get_string(o, "label", s.label, sizeof(s.label)) ||
	    jsonnum_get_u64(o, "target_ns", &s.target_ns))
		return -EINVAL;
	if (!json_object_object_get_ex(o, "counters", &cs) ||
	    !json_object_is_type(cs, json_type_object))
		return -EINVAL;
	json_object_object_foreach(cs, name, c)
	{
		char unit[sizeof(s.c[0].unit)];
		double v;
		int rc;

		/* A counter written as null (a NaN) is not a value we can use: refuse the file. */
		if (!json_object_is_type(c, json_type_object) || jsonnum_get(c, "value", &v) ||
		    get_string(c, "unit", unit, sizeof(unit)))
			return -EINVAL;
		rc = snapshot_set(&s, name, unit, v);
		if (rc)
			return rc == -ENOSPC ? -ENOSPC : -EINVAL;
	}
	if (json_object_object_get_ex(o, "raw", &raw) && raw)
		s.raw = json_object_get(raw);
	*out = s;
	return 0;
}

/* ---- the files read back (records.h) ------------------------------------------------------- */

static int is_snapshot_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 5 && e->d_name[0] != '.' && !strcmp(e->d_name + n - 5, ".json");
}

/* Byte order, not the locale's collation: the same files always load in the same order. */
static int cmp_names(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

void results_snapshots_release(struct results_snapshots *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		json_object_put(s->snap[i]);
	free(s->snap);
	s->snap = NULL;
	s->n = 0;
}

int results_read_snapshots(const char *dir, struct results_snapshots *out)
{
	struct results_snapshots s = {0};
	struct dirent **list = NULL;
	char *sd;
	int n, rc = 0;

	if (!dir || !out)
		return -EINVAL;
	sd = files_path_join(dir, "snapshots");
	if (!sd)
		return -ENOMEM;
	n = scandir(sd, &list, is_snapshot_file, cmp_names);
	if (n < 0) {
		rc = errno == ENOENT ? 0 : -errno;
		n = 0;
		goto out;
	}
	s.snap = calloc((size_t)n + 1, sizeof(*s.snap));
	if (!s.snap) {
		rc = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < n && !rc; i++) {
		char *p = files_path_join(sd, list[i]->d_name);

		rc = p ? results_read_json_file(p, &s.snap[s.n]) : -ENOMEM;
		if (!rc)
			s.n++;
		free(p);
	}
out:
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
	free(sd);
	if (rc)
		results_snapshots_release(&s);
	else
		*out = s;
	return rc;
}
