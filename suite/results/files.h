/* SPDX-License-Identifier: MIT */
/*
 * results/files: the whole files of a results directory, written atomically (a reader, or a
 * crash, sees the old file or the new one) and read back, and the names of the files every
 * directory has. This header is the results layer's own: the other files of suite/results/
 * write and read through it, while other layers use results.h (the writer) and records.h (the
 * reader), whose whole-file functions files.c implements (results_write_json_file,
 * results_read_json_file, results_read_manifest, results_write_summary).
 *
 * All functions return 0 or -errno unless said otherwise; output parameters are untouched on
 * failure.
 */
#ifndef SSDLAB_RESULTS_FILES_H
#define SSDLAB_RESULTS_FILES_H

#include <stddef.h>

struct json_object;

#define RESULTS_RECORDS_FILE "records.jsonl"
#define RESULTS_MANIFEST_FILE "manifest.json"
#define RESULTS_SUMMARY_FILE "summary.json"

/* "dir/name", malloc'ed; NULL on ENOMEM. */
char *files_path_join(const char *dir, const char *name);

/* The directory part of path ("." when there is none, "/" for a file in the root); malloc'ed,
 * NULL on ENOMEM. */
char *files_dir_of(const char *path);

/* fsyncs the directory itself, so that entries made or renamed in it survive a crash. */
int files_fsync_dir(const char *dir);

/* mkdir -p, mode 0755; each directory it makes is fsync'ed into its parent, so the path survives
 * a crash (a results directory, a journal directory). 0 or -errno. */
int files_mkdir_p(const char *path);

/* Writes all of buf to fd, retrying short writes and EINTR. */
int files_write_all(int fd, const char *buf, size_t len);

/* Writes buf to path atomically: path.tmp, fsync, rename over path, fsync of the directory.
 * On failure the temp file is removed and path is as it was. */
int files_atomic_write(const char *path, const char *buf, size_t len);

/* Parses exactly buf[0..len) as one JSON value (surrounding whitespace allowed): a new object,
 * or NULL when it does not parse, has anything else after it, or on ENOMEM. */
struct json_object *files_parse_exact(const char *buf, size_t len);

/* Adds "schema": RESULTS_SCHEMA to the object o unless it has a "schema" key; -EINVAL when o
 * is not an object. */
int files_ensure_schema(struct json_object *o);

/* results_write_json_file / results_read_json_file of dir/name. */
int files_write_in_dir(const char *dir, const char *name, struct json_object *o);
int files_read_in_dir(const char *dir, const char *name, struct json_object **o);

#endif
