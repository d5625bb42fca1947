/* SPDX-License-Identifier: MIT */
/*
 * results_snapshot: a snapshot written into the results directory (results.h): one file each,
 * numbered in the order taken, the numbering continued across resumes (results.c reads the
 * next number when it opens the directory). The snapshot's format is snapshot.c; reading the
 * files back is there too.
 */
#include "results/results.h"

#include <errno.h>
#include <stdio.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "results/files.h"
#include "results/handle.h"

int results_write_snapshot(struct results *r, const struct snapshot *s, int phase, unsigned repeat)
{
	struct json_object *o;
	char safe[80], file[128];
	int rc;

	if (!r || !s)
		return -EINVAL;
	if (results_safe_name(s->label, safe, sizeof(safe)))
		snprintf(safe, sizeof(safe), "snapshot");
	snprintf(file, sizeof(file), "snapshots/%04u-%s.json", r->next_seq, safe);
	o = snapshot_to_json(s);
	if (!o)
		return -ENOMEM;
	if (jsonnum_add(o, "phase", json_object_new_int(phase)) ||
	    jsonnum_add(o, "repeat", json_object_new_int64(repeat)) ||
	    jsonnum_add(o, "seq", json_object_new_int64(r->next_seq)))
		rc = -ENOMEM;
	else
		rc = files_write_in_dir(r->path, file, o);
	json_object_put(o);
	if (!rc)
		r->next_seq++;
	return rc;
}
