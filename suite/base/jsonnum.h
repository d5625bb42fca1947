/* SPDX-License-Identifier: MIT */
/*
 * jsonnum: numbers in and out of json-c objects, the same way everywhere in the results
 * directory. Doubles are written in the shortest decimal form that reads back to the same
 * double, with '.' whatever the locale, so that what the runner decided on and what a later
 * `ssdlab analyze` reads are bit-identical; NaN and infinities become JSON null (json-c would
 * print "NaN", which is not JSON). Getters accept an integer or a double where a number is
 * expected.
 */
#ifndef SSDLAB_JSONNUM_H
#define SSDLAB_JSONNUM_H

#include <stddef.h>
#include <stdint.h>

struct json_object;

/*
 * A new JSON number for v: an integer when v is integral and |v| <= 2^53, else the shortest
 * round-trip decimal. NULL (JSON null) for NaN or infinities, and on ENOMEM.
 */
struct json_object *jsonnum_new(double v);

/* The shortest decimal ("%.15g" .. "%.17g") that reads back to v, '.' always. Returns buf. */
const char *jsonnum_fmt(double v, char *buf, size_t len);

/*
 * Member `key` of object o as a number: 0 and *v set; -ENOENT when absent (or null), -EINVAL when
 * o is not an object or the member is not a number (or, for _u64, negative or not integral).
 */
int jsonnum_get(struct json_object *o, const char *key, double *v);
int jsonnum_get_u64(struct json_object *o, const char *key, uint64_t *v);

/* Adds key: v to o, taking ownership of v even on failure; v NULL adds a JSON null.
 * -ENOMEM when json-c fails. */
int jsonnum_add(struct json_object *o, const char *key, struct json_object *v);

/* Appends v to array a, taking ownership of v even on failure; v NULL appends a JSON null.
 * -ENOMEM when json-c fails. */
int jsonnum_push(struct json_object *a, struct json_object *v);

/*
 * Building a whole document with one error code, checked once at the end: each call takes the
 * document's error *e (start it at 0). The first failure stays in *e: -ENOMEM when o, a or v is
 * NULL (a value or container json-c could not make) or when the add fails; once *e is set, later
 * calls only free their value. Every call takes ownership of v. jsonnum_build_num adds
 * jsonnum_new(v): NaN and infinities are a JSON null, not an error.
 */
void jsonnum_build_add(struct json_object *o, const char *key, struct json_object *v, int *e);
void jsonnum_build_num(struct json_object *o, const char *key, double v, int *e);
void jsonnum_build_push(struct json_object *a, struct json_object *v, int *e);

#endif
