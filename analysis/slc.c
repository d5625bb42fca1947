/* SPDX-License-Identifier: MIT */
/*
 * slc: piecewise-linear fit of cumulative bytes against time with levels chosen by BIC, and its
 * moving-block bootstrap (slc.h says what and why).
 */
#include "analysis/slc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

void slc_params_default(struct slc_params *p)
{
	memset(p, 0, sizeof(*p));
	p->min_seg = 0;
	p->max_levels = SLC_MAX_LEVELS;
	p->min_drop = 0.20;
	p->significance = 0.95;
	p->boot_reps = 200;
	p->block_len = 0;
	p->seed = 1;
	p->warning_c = NAN;
}

/* The increments and their prefix sums, for one series (the data or a bootstrap replicate). */
struct work {
	size_t n, min_seg;
	const double *dt; /* seconds, > 0 */
	double *db;	  /* bytes */
	double *pt, *pb, *pq; /* n + 1 prefix sums of dt, db, db^2 / dt */
	double floor;	      /* smallest variance taken (a noiseless level has none) */
	size_t ng;	      /* grid points (boundaries 0 .. ng - 1), grid[ng - 1] = n */
	size_t *grid;
	double *cost;	      /* ng x ng: segment [grid[a], grid[b]) (b > a), INFINITY if too short */
	double *dp;	      /* SLC_MAX_LEVELS x ng */
	size_t *from;	      /* SLC_MAX_LEVELS x ng */
};

/* A segment's weighted residual sum of squares from the prefix sums: it equals gsl_fit_wmul's
 * sumsq for y = db, x = dt, w = 1 / dt (sum w (db - c dt)^2 = sum db^2/dt - (sum db)^2 / sum dt
 * at c = sum db / sum dt), in O(1). */
static double seg_cost(const struct work *w, size_t a, size_t b)
{
	double t = w->pt[b] - w->pt[a], s = w->pb[b] - w->pb[a], q = w->pq[b] - w->pq[a];
	double m = (double)(b - a), v = (q - s * s / t) / m;

	if (!(v > w->floor))
		v = w->floor;
	return m * log(v);
}

static void prefix(struct work *w)
{
	w->pt[0] = w->pb[0] = w->pq[0] = 0;
	for (size_t i = 0; i < w->n; i++) {
		w->pt[i + 1] = w->pt[i] + w->dt[i];
		w->pb[i + 1] = w->pb[i] + w->db[i];
		w->pq[i + 1] = w->pq[i] + w->db[i] * w->db[i] / w->dt[i];
	}
}

static void costs(struct work *w)
{
	for (size_t a = 0; a < w->ng; a++)
		for (size_t b = a + 1; b < w->ng; b++)
			w->cost[a * w->ng + b] = w->grid[b] - w->grid[a] < w->min_seg
						     ? INFINITY
						     : seg_cost(w, w->grid[a], w->grid[b]);
}

/* Best k-level split over the grid (dynamic programming), refined to the sample: bp[0..k] with
 * bp[0] = 0 and bp[k] = n. Returns the criterion sum n_j log s_j^2, INFINITY when none fits. */
static double split(struct work *w, unsigned k, size_t *bp)
{
	size_t ng = w->ng, step = ng > 1 ? w->grid[1] : w->n;
	double *dp = w->dp, best = 0;
	size_t *from = w->from, b = ng - 1;

	for (size_t g = 0; g < ng; g++)
		dp[g] = g ? w->cost[g] : INFINITY; /* one level: [0, grid[g]) */
	for (unsigned l = 1; l < k; l++) {
		for (size_t g = 0; g < ng; g++) {
			double m = INFINITY;
			size_t arg = 0;

			for (size_t a = 1; a < g; a++) {
				double v = dp[(l - 1) * ng + a] + w->cost[a * ng + g];

				if (v < m) {
					m = v;
					arg = a;
				}
			}
			dp[l * ng + g] = m;
			from[l * ng + g] = arg;
		}
	}
	if (!isfinite(dp[(k - 1) * ng + b]))
		return INFINITY;
	bp[k] = w->n;
	for (unsigned l = k - 1; l > 0; l--) {
		b = from[l * ng + b];
		bp[l] = w->grid[b];
	}
	bp[0] = 0;
	/* refine each breakpoint within one grid step, its neighbours fixed */
	for (unsigned j = 1; j < k; j++) {
		size_t lo = bp[j] > step ? bp[j] - step : 1, hi = bp[j] + step, arg = bp[j];
		double m = INFINITY;

		if (lo < bp[j - 1] + w->min_seg)
			lo = bp[j - 1] + w->min_seg;
		if (hi + w->min_seg > bp[j + 1])
			hi = bp[j + 1] - w->min_seg;
		for (size_t x = lo; x <= hi; x++) {
			double v = seg_cost(w, bp[j - 1], x) + seg_cost(w, x, bp[j + 1]);

			if (v < m) {
				m = v;
				arg = x;
			}
		}
		bp[j] = arg;
	}
	for (unsigned j = 0; j < k; j++)
		best += seg_cost(w, bp[j], bp[j + 1]);
	return best;
}

/* The rate (bytes/s) and variance of samples [a, b) by weighted least squares through the
 * origin (GSL). -EDOM when GSL refuses. */
static int seg_fit(const struct work *w, const double *wt, size_t a, size_t b, double *rate,
		   double *s2)
{
	double c, cov, sumsq;

	if (gsl_fit_wmul(w->dt + a, 1, wt + a, 1, w->db + a, 1, b - a, &c, &cov, &sumsq))
		return -EDOM;
	*rate = c;
	*s2 = sumsq / (double)(b - a);
	if (!(*s2 > w->floor))
		*s2 = w->floor;
	return 0;
}

/* The first boundary j (1..k-1) where the rate falls by min_drop; 0 when none. */
static unsigned first_drop(const double *rate, unsigned k, double min_drop)
{
	for (unsigned j = 1; j < k; j++)
		if (rate[j] <= (1.0 - min_drop) * rate[j - 1])
			return j;
	return 0;
}

/*
 * The bytes written up to the edge between levels e - 1 (rate r1) and e (rate r2 < r1), whose
 * first sample is i: the edge falls inside a sample, which then wrote at a rate between the two;
 * the share f of its time spent at r1 solves r1 f + r2 (1 - f) = db / dt. The sample checked is
 * the first of level e, else the last of level e - 1; neither between: the boundary itself. This
 * places the edge to a fraction of a sample (the 85 % fill probe of the virtual SSD has about 50
 * samples in its cache: one sample is 2 % of it).
 */
static double edge_bytes(const double *dt, const double *db, const double *pb, size_t i,
			 double r1, double r2)
{
	size_t cand[2] = {i, i - 1};

	for (int k = 0; k < (i ? 2 : 1) && r1 > r2; k++) {
		size_t j = cand[k];
		double rate = db[j] / dt[j];

		if (rate > r2 && rate < r1)
			return pb[j] + r1 * (rate - r2) / (r1 - r2) * dt[j];
	}
	return pb[i];
}

/*
 * The cache edge of a fit (rates rate[0..k), levels [bp[j], bp[j+1])): e the level after the
 * first drop (first_drop), q the post-cache level: the first level from e on that is not a
 * transition. A transition is a short level (at most 2 min_seg samples) whose rate lies between
 * its neighbours': the drive's last SLC blocks being filled on fewer dies, its buffer draining
 * (static-slc: 504 -> 185 -> 149 MB/s for 8 samples). The cache size is then where the cache
 * level's line (anchored at its end) meets the post-cache level's (anchored at its start), so
 * that a transition does not move the edge to its beginning; with no transition the two lines
 * meet at the boundary and edge_bytes() places it inside its sample. pt and pb are the prefix
 * sums of time and bytes. Returns false when there is no drop.
 */
struct edge {
	unsigned e, q;
	double bytes;
};

static bool find_edge(const double *rate, const size_t *bp, unsigned k, size_t min_seg,
		      double min_drop, const double *dt, const double *db, const double *pt,
		      const double *pb, struct edge *out)
{
	unsigned e = first_drop(rate, k, min_drop), q;
	double r1, r2, t1, t2, b1, b2, t, b;

	if (!e)
		return false;
	for (q = e; q + 1 < k; q++) {
		double lo = rate[q + 1], hi = rate[q - 1];

		if (bp[q + 1] - bp[q] > 2 * min_seg || !(rate[q] > lo && rate[q] < hi))
			break;
	}
	out->e = e;
	out->q = q;
	r1 = rate[e - 1];
	r2 = rate[q];
	if (q == e || !(r1 > r2)) {
		out->bytes = edge_bytes(dt, db, pb, bp[e], r1, rate[e]);
		return true;
	}
	t1 = pt[bp[e]];
	b1 = pb[bp[e]];
	t2 = pt[bp[q]];
	b2 = pb[bp[q]];
	t = (b2 - b1 + r1 * t1 - r2 * t2) / (r1 - r2);
	b = b1 + r1 * (t - t1);
	out->bytes = b < b1 ? b1 : b > b2 ? b2 : b;
	return true;
}

/*
 * The fitted model the bootstrap draws its replicates from: mu[i], the mean increment of sample
 * i, and s2v[i], z[i], its level's variance and its standardized residual. The model is the
 * fitted B(t), continuous with a rate per level; where a boundary falls inside a sample (that
 * sample's rate lies between its two levels': the sample edge_bytes() places the edge in, the
 * first of the later level, else the last of the earlier one), that sample's mean is the mix of
 * the two rates, i.e. its own increment, and its residual is 0. Taking it at its level's rate
 * instead made every replicate start the level on a sample boundary, with the mixed sample's
 * large residual scattered elsewhere in the level: the replicates then placed the edge up to one
 * sample early, and the point estimate (which places it inside that sample) fell above its own
 * 97.5 % bound (fill 85 % of client-tlc: 117.7 MB [116.9, 117.5]). A level's variance is its
 * residuals' about this mean, so that the mixed sample does not inflate it. Returns 0, -EDOM
 * for a level without samples.
 */
static int boot_model(const double *dt, const double *db, const size_t *bp, unsigned k,
		      const double *rate, double floor, double *mu, double *s2v, double *z)
{
	size_t mixed[SLC_MAX_LEVELS], nm = 0;

	for (unsigned j = 1; j < k; j++) {
		double lo = fmin(rate[j - 1], rate[j]), hi = fmax(rate[j - 1], rate[j]);
		size_t cand[2] = {bp[j], bp[j] - 1};

		for (int c = 0; c < 2; c++) {
			double v = db[cand[c]] / dt[cand[c]];

			if (v > lo && v < hi) {
				mixed[nm++] = cand[c];
				break;
			}
		}
	}
	for (unsigned j = 0; j < k; j++) {
		/* the level's other samples at the rate that keeps its fitted rate: the rate of
		 * the level without its mixed samples (so that a replicate's level, mixed sample
		 * included, has the fitted rate as its mean) */
		double sb = 0, st = 0, r, s2 = 0;

		if (bp[j + 1] <= bp[j])
			return -EDOM;
		for (size_t i = bp[j]; i < bp[j + 1]; i++) {
			bool mix = false;

			for (size_t m = 0; m < nm; m++)
				mix |= mixed[m] == i;
			mu[i] = mix ? db[i] : NAN;
			if (!mix) {
				sb += db[i];
				st += dt[i];
			}
		}
		r = st > 0 ? sb / st : rate[j];
		for (size_t i = bp[j]; i < bp[j + 1]; i++) {
			if (isnan(mu[i]))
				mu[i] = r * dt[i];
			s2 += (db[i] - mu[i]) * (db[i] - mu[i]) / dt[i];
		}
		s2 /= (double)(bp[j + 1] - bp[j]);
		if (!(s2 > floor))
			s2 = floor;
		for (size_t i = bp[j]; i < bp[j + 1]; i++) {
			s2v[i] = s2;
			z[i] = (db[i] - mu[i]) / sqrt(s2 * dt[i]);
		}
	}
	return 0;
}

/*
 * The 95 % bounds of est from its n replicates v (sorted here): the replicates' spread below
 * and above their median (2.5 % and 97.5 % quantiles), placed around est. Where the replicates
 * reproduce the data (boot_model) their median is the estimate and these are the percentile
 * bounds. Where a level is not flat, their median is off the estimate for a reason of the
 * resampling, not of the data: a transition's ramp (client-tlc with a 117 MiB cache at 85 %
 * fill, 16 samples falling from 293 to 117 MB/s) cut into blocks and redrawn in another order
 * moves the refitted breakpoints one way (its rate 201 MB/s, the replicates' 207 to 239, and
 * the cache size 21.9 MB, theirs 22.2 to 23.5). Taken as they are the bounds would then not
 * hold the estimate they are for; the spread is what the replicates tell about it. NaN
 * bounds when n = 0.
 */
static void around(double *v, size_t n, double est, double *lo, double *hi)
{
	double med;

	if (!n) {
		*lo = *hi = NAN;
		return;
	}
	gsl_sort(v, 1, n);
	med = gsl_stats_median_from_sorted_data(v, 1, n);
	*lo = est - (med - gsl_stats_quantile_from_sorted_data(v, 1, n, 0.025));
	*hi = est + (gsl_stats_quantile_from_sorted_data(v, 1, n, 0.975) - med);
}

int slc_fit(const uint64_t *t_ns, const uint64_t *bytes, const double *temp_c, size_t n,
	    const struct slc_params *p, struct slc_result *out)
{
	struct slc_result r;
	struct work w;
	double *dt = NULL, *wt = NULL, *db0 = NULL, *pb0 = NULL, *z = NULL, *bs = NULL, *s2v = NULL;
	double *mu = NULL;
	double rate[SLC_MAX_LEVELS] = {0}, s2[SLC_MAX_LEVELS] = {0}, bicmin = INFINITY;
	size_t bp[SLC_MAX_LEVELS + 1], best_bp[SLC_MAX_LEVELS + 1], step;
	gsl_rng *rng = NULL;
	struct edge edge;
	bool has_edge;
	unsigned k;
	int ret = -EINVAL;

	memset(&w, 0, sizeof(w));
	memset(&r, 0, sizeof(r));
	if (!t_ns || !bytes || !p || !out || p->max_levels < 1 || p->max_levels > SLC_MAX_LEVELS ||
	    !(p->min_drop > 0 && p->min_drop < 1) || !(p->significance >= 0 && p->significance <= 1))
		return -EINVAL;
	w.n = n;
	w.min_seg = p->min_seg ? p->min_seg : (n / 1000 > 8 ? n / 1000 : 8);
	if (w.min_seg < 2 || n < 2 * w.min_seg)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if ((i ? t_ns[i] <= t_ns[i - 1] : t_ns[0] == 0) || (i && bytes[i] < bytes[i - 1]))
			return -EINVAL;

	ret = -ENOMEM;
	dt = malloc(n * sizeof(*dt));
	wt = malloc(n * sizeof(*wt));
	db0 = malloc(n * sizeof(*db0));
	pb0 = malloc((n + 1) * sizeof(*pb0));
	w.db = malloc(n * sizeof(*w.db));
	z = malloc(n * sizeof(*z));
	s2v = malloc(n * sizeof(*s2v));
	mu = malloc(n * sizeof(*mu));
	w.pt = malloc((n + 1) * sizeof(double));
	w.pb = malloc((n + 1) * sizeof(double));
	w.pq = malloc((n + 1) * sizeof(double));
	step = (n + SLC_GRID - 1) / SLC_GRID;
	w.ng = (n + step - 1) / step + 1;
	w.grid = malloc(w.ng * sizeof(*w.grid));
	w.cost = malloc(w.ng * w.ng * sizeof(*w.cost));
	w.dp = malloc(SLC_MAX_LEVELS * w.ng * sizeof(*w.dp));
	w.from = calloc(SLC_MAX_LEVELS * w.ng, sizeof(*w.from));
	bs = malloc((p->boot_reps + 1) * (SLC_MAX_LEVELS + 3) * sizeof(*bs));
	if (!dt || !wt || !db0 || !pb0 || !w.db || !z || !s2v || !mu || !w.pt || !w.pb || !w.pq || !w.grid ||
	    !w.cost || !w.dp || !w.from || !bs)
		goto out;
	for (size_t g = 0; g < w.ng; g++)
		w.grid[g] = g * step < n ? g * step : n;
	w.grid[w.ng - 1] = n;
	for (size_t i = 0; i < n; i++) {
		dt[i] = (double)(t_ns[i] - (i ? t_ns[i - 1] : 0)) * 1e-9;
		wt[i] = 1.0 / dt[i];
		db0[i] = w.db[i] = (double)(bytes[i] - (i ? bytes[i - 1] : 0));
		pb0[i + 1] = (double)bytes[i];
	}
	pb0[0] = 0;
	w.dt = dt;
	prefix(&w);
	/* A noiseless level has variance 0 and log 0 = -inf; a floor far below any real noise
	 * (1e-12 of the mean square rate per second) keeps the criterion finite. */
	w.floor = 1e-12 * (w.pq[n] / w.pt[n] + 1.0);
	costs(&w);

	/* BIC for each number of levels */
	for (k = 1; k <= SLC_MAX_LEVELS; k++)
		r.bic[k - 1] = NAN;
	r.nlevels = 1;
	for (k = 1; k <= p->max_levels; k++) {
		double c = split(&w, k, bp);

		if (!isfinite(c))
			break;
		r.bic[k - 1] = c + (3.0 * k - 1.0) * log((double)n);
		if (r.bic[k - 1] < bicmin) {
			bicmin = r.bic[k - 1];
			r.nlevels = k;
			memcpy(best_bp, bp, sizeof(bp));
		}
	}
	k = r.nlevels;
	ret = -EDOM;
	for (unsigned j = 0; j < k; j++) {
		struct slc_level *L = &r.level[j];

		if (seg_fit(&w, wt, best_bp[j], best_bp[j + 1], &rate[j], &s2[j]))
			goto out;
		L->first = best_bp[j];
		L->last = best_bp[j + 1] - 1;
		L->t_from_s = L->first ? (double)t_ns[L->first - 1] * 1e-9 : 0;
		L->t_to_s = (double)t_ns[L->last] * 1e-9;
		L->bytes_from = L->first ? bytes[L->first - 1] : 0;
		L->bytes_to = bytes[L->last];
		L->mbps = rate[j] * 1e-6;
		L->sd_mbps = sqrt(s2[j]) * 1e-6;
		L->mbps_lo = L->mbps_hi = NAN;
	}
	ret = boot_model(dt, db0, best_bp, k, rate, w.floor, mu, s2v, z);
	if (ret)
		goto out;
	/* the data's edge, before the replicates reuse w's prefix sums of bytes (those of time,
	 * w.pt, stay the data's) */
	has_edge = find_edge(rate, best_bp, k, w.min_seg, p->min_drop, dt, db0, w.pt, pb0, &edge);
	r.n = n;
	r.min_seg = w.min_seg;
	r.boot_reps = p->boot_reps;
	r.block_len = p->block_len ? p->block_len : (size_t)ceil(cbrt((double)n));
	if (r.block_len > n)
		r.block_len = n;
	r.edge_level = first_drop(rate, k, p->min_drop);
	r.cache_bytes = r.cache_bytes_lo = r.cache_bytes_hi = NAN;
	r.in_cache_mbps = r.in_cache_lo = r.in_cache_hi = NAN;
	r.post_cache_mbps = r.post_cache_lo = r.post_cache_hi = NAN;
	r.drop_share = NAN;
	r.edge_temp_c = NAN;

	/* moving-block bootstrap: replicate b's figures go to bs[(b) + reps * column] */
	if (p->boot_reps && k > 1) {
		size_t reps = p->boot_reps, L = r.block_len, nb = 0, drops = 0;
		double *cache = bs, *inb = bs + reps, *postb = bs + 2 * reps, *lv[SLC_MAX_LEVELS];

		for (unsigned j = 0; j < k; j++)
			lv[j] = bs + reps * (j + 3);
		ret = -ENOMEM;
		rng = gsl_rng_alloc(gsl_rng_mt19937);
		if (!rng)
			goto out;
		gsl_rng_set(rng, (unsigned long)p->seed);
		for (size_t b = 0; b < reps; b++) {
			size_t rbp[SLC_MAX_LEVELS + 1];
			double rr[SLC_MAX_LEVELS], rs[SLC_MAX_LEVELS];
			struct edge ed;

			/* blocks are drawn within each level, so that a level's residuals
			 * (its transition's large ones included) stay in that level */
			for (unsigned lev = 0; lev < k; lev++) {
				size_t a = best_bp[lev], m = best_bp[lev + 1] - a;
				size_t bl = L < m ? L : m;

				for (size_t i = a; i < a + m;) {
					size_t s0 = a + gsl_rng_uniform_int(rng, m - bl + 1);

					for (size_t j = 0; j < bl && i < a + m; j++, i++)
						w.db[i] = mu[i] + sqrt(s2v[i] * dt[i]) * z[s0 + j];
				}
			}
			prefix(&w);
			costs(&w);
			if (!isfinite(split(&w, k, rbp)))
				continue;
			ret = -EDOM;
			for (unsigned j = 0; j < k; j++)
				if (seg_fit(&w, wt, rbp[j], rbp[j + 1], &rr[j], &rs[j]))
					goto out;
			for (unsigned j = 0; j < k; j++)
				lv[j][nb] = rr[j] * 1e-6;
			if (find_edge(rr, rbp, k, w.min_seg, p->min_drop, dt, w.db, w.pt, w.pb,
				      &ed)) {
				cache[drops] = ed.bytes;
				inb[drops] = rr[ed.e - 1] * 1e-6;
				postb[drops] = rr[ed.q] * 1e-6;
				drops++;
			}
			nb++;
		}
		for (unsigned j = 0; j < k; j++)
			around(lv[j], nb, rate[j] * 1e-6, &r.level[j].mbps_lo,
			       &r.level[j].mbps_hi);
		if (nb)
			r.drop_share = (double)drops / (double)nb;
		if (drops && has_edge) {
			around(cache, drops, edge.bytes, &r.cache_bytes_lo, &r.cache_bytes_hi);
			around(inb, drops, rate[edge.e - 1] * 1e-6, &r.in_cache_lo, &r.in_cache_hi);
			around(postb, drops, rate[edge.q] * 1e-6, &r.post_cache_lo,
			       &r.post_cache_hi);
		}
	}
	if (r.edge_level && (isnan(r.drop_share) || r.drop_share >= p->significance) &&
	    has_edge) {
		unsigned e = edge.e;
		size_t at = r.level[e].first, lo = at > w.min_seg ? at - w.min_seg : 0;
		size_t hi = at + w.min_seg < n ? at + w.min_seg : n;

		r.cache_detected = true;
		r.post_level = edge.q;
		r.cache_bytes = edge.bytes;
		r.in_cache_mbps = r.level[e - 1].mbps;
		r.post_cache_mbps = r.level[edge.q].mbps;
		/* the hottest reading within one minimum level of the edge */
		for (size_t i = lo; temp_c && i < hi; i++)
			if (!isnan(temp_c[i]) && (isnan(r.edge_temp_c) || temp_c[i] > r.edge_temp_c))
				r.edge_temp_c = temp_c[i];
		r.possible_throttling = !isnan(p->warning_c) && !isnan(r.edge_temp_c) &&
					r.edge_temp_c >= p->warning_c;
	} else {
		r.edge_level = 0;
		r.cache_bytes_lo = r.cache_bytes_hi = NAN;
		r.in_cache_lo = r.in_cache_hi = r.post_cache_lo = r.post_cache_hi = NAN;
	}
	*out = r;
	ret = 0;
out:
	if (rng)
		gsl_rng_free(rng);
	free(dt);
	free(wt);
	free(db0);
	free(pb0);
	free(w.db);
	free(z);
	free(s2v);
	free(mu);
	free(w.pt);
	free(w.pb);
	free(w.pq);
	free(w.grid);
	free(w.cost);
	free(w.dp);
	free(w.from);
	free(bs);
	return ret;
}
