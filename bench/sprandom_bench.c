/* SPDX-License-Identifier: MIT */
/*
 * sprandom_bench: how fast the sprandom fill's sequence (engine/sprandom.h) is generated, per
 * write and for whole drives, and what it holds in memory. Not a test: it prints figures
 * (docs/sprandom.md quotes them). Usage: sprandom_bench [SAMPLE_WRITES] (default 20 million).
 *
 * The generator is random access: a resumed fill starts at any index at once (no replay), so
 * the figure that matters is the CPU time per write, next to the drive's own time per write;
 * the whole-drive figures say how long generating a 1 TB and an 8 TB fill's sequence would
 * take on one core, extrapolated from the sample.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "engine/sprandom.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		uint64_t bytes;
	} drives[] = {{"1 TB", 1000000000000ull}, {"8 TB", 8000000000000ull}};
	uint64_t sample = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000ull;

	for (size_t d = 0; d < sizeof(drives) / sizeof(drives[0]); d++) {
		uint64_t units = drives[d].bytes / 4096, sink = 0, total;
		struct sprandom *s = NULL;
		char err[200];
		double t0, dt;

		if (sprandom_create(units, sprandom_alpha(0.88), sprandom_default_regions(units), 1, &s,
				    err, sizeof(err))) {
			fprintf(stderr, "%s\n", err);
			return 1;
		}
		total = sprandom_total(s);
		t0 = now_s();
		/* indexes spread over the whole sequence, as the chunks of a fill reach them */
		for (uint64_t i = 0; i < sample; i++)
			sink += sprandom_unit(s, i * (total / sample));
		dt = now_s() - t0;
		printf("%s at 4 KiB, spare 12%%: %" PRIu64 " units, %" PRIu64 " writes (%.3fx), %zu B of "
		       "memory; %.1f ns a write, the whole sequence %.0f s on one core (checksum %" PRIu64
		       ")\n",
		       drives[d].name, units, total, (double)total / (double)units, sprandom_memory(s),
		       dt / (double)sample * 1e9, dt / (double)sample * (double)total, sink % 1000);
		sprandom_free(s);
	}
	return 0;
}
