/* SPDX-License-Identifier: MIT */
/*
 * sim_bench: how fast the virtual SSD simulates. Simulated host I/Os per wall-clock second for
 * 4 KiB uniform random writes at steady state on an 8 GiB model with spare factor 0.07, on one
 * core, with the time model on and off in the same run; the bytes the maps take per mapping
 * unit; and, under `valgrind --tool=callgrind --collect-atstart=no`, only the measured loop is
 * instrumented so that callgrind's instruction count divided by the I/Os is the cost per I/O.
 * Figures and commands: docs/benchmarks-sim.md.
 *
 *   sim_bench [--capacity SIZE] [--ios N] [--warmup X] [--timing on|off|both] [--no-prefetch]
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

#include "sim/sim.h"
#include "base/units.h"

/* The thread's CPU time: on a shared machine the wall clock also counts other people's work,
 * and "per wall-clock second on one core" is what a core spent on us. */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

struct result {
	double ios_per_s, wa, map_bytes;
};

/* The LBA sequence is precomputed so that the loop measures the simulator, not the PRNG. */
static int run(uint64_t capacity, bool timed, uint64_t nios, double warmup, const uint32_t *lbas,
	       bool prefetch, struct result *r)
{
	struct sim_config c;
	struct sim_ssd *s = NULL;
	struct sim_counters a, b;
	uint64_t units, done = 0, t0, t1, x = 99;
	int ret;

	sim_config_default(&c);
	c.user_capacity = capacity;
	c.spare_factor = 0.07;
	c.page_size = 16384;
	c.pages_per_block = 256;
	c.timed = timed;
	ret = sim_create(&c, &s);
	if (ret)
		return ret;
	units = capacity / 4096;
	for (uint64_t o = 0; o < capacity; o += 131072) {
		sim_write(s, o, 131072, sim_now(s), &done);
		sim_advance(s, done);
	}
	for (uint64_t i = 0; i < (uint64_t)(warmup * (double)units); i++) {
		sim_write(s, (((splitmix(&x) >> 32) * units) >> 32) * 4096, 4096, sim_now(s), &done);
		sim_advance(s, done);
	}
	sim_get_counters(s, &a);
	CALLGRIND_START_INSTRUMENTATION;
	t0 = cpu_ns();
	for (uint64_t i = 0; i < nios; i++) {
		/* what target_sim does with a batch: hint the maps a few I/Os ahead */
		if (prefetch && i + 8 < nios) {
			sim_prefetch(s, (uint64_t)lbas[i + 8] * 4096, false);
			sim_prefetch(s, (uint64_t)lbas[i + 4] * 4096, true);
		}
		sim_write(s, (uint64_t)lbas[i] * 4096, 4096, sim_now(s), &done);
		sim_advance(s, done);
	}
	t1 = cpu_ns();
	CALLGRIND_STOP_INSTRUMENTATION;
	sim_get_counters(s, &b);
	r->ios_per_s = (double)nios * 1e9 / (double)(t1 - t0);
	r->wa = (double)(b.nand_bytes_written - a.nand_bytes_written) /
		(double)(b.host_bytes_written - a.host_bytes_written);
	r->map_bytes = sim_map_bytes_per_unit(s);
	sim_free(s);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{"capacity", required_argument, NULL, 'c'}, {"ios", required_argument, NULL, 'n'},
		{"warmup", required_argument, NULL, 'w'},   {"timing", required_argument, NULL, 't'},
		{"no-prefetch", no_argument, NULL, 'p'},   {"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	uint64_t capacity = 8ULL << 30, nios = 4000000, x = 7, units;
	double warmup = 2.0;
	const char *timing = "both";
	bool prefetch = true;
	struct result off = {0}, on = {0};
	uint32_t *lbas;
	int c, ret;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (units_parse_size(optarg, &capacity) || capacity % 4096 || !capacity)
				return fprintf(stderr, "sim_bench: bad --capacity\n"), 2;
			break;
		case 'n':
			nios = strtoull(optarg, NULL, 10);
			break;
		case 'w':
			warmup = strtod(optarg, NULL);
			break;
		case 't':
			timing = optarg;
			break;
		case 'p':
			prefetch = false;
			break;
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: sim_bench [--capacity SIZE] [--ios N] [--warmup X] [--timing on|off|both] [--no-prefetch]\n");
			return c == 'h' ? 0 : 2;
		}
	}
	units = capacity / 4096;
	lbas = malloc(nios * sizeof(*lbas));
	if (!lbas || !nios)
		return fprintf(stderr, "sim_bench: out of memory\n"), 1;
	for (uint64_t i = 0; i < nios; i++)
		lbas[i] = (uint32_t)(((splitmix(&x) >> 32) * units) >> 32);
	printf("sim_bench: %llu MiB model, spare factor 0.07, 4 KiB random writes, %llu I/Os measured "
	       "after a fill and %.1fx capacity of warm-up\n",
	       (unsigned long long)(capacity >> 20), (unsigned long long)nios, warmup);
	if (strcmp(timing, "on")) {
		ret = run(capacity, false, nios, warmup, lbas, prefetch, &off);
		if (ret)
			return fprintf(stderr, "sim_bench: %s\n", strerror(-ret)), 1;
		printf("timing off: %.3f M I/Os per second, WA %.3f\n", off.ios_per_s / 1e6, off.wa);
	}
	if (strcmp(timing, "off")) {
		ret = run(capacity, true, nios, warmup, lbas, prefetch, &on);
		if (ret)
			return fprintf(stderr, "sim_bench: %s\n", strerror(-ret)), 1;
		printf("timing on:  %.3f M I/Os per second, WA %.3f\n", on.ios_per_s / 1e6, on.wa);
	}
	if (off.ios_per_s > 0 && on.ios_per_s > 0)
		printf("ratio on/off: %.2f\n", on.ios_per_s / off.ios_per_s);
	printf("maps: %.2f bytes per mapping unit (forward + reverse)\n",
	       on.map_bytes > 0 ? on.map_bytes : off.map_bytes);
	free(lbas);
	return 0;
}
