/* SPDX-License-Identifier: MIT */
/*
 * jobspec: the text forms of a job's settings shared by the profile language and `ssdlab io`:
 * rw mode names and block-size splits ("4k" or "4k/70:64k/30"). The contract is jobspec.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine/jobspec.h"
#include "base/units.h"

static const char *const rw_names[] = {
    [RW_READ] = "read",		  [RW_WRITE] = "write",	  [RW_RANDREAD] = "randread",
    [RW_RANDWRITE] = "randwrite", [RW_RANDRW] = "randrw", [RW_RW] = "rw",
};

const char *rw_mode_name(enum rw_mode m)
{
	if ((unsigned)m < sizeof(rw_names) / sizeof(rw_names[0]))
		return rw_names[m];
	return "?";
}

int rw_mode_parse(const char *s, enum rw_mode *m)
{
	if (!s)
		return -EINVAL;
	for (unsigned i = 0; i < sizeof(rw_names) / sizeof(rw_names[0]); i++) {
		if (!strcmp(s, rw_names[i])) {
			*m = (enum rw_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* One block size of a split: a size, 512-aligned, that fits the 32-bit I/O length. */
static int bs_one(const char *txt, uint32_t *bs, char *err, size_t len)
{
	uint64_t v;
	int ret = units_parse_size(txt, &v);

	if (ret == -EINVAL) {
		snprintf(err, len, "expected a block size such as 4k or 128k, got '%s'", txt);
		return -EINVAL;
	}
	if (ret || v == 0 || v > (1ull << 30)) {
		snprintf(err, len, "block size '%s' out of range (512 to 1g)", txt);
		return -ERANGE;
	}
	if (v % 512) {
		snprintf(err, len, "block size '%s' is not a multiple of 512", txt);
		return -EINVAL;
	}
	*bs = (uint32_t)v;
	return 0;
}

int bs_split_parse(const char *s, struct bs_split *out, unsigned *n, char *err, size_t len)
{
	struct bs_split tmp[JOB_MAX_BS];
	unsigned cnt = 0, with_weight = 0;
	const char *p = s;
	char part[64];
	int ret;

	if (!s || !*s) {
		snprintf(err, len,
			 "expected a block size such as 4k or a split such as 4k/70:64k/30");
		return -EINVAL;
	}
	for (;;) {
		const char *colon = strchr(p, ':');
		size_t plen = colon ? (size_t)(colon - p) : strlen(p);
		char *slash;
		uint64_t w = 1;

		if (plen == 0 || plen >= sizeof(part)) {
			snprintf(err, len, "expected a split such as 4k/70:64k/30, got '%s'", s);
			return -EINVAL;
		}
		if (cnt == JOB_MAX_BS) {
			snprintf(err, len, "too many block sizes in '%s' (at most %d)", s,
				 JOB_MAX_BS);
			return -ERANGE;
		}
		memcpy(part, p, plen);
		part[plen] = '\0';
		slash = strchr(part, '/');
		if (slash) {
			*slash = '\0';
			ret = units_parse_u64(slash + 1, &w);
			if (ret || w == 0 || w > 1000000) {
				snprintf(err, len,
					 "expected a weight from 1 to 1000000 after '/', got '%s'",
					 slash + 1);
				return ret == -EINVAL ? -EINVAL : -ERANGE;
			}
			with_weight++;
		}
		ret = bs_one(part, &tmp[cnt].bs, err, len);
		if (ret)
			return ret;
		for (unsigned i = 0; i < cnt; i++) {
			if (tmp[i].bs == tmp[cnt].bs) {
				snprintf(err, len, "block size '%s' appears twice in the split",
					 part);
				return -EINVAL;
			}
		}
		tmp[cnt].weight = (uint32_t)w;
		cnt++;
		if (!colon)
			break;
		p = colon + 1;
	}
	/* "4k:64k" splits evenly; "4k/70:64k" is probably a forgotten weight, not an even split. */
	if (with_weight && with_weight != cnt) {
		snprintf(err, len,
			 "give every block size of the split a weight (4k/70:64k/30) or none");
		return -EINVAL;
	}
	memcpy(out, tmp, cnt * sizeof(tmp[0]));
	*n = cnt;
	return 0;
}

const char *bs_split_normalised(const struct bs_split *b, unsigned n, char *buf, size_t len)
{
	uint64_t sum = 0;
	size_t pos;
	char v[32], pct[32];

	for (unsigned i = 0; i < n; i++)
		sum += b[i].weight;
	if (n < 2 || sum == 100 || !len)
		return NULL;
	pos = (size_t)snprintf(buf, len, "weights ");
	for (unsigned i = 0; i < n && pos < len; i++)
		pos += (size_t)snprintf(buf + pos, len - pos, "%s%u", i ? "+" : "", b[i].weight);
	if (pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, " = %llu, normalised to",
					(unsigned long long)sum);
	for (unsigned i = 0; i < n && pos < len; i++)
		pos += (size_t)snprintf(buf + pos, len - pos, "%s %s %s%%", i ? "," : "",
					units_fmt_size(b[i].bs, v, sizeof(v)),
					units_fmt_double(100.0 * b[i].weight / (double)sum, 1, pct,
							 sizeof(pct)));
	return buf;
}

int bs_split_drop(struct bs_split *b, unsigned *n, uint32_t lbs, struct bs_split *dropped,
		  unsigned *ndropped)
{
	unsigned keep = 0, cnt = 0;

	if (!lbs)
		return 0;
	for (unsigned i = 0; i < *n; i++)
		keep += b[i].bs % lbs == 0;
	if (!keep)
		return -EINVAL;
	for (unsigned i = 0, k = 0; i < *n; i++) {
		if (b[i].bs % lbs == 0) {
			b[k++] = b[i];
			continue;
		}
		if (*ndropped < JOB_MAX_BS)
			dropped[(*ndropped)++] = b[i];
		cnt++;
	}
	*n = keep;
	return (int)cnt;
}

bool rw_mode_random(enum rw_mode m)
{
	return m == RW_RANDREAD || m == RW_RANDWRITE || m == RW_RANDRW;
}

bool rw_mode_writes(enum rw_mode m, unsigned rwmix_read)
{
	return m == RW_WRITE || m == RW_RANDWRITE ||
	       ((m == RW_RANDRW || m == RW_RW) && rwmix_read < 100);
}

bool rw_mode_reads(enum rw_mode m, unsigned rwmix_read)
{
	return m == RW_READ || m == RW_RANDREAD ||
	       ((m == RW_RANDRW || m == RW_RW) && rwmix_read > 0);
}

void job_spec_fill(struct job_spec *s, uint64_t capacity, uint32_t lbs)
{
	memset(s, 0, sizeof(*s));
	s->rw = RW_WRITE;
	/* The largest block that divides the size, so that one pass covers every byte. */
	s->bs[0].bs = lbs ? lbs : 512;
	for (uint32_t b = 1u << 20; b > s->bs[0].bs; b >>= 1)
		if (capacity % b == 0 && b % s->bs[0].bs == 0) {
			s->bs[0].bs = b;
			break;
		}
	s->bs[0].weight = 1;
	s->nbs = 1;
	s->qd = 8;
	s->threads = 1;
	s->range_end = capacity;
}
