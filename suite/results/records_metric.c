/* SPDX-License-Identifier: MIT */
/*
 * records_metric: the table of metrics declared in results/records.h. The profile's enum of
 * tracked metrics, the runner's query of the tracked cell, summary.json's per-round columns and
 * the headline's figures used to be five lists of the same four names (issue 10, point 5); they
 * are now read from here, so that a metric added or renamed in one place cannot drift in another.
 * The rows are written once, as an X-macro, because two shapes are needed: the rows, and the
 * NULL-terminated list of names a YAML enum key takes.
 */
#include "results/records.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include <json-c/json.h>

#include "base/jsonget.h"

/* X(value, name, figure path, summary key); the order is the enum's. */
#define METRICS(X)                                                                                 \
	X(RESULTS_METRIC_IOPS, "iops", "iops", "iops")                                             \
	X(RESULTS_METRIC_BW, "bw", "bw_bps", "bw_bps")                                             \
	X(RESULTS_METRIC_LAT_MEAN, "lat_mean", "lat_ns/mean", "lat_mean_ns")                       \
	X(RESULTS_METRIC_LAT_P99, "lat_p99", "lat_ns/p99", "lat_p99_ns")

#define ROW(id, n, f, s) [id] = {.name = n, .figure = f, .summary = s},
static const struct results_metric_def rows[RESULTS_NMETRICS] = {METRICS(ROW)};
#undef ROW

#define ONE(id, n, f, s) +1
_Static_assert(0 METRICS(ONE) == RESULTS_NMETRICS, "one row per enum results_metric value");
#undef ONE

#define NAME(id, n, f, s) [id] = n,
static const char *const names[RESULTS_NMETRICS + 1] = {METRICS(NAME)[RESULTS_NMETRICS] = NULL};
#undef NAME

const struct results_metric_def *results_metric_def(enum results_metric m)
{
	return (unsigned)m < RESULTS_NMETRICS ? &rows[m] : NULL;
}

const char *results_metric_name(enum results_metric m)
{
	return (unsigned)m < RESULTS_NMETRICS ? rows[m].name : "?";
}

int results_metric_find(const char *name, enum results_metric *m)
{
	for (unsigned i = 0; name && i < RESULTS_NMETRICS; i++)
		if (!strcmp(name, rows[i].name)) {
			*m = (enum results_metric)i;
			return 0;
		}
	return -EINVAL;
}

const char *const *results_metric_names(void)
{
	return names;
}

double results_metric_figure(struct json_object *fig, enum results_metric m)
{
	const char *path, *slash;
	char member[32];

	if ((unsigned)m >= RESULTS_NMETRICS)
		return NAN;
	/* Every member but the last must be an object (json_object_object_get_ex on anything
	 * else, null included, finds nothing); the last is read as a number. */
	for (path = rows[m].figure; fig && (slash = strchr(path, '/')); path = slash + 1) {
		size_t len = (size_t)(slash - path);

		if (len >= sizeof(member))
			return NAN;
		memcpy(member, path, len);
		member[len] = '\0';
		if (!json_object_is_type(fig, json_type_object) ||
		    !json_object_object_get_ex(fig, member, &fig))
			return NAN;
	}
	return fig ? jsonget_num(fig, path) : NAN;
}
