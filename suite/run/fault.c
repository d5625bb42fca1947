/* SPDX-License-Identifier: MIT */
/*
 * fault: the runner's crash hook (fault.h). The resume tests name a point of the walk and an
 * occurrence; reaching it the process dies by SIGKILL, so that what the tests resume from is what
 * a real crash leaves, not what an orderly exit would.
 */
#include "run/fault.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

void fault_parse(struct fault *f, const char *spec)
{
	static const struct {
		const char *name;
		enum fault_point p;
	} points[] = {
		{"cell", FAULT_CELL},	{"before-record", FAULT_BEFORE}, {"after-record", FAULT_AFTER},
		{"torn", FAULT_TORN},	{"boundary", FAULT_BOUNDARY},
	};
	const char *colon;
	size_t n;

	if (!spec || !*spec)
		return;
	colon = strchr(spec, ':');
	n = colon ? (size_t)(colon - spec) : strlen(spec);
	for (size_t i = 0; i < sizeof(points) / sizeof(points[0]); i++)
		if (strlen(points[i].name) == n && !strncmp(spec, points[i].name, n))
			f->point = points[i].p;
	f->n = colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 1;
	if (!f->n)
		f->n = 1;
	f->stall = colon && strstr(colon + 1, ":stall") != NULL;
}

bool fault_hit(struct fault *f, enum fault_point p)
{
	if (f->point != p)
		return false;
	return ++f->seen[p] == f->n;
}

void fault_die(void)
{
	raise(SIGKILL);
	_exit(137); /* not reached */
}

void fault_act(const struct fault *f)
{
	struct timespec ts = {.tv_sec = FAULT_STALL_S, .tv_nsec = 0};

	if (!f->stall)
		fault_die();
	/* One sleep, not a loop: the first signal (the test's SIGINT or SIGTERM) ends it with
	 * EINTR, since the stop handler is installed without SA_RESTART. */
	nanosleep(&ts, NULL);
}

void fault_torn(const char *results_dir, struct json_object *rec)
{
	char path[4096];
	const char *text = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN);
	FILE *f;

	snprintf(path, sizeof(path), "%s/records.jsonl", results_dir);
	f = fopen(path, "a");
	if (f && text) {
		fwrite(text, 1, strlen(text) / 2, f);
		fflush(f);
		fsync(fileno(f));
	}
	fault_die();
}
