/* SPDX-License-Identifier: MIT */
/*
 * results: the results directory (see results.h and docs/results-format.md).
 *
 * Durability rules kept here, in one place:
 *   - a whole file is written as <name>.tmp, fsync'ed, renamed over <name>, and the directory
 *     is fsync'ed, so a reader (or a crash) sees either the old file or the new one;
 *   - a record is one line written by a single write(2) on an O_APPEND descriptor and
 *     fsync'ed before the call returns: after a crash the file is a sequence of whole lines,
 *     possibly followed by one torn line (the write that was in flight), never anything else;
 *   - a failed append truncates the file back to where it was, so even a failed write does
 *     not leave a torn line in front of the next record.
 */
#include "results/results.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/fileio.h"
#include "base/hist.h"
#include "base/jsonnum.h"
#include "base/units.h"
#include "results/files.h"
#include "results/handle.h"

/* ---- names ---------------------------------------------------------------------------------- */

static int safe_char(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '.' || ch == '_' || ch == '+' || ch == '-';
}

int results_safe_name(const char *in, char *out, size_t len)
{
	char *tmp;
	size_t n = 0, start = 0;
	int rc = 0;

	if (!in)
		return -EINVAL;
	tmp = malloc(strlen(in) + 1);
	if (!tmp)
		return -ENOMEM;
	for (const unsigned char *p = (const unsigned char *)in; *p; p++) {
		if (safe_char(*p))
			tmp[n++] = (char)*p;
		else if (n && tmp[n - 1] != '-')
			tmp[n++] = '-';
	}
	/* No leading '.' or '-' (hidden files, options), no trailing '-'. */
	while (start < n && (tmp[start] == '.' || tmp[start] == '-'))
		start++;
	while (n > start && tmp[n - 1] == '-')
		n--;
	if (n == start)
		rc = -EINVAL;
	else if (n - start >= len)
		rc = -ENAMETOOLONG;
	else {
		memcpy(out, tmp + start, n - start);
		out[n - start] = '\0';
	}
	free(tmp);
	return rc;
}

int results_default_dir(const char *base, const char *profile, const char *target, int64_t unix_s,
			char *out, size_t len)
{
	char p[128], t[128], stamp[32];
	time_t tt = (time_t)unix_s;
	struct tm tm;
	int rc, n;

	rc = results_safe_name(profile, p, sizeof(p));
	if (!rc)
		rc = results_safe_name(target, t, sizeof(t));
	if (rc)
		return rc;
	if (!gmtime_r(&tt, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm))
		return -EINVAL;
	/* Measure first: out stays untouched when it is too small. */
	n = snprintf(NULL, 0, "%s/%s-%s-%s", base ? base : "results", p, t, stamp);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	snprintf(out, len, "%s/%s-%s-%s", base ? base : "results", p, t, stamp);
	return 0;
}

/* Adds a fact under key unless the manifest has one (a resumed run keeps its first). */
static int add_fact(struct json_object *m, const char *key, struct json_object *fact)
{
	if (!fact || json_object_object_get_ex(m, key, NULL))
		return 0;
	json_object_get(fact);
	return jsonnum_add(m, key, fact) ? -ENOMEM : 0;
}

int results_write_manifest(struct results *r, struct json_object *manifest,
			   const struct results_facts *facts)
{
	int rc;

	if (!r || !json_object_is_type(manifest, json_type_object))
		return -EINVAL;
	if (facts && ((rc = add_fact(manifest, "host", facts->host)) ||
		      (rc = add_fact(manifest, "link", facts->link))))
		return rc;
	return files_write_in_dir(r->path, RESULTS_MANIFEST_FILE, manifest);
}

/* ---- lifecycle ------------------------------------------------------------------------------ */

/* mkdir -p; each directory it makes is fsync'ed into its parent, so the path survives a crash. */
static int mkdir_p(const char *path)
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

static int dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return -errno;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			empty = 0;
			break;
		}
	closedir(d);
	return empty;
}

/* The number after the last snapshot file's NNNN- prefix, so that numbering continues. */
static unsigned next_snapshot_seq(const char *dir)
{
	char *sd = files_path_join(dir, "snapshots");
	DIR *d = sd ? opendir(sd) : NULL;
	struct dirent *e;
	unsigned next = 0;

	while (d && (e = readdir(d))) {
		char *end;
		unsigned long v = strtoul(e->d_name, &end, 10);

		if (end != e->d_name && *end == '-' && v < UINT_MAX && v + 1 > next)
			next = (unsigned)v + 1;
	}
	if (d)
		closedir(d);
	free(sd);
	return next;
}

static int open_handle(const char *dir, struct results **out)
{
	struct results *r = calloc(1, sizeof(*r));
	char *rp = NULL;
	int rc = 0;

	if (!r)
		return -ENOMEM;
	r->recfd = -1;
	r->path = strdup(dir);
	rp = files_path_join(dir, RESULTS_RECORDS_FILE);
	if (!r->path || !rp) {
		rc = -ENOMEM;
		goto fail;
	}
	r->recfd = open(rp, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (r->recfd < 0) {
		rc = -errno;
		goto fail;
	}
	/*
	 * One writer per directory: a `resume` started while the run is still alive would
	 * interleave records. The lock goes with the descriptor (also when the process dies).
	 */
	if (flock(r->recfd, LOCK_EX | LOCK_NB)) {
		rc = errno == EWOULDBLOCK ? -EBUSY : -errno;
		goto fail;
	}
	r->next_seq = next_snapshot_seq(dir);
	free(rp);
	*out = r;
	return 0;
fail:
	free(rp);
	results_close(r);
	return rc;
}

int results_create(const char *dir, struct results **out)
{
	static const char *const subdirs[] = {"series", "snapshots"};
	char *parent = NULL;
	struct results *r = NULL;
	int rc;

	if (!dir || !*dir || !out)
		return -EINVAL;
	rc = mkdir_p(dir);
	if (rc)
		return rc;
	rc = dir_is_empty(dir);
	if (rc <= 0)
		return rc ? rc : -EEXIST;
	for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]); i++) {
		char *p = files_path_join(dir, subdirs[i]);

		if (!p)
			return -ENOMEM;
		rc = mkdir(p, 0755) ? -errno : 0;
		free(p);
		if (rc)
			return rc;
	}
	rc = open_handle(dir, &r);
	if (rc)
		return rc;
	/* The new entries must survive a crash too: the directory itself and its parent. */
	parent = files_dir_of(dir);
	rc = parent ? files_fsync_dir(dir) : -ENOMEM;
	if (!rc)
		rc = files_fsync_dir(parent);
	free(parent);
	if (rc) {
		results_close(r);
		return rc;
	}
	*out = r;
	return 0;
}

int results_open(const char *dir, struct results **out, struct results_records *rrout)
{
	struct results_records rr;
	struct results *r = NULL;
	char *mp;
	int rc;

	if (!dir || !out)
		return -EINVAL;
	mp = files_path_join(dir, RESULTS_MANIFEST_FILE);
	if (!mp)
		return -ENOMEM;
	rc = access(mp, F_OK) ? -errno : 0;
	free(mp);
	if (rc)
		return rc;
	/* Lock first, so that nobody appends between reading and cutting a torn tail. */
	rc = open_handle(dir, &r);
	if (rc)
		return rc;
	memset(&rr, 0, sizeof(rr));
	rc = results_read_records(dir, &rr);
	if (rc) {
		if (rrout && rc == -EBADMSG)
			rrout->bad_line = rr.bad_line;
		results_close(r);
		return rc;
	}
	/* Drop the torn tail for good, so that the next append starts a clean line. */
	if (rr.torn_last && (ftruncate(r->recfd, (off_t)rr.valid_bytes) || fsync(r->recfd))) {
		rc = -errno;
		results_records_release(&rr);
		results_close(r);
		return rc;
	}
	*out = r;
	if (rrout)
		*rrout = rr;
	else
		results_records_release(&rr);
	return 0;
}

void results_close(struct results *r)
{
	if (!r)
		return;
	if (r->recfd >= 0)
		close(r->recfd);
	free(r->path);
	free(r);
}

const char *results_path(const struct results *r)
{
	return r->path;
}

/* ---- records -------------------------------------------------------------------------------- */

/* The percentiles every record and summary reports, and their key names. */
static const struct {
	double p;
	const char *key;
} percentiles[] = {
    {50, "p50"},     {90, "p90"},	{95, "p95"},	     {99, "p99"},
    {99.9, "p99_9"}, {99.99, "p99_99"}, {99.999, "p99_999"},
};

static double rate(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : NAN;
}

struct json_object *results_lat_json(const struct hist *h)
{
	struct json_object *o;

	if (!h->count)
		return NULL; /* JSON null: no latency without I/O */
	o = json_object_new_object();
	if (!o)
		return NULL;
	if (jsonnum_add(o, "mean", jsonnum_new(hist_mean(h))) ||
	    jsonnum_add(o, "min", json_object_new_uint64(h->min)))
		goto fail;
	for (size_t i = 0; i < sizeof(percentiles) / sizeof(percentiles[0]); i++)
		if (jsonnum_add(o, percentiles[i].key,
				json_object_new_uint64(hist_percentile(h, percentiles[i].p))))
			goto fail;
	if (jsonnum_add(o, "max", json_object_new_uint64(h->max)))
		goto fail;
	return o;
fail:
	json_object_put(o);
	return NULL;
}

struct json_object *results_figures_json(uint64_t ios, uint64_t bytes, uint64_t elapsed_ns,
					 const struct hist *h)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (jsonnum_add(o, "ios", json_object_new_uint64(ios)) ||
	    jsonnum_add(o, "bytes", json_object_new_uint64(bytes)) ||
	    jsonnum_add(o, "iops", jsonnum_new(rate(ios, elapsed_ns))) ||
	    jsonnum_add(o, "bw_bps", jsonnum_new(rate(bytes, elapsed_ns))) ||
	    (h && jsonnum_add(o, "lat_ns", results_lat_json(h)))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* Names of enum results_flag's bits, in bit order. */
static const char *const flag_names[] = {"host_limited", "io_error", "resumed", "short", "no_io"};
_Static_assert(1u << (sizeof(flag_names) / sizeof(flag_names[0]) - 1) == RESULTS_F_NO_IO,
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

static int get_str(struct json_object *o, const char *key, const char **s)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) || !json_object_is_type(x, json_type_string))
		return -EINVAL;
	*s = json_object_get_string(x);
	return 0;
}

int results_record_key(struct json_object *rec, char *buf, size_t len)
{
	const char *cell, *kind;
	struct json_object *x;
	uint64_t repeat, round;
	int64_t phase;
	int n;

	if (!rec || !json_object_object_get_ex(rec, "phase", &x) ||
	    !json_object_is_type(x, json_type_int) || jsonnum_get_u64(rec, "repeat", &repeat) ||
	    jsonnum_get_u64(rec, "round", &round) || get_str(rec, "cell", &cell) ||
	    get_str(rec, "kind", &kind))
		return -EINVAL;
	phase = json_object_get_int64(x);
#define KEY_FMT "phase=%" PRId64 ",repeat=%" PRIu64 ",round=%" PRIu64 ",cell=%s,kind=%s"
	n = snprintf(NULL, 0, KEY_FMT, phase, repeat, round, cell, kind);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	snprintf(buf, len, KEY_FMT, phase, repeat, round, cell, kind);
#undef KEY_FMT
	return 0;
}

/* Parsed metric name: direction mask (bit 0 read, bit 1 write), quantity, percentile. */
enum metric_q { M_IOPS, M_BW, M_LAT_MEAN, M_LAT_MAX, M_LAT_PCT };

static int parse_metric(const char *m, unsigned *dirs, enum metric_q *q, double *pct)
{
	char num[32];
	size_t i;

	*dirs = 3;
	if (!strncmp(m, "read_", 5)) {
		*dirs = 1;
		m += 5;
	} else if (!strncmp(m, "write_", 6)) {
		*dirs = 2;
		m += 6;
	}
	if (!strcmp(m, "iops"))
		*q = M_IOPS;
	else if (!strcmp(m, "bw"))
		*q = M_BW;
	else if (!strcmp(m, "lat_mean"))
		*q = M_LAT_MEAN;
	else if (!strcmp(m, "lat_max"))
		*q = M_LAT_MAX;
	else if (!strncmp(m, "lat_p", 5)) {
		/* "lat_p99_9" or "lat_p99.9": digits with '_' or '.' as the decimal point. */
		m += 5;
		for (i = 0; m[i] && i + 1 < sizeof(num); i++) {
			num[i] = m[i] == '_' ? '.' : m[i];
			if (!isdigit((unsigned char)num[i]) && num[i] != '.')
				return -EINVAL;
		}
		num[i] = '\0';
		if (m[i] || !isdigit((unsigned char)num[0]) || units_parse_double(num, pct) ||
		    !(*pct > 0 && *pct < 100))
			return -EINVAL;
		*q = M_LAT_PCT;
	} else
		return -EINVAL;
	return 0;
}

int results_record_metric(struct json_object *rec, const char *metric, double *v)
{
	static const char *const dirkey[2] = {"read", "write"};
	struct hist *h = NULL, *one = NULL;
	enum metric_q q;
	unsigned dirs;
	double pct = 0, sum = 0, result = 0;
	uint64_t elapsed, n;
	int rc;

	if (!rec || !metric || parse_metric(metric, &dirs, &q, &pct))
		return -EINVAL;
	if (q == M_IOPS || q == M_BW) {
		if (jsonnum_get_u64(rec, "elapsed_ns", &elapsed) || !elapsed)
			return -ENODATA;
		for (int d = 0; d < 2; d++) {
			struct json_object *o;

			if (!(dirs & (1u << d)))
				continue;
			if (!json_object_object_get_ex(rec, dirkey[d], &o) ||
			    jsonnum_get_u64(o, q == M_IOPS ? "ios" : "bytes", &n))
				return -ENODATA;
			sum += (double)n;
		}
		*v = sum * 1e9 / (double)elapsed;
		return 0;
	}
	h = malloc(sizeof(*h));
	one = malloc(sizeof(*one));
	if (!h || !one) {
		rc = -ENOMEM;
		goto out;
	}
	hist_init(h);
	for (int d = 0; d < 2; d++) {
		struct json_object *o, *hj;

		if (!(dirs & (1u << d)))
			continue;
		if (!json_object_object_get_ex(rec, dirkey[d], &o) ||
		    !json_object_object_get_ex(o, "hist", &hj) || hist_from_json(hj, one)) {
			rc = -ENODATA;
			goto out;
		}
		hist_merge(h, one);
	}
	if (!h->count) {
		rc = -ENODATA;
		goto out;
	}
	if (q == M_LAT_MEAN)
		result = hist_mean(h);
	else if (q == M_LAT_MAX)
		result = (double)h->max;
	else
		result = (double)hist_percentile(h, pct);
	*v = result;
	rc = 0;
out:
	free(h);
	free(one);
	return rc;
}
