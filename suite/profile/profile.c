/* SPDX-License-Identifier: MIT */
/*
 * profile: the profile language's top level (name, description, destructive, defaults, phases),
 * lookup and listing of bundled profiles, the resolved plan as JSON and the summary text. The
 * phases and what they are made of are below it (phases.h: phases_common.c, the kinds in
 * phases.c and phases_rounds.c, the registry in phases_registry.c); this file calls the kinds
 * only through struct phase_kind. See profile.h.
 */
#include "profile/profile.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "config.h"
#include "base/datadir.h"
#include "profile/extends.h"

/* ---- profiles ------------------------------------------------------------------------------- */

struct top_raw {
	const char *name, *description;
	bool destructive;
	const struct ydoc_node *defaults, *phases, *cooldown, *pts;
	int write_cache, power_states;
};

/* Indexed by enum profile_drive_setting. */
static const char *const drive_setting_names[] = {"as-found", "on", "off", NULL};
/* power_states: as found, or off (pinned for idle-recovery tests); "on" has no one meaning. */
static const char *const power_setting_names[] = {"as-found", "off", NULL};

/* clang-format off */
static const struct ydoc_key top_keys[] = {
	{.name = "name", .kind = YK_STRING, .required = true, .offset = offsetof(struct top_raw, name)},
	{.name = "description", .kind = YK_STRING, .offset = offsetof(struct top_raw, description)},
	{.name = "destructive", .kind = YK_BOOL, .offset = offsetof(struct top_raw, destructive)},
	{.name = "defaults", .kind = YK_MAPPING, .offset = offsetof(struct top_raw, defaults)},
	{.name = "phases", .kind = YK_ANY, .required = true,
	 .offset = offsetof(struct top_raw, phases)},
	{.name = "cooldown", .kind = YK_ANY, .offset = offsetof(struct top_raw, cooldown)},
	{.name = "write_cache", .kind = YK_ENUM, .offset = offsetof(struct top_raw, write_cache),
	 .enum_names = drive_setting_names},
	{.name = "power_states", .kind = YK_ENUM, .offset = offsetof(struct top_raw, power_states),
	 .enum_names = power_setting_names},
	/* read by pts_prepare() before the phases (profile/pts.h) */
	{.name = "pts", .kind = YK_MAPPING, .offset = offsetof(struct top_raw, pts)},
	{0},
};
/* clang-format on */
/* Names become directory names (results/<profile>-...): keep them tame. */
static int check_name(const struct ydoc_node *n, const char *name, struct ydoc_error *err)
{
	size_t len = strlen(name);

	if (len == 0 || len > 63)
		return ydoc_errorf(err, n, "name must be 1 to 63 characters");
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)name[i];

		if (!isalnum(c) && c != '-' && c != '_' && c != '.')
			return ydoc_errorf(err, n,
					   "name may hold only letters, digits, '-', '_' and '.', "
					   "got '%.63s'",
					   name);
	}
	return 0;
}
const char *profile_drive_setting_name(enum profile_drive_setting s)
{
	return (unsigned)s < 3 ? drive_setting_names[s] : "?";
}

bool profile_writes(const struct profile *p)
{
	return phase_list_first_writer(&p->phases) != NULL;
}

static bool looks_like_path(const char *s);

/* ---- extends ------------------------------------------------------------------------------- */

/* The documents of a chain of extends, the profile's own first: all stay alive until the
 * profile is parsed (set: values copied into an ancestor point at their child's file name). */
struct doc_chain {
	struct ydoc *docs[EXTENDS_MAX_DEPTH + 1];
	char *real[EXTENDS_MAX_DEPTH + 1]; /* realpath of each (NULL for a string) */
	/* the parents' `extends:` values and texts (docs[1..n)), for the manifest */
	char *ref[EXTENDS_MAX_DEPTH + 1];
	char *text[EXTENDS_MAX_DEPTH + 1];
	size_t n;
	/* parents recorded by an earlier run (profile_parse_recorded): used instead of disk */
	const struct profile_parent *known;
	size_t nknown;
};

static void chain_release(struct doc_chain *c)
{
	for (size_t i = 0; i < c->n; i++) {
		ydoc_free(c->docs[i]);
		free(c->real[i]);
		free(c->ref[i]);
		free(c->text[i]);
	}
	c->n = 0;
}

static int chain_push(struct doc_chain *c, struct ydoc *doc)
{
	char buf[PATH_MAX];

	c->docs[c->n] = doc;
	c->real[c->n] = NULL;
	c->ref[c->n] = NULL;
	c->text[c->n] = NULL;
	if (realpath(doc->file, buf) && !(c->real[c->n] = strdup(buf))) {
		c->n++;
		return -ENOMEM;
	}
	c->n++;
	return 0;
}

/* The parent named at node `at` by the document `child`: NAME.yaml beside the child first (a
 * user's pair of profiles), then profile_find()'s search path. */
static int find_parent(const struct ydoc_node *at, const char *child, const char *user_dir,
		       char *path, size_t len, struct ydoc_error *err)
{
	const char *name = at->text, *slash = strrchr(child, '/');
	struct stat st;
	struct ydoc_error e;

	if (slash && !looks_like_path(name) &&
	    (size_t)snprintf(path, len, "%.*s/%s.yaml", (int)(slash - child), child, name) < len &&
	    stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return 0;
	if (profile_find(name, user_dir, path, len, &e))
		return ydoc_errorf(err, at, "extends: %s", e.msg);
	return 0;
}

/*
 * Resolves the extends of the chain's last document: *out is the document the profile is read
 * from (the last one itself when it extends nothing, else its resolved parent changed by its
 * set:). Every document read is pushed on the chain.
 */
static int resolve_extends(struct doc_chain *c, const char *user_dir, struct ydoc **out,
			   struct ydoc_error *err)
{
	struct ydoc *doc = c->docs[c->n - 1], *pdoc, *resolved;
	const struct ydoc_node *at;
	const struct profile_parent *known = NULL;
	char path[PATH_MAX], buf[PATH_MAX], *ptext = NULL;
	size_t plen = 0;
	int ret = extends_read(doc, &at, err);

	if (ret <= 0) {
		if (!ret)
			*out = doc;
		return ret;
	}
	if (c->n > EXTENDS_MAX_DEPTH)
		return ydoc_errorf(err, at, "extends: more than %d profiles in a chain",
				   EXTENDS_MAX_DEPTH);
	for (size_t i = 0; i < c->nknown && !known; i++)
		if (!strcmp(c->known[i].ref, at->text))
			known = &c->known[i];
	if (known) {
		/* the run's own copy: the depth bound above ends any circle among them */
		snprintf(path, sizeof(path), "%s", known->path);
		ret = ydoc_parse_string(known->text, strlen(known->text), known->path, &pdoc, err);
		if (!ret && !(ptext = strdup(known->text))) {
			ydoc_free(pdoc);
			ret = -ENOMEM;
		}
		if (ret)
			return ret;
	} else {
		ret = find_parent(at, doc->file, user_dir, path, sizeof(path), err);
		if (ret)
			return ret;
		for (size_t i = 0; i < c->n && realpath(path, buf); i++)
			if (c->real[i] && !strcmp(c->real[i], buf))
				return ydoc_errorf(err, at,
						   "extends: %s is %s, which the chain already holds: "
						   "profiles may not extend themselves in a circle",
						   at->text, path);
		ret = ydoc_parse_file(path, &pdoc, &ptext, &plen, err);
		if (ret)
			return ret;
	}
	ret = chain_push(c, pdoc);
	if (!ret) {
		c->text[c->n - 1] = ptext;
		ptext = NULL;
		if (!(c->ref[c->n - 1] = strdup(at->text)))
			ret = -ENOMEM;
	}
	free(ptext);
	if (!ret)
		ret = resolve_extends(c, user_dir, &resolved, err);
	if (!ret)
		ret = extends_apply(resolved, doc, err);
	if (!ret)
		*out = resolved;
	return ret;
}

/* Moves the chain's parents (their refs and texts; the paths copied) into p->parents. */
static int keep_parents(struct doc_chain *c, struct profile *p)
{
	if (c->n < 2)
		return 0;
	p->parents = calloc(c->n - 1, sizeof(*p->parents));
	if (!p->parents)
		return -ENOMEM;
	for (size_t i = 1; i < c->n; i++) {
		struct profile_parent *pp = &p->parents[p->nparents++];

		pp->path = strdup(c->docs[i]->file);
		if (!pp->path)
			return -ENOMEM;
		pp->ref = c->ref[i];
		pp->text = c->text[i];
		c->ref[i] = c->text[i] = NULL;
	}
	return 0;
}

/* ---- parsing -------------------------------------------------------------------------------- */

static int parse_string_in(const char *text, size_t len, const char *file, const char *user_dir,
			   const char *const *sets, size_t nsets, const struct profile_parent *known,
			   size_t nknown, struct profile **out, struct ydoc_error *err)
{
	struct doc_chain chain = {.known = known, .nknown = nknown};
	struct ydoc *doc = NULL, *own;
	struct profile *p = NULL;
	struct top_raw raw = {0};
	struct phase_parse_ctx pctx;
	struct profile_pts pts;
	const struct profile_phase *w;
	int ret;

	ret = ydoc_parse_string(text, len, file, &own, err);
	if (ret)
		return ret;
	ret = chain_push(&chain, own);
	if (!ret)
		ret = resolve_extends(&chain, user_dir, &doc, err);
	if (ret)
		goto out;
	for (size_t i = 0; i < nsets; i++) {
		ret = ydoc_set_assignment(doc, sets[i], err);
		if (ret)
			goto out;
	}
	if (!doc->root) {
		ret =
		    ydoc_errorf(err, NULL, "empty profile: expected name, description and phases");
		snprintf(err->file, sizeof(err->file), "%s", doc->file);
		goto out;
	}
	ret = pts_prepare(doc, &pts, err);
	if (ret)
		goto out;
	ret = ydoc_map_read(doc->root, "the profile", top_keys, &raw, NULL, err);
	if (ret)
		goto out;
	ret = check_name(ydoc_map_get(doc->root, "name"), raw.name, err);
	if (ret)
		goto out;
	p = calloc(1, sizeof(*p));
	if (!p) {
		ret = -ENOMEM;
		goto out;
	}
	p->defaults = (struct profile_defaults){.qd = 1, .threads = 1, .seed = 0};
	if (raw.defaults) {
		ret = profile_parse_defaults(raw.defaults, &p->defaults, err);
		if (ret)
			goto out;
	}
	if (raw.cooldown) {
		ret = profile_cooldown_parse(raw.cooldown, &p->cooldown, err);
		if (ret)
			goto out;
	}
	p->pts = pts;
	pctx = (struct phase_parse_ctx){
	    .defaults = &p->defaults, .depth = 0, .pts = pts.set ? &p->pts.settings : NULL};
	ret = profile_parse_phase_list(raw.phases, "phases", &pctx, &p->phases, err);
	if (ret)
		goto out;
	p->destructive = raw.destructive;
	p->write_cache = (enum profile_drive_setting)raw.write_cache;
	if (pts.set && !ydoc_map_get(doc->root, "write_cache")) {
		/* the variant's, where the profile does not say (PTS-E off, PTS-C on) */
		p->write_cache = pts.write_cache_on ? PROFILE_ON : PROFILE_OFF;
		p->write_cache_from_pts = true;
	}
	p->power_states = raw.power_states ? PROFILE_OFF : PROFILE_AS_FOUND;
	if (pts.set && pts.test == PTS_TEST_HIR && !ydoc_map_get(doc->root, "power_states")) {
		/* host idle recovery: a low-power state entered in a wait would measure the
		 * state's exit, not the recovery (issue 16 point 1: pinned where offered) */
		p->power_states = PROFILE_OFF;
		p->power_states_from_pts = true;
	}
	w = phase_list_first_writer(&p->phases);
	if (w && !p->destructive) {
		struct ydoc_node at = {.file = doc->file, .line = w->line, .col = w->col};

		ret = ydoc_errorf(err, &at,
				  "%s writes to the target: a profile with writing phases must say "
				  "'destructive: true'",
				  w->kind->name);
		goto out;
	}
	p->name = strdup(raw.name);
	p->description = strdup(raw.description ? raw.description : "");
	p->path = strdup(own->file);
	p->text = malloc(len + 1);
	if (!p->name || !p->description || !p->path || !p->text) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(p->text, text, len);
	p->text[len] = '\0';
	p->text_len = len;
	ret = keep_parents(&chain, p);
	if (ret)
		goto out;
	*out = p;
	p = NULL;
out:
	profile_free(p);
	chain_release(&chain);
	return ret;
}

int profile_parse_string(const char *text, size_t len, const char *file, const char *const *sets,
			 size_t nsets, struct profile **out, struct ydoc_error *err)
{
	return parse_string_in(text, len, file, NULL, sets, nsets, NULL, 0, out, err);
}

int profile_parse_recorded(const char *text, size_t len, const char *file,
			   const char *const *sets, size_t nsets, const struct profile_parent *known,
			   size_t nknown, struct profile **out, struct ydoc_error *err)
{
	return parse_string_in(text, len, file, NULL, sets, nsets, known, nknown, out, err);
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	phase_list_release(&p->phases);
	free(p->name);
	free(p->description);
	free(p->text);
	free(p->path);
	for (size_t i = 0; i < p->nparents; i++) {
		free(p->parents[i].ref);
		free(p->parents[i].path);
		free(p->parents[i].text);
	}
	free(p->parents);
	free(p);
}

static bool looks_like_path(const char *s)
{
	size_t n = strlen(s);

	return strchr(s, '/') || (n > 5 && !strcmp(s + n - 5, ".yaml")) ||
	       (n > 4 && !strcmp(s + n - 4, ".yml"));
}

/* The bundled-profile directories in search order; returns how many (at most 4). The one next to
 * the program comes before the source tree so that an installed copy reads its own files (a
 * build-tree binary has none there); exe is its storage. */
static size_t search_dirs(const char *user_dir, const char *dirs[4], char exe[PATH_MAX])
{
	size_t n = 0;

	if (user_dir && *user_dir)
		dirs[n++] = user_dir;
	if (!datadir_exe_profiles(exe, PATH_MAX))
		dirs[n++] = exe;
	dirs[n++] = SSDLAB_PROFILES_SRCDIR;
	dirs[n++] = SSDLAB_PROFILES_DIR;
	return n;
}

int profile_find(const char *name, const char *user_dir, char *path, size_t len,
		 struct ydoc_error *err)
{
	const char *dirs[4];
	char exe[PATH_MAX];
	size_t nd;
	struct stat st;
	char buf[PATH_MAX];

	if (!name || !*name) {
		memset(err, 0, sizeof(*err));
		snprintf(err->file, sizeof(err->file), "profile");
		snprintf(err->msg, sizeof(err->msg), "no profile named");
		return -ENOENT;
	}
	if (looks_like_path(name) || (stat(name, &st) == 0 && S_ISREG(st.st_mode))) {
		if (strlen(name) >= len)
			return -ENAMETOOLONG;
		if (stat(name, &st) != 0) {
			memset(err, 0, sizeof(*err));
			snprintf(err->file, sizeof(err->file), "%s", name);
			snprintf(err->msg, sizeof(err->msg), "no such file");
			return -ENOENT;
		}
		snprintf(path, len, "%s", name);
		return 0;
	}
	nd = search_dirs(user_dir, dirs, exe);
	for (size_t i = 0; i < nd; i++) {
		if ((size_t)snprintf(buf, sizeof(buf), "%s/%s.yaml", dirs[i], name) >= sizeof(buf))
			continue;
		if (stat(buf, &st) == 0 && S_ISREG(st.st_mode)) {
			if (strlen(buf) >= len)
				return -ENAMETOOLONG;
			snprintf(path, len, "%s", buf);
			return 0;
		}
	}
	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", name);
	snprintf(err->msg, sizeof(err->msg),
		 "no such profile file, and no bundled profile of that name in %s%s%s%s%s "
		 "(see ssdlab profiles)",
		 dirs[0], nd > 1 ? ", " : "", nd > 1 ? dirs[1] : "", nd > 2 ? ", " : "",
		 nd > 2 ? dirs[2] : "");
	return -ENOENT;
}

int profile_load(const char *name_or_path, const char *user_dir, const char *const *sets,
		 size_t nsets, struct profile **out, struct ydoc_error *err)
{
	char path[PATH_MAX];
	struct ydoc *doc;
	char *text = NULL;
	size_t len = 0;
	int ret;

	ret = profile_find(name_or_path, user_dir, path, sizeof(path), err);
	if (ret)
		return ret;
	/* Read through ydoc for its file checks and errors; the tree is parsed again below
	 * (cheap) so that --set applies to a fresh tree. */
	ret = ydoc_parse_file(path, &doc, &text, &len, err);
	if (ret)
		return ret;
	ydoc_free(doc);
	ret = parse_string_in(text, len, path, user_dir, sets, nsets, NULL, 0, out, err);
	free(text);
	return ret;
}

/* ---- listing -------------------------------------------------------------------------------- */

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct profile_entry *)a)->name,
		      ((const struct profile_entry *)b)->name);
}

static int add_dir(const char *dir, struct profile_entry **list, size_t *n, size_t *cap)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		struct profile_entry *e;
		struct profile *p = NULL;
		struct ydoc_error err;
		bool dup = false;

		if (l <= 5 || l - 5 >= sizeof(e->name) || strcmp(de->d_name + l - 5, ".yaml"))
			continue;
		for (size_t i = 0; i < *n; i++)
			if (!strncmp((*list)[i].name, de->d_name, l - 5) && !(*list)[i].name[l - 5])
				dup = true;
		if (dup)
			continue;
		if (*n == *cap) {
			size_t nc = *cap ? *cap * 2 : 16;
			struct profile_entry *nl = realloc(*list, nc * sizeof(*nl));

			if (!nl) {
				ret = -ENOMEM;
				break;
			}
			*list = nl;
			*cap = nc;
		}
		e = &(*list)[*n];
		memset(e, 0, sizeof(*e));
		memcpy(e->name, de->d_name, l - 5);
		snprintf(e->path, sizeof(e->path), "%s/%.*s", dir, (int)(sizeof(e->path) - 300),
			 de->d_name);
		if (profile_load(e->path, NULL, NULL, 0, &p, &err) == 0) {
			snprintf(e->description, sizeof(e->description), "%s", p->description);
			e->valid = true;
			e->destructive = profile_writes(p);
			profile_free(p);
		} else {
			snprintf(e->description, sizeof(e->description), "(invalid: %d:%d: %.200s)",
				 err.line, err.col, err.msg);
		}
		(*n)++;
	}
	closedir(d);
	return ret;
}

int profile_list_bundled(const char *user_dir, struct profile_entry **list, size_t *n)
{
	const char *dirs[4];
	char exe[PATH_MAX];
	size_t nd = search_dirs(user_dir, dirs, exe), cnt = 0, cap = 0;
	struct profile_entry *l = NULL;
	int ret;

	for (size_t i = 0; i < nd; i++) {
		ret = add_dir(dirs[i], &l, &cnt, &cap);
		if (ret) {
			free(l);
			return ret;
		}
	}
	if (cnt)
		qsort(l, cnt, sizeof(*l), entry_cmp);
	*list = l;
	*n = cnt;
	return 0;
}

/* ---- JSON, summary, bytes ------------------------------------------------------------------- */

struct json_object *profile_to_json(const struct profile *p)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	if (phase_json_add(o, "name", json_object_new_string(p->name)) ||
	    phase_json_add(o, "description", json_object_new_string(p->description)) ||
	    phase_json_add(o, "destructive", json_object_new_boolean(p->destructive)) ||
	    phase_json_add(o, "defaults", profile_defaults_to_json(&p->defaults)) ||
	    phase_json_add(o, "phases", profile_phase_list_to_json(&p->phases)) ||
	    (p->cooldown.set &&
	     phase_json_add(o, "cooldown", profile_cooldown_to_json(&p->cooldown))) ||
	    (p->write_cache != PROFILE_AS_FOUND &&
	     phase_json_add(o, "write_cache",
			    json_object_new_string(profile_drive_setting_name(p->write_cache)))) ||
	    (p->power_states != PROFILE_AS_FOUND &&
	     phase_json_add(o, "power_states",
			    json_object_new_string(profile_drive_setting_name(p->power_states)))) ||
	    (p->pts.set && phase_json_add(o, "pts", pts_to_json(&p->pts)))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

static void list_describe(const struct phase_list *l, char *buf, size_t len, size_t *pos)
{
	for (size_t i = 0; i < l->n && *pos < len; i++) {
		const struct profile_phase *ph = &l->v[i];
		char line[512];

		ph->kind->describe(ph->data, line, sizeof(line));
		*pos += (size_t)snprintf(buf + *pos, len - *pos, "%s%s", i ? "; " : "", line);
		if (*pos >= len)
			break;
		if (ph->kind->body) {
			unsigned count;
			const struct phase_list *body = ph->kind->body(ph->data, &count);

			*pos += (size_t)snprintf(buf + *pos, len - *pos, " [");
			if (*pos < len)
				list_describe(body, buf, len, pos);
			if (*pos < len)
				*pos += (size_t)snprintf(buf + *pos, len - *pos, "]");
		}
	}
}

const char *profile_summary(const struct profile *p, char *buf, size_t len)
{
	size_t pos = 0;

	if (!len)
		return buf;
	pos += (size_t)snprintf(buf, len, "%s: %s%s", p->name, p->description,
				*p->description ? ". " : "");
	if (pos < len && p->pts.set) {
		char ar[32];

		/* what the pts: variant decided, which the phases below show only in part */
		pos += (size_t)snprintf(
		    buf + pos, len - pos,
		    "SNIA PTS %s, %s variant (%s): write cache %s, ActiveRange %s%%%s. ",
		    pts_test_name(p->pts.test), pts_variant_name(p->pts.variant), p->pts.spec,
		    profile_drive_setting_name(p->write_cache),
		    units_fmt_double(p->pts.active_range * 100, 1, ar, sizeof(ar)),
		    p->pts.amount ? " with an ActiveRange Amount in segments" : "");
	}
	if (pos < len)
		pos += (size_t)snprintf(buf + pos, len - pos, "%s, %zu phase%s: ",
				p->destructive ? "Destructive (writes the target)"
					       : "Non-destructive (writes nothing)",
				p->phases.n, p->phases.n == 1 ? "" : "s");
	if (pos < len)
		list_describe(&p->phases, buf, len, &pos);
	if (pos < len)
		snprintf(buf + pos, len - pos, ".");
	return buf;
}
int profile_bytes_written(const struct profile *p, uint64_t capacity, uint64_t *bytes)
{
	uint64_t b = 0;
	int ret = profile_phase_list_bytes(&p->phases, capacity, &b);

	if (ret && ret != -ENODATA)
		return ret;
	*bytes = b;
	return ret;
}
