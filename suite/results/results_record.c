/* SPDX-License-Identifier: MIT */
/*
 * results_record: writing records (results.h): a record's common keys, and the append to
 * records.jsonl. Durability rules kept here, in one place:
 *   - a record is one line written by a single write(2) on an O_APPEND descriptor and
 *     fsync'ed before the call returns: after a crash the file is a sequence of whole lines,
 *     possibly followed by one torn line (the write that was in flight), never anything else;
 *   - a failed append truncates the file back to where it was, so even a failed write does
 *     not leave a torn line in front of the next record.
 * Reading them back is records_read.c.
 */
#include "results/results.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "results/files.h"
#include "results/handle.h"

/* Names of enum results_flag's bits, in bit order. */
static const char *const flag_names[] = {"host_limited", "io_error", "resumed", "short", "no_io",
					 "not_applicable"};
_Static_assert(1u << (sizeof(flag_names) / sizeof(flag_names[0]) - 1) == RESULTS_F_NOT_APPLICABLE,
	       "a name for every results_flag bit");

struct json_object *results_record_to_json(const struct results_record *rec)
{
	struct json_object *o = json_object_new_object(), *flags;

	if (!o)
		return NULL;
	if (jsonnum_add(o, "schema", json_object_new_int(RESULTS_SCHEMA)) ||
	    jsonnum_add(o, "kind", json_object_new_string(rec->kind ? rec->kind : "")) ||
	    jsonnum_add(o, "phase", json_object_new_int(rec->phase)) ||
	    jsonnum_add(o, "phase_kind",
			json_object_new_string(rec->phase_kind ? rec->phase_kind : "")) ||
	    jsonnum_add(o, "repeat", json_object_new_int64(rec->repeat)) ||
	    jsonnum_add(o, "round", json_object_new_int64(rec->round)) ||
	    jsonnum_add(o, "cell", json_object_new_string(rec->cell ? rec->cell : "")) ||
	    jsonnum_add(o, "start_ns", json_object_new_uint64(rec->start_ns)) ||
	    jsonnum_add(o, "end_ns", json_object_new_uint64(rec->end_ns)))
		goto fail;
	flags = json_object_new_array();
	if (jsonnum_add(o, "flags", flags) || !flags)
		goto fail;
	for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if ((rec->flags & (1u << i)) &&
		    json_object_array_add(flags, json_object_new_string(flag_names[i])))
			goto fail;
	return o;
fail:
	json_object_put(o);
	return NULL;
}

int results_append_record(struct results *r, struct json_object *rec)
{
	const char *text;
	struct stat st;
	char *line;
	size_t len;
	ssize_t w;
	int rc;

	if (!r || !rec)
		return -EINVAL;
	rc = files_ensure_schema(rec);
	if (rc)
		return rc;
	/* PLAIN has no newlines: json-c escapes them inside strings. */
	text = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
						       JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -ENOMEM;
	len = strlen(text);
	line = malloc(len + 1);
	if (!line)
		return -ENOMEM;
	memcpy(line, text, len);
	line[len++] = '\n';
	if (fstat(r->recfd, &st)) {
		rc = -errno;
		goto out;
	}
	do
		w = write(r->recfd, line, len);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		rc = -errno;
	else if ((size_t)w < len)
		rc = files_write_all(r->recfd, line + w, len - (size_t)w);
	if (!rc && fsync(r->recfd))
		rc = -errno;
	/* Leave no torn line in front of the next record (best effort: the error is what counts).
	 */
	if (rc && ftruncate(r->recfd, st.st_size) == 0)
		(void)fsync(r->recfd);
out:
	free(line);
	return rc;
}
