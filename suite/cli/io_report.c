/* SPDX-License-Identifier: MIT */
/*
 * io_report: `ssdlab io`'s text and JSON output. See io_report.h.
 */
#include "cli/io_report.h"

#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "analysis/qos.h"
#include "analysis/wa.h"
#include "base/hist.h"
#include "base/jsonnum.h"
#include "base/units.h"
#include "engine/engine.h"
#include "results/records.h"
#include "results/snapshot.h"
#include "targets/target.h"

/*
 * The JSON output is built with jsonnum_build_*: every add checked, one error code per document
 * (the first failure stays in *e). Numbers go through jsonnum: NaN is null, integers have no
 * fraction. The names are those of the results files (records.jsonl, series CSV).
 */
static double per_s(uint64_t n, uint64_t ns)
{
	return ns ? (double)n * 1e9 / (double)ns : 0;
}

/* ios, bytes, iops, bw_bps and lat_ns {mean, min, p50 .. p99_999, max}, as in a record. */
static void add_dir(struct json_object *j, const char *k, const struct dir_stats *d,
		    uint64_t elapsed, int *e)
{
	jsonnum_build_add(j, k, results_figures_json(d->ios, d->bytes, elapsed, &d->lat), e);
}

static struct json_object *job_json(const struct job_spec *s, int *e)
{
	struct json_object *o = json_object_new_object(), *bs = json_object_new_array();

	jsonnum_build_add(o, "rw", json_object_new_string(rw_mode_name(s->rw)), e);
	jsonnum_build_add(o, "rwmix_read", json_object_new_int((int)s->rwmix_read), e);
	for (unsigned i = 0; i < s->nbs; i++) {
		struct json_object *b = json_object_new_object();

		jsonnum_build_add(b, "bs", json_object_new_int64(s->bs[i].bs), e);
		jsonnum_build_add(b, "weight", json_object_new_int64(s->bs[i].weight), e);
		jsonnum_build_push(bs, b, e);
	}
	jsonnum_build_add(o, "bs", bs, e);
	jsonnum_build_add(o, "qd", json_object_new_int((int)s->qd), e);
	jsonnum_build_add(o, "threads", json_object_new_int((int)s->threads), e);
	jsonnum_build_add(o, "range_start", json_object_new_uint64(s->range_start), e);
	jsonnum_build_add(o, "range_end", json_object_new_uint64(s->range_end), e);
	jsonnum_build_add(o, "time_ns", json_object_new_uint64(s->time_ns), e);
	jsonnum_build_add(o, "amount_bytes", json_object_new_uint64(s->amount_bytes), e);
	jsonnum_build_add(o, "ramp_ns", json_object_new_uint64(s->ramp_ns), e);
	jsonnum_build_add(o, "ramp_bytes", json_object_new_uint64(s->ramp_bytes), e);
	jsonnum_build_add(o, "seed", json_object_new_uint64(s->seed), e);
	jsonnum_build_add(o, "random_distribution",
			  json_object_new_string(s->dist == DIST_ZONED ? "zoned" : "uniform"), e);
	jsonnum_build_add(o, "pattern",
			  json_object_new_string(s->pattern == PATTERN_ZEROS ? "zeros" : "random"), e);
	jsonnum_build_add(o, "compressibility", json_object_new_int((int)s->compressibility), e);
	jsonnum_build_add(o, "sqpoll", json_object_new_boolean(s->sqpoll), e);
	jsonnum_build_add(o, "hipri", json_object_new_boolean(s->hipri), e);
	return o;
}

/* The time series: one row per interval, per direction (garbage-collection stalls show here,
 * not in the means). */
static struct json_object *series_json(const struct job_result *r, uint64_t interval, int *e)
{
	static const char *const names[2] = {"read", "write"};
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; i < r->nseries; i++) {
		const struct series_row *row = &r->series[i];
		uint64_t span = i ? row->t_ns - r->series[i - 1].t_ns : row->t_ns;
		struct json_object *o = json_object_new_object();

		if (!span)
			span = interval;
		jsonnum_build_add(o, "t_ns", json_object_new_uint64(row->t_ns), e);
		for (int d = 0; d < 2; d++) {
			struct json_object *x;

			if (!row->d[d].ios && !r->d[d].ios)
				continue;
			x = json_object_new_object();
			jsonnum_build_num(x, "iops", per_s(row->d[d].ios, span), e);
			jsonnum_build_num(x, "bw_bps", per_s(row->d[d].bytes, span), e);
			jsonnum_build_num(x, "lat_mean_ns", row->d[d].lat_mean_ns, e);
			jsonnum_build_add(x, "lat_p99_ns",
					  json_object_new_uint64(row->d[d].lat_p99_ns), e);
			jsonnum_build_add(x, "lat_max_ns",
					  json_object_new_uint64(row->d[d].lat_max_ns), e);
			jsonnum_build_add(o, names[d], x, e);
		}
		jsonnum_build_add(o, "total_bytes_written",
				  json_object_new_uint64(row->total_bytes_written), e);
		/* the drive's temperature when the row closed; null where it is not cheap */
		jsonnum_build_num(o, "temperature_c", row->has_temp ? row->temperature_c : NAN, e);
		jsonnum_build_push(a, o, e);
	}
	return a;
}

/* smart_delta{,_total} and wa{,_total}: the counters' change from a to b, when the target has
 * them. */
static void add_counters(struct json_object *j, const char *delta_key, const char *wa_key,
			 const struct snapshot *a, const struct snapshot *b, int *e)
{
	struct json_object *d;
	double h, n, wa;

	if (wa_deltas(a, b, &h, &n))
		return;
	d = json_object_new_object();
	jsonnum_build_num(d, "host_bytes_written", h, e);
	jsonnum_build_num(d, "nand_bytes_written", n, e);
	jsonnum_build_add(j, delta_key, d, e);
	if (!wa_between(a, b, &wa))
		jsonnum_build_num(j, wa_key, wa, e);
}

int io_print_json(const struct job_spec *s, const struct target_info *ti,
		  const struct job_result *r, const struct snapshot *snap)
{
	struct json_object *j = json_object_new_object(), *ctx, *cpu;
	struct hist *all = malloc(sizeof(*all));
	uint64_t ios = r->d[0].ios + r->d[1].ios;
	int e = all ? 0 : -ENOMEM;

	jsonnum_build_add(j, "schema", json_object_new_int(1), &e);
	jsonnum_build_add(j, "target", target_info_to_json(ti, NULL), &e);
	jsonnum_build_add(j, "job", job_json(s, &e), &e);
	jsonnum_build_num(j, "iops", job_iops(r), &e);
	jsonnum_build_num(j, "bw_bps", job_bw(r), &e);
	jsonnum_build_add(j, "bytes_read", json_object_new_uint64(r->d[IO_READ].bytes), &e);
	jsonnum_build_add(j, "bytes_written", json_object_new_uint64(r->d[IO_WRITE].bytes), &e);
	jsonnum_build_add(j, "bytes_read_total", json_object_new_uint64(r->bytes_read_total), &e);
	jsonnum_build_add(j, "bytes_written_total", json_object_new_uint64(r->bytes_written_total), &e);
	jsonnum_build_add(j, "elapsed_ns", json_object_new_uint64(r->elapsed_ns), &e);
	jsonnum_build_add(j, "ramp_elapsed_ns", json_object_new_uint64(r->ramp_elapsed_ns), &e);
	if (all) {
		hist_init(all);
		hist_merge(all, &r->d[0].lat);
		hist_merge(all, &r->d[1].lat);
		jsonnum_build_add(j, "lat_ns", results_lat_json(all), &e); /* I/O completed: not null */
		free(all);
	}
	if (r->d[IO_READ].ios)
		add_dir(j, "read", &r->d[IO_READ], r->elapsed_ns, &e);
	if (r->d[IO_WRITE].ios)
		add_dir(j, "write", &r->d[IO_WRITE], r->elapsed_ns, &e);
	/* The same QoS block as a cell of summary.json: how many I/Os stand behind p99.999. */
	jsonnum_build_add(j, "qos", qos_to_json(&r->d[IO_READ].lat, &r->d[IO_WRITE].lat), &e);
	cpu = json_object_new_object();
	jsonnum_build_num(cpu, "user_s", r->cpu_user_s, &e);
	jsonnum_build_num(cpu, "sys_s", r->cpu_sys_s, &e);
	jsonnum_build_num(cpu, "us_per_io",
			  ios ? (r->cpu_user_s + r->cpu_sys_s) * 1e6 / (double)ios : 0, &e);
	jsonnum_build_add(j, "cpu", cpu, &e);
	ctx = json_object_new_object();
	jsonnum_build_add(ctx, "clock_source", json_object_new_string(r->clock_source), &e);
	jsonnum_build_num(ctx, "clock_read_ns", r->clock_read_ns, &e);
	jsonnum_build_add(ctx, "effective_qd", json_object_new_int64(r->effective_qd), &e);
	jsonnum_build_add(ctx, "foreign_sectors_read",
			  json_object_new_uint64(r->foreign_sectors_read), &e);
	jsonnum_build_add(ctx, "foreign_sectors_written",
			  json_object_new_uint64(r->foreign_sectors_written), &e);
	jsonnum_build_add(j, "context", ctx, &e);
	/* The measured part, like every other figure; and the whole job, ramp included. */
	add_counters(j, "smart_delta", "wa", &snap[1], &snap[2], &e);
	add_counters(j, "smart_delta_total", "wa_total", &snap[0], &snap[2], &e);
	jsonnum_build_add(j, "series",
			  series_json(r, s->interval_ns ? s->interval_ns : 1000000000u, &e), &e);
	if (r->error) {
		struct json_object *x = json_object_new_object();

		jsonnum_build_add(x, "errno", json_object_new_int(-r->error), &e);
		jsonnum_build_add(x, "offset", json_object_new_uint64(r->err_offset), &e);
		jsonnum_build_add(x, "length", json_object_new_int64(r->err_len), &e);
		jsonnum_build_add(x, "message", json_object_new_string(r->errmsg), &e);
		jsonnum_build_add(j, "error", x, &e);
	}
	jsonnum_build_add(j, "interrupted", json_object_new_boolean(r->interrupted), &e);
	if (!e)
		printf("%s\n", json_object_to_json_string_ext(j, JSON_C_TO_STRING_PRETTY |
									JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(j);
	return e;
}

static const char *dur(uint64_t ns, char *buf, size_t len)
{
	return units_fmt_duration(ns, buf, len);
}

static void print_dir(const char *name, const struct dir_stats *d, uint64_t elapsed)
{
	char b[7][32], mb[32];

	if (!d->ios)
		return;
	printf("  %-5s: %s IOPS, %s MB/s (%" PRIu64 " I/Os, %" PRIu64 " bytes)\n", name,
	       units_fmt_double(per_s(d->ios, elapsed), 0, b[0], sizeof(b[0])),
	       units_fmt_double(per_s(d->bytes, elapsed) / 1e6, 1, mb, sizeof(mb)), d->ios, d->bytes);
	printf("         lat mean %s  p50 %s  p99 %s  p99.9 %s  p99.99 %s  p99.999 %s%s  max %s\n",
	       dur((uint64_t)hist_mean(&d->lat), b[0], sizeof(b[0])),
	       dur(hist_percentile(&d->lat, 50), b[1], sizeof(b[1])),
	       dur(hist_percentile(&d->lat, 99), b[2], sizeof(b[2])),
	       dur(hist_percentile(&d->lat, 99.9), b[3], sizeof(b[3])),
	       dur(hist_percentile(&d->lat, 99.99), b[4], sizeof(b[4])),
	       dur(hist_percentile(&d->lat, 99.999), b[5], sizeof(b[5])),
	       /* fewer than QOS_THIN_BEYOND I/Os beyond it: about the slowest few, not a tail */
	       d->lat.count - hist_rank(d->lat.count, 99.999) < QOS_THIN_BEYOND ? " (thin)" : "",
	       dur(d->lat.max, b[6], sizeof(b[6])));
}

void io_print_text(const struct job_spec *s, const struct target_info *ti,
		   const struct job_result *r, const struct snapshot *snap)
{
	char b[4][32];
	uint64_t ios = r->d[0].ios + r->d[1].ios;
	double wa, wa_total;

	printf("ssdlab io %s (%s%s%s, %s, %" PRIu32 " B sectors): %s, qd %u x %u thread%s, %s\n",
	       ti->path, target_kind_name(ti->kind), *ti->model ? " " : "", ti->model,
	       units_fmt_size(ti->capacity, b[0], sizeof(b[0])), ti->logical_block_size,
	       rw_mode_name(s->rw), s->qd, s->threads, s->threads == 1 ? "" : "s",
	       dur(r->elapsed_ns, b[1], sizeof(b[1])));
	printf("  total: %s IOPS, %s MB/s\n", units_fmt_double(job_iops(r), 0, b[2], sizeof(b[2])),
	       units_fmt_double(job_bw(r) / 1e6, 1, b[3], sizeof(b[3])));
	print_dir("read", &r->d[IO_READ], r->elapsed_ns);
	print_dir("write", &r->d[IO_WRITE], r->elapsed_ns);
	printf("  cpu  : user %s s, sys %s s (%s us per I/O)\n",
	       units_fmt_double(r->cpu_user_s, 2, b[0], sizeof(b[0])),
	       units_fmt_double(r->cpu_sys_s, 2, b[1], sizeof(b[1])),
	       units_fmt_double(ios ? (r->cpu_user_s + r->cpu_sys_s) * 1e6 / (double)ios : 0, 2,
				b[2], sizeof(b[2])));
	printf("  setup: %s, %s ns per clock read, effective qd %u, scheduler %s, nomerges %d, "
	       "nr_requests %" PRIu32 "\n",
	       r->clock_source, units_fmt_double(r->clock_read_ns, 1, b[0], sizeof(b[0])),
	       r->effective_qd, *ti->scheduler ? ti->scheduler : "?", ti->nomerges,
	       ti->hw_queue_depth);
	if (r->foreign_sectors_read || r->foreign_sectors_written)
		printf("  WARNING: other processes did I/O on the device during the job: %" PRIu64
		       " bytes read, %" PRIu64 " bytes written beyond ours\n",
		       r->foreign_sectors_read * 512, r->foreign_sectors_written * 512);
	if (!wa_between(&snap[1], &snap[2], &wa)) {
		printf("  write amplification: %s", units_fmt_double(wa, 3, b[0], sizeof(b[0])));
		if ((s->ramp_ns || s->ramp_bytes) && !wa_between(&snap[0], &snap[2], &wa_total))
			printf(" (after the ramp; %s over the whole job)",
			       units_fmt_double(wa_total, 3, b[1], sizeof(b[1])));
		printf("\n");
	}
}
