/* SPDX-License-Identifier: MIT */
/*
 * units: parsing and printing of sizes, durations, percentages, amounts and ranges (see units.h).
 *
 * Numbers are parsed by hand as an exact decimal (integer part, fraction numerator, power of ten)
 * so that "1.5g" is exactly 1610612736 bytes and nothing depends on the locale's decimal point.
 * Printing never goes through printf's %f for the same reason: units_fmt_double() builds the
 * digits from integers.
 */
#include "base/units.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

__extension__ typedef unsigned __int128 u128;

/* An exact non-negative decimal: ip + fnum / fden, fden = 10^k with k <= 19. */
struct dec {
	uint64_t ip;
	uint64_t fnum;
	uint64_t fden;
};

/*
 * Parses [digits][.digits] at *p (at least one digit). Advances *p past it. Fraction digits past
 * the 19th are dropped (below any unit's resolution). Returns 0, -EINVAL or -ERANGE.
 */
static int dec_parse(const char **p, struct dec *d)
{
	const char *s = *p;
	struct dec v = {0, 0, 1};
	int ndig = 0;

	while (isdigit((unsigned char)*s)) {
		unsigned dg = (unsigned)(*s - '0');

		if (__builtin_mul_overflow(v.ip, 10, &v.ip) ||
		    __builtin_add_overflow(v.ip, dg, &v.ip))
			return -ERANGE;
		s++;
		ndig++;
	}
	if (*s == '.') {
		int k = 0;

		s++;
		while (isdigit((unsigned char)*s)) {
			if (k < 19) {
				v.fnum = v.fnum * 10 + (uint64_t)(*s - '0');
				v.fden *= 10;
				k++;
			}
			s++;
			ndig++;
		}
	}
	if (!ndig)
		return -EINVAL;
	*p = s;
	*d = v;
	return 0;
}

/*
 * d * mult as an integer. With `exact`, a result that is not whole is -EINVAL ("0.3k" bytes);
 * otherwise it is rounded to nearest (durations: 1.0000000001s is fine).
 */
static int dec_mul(const struct dec *d, uint64_t mult, bool exact, uint64_t *out)
{
	u128 whole = (u128)d->ip * mult;
	u128 fr = (u128)d->fnum * mult;
	u128 q = fr / d->fden, r = fr % d->fden;

	if (exact && r)
		return -EINVAL;
	if (!exact && r * 2 >= d->fden)
		q++;
	whole += q;
	if (whole > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)whole;
	return 0;
}

static const char *skip_ws(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return s;
}

/* Length of s without trailing white space. */
static size_t trim_len(const char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return n;
}

/* Case-insensitive match of the unit text [u, u+n) against a list of names. */
static bool unit_is(const char *u, size_t n, const char *const *names)
{
	for (; *names; names++)
		if (strlen(*names) == n && !strncasecmp(u, *names, n))
			return true;
	return false;
}

struct unit_def {
	const char *const *names;
	uint64_t mult;
};

static const char *const n_byte[] = {"", "b", NULL};
static const char *const n_kib[] = {"k", "kb", "kib", NULL};
static const char *const n_mib[] = {"m", "mb", "mib", NULL};
static const char *const n_gib[] = {"g", "gb", "gib", NULL};
static const char *const n_tib[] = {"t", "tb", "tib", NULL};
static const char *const n_pib[] = {"p", "pb", "pib", NULL};

static const struct unit_def size_units[] = {
    {n_byte, 1},	 {n_kib, 1ull << 10}, {n_mib, 1ull << 20}, {n_gib, 1ull << 30},
    {n_tib, 1ull << 40}, {n_pib, 1ull << 50}, {NULL, 0},
};

static const char *const n_ns[] = {"ns", NULL};
static const char *const n_us[] = {"us", "usec", NULL};
static const char *const n_ms[] = {"ms", "msec", NULL};
static const char *const n_s[] = {"", "s", "sec", NULL};
static const char *const n_min[] = {"m", "min", NULL};
static const char *const n_h[] = {"h", NULL};
static const char *const n_d[] = {"d", NULL};

static const struct unit_def time_units[] = {
    {n_ns, 1},
    {n_us, 1000ull},
    {n_ms, 1000000ull},
    {n_s, 1000000000ull},
    {n_min, 60000000000ull},
    {n_h, 3600000000000ull},
    {n_d, 86400000000000ull},
    {NULL, 0},
};

static const struct unit_def *unit_find(const struct unit_def *tab, const char *u, size_t n)
{
	for (; tab->names; tab++)
		if (unit_is(u, n, tab->names))
			return tab;
	return NULL;
}

/*
 * One "<number>[ ]<unit>" term from s (white space allowed around), the unit being the letters
 * that follow. Returns 0 and the value and end, or -EINVAL / -ERANGE.
 */
static int parse_term(const char *s, const struct unit_def *tab, bool exact, uint64_t *v,
		      const char **end)
{
	struct dec d;
	const char *u;
	const struct unit_def *ud;
	int ret;

	s = skip_ws(s);
	ret = dec_parse(&s, &d);
	if (ret)
		return ret;
	if (*s == ' ')
		s++;
	u = s;
	while (isalpha((unsigned char)*s))
		s++;
	ud = unit_find(tab, u, (size_t)(s - u));
	if (!ud)
		return -EINVAL;
	ret = dec_mul(&d, ud->mult, exact, v);
	if (ret)
		return ret;
	*end = skip_ws(s);
	return 0;
}

int units_parse_size(const char *s, uint64_t *bytes)
{
	uint64_t v;
	const char *end;
	int ret;

	if (!s)
		return -EINVAL;
	ret = parse_term(s, size_units, true, &v, &end);
	if (ret)
		return ret;
	if (*end)
		return -EINVAL;
	*bytes = v;
	return 0;
}

/* Accepts one term ("90s", "1.5h", "60") or several with units ("1h30m", "2h03m"). */
int units_parse_duration(const char *s, uint64_t *ns)
{
	uint64_t total = 0, v;
	const char *p, *end;
	int ret, nterms = 0;
	bool bare = false;

	if (!s)
		return -EINVAL;
	p = skip_ws(s);
	if (!*p)
		return -EINVAL;
	while (*p) {
		const char *q = p;

		ret = parse_term(p, time_units, false, &v, &end);
		if (ret)
			return ret;
		/* A bare number is seconds only when it stands alone: "1h30" is a typo, not 1h30s.
		 */
		while (q < end && !isalpha((unsigned char)*q))
			q++;
		if (q == end)
			bare = true;
		if (__builtin_add_overflow(total, v, &total))
			return -ERANGE;
		nterms++;
		p = end;
	}
	if (bare && nterms > 1)
		return -EINVAL;
	*ns = total;
	return 0;
}

/* Rejects what strtod would accept but a profile should not: hex floats, inf, nan, "1e". */
static bool plain_number(const char *s, size_t n)
{
	size_t i = 0;
	bool dig = false;

	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	while (i < n && isdigit((unsigned char)s[i]))
		i++, dig = true;
	if (i < n && s[i] == '.')
		i++;
	while (i < n && isdigit((unsigned char)s[i]))
		i++, dig = true;
	if (!dig)
		return false;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		bool edig = false;

		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		while (i < n && isdigit((unsigned char)s[i]))
			i++, edig = true;
		if (!edig)
			return false;
	}
	return i == n;
}

/* Parses exactly n characters of s as a double, in the C locale whatever the process's is. */
static int parse_double_n(const char *s, size_t n, double *v)
{
	char buf[64];
	locale_t c;
	double x;
	char *end;

	if (n == 0 || n >= sizeof(buf) || !plain_number(s, n))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	/* glibc hands out its static C locale object here: no allocation. */
	c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	if (!c)
		return -ENOMEM;
	errno = 0;
	x = strtod_l(buf, &end, c);
	freelocale(c);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE && isinf(x))
		return -ERANGE;
	*v = x;
	return 0;
}

int units_parse_double(const char *s, double *v)
{
	const char *p;

	if (!s)
		return -EINVAL;
	p = skip_ws(s);
	return parse_double_n(p, trim_len(p), v);
}

int units_parse_u64(const char *s, uint64_t *v)
{
	const char *p;
	uint64_t x = 0;
	size_t n, i = 0;
	unsigned base = 10;

	if (!s)
		return -EINVAL;
	p = skip_ws(s);
	n = trim_len(p);
	if (n > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == n)
		return -EINVAL;
	for (; i < n; i++) {
		int c = tolower((unsigned char)p[i]);
		unsigned dg;

		if (isdigit(c))
			dg = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			dg = (unsigned)(c - 'a' + 10);
		else
			return -EINVAL;
		if (__builtin_mul_overflow(x, base, &x) || __builtin_add_overflow(x, dg, &x))
			return -ERANGE;
	}
	*v = x;
	return 0;
}

/* "N%" or bare "N" (percent), into [0, 100]; the % sign is optional. */
static int parse_percent_n(const char *s, size_t n, double *fraction)
{
	double x;
	int ret;

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (n && s[n - 1] == '%')
		n--;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	ret = parse_double_n(s, n, &x);
	if (ret)
		return ret;
	if (x < 0 || x > 100)
		return -ERANGE;
	*fraction = x / 100.0;
	return 0;
}

int units_parse_percent(const char *s, double *fraction)
{
	const char *p;

	if (!s)
		return -EINVAL;
	p = skip_ws(s);
	return parse_percent_n(p, strlen(p), fraction);
}

int units_parse_amount(const char *s, struct amount *a)
{
	const char *p;
	size_t n;
	struct amount out = {0};
	int ret;

	if (!s)
		return -EINVAL;
	p = skip_ws(s);
	n = trim_len(p);
	if (!n)
		return -EINVAL;
	if (p[n - 1] == 'x' || p[n - 1] == 'X') {
		size_t m = n - 1;

		while (m && isspace((unsigned char)p[m - 1]))
			m--;
		ret = parse_double_n(p, m, &out.multiple);
		if (ret)
			return ret;
		if (!(out.multiple > 0) || out.multiple > 1e6)
			return -ERANGE;
		out.kind = AMOUNT_CAPACITY;
		*a = out;
		return 0;
	}
	/* "1m" would be a MiB to a storage person and a minute to everyone else: refuse to guess.
	 */
	if ((p[n - 1] == 'm' || p[n - 1] == 'M') && (n < 2 || !isalpha((unsigned char)p[n - 2])))
		return -EINVAL;
	ret = units_parse_size(p, &out.bytes);
	if (ret == 0) {
		if (!out.bytes)
			return -ERANGE;
		out.kind = AMOUNT_BYTES;
		*a = out;
		return 0;
	}
	if (ret == -ERANGE)
		return ret;
	ret = units_parse_duration(p, &out.ns);
	if (ret)
		return ret;
	if (!out.ns)
		return -ERANGE;
	out.kind = AMOUNT_TIME;
	*a = out;
	return 0;
}

uint64_t amount_bytes(const struct amount *a, uint64_t capacity)
{
	double b;

	switch (a->kind) {
	case AMOUNT_BYTES:
		return a->bytes;
	case AMOUNT_CAPACITY:
		b = a->multiple * (double)capacity;
		if (b >= 18446744073709551615.0)
			return UINT64_MAX;
		return (uint64_t)llround(b);
	default:
		return 0;
	}
}

/* One end of a range: a percent (with or without %) or a size. */
static int range_end_parse(const char *s, size_t n, bool *is_pct, double *frac, uint64_t *bytes)
{
	char buf[64];

	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	while (n && isspace((unsigned char)*s))
		s++, n--;
	if (!n || n >= sizeof(buf))
		return -EINVAL;
	if (s[n - 1] == '%') {
		*is_pct = true;
		return parse_percent_n(s, n, frac);
	}
	*is_pct = false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return units_parse_size(buf, bytes);
}

int units_parse_range(const char *s, struct range *r)
{
	const char *p, *dash;
	struct range out = {0};
	bool lo_pct = false, hi_pct = false;
	double lo_f = 0, hi_f = 0;
	uint64_t lo_b = 0, hi_b = 0;
	int ret;

	if (!s)
		return -EINVAL;
	p = skip_ws(s);
	dash = strchr(p, '-');
	if (!dash) {
		/* "50%" alone means the first half; "10g" the first 10 GiB. */
		ret = range_end_parse(p, strlen(p), &hi_pct, &hi_f, &hi_b);
		if (ret)
			return ret;
		lo_pct = hi_pct;
	} else {
		size_t n = (size_t)(dash - p);
		bool unitless = true;

		ret = range_end_parse(dash + 1, strlen(dash + 1), &hi_pct, &hi_f, &hi_b);
		if (ret)
			return ret;
		for (size_t i = 0; i < n; i++)
			if (isalpha((unsigned char)p[i]) || p[i] == '%')
				unitless = false;
		/* "10-50%": a bare number on the left takes the right end's kind. */
		if (hi_pct && unitless) {
			ret = parse_percent_n(p, n, &lo_f);
			lo_pct = true;
		} else {
			ret = range_end_parse(p, n, &lo_pct, &lo_f, &lo_b);
		}
		if (ret)
			return ret;
		if (lo_pct != hi_pct)
			return -EINVAL;
	}
	out.percent = hi_pct;
	if (out.percent) {
		out.lo = lo_f;
		out.hi = hi_f;
		if (!(out.lo < out.hi))
			return -ERANGE;
	} else {
		out.lo_b = lo_b;
		out.hi_b = hi_b;
		if (out.lo_b >= out.hi_b)
			return -ERANGE;
	}
	*r = out;
	return 0;
}

int range_resolve(const struct range *r, uint64_t capacity, uint64_t align, uint64_t *start,
		  uint64_t *end)
{
	uint64_t lo, hi;

	if (!align)
		align = 1;
	if (r->percent) {
		lo = (uint64_t)((long double)r->lo * capacity);
		hi = (uint64_t)((long double)r->hi * capacity);
		if (hi > capacity)
			hi = capacity;
	} else {
		lo = r->lo_b;
		hi = r->hi_b;
		if (hi > capacity)
			return -ERANGE;
	}
	lo -= lo % align;
	hi -= hi % align;
	if (lo >= hi)
		return -ERANGE;
	*start = lo;
	*end = hi;
	return 0;
}

const char *units_fmt_double(double v, int decimals, char *buf, size_t len)
{
	uint64_t scale = 1, whole, frac;
	long double x;
	bool neg;
	char fbuf[24];

	if (!len)
		return buf;
	if (isnan(v)) {
		snprintf(buf, len, "nan");
		return buf;
	}
	if (isinf(v)) {
		snprintf(buf, len, v < 0 ? "-inf" : "inf");
		return buf;
	}
	if (decimals < 0)
		decimals = 0;
	if (decimals > 9)
		decimals = 9;
	for (int i = 0; i < decimals; i++)
		scale *= 10;
	neg = v < 0;
	x = fabsl((long double)v) * scale + 0.5L;
	if (x >= 18446744073709551615.0L) {
		/* Too big for the integer path: print the integer part only (no decimal point is
		 * printed, so the locale cannot matter). */
		snprintf(buf, len, "%s%.0Lf", neg ? "-" : "", fabsl((long double)v));
		return buf;
	}
	whole = (uint64_t)x / scale;
	frac = (uint64_t)x % scale;
	if (whole == 0 && frac == 0)
		neg = false;
	if (decimals) {
		snprintf(fbuf, sizeof(fbuf), "%0*llu", decimals, (unsigned long long)frac);
		snprintf(buf, len, "%s%llu.%s", neg ? "-" : "", (unsigned long long)whole, fbuf);
	} else {
		snprintf(buf, len, "%s%llu", neg ? "-" : "", (unsigned long long)whole);
	}
	return buf;
}

const char *units_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	unsigned i = 0;
	char num[40];

	while (i < 6 && bytes >= (1ull << (10 * (i + 1))))
		i++;
	if (i == 0 || bytes % (1ull << (10 * i)) == 0) {
		snprintf(buf, len, "%llu %s", (unsigned long long)(bytes >> (10 * i)), names[i]);
		return buf;
	}
	units_fmt_double((double)bytes / (double)(1ull << (10 * i)), 2, num, sizeof(num));
	snprintf(buf, len, "%s %s", num, names[i]);
	return buf;
}

const char *units_fmt_duration(uint64_t ns, char *buf, size_t len)
{
	const uint64_t us = 1000, ms = 1000 * us, s = 1000 * ms, m = 60 * s, h = 60 * m, d = 24 * h;
	char num[40];

	/* Each branch takes the values that do not round up into the next unit ("59.999 s" is
	 * "1m00s", not "60.00 s"). */
	if (ns < us) {
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	} else if (ns < ms - 5) {
		snprintf(buf, len, "%s us", units_fmt_double((double)ns / us, 2, num, sizeof(num)));
	} else if (ns < s - 5 * us) {
		snprintf(buf, len, "%s ms", units_fmt_double((double)ns / ms, 2, num, sizeof(num)));
	} else if (ns < m - 5 * ms) {
		snprintf(buf, len, "%s s", units_fmt_double((double)ns / s, 2, num, sizeof(num)));
	} else if (ns < h - s / 2) {
		uint64_t t = (ns + s / 2) / s;

		snprintf(buf, len, "%llum%02llus", (unsigned long long)(t / 60),
			 (unsigned long long)(t % 60));
	} else if (ns < d - m / 2) {
		uint64_t t = (ns + m / 2) / m;

		snprintf(buf, len, "%lluh%02llum", (unsigned long long)(t / 60),
			 (unsigned long long)(t % 60));
	} else {
		uint64_t t = ns / h + (ns % h >= h / 2);

		snprintf(buf, len, "%llud%02lluh", (unsigned long long)(t / 24),
			 (unsigned long long)(t % 24));
	}
	return buf;
}

const char *units_expect_size(void)
{
	return "a size such as 512, 4k, 128KiB or 2g";
}

const char *units_expect_duration(void)
{
	return "a duration such as 60s, 5m or 24h";
}

const char *units_expect_percent(void)
{
	return "a percentage from 0% to 100% such as 20%";
}

const char *units_expect_amount(void)
{
	return "an amount such as 2x (of capacity), 10g or 24h ('1m' would be ambiguous: say 1MiB or 1min)";
}

const char *units_expect_range(void)
{
	return "a range such as 0-50%, 25%-75% or 1g-2g";
}

double units_kelvin_to_celsius(double kelvin)
{
	return round((kelvin - UNITS_KELVIN_OFFSET) * 100.0) / 100.0;
}

uint64_t units_fraction_floor(uint64_t total, double f, uint64_t align)
{
	if (f >= 1.0)
		return total;
	if (f <= 0.0 || !align)
		return 0;
	return (uint64_t)((double)total * f) / align * align;
}
