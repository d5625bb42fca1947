/* SPDX-License-Identifier: MIT */
/*
 * jsonget: typed reads of a JSON object's members, for the code that reads results files back
 * (the analysis passes, the headline printer). A missing member and one of another type are the
 * same to a reader: "not there".
 */
#ifndef SSDLAB_BASE_JSONGET_H
#define SSDLAB_BASE_JSONGET_H

#include <stdbool.h>
#include <stdint.h>

struct json_object;

/* The string member key of o (borrowed from o), NULL when absent or not a string. */
const char *jsonget_str(struct json_object *o, const char *key);

/* The integer member key of o into *v; -EINVAL (v untouched) when absent or not an integer. */
int jsonget_int(struct json_object *o, const char *key, int64_t *v);

/* Whether the member key of o is the JSON boolean true (absent, null or another type: false). */
bool jsonget_true(struct json_object *o, const char *key);

/* The number member key of o (jsonnum_get: an integer or a double), NaN when absent or null. */
double jsonget_num(struct json_object *o, const char *key);

#endif
