/* SPDX-License-Identifier: MIT */
/*
 * test_results: the results directory format: safe names, directory creation, the atomic
 * manifest (a new inode each time, a stale temp file ignored), records appended and read back,
 * a torn last line dropped (and cut off by results_open so that appends continue cleanly), a
 * torn line in the middle refused, metrics recomputed from raw figures against values worked
 * out by hand, the series CSV, snapshot numbering across reopen, and '.' decimals under a
 * comma-decimal locale (de_DE.UTF-8; that case skips when the locale is not installed, and
 * tests/integration/locale_test.sh generates it and runs this program again).
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "base/hist.h"
#include "host/hostinfo.h"
#include "results/results.h"
#include "run/record.h"
#include "testutil.h"

struct fixture {
	char *dir; /* temp dir */
	char *run; /* dir/run: the results directory */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->dir = tu_mkdtemp("results");
	if (!f->dir || asprintf(&f->run, "%s/run", f->dir) < 0)
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	tu_rmtree(f->dir);
	free(f->dir);
	free(f->run);
	free(f);
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *b;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, fp) != (size_t)n) {
		free(b);
		b = NULL;
	}
	if (b)
		b[n] = '\0';
	if (len)
		*len = (size_t)n;
	fclose(fp);
	return b;
}

static void append_raw(const char *dir, const char *bytes, size_t n)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/records.jsonl", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, n), (ssize_t)n);
	close(fd);
}

static off_t file_size(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (stat(path, &st))
		return -1;
	return st.st_size;
}

/* ---- names ---------------------------------------------------------------------------------- */

static void test_safe_name(void **state)
{
	static const struct {
		const char *in, *out;
		int rc;
	} cases[] = {
	    {"/dev/sdb", "dev-sdb", 0},
	    {"sim:client-tlc", "sim-client-tlc", 0},
	    {"./t.img", "t.img", 0},
	    {"../../etc/passwd", "etc-passwd", 0},
	    {"a b\tc", "a-b-c", 0},
	    {"disk (Ä) #2", "disk-2", 0},
	    {"snia-iops_v2+x", "snia-iops_v2+x", 0},
	    {"///", NULL, -EINVAL},
	    {"..", NULL, -EINVAL},
	    {"", NULL, -EINVAL},
	    {"abcdefghijklmnop", NULL, -ENAMETOOLONG}, /* 16 chars into 16 bytes */
	};
	char out[16];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strcpy(out, "untouched");
		assert_int_equal(results_safe_name(cases[i].in, out, sizeof(out)), cases[i].rc);
		assert_string_equal(out, cases[i].rc ? "untouched" : cases[i].out);
	}
}

static void test_default_dir(void **state)
{
	char out[256];

	(void)state;
	assert_int_equal(results_default_dir(NULL, "snia-iops", "/dev/sdb", 0, out, sizeof(out)),
			 0);
	assert_string_equal(out, "results/snia-iops-dev-sdb-19700101T000000Z");
	/* 1700000000 s = 2023-11-14 22:13:20 UTC */
	assert_int_equal(
	    results_default_dir("/tmp/r", "wsat", "sim:client-tlc", 1700000000, out, sizeof(out)),
	    0);
	assert_string_equal(out, "/tmp/r/wsat-sim-client-tlc-20231114T221320Z");
	strcpy(out, "untouched");
	assert_int_equal(results_default_dir(NULL, "wsat", "sim:x", 0, out, 20), -ENAMETOOLONG);
	assert_string_equal(out, "untouched");
	assert_int_equal(results_default_dir(NULL, "", "sim:x", 0, out, sizeof(out)), -EINVAL);
}

/* ---- directory and manifest ----------------------------------------------------------------- */

static void test_create(void **state)
{
	struct fixture *f = *state;
	struct results *r = NULL;
	char nested[4096];
	struct stat st;

	assert_int_equal(results_create(f->run, &r), 0);
	assert_string_equal(results_path(r), f->run);
	snprintf(nested, sizeof(nested), "%s/series", f->run);
	assert_int_equal(stat(nested, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	snprintf(nested, sizeof(nested), "%s/snapshots", f->run);
	assert_int_equal(stat(nested, &st), 0);
	results_close(r);
	/* Never mix two runs in one directory. */
	r = NULL;
	assert_int_equal(results_create(f->run, &r), -EEXIST);
	assert_null(r);
	/* Missing parents are made. */
	snprintf(nested, sizeof(nested), "%s/a/b/c", f->dir);
	assert_int_equal(results_create(nested, &r), 0);
	results_close(r);
	results_close(NULL);
	/* Opening needs a manifest. */
	assert_int_equal(results_open(nested, &r, NULL), -ENOENT);
}

static void test_manifest_atomic(void **state)
{
	struct fixture *f = *state;
	struct results *r;
	struct json_object *m, *back, *x;
	char path[4096], tmp[4096];
	struct stat st1, st2;
	struct utsname u;
	struct hostinfo h;
	struct results_facts facts = {0};
	char *text;

	assert_int_equal(results_create(f->run, &r), 0);
	m = json_tokener_parse("{\"profile\":\"snia-iops\",\"seed\":42,\"path\":\"/dev/sdb\"}");
	/* The facts are the caller's (run/host_facts.h probes them); the writer only adds them. */
	hostinfo_collect(NULL, &h);
	facts.host = hostinfo_to_json(&h);
	assert_non_null(facts.host);
	assert_int_equal(results_write_manifest(r, m, &facts), 0);
	json_object_put(m);
	snprintf(path, sizeof(path), "%s/manifest.json", f->run);
	snprintf(tmp, sizeof(tmp), "%s/manifest.json.tmp", f->run);
	assert_int_equal(stat(path, &st1), 0);
	assert_int_not_equal(access(tmp, F_OK), 0); /* no temp file left behind */
	text = slurp(path, NULL);
	assert_non_null(strstr(text, "\"path\": \"/dev/sdb\"")); /* '/' not escaped */
	assert_true(text[strlen(text) - 1] == '\n');
	free(text);
	assert_int_equal(results_read_manifest(f->run, &back), 0);
	assert_true(json_object_object_get_ex(back, "schema", &x));
	assert_int_equal(json_object_get_int(x), 1);
	/* The host state was added, from this host. */
	assert_int_equal(uname(&u), 0);
	assert_true(json_object_object_get_ex(back, "host", &x));
	assert_true(json_object_object_get_ex(x, "kernel", &x));
	assert_string_equal(json_object_get_string(x), u.release);
	assert_false(json_object_object_get_ex(back, "link", NULL)); /* no block device target */
	json_object_put(back);

	/* A rewrite replaces the file by rename (a new inode), never in place ... A link given is
	 * added; a "host" the manifest has already is kept. */
	m = json_tokener_parse("{\"profile\":\"snia-iops\",\"seed\":43,\"host\":{\"kernel\":\"k\"}}");
	facts.link = json_tokener_parse("{\"transport\":\"sata\"}");
	assert_int_equal(results_write_manifest(r, m, &facts), 0);
	json_object_put(m);
	json_object_put(facts.host);
	json_object_put(facts.link);
	assert_int_equal(stat(path, &st2), 0);
	assert_true(st1.st_ino != st2.st_ino);
	/* ... so a crash during a write leaves at most a stale temp file, which readers ignore. */
	assert_int_equal(tu_write_file(tmp, "{\"profile\": \"half-writ"), 0);
	assert_int_equal(results_read_manifest(f->run, &back), 0);
	assert_true(json_object_object_get_ex(back, "seed", &x));
	assert_int_equal(json_object_get_int(x), 43);
	assert_true(json_object_object_get_ex(back, "link", &x));
	assert_true(json_object_object_get_ex(x, "transport", &x));
	assert_string_equal(json_object_get_string(x), "sata");
	assert_true(json_object_object_get_ex(back, "host", &x));
	assert_true(json_object_object_get_ex(x, "kernel", &x));
	assert_string_equal(json_object_get_string(x), "k");
	json_object_put(back);
	/* A corrupt file is reported, not half-read. */
	assert_int_equal(tu_write_file(path, "{\"profile\": \"half-writ"), 0);
	assert_int_equal(results_read_manifest(f->run, &back), -EBADMSG);
	results_close(r);
}

/* ---- records -------------------------------------------------------------------------------- */

/*
 * A job with hand-checkable figures: 2 s measured; reads 1000 I/Os / 4096000 B with latencies
 * 1..60 ns, writes 3000 I/Os / 12288000 B with latencies 61..120 ns (values below 128 ns are
 * exact in the histogram).
 */
static void fake_job(struct job_result *j)
{
	memset(j, 0, sizeof(*j));
	hist_init(&j->d[0].lat);
	hist_init(&j->d[1].lat);
	j->elapsed_ns = 2000000000ull;
	j->d[IO_READ].ios = 1000;
	j->d[IO_READ].bytes = 4096000;
	j->d[IO_WRITE].ios = 3000;
	j->d[IO_WRITE].bytes = 12288000;
	for (uint64_t v = 1; v <= 60; v++)
		hist_add(&j->d[IO_READ].lat, v);
	for (uint64_t v = 61; v <= 120; v++)
		hist_add(&j->d[IO_WRITE].lat, v);
	j->cpu_user_s = 0.25;
	j->cpu_sys_s = 0.125;
	j->bytes_written_total = 12288000;
	snprintf(j->clock_source, sizeof(j->clock_source), "virtual");
}

static struct json_object *make_record(unsigned round, const char *cell, const struct job_result *j)
{
	struct results_record rec = {
	    .kind = "cell",
	    .phase = 2,
	    .phase_kind = "rounds",
	    .round = round,
	    .cell = cell,
	    .start_ns = 1000ull * round,
	    .end_ns = 1000ull * round + 999,
	    .flags = round == 2 ? RESULTS_F_HOST_LIMITED : 0,
	};

	return run_record_to_json(&rec, j);
}

static void test_records_roundtrip(void **state)
{
	struct fixture *f = *state;
	struct results_records rr;
	struct json_object *m, *x, *y;
	struct job_result *j = malloc(sizeof(*j));
	struct results *r;
	char key[256], path[4096], *text;
	size_t len, lines = 0;

	assert_non_null(j);
	fake_job(j);
	assert_int_equal(results_create(f->run, &r), 0);
	m = json_object_new_object();
	assert_int_equal(results_write_manifest(r, m, NULL), 0);
	json_object_put(m);
	for (unsigned round = 1; round <= 3; round++) {
		struct json_object *rec = make_record(round, "rwmix_read=0,bs=4k", j);

		assert_non_null(rec);
		assert_int_equal(results_append_record(r, rec), 0);
		json_object_put(rec);
	}
	results_close(r);

	snprintf(path, sizeof(path), "%s/records.jsonl", f->run);
	text = slurp(path, &len);
	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	assert_int_equal(lines, 3);
	assert_true(text[len - 1] == '\n');
	free(text);

	assert_int_equal(results_read_records(f->run, &rr), 0);
	assert_int_equal(rr.n, 3);
	assert_false(rr.torn_last);
	assert_int_equal(rr.valid_bytes, len);
	assert_int_equal(results_record_key(rr.rec[1], key, sizeof(key)), 0);
	assert_string_equal(key, "phase=2,repeat=0,round=2,cell=rwmix_read=0,bs=4k,kind=cell");
	strcpy(key, "untouched");
	assert_int_equal(results_record_key(rr.rec[1], key, 20), -ENAMETOOLONG);
	assert_string_equal(key, "untouched");
	assert_true(json_object_object_get_ex(rr.rec[1], "flags", &x));
	assert_string_equal(json_object_get_string(json_object_array_get_idx(x, 0)),
			    "host_limited");
	/* Derived figures as stored: 1000 reads in 2 s; write p50 of 61..120 = rank 30 = 90. */
	assert_true(json_object_object_get_ex(rr.rec[0], "read", &x));
	assert_true(json_object_object_get_ex(x, "iops", &y));
	assert_true(json_object_get_double(y) == 500);
	assert_true(json_object_object_get_ex(rr.rec[0], "write", &x));
	assert_true(json_object_object_get_ex(x, "lat_ns", &x));
	assert_true(json_object_object_get_ex(x, "p50", &y));
	assert_int_equal(json_object_get_int64(y), 90);
	assert_true(json_object_object_get_ex(rr.rec[0], "cpu_sys_s", &y));
	assert_true(json_object_get_double(y) == 0.125);
	results_records_release(&rr);
	results_records_release(&rr); /* idempotent */
	free(j);
}

static void test_metrics(void **state)
{
	static const struct {
		const char *metric;
		int rc;
		double v;
	} cases[] = {
	    {"iops", 0, 2000}, /* 4000 I/Os / 2 s */
	    {"read_iops", 0, 500},	{"write_iops", 0, 1500},
	    {"bw", 0, 8192000},				       /* 16384000 B / 2 s */
	    {"write_bw", 0, 6144000},	{"lat_mean", 0, 60.5}, /* mean of 1..120 */
	    {"read_lat_mean", 0, 30.5}, {"lat_max", 0, 120},
	    {"read_lat_max", 0, 60},	{"lat_p50", 0, 60}, /* rank ceil(0.5 x 120) = 60 */
	    {"lat_p90", 0, 108},			    /* rank 108 */
	    {"write_lat_p99", 0, 120},			    /* rank ceil(59.4) = 60 of 61..120 */
	    {"lat_p99_9", 0, 120},	{"lat_p99.9", 0, 120},
	    {"read_lat_p25", 0, 15}, /* rank 15 of 1..60 */
	    {"speed", -EINVAL, 0},	{"lat_p", -EINVAL, 0},
	    {"lat_p100", -EINVAL, 0},	{"lat_p9x", -EINVAL, 0},
	    {"read_", -EINVAL, 0},
	};
	struct job_result *j = malloc(sizeof(*j));
	struct json_object *rec, *idle;
	struct results_record none = {.kind = "idle", .phase = 3, .phase_kind = "idle"};
	double v;

	(void)state;
	assert_non_null(j);
	fake_job(j);
	rec = make_record(1, "c", j);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = -1;
		if (results_record_metric(rec, cases[i].metric, &v) != cases[i].rc)
			fail_msg("%s: wrong return", cases[i].metric);
		if (!cases[i].rc && fabs(v - cases[i].v) > 1e-9)
			fail_msg("%s = %.17g, expected %.17g", cases[i].metric, v, cases[i].v);
		if (cases[i].rc)
			assert_true(v == -1);
	}
	idle = results_record_to_json(&none);
	assert_int_equal(results_record_metric(idle, "iops", &v), -ENODATA);
	assert_int_equal(results_record_metric(idle, "lat_p99", &v), -ENODATA);
	json_object_put(idle);
	json_object_put(rec);
	free(j);
}

/* Creates a run with a manifest and n good records; returns nothing, asserts. */
static void make_run(const char *dir, unsigned n)
{
	struct results *r;
	struct json_object *m = json_object_new_object();
	struct results_record rec = {.kind = "idle", .phase = 0, .phase_kind = "idle"};

	assert_int_equal(results_create(dir, &r), 0);
	assert_int_equal(results_write_manifest(r, m, NULL), 0);
	json_object_put(m);
	for (unsigned i = 0; i < n; i++) {
		struct json_object *o;

		rec.round = i + 1;
		o = results_record_to_json(&rec);
		assert_int_equal(results_append_record(r, o), 0);
		json_object_put(o);
	}
	results_close(r);
}

static void test_torn_last_line(void **state)
{
	static const struct {
		const char *what;
		const char *tail;
		size_t len;
	} tails[] = {
	    {"cut in the middle", "{\"schema\":1,\"kind\":\"ce", 22},
	    {"complete object, no newline", "{\"schema\":1,\"kind\":\"idle\"}", 26},
	    {"zeros from a power loss", "\0\0\0\0\0\0\0\0", 8},
	    {"garbage line", "#!%\n", 4},
	};
	struct fixture *f = *state;

	for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
		struct results_records rr;
		struct results *r;
		struct json_object *o;
		struct results_record rec = {.kind = "idle", .phase = 1, .phase_kind = "idle"};
		off_t good;

		tu_rmtree(f->run);
		make_run(f->run, 3);
		good = file_size(f->run, "records.jsonl");
		append_raw(f->run, tails[t].tail, tails[t].len);

		/* Reading reports and drops it, and leaves the file alone. */
		assert_int_equal(results_read_records(f->run, &rr), 0);
		if (rr.n != 3 || !rr.torn_last)
			fail_msg("%s: n=%zu torn=%d", tails[t].what, rr.n, rr.torn_last);
		assert_int_equal(rr.torn_bytes, tails[t].len);
		assert_int_equal(rr.valid_bytes, good);
		results_records_release(&rr);
		assert_int_equal(file_size(f->run, "records.jsonl"), good + (off_t)tails[t].len);

		/* Opening to resume cuts it off, so that the next record starts a clean line. */
		assert_int_equal(results_open(f->run, &r, &rr), 0);
		/* ... and nobody else may append meanwhile. */
		{
			struct results *second = NULL;

			assert_int_equal(results_open(f->run, &second, NULL), -EBUSY);
			assert_null(second);
		}
		assert_true(rr.torn_last);
		assert_int_equal(rr.n, 3);
		results_records_release(&rr);
		assert_int_equal(file_size(f->run, "records.jsonl"), good);
		o = results_record_to_json(&rec);
		assert_int_equal(results_append_record(r, o), 0);
		json_object_put(o);
		results_close(r);
		assert_int_equal(results_read_records(f->run, &rr), 0);
		assert_int_equal(rr.n, 4);
		assert_false(rr.torn_last);
		results_records_release(&rr);
	}
}

static void test_torn_middle_line(void **state)
{
	struct fixture *f = *state;
	struct results_records rr;
	struct results *r = NULL;
	const char *line = "{\"schema\":1,\"kind\":\"idle\",\"phase\":0}\n";
	off_t size;

	make_run(f->run, 2);
	append_raw(f->run, "{\"schema\":1,\"ki", 15); /* torn ... */
	append_raw(f->run, line, strlen(line));	      /* ... then appended to ... */
	append_raw(f->run, line, strlen(line));	      /* ... and after: a corrupt line 3 */
	size = file_size(f->run, "records.jsonl");
	memset(&rr, 0, sizeof(rr));
	assert_int_equal(results_read_records(f->run, &rr), -EBADMSG);
	assert_int_equal(rr.bad_line, 3);
	assert_null(rr.rec);
	assert_int_equal(results_open(f->run, &r, &rr), -EBADMSG);
	assert_null(r);
	assert_int_equal(file_size(f->run, "records.jsonl"), size); /* left as it is */

	/* A valid JSON line that is not a record (no schema, or not an object) is corrupt too. */
	tu_rmtree(f->run);
	make_run(f->run, 1);
	append_raw(f->run, "[1,2]\n", 6);
	append_raw(f->run, line, strlen(line));
	assert_int_equal(results_read_records(f->run, &rr), -EBADMSG);
	assert_int_equal(rr.bad_line, 2);
	/* No file yet: no records. */
	tu_rmtree(f->run);
	assert_int_equal(mkdir(f->run, 0755), 0);
	assert_int_equal(results_read_records(f->run, &rr), 0);
	assert_int_equal(rr.n, 0);
}

/*
 * A failed append (here: the file size limit, which makes the kernel accept part of the line and
 * then refuse the rest) leaves the file as it was, not with a torn line in front of the next.
 */
static void test_failed_append(void **state)
{
	struct fixture *f = *state;
	struct results_records rr;
	struct results_record rec = {.kind = "idle", .phase = 0, .phase_kind = "idle"};
	struct json_object *o;
	struct results *r;
	struct rlimit old, lim;
	off_t size;

	make_run(f->run, 2);
	size = file_size(f->run, "records.jsonl");
	assert_int_equal(results_open(f->run, &r, NULL), 0);
	o = results_record_to_json(&rec);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = (rlim_t)size + 20; /* less than a record line */
	signal(SIGXFSZ, SIG_IGN);	  /* EFBIG instead of death */
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	assert_int_equal(results_append_record(r, o), -EFBIG);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(file_size(f->run, "records.jsonl"), size);
	/* The next append works and the file is whole. */
	assert_int_equal(results_append_record(r, o), 0);
	json_object_put(o);
	results_close(r);
	assert_int_equal(results_read_records(f->run, &rr), 0);
	assert_int_equal(rr.n, 3);
	assert_false(rr.torn_last);
	results_records_release(&rr);
}

/* ---- series, snapshots ---------------------------------------------------------------------- */

static void test_series(void **state)
{
	struct fixture *f = *state;
	struct series_row rows[2];
	struct results *r;
	char path[4096], *text;
	const char *want =
	    "t_ns,interval_ns,read_ios,read_bytes,read_iops,read_bw_bps,read_lat_mean_ns,"
	    "read_lat_p99_ns,read_lat_max_ns,write_ios,write_bytes,write_iops,write_bw_bps,"
	    "write_lat_mean_ns,write_lat_p99_ns,write_lat_max_ns,temperature_c,total_bytes_written,round\n"
	    /* 10 reads of 4 KiB in 1 s; 3 writes in 1 s */
	    "1000000000,1000000000,10,40960,10.000,40960.000,1500.5,3000,4000,3,12288,3.000,"
	    "12288.000,20000.2,30000,40000,41.85,12288,0\n"
	    /* second row over 0.5 s: 5 writes -> 10 IOPS, 20480 B -> 40960 B/s */
	    "1500000000,500000000,0,0,0.000,0.000,,0,0,5,20480,10.000,40960.000,12345.7,20000,"
	    "25000,,32768,0\n"; /* no temperature: an empty field */

	memset(rows, 0, sizeof(rows));
	rows[0].has_temp = true;
	rows[0].temperature_c = 41.85;
	rows[0].t_ns = 1000000000;
	rows[0].d[0].ios = 10;
	rows[0].d[0].bytes = 40960;
	rows[0].d[0].lat_mean_ns = 1500.5;
	rows[0].d[0].lat_p99_ns = 3000;
	rows[0].d[0].lat_max_ns = 4000;
	rows[0].d[1].ios = 3;
	rows[0].d[1].bytes = 12288;
	rows[0].d[1].lat_mean_ns = 20000.24;
	rows[0].d[1].lat_p99_ns = 30000;
	rows[0].d[1].lat_max_ns = 40000;
	rows[0].total_bytes_written = 12288;
	rows[1].t_ns = 1500000000;
	rows[1].d[1].ios = 5;
	rows[1].d[1].bytes = 20480;
	rows[1].d[1].lat_mean_ns = 12345.67;
	rows[1].d[1].lat_p99_ns = 20000;
	rows[1].d[1].lat_max_ns = 25000;
	rows[1].total_bytes_written = 32768;

	assert_int_equal(results_create(f->run, &r), 0);
	assert_int_equal(results_write_series(r, "phase-1 precondition", rows, 2), 0);
	snprintf(path, sizeof(path), "%s/series/phase-1-precondition.csv", f->run);
	text = slurp(path, NULL);
	assert_non_null(text);
	assert_string_equal(text, want);
	free(text);
	/* Rewriting replaces. */
	assert_int_equal(results_write_series(r, "phase-1 precondition", rows, 1), 0);
	text = slurp(path, NULL);
	assert_int_equal(strlen(text), strchr(strchr(want, '\n') + 1, '\n') + 1 - want);
	free(text);
	results_close(r);
}

/* The rows of one chunk: n rows of 1 s each, 1000 bytes written in each. */
static void chunk_rows(struct series_row *rows, size_t n)
{
	memset(rows, 0, n * sizeof(*rows));
	for (size_t i = 0; i < n; i++) {
		rows[i].t_ns = (i + 1) * 1000000000ull;
		rows[i].d[1].ios = 1;
		rows[i].d[1].bytes = 1000;
		rows[i].total_bytes_written = (i + 1) * 1000;
	}
}

/* "t_ns total round" of every data line, for comparing by hand. */
static char *series_digest(const char *path)
{
	char *text = slurp(path, NULL), *out, *o;

	assert_non_null(text);
	out = o = calloc(1, strlen(text) + 1);
	assert_non_null(out);
	for (char *l = strchr(text, '\n') + 1; *l;) {
		char *e = strchr(l, '\n'), *f[19];
		int n = 0;

		assert_non_null(e);
		*e = 0;
		for (char *c = l; n < 19 && c; c = strchr(c, ','), c = c ? c + 1 : NULL)
			f[n++] = c;
		assert_int_equal(n, 19);
		o += sprintf(o, "%llu %llu %llu;", strtoull(f[0], NULL, 10), strtoull(f[17], NULL, 10),
			     strtoull(f[18], NULL, 10));
		l = e + 1;
	}
	free(text);
	return out;
}

/* A chunked phase has one series file: chunks are appended with their round and offsets; a chunk
 * run again after a crash (its rows written, its record not) replaces its rows rather than adding
 * them twice, and so does a chunk after a torn last line. */
static void test_series_append(void **state)
{
	static const struct {
		const char *name;
		unsigned round, nrows;
		uint64_t off; /* chunks before: 1 s and 1000 bytes each */
		bool torn;    /* append a torn line first (a crash cut a write) */
		const char *want;
	} steps[] = {
	    {"pre", 1, 2, 0, false, "1000000000 1000 1;2000000000 2000 1;"},
	    {"pre", 2, 3, 2, false,
	     "1000000000 1000 1;2000000000 2000 1;3000000000 3000 2;4000000000 4000 2;"
	     "5000000000 5000 2;"},
	    /* resumed: chunk 2 runs again (after a crash before its record) */
	    {"pre", 2, 1, 2, false, "1000000000 1000 1;2000000000 2000 1;3000000000 3000 2;"},
	    {"pre", 3, 1, 3, true,
	     "1000000000 1000 1;2000000000 2000 1;3000000000 3000 2;4000000000 4000 3;"},
	    /* a phase of one step (round 0) run again replaces its rows */
	    {"one", 0, 2, 0, false, "1000000000 1000 0;2000000000 2000 0;"},
	    {"one", 0, 1, 0, false, "1000000000 1000 0;"},
	};
	struct fixture *f = *state;
	struct series_row rows[3];
	struct results *r;

	chunk_rows(rows, 3);
	assert_int_equal(results_create(f->run, &r), 0);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		char path[4096], *d;

		snprintf(path, sizeof(path), "%s/series/%s.csv", f->run, steps[i].name);
		if (steps[i].torn) {
			FILE *fp = fopen(path, "a");

			assert_non_null(fp);
			fputs("6000000000,100", fp);
			fclose(fp);
		}
		assert_int_equal(results_append_series(r, steps[i].name, steps[i].round, rows,
						       steps[i].nrows, steps[i].off * 1000000000,
						       steps[i].off * 1000),
				 0);
		d = series_digest(path);
		assert_string_equal(d, steps[i].want);
		free(d);
	}
	results_close(r);
}

static void test_snapshots(void **state)
{
	struct fixture *f = *state;
	struct results_snapshots ss;
	struct snapshot s;
	struct results *r;
	struct json_object *m = json_object_new_object(), *x;
	static const char *const labels[] = {"start", "phase-0-end", "phase-1-end"};
	struct stat st;
	char path[4096];

	assert_int_equal(results_create(f->run, &r), 0);
	assert_int_equal(results_write_manifest(r, m, NULL), 0);
	json_object_put(m);
	for (int i = 0; i < 3; i++) {
		if (i == 2) {
			/* A resume: numbering continues after the files already there. */
			results_close(r);
			assert_int_equal(results_open(f->run, &r, NULL), 0);
		}
		snapshot_init(&s, "sim");
		snprintf(s.label, sizeof(s.label), "%s", labels[i]);
		s.target_ns = 1000u * (unsigned)i;
		assert_int_equal(snapshot_set(&s, "host_bytes_written", "bytes", 4096.0 * i), 0);
		assert_int_equal(results_write_snapshot(r, &s, i - 1, 0), 0);
		snapshot_release(&s);
	}
	results_close(r);
	snprintf(path, sizeof(path), "%s/snapshots/0002-phase-1-end.json", f->run);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(results_read_snapshots(f->run, &ss), 0);
	assert_int_equal(ss.n, 3);
	for (int i = 0; i < 3; i++) {
		assert_true(json_object_object_get_ex(ss.snap[i], "seq", &x));
		assert_int_equal(json_object_get_int(x), i);
		assert_true(json_object_object_get_ex(ss.snap[i], "phase", &x));
		assert_int_equal(json_object_get_int(x), i - 1);
		assert_int_equal(snapshot_from_json(ss.snap[i], &s), 0);
		assert_string_equal(s.label, labels[i]);
		snapshot_release(&s);
	}
	results_snapshots_release(&ss);
}

/* ---- locale --------------------------------------------------------------------------------- */

static void test_comma_locale(void **state)
{
	struct fixture *f = *state;
	struct job_result *j;
	struct series_row row;
	struct results *r;
	struct json_object *o, *back, *x;
	char path[4096], *text;
	const char *line;
	char probe[16];

	if (!setlocale(LC_ALL, "de_DE.UTF-8")) {
		print_message("de_DE.UTF-8 is not installed: run tests/integration/locale_test.sh (it "
			      "generates it)\n");
		skip();
	}
	/* The premise: this locale really prints a comma. */
	snprintf(probe, sizeof(probe), "%.1f", 1.5);
	assert_string_equal(probe, "1,5");

	j = malloc(sizeof(*j));
	assert_non_null(j);
	fake_job(j);
	j->cpu_user_s = 0.3;
	assert_int_equal(results_create(f->run, &r), 0);
	o = make_record(1, "c", j);
	assert_int_equal(results_append_record(r, o), 0);
	json_object_put(o);
	memset(&row, 0, sizeof(row));
	row.t_ns = 3000000000;
	row.d[0].ios = 10;
	row.d[0].bytes = 10;
	row.d[0].lat_mean_ns = 1.26;
	assert_int_equal(results_write_series(r, "s", &row, 1), 0);
	results_close(r);

	snprintf(path, sizeof(path), "%s/records.jsonl", f->run);
	text = slurp(path, NULL);
	assert_non_null(strstr(text, "\"cpu_user_s\":0.3,"));
	assert_non_null(strstr(text, "\"lat_ns\":{\"mean\":30.5,"));
	free(text);
	snprintf(path, sizeof(path), "%s/series/s.csv", f->run);
	text = slurp(path, NULL);
	line = strchr(text, '\n') + 1;
	assert_string_equal(line, "3000000000,3000000000,10,10,3.333,3.333,1.3,0,0,0,0,0.000,0.000,"
				  ",0,0,,0,0\n");
	free(text);
	/* And it reads back in this locale too. */
	assert_int_equal(results_read_json_file(path, &back), -EBADMSG); /* CSV is not JSON */
	{
		struct results_records rr;

		assert_int_equal(results_read_records(f->run, &rr), 0);
		assert_true(json_object_object_get_ex(rr.rec[0], "cpu_user_s", &x));
		assert_true(json_object_get_double(x) == 0.3);
		results_records_release(&rr);
	}
	setlocale(LC_ALL, "C");
	free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_safe_name),
	    cmocka_unit_test(test_default_dir),
	    cmocka_unit_test(test_metrics),
	    cmocka_unit_test_setup_teardown(test_create, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_manifest_atomic, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_records_roundtrip, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_torn_last_line, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_torn_middle_line, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_failed_append, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_series, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_series_append, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_snapshots, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_comma_locale, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
