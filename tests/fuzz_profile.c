/* SPDX-License-Identifier: MIT */
/*
 * fuzz_profile: a libFuzzer target over the profile parser. Any byte string goes through the
 * YAML layer, the schema, the phase registry and validation; whatever parses is then walked the
 * way check, plan and the runner walk it (summary, JSON plan, cells, bytes, resolution), so that
 * a crash, leak or undefined behaviour anywhere on those paths shows up under ASan/UBSan.
 * Built with `meson setup build-fuzz -Dfuzz=true` and CC=clang; see scripts/fuzz-profile.sh.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "profile/profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void walk(const struct phase_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct profile_phase *ph = &l->v[i];
		char err[256];

		if (ph->kind->type == PHASE_REPEAT) {
			walk(&((const struct phase_repeat *)ph->data)->phases);
		} else if (ph->kind->type == PHASE_ROUNDS) {
			const struct phase_rounds *r = ph->data;
			struct profile_cell *cells;
			size_t n;

			if (profile_rounds_cells(r, &cells, &n) == 0) {
				for (size_t c = 0; c < n; c++) {
					struct job_spec js;

					profile_workload_resolve(&cells[c].w, 1ull << 30, 512, 0.5,
								 &js, err, sizeof(err));
				}
				free(cells);
			}
		} else if (ph->kind->type == PHASE_PRECONDITION ||
			   ph->kind->type == PHASE_WRITE_UNTIL) {
			struct job_spec js;

			profile_workload_resolve(&((const struct phase_write *)ph->data)->w,
						 1ull << 30, 4096, 1, &js, err, sizeof(err));
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Overrides are part of the surface too: a fixed one, and one taken from a first line
	 * "#set KEY=VALUE" (a YAML comment, so the rest still parses) when the input has it. */
	const char *sets[2] = {"phases.0.idle.time=1s", NULL};
	char assign[256];
	struct profile *p = NULL;
	struct ydoc_error e;
	char buf[4096];

	if (size > 5 && !memcmp(data, "#set ", 5)) {
		size_t n = 0;

		while (5 + n < size && n < sizeof(assign) - 1 && data[5 + n] != '\n' && data[5 + n])
			n++;
		memcpy(assign, data + 5, n);
		assign[n] = '\0';
		sets[1] = assign;
	}
	for (int with_set = 0; with_set < 3; with_set++) {
		const char *const *s = with_set == 2 ? &sets[1] : sets;
		size_t ns = with_set == 0 ? 0 : 1;

		if (with_set == 2 && !sets[1])
			break;
		if (profile_parse_string((const char *)data, size, "fuzz", s, ns, &p, &e)) {
			ydoc_error_format(&e, buf, sizeof(buf));
			continue;
		}
		{
			struct json_object *j = profile_to_json(p);
			uint64_t bytes;

			if (j)
				json_object_to_json_string(j);
			json_object_put(j);
			profile_summary(p, buf, sizeof(buf));
			profile_bytes_written(p, 1ull << 40, &bytes);
			profile_writes(p);
			walk(&p->phases);
		}
		profile_free(p);
		p = NULL;
	}
	return 0;
}
