/* SPDX-License-Identifier: MIT */
/*
 * results: the results directory's handle (see results.h and docs/results-format.md): its
 * name, its creation, reopening it for a resume (one writer per directory, a torn last record
 * cut), and the manifest written through it. The other files of this layer: files.c (whole
 * files, atomically), records.c (figures, keys), records_read.c and results_record.c (records
 * read and written), results_series.c (the CSV), snapshot.c and results_snapshot.c (snapshots).
 *
 * The metric queries over a record (results_record_metric) are here until the table of
 * metrics replaces them (issue 10, point 5).
 */
#include "results/results.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

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
	rc = files_mkdir_p(dir);
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
