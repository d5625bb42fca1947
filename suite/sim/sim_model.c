/* SPDX-License-Identifier: MIT */
/*
 * sim_model: reads virtual-SSD model files into a struct sim_config (see sim_model.h), through
 * ydoc's schema tables so that a typo in a model gets the same positioned error as one in a
 * profile. Also finds and lists the bundled models.
 */
#include "sim/sim_model.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "base/datadir.h"

/* The document as written; converted to sim_config once every key has been checked. */
struct raw_model {
	const char *name, *description, *sources;
	uint64_t represents, user_capacity, mapping_unit, page_size, write_buffer;
	double spare_factor, op;
	unsigned logical_block_size, pages_per_block, channels, dies_per_channel;
	bool plp, write_cache;
	const struct ydoc_node *timing, *gc, *idle_gc, *slc, *iface;
};

struct raw_timing {
	uint64_t read, program, program_slc, erase, transfer_per_kib;
};

struct raw_gc {
	int policy;
	unsigned d, watermark;
};

struct raw_idle {
	bool enabled, aggressive;
	uint64_t delay;
	double rate;
};

struct raw_slc {
	uint64_t size;
	bool dynamic, fold_on_idle;
	int post_cache;
};

struct raw_iface {
	double max_bytes_per_s;
	uint64_t command_overhead;
};

static const char *const policy_names[] = {"greedy", "fifo", "random", "d-choices", NULL};
static const char *const post_names[] = {"direct", "fold", NULL};

#define K(n, kind, req, st, f) {n, kind, req, offsetof(struct st, f), false, 0, 0, 0, NULL, NULL}
#define KB(n, kind, st, f, lo, hi) {n, kind, false, offsetof(struct st, f), true, lo, hi, 0, NULL, NULL}
#define KX(n, kind, st, f, lo, hi, ex) {n, kind, false, offsetof(struct st, f), true, lo, hi, 0, NULL, ex}

static const struct ydoc_key top_keys[] = {
	K("name", YK_STRING, false, raw_model, name),
	K("description", YK_STRING, false, raw_model, description),
	K("sources", YK_STRING, false, raw_model, sources),
	K("represents", YK_SIZE, false, raw_model, represents),
	{"user_capacity", YK_SIZE, true, offsetof(struct raw_model, user_capacity), true, 4096, 1e18, 512, NULL, NULL},
	KX("spare_factor", YK_DOUBLE, raw_model, spare_factor, 0, 0.9,
	   "a fraction of the physical space such as 0.07 ((physical - user) / physical)"),
	K("op", YK_PERCENT, false, raw_model, op),
	KB("mapping_unit", YK_SIZE, raw_model, mapping_unit, 512, 1 << 20),
	KB("logical_block_size", YK_UINT, raw_model, logical_block_size, 512, 4096),
	KB("page_size", YK_SIZE, raw_model, page_size, 512, 16 << 20),
	KB("pages_per_block", YK_UINT, raw_model, pages_per_block, 1, 65536),
	KB("channels", YK_UINT, raw_model, channels, 1, 256),
	KB("dies_per_channel", YK_UINT, raw_model, dies_per_channel, 1, 256),
	K("timing", YK_MAPPING, false, raw_model, timing),
	K("gc", YK_MAPPING, false, raw_model, gc),
	K("idle_gc", YK_MAPPING, false, raw_model, idle_gc),
	K("slc_cache", YK_MAPPING, false, raw_model, slc),
	K("write_buffer", YK_SIZE, false, raw_model, write_buffer),
	K("write_cache", YK_BOOL, false, raw_model, write_cache),
	K("power_loss_protection", YK_BOOL, false, raw_model, plp),
	K("interface", YK_MAPPING, false, raw_model, iface),
	{NULL, 0, false, 0, false, 0, 0, 0, NULL, NULL},
};

static const struct ydoc_key timing_keys[] = {
	KB("read", YK_DURATION, raw_timing, read, 0, 1e9),
	KB("program", YK_DURATION, raw_timing, program, 0, 1e9),
	KB("program_slc", YK_DURATION, raw_timing, program_slc, 0, 1e9),
	KB("erase", YK_DURATION, raw_timing, erase, 0, 1e10),
	KB("transfer_per_kib", YK_DURATION, raw_timing, transfer_per_kib, 0, 1e8),
	{NULL, 0, false, 0, false, 0, 0, 0, NULL, NULL},
};

static const struct ydoc_key gc_keys[] = {
	{"policy", YK_ENUM, false, offsetof(struct raw_gc, policy), false, 0, 0, 0, policy_names, NULL},
	KB("d", YK_UINT, raw_gc, d, 1, 1024),
	KB("free_block_watermark", YK_UINT, raw_gc, watermark, 0, 1 << 20),
	{NULL, 0, false, 0, false, 0, 0, 0, NULL, NULL},
};

static const struct ydoc_key idle_keys[] = {
	K("enabled", YK_BOOL, false, raw_idle, enabled),
	K("delay", YK_DURATION, false, raw_idle, delay),
	KX("rate", YK_DOUBLE, raw_idle, rate, 1, 1e12, "bytes relocated per second, such as 200e6"),
	K("aggressive", YK_BOOL, false, raw_idle, aggressive),
	{NULL, 0, false, 0, false, 0, 0, 0, NULL, NULL},
};

static const struct ydoc_key slc_keys[] = {
	K("size", YK_SIZE, false, raw_slc, size),
	K("dynamic", YK_BOOL, false, raw_slc, dynamic),
	K("fold_on_idle", YK_BOOL, false, raw_slc, fold_on_idle),
	{"post_cache", YK_ENUM, false, offsetof(struct raw_slc, post_cache), false, 0, 0, 0, post_names, NULL},
	{NULL, 0, false, 0, false, 0, 0, 0, NULL, NULL},
};

static const struct ydoc_key iface_keys[] = {
	KX("max_bytes_per_s", YK_DOUBLE, raw_iface, max_bytes_per_s, 0, 1e12,
	   "bytes per second such as 550e6 (0 = no limit)"),
	KB("command_overhead", YK_DURATION, raw_iface, command_overhead, 0, 1e9),
	{NULL, 0, false, 0, false, 0, 0, 0, NULL, NULL},
};

/* Bit of key `name` in a `present` mask of table `keys`. */
static bool has(const struct ydoc_key *keys, uint64_t present, const char *name)
{
	for (unsigned i = 0; keys[i].name; i++)
		if (!strcmp(keys[i].name, name))
			return present & (1ULL << i);
	return false;
}

static void base_name(const char *file, char *out, size_t len)
{
	const char *b = strrchr(file, '/');
	size_t n;

	b = b ? b + 1 : file;
	n = strcspn(b, ".");
	snprintf(out, len, "%.*s", (int)n, b);
}

/* Reads the sub-mappings and fills c; errors at the offending node. */
static int read_sections(const struct raw_model *r, struct sim_config *c, struct ydoc_error *err)
{
	struct raw_timing t = {c->timing.read, c->timing.program, c->timing.program_slc,
			       c->timing.erase, c->timing.transfer_per_kib};
	struct raw_gc g = {c->gc_policy, c->gc_d, c->free_block_watermark};
	struct raw_idle i = {c->idle_gc.enabled, c->idle_gc.aggressive, c->idle_gc.delay,
			     c->idle_gc.rate};
	struct raw_slc s = {0, false, false, SIM_POST_DIRECT};
	struct raw_iface f = {c->iface.max_bytes_per_s, c->iface.command_overhead};
	uint64_t present = 0;
	int ret;

	if (r->timing && (ret = ydoc_map_read(r->timing, "timing", timing_keys, &t, NULL, err)))
		return ret;
	if (r->gc && (ret = ydoc_map_read(r->gc, "gc", gc_keys, &g, &present, err)))
		return ret;
	if (r->gc && has(gc_keys, present, "d") && g.policy != SIM_GC_DCHOICES)
		return ydoc_errorf(err, ydoc_map_key(r->gc, "d"), "gc.d only applies to policy d-choices");
	present = 0;
	if (r->idle_gc && (ret = ydoc_map_read(r->idle_gc, "idle_gc", idle_keys, &i, &present, err)))
		return ret;
	if (r->idle_gc && i.enabled && !i.aggressive && !has(idle_keys, present, "rate"))
		return ydoc_errorf(err, r->idle_gc, "idle_gc needs a rate (bytes per second) or aggressive: true");
	if (r->slc && (ret = ydoc_map_read(r->slc, "slc_cache", slc_keys, &s, NULL, err)))
		return ret;
	if (r->iface && (ret = ydoc_map_read(r->iface, "interface", iface_keys, &f, NULL, err)))
		return ret;
	c->timing.read = t.read;
	c->timing.program = t.program;
	c->timing.program_slc = t.program_slc;
	c->timing.erase = t.erase;
	c->timing.transfer_per_kib = t.transfer_per_kib;
	c->gc_policy = (enum sim_gc_policy)g.policy;
	c->gc_d = g.d;
	c->free_block_watermark = g.watermark;
	c->idle_gc.enabled = i.enabled;
	c->idle_gc.aggressive = i.aggressive;
	c->idle_gc.delay = i.delay;
	c->idle_gc.rate = i.rate;
	c->slc.size = s.size;
	c->slc.dynamic = s.dynamic;
	c->slc.fold_on_idle = s.fold_on_idle;
	c->slc.post_cache = (enum sim_post_cache)s.post_cache;
	c->iface.max_bytes_per_s = f.max_bytes_per_s;
	c->iface.command_overhead = f.command_overhead;
	return 0;
}

static int from_doc(const struct ydoc *doc, const char *file, struct sim_model *out,
		    struct ydoc_error *err)
{
	struct sim_model m;
	struct sim_config *c = &m.cfg;
	struct raw_model r;
	uint64_t present = 0;
	char why[256];
	int ret;

	memset(&m, 0, sizeof(m));
	sim_config_default(c);
	/* a model without idle_gc has none, whatever the library default */
	c->idle_gc.enabled = false;
	memset(&r, 0, sizeof(r));
	r.mapping_unit = c->mapping_unit;
	r.page_size = c->page_size;
	r.logical_block_size = c->logical_block_size;
	r.pages_per_block = c->pages_per_block;
	r.channels = c->channels;
	r.dies_per_channel = c->dies_per_channel;
	r.write_cache = c->write_cache;
	if (!doc->root)
		return ydoc_errorf(err, NULL, "empty model file");
	/* A path that is not a model at all (sim:../../etc/passwd) must not have its first line
	 * echoed into the error: say what was expected, never what the file holds. */
	if (doc->root->type != YDOC_MAPPING)
		return ydoc_errorf(err, doc->root,
				   "not a model file: expected a YAML mapping of model settings "
				   "such as user_capacity and channels (see `ssdlab models`)");
	ret = ydoc_map_read(doc->root, "the model", top_keys, &r, &present, err);
	if (ret)
		return ret;
	if (has(top_keys, present, "spare_factor") == has(top_keys, present, "op"))
		return ydoc_errorf(err, has(top_keys, present, "op") ? ydoc_map_key(doc->root, "op") : doc->root,
				   "give the spare as exactly one of spare_factor (of physical) or op (of user)");
	c->user_capacity = r.user_capacity;
	c->spare_factor = has(top_keys, present, "op") ? r.op / (1.0 + r.op) : r.spare_factor;
	c->mapping_unit = (uint32_t)r.mapping_unit;
	c->page_size = (uint32_t)r.page_size;
	c->logical_block_size = r.logical_block_size;
	c->pages_per_block = r.pages_per_block;
	c->channels = r.channels;
	c->dies_per_channel = r.dies_per_channel;
	c->write_buffer = r.write_buffer;
	c->write_cache = r.write_cache;
	c->power_loss_protection = r.plp;
	c->represents = r.represents;
	ret = read_sections(&r, c, err);
	if (ret)
		return ret;
	if (c->represents && c->represents < c->user_capacity)
		return ydoc_errorf(err, ydoc_map_get(doc->root, "represents"),
				   "represents (the real drive's capacity) is smaller than user_capacity");
	if (c->represents)
		c->time_scale = (double)c->user_capacity / (double)c->represents;
	if (sim_config_check(c, why, sizeof(why)))
		return ydoc_errorf(err, doc->root, "the simulator cannot run this model: %s", why);
	if (r.name)
		snprintf(m.name, sizeof(m.name), "%s", r.name);
	else
		base_name(file, m.name, sizeof(m.name));
	/* Texts are shown whole or refused, never cut: a cut citation misleads. */
	if (r.description && strlen(r.description) >= sizeof(m.description))
		return ydoc_errorf(err, ydoc_map_key(doc->root, "description"),
				   "description is %zu characters long: at most %zu", strlen(r.description),
				   sizeof(m.description) - 1);
	if (r.sources && strlen(r.sources) >= sizeof(m.sources))
		return ydoc_errorf(err, ydoc_map_key(doc->root, "sources"),
				   "sources is %zu characters long: at most %zu", strlen(r.sources),
				   sizeof(m.sources) - 1);
	snprintf(m.description, sizeof(m.description), "%s", r.description ? r.description : "");
	snprintf(m.sources, sizeof(m.sources), "%s", r.sources ? r.sources : "");
	*out = m;
	return 0;
}

int sim_model_parse(const char *text, size_t len, const char *file, struct sim_model *m,
		    struct ydoc_error *err)
{
	struct ydoc *doc = NULL;
	int ret;

	if (!file)
		file = "<string>";
	ret = ydoc_parse_string(text, len, file, &doc, err);
	if (ret)
		return ret;
	ret = from_doc(doc, file, m, err);
	ydoc_free(doc);
	return ret;
}

static bool looks_like_path(const char *s)
{
	size_t n = strlen(s);

	return strchr(s, '/') || (n > 5 && !strcmp(s + n - 5, ".yaml")) ||
	       (n > 4 && !strcmp(s + n - 4, ".yml"));
}

/* Directories holding bundled models, in search order; returns how many. */
static size_t model_dirs(const char *user_dir, char dirs[4][PATH_MAX])
{
	char exe[PATH_MAX - 16]; /* room for "/models" in dirs[] */
	size_t n = 0;

	if (user_dir && *user_dir)
		snprintf(dirs[n++], PATH_MAX, "%s", user_dir);
	/* next to the program first: an installed copy reads its own models (datadir.h) */
	if (!datadir_exe_profiles(exe, sizeof(exe)))
		snprintf(dirs[n++], PATH_MAX, "%s/models", exe);
	snprintf(dirs[n++], PATH_MAX, "%s/models", SSDLAB_PROFILES_SRCDIR);
	snprintf(dirs[n++], PATH_MAX, "%s/models", SSDLAB_PROFILES_DIR);
	return n;
}

int sim_model_load(const char *spec, const char *user_dir, struct sim_model *m,
		   struct ydoc_error *err)
{
	char dirs[4][PATH_MAX], path[PATH_MAX + 80];
	struct ydoc *doc = NULL;
	struct stat st;
	size_t nd;
	int ret;

	if (!spec || !*spec) {
		memset(err, 0, sizeof(*err));
		snprintf(err->file, sizeof(err->file), "sim:");
		snprintf(err->msg, sizeof(err->msg), "no model named (try `ssdlab models`)");
		return -ENOENT;
	}
	path[0] = 0;
	if (looks_like_path(spec)) {
		snprintf(path, sizeof(path), "%s", spec);
	} else {
		nd = model_dirs(user_dir, dirs);
		for (size_t i = 0; i < nd && !path[0]; i++) {
			int w = snprintf(path, sizeof(path), "%s/%s.yaml", dirs[i], spec);

			if (w < 0 || (size_t)w >= sizeof(path) || stat(path, &st) || !S_ISREG(st.st_mode))
				path[0] = 0;
		}
		if (!path[0]) {
			memset(err, 0, sizeof(*err));
			snprintf(err->file, sizeof(err->file), "sim:%s", spec);
			snprintf(err->msg, sizeof(err->msg), "no such model (see `ssdlab models`)");
			return -ENOENT;
		}
	}
	ret = ydoc_parse_file(path, &doc, NULL, NULL, err);
	if (ret)
		return ret;
	ret = from_doc(doc, path, m, err);
	ydoc_free(doc);
	if (!ret)
		snprintf(m->path, sizeof(m->path), "%s", path);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sim_model_names(const char *user_dir, char ***names, size_t *n)
{
	char dirs[4][PATH_MAX], **v = NULL, name[256];
	size_t nd = model_dirs(user_dir, dirs), cnt = 0, cap = 0;

	for (size_t i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		if (!d)
			continue;
		while ((e = readdir(d))) {
			size_t l = strlen(e->d_name);
			bool dup = false;

			if (l < 6 || strcmp(e->d_name + l - 5, ".yaml"))
				continue;
			snprintf(name, sizeof(name), "%.*s", (int)(l - 5), e->d_name);
			for (size_t k = 0; k < cnt && !dup; k++)
				dup = !strcmp(v[k], name);
			if (dup)
				continue;
			if (cnt == cap) {
				char **nv = realloc(v, (cap ? cap * 2 : 8) * sizeof(*v));

				if (!nv)
					goto nomem;
				v = nv;
				cap = cap ? cap * 2 : 8;
			}
			v[cnt] = strdup(name);
			if (!v[cnt])
				goto nomem;
			cnt++;
			continue;
nomem:
			closedir(d);
			sim_model_names_free(v, cnt);
			return -ENOMEM;
		}
		closedir(d);
	}
	if (cnt)
		qsort(v, cnt, sizeof(*v), cmp_str);
	*names = v;
	*n = cnt;
	return 0;
}

void sim_model_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

double sim_model_time_scale(const struct sim_model *m)
{
	return m->cfg.represents ? (double)m->cfg.user_capacity / (double)m->cfg.represents : 1.0;
}

double sim_model_spare_factor(const struct sim_model *m)
{
	double phys = (double)sim_config_physical_blocks(&m->cfg) * m->cfg.page_size *
		      m->cfg.pages_per_block;

	return phys > 0 ? 1.0 - (double)m->cfg.user_capacity / phys : 0;
}

double sim_model_op(const struct sim_model *m)
{
	double phys = (double)sim_config_physical_blocks(&m->cfg) * m->cfg.page_size *
		      m->cfg.pages_per_block;

	return (phys - (double)m->cfg.user_capacity) / (double)m->cfg.user_capacity;
}
