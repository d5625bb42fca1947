/* SPDX-License-Identifier: MIT */
/* snia_xsr: see snia_xsr.h. */
#include "analysis/snia_xsr.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

double snia_xsr_mb_s(const struct snia_xsr_sample *s)
{
	return s->elapsed_ns ? (double)s->bytes * 1e3 / (double)s->elapsed_ns : NAN;
}

void snia_xsr_group(const struct snia_xsr_sample *s, size_t n, struct snia_xsr_group *g)
{
	struct snia_xsr_group r = {.samples = n, .mb_s = NAN, .end_mb_s = NAN, .lat_mean_ns = NAN,
				   .art_peak_ns = NAN, .mrt_ns = NAN};
	double lat_sum = 0;
	uint64_t lat_ios = 0;

	for (size_t i = 0; i < n; i++) {
		r.elapsed_ns += s[i].elapsed_ns;
		r.bytes += s[i].bytes;
		r.ios += s[i].ios;
		/* The mean over the group is the I/Os' mean: each sample's mean times its I/Os. */
		if (!isnan(s[i].lat_mean_ns) && s[i].ios) {
			lat_sum += s[i].lat_mean_ns * (double)s[i].ios;
			lat_ios += s[i].ios;
			if (isnan(r.art_peak_ns) || s[i].lat_mean_ns > r.art_peak_ns)
				r.art_peak_ns = s[i].lat_mean_ns;
		}
		if (!isnan(s[i].lat_max_ns) && (isnan(r.mrt_ns) || s[i].lat_max_ns > r.mrt_ns))
			r.mrt_ns = s[i].lat_max_ns;
	}
	if (r.elapsed_ns)
		r.mb_s = (double)r.bytes * 1e3 / (double)r.elapsed_ns;
	if (n)
		r.end_mb_s = snia_xsr_mb_s(&s[n - 1]);
	if (lat_ios)
		r.lat_mean_ns = lat_sum / (double)lat_ios;
	*g = r;
}

int snia_xsr_recovery(const struct snia_xsr_group *g1, const struct snia_xsr_sample *s3, size_t n3,
		      const struct recovery_rule *rule, struct snia_xsr *out)
{
	struct snia_xsr r = {.reference_mb_s = g1->mb_s};
	struct recovery_point *p;
	int rc;

	if (!rule->rounds)
		return -EINVAL;
	if (!n3 || !(g1->mb_s > 0)) {
		*out = r;
		return 0;
	}
	p = calloc(n3, sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (size_t i = 0; i < n3; i++)
		p[i] = (struct recovery_point){.value = snia_xsr_mb_s(&s3[i]),
					       .round = (int64_t)i + 1,
					       .write_ns = s3[i].elapsed_ns + s3[i].ramp_ns,
					       .write_bytes = s3[i].bytes_total};
	rc = recovery_scan(p, n3, g1->mb_s, rule, &r.rec);
	free(p);
	if (rc)
		return rc;
	r.judged = true;
	*out = r;
	return 0;
}
