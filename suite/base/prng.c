/* SPDX-License-Identifier: MIT */
/*
 * prng: seeding and bulk fill for the xoshiro256** generator of prng.h.
 */
#include "base/prng.h"

#include <string.h>

void prng_seed(struct prng *p, uint64_t seed, uint64_t stream)
{
	/* Each stream starts splitmix64 from a different state (stream 0 from the seed itself), and
	 * splitmix64 turns neighbouring states into unrelated xoshiro states. */
	uint64_t mix = stream * 0xd1b54a32d192ed03ull;
	uint64_t sm = stream ? seed ^ prng_splitmix64(&mix) : seed;

	for (int i = 0; i < 4; i++)
		p->s[i] = prng_splitmix64(&sm);
	/* xoshiro's state must not be all zero; splitmix64 output never is four zeros, but be sure. */
	if (!(p->s[0] | p->s[1] | p->s[2] | p->s[3]))
		p->s[0] = 1;
}

void prng_fill(struct prng *p, void *buf, size_t len)
{
	unsigned char *b = buf;

	while (len >= 8) {
		uint64_t v = prng_next(p);

		memcpy(b, &v, 8);
		b += 8;
		len -= 8;
	}
	if (len) {
		uint64_t v = prng_next(p);

		memcpy(b, &v, len);
	}
}
