// SPDX-License-Identifier: MIT
/*
 * purge_chain: the table of purge methods and the auto chain (see purge_chain.h).
 */
#include "targets/purge_chain.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "base/jsonnum.h"

static int need_sata(const struct purge_facts *f, char *why, size_t len)
{
	if (f->transport != DRIVEDB_ATA) {
		snprintf(why, len, "not a SATA drive");
		return -EOPNOTSUPP;
	}
	if (!f->ata_known) {
		snprintf(why, len, "the drive did not answer IDENTIFY DEVICE");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int ata_op(const struct purge_facts *f, enum ata_purge_op op, char *why, size_t len)
{
	int ret = need_sata(f, why, len);
	return ret ? ret : ata_purge_check(&f->ata, f->link, op, why, len);
}

static int use_ata_sanitize_block(const struct purge_facts *f, bool in_auto, char *why, size_t len)
{
	(void)in_auto;
	return ata_op(f, ATA_PURGE_SANITIZE_BLOCK, why, len);
}

static int use_ata_sanitize_crypto(const struct purge_facts *f, bool in_auto, char *why, size_t len)
{
	(void)in_auto;
	return ata_op(f, ATA_PURGE_SANITIZE_CRYPTO, why, len);
}

static int use_ata_security_erase(const struct purge_facts *f, bool in_auto, char *why, size_t len)
{
	int ret = ata_op(f, ATA_PURGE_SECURITY_ERASE, why, len);

	/* The normal erase need only write the user LBAs (ACS-3 7.49.1), leaving spare blocks as
	 * they were: the auto chain takes the enhanced one only; asked for by name, either. */
	if (!ret && in_auto && !f->ata.enhanced_erase) {
		snprintf(why, len,
			 "the drive offers only the normal SECURITY ERASE (IDENTIFY word 128 bit "
			 "5 clear), which need not erase the spare area");
		return -EOPNOTSUPP;
	}
	return ret;
}

static int need_nvme(const struct purge_facts *f, char *why, size_t len)
{
	if (f->transport != DRIVEDB_NVME) {
		snprintf(why, len, "not an NVMe drive");
		return -EOPNOTSUPP;
	}
	if (!f->nvme_known) {
		snprintf(why, len, "the controller did not answer Identify Controller");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int use_nvme_sanitize(const struct purge_facts *f, bool in_auto, char *why, size_t len)
{
	int ret = need_nvme(f, why, len);

	(void)in_auto;
	if (!ret && !f->nvme_sanitize_block) {
		snprintf(why, len, "the controller has no block erase sanitize (SANICAP bit 1)");
		ret = -EOPNOTSUPP;
	}
	return ret;
}

static int use_nvme_format(const struct purge_facts *f, bool in_auto, char *why, size_t len)
{
	int ret = need_nvme(f, why, len);

	(void)in_auto;
	if (!ret && !f->nvme_format) {
		snprintf(why, len, "the controller has no Format NVM (OACS bit 1)");
		ret = -EOPNOTSUPP;
	}
	return ret;
}

static int use_discard(const struct purge_facts *f, bool in_auto, char *why, size_t len)
{
	(void)in_auto;
	if (!f->discard) {
		snprintf(why, len, "the device takes no discard");
		return -EOPNOTSUPP;
	}
	return 0;
}

/* The auto chain's order (issue 13 point 4): block-erase sanitize, then NVMe format with
 * user-data erase, then ATA enhanced erase, then discard. Rows not in auto anywhere. */
static const struct purge_row rows[] = {
    {.method = "ata-sanitize-block",
     .in_auto = true,
     .pts_purge = true,
     .usable = use_ata_sanitize_block},
    {.method = "nvme-sanitize", .in_auto = true, .pts_purge = true, .usable = use_nvme_sanitize},
    {.method = "nvme-format", .in_auto = true, .pts_purge = true, .usable = use_nvme_format},
    {.method = "ata-security-erase",
     .in_auto = true,
     .pts_purge = true,
     .usable = use_ata_security_erase},
    {.method = "discard", .in_auto = true, .pts_purge = false, .usable = use_discard},
    /* a crypto scramble changes the key, not the mapping: a discard follows */
    {.method = "ata-sanitize-crypto",
     .pts_purge = true,
     .discard_after = true,
     .usable = use_ata_sanitize_crypto},
};
_Static_assert(sizeof rows / sizeof rows[0] <= PURGE_CHAIN_MAX, "purge_choice.skipped holds them");

const struct purge_row *purge_chain_rows(size_t *n)
{
	*n = sizeof rows / sizeof rows[0];
	return rows;
}

const struct purge_row *purge_chain_find(const char *method)
{
	for (size_t i = 0; method && i < sizeof rows / sizeof rows[0]; i++)
		if (!strcmp(rows[i].method, method))
			return &rows[i];
	return NULL;
}

int purge_chain_choose(const struct purge_facts *f, const char *method, struct purge_choice *out)
{
	const struct purge_row *r;
	int ret;

	memset(out, 0, sizeof *out);
	if (method && strcmp(method, "auto")) {
		r = purge_chain_find(method);
		if (!r) {
			snprintf(out->why, sizeof out->why, "unknown purge method '%s'", method);
			return -EINVAL;
		}
		ret = r->usable(f, false, out->why, sizeof out->why);
		if (!ret)
			out->row = r;
		return ret;
	}
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct purge_skip *s = &out->skipped[out->nskipped];
		if (!rows[i].in_auto)
			continue;
		if (!rows[i].usable(f, true, s->why, sizeof s->why)) {
			out->row = &rows[i];
			return 0;
		}
		s->method = rows[i].method;
		out->nskipped++;
	}
	snprintf(out->why, sizeof out->why, "no purge method works on this drive");
	return -EOPNOTSUPP;
}

int purge_chain_record(const struct purge_choice *c, const char *requested, struct json_object *rec)
{
	struct json_object *skipped = json_object_new_array();
	int ret = skipped ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < c->nskipped; i++) {
		struct json_object *s = json_object_new_object();
		ret = s ? 0 : -ENOMEM;
		if (!ret)
			ret =
			    jsonnum_add(s, "method", json_object_new_string(c->skipped[i].method));
		if (!ret)
			ret = jsonnum_add(s, "why", json_object_new_string(c->skipped[i].why));
		if (ret)
			json_object_put(s);
		else
			ret = jsonnum_push(skipped, s);
	}
	if (ret) {
		json_object_put(skipped);
		return ret;
	}
	ret = jsonnum_add(rec, "skipped", skipped);
	if (!ret)
		ret = jsonnum_add(rec, "requested",
				  json_object_new_string(requested ? requested : "auto"));
	if (!ret && c->row)
		ret = jsonnum_add(rec, "method", json_object_new_string(c->row->method));
	if (!ret && c->row)
		ret = jsonnum_add(rec, "pts_purge", json_object_new_boolean(c->row->pts_purge));
	if (!ret && c->row)
		ret = jsonnum_add(rec, "discard_after",
				  json_object_new_boolean(c->row->discard_after));
	return ret;
}
