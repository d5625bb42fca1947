/* SPDX-License-Identifier: MIT */
/*
 * units: the one place where ssdlab parses and prints quantities.
 *
 * Sizes are bytes (uint64_t), times are nanoseconds (uint64_t), fractions are doubles in [0, 1].
 * Suffixes are case-insensitive and binary: "4k" = "4KiB" = "4KB" = 4096 (storage people say
 * KB and mean KiB in every tool we compete with: fio, dd, hdparm). A bare number is bytes.
 * Durations: "ns", "us", "ms", "s", "m", "h", "d"; a bare number is seconds.
 *
 * Every parser returns 0 on success, -EINVAL when the text is not of the form (and then
 * writes nothing), -ERANGE when it does not fit. units_expect_*() give the text for an
 * error message ("a size such as 4k, 128KiB or 2g").
 */
#ifndef SSDLAB_UNITS_H
#define SSDLAB_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int units_parse_size(const char *s, uint64_t *bytes);
int units_parse_duration(const char *s, uint64_t *ns);
/* "20%" or "0.2"?  Only "N%" or a bare number N meaning percent (0..100): returns the fraction. */
int units_parse_percent(const char *s, double *fraction);
int units_parse_u64(const char *s, uint64_t *v);
int units_parse_double(const char *s, double *v); /* locale-independent strtod */
/* A fraction f of total rounded down to a multiple of align (total itself when f >= 1): the
 * user capacity of an op-variants variant (run/variants.h), which the analysis recomputes. */
uint64_t units_fraction_floor(uint64_t total, double f, uint64_t align);
/* The alignment of those capacities: every model's mapping unit and every block size divide it. */
#define UNITS_VARIANT_ALIGN (1ull << 20)

/* An amount of work: bytes ("10g"), a multiple of the target capacity ("2x", "0.5x") or a time ("60s"). */
enum amount_kind { AMOUNT_NONE = 0, AMOUNT_BYTES, AMOUNT_CAPACITY, AMOUNT_TIME };
struct amount {
	enum amount_kind kind;
	uint64_t bytes;	 /* AMOUNT_BYTES */
	double multiple; /* AMOUNT_CAPACITY */
	uint64_t ns;	 /* AMOUNT_TIME */
};
int units_parse_amount(const char *s, struct amount *a);
/* Bytes for an amount given the capacity; 0 for AMOUNT_TIME / AMOUNT_NONE. */
uint64_t amount_bytes(const struct amount *a, uint64_t capacity);

/* 0 C = 273.15 K (SI brochure, 2.3.1). */
#define UNITS_KELVIN_OFFSET 273.15
/*
 * A temperature a drive reports in kelvin, in degrees Celsius rounded to hundredths: k - 273.15
 * in binary floating point leaves a tail (323 K gives 49.850000000000023) that would be printed
 * and compared as if it meant something; every kelvin value a drive reports is whole or in
 * hundredths, so the rounding loses nothing.
 */
double units_kelvin_to_celsius(double kelvin);

/*
 * An LBA range as fractions of the capacity or absolute bytes: "0-50%", "25%-75%", "0-10g", "1g-2g".
 * range_resolve() turns it into [start, end) bytes aligned down to `align`; -ERANGE if empty or past
 * the capacity.
 */
struct range {
	bool percent;
	double lo, hi;	      /* fractions when percent */
	uint64_t lo_b, hi_b;  /* bytes otherwise */
};
int units_parse_range(const char *s, struct range *r);
int range_resolve(const struct range *r, uint64_t capacity, uint64_t align, uint64_t *start,
		  uint64_t *end);

/* Printing: always '.' as the decimal point, whatever the locale. Return buf. */
const char *units_fmt_size(uint64_t bytes, char *buf, size_t len);	 /* "4 KiB", "1.50 GiB" */
const char *units_fmt_duration(uint64_t ns, char *buf, size_t len);	 /* "850 ns", "1.20 ms", "2h03m" */
const char *units_fmt_double(double v, int decimals, char *buf, size_t len);

const char *units_expect_size(void);
const char *units_expect_duration(void);
const char *units_expect_percent(void);
const char *units_expect_amount(void);
const char *units_expect_range(void);

#endif
