/* SPDX-License-Identifier: MIT */
/*
 * trimcheck: write a known pattern, discard ranges aligned and not aligned to the discard
 * granularity, verify every block beside them (trimcheck.h). The region is laid out in slots of
 * S = the granularity rounded up to at least 64 KiB, so that the ranges sit far from each other
 * and from the region's ends whatever the granularity:
 *
 *   [0, 2S) mapped | A [2S, 4S) aligned | ... | B [6S+b, 7S+3b) both ends off the granule |
 *   ... | C [9S+b, 9S+2b) smaller than a granule | ... up to 12S
 *
 * (b = the logical block). The mapped [0, 2S) is also where the QD1 reads of mapped blocks go.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/jsonnum.h"
#include "base/prng.h"
#include "host/nvme_ident.h"
#include "host/nvme_lba_status.h"
#include "targets/trimcheck.h"

#define SLOT_MIN (64u * 1024u)
#define SLOTS 12u
#define LAT_SAMPLES_DEFAULT 32u

/* The content of logical block k: its own splitmix64 stream, so that a block moved, shifted or
 * replaced by another's data is told apart from the right one. */
static void pattern(uint64_t seed, uint64_t k, unsigned char *p, uint32_t b)
{
	uint64_t s = seed ^ prng_mix64(k + 1);

	for (uint32_t i = 0; i + 8 <= b; i += 8) {
		uint64_t w = prng_splitmix64(&s);

		memcpy(p + i, &w, 8);
	}
}

static bool all_zero(const unsigned char *p, uint32_t b)
{
	for (uint32_t i = 0; i < b; i++)
		if (p[i])
			return false;
	return true;
}

/* One I/O at QD1: 0 with its latency in *ns, or -errno with the reason in err. */
static int io1(struct target *t, struct target_queue *q, int dir, uint64_t off, uint32_t len,
	       void *buf, uint64_t *ns, char *err, size_t errlen)
{
	struct target_io io = {.offset = off, .len = len, .dir = (uint8_t)dir, .buf = buf};
	struct target_completion c;
	int rc;

	io.submit_ns = target_now(t);
	rc = target_submit(t, q, &io, 1);
	if (rc >= 0)
		rc = target_reap(t, q, &c, 1, 1);
	if (rc >= 0 && c.res != (int32_t)len)
		rc = c.res < 0 ? c.res : -EIO;
	if (rc < 0) {
		snprintf(err, errlen, "trim-check: %s of %u bytes at %llu failed: %s",
			 dir == IO_WRITE ? "write" : "read", len, (unsigned long long)off,
			 strerror(-rc));
		return rc;
	}
	if (ns)
		*ns = c.done_ns >= io.submit_ns ? c.done_ns - io.submit_ns : 0;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, unsigned n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Which range holds byte off, or -1. */
static int in_range(const struct trimcheck_result *r, uint64_t off)
{
	for (int i = 0; i < TRIMCHECK_NRANGES; i++)
		if (off >= r->r[i].offset && off < r->r[i].offset + r->r[i].len)
			return i;
	return -1;
}

/* The block layer's side, for a block device: its queue limits and discard counters. */
static bool block_dev(const struct target *t, dev_t *dev)
{
	const struct target_info *ti = target_info(t);
	struct stat st;

	if (ti->kind != TARGET_KIND_BLOCKDEV || stat(ti->path, &st) || !S_ISBLK(st.st_mode))
		return false;
	*dev = st.st_rdev;
	return true;
}

static void read_limits(const struct trimcheck_opts *o, dev_t dev, struct trimcheck_result *r)
{
	struct devinfo di;
	struct devinfo_link lk;

	if (devinfo_read(o->roots, dev, &di) || devinfo_link_read(o->roots, dev, &lk) ||
	    lk.discard_granularity < 0)
		return;
	r->has_limits = true;
	r->discard_max_bytes = di.discard_max_bytes;
	r->discard_granularity = (uint64_t)lk.discard_granularity;
}

/* ATA DRAT/RZAT where the drive answered IDENTIFY at open (target_info's drive). */
static void read_ata_bits(const struct target *t, struct trimcheck_result *r)
{
	const struct target_info *ti = target_info(t);

	r->drat = r->rzat = -1;
	if (ti->has_drive && ti->drive.kind == DRIVE_IDENT_SATA && ti->drive.ata.read) {
		r->drat = ti->drive.ata.id.trim_drat;
		r->rzat = ti->drive.ata.id.trim_rzat;
	}
}

/*
 * NVMe Identify Namespace of the target's namespace: NSZE, NUSE and DLFEAT (after false) or NUSE
 * alone (after true). A failure is evidence missing, not a failed check: it goes into nvme_error.
 * The node is opened read-only for the admin ioctl alone (the target's own fd is its engine's).
 */
static void read_nvme(const struct target *t, const struct trimcheck_opts *o, bool after,
		      struct trimcheck_result *r)
{
	const struct target_info *ti = target_info(t);
	const struct ioctl_ops *ops = o->ops ? o->ops : &ioctl_ops_real;
	struct nvme_id_ns ns;
	char err[160];
	int fd, rc;

	if (!ti->nvme.ns[0] || !ti->nvme.nsid || (after && !r->has_nvme))
		return;
	fd = open(ti->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(r->nvme_error, sizeof(r->nvme_error), "%.100s: %s", ti->path,
			 strerror(errno));
		return;
	}
	rc = nvme_id_ns_read(ops, fd, ti->nvme.nsid, &ns, err, sizeof(err));
	close(fd);
	if (rc) {
		snprintf(r->nvme_error, sizeof(r->nvme_error), "%s", err);
		return;
	}
	if (after) {
		r->has_nuse_after = true;
		r->nuse_after = ns.nuse;
		return;
	}
	r->has_nvme = true;
	r->nsze = ns.nsze;
	r->nuse_before = ns.nuse;
	r->dlfeat = ns.dlfeat;
}

/* One action type over every discarded range; the first failure stops it (the next range
 * would only fail alike) and is kept with its reason. */
static void lbas_ask(const struct ioctl_ops *ops, int fd, uint32_t nsid, uint8_t atype,
		     struct trimcheck_result *r, struct trimcheck_lbas *out)
{
	struct trimcheck_lbas l = {0};

	for (int i = 0; i < TRIMCHECK_NRANGES && !l.rc; i++) {
		struct nvme_lba_status_sum s;

		l.rc = nvme_lba_status_range(ops, fd, nsid, atype, r->r[i].offset / r->block,
					     r->r[i].len / r->block, &s, l.error, sizeof(l.error));
		if (l.rc)
			break;
		l.blocks += s.blocks;
		l.descriptors += s.descriptors;
		l.commands += s.commands;
		l.status_or |= s.status_or;
	}
	*out = l;
}

/*
 * The drive's own word on the discarded ranges: Get LBA Status, where Identify Controller says
 * the command is there (OACS bit 9; QEMU 7.2 clears it and answers Invalid Opcode). Allocated
 * LBAs (02h) first: none left in the ranges is the drive saying it deallocated them; then the
 * tracked potentially unrecoverable LBAs (11h, the type NVMe 1.4 defines without a scan). Like
 * read_nvme, a failure is evidence missing, not a failed check.
 */
static void read_lba_status(const struct target *t, const struct trimcheck_opts *o,
			    struct trimcheck_result *r)
{
	const struct target_info *ti = target_info(t);
	const struct ioctl_ops *ops = o->ops ? o->ops : &ioctl_ops_real;
	struct nvme_id_ctrl c;
	int fd;

	if (!ti->nvme.ns[0] || !ti->nvme.nsid)
		return;
	r->has_lbas = true;
	for (int i = 0; i < TRIMCHECK_NRANGES; i++)
		r->lbas_range_blocks += r->r[i].len / r->block;
	fd = open(ti->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(r->lbas_reason, sizeof(r->lbas_reason), "%.100s: %s", ti->path,
			 strerror(errno));
		return;
	}
	if (nvme_id_ctrl_read(ops, fd, &c, r->lbas_reason, sizeof(r->lbas_reason)))
		goto out;
	if (!(c.oacs & NVME_OACS_GET_LBA_STATUS)) {
		snprintf(r->lbas_reason, sizeof(r->lbas_reason),
			 "the controller does not support Get LBA Status (Identify Controller OACS "
			 "0x%04x, bit 9 clear)",
			 c.oacs);
		goto out;
	}
	r->lbas_supported = true;
	lbas_ask(ops, fd, ti->nvme.nsid, NVME_LBAS_ATYPE_ALLOCATED, r, &r->lbas_alloc);
	lbas_ask(ops, fd, ti->nvme.nsid, NVME_LBAS_ATYPE_TRACKED, r, &r->lbas_unrec);
out:
	close(fd);
}

static void layout(struct trimcheck_result *r, uint64_t g, uint32_t b)
{
	uint64_t s = g > SLOT_MIN ? g : ((SLOT_MIN + g - 1) / g) * g;

	r->granularity = g;
	r->region = SLOTS * s;
	r->r[0] = (struct trimcheck_range){.offset = 2 * s, .len = 2 * s};
	r->r[1] = (struct trimcheck_range){.offset = 6 * s + b, .len = s + 2 * (uint64_t)b};
	r->r[2] = (struct trimcheck_range){.offset = 9 * s + b, .len = b};
	for (int i = 0; i < TRIMCHECK_NRANGES; i++)
		r->r[i].aligned = r->r[i].offset % g == 0 && r->r[i].len % g == 0;
}

/*
 * Reads the stat file once the block layer has finished with our requests. blk-mq ends a
 * request's bios (waking BLKDISCARD's caller) before it counts the request in the ios field
 * (sectors are counted first), so a read straight after the last discard can miss it: seen on a
 * fast CI machine as 2 ios for 3 discards with every byte counted. The request stays in
 * in_flight until counted, so wait for in_flight to reach 0 (at most 1 s; only the test's own
 * I/O runs on the device here).
 */
static int settled_stat(const struct devinfo_roots *roots, dev_t dev, struct devinfo_stat *st)
{
	for (int i = 0; i < 1000; i++) {
		int rc = devinfo_read_stat(roots, dev, st);

		if (rc || st->in_flight == 0)
			return rc;
		nanosleep(&(struct timespec){.tv_nsec = 1000000}, NULL);
	}
	return 0;
}

/* Discards the ranges, with the stat counters around them. */
static void discard_ranges(struct target *t, const struct trimcheck_opts *o, bool blk, dev_t dev,
			   struct trimcheck_result *r)
{
	struct devinfo_stat s0, s1;
	bool has0 = blk && !devinfo_read_stat(o->roots, dev, &s0);

	r->supported = true;
	for (int i = 0; i < TRIMCHECK_NRANGES; i++) {
		r->r[i].rc = target_discard(t, r->r[i].offset, r->r[i].len);
		if (r->r[i].rc && r->supported) {
			r->supported = false;
			snprintf(r->reason, sizeof(r->reason), "%s",
				 r->r[i].rc == -EOPNOTSUPP ? "the device does not support discard"
							   : strerror(-r->r[i].rc));
		}
	}
	if (has0 && !settled_stat(o->roots, dev, &s1) && s1.discard_ios >= s0.discard_ios &&
	    s1.discard_sectors >= s0.discard_sectors) {
		r->has_stat = true;
		r->discard_ios = s1.discard_ios - s0.discard_ios;
		r->discard_bytes = (s1.discard_sectors - s0.discard_sectors) * 512;
	}
}

/* Reads the region back: the neighbours against their pattern, the trimmed blocks classed. */
static int verify(struct target *t, struct target_queue *q, uint64_t seed, unsigned char *buf,
		  unsigned char *want, uint64_t chunk, struct trimcheck_result *r, char *err,
		  size_t errlen)
{
	uint32_t b = r->block;

	for (uint64_t off = 0; off < r->region; off += chunk) {
		int rc = io1(t, q, IO_READ, off, (uint32_t)chunk, buf, NULL, err, errlen);

		if (rc)
			return rc;
		for (uint64_t i = 0; i < chunk; i += b) {
			uint64_t at = off + i;
			bool same;

			pattern(seed, at / b, want, b);
			same = !memcmp(buf + i, want, b);
			if (in_range(r, at) >= 0) {
				if (same)
					r->trimmed_pattern++;
				else if (all_zero(buf + i, b))
					r->trimmed_zero++;
				else
					r->trimmed_other++;
				continue;
			}
			r->neighbours++;
			if (!same && !r->neighbours_bad++)
				r->first_bad = at;
		}
	}
	return 0;
}

/* QD1 reads of one block, alternating between range A (trimmed) and [0, 2S) (mapped). */
static int latency(struct target *t, struct target_queue *q, unsigned char *buf, unsigned n,
		   struct trimcheck_result *r, char *err, size_t errlen)
{
	uint64_t *tr = calloc(2 * (size_t)n, sizeof(*tr)), *mp = tr + n;
	uint64_t blocks = r->r[0].len / r->block;
	int rc = -ENOMEM;

	if (!tr)
		goto out;
	for (unsigned i = 0; i < n; i++) {
		uint64_t k = (i * 7919u) % blocks; /* a prime stride: spread, not sequential */

		rc = io1(t, q, IO_READ, r->r[0].offset + k * r->block, r->block, buf, &tr[i], err,
			 errlen);
		if (!rc)
			rc = io1(t, q, IO_READ, k * r->block, r->block, buf, &mp[i], err, errlen);
		if (rc)
			goto out;
	}
	r->has_latency = true;
	r->lat_trimmed_ns = median(tr, n);
	r->lat_mapped_ns = median(mp, n);
	rc = 0;
out:
	free(tr);
	return rc;
}

int trimcheck_run(struct target *t, const struct trimcheck_opts *o, struct trimcheck_result *out,
		  char *err, size_t errlen)
{
	const struct target_info *ti = target_info(t);
	uint64_t seed = o->seed ? o->seed : 1, g, chunk;
	unsigned n = o->latency_samples ? o->latency_samples : LAT_SAMPLES_DEFAULT;
	struct trimcheck_result r = {.block =
					 ti->logical_block_size ? ti->logical_block_size : 512};
	struct target_queue *q = NULL;
	unsigned char *buf = NULL, *want = NULL;
	bool blk;
	dev_t dev = 0;
	int rc;

	if (!(target_caps(t) & TARGET_CAP_NEEDS_DATA)) {
		snprintf(err, errlen, "trim-check: %s keeps no data, so nothing can be verified",
			 ti->path);
		return -EOPNOTSUPP;
	}
	blk = block_dev(t, &dev);
	if (blk)
		read_limits(o, dev, &r);
	/* Without a granularity from the queue, 4 KiB: the page most FTLs map by. */
	g = r.has_limits && r.discard_granularity >= r.block ? r.discard_granularity
							     : (r.block > 4096 ? r.block : 4096);
	layout(&r, g, r.block);
	read_ata_bits(t, &r);
	if (r.region > ti->capacity) {
		snprintf(err, errlen,
			 "trim-check: %s is smaller than the %llu bytes the check needs", ti->path,
			 (unsigned long long)r.region);
		return -EOPNOTSUPP;
	}
	chunk = r.region / SLOTS;
	rc = -ENOMEM;
	if (posix_memalign((void **)&buf, 4096, chunk) || !(want = malloc(r.block))) {
		snprintf(err, errlen, "trim-check: out of memory");
		goto out;
	}
	rc = target_queue_open(t, &(struct target_queue_opts){.depth = 1}, &q);
	if (rc) {
		snprintf(err, errlen, "trim-check: %s", target_error(t));
		goto out;
	}
	for (uint64_t off = 0; off < r.region; off += chunk) {
		for (uint64_t i = 0; i < chunk; i += r.block)
			pattern(seed, (off + i) / r.block, buf + i, r.block);
		rc = io1(t, q, IO_WRITE, off, (uint32_t)chunk, buf, NULL, err, errlen);
		if (rc)
			goto out;
	}
	/* the pattern must be on the medium before the discards race with it */
	rc = target_flush(t);
	if (rc && rc != -EOPNOTSUPP) {
		snprintf(err, errlen, "trim-check: flush failed: %s", strerror(-rc));
		goto out;
	}
	read_nvme(t, o, false, &r);
	discard_ranges(t, o, blk, dev, &r);
	read_nvme(t, o, true, &r);
	read_lba_status(t, o, &r);
	rc = verify(t, q, seed, buf, want, chunk, &r, err, errlen);
	if (!rc)
		rc = latency(t, q, buf, n, &r, err, errlen);
	if (!rc)
		*out = r;
out:
	target_queue_close(t, q);
	free(want);
	free(buf);
	return rc;
}

static int add(struct json_object *o, const char *k, struct json_object *v)
{
	return jsonnum_add(o, k, v);
}

/* DLFEAT bits 2:0 in words; NULL for the reserved values. */
static const char *dlfeat_read(uint8_t dlfeat)
{
	switch (dlfeat & NVME_DLFEAT_READ_MASK) {
	case 0:
		return "not reported";
	case NVME_DLFEAT_READ_ZEROES:
		return "zeroes";
	case NVME_DLFEAT_READ_ONES:
		return "ones";
	default:
		return NULL;
	}
}

static int add_nvme(struct json_object *dv, const struct trimcheck_result *r)
{
	const char *rd = dlfeat_read(r->dlfeat);

	if (!r->has_nvme)
		return r->nvme_error[0] ? add(dv, "nvme_error", json_object_new_string(r->nvme_error))
					: 0;
	return add(dv, "nvme_nsze", json_object_new_uint64(r->nsze)) ||
	       add(dv, "nvme_nuse_before", json_object_new_uint64(r->nuse_before)) ||
	       (r->has_nuse_after &&
		add(dv, "nvme_nuse_after", json_object_new_uint64(r->nuse_after))) ||
	       (!r->has_nuse_after && r->nvme_error[0] &&
		add(dv, "nvme_error", json_object_new_string(r->nvme_error))) ||
	       add(dv, "nvme_dlfeat", json_object_new_int(r->dlfeat)) ||
	       add(dv, "nvme_read_after_deallocate",
		   json_object_new_string(rd ? rd : "reserved value"));
}

static struct json_object *lbas_json(const struct trimcheck_lbas *l)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (l->rc ? add(o, "error", json_object_new_string(l->error))
		  : add(o, "blocks", json_object_new_uint64(l->blocks)) ||
			add(o, "descriptors", json_object_new_uint64(l->descriptors)) ||
			add(o, "commands", json_object_new_uint64(l->commands)) ||
			add(o, "status_bits", json_object_new_int(l->status_or))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* "nvme_get_lba_status": {supported, reason | range_blocks, allocated, unrecoverable} */
static int add_lbas(struct json_object *dv, const struct trimcheck_result *r)
{
	struct json_object *o;

	if (!r->has_lbas)
		return 0;
	o = json_object_new_object();
	if (!o || add(dv, "nvme_get_lba_status", o))
		return -ENOMEM;
	if (!r->lbas_supported)
		return add(o, "supported", json_object_new_boolean(false)) ||
		       add(o, "reason", json_object_new_string(r->lbas_reason));
	return add(o, "supported", json_object_new_boolean(true)) ||
	       add(o, "range_blocks", json_object_new_uint64(r->lbas_range_blocks)) ||
	       add(o, "allocated", lbas_json(&r->lbas_alloc)) ||
	       add(o, "unrecoverable", lbas_json(&r->lbas_unrec));
}

static struct json_object *tri(int v)
{
	return v < 0 ? NULL : json_object_new_boolean(v);
}

struct json_object *trimcheck_to_json(const struct trimcheck_result *r)
{
	struct json_object *o = json_object_new_object(), *bl = json_object_new_object();
	struct json_object *dv = json_object_new_object(), *nb = json_object_new_object();
	struct json_object *rs = json_object_new_array();
	int bad = !o || !bl || !dv || !nb || !rs;

	for (int i = 0; !bad && i < TRIMCHECK_NRANGES; i++) {
		struct json_object *x = json_object_new_object();

		bad |= !x || json_object_array_add(rs, x);
		if (!bad)
			bad |=
			    add(x, "offset", json_object_new_uint64(r->r[i].offset)) ||
			    add(x, "bytes", json_object_new_uint64(r->r[i].len)) ||
			    add(x, "aligned", json_object_new_boolean(r->r[i].aligned)) ||
			    add(x, "result",
				json_object_new_string(r->r[i].rc ? strerror(-r->r[i].rc) : "ok"));
	}
	if (bad)
		goto fail;
	bad |= add(o, "region_bytes", json_object_new_uint64(r->region)) ||
	       add(o, "block_bytes", json_object_new_uint64(r->block)) ||
	       add(o, "granularity_bytes", json_object_new_uint64(r->granularity));
	bad |= add(bl, "supported", json_object_new_boolean(r->supported)) ||
	       (!r->supported && add(bl, "reason", json_object_new_string(r->reason)));
	bad |= json_object_object_add(bl, "ranges", rs);
	rs = NULL;
	if (r->has_limits)
		bad |=
		    add(bl, "discard_max_bytes", json_object_new_uint64(r->discard_max_bytes)) ||
		    add(bl, "discard_granularity", json_object_new_uint64(r->discard_granularity));
	if (r->has_stat)
		bad |= add(bl, "stat_discard_ios", json_object_new_uint64(r->discard_ios)) ||
		       add(bl, "stat_discard_bytes", json_object_new_uint64(r->discard_bytes));
	if (r->drat >= 0)
		bad |= add(dv, "ata_drat", tri(r->drat)) || add(dv, "ata_rzat", tri(r->rzat));
	bad |= add_nvme(dv, r) || add_lbas(dv, r);
	bad |= add(dv, "trimmed_read_zero", json_object_new_uint64(r->trimmed_zero)) ||
	       add(dv, "trimmed_read_pattern", json_object_new_uint64(r->trimmed_pattern)) ||
	       add(dv, "trimmed_read_other", json_object_new_uint64(r->trimmed_other));
	if (r->has_latency)
		bad |= add(dv, "qd1_read_trimmed_ns", json_object_new_uint64(r->lat_trimmed_ns)) ||
		       add(dv, "qd1_read_mapped_ns", json_object_new_uint64(r->lat_mapped_ns));
	bad |= add(nb, "blocks", json_object_new_uint64(r->neighbours)) ||
	       add(nb, "bad", json_object_new_uint64(r->neighbours_bad)) ||
	       add(nb, "intact", json_object_new_boolean(!r->neighbours_bad)) ||
	       (r->neighbours_bad &&
		add(nb, "first_bad_offset", json_object_new_uint64(r->first_bad)));
	if (bad)
		goto fail;
	bad |= json_object_object_add(o, "block_layer", bl);
	bl = NULL;
	bad |= json_object_object_add(o, "device", dv);
	dv = NULL;
	bad |= json_object_object_add(o, "neighbours", nb);
	nb = NULL;
	if (!bad)
		return o;
fail:
	json_object_put(rs);
	json_object_put(bl);
	json_object_put(dv);
	json_object_put(nb);
	json_object_put(o);
	return NULL;
}
