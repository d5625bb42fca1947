/* SPDX-License-Identifier: MIT */
/*
 * prng: the seeded pseudo-random generator of the workload (xoshiro256**, Blackman and Vigna
 * 2018, seeded through splitmix64). Fast enough to sit on the I/O hot path (a few ns per
 * number), reproducible from the one 64-bit seed that the results record, and with independent
 * streams for threads: stream i of seed s seeds splitmix64 with s xor a mix of i (stream 0 with
 * s itself). Not for anything cryptographic.
 *
 * The state is public so that prng_next() inlines; treat it as opaque.
 */
#ifndef SSDLAB_PRNG_H
#define SSDLAB_PRNG_H

#include <stddef.h>
#include <stdint.h>

struct prng {
	uint64_t s[4];
};

/* Seeds stream `stream` of `seed` (stream 0 for a single-threaded job). */
void prng_seed(struct prng *p, uint64_t seed, uint64_t stream);

static inline uint64_t prng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

/* The next 64 random bits. */
static inline uint64_t prng_next(struct prng *p)
{
	uint64_t *s = p->s;
	uint64_t r = prng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = prng_rotl(s[3], 45);
	return r;
}

/*
 * A uniform integer in [0, n) without modulo bias (Lemire's multiply-and-reject, ACM TOMACS
 * 2019). n = 0 returns 0.
 */
static inline uint64_t prng_below(struct prng *p, uint64_t n)
{
	__extension__ typedef unsigned __int128 u128;
	u128 m;
	uint64_t lo;

	if (!n)
		return 0;
	m = (u128)prng_next(p) * n;
	lo = (uint64_t)m;
	if (lo < n) {
		uint64_t thresh = -n % n;

		while (lo < thresh) {
			m = (u128)prng_next(p) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/* A uniform double in [0, 1) with 53 random bits. */
static inline double prng_double(struct prng *p)
{
	return (double)(prng_next(p) >> 11) * 0x1.0p-53;
}

/* Fills len bytes with random data. */
void prng_fill(struct prng *p, void *buf, size_t len);

/* splitmix64 step (Steele, Lea, Flood 2014): also a good 64-bit mixer for stamps. */
uint64_t prng_splitmix64(uint64_t *state);

#endif
