/* SPDX-License-Identifier: MIT */
/*
 * replay: the set K of a resume and the cursor the runner walks it with (replay.h). Kept apart
 * from the runner so that the state machine reads as transitions (runner.c) and the bookkeeping
 * of what is already on disk lives in one place.
 */
#include "run/replay.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonnum.h"

static uint64_t rec_get_u64(struct json_object *rec, const char *k)
{
	uint64_t v = 0;

	if (rec)
		(void)jsonnum_get_u64(rec, k, &v);
	return v;
}

int replay_init(struct replay *k, const struct results_records *records, char *err,
		size_t errlen)
{
	size_t n = records ? records->n : 0;
	int rc;

	if (!n)
		return 0;
	k->rec = calloc(n, sizeof(*k->rec));
	k->key = calloc(n, sizeof(*k->key));
	if (!k->rec || !k->key)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		rc = results_record_key(records->rec[i], k->key[i], REPLAY_KEY_MAX);
		if (rc) {
			snprintf(err, errlen, "record %zu of records.jsonl has no valid key", i + 1);
			return rc;
		}
		k->rec[i] = json_object_get(records->rec[i]);
		k->n++;
		if (replay_is_resume(records->rec[i]))
			k->nresume++;
		k->last_end_ns = rec_get_u64(records->rec[i], "end_ns");
		k->last_wall_ns = rec_get_u64(records->rec[i], "wall_ns");
		k->have_last = true;
	}
	return 0;
}

void replay_release(struct replay *k)
{
	for (size_t i = 0; i < k->n; i++)
		json_object_put(k->rec[i]);
	free(k->rec);
	free(k->key);
	k->rec = NULL;
	k->key = NULL;
	k->n = k->pos = 0;
}

bool replay_is_resume(struct json_object *rec)
{
	struct json_object *kind;

	return json_object_object_get_ex(rec, "kind", &kind) &&
	       !strcmp(json_object_get_string(kind), "resume");
}

/* A cool-down record (runner.c's gate): like a resume record, a marker between steps, not a
 * step the walk would meet again. */
static bool is_cooldown(struct json_object *rec)
{
	struct json_object *kind;

	return json_object_object_get_ex(rec, "kind", &kind) &&
	       !strcmp(json_object_get_string(kind), "cooldown");
}

void replay_skip_resume(struct replay *k)
{
	while (k->pos < k->n && (replay_is_resume(k->rec[k->pos]) || is_cooldown(k->rec[k->pos])))
		k->pos++;
}

struct json_object *replay_peek(struct replay *k, const char *key)
{
	replay_skip_resume(k);
	if (k->pos < k->n && !strcmp(k->key[k->pos], key))
		return k->rec[k->pos];
	return NULL;
}

bool replay_exhausted(struct replay *k)
{
	replay_skip_resume(k);
	return k->pos >= k->n;
}
