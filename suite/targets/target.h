/* SPDX-License-Identifier: MIT */
/*
 * target: what ssdlab measures. One ops table, several implementations:
 *   - TARGET_KIND_BLOCKDEV and _FILE: io_uring with O_DIRECT (target_uring.c), time =
 *     CLOCK_MONOTONIC;
 *   - TARGET_KIND_SIM: the virtual SSD (target_sim.c over sim.h), time = simulated nanoseconds.
 *
 * The core calls hooks only through the target_*() wrappers below, which supply the default
 * (usually -EOPNOTSUPP with a reason) for a missing optional hook; never ops->x directly.
 * This header is the one seam between the core and the devices: the engine, runner and CLI know
 * a target by its target_info (kind enum, clock name, identity, an NVMe namespace's placement)
 * and its hooks (the device's own I/O counters included), never by its path, its spec text or
 * sysfs. A spec is read by target_spec_parse() alone; target_info_to_json() writes the identity
 * for every results file; target_safety_identity() hands host/safety.h what it needs.
 *
 * I/O model, the same for every implementation (the engine relies on it):
 *   - a queue belongs to one thread; a target may allow several queues (TARGET_CAP_MULTIQUEUE);
 *   - target_submit() hands over n I/Os, each carrying an opaque `user` tag; its submit time is
 *     the target clock at the call (the engine stamps io->submit_ns itself before the call);
 *     when it fails (-errno), none of the n I/Os was queued;
 *   - target_reap() returns between `min` and `max` completions, waiting for at least `min`;
 *     each carries the tag, the result (bytes or -errno) and the target-clock completion time;
 *   - a virtual-time target advances its clock inside reap() to the completion it returns, so
 *     latency = done_ns - submit_ns is exact in simulated time and the engine's loop is the same.
 */
#ifndef SSDLAB_TARGET_H
#define SSDLAB_TARGET_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/devinfo.h"
#include "host/drive_ident.h"
#include "host/safety.h"
#include "results/snapshot.h"

struct json_object;

struct target;
struct target_queue;
struct purge_outcome; /* targets/purge_chain.h */
struct devchange_ctx; /* targets/devchange.h */

enum target_cap {
	TARGET_CAP_VIRTUAL_TIME = 1u << 0, /* clock is simulated; idle is instant */
	TARGET_CAP_MULTIQUEUE = 1u << 1,   /* one queue per thread is allowed */
	TARGET_CAP_DISCARD = 1u << 2,
	/* purge() returns the flash to fresh-out-of-box (SNIA PTS purge); a discard is not one */
	TARGET_CAP_PURGE = 1u << 3,
	TARGET_CAP_COUNTERS = 1u << 4,	   /* snapshot() returns real counters */
	TARGET_CAP_SET_CAPACITY = 1u << 5, /* HPA-like visible capacity change */
	TARGET_CAP_NEEDS_DATA = 1u << 6,   /* writes carry real buffers (the sim ignores data) */
	/* purge_method(): a real drive's purge commands (targets/purge_chain.h: sanitize, format,
	 * ... then discard), chosen by the profile's method or the auto chain */
	TARGET_CAP_DRIVE_PURGE = 1u << 7,
};

enum io_dir { IO_READ = 0, IO_WRITE = 1 };

struct target_io {
	uint64_t offset;
	uint32_t len;
	uint8_t dir;	    /* enum io_dir */
	uint16_t buf_index; /* registered buffer index (io_uring fixed buffers) */
	void *buf;	    /* NULL allowed when !TARGET_CAP_NEEDS_DATA */
	uint64_t submit_ns;
	uint64_t user;
};

struct target_completion {
	uint64_t user;
	int32_t res; /* bytes transferred, or -errno */
	uint64_t done_ns;
};

/* What a target is; the engine, runner and CLI branch on this, never on a name or a path. */
enum target_kind {
	TARGET_KIND_BLOCKDEV = 0, /* a block device node (target_uring.c) */
	TARGET_KIND_FILE,	  /* a regular file (target_uring.c) */
	TARGET_KIND_SIM,	  /* the virtual SSD (target_sim.c) */
};

struct target_info {
	enum target_kind kind; /* target_kind_name() for JSON and messages */
	char path[PATH_MAX]; /* as given: /dev/sdb, ./t.img, sim:client-tlc */
	char safe_name[96];  /* for directory names: dev-sdb, file-t.img, sim-client-tlc */
	/* Sized as devinfo.h's fields, from what the kernel's sources can hold (the longest wwid is
	 * 1024 characters); target_uring.c asserts they match. Never cut: the serial and WWN are
	 * what --yes-destroy confirms (safety.h). */
	char model[64];
	char serial[256];
	char wwn[1025];
	char firmware[32];
	uint64_t capacity; /* visible bytes */
	uint32_t logical_block_size;
	uint32_t physical_block_size;
	bool rotational;
	char scheduler[32];	   /* "none", "mq-deadline" ... ("" if unknown) */
	int nomerges;		   /* -1 unknown */
	uint32_t hw_queue_depth;   /* 0 unknown */
	bool created_by_ssdlab;	   /* a file ssdlab created in this run: no confirmation needed */
	double time_scale;	   /* sim: user_capacity / represents; 1 for real targets */
	/* sim: how long after the last I/O its idle GC starts, in target time (the model's delay
	 * x time_scale); 0 when it has none (idle GC off) or the target does not say (a drive) */
	uint64_t idle_gc_delay_ns;
	/* sim: the NAND's physical capacity (physical blocks x block bytes) and its SLC cache size
	 * in bytes; 0 when the target does not say (a drive). The early steady-state guard's inputs
	 * (docs/early-verdict.md). */
	uint64_t nand_bytes, slc_cache_bytes;
	/* sim: what its model says of the NAND, for the sprandom fill's `auto` inputs
	 * (profile/phases.h, struct phase_nand): the space greedy GC can fill
	 * (sim_config_gc_space_bytes) and the SLC cache's size; 0 / false on other targets */
	uint64_t gc_space_bytes;
	bool slc_known;
	/* sim: its model's GC victim policy ("greedy", "fifo", "random", "d-choices"; "" when the
	 * target does not say) and whether its SLC cache is static (a fixed size that does not
	 * shrink as the drive fills): where the sprandom fill's layout does not hold
	 * (docs/sprandom.md, "Where it does not apply") */
	char gc_policy[16];
	bool slc_static;
	/* sim: its SLC cache is dynamic (and not empty) and its write buffer has no power-loss
	 * protection, and whether its volatile write cache is on at power-on (what a run that
	 * leaves the cache as found has). With the cache off such a model is of the two-state
	 * class: each small write lands in the SLC cache or not as its free blocks allow, so a
	 * matrix cell runs at one of two levels round to round and the sprandom fill is refused
	 * (docs/fast-steady-state.md, "Where the profile must refuse the shortcut"). false on
	 * other targets: a drive does not say. */
	bool slc_dynamic_no_plp;
	bool write_cache_at_open;
	/* sim: physical blocks per die (GC picks its victims within a die); 0 on other targets.
	 * Below SPRANDOM_MIN_BLOCKS_PER_DIE (profile/phases.h) the sprandom fill is refused. */
	double blocks_per_die;
	/* a drive: the raw NAND bytes its drive-database entry states for its model and that
	 * entry's name (drivedb_raw_nand); 0 / "" when no entry states it, and on other targets.
	 * What the sprandom fill's spare: auto uses on a drive. */
	uint64_t raw_nand_bytes;
	char raw_nand_entry[96];
	/* the target's clock, as results state it: "virtual", "CLOCK_MONOTONIC (tsc)" */
	char clock[48];
	/* NVMe: the namespace -> controller -> subsystem it belongs to (devinfo.h); empty else */
	struct devinfo_nvme nvme;
	/* a block device opened with target_open_opts.drive_ident: who the drive says it is
	 * (host/drive_ident.h), for the manifest's target.drive and the confirmation */
	bool has_drive;
	struct drive_ident drive;
};

/* "blockdev", "file", "sim": the names the results files use ("?" for an unknown value). */
const char *target_kind_name(enum target_kind k);

/*
 * target_info as the results files write it (the manifest's "target", `io --json`'s): a new
 * object, or NULL when out of memory. spec is the spec as the user gave it (NULL = leave out).
 */
struct json_object *target_info_to_json(const struct target_info *ti, const char *spec);

/* What the safety gate needs of a target (host/safety.h); points into ti, valid while ti is. */
void target_safety_identity(const struct target_info *ti, struct safety_target *out);

/*
 * A target spec, parsed in one place for every caller: "sim:MODEL" names the virtual SSD (MODEL
 * a bundled model name or a YAML file); anything else is the path of a block device or regular
 * file (which of the two, target_open() tells by stat).
 */
struct target_spec {
	bool sim;	 /* "sim:MODEL" */
	const char *arg; /* points into spec: MODEL for a sim, else the whole spec */
	const struct target_ops *ops; /* the implementation that opens it */
};
void target_spec_parse(const char *spec, struct target_spec *out);

struct target_open_opts {
	bool writable;	/* open for writing (O_EXCL on block devices) */
	bool create;	/* file: create when absent ... */
	uint64_t size;	/* ... with this size */
	uint64_t seed;	/* sim: seed of its internal randomness */
	double time_scale; /* sim: override of user_capacity / represents; 0 = from the model */
	const char *models_dir; /* sim: searched first for a model by name ($SSDLAB_MODELS) */
	/* a real drive's counter snapshots (targets/drive_snapshot.h): the drive database (NULL:
	 * profiles/drives/drives.yaml) and the settle loop (0: its defaults) */
	const char *drivedb_path;
	uint64_t snapshot_settle_ns, snapshot_interval_ns;
	unsigned snapshot_max_reads;
	/* a block device: read its identity at open (sysfs, then NVMe Identify or ATA IDENTIFY +
	 * native max through ioctl_ops, NULL: ioctl_ops_real) into target_info.drive. Off for
	 * `plan`, which sends the drive nothing. */
	bool drive_ident;
	const struct ioctl_ops *ioctl_ops;
};

struct target_queue_opts {
	unsigned depth;
	void *bufs;	    /* one region holding nbufs buffers of buf_size, page aligned; may be NULL */
	unsigned nbufs;
	size_t buf_size;
	bool sqpoll;
	bool hipri;
};

/* A device's I/O totals since boot in bytes, as counted below ssdlab (the kernel's block layer). */
struct target_io_counters {
	uint64_t bytes_read;
	uint64_t bytes_written;
};

struct target_ops {
	const char *name;
	unsigned caps;
	/* required */
	int (*open)(struct target *t, const char *spec, const struct target_open_opts *o);
	void (*close)(struct target *t);
	int (*queue_open)(struct target *t, const struct target_queue_opts *o,
			  struct target_queue **q);
	void (*queue_close)(struct target_queue *q);
	int (*submit)(struct target_queue *q, struct target_io *ios, unsigned n);
	int (*reap)(struct target_queue *q, struct target_completion *c, unsigned min,
		    unsigned max);
	uint64_t (*now)(struct target *t);
	/* optional */
	int (*idle)(struct target *t, uint64_t ns);
	int (*discard)(struct target *t, uint64_t offset, uint64_t len);
	int (*purge)(struct target *t, char *method, size_t len);
	int (*drive_purge)(struct target *t, const char *want, const struct devchange_ctx *change,
			    struct purge_outcome *out, char *err, size_t errlen);
	int (*snapshot)(struct target *t, struct snapshot *s);
	int (*set_capacity)(struct target *t, uint64_t bytes);
	int (*flush)(struct target *t);
	/* volatile write cache on or off (for SNIA PTS "write cache disabled" preconditioning) */
	int (*set_write_cache)(struct target *t, bool on);
	/* running totals of bytes read and of those that hit unmapped LBAs (see below) */
	int (*read_unmapped)(struct target *t, uint64_t *unmapped, uint64_t *read);
	/* the device's running I/O totals as the kernel counts them, ssdlab's included (below) */
	int (*io_counters)(struct target *t, struct target_io_counters *c);
	/* the drive's temperature (target_temperature() below) */
	int (*temperature)(struct target *t, double *celsius, unsigned flags);
	/* the device behind the path was replaced: open it again (target_reopen() below) */
	int (*reopen)(struct target *t);
};

/* The hooks every ops table must fill in; the optional ones have a default in the wrappers. */
#define TARGET_OPS_REQUIRED(X)                                                                    \
	X(open) X(close) X(queue_open) X(queue_close) X(submit) X(reap) X(now)

/*
 * 0 when ops names itself and has every required hook; else -EINVAL and the first missing hook
 * in *missing ("name" for a missing name). target_open_ops() refuses such a table.
 */
int target_ops_check(const struct target_ops *ops, const char **missing);

/*
 * Opens the target named by spec: "sim:MODEL" (a bundled model name or a YAML file), a block
 * device, or a regular file. On failure returns -errno and writes a reason into err.
 */
int target_open(const char *spec, const struct target_open_opts *o, struct target **t, char *err,
		size_t errlen);
void target_close(struct target *t); /* accepts NULL */
/* Opens spec with the given implementation (tests use scripted targets this way). */
int target_open_ops(const struct target_ops *ops, const char *spec,
		    const struct target_open_opts *o, struct target **t, char *err, size_t errlen);

const struct target_info *target_info(const struct target *t);
struct target_info *target_info_mut(struct target *t); /* for implementations */
unsigned target_caps(const struct target *t);
/* For implementations: capabilities found at open (a drive with a counter source) beyond the
 * table's. */
void target_add_caps(struct target *t, unsigned caps);
void *target_priv(const struct target *t);
void target_set_priv(struct target *t, void *priv);

int target_queue_open(struct target *t, const struct target_queue_opts *o,
		      struct target_queue **q);
void target_queue_close(struct target *t, struct target_queue *q);
int target_submit(struct target *t, struct target_queue *q, struct target_io *ios, unsigned n);
int target_reap(struct target *t, struct target_queue *q, struct target_completion *c,
		unsigned min, unsigned max);
uint64_t target_now(struct target *t);

/* Waits ns in target time (sleeps on real targets; advances the clock on a sim). */
int target_idle(struct target *t, uint64_t ns);
int target_discard(struct target *t, uint64_t offset, uint64_t len);
/* A real purge (TARGET_CAP_PURGE); returns the method used in `method` ("sim-reset"). A
 * target without one returns -EOPNOTSUPP: the runner's purge phase then discards. */
int target_purge(struct target *t, char *method, size_t len);
/* A real drive's purge by method want ("auto", "nvme-format", "nvme-sanitize", "discard":
 * targets/purge_chain.h) with what it did in out (the method, whether it is a PTS purge, why
 * auto skipped the earlier methods). -EOPNOTSUPP without TARGET_CAP_DRIVE_PURGE. */
int target_purge_method(struct target *t, const char *want, const struct devchange_ctx *change,
			struct purge_outcome *out, char *err, size_t errlen);
/* Fills s; a target without counters returns 0 with s->source = "none" and no counters. */
int target_snapshot(struct target *t, struct snapshot *s);
int target_set_capacity(struct target *t, uint64_t bytes);
/*
 * Opens the target's path again and reads its size and block sizes anew into target_info: for
 * when the device behind the path was replaced, as an NVMe namespace deleted and created again
 * at another size (run/variants.c): the handle held since open refers to the deleted one. No
 * queue may be open. 0; -EOPNOTSUPP for a target without the hook; -ENODEV when the path now
 * names another drive (its serial differs); else -errno; the reason in target_error().
 */
int target_reopen(struct target *t);
int target_flush(struct target *t);
/*
 * Switches the target's volatile write cache; turning it off makes what is cached durable
 * first. -EOPNOTSUPP (with a reason in target_error()) for a target that cannot.
 */
int target_set_write_cache(struct target *t, bool on);
/*
 * Running totals since the target was opened: bytes read by the host, and of those the bytes of
 * LBAs that hold no data (never written, trimmed), which a drive answers without reading the
 * flash. Only a target that knows its map has it (the virtual SSD); others return -EOPNOTSUPP
 * and leave the outputs untouched. Callers take the difference over a span.
 */
int target_read_unmapped(struct target *t, uint64_t *unmapped, uint64_t *read);
/*
 * The device's I/O totals as counted outside ssdlab (a block device's /sys/block/X/stat), so that
 * the engine can tell another process's I/O during a job from its own: the difference over a
 * job minus what the job did. A target without such counters (a file, the sim) returns
 * -EOPNOTSUPP and leaves *c untouched.
 */
int target_io_counters(struct target *t, struct target_io_counters *c);

/*
 * The drive's current temperature in degrees Celsius. flags TARGET_TEMP_CHEAP asks only for a
 * reading that does not disturb I/O in flight (the engine samples between series intervals):
 * a target whose reading costs a non-queued drive command (SATA: SMART READ and the SCT commands
 * behind drivetemp make the drive drain its queue) then returns -EAGAIN; without the flag it
 * reads anyway (the runner's cool-down gate, between phases). -EOPNOTSUPP for a target with no
 * sensor (a file, a loop device, the virtual SSD). *celsius untouched on failure.
 */
#define TARGET_TEMP_CHEAP 1u
int target_temperature(struct target *t, double *celsius, unsigned flags);

/*
 * For implementations: the reason a hook failed ("printf"-style), returned by target_open() in
 * err and by target_error() after a failing queue_open() or other hook; cleared by
 * target_queue_open().
 */
void target_set_error(struct target *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *target_error(const struct target *t);

/* Implementations (registered in target.c by kind). */
extern const struct target_ops target_uring_ops;
extern const struct target_ops target_sim_ops;

#endif
