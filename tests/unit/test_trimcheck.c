/* SPDX-License-Identifier: MIT */
/*
 * test_trimcheck: targets/trimcheck.h on a scripted target that keeps its data in memory:
 *   - a discard that zeroes exactly its range: every neighbour intact, the trimmed blocks read
 *     as zeros, the layout's figures as worked out by hand below;
 *   - a discard that also corrupts the block just past each range (the queued-TRIM bug): the
 *     check fails, names the first bad block;
 *   - a target that rejects discard: a result saying so, the neighbours still verified;
 *   - a target that keeps no data, and one too small: -EOPNOTSUPP with a reason;
 *   - an NVMe namespace through a scripted admin table: Identify Namespace (opcode 0x06, CNS 0,
 *     the namespace's nsid) before and after the discards, NUSE falling by the blocks the
 *     script deallocated (387, worked out below), DLFEAT 0x09 (bit 3 + bits 2:0 = 001, zeroes);
 *     a failing Identify is a missing figure with its reason, the check still done;
 *   - Get LBA Status (opcode 0x86) over the three ranges where Identify Controller sets OACS
 *     bit 9: the scripted controller keeps a map of the blocks written and not discarded and
 *     answers ATYPE 02h (allocated) with one descriptor per run of such blocks, ATYPE 11h
 *     (tracked unrecoverable) with none. Ranges in LBAs: A = 256..511, B = 769..898, C = 1153
 *     (offsets / 512 below). A discard honoured in full leaves 0 of the 387 blocks allocated;
 *     a "lazy" drive ignoring the discard smaller than its 4 KiB page leaves C: 1 block, 1
 *     descriptor. A 1.4 controller answering ATYPE 02h with Invalid Field (0x4002): the
 *     allocated figure missing with its reason, 11h still asked. QEMU 7.2's OACS 0x010a (bit 9
 *     clear, reference/qemu-devices.md): not supported, no 0x86 sent. Identify Controller
 *     failing: not supported with that error.
 *
 * Hand-worked layout for 512-byte blocks and no queue limits (a scripted target has no sysfs):
 * granularity 4096 (the fallback), slot S = 64 KiB, region 12 S = 786432 bytes = 1536 blocks;
 * A = [2S, 4S) = 256 blocks, B = [6S + 512, 7S + 1536) = 130 blocks, C = 1 block: 387 trimmed,
 * 1536 - 387 = 1149 neighbours; A ends at 4S = 262144, the first block the corruption hits.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "host/nvme_ident.h"
#include "targets/trimcheck.h"

enum mem_mode { MEM_OK, MEM_CORRUPT, MEM_NODISCARD, MEM_LAZY };

#define MEM_BLOCKS 2048 /* 1 MiB of 512-byte blocks */

struct mem {
	unsigned char *data;
	uint64_t size;
	enum mem_mode mode;
	uint64_t now;
	unsigned discards;
	uint64_t discarded; /* bytes, for the scripted NUSE */
	bool mapped[MEM_BLOCKS]; /* written and not discarded, for the scripted Get LBA Status */
};

struct target_queue {
	struct target *t;
	struct target_completion c;
	bool has;
};

static int m_open(struct target *t, const char *spec, const struct target_open_opts *o)
{
	struct target_info *ti = target_info_mut(t);

	(void)o;
	ti->kind = TARGET_KIND_FILE;
	ti->logical_block_size = 512;
	snprintf(ti->path, sizeof(ti->path), "%s", spec);
	return 0;
}

static void m_close(struct target *t)
{
	(void)t;
}

static int m_queue_open(struct target *t, const struct target_queue_opts *o,
			struct target_queue **q)
{
	(void)o;
	*q = calloc(1, sizeof(**q));
	if (!*q)
		return -ENOMEM;
	(*q)->t = t;
	return 0;
}

static void m_queue_close(struct target_queue *q)
{
	free(q);
}

static int m_submit(struct target_queue *q, struct target_io *ios, unsigned n)
{
	struct mem *m = target_priv(q->t);

	assert_int_equal(n, 1);
	if (ios->offset + ios->len > m->size)
		return -EINVAL;
	if (ios->dir == IO_WRITE) {
		memcpy(m->data + ios->offset, ios->buf, ios->len);
		for (uint64_t b = ios->offset / 512; b < (ios->offset + ios->len) / 512; b++)
			m->mapped[b] = true;
	} else
		memcpy(ios->buf, m->data + ios->offset, ios->len);
	m->now += 1000;
	q->c = (struct target_completion){
	    .user = ios->user, .res = (int32_t)ios->len, .done_ns = m->now};
	q->has = true;
	return 1;
}

static int m_reap(struct target_queue *q, struct target_completion *c, unsigned min, unsigned max)
{
	(void)min;
	(void)max;
	assert_true(q->has);
	*c = q->c;
	q->has = false;
	return 1;
}

static uint64_t m_now(struct target *t)
{
	return ((struct mem *)target_priv(t))->now;
}

static int m_discard(struct target *t, uint64_t off, uint64_t len)
{
	struct mem *m = target_priv(t);

	m->discards++;
	if (m->mode == MEM_NODISCARD)
		return -EOPNOTSUPP;
	if (m->mode == MEM_LAZY && len < 4096) /* smaller than the page it maps by: dropped */
		return 0;
	memset(m->data + off, 0, len);
	m->discarded += len;
	for (uint64_t b = off / 512; b < (off + len) / 512; b++)
		m->mapped[b] = false;
	if (m->mode == MEM_CORRUPT && off + len < m->size)
		m->data[off + len + 7] ^= 0x40; /* one bit of the next block */
	return 0;
}

#define MEM_HOOKS                                                                                  \
	.open = m_open, .close = m_close, .queue_open = m_queue_open,                              \
	.queue_close = m_queue_close, .submit = m_submit, .reap = m_reap, .now = m_now,            \
	.discard = m_discard
static const struct target_ops mem_ops = {
    .name = "mem", .caps = TARGET_CAP_NEEDS_DATA | TARGET_CAP_DISCARD, MEM_HOOKS};
static const struct target_ops nodata_ops = {.name = "nodata", MEM_HOOKS};

static struct target *open_mem(const struct target_ops *ops, struct mem *m, uint64_t size,
			       enum mem_mode mode)
{
	struct target *t = NULL;
	char err[256];

	m->data = calloc(1, size);
	assert_non_null(m->data);
	m->size = size;
	m->mode = mode;
	assert_int_equal(target_open_ops(ops, "mem:", NULL, &t, err, sizeof(err)), 0);
	target_set_priv(t, m);
	target_info_mut(t)->capacity = size;
	return t;
}

static void run_mode(enum mem_mode mode, struct trimcheck_result *r)
{
	struct mem m = {0};
	struct target *t = open_mem(&mem_ops, &m, 1u << 20, mode);
	char err[256] = "";

	assert_int_equal(trimcheck_run(t, &(struct trimcheck_opts){.seed = 5}, r, err, sizeof(err)),
			 0);
	assert_int_equal(m.discards, TRIMCHECK_NRANGES);
	target_close(t);
	free(m.data);
}

static void test_layout_and_intact(void **state)
{
	struct trimcheck_result r;

	(void)state;
	run_mode(MEM_OK, &r);
	assert_int_equal(r.block, 512);
	assert_int_equal(r.granularity, 4096);
	assert_int_equal(r.region, 786432);
	assert_int_equal(r.r[0].offset, 131072);
	assert_int_equal(r.r[0].len, 131072);
	assert_true(r.r[0].aligned);
	assert_int_equal(r.r[1].offset, 393728);
	assert_int_equal(r.r[1].len, 66560);
	assert_false(r.r[1].aligned);
	assert_int_equal(r.r[2].offset, 590336);
	assert_int_equal(r.r[2].len, 512);
	assert_false(r.r[2].aligned);
	assert_true(r.supported);
	assert_false(r.has_limits);
	assert_false(r.has_stat);
	assert_int_equal(r.drat, -1);
	assert_int_equal(r.neighbours, 1149);
	assert_int_equal(r.neighbours_bad, 0);
	assert_int_equal(r.trimmed_zero, 387);
	assert_int_equal(r.trimmed_pattern, 0);
	assert_int_equal(r.trimmed_other, 0);
	assert_true(r.has_latency);
	assert_int_equal(r.lat_trimmed_ns, 1000); /* the scripted clock: 1 us an I/O */
	assert_int_equal(r.lat_mapped_ns, 1000);
}

static void test_corrupt_neighbour(void **state)
{
	struct trimcheck_result r;

	(void)state;
	run_mode(MEM_CORRUPT, &r);
	assert_true(r.supported);
	assert_int_equal(r.neighbours, 1149);
	assert_int_equal(r.neighbours_bad, 3); /* the block past each of the 3 ranges */
	assert_int_equal(r.first_bad, 262144);
}

static void test_no_discard(void **state)
{
	struct trimcheck_result r;
	struct json_object *o, *bl, *x;

	(void)state;
	run_mode(MEM_NODISCARD, &r);
	assert_false(r.supported);
	assert_string_equal(r.reason, "the device does not support discard");
	assert_int_equal(r.neighbours_bad, 0);
	assert_int_equal(r.trimmed_pattern, 387); /* nothing was discarded */
	o = trimcheck_to_json(&r);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "block_layer", &bl));
	assert_true(json_object_object_get_ex(bl, "supported", &x));
	assert_false(json_object_get_boolean(x));
	assert_true(json_object_object_get_ex(bl, "reason", &x));
	assert_true(json_object_object_get_ex(o, "neighbours", &bl));
	assert_true(json_object_object_get_ex(bl, "intact", &x));
	assert_true(json_object_get_boolean(x));
	json_object_put(o);
}

static void test_refusals(void **state)
{
	struct trimcheck_result r = {.region = 99};
	struct mem m = {0}, m2 = {0};
	struct target *t = open_mem(&nodata_ops, &m, 1u << 20, MEM_OK);
	char err[256] = "";

	(void)state;
	assert_int_equal(trimcheck_run(t, &(struct trimcheck_opts){0}, &r, err, sizeof(err)),
			 -EOPNOTSUPP);
	assert_non_null(strstr(err, "keeps no data"));
	assert_int_equal(r.region, 99); /* untouched */
	target_close(t);
	free(m.data);
	t = open_mem(&mem_ops, &m2, 512u << 10, MEM_OK);
	assert_int_equal(trimcheck_run(t, &(struct trimcheck_opts){0}, &r, err, sizeof(err)),
			 -EOPNOTSUPP);
	assert_non_null(strstr(err, "786432"));
	assert_int_equal(m2.discards, 0);
	target_close(t);
	free(m2.data);
}

/* The scripted controller: NSZE 2048 blocks, NUSE 2048 less what was discarded, DLFEAT 0x09;
 * Identify Controller with OACS oacs; Get LBA Status from the target's map. */
struct script {
	struct mem *m;
	unsigned calls, lbas_calls;
	int status;	  /* nonzero: every Identify Namespace fails with it */
	int ctrl_status;  /* nonzero: Identify Controller fails with it */
	int alloc_status; /* nonzero: Get LBA Status ATYPE 02h fails with it */
	uint16_t oacs;
};

static void le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Get LBA Status (NVM Command Set 1.0 Figures 107-112): ATYPE 02h, one descriptor per run of
 * mapped blocks in [SLBA, SLBA + RL); ATYPE 11h, none (nothing unreadable here). */
static int s_lba_status(struct script *s, struct nvme_admin_cmd *cmd)
{
	uint8_t *p = (uint8_t *)(uintptr_t)cmd->addr, atype = (uint8_t)(cmd->cdw13 >> 24);
	uint64_t slba = cmd->cdw10 | (uint64_t)cmd->cdw11 << 32, end = slba + (cmd->cdw13 & 0xffff);
	uint32_t n = 0;

	s->lbas_calls++;
	assert_int_equal(cmd->nsid, 3);
	assert_int_equal(cmd->cdw12, cmd->data_len / 4 - 1); /* MNDW, 0's based */
	assert_true(end <= MEM_BLOCKS);
	if (atype == 0x02 && s->alloc_status)
		return s->alloc_status;
	memset(p, 0, cmd->data_len);
	assert_true(atype == 0x02 || atype == 0x11);
	for (uint64_t b = slba; atype == 0x02 && b < end; b++) {
		uint64_t e = b;

		if (!s->m->mapped[b])
			continue;
		while (e < end && s->m->mapped[e])
			e++;
		assert_true(8 + 16 * (n + 1) <= cmd->data_len);
		le64(p + 8 + 16 * n, b);		     /* DSLBA */
		le64(p + 8 + 16 * n + 8, e - b - 1); /* NLB, 0's based (4 bytes; the rest 0) */
		n++;
		b = e;
	}
	p[0] = (uint8_t)n; /* NLSD (fewer than 256 here) */
	p[4] = 2;	   /* CMPC: the whole range examined */
	return 0;
}

static int s_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct script *s = ctx;
	uint8_t *page = (uint8_t *)(uintptr_t)cmd->addr;

	(void)fd;
	s->calls++;
	if (cmd->opcode == 0x86)
		return s_lba_status(s, cmd);
	assert_int_equal(cmd->opcode, 0x06);
	assert_int_equal(cmd->data_len, 4096);
	if (cmd->cdw10 == 0x01) { /* CNS 1: Identify Controller */
		if (s->ctrl_status)
			return s->ctrl_status;
		memset(page, 0, 4096);
		page[256] = (uint8_t)s->oacs; /* OACS, bytes 257:256 */
		page[257] = (uint8_t)(s->oacs >> 8);
		return 0;
	}
	assert_int_equal(cmd->cdw10, 0x00); /* CNS 0: Identify Namespace */
	assert_int_equal(cmd->nsid, 3);
	if (s->status)
		return s->status;
	memset(page, 0, 4096);
	le64(page, 2048);			      /* NSZE */
	le64(page + 8, 2048);			      /* NCAP */
	le64(page + 16, 2048 - s->m->discarded / 512); /* NUSE */
	page[33] = 0x09;			      /* DLFEAT */
	return 0;
}

static struct json_object *dev_of(struct json_object *o)
{
	struct json_object *dv = NULL;

	assert_true(json_object_object_get_ex(o, "device", &dv));
	return dv;
}

static void run_nvme_mode(struct script *sc, enum mem_mode mode, struct trimcheck_result *r)
{
	struct mem m = {0};
	struct target *t = open_mem(&mem_ops, &m, 1u << 20, mode);
	struct ioctl_ops ops = {.admin = s_admin, .ctx = sc};
	struct target_info *ti = target_info_mut(t);
	char err[256] = "";

	sc->m = &m;
	/* any node opens for the admin fd; the script answers in its place */
	snprintf(ti->path, sizeof(ti->path), "/dev/null");
	snprintf(ti->nvme.ns, sizeof(ti->nvme.ns), "nvme0n3");
	ti->nvme.nsid = 3;
	assert_int_equal(trimcheck_run(t, &(struct trimcheck_opts){.seed = 5, .ops = &ops}, r, err,
				       sizeof(err)),
			 0);
	target_close(t);
	free(m.data);
}

static void run_nvme(struct script *sc, struct trimcheck_result *r)
{
	run_nvme_mode(sc, MEM_OK, r);
}

static void test_nvme_evidence(void **state)
{
	struct script sc = {.oacs = 0x0200};
	struct trimcheck_result r;
	struct json_object *o, *dv, *x;

	(void)state;
	run_nvme(&sc, &r);
	assert_int_equal(sc.calls, 2 + 1 + 6); /* 2 Identify NS, Identify Controller, 2 x 3 ranges */
	assert_true(r.has_nvme);
	assert_true(r.has_nuse_after);
	assert_int_equal(r.nsze, 2048);
	assert_int_equal(r.nuse_before, 2048);
	assert_int_equal(r.nuse_after, 2048 - 387);
	assert_int_equal(r.dlfeat, 0x09);
	assert_int_equal(r.neighbours_bad, 0);
	o = trimcheck_to_json(&r);
	assert_non_null(o);
	dv = dev_of(o);
	assert_true(json_object_object_get_ex(dv, "nvme_nuse_after", &x));
	assert_int_equal(json_object_get_int64(x), 1661);
	assert_true(json_object_object_get_ex(dv, "nvme_dlfeat", &x));
	assert_int_equal(json_object_get_int(x), 9);
	assert_true(json_object_object_get_ex(dv, "nvme_read_after_deallocate", &x));
	assert_string_equal(json_object_get_string(x), "zeroes");
	assert_false(json_object_object_get_ex(dv, "nvme_error", &x));
	/* Get LBA Status: every discarded block deallocated, none unrecoverable */
	assert_int_equal(sc.lbas_calls, 6);
	assert_true(r.has_lbas);
	assert_true(r.lbas_supported);
	assert_int_equal(r.lbas_range_blocks, 387);
	assert_int_equal(r.lbas_alloc.rc, 0);
	assert_int_equal(r.lbas_alloc.blocks, 0);
	assert_int_equal(r.lbas_alloc.descriptors, 0);
	assert_int_equal(r.lbas_alloc.commands, 3);
	assert_int_equal(r.lbas_unrec.rc, 0);
	assert_int_equal(r.lbas_unrec.blocks, 0);
	assert_true(json_object_object_get_ex(dv, "nvme_get_lba_status", &x));
	assert_string_equal(json_object_to_json_string_ext(x, JSON_C_TO_STRING_PLAIN),
			    "{\"supported\":true,\"range_blocks\":387,"
			    "\"allocated\":{\"blocks\":0,\"descriptors\":0,\"commands\":3,"
			    "\"status_bits\":0},"
			    "\"unrecoverable\":{\"blocks\":0,\"descriptors\":0,\"commands\":3,"
			    "\"status_bits\":0}}");
	json_object_put(o);
}

/* A drive that drops a discard smaller than its page: range C (LBA 1153) still allocated, and
 * read back as the old data. */
static void test_lba_status_lazy(void **state)
{
	struct script sc = {.oacs = 0x0200};
	struct trimcheck_result r;

	(void)state;
	run_nvme_mode(&sc, MEM_LAZY, &r);
	assert_true(r.lbas_supported);
	assert_int_equal(r.lbas_alloc.blocks, 1);
	assert_int_equal(r.lbas_alloc.descriptors, 1);
	assert_int_equal(r.trimmed_pattern, 1);
	assert_int_equal(r.nuse_after, 2048 - 386);
	assert_int_equal(r.neighbours_bad, 0);
}

/* A 1.4 controller: ATYPE 02h is Invalid Field; 11h still answers. */
static void test_lba_status_no_allocated(void **state)
{
	struct script sc = {.oacs = 0x0200, .alloc_status = 0x4002};
	struct trimcheck_result r;
	struct json_object *o, *g, *a, *x;

	(void)state;
	run_nvme(&sc, &r);
	assert_true(r.lbas_supported);
	assert_int_equal(r.lbas_alloc.rc, -EOPNOTSUPP);
	assert_non_null(strstr(r.lbas_alloc.error, "ATYPE 02h"));
	assert_non_null(strstr(r.lbas_alloc.error, "Invalid Field"));
	assert_int_equal(r.lbas_unrec.rc, 0);
	assert_int_equal(r.lbas_unrec.commands, 3);
	assert_int_equal(sc.lbas_calls, 1 + 3); /* the first failure stops 02h */
	o = trimcheck_to_json(&r);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(dev_of(o), "nvme_get_lba_status", &g));
	assert_true(json_object_object_get_ex(g, "allocated", &a));
	assert_true(json_object_object_get_ex(a, "error", &x));
	assert_false(json_object_object_get_ex(a, "blocks", &x));
	json_object_put(o);
}

/* QEMU 7.2's controller (OACS 0x010a, bit 9 clear), and one whose Identify Controller fails:
 * not supported, with the reason; no Get LBA Status sent. */
static void test_lba_status_unsupported(void **state)
{
	static const struct {
		uint16_t oacs;
		int ctrl_status;
		const char *reason;
	} cases[] = {
	    {0x010a, 0, "Get LBA Status (Identify Controller OACS 0x010a, bit 9 clear)"},
	    {0x0200, 0x0006, "Identify Controller: NVMe status 0x6"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct script sc = {.oacs = cases[i].oacs, .ctrl_status = cases[i].ctrl_status};
		struct trimcheck_result r;
		struct json_object *o, *g, *x;

		run_nvme(&sc, &r);
		assert_int_equal(sc.lbas_calls, 0);
		assert_true(r.has_lbas);
		assert_false(r.lbas_supported);
		assert_non_null(strstr(r.lbas_reason, cases[i].reason));
		assert_int_equal(r.neighbours_bad, 0);
		o = trimcheck_to_json(&r);
		assert_non_null(o);
		assert_true(json_object_object_get_ex(dev_of(o), "nvme_get_lba_status", &g));
		assert_true(json_object_object_get_ex(g, "supported", &x));
		assert_false(json_object_get_boolean(x));
		assert_true(json_object_object_get_ex(g, "reason", &x));
		assert_false(json_object_object_get_ex(g, "allocated", &x));
		json_object_put(o);
	}
}

static void test_nvme_identify_fails(void **state)
{
	struct script sc = {.status = 0x4002, .oacs = 0x0200}; /* Invalid Field in Command, DNR */
	struct trimcheck_result r;
	struct json_object *o, *dv, *x;

	(void)state;
	run_nvme(&sc, &r);
	assert_int_equal(sc.calls - sc.lbas_calls, 2); /* no second NUSE read; Identify Controller */
	assert_false(r.has_nvme);
	assert_true(r.supported);
	assert_int_equal(r.neighbours, 1149);
	o = trimcheck_to_json(&r);
	assert_non_null(o);
	dv = dev_of(o);
	assert_false(json_object_object_get_ex(dv, "nvme_nuse_before", &x));
	assert_true(json_object_object_get_ex(dv, "nvme_error", &x));
	assert_non_null(strstr(json_object_get_string(x), "Identify Namespace"));
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_layout_and_intact),
	    cmocka_unit_test(test_corrupt_neighbour),
	    cmocka_unit_test(test_no_discard),
	    cmocka_unit_test(test_refusals),
	    cmocka_unit_test(test_nvme_evidence),
	    cmocka_unit_test(test_nvme_identify_fails),
	    cmocka_unit_test(test_lba_status_lazy),
	    cmocka_unit_test(test_lba_status_no_allocated),
	    cmocka_unit_test(test_lba_status_unsupported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
