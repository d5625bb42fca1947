/* SPDX-License-Identifier: MIT */
/*
 * phases_registry: the registry of phase kinds (phases.h, "the phase registry"): the table
 * `kinds[]`, its lookups, the parsing of phase lists (which dispatches on it) and the repeat
 * kind, whose body is such a list. The other kinds' rows are in phases.c and phases_rounds.c
 * (declared in phases.h); they and this file use the shared helpers of phases_common.c, which
 * references neither, so the references run one way: registry -> kinds -> common.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "profile/phases.h"

/* ---- repeat --------------------------------------------------------------------------------- */

struct repeat_raw {
	unsigned count;
	const struct ydoc_node *phases;
};

/* clang-format off */
static const struct ydoc_key repeat_keys[] = {
	{.name = "count", .kind = YK_UINT, .required = true,
	 .offset = offsetof(struct repeat_raw, count), .bounded = true, .min = 1, .max = PHASE_MAX_ROUNDS},
	{.name = "phases", .kind = YK_ANY, .required = true,
	 .offset = offsetof(struct repeat_raw, phases)},
	{0},
};
/* clang-format on */

static int repeat_parse(const struct ydoc_node *n, void *data, const struct phase_parse_ctx *ctx,
			struct ydoc_error *err)
{
	struct phase_repeat *p = data;
	struct repeat_raw raw = {0};
	struct phase_parse_ctx inner = *ctx;
	int ret = ydoc_map_read(n, "repeat", repeat_keys, &raw, NULL, err);

	if (ret)
		return ret;
	if (ctx->depth + 1 >= PROFILE_MAX_DEPTH)
		return ydoc_errorf(err, n, "repeat nested more than %d deep",
				   PROFILE_MAX_DEPTH - 1);
	inner.depth = ctx->depth + 1;
	ret = profile_parse_phase_list(raw.phases, "repeat.phases", &inner, &p->phases, err);
	if (ret)
		return ret;
	p->count = raw.count;
	return 0;
}

static void repeat_release(void *data)
{
	phase_list_release(&((struct phase_repeat *)data)->phases);
}

static bool repeat_destructive(const void *data)
{
	const struct phase_repeat *p = data;

	for (size_t i = 0; i < p->phases.n; i++) {
		const struct profile_phase *ph = &p->phases.v[i];

		if (ph->kind->destructive && ph->kind->destructive(ph->data))
			return true;
	}
	return false;
}

static struct json_object *repeat_json(const void *data)
{
	const struct phase_repeat *p = data;
	struct json_object *o = json_object_new_object();
	bool bad = false;

	if (!o)
		return NULL;
	bad |= phase_json_add(o, "count", json_object_new_int((int)p->count));
	bad |= phase_json_add(o, "phases", profile_phase_list_to_json(&p->phases));
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void repeat_describe(const void *data, char *buf, size_t len)
{
	const struct phase_repeat *p = data;

	snprintf(buf, len, "repeat %u time%s", p->count, p->count == 1 ? "" : "s");
}

static int repeat_bytes(const void *data, uint64_t capacity, uint64_t *bytes)
{
	const struct phase_repeat *p = data;
	uint64_t b = 0;
	int ret = profile_phase_list_bytes(&p->phases, capacity, &b);

	if (ret && ret != -ENODATA)
		return ret;
	*bytes = b > UINT64_MAX / p->count ? UINT64_MAX : b * p->count;
	return ret;
}

static const struct phase_list *repeat_body(const void *data, unsigned *count)
{
	const struct phase_repeat *p = data;

	*count = p->count;
	return &p->phases;
}

/* ---- the registry --------------------------------------------------------------------------- */

/* clang-format off */
static const struct phase_kind repeat_kind = {
	.name = "repeat",
	.type = PHASE_REPEAT,
	.size = sizeof(struct phase_repeat),
	.parse = repeat_parse,
	.release = repeat_release,
	.destructive = repeat_destructive,
	.to_json = repeat_json,
	.describe = repeat_describe,
	.bytes = repeat_bytes,
	.body = repeat_body,
};

/* The registry, in the order phase_kind_at() gives the kinds. */
static const struct phase_kind *const kinds[] = {
	&phase_purge_kind, &phase_precondition_kind, &phase_write_until_kind, &phase_rounds_kind,
	&phase_idle_kind, &phase_trim_kind, &repeat_kind, &phase_idle_sweep_kind,
	&phase_trim_check_kind,
	&phase_surface_kind,
	&phase_variants_kind,
	&phase_dirth_points_kind,
	&phase_bursts_kind,
};
/* clang-format on */

const struct phase_kind *phase_kind_find(const char *name)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i]->name, name))
			return kinds[i];
	return NULL;
}

const struct phase_kind *phase_kind_at(size_t i)
{
	return i < sizeof(kinds) / sizeof(kinds[0]) ? kinds[i] : NULL;
}

/* ---- phase lists ---------------------------------------------------------------------------- */

static const char *kind_names(char *buf, size_t len)
{
	const struct phase_kind *k;
	size_t l = 0;

	buf[0] = '\0';
	for (size_t i = 0; (k = phase_kind_at(i)); i++) {
		l += (size_t)snprintf(buf + l, len - l, "%s%s", i ? ", " : "", k->name);
		if (l >= len)
			break;
	}
	return buf;
}

static int parse_phase(const struct ydoc_node *item, const struct phase_parse_ctx *pctx,
		       struct profile_phase *out, struct ydoc_error *err)
{
	const struct phase_kind *k;
	const struct ydoc_node *kn, *settings;
	struct ydoc_node none;
	char g[64], names_text[256], empty[1] = "";
	const struct ydoc_node *cooldown = NULL;
	struct profile_cooldown cd = {0};
	void *data;
	int ret;

	if (item->type != YDOC_MAPPING || item->n == 0) {
		if (item->type == YDOC_SCALAR && (k = phase_kind_find(item->text)))
			kn = item; /* "- purge" alone: a kind with its defaults */
		else
			return ydoc_errorf(err, item,
					   "expected a phase such as '- idle: {time: 5m}', got %s",
					   item->type == YDOC_SCALAR && *item->text
					       ? (snprintf(g, sizeof(g), "'%.40s'", item->text), g)
					       : ydoc_type_name(item->type));
	} else {
		/* one key, its kind, and optionally its cool-down gate beside it */
		for (size_t i = 1; i < item->n; i++) {
			const struct ydoc_node *key = item->pairs[i].key;

			if (strcmp(key->text, "cooldown") || i > 1)
				return ydoc_errorf(err, key,
						   "a phase has exactly one key, its kind ('%s'); indent "
						   "'%s' under it",
						   item->pairs[0].key->text, key->text);
			cooldown = item->pairs[i].value;
		}
		kn = item->pairs[0].key;
		k = phase_kind_find(kn->text);
	}
	if (!k) {
		const char *names[32];
		const char *near;
		size_t i;

		for (i = 0; i < 31 && phase_kind_at(i); i++)
			names[i] = phase_kind_at(i)->name;
		names[i] = NULL;
		near = ydoc_nearest(kn->text, names);
		if (near)
			return ydoc_errorf(err, kn, "unknown phase kind '%s' (did you mean '%s'?)",
					   kn->text, near);
		return ydoc_errorf(err, kn, "unknown phase kind '%s' (expected one of: %s)",
				   kn->text, kind_names(names_text, sizeof(names_text)));
	}
	if (kn == item) {
		/* "- purge" reads like "- purge:" (no settings): hand the kind a null value. */
		none = (struct ydoc_node){.type = YDOC_SCALAR,
					  .line = item->line,
					  .col = item->col,
					  .file = item->file,
					  .text = empty};
		settings = &none;
	} else {
		settings = item->pairs[0].value;
	}
	if (cooldown && k->body)
		return ydoc_errorf(err, item->pairs[1].key,
				   "'cooldown' applies to the phases inside %s: give it to them",
				   k->name);
	if (cooldown && (ret = profile_cooldown_parse(cooldown, &cd, err)))
		return ret;
	data = calloc(1, k->size ? k->size : 1);
	if (!data)
		return -ENOMEM;
	ret = k->parse(settings, data, pctx, err);
	if (ret) {
		if (k->release)
			k->release(data);
		free(data);
		return ret;
	}
	out->kind = k;
	out->data = data;
	out->line = item->line;
	out->col = item->col;
	out->cooldown = cd;
	return 0;
}

int profile_parse_phase_list(const struct ydoc_node *seq, const char *ctx,
			     const struct phase_parse_ctx *pctx, struct phase_list *out,
			     struct ydoc_error *err)
{
	struct phase_list l = {0};
	char g[64];
	int ret;

	if (seq->type != YDOC_SEQUENCE) {
		if (seq->type == YDOC_SCALAR && !seq->quoted && !*seq->text)
			snprintf(g, sizeof(g), "nothing");
		else if (seq->type == YDOC_SCALAR)
			snprintf(g, sizeof(g), "'%.40s'", seq->text);
		else
			snprintf(g, sizeof(g), "%s", ydoc_type_name(seq->type));
		return ydoc_errorf(
		    err, seq, "expected a list of phases for %s ('- kind: {...}' items), got %s",
		    ctx, g);
	}
	if (seq->n == 0)
		return ydoc_errorf(err, seq, "%s is empty: at least one phase is needed", ctx);
	l.v = calloc(seq->n, sizeof(*l.v));
	if (!l.v)
		return -ENOMEM;
	for (size_t i = 0; i < seq->n; i++) {
		ret = parse_phase(seq->items[i], pctx, &l.v[i], err);
		if (ret) {
			phase_list_release(&l);
			return ret;
		}
		l.n = i + 1;
	}
	*out = l;
	return 0;
}
