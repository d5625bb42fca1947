/* SPDX-License-Identifier: MIT */
/*
 * results/files: the whole files of a results directory (see files.h). One durability rule,
 * kept here in one place: a whole file is written as <name>.tmp, fsync'ed, renamed over <name>,
 * and the directory is fsync'ed, so a reader (or a crash) sees either the old file or the new one.
 */
#include "results/files.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/fileio.h"
#include "base/jsonnum.h"
#include "results/records.h"

char *files_path_join(const char *dir, const char *name)
{
	char *p;

	if (asprintf(&p, "%s/%s", dir, name) < 0)
		return NULL;
	return p;
}

int files_fsync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		rc = -errno;
	close(fd);
	return rc;
}

/* The directory part of path ("." when there is none); malloc'ed. */
char *files_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

int files_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Writes buf to path atomically (see the top of the file). */
int files_atomic_write(const char *path, const char *buf, size_t len)
{
	char *tmp = NULL, *dir = NULL;
	int fd = -1, rc;

	if (asprintf(&tmp, "%s.tmp", path) < 0)
		return -ENOMEM;
	dir = files_dir_of(path);
	if (!dir) {
		rc = -ENOMEM;
		goto out;
	}
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	rc = files_write_all(fd, buf, len);
	if (!rc && fsync(fd))
		rc = -errno;
	if (close(fd) && !rc)
		rc = -errno;
	fd = -1;
	if (!rc && rename(tmp, path))
		rc = -errno;
	if (rc)
		unlink(tmp);
	else
		rc = files_fsync_dir(dir);
out:
	free(tmp);
	free(dir);
	return rc;
}

/* Parses exactly buf[0..len) as one JSON value (surrounding whitespace allowed). */
struct json_object *files_parse_exact(const char *buf, size_t len)
{
	struct json_tokener *tok;
	struct json_object *o;
	size_t end;

	if (len > INT_MAX)
		return NULL;
	tok = json_tokener_new();
	if (!tok)
		return NULL;
	o = json_tokener_parse_ex(tok, buf, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success) {
		json_object_put(o);
		o = NULL;
	} else {
		for (end = json_tokener_get_parse_end(tok); end < len; end++)
			if (!isspace((unsigned char)buf[end])) {
				json_object_put(o);
				o = NULL;
				break;
			}
	}
	json_tokener_free(tok);
	return o;
}

int files_ensure_schema(struct json_object *o)
{
	if (!json_object_is_type(o, json_type_object))
		return -EINVAL;
	if (json_object_object_get_ex(o, "schema", NULL))
		return 0;
	return jsonnum_add(o, "schema", json_object_new_int(RESULTS_SCHEMA));
}

int results_write_json_file(const char *path, struct json_object *o)
{
	const char *text;
	char *buf;
	size_t len;
	int rc;

	if (!path || !o)
		return -EINVAL;
	rc = files_ensure_schema(o);
	if (rc)
		return rc;
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
						     JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		return -ENOMEM;
	len = strlen(text);
	buf = malloc(len + 2);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, text, len);
	buf[len++] = '\n';
	rc = files_atomic_write(path, buf, len);
	free(buf);
	return rc;
}

int results_read_json_file(const char *path, struct json_object **out)
{
	struct json_object *o;
	char *buf;
	size_t len;
	int rc = fileio_read_file(path, 0, &buf, &len);

	if (rc)
		return rc;
	o = files_parse_exact(buf, len);
	free(buf);
	if (!o)
		return -EBADMSG;
	*out = o;
	return 0;
}

int files_write_in_dir(const char *dir, const char *name, struct json_object *o)
{
	char *p = files_path_join(dir, name);
	int rc;

	if (!p)
		return -ENOMEM;
	rc = results_write_json_file(p, o);
	free(p);
	return rc;
}

int files_read_in_dir(const char *dir, const char *name, struct json_object **o)
{
	char *p = files_path_join(dir, name);
	int rc;

	if (!p)
		return -ENOMEM;
	rc = results_read_json_file(p, o);
	free(p);
	return rc;
}

int results_read_manifest(const char *dir, struct json_object **manifest)
{
	struct json_object *m;
	int rc = files_read_in_dir(dir, RESULTS_MANIFEST_FILE, &m);

	if (rc)
		return rc;
	if (!json_object_is_type(m, json_type_object)) {
		json_object_put(m);
		return -EBADMSG;
	}
	*manifest = m;
	return 0;
}

int results_write_summary(const char *dir, struct json_object *summary)
{
	return files_write_in_dir(dir, RESULTS_SUMMARY_FILE, summary);
}

/* mkdir -p (see files.h) */
int files_mkdir_p(const char *path)
{
	char *p = strdup(path), *s = p;
	int rc = 0;

	if (!p)
		return -ENOMEM;
	for (;;) {
		char saved = 0, *parent;

		s = strchr(s + 1, '/');
		if (s) {
			saved = *s;
			*s = '\0';
		}
		if (!mkdir(p, 0755)) {
			parent = files_dir_of(p);
			rc = parent ? files_fsync_dir(parent) : -ENOMEM;
			free(parent);
		} else if (errno != EEXIST) {
			rc = -errno;
		}
		if (!s || rc)
			break;
		*s = saved;
	}
	free(p);
	return rc;
}
