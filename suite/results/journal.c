/* SPDX-License-Identifier: MIT */
/*
 * journal: the device changes of a run, journal.jsonl (see journal.h). The durability rule is
 * the one of records.jsonl: a line is one write(2) followed by fsync, so after a crash the file
 * is whole lines possibly followed by one torn line (the write in flight), which the reader
 * drops and journal_open() cuts before it appends. The directory is fsync'ed when the file is
 * created, so the file itself survives a power loss that follows its first line.
 */
#include "results/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/errmsg.h"
#include "base/fileio.h"
#include "base/jsonget.h"
#include "results/files.h"

#define JOURNAL_SCHEMA 1

struct journal {
	int fd;
	uint64_t next_seq; /* the "seq" of the next line */
	uint64_t next_id;  /* the number of the next change's id */
};

/* The number after the last '-' of an id ("wc-12" -> 12), 0 when there is none. */
static uint64_t id_number(const char *id)
{
	const char *dash = id ? strrchr(id, '-') : NULL;
	char *end;
	unsigned long long v;

	if (!dash || !dash[1])
		return 0;
	errno = 0;
	v = strtoull(dash + 1, &end, 10);
	return (*end || errno) ? 0 : (uint64_t)v;
}

/* One parsed pass over the file's text: the entries, the highest seq and id number, and where
 * the whole lines end (the torn tail starts there). */
struct scan {
	struct journal_entry *e;
	size_t n, cap;
	uint64_t max_seq, max_id;
	size_t valid_bytes;
	bool torn;
};

static struct journal_entry *find_entry(struct scan *s, const char *id)
{
	for (size_t i = s->n; i-- > 0;)
		if (!strcmp(s->e[i].id, id))
			return &s->e[i];
	return NULL;
}

/* A copy of o's member key (a new reference), NULL when absent or JSON null. */
static struct json_object *member_ref(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v) || !v)
		return NULL;
	return json_object_get(v);
}

static bool member_bool(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_boolean) &&
	       json_object_get_boolean(v);
}

/* Takes one parsed line into the scan: a new entry for "change", flags for "done"/"restored".
 * -EBADMSG with the reason in why. */
static int scan_line(struct scan *s, struct json_object *o, char *why, size_t whylen)
{
	const char *op = jsonget_str(o, "op"), *id = jsonget_str(o, "id");
	struct journal_entry *e;
	int64_t seq;

	if (!json_object_is_type(o, json_type_object) || !op || !id)
		return errmsg_set(why, whylen, -EBADMSG,
				  "not a journal line (no \"op\" or \"id\")");
	if (!jsonget_int(o, "seq", &seq) && seq > 0 && (uint64_t)seq > s->max_seq)
		s->max_seq = (uint64_t)seq;
	if (!strcmp(op, "change")) {
		const char *kind = jsonget_str(o, "kind"), *cmd = jsonget_str(o, "command");
		uint64_t num = id_number(id);

		if (!kind)
			return errmsg_set(why, whylen, -EBADMSG, "change %s without \"kind\"", id);
		if (find_entry(s, id))
			return errmsg_set(why, whylen, -EBADMSG, "change %s twice", id);
		if (s->n == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 8;
			struct journal_entry *ne = realloc(s->e, cap * sizeof(*ne));

			if (!ne)
				return -ENOMEM;
			s->e = ne;
			s->cap = cap;
		}
		e = &s->e[s->n++];
		memset(e, 0, sizeof(*e));
		snprintf(e->id, sizeof(e->id), "%s", id);
		snprintf(e->kind, sizeof(e->kind), "%s", kind);
		snprintf(e->command, sizeof(e->command), "%s", cmd ? cmd : "");
		e->persistent = member_bool(o, "persistent");
		e->device = member_ref(o, "device");
		e->from = member_ref(o, "from");
		e->to = member_ref(o, "to");
		if (num > s->max_id)
			s->max_id = num;
		return 0;
	}
	e = find_entry(s, id);
	if (!e)
		return errmsg_set(why, whylen, -EBADMSG, "\"%s\" of %s, which no change line names",
				  op, id);
	if (!strcmp(op, "done")) {
		e->done = true;
		e->done_ok = member_bool(o, "ok");
		json_object_put(e->readback);
		e->readback = member_ref(o, "readback");
		return 0;
	}
	if (!strcmp(op, "restored")) {
		e->restore_tries++;
		if (member_bool(o, "ok"))
			e->restored_ok = true;
		return 0;
	}
	return errmsg_set(why, whylen, -EBADMSG, "unknown op \"%s\"", op);
}

/* Parses the text of a journal. A last line without its newline, or one that does not parse,
 * is the torn write of a crash; anything wrong before it is -EBADMSG "journal.jsonl:LINE: ...". */
static int scan_text(const char *buf, size_t len, struct scan *s, char *err, size_t errlen)
{
	size_t pos = 0;
	unsigned line = 0;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		struct json_object *o;
		char why[256] = "";
		int rc;

		line++;
		if (!nl) {
			/* One write per line: a line without its newline never finished. */
			s->torn = true;
			break;
		}
		if (end == pos) { /* an empty line: nothing to take */
			pos = end + 1;
			s->valid_bytes = pos;
			continue;
		}
		o = files_parse_exact(buf + pos, end - pos);
		if (!o) {
			if (end + 1 == len) {
				s->torn = true;
				break;
			}
			return errmsg_set(err, errlen, -EBADMSG, "%s:%u: not JSON", JOURNAL_FILE,
					  line);
		}
		rc = scan_line(s, o, why, sizeof(why));
		json_object_put(o);
		if (rc == -ENOMEM)
			return errmsg_set(err, errlen, rc, "%s: out of memory", JOURNAL_FILE);
		if (rc)
			return errmsg_set(err, errlen, rc, "%s:%u: %s", JOURNAL_FILE, line, why);
		pos = end + 1;
		s->valid_bytes = pos;
	}
	return 0;
}

static void scan_release(struct scan *s)
{
	journal_entries_free(s->e, s->n);
	s->e = NULL;
	s->n = s->cap = 0;
}

void journal_entries_free(struct journal_entry *e, size_t n)
{
	if (!e)
		return;
	for (size_t i = 0; i < n; i++) {
		json_object_put(e[i].device);
		json_object_put(e[i].from);
		json_object_put(e[i].to);
		json_object_put(e[i].readback);
	}
	free(e);
}

size_t journal_outstanding(const struct journal_entry *e, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += !e[i].restored_ok;
	return k;
}

int journal_read(const char *dir, struct journal_entry **out, size_t *n, bool *torn, char *err,
		 size_t errlen)
{
	struct scan s = {0};
	char *path, *buf = NULL;
	size_t len = 0;
	int rc;

	if (!dir || !out || !n)
		return errmsg_set(err, errlen, -EINVAL, "journal_read: no directory");
	path = files_path_join(dir, JOURNAL_FILE);
	if (!path)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	rc = fileio_read_file(path, 0, &buf, &len);
	if (rc == -ENOENT) {
		/* No journal: the run changed nothing. */
		rc = 0;
		goto done;
	}
	if (rc) {
		errmsg_set(err, errlen, rc, "%s: %s", path, strerror(-rc));
		goto out;
	}
	rc = scan_text(buf, len, &s, err, errlen);
	if (rc)
		goto out;
done:
	*out = s.e;
	*n = s.n;
	if (torn)
		*torn = s.torn;
	s.e = NULL;
	s.n = 0;
out:
	scan_release(&s);
	free(buf);
	free(path);
	return rc;
}

int journal_open(const char *dir, struct journal **out, char *err, size_t errlen)
{
	struct journal *j = NULL;
	struct scan s = {0};
	char *path = NULL, *buf = NULL;
	size_t len = 0;
	bool created = false;
	int fd, rc;

	if (!dir || !out)
		return errmsg_set(err, errlen, -EINVAL, "journal_open: no directory");
	path = files_path_join(dir, JOURNAL_FILE);
	if (!path)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd >= 0)
		created = true;
	else if (errno == EEXIST)
		fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		rc = errmsg_set(err, errlen, -errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (created) {
		/* The new name must survive a crash as well as the lines written into it. */
		rc = files_fsync_dir(dir);
		if (rc) {
			errmsg_set(err, errlen, rc, "%s: fsync: %s", dir, strerror(-rc));
			goto out;
		}
	} else {
		rc = fileio_read_fd(fd, 0, &buf, &len);
		if (rc) {
			errmsg_set(err, errlen, rc, "%s: %s", path, strerror(-rc));
			goto out;
		}
		rc = scan_text(buf, len, &s, err, errlen);
		if (rc)
			goto out;
		/* Cut the torn tail so that the next line starts clean (as results_open does). */
		if (s.torn && (ftruncate(fd, (off_t)s.valid_bytes) || fsync(fd))) {
			rc = errmsg_set(err, errlen, -errno, "%s: cutting a torn line: %s", path,
					strerror(errno));
			goto out;
		}
	}
	j = calloc(1, sizeof(*j));
	if (!j) {
		rc = errmsg_set(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	j->fd = fd;
	j->next_seq = s.max_seq + 1;
	j->next_id = s.max_id + 1;
	fd = -1;
	*out = j;
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	scan_release(&s);
	free(buf);
	free(path);
	return rc;
}

void journal_close(struct journal *j)
{
	if (!j)
		return;
	if (j->fd >= 0)
		close(j->fd);
	free(j);
}

/* Appends o as one line with one write, then fsyncs. A failed write is cut back off, so that a
 * later line does not start behind half a line. Takes o's reference. */
static int append(struct journal *j, struct json_object *o, char *err, size_t errlen)
{
	const char *text;
	char *line = NULL;
	struct stat st;
	int rc, n;

	if (!o)
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
						     JSON_C_TO_STRING_NOSLASHESCAPE);
	n = text ? asprintf(&line, "%s\n", text) : -1;
	if (n < 0) {
		rc = errmsg_set(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	if (fstat(j->fd, &st)) {
		rc =
		    errmsg_set(err, errlen, -errno, "%s: fstat: %s", JOURNAL_FILE, strerror(errno));
		goto out;
	}
	rc = files_write_all(j->fd, line, (size_t)n);
	if (!rc && fsync(j->fd))
		rc = -errno;
	if (rc) {
		/* Best effort: the write error is the one the caller hears about. */
		if (!ftruncate(j->fd, st.st_size))
			(void)fsync(j->fd);
		errmsg_set(err, errlen, rc, "%s: %s", JOURNAL_FILE, strerror(-rc));
		goto out;
	}
	j->next_seq++;
out:
	free(line);
	json_object_put(o);
	return rc;
}

/* A new line object with schema, seq, op and id: the keys every line starts with. */
static struct json_object *line_start(struct journal *j, const char *op, const char *id)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (json_object_object_add(o, "schema", json_object_new_int(JOURNAL_SCHEMA)) ||
	    json_object_object_add(o, "seq", json_object_new_int64((int64_t)j->next_seq)) ||
	    json_object_object_add(o, "op", json_object_new_string(op)) ||
	    json_object_object_add(o, "id", json_object_new_string(id))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* Adds key: a deep copy of v (JSON null when v is NULL); -1 on no memory. */
static int add_copy(struct json_object *o, const char *key, struct json_object *v)
{
	struct json_object *c = NULL;

	if (v && json_object_deep_copy(v, &c, NULL))
		return -1;
	if (json_object_object_add(o, key, c)) {
		json_object_put(c);
		return -1;
	}
	return 0;
}

static int add_str(struct json_object *o, const char *key, const char *s)
{
	struct json_object *v = s ? json_object_new_string(s) : NULL;

	if ((s && !v) || json_object_object_add(o, key, v)) {
		json_object_put(v);
		return -1;
	}
	return 0;
}

/* The last key of every line. */
static int add_wall(struct json_object *o, int64_t wall_ns)
{
	return json_object_object_add(o, "wall_ns", json_object_new_int64(wall_ns));
}

int journal_change(struct journal *j, const char *kind, const char *id_prefix,
		   struct json_object *device, struct json_object *from, struct json_object *to,
		   const char *command, bool persistent, int64_t wall_ns,
		   char id_out[JOURNAL_ID_MAX], char *err, size_t errlen)
{
	char id[JOURNAL_ID_MAX];
	struct json_object *o;
	int rc;

	if (!j || !kind || !id_prefix || !command || !id_out)
		return errmsg_set(err, errlen, -EINVAL, "journal_change: missing argument");
	if (strlen(kind) >= JOURNAL_KIND_MAX || strlen(command) >= JOURNAL_COMMAND_MAX)
		return errmsg_set(err, errlen, -EINVAL, "journal_change: kind or command too long");
	if (snprintf(id, sizeof(id), "%s-%llu", id_prefix, (unsigned long long)j->next_id) >=
	    (int)sizeof(id))
		return errmsg_set(err, errlen, -EINVAL, "journal_change: id prefix too long");
	o = line_start(j, "change", id);
	if (!o || add_str(o, "kind", kind) || add_copy(o, "device", device) ||
	    add_copy(o, "from", from) || add_copy(o, "to", to) || add_str(o, "command", command) ||
	    json_object_object_add(o, "persistent", json_object_new_boolean(persistent)) ||
	    add_wall(o, wall_ns)) {
		json_object_put(o);
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	}
	rc = append(j, o, err, errlen);
	if (rc)
		return rc;
	j->next_id++;
	memcpy(id_out, id, sizeof(id));
	return 0;
}

int journal_done(struct journal *j, const char *id, bool ok, struct json_object *readback,
		 const char *error, int64_t wall_ns, char *err, size_t errlen)
{
	struct json_object *o;

	if (!j || !id)
		return errmsg_set(err, errlen, -EINVAL, "journal_done: missing argument");
	o = line_start(j, "done", id);
	if (!o || json_object_object_add(o, "ok", json_object_new_boolean(ok)) ||
	    add_copy(o, "readback", readback) || add_str(o, "error", ok ? NULL : error) ||
	    add_wall(o, wall_ns)) {
		json_object_put(o);
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	}
	return append(j, o, err, errlen);
}

int journal_restored(struct journal *j, const char *id, bool ok, struct json_object *readback,
		     const char *how, const char *error, int64_t wall_ns, char *err, size_t errlen)
{
	struct json_object *o;

	if (!j || !id)
		return errmsg_set(err, errlen, -EINVAL, "journal_restored: missing argument");
	o = line_start(j, "restored", id);
	if (!o || json_object_object_add(o, "ok", json_object_new_boolean(ok)) ||
	    add_copy(o, "readback", readback) || add_str(o, "how", how) ||
	    add_str(o, "error", ok ? NULL : error) || add_wall(o, wall_ns)) {
		json_object_put(o);
		return errmsg_set(err, errlen, -ENOMEM, "out of memory");
	}
	return append(j, o, err, errlen);
}
