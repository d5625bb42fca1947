/* SPDX-License-Identifier: MIT */
/*
 * sim: the virtual SSD's core, a page-mapped FTL simulator in virtual time. It knows nothing of
 * targets or YAML: it takes a filled struct sim_config, accepts host reads, writes and
 * discards stamped with a virtual submission time, and answers with the virtual completion time.
 * target_sim.c turns that into the target ops; tests and the benchmark drive it directly.
 *
 * Geometry: the host address space is cut into mapping units (default 4 KiB); a NAND page of
 * page_size bytes holds page_size / mapping_unit units and is the program unit (set it to the
 * multi-plane program unit of the NAND); a block holds pages_per_block pages; blocks are
 * spread over channels x dies_per_channel dies (a block works on the die of the frontier slot
 * that opened it: free blocks are one pool, so every die always has an open block).
 * Physical blocks = ceil(user_capacity / (1 - spare_factor) / block bytes): the spare factor
 * counts every physical block, the GC reserve (free_block_watermark) included.
 *
 * FTL: forward map (LBA unit -> physical unit) and reverse map (physical unit -> LBA unit), one
 * uint32 each, a validity bit per physical unit, and per-block valid counts. One TLC write frontier takes host writes and GC
 * copies alike (the model behind Desnoyers' analysis); it stripes program units over one open
 * block per die so that dies work in parallel. An SLC cache, when configured, has a second
 * frontier of its own, because its blocks are programmed in another cell mode. Foreground GC
 * starts when free blocks fall to the watermark and is paced in proportion to host writes: a
 * victim with v valid of n units gets v / (n - v) copies per host unit, so it is clean by the
 * time the host has filled the space it gives back.
 *
 * Time (when config.timed is true): every die and channel is busy until some instant; a host
 * write is transferred over the interface (max_bytes_per_s, command_overhead), waits for a slot
 * in the write buffer and completes there; the buffer slot is freed when the page holding the
 * data has been programmed. A read of an unmapped unit needs no NAND read. GC copies, SLC
 * folding and erases occupy dies and so delay host I/O. Idle work (SLC folding, idle GC) runs
 * in the gaps: it starts idle_gc.delay after the last host I/O completed.
 *
 * Volatile write cache (write_cache, on by default as on real drives): with it on, or with
 * power-loss protection (the buffer is then safe), a write completes once it is in the write
 * buffer. With it off and no PLP, a write completes only when its data is programmed: a page
 * holding it is scheduled for programming as soon as the write is in, and writes that arrive
 * before its transfer to the die starts join it (group commit, so a deep queue still fills
 * pages); what is left of the page is padded, and the padding counts as NAND bytes written
 * (nand_bytes_written_pad), so WA rises at low queue depth as on real drives with the cache
 * disabled. A flush pads and programs the partial pages and completes when all buffered
 * host data is on the NAND (at once with PLP).
 *
 * Determinism: everything random comes from a PRNG seeded by config.seed; no global state.
 * Not thread-safe: one sim is driven by one thread.
 */
#ifndef SSDLAB_SIM_H
#define SSDLAB_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sim_ssd;

enum sim_gc_policy { SIM_GC_GREEDY = 0, SIM_GC_FIFO, SIM_GC_RANDOM, SIM_GC_DCHOICES };

/* What the drive does with host writes once the SLC cache is full. */
enum sim_post_cache {
	SIM_POST_DIRECT = 0, /* write to TLC directly */
	SIM_POST_FOLD,	     /* keep writing to SLC, folding the oldest SLC block first */
};

struct sim_timing {
	uint64_t read;		   /* ns per page read (array to register) */
	uint64_t program;	   /* ns per TLC page program */
	uint64_t program_slc;	   /* ns per page program in SLC mode */
	uint64_t erase;		   /* ns per block erase */
	uint64_t transfer_per_kib; /* ns per KiB on a channel */
};

struct sim_config {
	uint64_t user_capacity;	  /* bytes, a multiple of mapping_unit */
	double spare_factor;	  /* (physical - user) / physical, in [0, 1) */
	uint32_t mapping_unit;	  /* bytes */
	uint32_t page_size;	  /* bytes, a multiple of mapping_unit */
	uint32_t pages_per_block;
	uint32_t channels;
	uint32_t dies_per_channel;
	uint32_t logical_block_size; /* 512 or 4096 */
	struct sim_timing timing;
	enum sim_gc_policy gc_policy;
	uint32_t gc_d;		      /* d-choices: blocks sampled */
	uint32_t free_block_watermark; /* GC reserve in blocks; at least (and by default) dies + 2 */
	struct {
		bool enabled;
		uint64_t delay; /* ns after the last host I/O, in the real drive's time */
		double rate;	/* bytes relocated per second of idle; ignored when aggressive */
		bool aggressive; /* as fast as the dies allow */
	} idle_gc;
	struct {
		uint64_t size;	  /* bytes of host data the cache holds at most; 0 = no cache */
		bool dynamic;	  /* shrinks as the drive fills */
		bool fold_on_idle;
		enum sim_post_cache post_cache;
	} slc;
	uint64_t write_buffer;	    /* bytes of DRAM buffer; 0 = one program unit per die */
	bool write_cache;	    /* volatile write cache on at power-on (default true) */
	bool power_loss_protection; /* the buffer survives power loss: writes are acknowledged
				       from it even with the write cache off; flush is instant */
	struct {
		double max_bytes_per_s; /* 0 = unlimited */
		uint64_t command_overhead; /* ns per command on the link */
	} iface;
	uint64_t represents; /* bytes of the real drive this stands for; 0 = user_capacity */
	double time_scale;   /* model time per real-drive time; scales idle_gc.delay; 0 = 1 */
	bool timed;	     /* false: FTL only, all times 0 (fast, for WA studies) */
	uint64_t seed;
};

struct sim_counters {
	uint64_t host_bytes_written;
	uint64_t host_bytes_read;
	/* Of host_bytes_read, the bytes of never-written or trimmed units: answered without a
	 * NAND read, so they say nothing about the flash (a fresh drive's reads). */
	uint64_t host_bytes_read_unmapped;
	uint64_t nand_bytes_written; /* host + gc + fold + pad */
	uint64_t nand_bytes_written_host;
	uint64_t nand_bytes_written_gc;
	uint64_t nand_bytes_written_fold;
	uint64_t nand_bytes_written_pad; /* filler programmed to make partial pages durable */
	uint64_t nand_bytes_read;
	uint32_t erase_count_min;
	double erase_count_mean;
	uint32_t erase_count_max;
	uint64_t gc_runs;	/* victims reclaimed by GC (foreground and idle) */
	uint64_t idle_gc_runs;	/* of which during idle */
	uint64_t folds;		/* SLC blocks folded into TLC */
	uint64_t power_on_ns;	/* the sim's clock */
	uint64_t slc_cache_used_bytes; /* host data currently held in SLC blocks */
	uint64_t slc_cache_limit_bytes; /* what the cache may hold right now */
	uint64_t free_blocks;
	uint64_t physical_blocks;
	uint64_t valid_bytes;	/* mapped host data */
};

/* Sensible defaults (a small, fast TLC-like device of 1 GiB, no cache, timing on). */
void sim_config_default(struct sim_config *c);

/*
 * Checks a configuration: returns 0, or -EINVAL with a one-line reason in err (e.g. a spare
 * factor too small to hold the user data plus the GC reserve).
 */
int sim_config_check(const struct sim_config *c, char *err, size_t errlen);

/* Derived sizes of a valid configuration (no allocation). */
uint64_t sim_config_physical_blocks(const struct sim_config *c);
uint32_t sim_config_dies(const struct sim_config *c); /* channels x dies_per_channel */
uint32_t sim_config_watermark(const struct sim_config *c);

/*
 * The physical space greedy GC can fill with host data, in bytes: (physical blocks - the GC
 * reserve - half the open blocks, one per die and half written on average - a static SLC
 * cache's blocks) x block bytes: the effective model of analysis/pass_opvariants.c
 * (greedy_model_effective), what the sprandom fill's spare: auto is computed from
 * (docs/sprandom.md). A dynamic cache is not subtracted: it lives in space GC would use.
 */
uint64_t sim_config_gc_space_bytes(const struct sim_config *c);

/*
 * Creates a fresh-out-of-box drive. Returns 0 and sets *out, -EINVAL for a bad config (see
 * sim_config_check), -ENOMEM. The config is copied.
 */
int sim_create(const struct sim_config *c, struct sim_ssd **out);
void sim_free(struct sim_ssd *s); /* accepts NULL */

const struct sim_config *sim_config(const struct sim_ssd *s);
/* Visible capacity in bytes (user_capacity unless lowered by sim_set_capacity). */
uint64_t sim_capacity(const struct sim_ssd *s);
/* The sim's clock: the latest time it has been given or advanced to. */
uint64_t sim_now(const struct sim_ssd *s);

/*
 * Host I/O submitted at virtual time t (>= sim_now(); an earlier t is taken as sim_now()).
 * offset and len must be multiples of the logical block size and inside the visible capacity
 * (-EINVAL otherwise; nothing changes then). A write of part of a mapping unit rewrites the
 * whole unit. Sets *done to the completion time (t when timing is off). Background work due
 * before t (idle GC, folding) runs first.
 */
int sim_write(struct sim_ssd *s, uint64_t offset, uint64_t len, uint64_t t, uint64_t *done);
int sim_read(struct sim_ssd *s, uint64_t offset, uint64_t len, uint64_t t, uint64_t *done);
/*
 * A hint that a write or read of `offset` is coming: fetches its forward-map entry into the
 * cache (deep = false), or, once that is cached, the reverse-map entry it points to (deep =
 * true). Callers with a batch of I/Os issue it a few I/Os ahead, so that the cache misses of
 * a large model overlap instead of queueing. Never changes anything; any offset is allowed.
 */
void sim_prefetch(const struct sim_ssd *s, uint64_t offset, bool deep);
/* TRIM: unmaps whole mapping units inside [offset, offset + len); partial units are kept. */
int sim_discard(struct sim_ssd *s, uint64_t offset, uint64_t len);
/* Fresh out of box: every block erased, nothing mapped; wear and lifetime counters stay. */
void sim_purge(struct sim_ssd *s);
/*
 * HPA analogue: sets the visible capacity (a multiple of the mapping unit, between one unit
 * and user_capacity). Lowering it unmaps everything past the new end, which becomes spare.
 */
int sim_set_capacity(struct sim_ssd *s, uint64_t bytes);
/* Advances the clock to t, running the idle work (folding, idle GC) that falls before t. */
void sim_advance(struct sim_ssd *s, uint64_t t);
/*
 * Flush at time t: makes every buffered write durable (partial pages are padded and
 * programmed) and sets *done to when that is so; with power-loss protection the buffer is
 * already safe and *done = t. Returns 0.
 */
int sim_flush(struct sim_ssd *s, uint64_t t, uint64_t *done);
/*
 * Switches the volatile write cache at time t (SET FEATURES / MODE SELECT on a real drive).
 * Turning it off first flushes the cache, as drives do; *done is when the switch completes.
 * Returns 0.
 */
int sim_set_write_cache(struct sim_ssd *s, bool on, uint64_t t, uint64_t *done);
bool sim_write_cache(const struct sim_ssd *s);
/* The time at which everything scheduled so far (programs, GC) is done on the NAND. */
uint64_t sim_quiesce_time(const struct sim_ssd *s);

void sim_get_counters(const struct sim_ssd *s, struct sim_counters *c);

/*
 * Verifies the FTL's invariants (forward and reverse maps agree, valid counts, free and SLC
 * block counts, greedy buckets): O(capacity), for tests and debugging. Returns 0, or -EIO with
 * the first violation described in err.
 */
int sim_check(const struct sim_ssd *s, char *err, size_t errlen);

/*
 * Read-only introspection for tests and the sprandom check (no behaviour change): writes the
 * valid mapping-unit count of each closed TLC block (not the open ones, the free ones, the GC
 * victim in progress or SLC blocks), in block-number order, into out[0..max) and returns how
 * many closed TLC blocks there are (more than max: only max written). *units_per_block, when
 * not NULL, is set to the units a block holds (the denominator of a valid fraction).
 */
size_t sim_closed_block_valid(const struct sim_ssd *s, uint32_t *out, size_t max,
			      uint32_t *units_per_block);

/* Bytes of heap the maps take per mapping unit of user capacity (forward + reverse + the
 * validity bitmap of the physical units). */
double sim_map_bytes_per_unit(const struct sim_ssd *s);

const char *sim_gc_policy_name(enum sim_gc_policy p);
/* Parses "greedy", "fifo", "random", "d-choices"; -EINVAL otherwise. */
int sim_gc_policy_parse(const char *s, enum sim_gc_policy *p);

#endif
