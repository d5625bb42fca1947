/* SPDX-License-Identifier: MIT */
/*
 * test_metric: the one table of metrics (results/records.h, records_metric.c). Each name
 * round-trips name -> enum -> name, the YAML enum list is the table's names in enum order, names
 * and summary keys are unique, and every metric a profile can track resolves on a sample record
 * (results_record_metric) to the same value as its figure path in that record's figures object
 * (results_metric_figure), so the runner, the cells pass and the headline read one figure.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "base/hist.h"
#include "results/records.h"

static void test_round_trip(void **state)
{
	const char *const *names = results_metric_names();
	enum results_metric m;

	(void)state;
	for (unsigned i = 0; i < RESULTS_NMETRICS; i++) {
		const struct results_metric_def *d = results_metric_def((enum results_metric)i);
		const char *name = results_metric_name((enum results_metric)i);

		assert_non_null(d);
		assert_non_null(d->name);
		assert_non_null(d->figure);
		assert_non_null(d->summary);
		assert_string_equal(name, d->name);
		assert_string_equal(names[i],
				    name); /* the profile's enum index is the enum value */
		m = RESULTS_NMETRICS;
		assert_int_equal(results_metric_find(name, &m), 0);
		assert_int_equal(m, i);
		for (unsigned j = 0; j < i; j++) {
			const struct results_metric_def *e =
			    results_metric_def((enum results_metric)j);

			if (!strcmp(d->name, e->name) || !strcmp(d->summary, e->summary))
				fail_msg("metrics %u and %u share a name or a summary key", j, i);
		}
	}
	assert_null(names[RESULTS_NMETRICS]);
	/* The first is the profile's default (track: without metric). */
	assert_string_equal(results_metric_name(RESULTS_METRIC_IOPS), "iops");
	assert_null(results_metric_def(RESULTS_NMETRICS));
	assert_string_equal(results_metric_name(RESULTS_NMETRICS), "?");
	m = RESULTS_METRIC_BW;
	assert_int_equal(results_metric_find("speed", &m), -EINVAL);
	assert_int_equal(results_metric_find("IOPS", &m), -EINVAL);
	assert_int_equal(results_metric_find(NULL, &m), -EINVAL);
	assert_int_equal(m, RESULTS_METRIC_BW); /* untouched on failure */
}

/* A direction as a record stores it (results.c add_dir): the figures plus the raw histogram. */
static struct json_object *direction(uint64_t ios, uint64_t bytes, uint64_t elapsed_ns,
				     const struct hist *h)
{
	struct json_object *o = results_figures_json(ios, bytes, elapsed_ns, h);

	assert_non_null(o);
	assert_int_equal(json_object_object_add(o, "hist", hist_to_json(h)), 0);
	return o;
}

/* Writes only, 100 I/Os of 4 KiB over 2 s, latencies 10, 20, .., 1000 ns; nothing read. */
static void test_record_values(void **state)
{
	struct hist *rd = test_malloc(sizeof(*rd)), *wr = test_malloc(sizeof(*wr));
	struct json_object *rec = json_object_new_object(), *w;
	const char *const *names = results_metric_names();
	const uint64_t elapsed = 2000000000;
	double want[RESULTS_NMETRICS];

	(void)state;
	hist_init(rd);
	hist_init(wr);
	for (uint64_t k = 1; k <= 100; k++)
		hist_add(wr, 10 * k);
	assert_int_equal(json_object_object_add(rec, "elapsed_ns", json_object_new_uint64(elapsed)),
			 0);
	assert_int_equal(json_object_object_add(rec, "read", direction(0, 0, elapsed, rd)), 0);
	w = direction(100, 100 * 4096, elapsed, wr);
	assert_int_equal(json_object_object_add(rec, "write", w), 0);
	want[RESULTS_METRIC_IOPS] = 50;
	want[RESULTS_METRIC_BW] = 204800;
	want[RESULTS_METRIC_LAT_MEAN] = 505;
	want[RESULTS_METRIC_LAT_P99] = (double)hist_percentile(wr, 99);

	/* Every name the profile accepts (the YAML enum list) is a record metric. */
	for (unsigned i = 0; names[i]; i++) {
		double v = NAN, f = results_metric_figure(w, (enum results_metric)i);

		if (results_record_metric(rec, names[i], &v))
			fail_msg("%s: not a record metric", names[i]);
		if (!(fabs(v - want[i]) <= 1e-9 * want[i]))
			fail_msg("%s = %.17g, expected %.17g", names[i], v, want[i]);
		if (!(fabs(f - v) <= 1e-9 * v))
			fail_msg("%s: figure %s = %.17g, record metric %.17g", names[i],
				 results_metric_def((enum results_metric)i)->figure, f, v);
	}
	/* No latency without I/O: the figure of a path through lat_ns (null) is NaN. */
	assert_true(json_object_object_get_ex(rec, "read", &w));
	assert_true(results_metric_figure(w, RESULTS_METRIC_IOPS) == 0);
	assert_true(isnan(results_metric_figure(w, RESULTS_METRIC_LAT_MEAN)));
	assert_true(isnan(results_metric_figure(w, RESULTS_METRIC_LAT_P99)));
	assert_true(isnan(results_metric_figure(NULL, RESULTS_METRIC_IOPS)));
	assert_true(isnan(results_metric_figure(rec, RESULTS_NMETRICS)));
	json_object_put(rec);
	test_free(rd);
	test_free(wr);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_record_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
