/* SPDX-License-Identifier: MIT */
/*
 * results/records_read: records.jsonl read back (see records.h) without changing the file: a
 * torn last line (the write in flight at a crash) is dropped and reported, any other line that
 * is not a record is an error with its line number. results_open() cuts the torn tail it reports.
 */
#include "results/records.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/fileio.h"
#include "base/jsonnum.h"
#include "results/files.h"

void results_records_release(struct results_records *rr)
{
	if (!rr)
		return;
	for (size_t i = 0; i < rr->n; i++)
		json_object_put(rr->rec[i]);
	free(rr->rec);
	rr->rec = NULL;
	rr->n = 0;
}

/* A line is a record when it parses as a JSON object with an integer "schema" we know. */
static struct json_object *parse_record(const char *line, size_t len)
{
	struct json_object *o = files_parse_exact(line, len);
	uint64_t schema;

	if (o && (!json_object_is_type(o, json_type_object) ||
		  jsonnum_get_u64(o, "schema", &schema) || schema != RESULTS_SCHEMA)) {
		json_object_put(o);
		o = NULL;
	}
	return o;
}

int results_read_records(const char *dir, struct results_records *out)
{
	struct results_records rr;
	char *path, *buf = NULL;
	size_t len = 0, pos = 0, cap = 0;
	unsigned lineno = 0;
	int rc;

	memset(&rr, 0, sizeof(rr));
	path = dir ? files_path_join(dir, RESULTS_RECORDS_FILE) : NULL;
	if (!path)
		return dir ? -ENOMEM : -EINVAL;
	rc = fileio_read_file(path, 0, &buf, &len);
	free(path);
	if (rc == -ENOENT) {
		*out = rr;
		return 0;
	}
	if (rc)
		return rc;
	while (pos < len) {
		char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		int last = !nl || end + 1 == len;
		struct json_object *o;

		lineno++;
		o = nl ? parse_record(buf + pos, end - pos) : NULL;
		if (!o) {
			if (last) {
				/* The write that was in flight at a crash. */
				rr.torn_last = true;
				rr.torn_bytes = len - pos;
				break;
			}
			results_records_release(&rr);
			out->bad_line = lineno;
			rc = -EBADMSG;
			goto out;
		}
		if (rr.n == cap) {
			struct json_object **nr;

			cap = cap ? 2 * cap : 64;
			nr = realloc(rr.rec, cap * sizeof(*nr));
			if (!nr) {
				json_object_put(o);
				results_records_release(&rr);
				rc = -ENOMEM;
				goto out;
			}
			rr.rec = nr;
		}
		rr.rec[rr.n++] = o;
		pos = end + 1;
		rr.valid_bytes = pos;
	}
	*out = rr;
out:
	free(buf);
	return rc;
}
