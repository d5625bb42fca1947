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
 *     a failing Identify is a missing figure with its reason, the check still done.
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

enum mem_mode { MEM_OK, MEM_CORRUPT, MEM_NODISCARD };

struct mem {
	unsigned char *data;
	uint64_t size;
	enum mem_mode mode;
	uint64_t now;
	unsigned discards;
	uint64_t discarded; /* bytes, for the scripted NUSE */
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
	if (ios->dir == IO_WRITE)
		memcpy(m->data + ios->offset, ios->buf, ios->len);
	else
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
	memset(m->data + off, 0, len);
	m->discarded += len;
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

/* The scripted controller: NSZE 2048 blocks, NUSE 2048 less what was discarded, DLFEAT 0x09. */
struct script {
	struct mem *m;
	unsigned calls;
	int status; /* nonzero: every command fails with it */
};

static void le64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int s_admin(void *ctx, int fd, struct nvme_admin_cmd *cmd)
{
	struct script *s = ctx;
	uint8_t *page = (uint8_t *)(uintptr_t)cmd->addr;

	(void)fd;
	s->calls++;
	assert_int_equal(cmd->opcode, 0x06);
	assert_int_equal(cmd->cdw10, 0x00); /* CNS 0: Identify Namespace */
	assert_int_equal(cmd->nsid, 3);
	assert_int_equal(cmd->data_len, 4096);
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

static void run_nvme(struct script *sc, struct trimcheck_result *r)
{
	struct mem m = {0};
	struct target *t = open_mem(&mem_ops, &m, 1u << 20, MEM_OK);
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

static void test_nvme_evidence(void **state)
{
	struct script sc = {0};
	struct trimcheck_result r;
	struct json_object *o, *dv, *x;

	(void)state;
	run_nvme(&sc, &r);
	assert_int_equal(sc.calls, 2);
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
	json_object_put(o);
}

static void test_nvme_identify_fails(void **state)
{
	struct script sc = {.status = 0x4002}; /* Invalid Field in Command, DNR */
	struct trimcheck_result r;
	struct json_object *o, *dv, *x;

	(void)state;
	run_nvme(&sc, &r);
	assert_int_equal(sc.calls, 1); /* no second read without the first */
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
