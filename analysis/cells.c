/* SPDX-License-Identifier: MIT */
/* cells: see cells.h. */
#include "analysis/cells.h"

#include <string.h>

void cells_sum_init(struct cells_sum *s)
{
	memset(s, 0, sizeof(*s));
	hist_init(&s->h[0]);
	hist_init(&s->h[1]);
}

void cells_sum_add(struct cells_sum *s, const struct cells_figures *f)
{
	for (int d = 0; d < 2; d++) {
		s->ios[d] += f->ios[d];
		s->bytes[d] += f->bytes[d];
		hist_merge(&s->h[d], f->h[d]);
	}
	s->elapsed_ns += f->elapsed_ns;
	s->cpu_user_s += f->cpu_user_s;
	s->cpu_sys_s += f->cpu_sys_s;
	if (!s->n++)
		s->first_round = f->round;
	s->last_round = f->round;
	s->host_limited += f->host_limited;
	s->io_errors += f->io_error;
}

void cells_sum_all(const struct cells_sum *s, struct hist *all)
{
	hist_init(all);
	hist_merge(all, &s->h[0]);
	hist_merge(all, &s->h[1]);
}
