/* SPDX-License-Identifier: MIT */
/*
 * sim: the virtual SSD's FTL and its virtual-time model (see sim.h for the model itself).
 *
 * Block life cycle (one state per block, kept in state[]):
 *
 *     FREE --alloc--> OPEN --last unit written--> CLOSED --chosen by GC--> VICTIM --erase--> FREE
 *
 * Invariants (sim_check() verifies them all; the tests call it after their workloads):
 *   - a block is on at most one intrusive list (prev/next): the free queue, a greedy
 *     valid-count bucket, the FIFO list, or the SLC fold list; random, d-choices and FIFO
 *     candidates are also in the closed[] array;
 *   - a physical unit p is valid iff bit p of vbits is set; then rev[p] is its LBA unit (rev
 *     of an invalid unit is stale: unmapping touches only the dense bitmap, not rev);
 *   - valid[b] = number of valid units of block b; the sum of valid[] is valid_units;
 *   - fwd[l] = p  <=>  p is valid and rev[p] = l;
 *   - nfree = the length of the free queue; GC keeps nfree > the hard floor (ndies), so a
 *     frontier can always get a block.
 */
#include "sim/sim.h"
#include "base/prng.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX
#define PENDING UINT64_MAX

enum blk_state { B_FREE = 0, B_OPEN, B_CLOSED, B_VICTIM };
enum wkind { W_HOST = 0, W_GC, W_FOLD, W_PAD };

struct list {
	uint32_t head, tail;
};

/* One frontier: an open block per die slot, filled a page (program unit) at a time. */
struct frontier {
	bool slc;
	uint32_t cursor;      /* slot taking the next unit */
	uint32_t *blk;	      /* [ndies] open block or NIL */
	uint64_t *page_ready; /* [ndies] when the data of the page being gathered is all there */
	/* The host units of the page being gathered hold consecutive write-buffer slots (host
	 * writes fill one page at a time): [host_first, host_first + host_n) modulo the ring. */
	uint32_t *host_first, *host_n;
	/* Write cache off (sync): the page at the cursor has been scheduled for programming
	 * (its transfer to the die starts at commit_at, the program ends at commit_end) though
	 * not full; units ready by commit_at may still join it, the rest of it is padding. */
	bool committed;
	uint64_t commit_at, commit_end;
};

struct sim_ssd {
	struct sim_config cfg;
	uint32_t upp, upb, upb_slc, ndies, nblocks, wm, floor;
	int upp_shift, upb_shift; /* log2 of upp / upb when a power of two, else -1 */
	int mu_shift;		  /* log2 of the mapping unit (always a power of two) */
	uint32_t units_max, units; /* user units: physical maximum, visible now */
	uint32_t *fwd, *rev;
	uint64_t *vbits; /* one bit per physical unit: valid */
	uint32_t *valid, *wp, *erases, *prev, *next, *pos;
	uint8_t *state, *is_slc;
	struct list *bucket; /* greedy: closed TLC blocks by valid count [0..upb] */
	uint32_t bmin;
	struct list fifo;    /* fifo: closed TLC blocks in closing order */
	uint32_t *closed;    /* random, d-choices: closed TLC blocks */
	uint32_t nclosed;
	struct list slc_list; /* closed SLC blocks, oldest first (folding order) */
	uint32_t slc_blocks, slc_closed;
	struct list free_q; /* free blocks, the longest-free first (spreads wear) */
	uint32_t nfree;
	uint16_t *die;	    /* die of each block: the die of the frontier slot that opened it */
	struct frontier tlc, slc;
	/* the GC victim in progress */
	uint32_t victim, vcursor, vpage;
	uint64_t vready; /* when the victim page being copied is in the controller */
	bool victim_bg;	 /* taken by idle work: the host does not pace it (see gc_pace) */
	double credit, ratio;
	/* time */
	uint64_t *die_busy, *read_busy, *chan_busy, iface_busy;
	uint64_t *ring;
	uint32_t nring, ring_pos;
	uint64_t now, last_host_done, idle_w, delay;
	bool idle_done;
	uint64_t xfer_page, xfer_unit, slc_limit_cfg;
	/* counters (units unless named bytes) */
	uint64_t valid_units, slc_valid_units;
	bool wcache, sync; /* volatile write cache on; sync = off and no PLP: ack when programmed */
	uint64_t host_w_bytes, host_r_bytes, nand_w[4], nand_r_pages, gc_runs, idle_gc_runs, folds;
	uint64_t host_r_unmapped; /* bytes of host reads of unmapped units (see sim_counters) */
	struct prng rng; /* base/prng.h xoshiro256**, stream 0 of the config seed */
};

/* ---- configuration ---------------------------------------------------------------------- */

void sim_config_default(struct sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->user_capacity = 1ULL << 30;
	c->spare_factor = 0.07;
	c->mapping_unit = 4096;
	c->page_size = 16384;
	c->pages_per_block = 64;
	c->channels = 2;
	c->dies_per_channel = 2;
	c->logical_block_size = 512;
	/* 3D TLC-like figures (reference/ftl_smart_hpa.md, "Typical NAND timing") */
	c->timing.read = 60000;
	c->timing.program = 700000;
	c->timing.program_slc = 200000;
	c->timing.erase = 3500000;
	c->timing.transfer_per_kib = 2560; /* ONFI 400 MT/s */
	c->gc_policy = SIM_GC_GREEDY;
	c->gc_d = 2;
	c->idle_gc.delay = 1000000000ULL;
	c->idle_gc.rate = 100e6;
	c->timed = true;
	c->write_cache = true;
	c->time_scale = 1.0;
	c->seed = 1;
}

uint32_t sim_config_dies(const struct sim_config *c)
{
	return c->channels * c->dies_per_channel;
}

static uint64_t cfg_block_bytes(const struct sim_config *c)
{
	return (uint64_t)c->page_size * c->pages_per_block;
}

uint64_t sim_config_physical_blocks(const struct sim_config *c)
{
	double phys = (double)c->user_capacity / (1.0 - c->spare_factor);
	uint64_t bb = cfg_block_bytes(c);

	if (!bb || c->spare_factor < 0 || c->spare_factor >= 1)
		return 0;
	/* the small epsilon keeps an exact fraction (Sf = 0.5 of a whole number) from rounding up */
	return (uint64_t)ceil(phys / (double)bb - 1e-9);
}

/* GC must finish a victim before a frontier finds the pool empty: a victim's copies open at
 * most one block per die, so the reserve is at least the dies plus two. */
uint32_t sim_config_watermark(const struct sim_config *c)
{
	uint32_t min = sim_config_dies(c) + 2;

	return c->free_block_watermark > min ? c->free_block_watermark : min;
}

/* SLC blocks hold a third of a TLC block: the same wordlines at one bit per cell. */
static uint32_t cfg_upb_slc(const struct sim_config *c)
{
	return (c->pages_per_block / 3) * (c->page_size / c->mapping_unit);
}

static uint64_t cfg_slc_blocks(const struct sim_config *c)
{
	uint64_t cap = (uint64_t)cfg_upb_slc(c) * c->mapping_unit;

	return cap ? (c->slc.size + cap - 1) / cap : 0;
}

uint64_t sim_config_gc_space_bytes(const struct sim_config *c)
{
	uint64_t pb = sim_config_physical_blocks(c), out = sim_config_watermark(c);
	uint64_t bb = cfg_block_bytes(c);

	if (c->slc.size && !c->slc.dynamic)
		out += cfg_slc_blocks(c);
	/* half of each die's open block, in bytes (an odd die count halves a block) */
	if (pb <= out)
		return 0;
	uint64_t open_half = sim_config_dies(c) * bb / 2;

	return (pb - out) * bb > open_half ? (pb - out) * bb - open_half : 0;
}

int sim_config_check(const struct sim_config *c, char *err, size_t errlen)
{
	const char *why = NULL;
	char buf[256];

	if (!c->mapping_unit || (c->mapping_unit & (c->mapping_unit - 1)) || c->mapping_unit < 512)
		why = "mapping_unit must be a power of two of at least 512 bytes";
	else if (c->logical_block_size != 512 && c->logical_block_size != 4096)
		why = "logical block size must be 512 or 4096";
	else if (c->logical_block_size > c->mapping_unit)
		why = "the mapping unit must not be smaller than the logical block size";
	else if (!c->page_size || c->page_size % c->mapping_unit)
		why = "page_size must be a non-zero multiple of mapping_unit";
	else if (c->pages_per_block < 1 || (c->slc.size && c->pages_per_block < 3))
		why = "pages_per_block must be at least 1 (3 with an SLC cache)";
	else if (!c->channels || !c->dies_per_channel || sim_config_dies(c) > 4096)
		why = "channels and dies_per_channel must be at least 1 (4096 dies at most)";
	else if (!c->user_capacity || c->user_capacity % c->mapping_unit)
		why = "user_capacity must be a non-zero multiple of mapping_unit";
	else if (!(c->spare_factor >= 0 && c->spare_factor < 0.95))
		why = "spare_factor must be in [0, 0.95)";
	else if (c->user_capacity / c->mapping_unit >= NIL)
		why = "too many mapping units for 32-bit maps (raise mapping_unit)";
	else if (c->gc_policy == SIM_GC_DCHOICES && c->gc_d < 1)
		why = "gc.d must be at least 1";
	else if (c->idle_gc.enabled && !c->idle_gc.aggressive && !(c->idle_gc.rate > 0))
		why = "idle_gc needs a positive rate or aggressive: true";
	else if (c->iface.max_bytes_per_s < 0 || c->time_scale < 0)
		why = "interface rate and time scale must not be negative";
	if (!why) {
		uint64_t nb = sim_config_physical_blocks(c);
		uint64_t upb = (uint64_t)c->pages_per_block * (c->page_size / c->mapping_unit);
		/* a static SLC cache is carved out of the spare and must always be there */
		uint64_t need = sim_config_watermark(c) + (c->slc.size ? 2ULL : 1ULL) * sim_config_dies(c) +
				(c->slc.dynamic ? 0 : cfg_slc_blocks(c));
		uint64_t units = c->user_capacity / c->mapping_unit;

		if (nb * upb >= NIL)
			why = "too many physical units for 32-bit maps (raise mapping_unit)";
		else if (nb <= need || (nb - need) * upb <= units + upb) {
			snprintf(buf, sizeof(buf),
				 "spare_factor %.4f is too small: %llu blocks cannot hold the user data "
				 "plus the GC reserve (%u blocks), the open blocks (%llu) and the static SLC "
				 "cache (%llu blocks)",
				 c->spare_factor, (unsigned long long)nb, sim_config_watermark(c),
				 (unsigned long long)(need - sim_config_watermark(c) -
						      (c->slc.dynamic ? 0 : cfg_slc_blocks(c))),
				 (unsigned long long)(c->slc.dynamic ? 0 : cfg_slc_blocks(c)));
			why = buf;
		}
	}
	if (why) {
		if (err && errlen)
			snprintf(err, errlen, "%s", why);
		return -EINVAL;
	}
	return 0;
}

const char *sim_gc_policy_name(enum sim_gc_policy p)
{
	switch (p) {
	case SIM_GC_GREEDY: return "greedy";
	case SIM_GC_FIFO: return "fifo";
	case SIM_GC_RANDOM: return "random";
	case SIM_GC_DCHOICES: return "d-choices";
	}
	return "?";
}

int sim_gc_policy_parse(const char *s, enum sim_gc_policy *p)
{
	static const enum sim_gc_policy all[] = {SIM_GC_GREEDY, SIM_GC_FIFO, SIM_GC_RANDOM,
						 SIM_GC_DCHOICES};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!strcmp(s, sim_gc_policy_name(all[i]))) {
			*p = all[i];
			return 0;
		}
	return -EINVAL;
}

/* ---- intrusive lists over prev/next ----------------------------------------------------- */

static void list_push(struct sim_ssd *s, struct list *l, uint32_t b)
{
	s->next[b] = NIL;
	s->prev[b] = l->tail;
	if (l->tail != NIL)
		s->next[l->tail] = b;
	else
		l->head = b;
	l->tail = b;
}

static void list_del(struct sim_ssd *s, struct list *l, uint32_t b)
{
	if (s->prev[b] != NIL)
		s->next[s->prev[b]] = s->next[b];
	else
		l->head = s->next[b];
	if (s->next[b] != NIL)
		s->prev[s->next[b]] = s->prev[b];
	else
		l->tail = s->prev[b];
	s->prev[b] = s->next[b] = NIL;
}

static void list_reset(struct list *l)
{
	l->head = l->tail = NIL;
}

/* ---- helpers ----------------------------------------------------------------------------- */

static inline uint32_t die_of(const struct sim_ssd *s, uint32_t b)
{
	return s->die[b];
}

/* Divisions by units per page / per block sit on the hot path: shifts when we can. */
static inline uint32_t div_upp(const struct sim_ssd *s, uint32_t x)
{
	return s->upp_shift >= 0 ? x >> s->upp_shift : x / s->upp;
}

static inline uint32_t mod_upp(const struct sim_ssd *s, uint32_t x)
{
	return s->upp_shift >= 0 ? x & (s->upp - 1) : x % s->upp;
}

static inline uint32_t div_upb(const struct sim_ssd *s, uint32_t x)
{
	return s->upb_shift >= 0 ? x >> s->upb_shift : x / s->upb;
}

static int log2_exact(uint32_t x)
{
	return x && !(x & (x - 1)) ? __builtin_ctz(x) : -1;
}

static inline bool unit_valid(const struct sim_ssd *s, uint32_t p)
{
	return s->vbits[p >> 6] >> (p & 63) & 1;
}

static inline uint32_t blk_cap(const struct sim_ssd *s, uint32_t b)
{
	return s->is_slc[b] ? s->upb_slc : s->upb;
}

static inline uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static uint64_t xfer_ns(const struct sim_config *c, uint64_t bytes)
{
	return bytes * c->timing.transfer_per_kib / 1024;
}

/* How many SLC blocks the cache may use now: a dynamic cache takes at most a third of the
 * blocks that the valid data (in TLC form), the GC reserve and the open blocks do not need. */
static uint32_t slc_limit(const struct sim_ssd *s)
{
	uint64_t lim = s->slc_limit_cfg, need, surplus;

	if (!lim || !s->cfg.slc.dynamic)
		return (uint32_t)lim;
	need = (s->valid_units + s->upb - 1) / s->upb + s->wm + 2ULL * s->ndies;
	surplus = s->nblocks > need ? s->nblocks - need : 0;
	return (uint32_t)(surplus / 3 < lim ? surplus / 3 : lim);
}

/* ---- victim bookkeeping ------------------------------------------------------------------ */

static void closed_add(struct sim_ssd *s, uint32_t b)
{
	s->state[b] = B_CLOSED;
	if (s->is_slc[b]) {
		list_push(s, &s->slc_list, b);
		s->slc_closed++;
		return;
	}
	switch (s->cfg.gc_policy) {
	case SIM_GC_GREEDY:
		list_push(s, &s->bucket[s->valid[b]], b);
		if (s->valid[b] < s->bmin)
			s->bmin = s->valid[b];
		break;
	case SIM_GC_FIFO:
		/* idle GC samples FIFO's blocks from closed[] too */
		list_push(s, &s->fifo, b);
		/* fall through */
	default:
		s->pos[b] = s->nclosed;
		s->closed[s->nclosed++] = b;
		break;
	}
}

static void closed_del(struct sim_ssd *s, uint32_t b)
{
	if (s->is_slc[b]) {
		list_del(s, &s->slc_list, b);
		s->slc_closed--;
		return;
	}
	switch (s->cfg.gc_policy) {
	case SIM_GC_GREEDY:
		list_del(s, &s->bucket[s->valid[b]], b);
		break;
	case SIM_GC_FIFO:
		list_del(s, &s->fifo, b);
		/* fall through */
	default: {
		uint32_t last = s->closed[--s->nclosed];

		s->closed[s->pos[b]] = last;
		s->pos[last] = s->pos[b];
		break;
	}
	}
}

static uint32_t greedy_min(struct sim_ssd *s)
{
	while (s->bmin <= s->upb && s->bucket[s->bmin].head == NIL)
		s->bmin++;
	return s->bmin <= s->upb ? s->bucket[s->bmin].head : NIL;
}

/* For idle GC, whatever the policy: the closed TLC block with the fewest valid units (greedy),
 * or nearly so for the other policies: the best of 64 sampled (d-choices with a large d is
 * within a few percent of greedy; a full scan per victim would cost O(blocks)). */
static uint32_t min_valid_block(struct sim_ssd *s)
{
	uint32_t best = NIL;

	if (s->cfg.gc_policy == SIM_GC_GREEDY)
		return greedy_min(s);
	for (uint32_t i = 0; i < 64 && s->nclosed; i++) {
		uint32_t b = s->closed[prng_below32(&s->rng, s->nclosed)];

		if (best == NIL || s->valid[b] < s->valid[best])
			best = b;
	}
	return best;
}

static uint32_t policy_victim(struct sim_ssd *s)
{
	uint32_t best = NIL, d;

	switch (s->cfg.gc_policy) {
	case SIM_GC_GREEDY:
		return greedy_min(s);
	case SIM_GC_FIFO:
		return s->fifo.head;
	case SIM_GC_RANDOM:
	case SIM_GC_DCHOICES:
		if (!s->nclosed)
			return NIL;
		d = s->cfg.gc_policy == SIM_GC_RANDOM ? 1 : s->cfg.gc_d;
		for (uint32_t i = 0; i < d; i++) {
			uint32_t b = s->closed[prng_below32(&s->rng, s->nclosed)];

			if (best == NIL || s->valid[b] < s->valid[best])
				best = b;
		}
		return best;
	}
	return NIL;
}

/* ---- NAND operations in time ------------------------------------------------------------- */

static void erase_block(struct sim_ssd *s, uint32_t b, uint64_t t)
{
	uint32_t d = die_of(s, b);

	if (s->cfg.timed)
		s->die_busy[d] = max64(t, s->die_busy[d]) + s->cfg.timing.erase;
	s->erases[b]++;
	s->state[b] = B_FREE;
	s->valid[b] = 0;
	s->wp[b] = 0;
	if (s->is_slc[b])
		s->slc_blocks--;
	s->is_slc[b] = 0;
	list_push(s, &s->free_q, b);
	s->nfree++;
}

/* Programs the page gathered in slot `slot` of frontier f, on block b: its host units' buffer
 * slots are freed when it ends. Returns the end; *xs is when its transfer to the die starts. */
static inline uint64_t program_page(struct sim_ssd *s, struct frontier *f, uint32_t slot,
				    uint32_t b, uint64_t *xs)
{
	uint32_t d = die_of(s, b), c = d / s->cfg.dies_per_channel;
	uint64_t start, cs, end;

	start = max64(f->page_ready[slot], s->die_busy[d]);
	cs = max64(start, s->chan_busy[c]);
	s->chan_busy[c] = cs + s->xfer_page;
	end = cs + s->xfer_page + (f->slc ? s->cfg.timing.program_slc : s->cfg.timing.program);
	s->die_busy[d] = end;
	for (uint32_t i = 0, r = f->host_first[slot]; i < f->host_n[slot]; i++) {
		s->ring[r] = end;
		r = r + 1 == s->nring ? 0 : r + 1;
	}
	f->host_n[slot] = 0;
	f->page_ready[slot] = 0;
	*xs = cs;
	return end;
}

/* Reads a page on die d at t or later. Reads suspend programs and erases (as NAND with
 * program/erase suspend does): they wait only for other reads on the die, and push the die's
 * queued work back by the read time. Returns when the page is in the die's register. */
static uint64_t die_read(struct sim_ssd *s, uint32_t d, uint64_t t)
{
	uint64_t start = max64(t, s->read_busy[d]), end = start + s->cfg.timing.read;

	s->read_busy[d] = end;
	s->die_busy[d] = s->die_busy[d] > start ? s->die_busy[d] + s->cfg.timing.read : end;
	s->nand_r_pages++;
	return end;
}

/* Reads a page of block b for relocation; returns when its data is in the controller. */
static uint64_t read_page(struct sim_ssd *s, uint32_t b, uint64_t t)
{
	uint32_t d = die_of(s, b), c = d / s->cfg.dies_per_channel;
	uint64_t end, cs;

	if (!s->cfg.timed) {
		s->nand_r_pages++;
		return 0;
	}
	end = die_read(s, d, t);
	cs = max64(end, s->chan_busy[c]);
	s->chan_busy[c] = cs + s->xfer_page;
	return cs + s->xfer_page;
}

/* ---- placement --------------------------------------------------------------------------- */

/*
 * Takes a free block for frontier slot `slot`. Simplification (docs/virtual-ssd.md): free
 * blocks form one pool and a block belongs to the die of the slot that opens it, so every die
 * always has an open block. The real constraint, a fixed number of blocks per die, matters
 * only once dies wear unevenly, which the sim does not model.
 */
static uint32_t alloc_block(struct sim_ssd *s, uint32_t slot, bool slc)
{
	uint32_t b = s->free_q.head;

	assert(b != NIL && "GC let the free pool run dry");
	list_del(s, &s->free_q, b);
	s->nfree--;
	s->die[b] = (uint16_t)slot;
	s->state[b] = B_OPEN;
	s->is_slc[b] = slc;
	s->wp[b] = 0;
	s->valid[b] = 0;
	if (slc)
		s->slc_blocks++;
	return b;
}

/* Records that host unit with buffer slot r joined the page of `slot`. Slots are consecutive
 * unless the host went to the other frontier in between (SLC cache full, then refilled after
 * folding); the earlier ones are then released without waiting, a rare and harmless shortcut. */
static void note_host_slot(struct sim_ssd *s, struct frontier *f, uint32_t slot, uint32_t r)
{
	uint32_t n = f->host_n[slot], next = f->host_first[slot] + n;

	if (next >= s->nring)
		next -= s->nring;
	if (n && next != r) {
		for (uint32_t i = 0, q = f->host_first[slot]; i < n; i++) {
			s->ring[q] = 0;
			q = q + 1 == s->nring ? 0 : q + 1;
		}
		n = 0;
	}
	if (!n)
		f->host_first[slot] = r;
	f->host_n[slot] = n + 1;
}

/* The die whose queue ends first: the next page goes there, as a controller's scheduler
 * would send it (strict rotation would idle dies behind one busy with an erase). */
static uint32_t least_busy_die(const struct sim_ssd *s)
{
	uint32_t best = 0;

	for (uint32_t d = 1; d < s->ndies; d++)
		if (s->die_busy[d] < s->die_busy[best])
			best = d;
	return best;
}

/* Writes unit lba at the write pointer of block b (open on frontier f); returns its position
 * in the page. */
static inline __attribute__((always_inline)) uint32_t put_unit(struct sim_ssd *s,
							   struct frontier *f, uint32_t b,
							   uint32_t lba, enum wkind k)
{
	uint32_t p = b * s->upb + s->wp[b];

	s->rev[p] = lba;
	s->vbits[p >> 6] |= 1ULL << (p & 63);
	s->fwd[lba] = p;
	s->valid[b]++;
	s->valid_units++;
	if (f->slc)
		s->slc_valid_units++;
	s->nand_w[k]++;
	return mod_upp(s, s->wp[b]++);
}

/* The page at f's cursor is complete (full or padded): the next page goes to another die. */
static inline __attribute__((always_inline)) void page_done(struct sim_ssd *s, struct frontier *f,
							    uint32_t slot, uint32_t b)
{
	if (s->cfg.timed)
		f->cursor = least_busy_die(s);
	else
		f->cursor = slot + 1 == s->ndies ? 0 : slot + 1;
	if (s->wp[b] == blk_cap(s, b)) {
		f->blk[slot] = NIL;
		closed_add(s, b);
	}
}

/*
 * Makes the partial page at f's cursor durable: programs it unless it is already committed,
 * and fills the rest of it with padding, counted as NAND bytes written. Real firmware does the
 * same (or programs the partial page in SLC mode); padding is what we model, so a drive
 * without a write cache shows the WA that partial program units cost.
 */
static void pad_page(struct sim_ssd *s, struct frontier *f)
{
	uint32_t slot = f->cursor, b = f->blk[slot], n;
	uint64_t xs;

	if (b == NIL || !mod_upp(s, s->wp[b])) {
		f->committed = false;
		return;
	}
	if (s->cfg.timed && !f->committed)
		program_page(s, f, slot, b, &xs);
	f->committed = false;
	n = s->upp - mod_upp(s, s->wp[b]);
	s->wp[b] += n;
	s->nand_w[W_PAD] += n;
	page_done(s, f, slot, b);
}

/* Sync writes (timed): schedules the partial page at f's cursor, if it holds host data still
 * being gathered, for programming now; later units may join it until its transfer starts. */
static void commit_page(struct sim_ssd *s, struct frontier *f)
{
	uint32_t slot = f->cursor, b = f->blk[slot];

	if (b == NIL || f->committed || !f->host_n[slot])
		return;
	f->commit_end = program_page(s, f, slot, b, &f->commit_at);
	f->committed = true;
}

/* A unit for a committed page: joins it when its data is there before the page's transfer
 * starts (returns true), else the page is padded and the unit goes to a new one (false). */
static bool join_committed(struct sim_ssd *s, struct frontier *f, uint32_t lba, enum wkind k,
			   uint64_t ready, uint32_t r)
{
	uint32_t slot = f->cursor, b = f->blk[slot];

	if (ready > f->commit_at) {
		pad_page(s, f);
		return false;
	}
	if (r != NIL)
		s->ring[r] = f->commit_end;
	if (put_unit(s, f, b, lba, k) + 1 == s->upp) {
		f->committed = false;
		page_done(s, f, slot, b);
	}
	return true;
}

/* Appends unit lba to frontier f. ready: when its data is in the controller; r: its
 * write-buffer slot (NIL for copies). */
static inline __attribute__((always_inline)) void place(struct sim_ssd *s, struct frontier *f,
							uint32_t lba, enum wkind k, uint64_t ready,
							uint32_t r)
{
	uint32_t slot, b, fill;
	uint64_t xs;

	if (__builtin_expect(f->committed, 0) && join_committed(s, f, lba, k, ready, r))
		return;
	slot = f->cursor;
	b = f->blk[slot];
	if (b == NIL)
		b = f->blk[slot] = alloc_block(s, slot, f->slc);
	fill = put_unit(s, f, b, lba, k);
	if (s->cfg.timed) {
		if (r != NIL)
			note_host_slot(s, f, slot, r);
		if (ready > f->page_ready[slot])
			f->page_ready[slot] = ready;
	}
	if (fill + 1 == s->upp) {
		if (s->cfg.timed)
			program_page(s, f, slot, b, &xs);
		page_done(s, f, slot, b); /* blocks hold whole pages: only a full page closes one */
	}
}

static void unmap(struct sim_ssd *s, uint32_t lba)
{
	uint32_t p = s->fwd[lba], b;

	if (p == NIL)
		return;
	b = div_upb(s, p);
	s->vbits[p >> 6] &= ~(1ULL << (p & 63));
	s->fwd[lba] = NIL;
	s->valid_units--;
	if (s->is_slc[b])
		s->slc_valid_units--;
	if (s->state[b] == B_CLOSED && !s->is_slc[b] && s->cfg.gc_policy == SIM_GC_GREEDY) {
		list_del(s, &s->bucket[s->valid[b]], b);
		s->valid[b]--;
		list_push(s, &s->bucket[s->valid[b]], b);
		if (s->valid[b] < s->bmin)
			s->bmin = s->valid[b];
	} else {
		s->valid[b]--;
	}
}

/* ---- garbage collection and folding ------------------------------------------------------ */

/* Makes b the victim being reclaimed: off the candidate structures, copying from unit 0. */
static void victim_take(struct sim_ssd *s, uint32_t v)
{
	closed_del(s, v);
	s->state[v] = B_VICTIM;
	s->victim = v;
	s->vcursor = 0;
	s->vpage = NIL;
	s->victim_bg = false;
	s->credit = 0;
	/* v valid of n: v copies buy n - v units of space; pace them over that many host units */
	s->ratio = (double)s->valid[v] / (double)(s->upb - s->valid[v] > 0 ? s->upb - s->valid[v] : 1);
}

/* The SLC block GC may take: the oldest one that holds nothing valid, else, when the cache is
 * over its limit, the oldest one (folding order). NIL if neither. */
static uint32_t slc_victim(struct sim_ssd *s)
{
	for (uint32_t b = s->slc_list.head; b != NIL; b = s->next[b])
		if (!s->valid[b])
			return b;
	return s->slc_blocks > slc_limit(s) ? s->slc_list.head : NIL;
}

/*
 * Picks the next block to reclaim: the GC policy's choice, or the SLC block slc_victim() offers
 * when it is no dearer (no more valid units to copy for the block it frees). Cause of the
 * virtual SSD's slow sequential overwrites (issue 9): GC took SLC blocks only to shrink a cache
 * over its limit. Once a sequential overwrite had emptied the cache blocks (the cache at its
 * full-drive limit, 28 blocks on client-tlc, a quarter of its spare), they stayed
 * allocated, empty; GC, short of space, took partly valid TLC blocks, and their copies, of LBAs
 * the host was about to overwrite, went to the frontier beside the host's writes: the next
 * pass found every block partly valid, and WA grew pass after pass (2.6, 5.8).
 */
static bool victim_start(struct sim_ssd *s, bool idle_min)
{
	uint32_t v = idle_min ? min_valid_block(s) : policy_victim(s);
	uint32_t h = s->slc_closed ? slc_victim(s) : NIL;

	if (h != NIL && (v == NIL || s->valid[h] <= s->valid[v]))
		v = h;
	else if (v == NIL && s->slc_closed)
		v = s->slc_list.head; /* nothing else is left */
	if (v == NIL)
		return false;
	victim_take(s, v);
	return true;
}

/* Moves up to `max` of the victim's valid units to the TLC frontier, in order; erases the
 * victim when none is left (then s->victim is NIL). Returns the units moved. One call per
 * batch keeps the per-copy cost down: GC copies are most of what a steady-state sim does. */
static uint32_t victim_copy(struct sim_ssd *s, uint64_t t, uint32_t max)
{
	uint32_t v = s->victim, base = v * s->upb, wp = s->wp[v], cur = s->vcursor, moved = 0;
	bool fold = s->is_slc[v];
	enum wkind k = fold ? W_FOLD : W_GC;

	while (moved < max) {
		uint32_t lba;

		while (cur < wp && !unit_valid(s, base + cur))
			cur++;
		if (cur >= wp) {
			assert(!s->valid[v]);
			erase_block(s, v, t);
			s->victim = NIL;
			if (fold)
				s->folds++;
			else
				s->gc_runs++;
			break;
		}
		if (div_upp(s, cur) != s->vpage) {
			s->vpage = div_upp(s, cur);
			s->vready = read_page(s, v, t);
		}
		/* Copies update the forward map at random places: fetch ahead so that the cache
		 * misses overlap (they dominate the cost of GC on a large model). */
		if (cur + 8 < wp && unit_valid(s, base + cur + 8))
			__builtin_prefetch(&s->fwd[s->rev[base + cur + 8]], 1);
		lba = s->rev[base + cur];
		s->vbits[(base + cur) >> 6] &= ~(1ULL << ((base + cur) & 63));
		s->valid[v]--;
		s->valid_units--;
		if (fold)
			s->slc_valid_units--;
		cur++;
		s->vcursor = cur;
		place(s, &s->tlc, lba, k, s->vready, NIL);
		moved++;
	}
	s->vcursor = cur;
	return moved;
}

static void victim_finish(struct sim_ssd *s, uint64_t t)
{
	while (s->victim != NIL)
		victim_copy(s, t, UINT32_MAX);
}

/* Fold-while-writing, paced: once the cache is nearly full, fold its oldest block a copy per
 * host unit (scaled by how much of it is still valid), so that a block is free again when the
 * frontier needs one instead of the host waiting for a whole fold. */
static bool fold_ahead(struct sim_ssd *s)
{
	uint32_t v;

	if (s->cfg.slc.post_cache != SIM_POST_FOLD || !s->slc_closed ||
	    s->slc_blocks + s->ndies < slc_limit(s))
		return false;
	v = s->slc_list.head;
	victim_take(s, v);
	s->ratio = (double)(s->valid[v] ? s->valid[v] : 1) / (double)s->upb_slc;
	return true;
}

/* Foreground GC after one host unit: keeps free blocks above the watermark, paced. */
static void gc_pace(struct sim_ssd *s, uint64_t t)
{
	if (s->victim == NIL) {
		if ((s->nfree > s->wm || !victim_start(s, false)) && !fold_ahead(s))
			return;
	} else if (s->victim_bg) {
		/* Idle work cut short by the host waits for the next idle time, unless the space
		 * is needed now: a drive does not make the host pay for tidying it did not need. */
		if (s->nfree > s->wm)
			return;
		s->victim_bg = false;
	}
	s->credit += s->ratio;
	if (s->credit >= 1.0) {
		uint32_t want = (uint32_t)s->credit;

		s->credit -= victim_copy(s, t, want);
	}
	/* never let a frontier find the pool empty: finish victims outright below the floor */
	for (unsigned guard = 0; s->nfree <= s->floor && guard < 4 * s->nblocks; guard++) {
		if (s->victim == NIL && !victim_start(s, guard > s->nblocks))
			break;
		victim_finish(s, t);
	}
}

/* ---- host I/O ------------------------------------------------------------------------------ */

/* Where the next host unit goes: the SLC cache while it has room, then TLC directly, or
 * (post_cache fold) SLC again after folding the oldest SLC block. */
static struct frontier *host_frontier(struct sim_ssd *s, uint64_t t)
{
	uint32_t lim;

	if (!s->slc_limit_cfg)
		return &s->tlc;
	if (s->slc.blk[s->slc.cursor] != NIL)
		return &s->slc;
	lim = slc_limit(s);
	if (s->slc_blocks < lim && s->nfree > s->wm)
		return &s->slc;
	/* No SLC block may be opened: fill the open ones first. The cursor goes to the least
	 * busy die, which may have none; sending the host to TLC then would leave the cache
	 * partly empty by chance (a cursor on such a slot holds no committed page). */
	for (uint32_t d = 0; d < s->ndies; d++) {
		if (s->slc.blk[d] != NIL) {
			s->slc.cursor = d;
			return &s->slc;
		}
	}
	if (s->cfg.slc.post_cache != SIM_POST_FOLD || !lim)
		return &s->tlc;
	/* fold-while-writing: make room in the cache first */
	for (unsigned guard = 0; guard < 2 * lim + 2; guard++) {
		if (s->slc_blocks < lim && s->nfree > s->wm)
			return &s->slc;
		if (s->victim == NIL) {
			if (!s->slc_closed)
				break;
			victim_take(s, s->slc_list.head);
		}
		victim_finish(s, t);
	}
	return &s->tlc;
}

/* Runs background work (folding, idle GC) in the idle time before t. */
static void run_idle(struct sim_ssd *s, uint64_t t)
{
	bool fold = s->cfg.slc.fold_on_idle && s->slc_limit_cfg, gc = s->cfg.idle_gc.enabled;
	uint64_t w, busiest = 0;

	if (s->idle_done || (!fold && !gc) || t <= s->last_host_done + s->delay)
		return;
	w = max64(s->idle_w, s->last_host_done + s->delay);
	while (w < t) {
		uint64_t moved = s->nand_w[W_GC] + s->nand_w[W_FOLD], end = 0;

		if (s->victim == NIL) {
			if (fold && s->slc_closed) {
				victim_take(s, s->slc_list.head);
				s->victim_bg = true;
			} else if (gc) {
				uint32_t v = min_valid_block(s);

				/* only what is invalid is worth reclaiming */
				if (v == NIL || s->valid[v] >= s->upb)
					break;
				victim_take(s, v);
				s->victim_bg = true;
				s->idle_gc_runs++;
			} else {
				break;
			}
		}
		if (!s->cfg.timed) {
			victim_finish(s, w);
			w = t > w ? w + 1 : w; /* no time model: work is free, bound by the loop */
			continue;
		}
		/* A page of copies at a time, so that the host preempts idle work between
		 * programs, as a controller does: relocating a whole victim in one go would leave
		 * up to a block's worth of programs queued past t, in the host's way (the first
		 * burst after a long rest came out slower than after a short one). */
		victim_copy(s, w, s->upp);
		/* The next victim may start as soon as some die is free (a victim's reads and erase
		 * keep one die busy; its copies spread over all), but no work is queued once some
		 * die is already busy past t: the host would find it in its way. */
		end = UINT64_MAX;
		for (uint32_t d = 0; d < s->ndies; d++) {
			end = s->die_busy[d] < end ? s->die_busy[d] : end;
			busiest = max64(busiest, s->die_busy[d]);
		}
		moved = (s->nand_w[W_GC] + s->nand_w[W_FOLD] - moved) * s->cfg.mapping_unit;
		if (!s->cfg.idle_gc.aggressive && s->cfg.idle_gc.rate > 0)
			end = max64(end, w + (uint64_t)((double)moved / s->cfg.idle_gc.rate * 1e9));
		w = max64(end, w + 1);
		if (busiest >= t)
			break;
	}
	if (w < t && busiest < t)
		s->idle_done = true; /* nothing left until the host writes again */
	s->idle_w = w;
}

void sim_advance(struct sim_ssd *s, uint64_t t)
{
	if (t <= s->now)
		return;
	run_idle(s, t);
	s->now = t;
}

static int check_io(const struct sim_ssd *s, uint64_t offset, uint64_t len)
{
	uint64_t cap = (uint64_t)s->units * s->cfg.mapping_unit;

	if (!len || offset % s->cfg.logical_block_size || len % s->cfg.logical_block_size ||
	    offset >= cap || len > cap - offset)
		return -EINVAL;
	return 0;
}

/* Serialises a command and its data on the host link; returns when the link is done. */
static uint64_t link_xfer(struct sim_ssd *s, uint64_t t, uint64_t len)
{
	uint64_t d = s->cfg.iface.command_overhead;

	if (s->cfg.iface.max_bytes_per_s > 0)
		d += (uint64_t)((double)len * 1e9 / s->cfg.iface.max_bytes_per_s);
	s->iface_busy = max64(t, s->iface_busy) + d;
	return s->iface_busy;
}

/* Sync writes: the completion is when the pages holding the units (buffer slots) r0..r0+n-1
 * are programmed, once the partial pages have been committed. Without a time model there is
 * no queue to wait for: every write is alone, as at queue depth 1, and its last page (on
 * frontier last) is padded at once. */
static uint64_t sync_done(struct sim_ssd *s, uint32_t r0, uint32_t n, uint64_t fin,
			  struct frontier *last)
{
	if (!s->cfg.timed) {
		pad_page(s, last);
		return fin;
	}
	commit_page(s, &s->tlc);
	commit_page(s, &s->slc);
	n = n < s->nring ? n : s->nring;
	for (uint32_t i = 0, r = r0; i < n; i++) {
		if (s->ring[r] != PENDING && s->ring[r] > fin)
			fin = s->ring[r];
		r = r + 1 == s->nring ? 0 : r + 1;
	}
	return fin;
}

int sim_write(struct sim_ssd *s, uint64_t offset, uint64_t len, uint64_t t, uint64_t *done)
{
	uint32_t first, last, r0;
	uint64_t arrive = 0, fin = 0;
	struct frontier *f = NULL;

	if (check_io(s, offset, len))
		return -EINVAL;
	if (t < s->now)
		t = s->now;
	sim_advance(s, t);
	first = (uint32_t)(offset >> s->mu_shift);
	last = (uint32_t)((offset + len - 1) >> s->mu_shift);
	if (s->cfg.timed)
		fin = arrive = link_xfer(s, t, len);
	r0 = s->ring_pos;
	for (uint32_t l = first; l <= last; l++) {
		uint32_t r = NIL;

		unmap(s, l);
		f = host_frontier(s, t);
		if (s->cfg.timed) {
			uint64_t rel;

			r = s->ring_pos;
			s->ring_pos = s->ring_pos + 1 == s->nring ? 0 : s->ring_pos + 1;
			/* a slot whose data is still being gathered into a page does not block */
			rel = s->ring[r] == PENDING ? 0 : s->ring[r];
			s->ring[r] = PENDING;
			if (rel > fin)
				fin = rel;
		}
		place(s, f, l, W_HOST, arrive, r);
		gc_pace(s, t);
	}
	if (__builtin_expect(s->sync, 0))
		fin = sync_done(s, r0, last - first + 1, fin, f);
	s->host_w_bytes += len;
	s->idle_done = false;
	if (fin > s->last_host_done)
		s->last_host_done = fin;
	*done = s->cfg.timed ? fin : t;
	return 0;
}

void sim_prefetch(const struct sim_ssd *s, uint64_t offset, bool deep)
{
	uint64_t l = offset >> s->mu_shift;
	uint32_t p;

	if (l >= s->units)
		return;
	if (!deep) {
		__builtin_prefetch(&s->fwd[l], 1);
		return;
	}
	p = s->fwd[l];
	if (p != NIL)
		__builtin_prefetch(&s->vbits[p >> 6], 1);
}

/* Bytes of [offset, offset + len) in units that hold no data (never written or trimmed). */
static uint64_t unmapped_bytes(const struct sim_ssd *s, uint64_t offset, uint64_t len)
{
	uint64_t n = 0, end = offset + len;

	for (uint64_t l = offset >> s->mu_shift; l << s->mu_shift < end; l++) {
		uint64_t lo = l << s->mu_shift, hi = (l + 1) << s->mu_shift;

		if (s->fwd[l] == NIL)
			n += (hi < end ? hi : end) - (lo > offset ? lo : offset);
	}
	return n;
}

int sim_read(struct sim_ssd *s, uint64_t offset, uint64_t len, uint64_t t, uint64_t *done)
{
	uint32_t first, last, lastpage = NIL;
	uint64_t nand = t, cmd;

	if (check_io(s, offset, len))
		return -EINVAL;
	if (t < s->now)
		t = s->now;
	sim_advance(s, t);
	s->host_r_bytes += len;
	s->host_r_unmapped += unmapped_bytes(s, offset, len);
	if (!s->cfg.timed) {
		*done = t;
		return 0;
	}
	first = (uint32_t)(offset >> s->mu_shift);
	last = (uint32_t)((offset + len - 1) >> s->mu_shift);
	cmd = t + s->cfg.iface.command_overhead;
	for (uint32_t l = first; l <= last; l++) {
		uint32_t p = s->fwd[l], b, d, c;
		uint64_t end, cs;

		if (p == NIL)
			continue; /* never written or trimmed: answered without the NAND */
		b = div_upb(s, p);
		/* still in the write buffer: the page holding it is not programmed yet */
		if (s->state[b] == B_OPEN && p % s->upb >= s->wp[b] - s->wp[b] % s->upp)
			continue;
		d = die_of(s, b);
		c = d / s->cfg.dies_per_channel;
		if (p / s->upp != lastpage) {
			lastpage = p / s->upp;
			end = die_read(s, d, cmd);
		} else {
			end = s->read_busy[d];
		}
		cs = max64(end, s->chan_busy[c]);
		s->chan_busy[c] = cs + s->xfer_unit;
		if (cs + s->xfer_unit > nand)
			nand = cs + s->xfer_unit;
	}
	*done = link_xfer(s, nand, len);
	if (*done > s->last_host_done)
		s->last_host_done = *done;
	s->idle_done = false;
	return 0;
}

int sim_discard(struct sim_ssd *s, uint64_t offset, uint64_t len)
{
	uint64_t mu = s->cfg.mapping_unit, a, e;

	if (check_io(s, offset, len))
		return -EINVAL;
	a = (offset + mu - 1) / mu;
	e = (offset + len) / mu;
	for (uint64_t l = a; l < e; l++)
		unmap(s, (uint32_t)l);
	s->idle_done = false;
	return 0;
}

int sim_set_capacity(struct sim_ssd *s, uint64_t bytes)
{
	uint64_t mu = s->cfg.mapping_unit;

	if (!bytes || bytes % mu || bytes > s->cfg.user_capacity)
		return -EINVAL;
	for (uint64_t l = bytes / mu; l < s->units; l++)
		unmap(s, (uint32_t)l);
	s->units = (uint32_t)(bytes / mu);
	s->idle_done = false;
	return 0;
}

uint64_t sim_capacity(const struct sim_ssd *s)
{
	return (uint64_t)s->units * s->cfg.mapping_unit;
}

uint64_t sim_now(const struct sim_ssd *s)
{
	return s->now;
}

int sim_flush(struct sim_ssd *s, uint64_t t, uint64_t *done)
{
	uint64_t fin;

	if (t < s->now)
		t = s->now;
	sim_advance(s, t);
	fin = t;
	if (!s->cfg.power_loss_protection) {
		pad_page(s, &s->tlc);
		pad_page(s, &s->slc);
		/* every host unit's slot now holds the end of its page's program (or an older,
		 * already past time) */
		for (uint32_t r = 0; s->cfg.timed && r < s->nring; r++)
			if (s->ring[r] != PENDING && s->ring[r] > fin)
				fin = s->ring[r];
	}
	if (fin > s->last_host_done)
		s->last_host_done = fin;
	s->idle_done = false;
	*done = fin;
	return 0;
}

int sim_set_write_cache(struct sim_ssd *s, bool on, uint64_t t, uint64_t *done)
{
	uint64_t fin = t > s->now ? t : s->now;

	if (!on && s->wcache)
		sim_flush(s, t, &fin);
	s->wcache = on;
	s->sync = !on && !s->cfg.power_loss_protection;
	*done = fin;
	return 0;
}

bool sim_write_cache(const struct sim_ssd *s)
{
	return s->wcache;
}

uint64_t sim_quiesce_time(const struct sim_ssd *s)
{
	uint64_t t = max64(s->now, s->iface_busy);

	for (uint32_t d = 0; d < s->ndies; d++)
		t = max64(t, s->die_busy[d]);
	return t;
}

const struct sim_config *sim_config(const struct sim_ssd *s)
{
	return &s->cfg;
}

/* ---- life cycle ---------------------------------------------------------------------------- */

static void frontier_reset(struct sim_ssd *s, struct frontier *f)
{
	f->cursor = 0;
	for (uint32_t i = 0; i < s->ndies; i++) {
		f->blk[i] = NIL;
		f->page_ready[i] = 0;
		f->host_n[i] = 0;
	}
	f->committed = false;
}

/* Every block erased and free, nothing mapped. Wear (erase counts) and the lifetime counters
 * are kept; erasing a block that held data counts as an erase. */
static void reset_blocks(struct sim_ssd *s, bool count_erases)
{
	for (uint32_t i = 0; i < s->units_max; i++)
		s->fwd[i] = NIL;
	memset(s->vbits, 0, ((size_t)s->nblocks * s->upb + 63) / 64 * sizeof(uint64_t));
	for (uint32_t i = 0; i <= s->upb; i++)
		list_reset(&s->bucket[i]);
	list_reset(&s->fifo);
	list_reset(&s->slc_list);
	list_reset(&s->free_q);
	s->nfree = 0;
	s->nclosed = 0;
	s->bmin = 0;
	s->slc_blocks = s->slc_closed = 0;
	for (uint32_t b = 0; b < s->nblocks; b++) {
		if (count_erases && s->state[b] != B_FREE)
			s->erases[b]++;
		s->state[b] = B_FREE;
		s->is_slc[b] = 0;
		s->valid[b] = 0;
		s->wp[b] = 0;
		s->die[b] = (uint16_t)(b % s->ndies);
		list_push(s, &s->free_q, b);
		s->nfree++;
	}
	frontier_reset(s, &s->tlc);
	frontier_reset(s, &s->slc);
	s->victim = NIL;
	s->credit = 0;
	s->valid_units = s->slc_valid_units = 0;
	for (uint32_t r = 0; r < s->nring; r++)
		s->ring[r] = 0;
	s->idle_done = false;
}

void sim_purge(struct sim_ssd *s)
{
	reset_blocks(s, true);
}

static int frontier_init(struct sim_ssd *s, struct frontier *f, bool slc)
{
	f->slc = slc;
	f->blk = calloc(s->ndies, sizeof(*f->blk));
	f->page_ready = calloc(s->ndies, sizeof(*f->page_ready));
	f->host_first = calloc(s->ndies, sizeof(*f->host_first));
	f->host_n = calloc(s->ndies, sizeof(*f->host_n));
	return f->blk && f->page_ready && f->host_first && f->host_n ? 0 : -ENOMEM;
}

static void frontier_release(struct frontier *f)
{
	free(f->blk);
	free(f->page_ready);
	free(f->host_first);
	free(f->host_n);
}

int sim_create(const struct sim_config *c, struct sim_ssd **out)
{
	struct sim_ssd *s;
	size_t nphys;
	int ret = -ENOMEM;

	if (sim_config_check(c, NULL, 0))
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->cfg = *c;
	if (!(s->cfg.time_scale > 0))
		s->cfg.time_scale = 1.0;
	s->upp = c->page_size / c->mapping_unit;
	s->upb = s->upp * c->pages_per_block;
	s->upb_slc = cfg_upb_slc(c);
	s->upp_shift = log2_exact(s->upp);
	s->mu_shift = log2_exact(c->mapping_unit);
	s->upb_shift = log2_exact(s->upb);
	s->ndies = sim_config_dies(c);
	s->nblocks = (uint32_t)sim_config_physical_blocks(c);
	s->wm = sim_config_watermark(c);
	s->floor = s->ndies;
	s->units_max = s->units = (uint32_t)(c->user_capacity / c->mapping_unit);
	s->slc_limit_cfg = cfg_slc_blocks(c);
	s->xfer_page = xfer_ns(c, c->page_size);
	s->xfer_unit = xfer_ns(c, c->mapping_unit);
	s->delay = (uint64_t)((double)c->idle_gc.delay * s->cfg.time_scale);
	s->wcache = c->write_cache;
	s->sync = !c->write_cache && !c->power_loss_protection;
	/* the write buffer: at least one program unit per die, so that pages can be gathered */
	s->nring = (uint32_t)(c->write_buffer / c->mapping_unit);
	if (s->nring < s->upp * s->ndies)
		s->nring = s->upp * s->ndies;
	nphys = (size_t)s->nblocks * s->upb;
	s->fwd = malloc(sizeof(*s->fwd) * s->units_max);
	s->rev = malloc(sizeof(*s->rev) * nphys);
	s->vbits = calloc((nphys + 63) / 64, sizeof(uint64_t));
	s->valid = calloc(s->nblocks, sizeof(uint32_t));
	s->wp = calloc(s->nblocks, sizeof(uint32_t));
	s->erases = calloc(s->nblocks, sizeof(uint32_t));
	s->prev = calloc(s->nblocks, sizeof(uint32_t));
	s->next = calloc(s->nblocks, sizeof(uint32_t));
	s->pos = calloc(s->nblocks, sizeof(uint32_t));
	s->closed = calloc(s->nblocks, sizeof(uint32_t));
	s->state = calloc(s->nblocks, 1);
	s->is_slc = calloc(s->nblocks, 1);
	s->bucket = calloc((size_t)s->upb + 1, sizeof(*s->bucket));
	s->die = calloc(s->nblocks, sizeof(*s->die));
	s->die_busy = calloc(s->ndies, sizeof(uint64_t));
	s->read_busy = calloc(s->ndies, sizeof(uint64_t));
	s->chan_busy = calloc(c->channels, sizeof(uint64_t));
	s->ring = calloc(s->nring, sizeof(uint64_t));
	if (!s->fwd || !s->rev || !s->vbits || !s->valid || !s->wp || !s->erases || !s->prev || !s->next ||
	    !s->pos || !s->closed || !s->state || !s->is_slc || !s->bucket || !s->die || !s->die_busy || !s->read_busy || !s->chan_busy || !s->ring)
		goto fail;
	if (frontier_init(s, &s->tlc, false) || frontier_init(s, &s->slc, true))
		goto fail;
	prng_seed(&s->rng, c->seed, 0);
	reset_blocks(s, false);
	*out = s;
	return 0;
fail:
	sim_free(s);
	return ret;
}

void sim_free(struct sim_ssd *s)
{
	if (!s)
		return;
	frontier_release(&s->tlc);
	frontier_release(&s->slc);
	free(s->fwd);
	free(s->rev);
	free(s->vbits);
	free(s->valid);
	free(s->wp);
	free(s->erases);
	free(s->prev);
	free(s->next);
	free(s->pos);
	free(s->closed);
	free(s->state);
	free(s->is_slc);
	free(s->bucket);
	free(s->die);
	free(s->die_busy);
	free(s->read_busy);
	free(s->chan_busy);
	free(s->ring);
	free(s);
}

/* ---- counters ------------------------------------------------------------------------------ */

void sim_get_counters(const struct sim_ssd *s, struct sim_counters *c)
{
	uint64_t mu = s->cfg.mapping_unit, sum = 0;
	uint32_t mn = UINT32_MAX, mx = 0;

	memset(c, 0, sizeof(*c));
	for (uint32_t b = 0; b < s->nblocks; b++) {
		sum += s->erases[b];
		mn = s->erases[b] < mn ? s->erases[b] : mn;
		mx = s->erases[b] > mx ? s->erases[b] : mx;
	}
	c->host_bytes_written = s->host_w_bytes;
	c->host_bytes_read = s->host_r_bytes;
	c->host_bytes_read_unmapped = s->host_r_unmapped;
	c->nand_bytes_written_host = s->nand_w[W_HOST] * mu;
	c->nand_bytes_written_gc = s->nand_w[W_GC] * mu;
	c->nand_bytes_written_fold = s->nand_w[W_FOLD] * mu;
	c->nand_bytes_written_pad = s->nand_w[W_PAD] * mu;
	c->nand_bytes_written = c->nand_bytes_written_host + c->nand_bytes_written_gc +
				c->nand_bytes_written_fold + c->nand_bytes_written_pad;
	c->nand_bytes_read = s->nand_r_pages * s->cfg.page_size;
	c->erase_count_min = mn;
	c->erase_count_max = mx;
	c->erase_count_mean = (double)sum / s->nblocks;
	c->gc_runs = s->gc_runs;
	c->idle_gc_runs = s->idle_gc_runs;
	c->folds = s->folds;
	c->power_on_ns = s->now;
	c->slc_cache_used_bytes = s->slc_valid_units * mu;
	c->slc_cache_limit_bytes = (uint64_t)slc_limit(s) * s->upb_slc * mu;
	c->free_blocks = s->nfree;
	c->physical_blocks = s->nblocks;
	c->valid_bytes = s->valid_units * mu;
}

int sim_check(const struct sim_ssd *s, char *err, size_t errlen)
{
	uint64_t total = 0, slc = 0;
	uint32_t nfree = 0, nslc = 0;
	char why[160] = "";

	for (uint32_t l = 0; l < s->units_max && !why[0]; l++) {
		uint32_t p = s->fwd[l];

		if (p != NIL && (p >= s->nblocks * s->upb || !unit_valid(s, p) || s->rev[p] != l))
			snprintf(why, sizeof(why), "LBA unit %u maps to %u, %s", l, p,
				 p >= s->nblocks * s->upb ? "past the end" :
				 !unit_valid(s, p)	  ? "an invalid unit" : "which maps back elsewhere");
		else if (p != NIL && l >= s->units)
			snprintf(why, sizeof(why), "LBA unit %u past the visible capacity is mapped", l);
	}
	for (uint32_t b = 0; b < s->nblocks && !why[0]; b++) {
		uint32_t v = 0;

		for (uint32_t i = 0; i < s->upb; i++) {
			uint32_t l;

			if (!unit_valid(s, b * s->upb + i))
				continue;
			l = s->rev[b * s->upb + i];
			if (l >= s->units_max || s->fwd[l] != b * s->upb + i || i >= s->wp[b]) {
				snprintf(why, sizeof(why), "unit %u of block %u claims LBA unit %u wrongly", i, b, l);
				break;
			}
			v++;
		}
		if (!why[0] && v != s->valid[b])
			snprintf(why, sizeof(why), "block %u counts %u valid units, holds %u", b, s->valid[b], v);
		if (!why[0] && s->state[b] == B_FREE && (v || s->wp[b]))
			snprintf(why, sizeof(why), "free block %u holds data", b);
		total += v;
		if (s->is_slc[b]) {
			slc += v;
			nslc++;
		}
		if (s->state[b] == B_FREE)
			nfree++;
	}
	if (!why[0] && total != s->valid_units)
		snprintf(why, sizeof(why), "valid units %llu, blocks hold %llu",
			 (unsigned long long)s->valid_units, (unsigned long long)total);
	if (!why[0] && slc != s->slc_valid_units)
		snprintf(why, sizeof(why), "SLC valid units %llu, SLC blocks hold %llu",
			 (unsigned long long)s->slc_valid_units, (unsigned long long)slc);
	if (!why[0] && nslc != s->slc_blocks)
		snprintf(why, sizeof(why), "%u SLC blocks counted, %u found", s->slc_blocks, nslc);
	if (!why[0] && nfree != s->nfree)
		snprintf(why, sizeof(why), "%u free blocks counted, %u found", s->nfree, nfree);
	if (!why[0]) {
		uint32_t n = 0;

		for (uint32_t b = s->free_q.head; b != NIL && n <= s->nblocks; b = s->next[b])
			n++;
		if (n != s->nfree)
			snprintf(why, sizeof(why), "the free queue holds %u blocks, %u counted", n, s->nfree);
	}
	if (!why[0] && s->cfg.gc_policy == SIM_GC_GREEDY) {
		for (uint32_t v = 0; v <= s->upb && !why[0]; v++)
			for (uint32_t b = s->bucket[v].head; b != NIL; b = s->next[b])
				if (s->valid[b] != v || s->state[b] != B_CLOSED) {
					snprintf(why, sizeof(why), "block %u in bucket %u has %u valid units", b,
						 v, s->valid[b]);
					break;
				}
	}
	if (!why[0])
		return 0;
	if (err && errlen)
		snprintf(err, errlen, "%s", why);
	return -EIO;
}

size_t sim_closed_block_valid(const struct sim_ssd *s, uint32_t *out, size_t max,
			      uint32_t *units_per_block)
{
	size_t n = 0;

	for (uint32_t b = 0; b < s->nblocks; b++) {
		if (s->state[b] != B_CLOSED || s->is_slc[b])
			continue;
		if (n < max)
			out[n] = s->valid[b];
		n++;
	}
	if (units_per_block)
		*units_per_block = s->upb;
	return n;
}

double sim_map_bytes_per_unit(const struct sim_ssd *s)
{
	uint64_t nphys = (uint64_t)s->nblocks * s->upb;

	return (double)(sizeof(uint32_t) * (s->units_max + nphys) + (nphys + 63) / 64 * 8) /
	       s->units_max;
}
