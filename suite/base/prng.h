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

/*
 * A uniform integer in [0, n) from the top 32 bits of one number (multiply-shift, no
 * rejection): the bias is below n / 2^32, which the virtual SSD's victim picks can afford, and
 * it costs one multiply. Its sequence is part of the simulator's reproducible figures.
 */
static inline uint32_t prng_below32(struct prng *p, uint32_t n)
{
	return (uint32_t)(((prng_next(p) >> 32) * (uint64_t)n) >> 32);
}

/* Fills len bytes with random data. */
void prng_fill(struct prng *p, void *buf, size_t len);

/*
 * splitmix64 step (Steele, Lea, Flood 2014): advances *state and returns the next output. It
 * seeds xoshiro and is also a good 64-bit mixer for stamps and keys (prng_mix64()).
 */
static inline uint64_t prng_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* splitmix64's output for state z, without a state to advance: a 64-bit hash finalizer. */
static inline uint64_t prng_mix64(uint64_t z)
{
	return prng_splitmix64(&z);
}

#endif
