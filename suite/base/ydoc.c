/* SPDX-License-Identifier: MIT */
/*
 * ydoc: YAML (through libyaml's event parser) into a positioned tree, --set overrides, and the
 * schema walker that profile and model parsers are written with. See ydoc.h.
 *
 * The tree is built without recursion from libyaml's event stream, with an explicit stack of
 * open collections bounded by YDOC_MAX_DEPTH, so that hostile input (the fuzzer's) can neither
 * overflow the C stack here nor in ydoc_free().
 */
#include "base/ydoc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <yaml.h>

#include "base/fileio.h"

#define YDOC_MAX_DEPTH 64
#define YDOC_MAX_FILE (16u << 20)

/* ---- errors --------------------------------------------------------------------------------- */

const char *ydoc_error_format(const struct ydoc_error *e, char *buf, size_t len)
{
	if (e->line > 0)
		snprintf(buf, len, "%s:%d:%d: %s", e->file, e->line, e->col, e->msg);
	else
		snprintf(buf, len, "%s: %s", e->file, e->msg);
	return buf;
}

int ydoc_verrorf(struct ydoc_error *err, const struct ydoc_node *at, const char *fmt, va_list ap)
{
	if (!err)
		return -EINVAL;
	memset(err, 0, sizeof(*err));
	if (at) {
		snprintf(err->file, sizeof(err->file), "%s", at->file ? at->file : "<string>");
		err->line = at->line;
		err->col = at->col;
	}
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return -EINVAL;
}

int ydoc_errorf(struct ydoc_error *err, const struct ydoc_node *at, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = ydoc_verrorf(err, at, fmt, ap);
	va_end(ap);
	return ret;
}

/* An error at a place that is not a node (libyaml's marks, files). */
static int error_at(struct ydoc_error *err, const char *file, int line, int col, const char *fmt,
		    ...) __attribute__((format(printf, 5, 6)));
static int error_at(struct ydoc_error *err, const char *file, int line, int col, const char *fmt,
		    ...)
{
	va_list ap;

	if (!err)
		return -EINVAL;
	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "%s", file);
	err->line = line;
	err->col = col;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* ---- the tree ------------------------------------------------------------------------------- */

const char *ydoc_type_name(enum ydoc_type t)
{
	switch (t) {
	case YDOC_SCALAR:
		return "a single value";
	case YDOC_SEQUENCE:
		return "a list";
	case YDOC_MAPPING:
		return "a mapping";
	}
	return "?";
}

/* Recursion is bounded by YDOC_MAX_DEPTH, which the builder enforces. */
static void node_free(struct ydoc_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++) {
		if (n->type == YDOC_SEQUENCE) {
			node_free(n->items[i]);
		} else if (n->type == YDOC_MAPPING) {
			node_free(n->pairs[i].key);
			node_free(n->pairs[i].value);
		}
	}
	free(n->items);
	free(n->pairs);
	free(n->text);
	free(n);
}

void ydoc_free(struct ydoc *doc)
{
	if (!doc)
		return;
	node_free(doc->root);
	free(doc->file);
	free(doc);
}

struct ydoc_node *ydoc_map_key(const struct ydoc_node *map, const char *key)
{
	if (!map || map->type != YDOC_MAPPING)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->pairs[i].key->text, key))
			return map->pairs[i].key;
	return NULL;
}

struct ydoc_node *ydoc_map_get(const struct ydoc_node *map, const char *key)
{
	if (!map || map->type != YDOC_MAPPING)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->pairs[i].key->text, key))
			return map->pairs[i].value;
	return NULL;
}

/* An open collection while building: the node, its capacity, and a key awaiting its value. */
struct frame {
	struct ydoc_node *node;
	size_t cap;
	struct ydoc_node *key;
};

struct builder {
	struct ydoc *doc;
	struct frame stack[YDOC_MAX_DEPTH];
	int depth;
	struct ydoc_error *err;
};

static struct ydoc_node *node_new(struct builder *b, enum ydoc_type t, const yaml_mark_t *m)
{
	struct ydoc_node *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->type = t;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	n->file = b->doc->file;
	return n;
}

static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	void *p;
	size_t ncap;

	if (n < *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 4;
	p = realloc(*arr, ncap * elem);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* Hands a finished or opened node to its parent. Takes ownership of n in every case. */
static int attach(struct builder *b, struct ydoc_node *n)
{
	struct frame *f;
	int ret;

	if (b->depth == 0) {
		b->doc->root = n;
		return 0;
	}
	f = &b->stack[b->depth - 1];
	if (f->node->type == YDOC_SEQUENCE) {
		ret = grow((void **)&f->node->items, &f->cap, f->node->n, sizeof(*f->node->items));
		if (ret) {
			node_free(n);
			return ret;
		}
		f->node->items[f->node->n++] = n;
		return 0;
	}
	if (!f->key) {
		if (n->type != YDOC_SCALAR) {
			ret = ydoc_errorf(b->err, n, "a key must be a single name, not %s",
					  ydoc_type_name(n->type));
			node_free(n);
			return ret;
		}
		for (size_t i = 0; i < f->node->n; i++) {
			const struct ydoc_node *k = f->node->pairs[i].key;

			if (!strcmp(k->text, n->text)) {
				ret = ydoc_errorf(b->err, n,
						  "duplicate key '%s' (first defined at line %d)",
						  n->text, k->line);
				node_free(n);
				return ret;
			}
		}
		f->key = n;
		return 0;
	}
	ret = grow((void **)&f->node->pairs, &f->cap, f->node->n, sizeof(*f->node->pairs));
	if (ret) {
		node_free(n);
		return ret;
	}
	f->node->pairs[f->node->n].key = f->key;
	f->node->pairs[f->node->n].value = n;
	f->node->n++;
	f->key = NULL;
	return 0;
}

/* Refuses what would make a profile read differently to a human and to ssdlab. */
static int check_plain_event(struct builder *b, const yaml_event_t *ev, const yaml_char_t *anchor,
			     const yaml_char_t *tag)
{
	int line = (int)ev->start_mark.line + 1, col = (int)ev->start_mark.column + 1;

	if (anchor)
		return error_at(b->err, b->doc->file, line, col,
				"anchors (&%s) and aliases are not supported: write the value out",
				(const char *)anchor);
	if (tag)
		return error_at(b->err, b->doc->file, line, col,
				"tags (%s) are not supported: write the plain value",
				(const char *)tag);
	return 0;
}

static int on_event(struct builder *b, const yaml_event_t *ev, bool *done)
{
	struct ydoc_node *n;
	int ret;

	switch (ev->type) {
	case YAML_STREAM_START_EVENT:
	case YAML_DOCUMENT_END_EVENT:
		return 0;
	case YAML_DOCUMENT_START_EVENT:
		if (b->doc->root)
			return error_at(b->err, b->doc->file, (int)ev->start_mark.line + 1,
					(int)ev->start_mark.column + 1,
					"more than one YAML document: a file holds exactly one");
		return 0;
	case YAML_STREAM_END_EVENT:
		*done = true;
		return 0;
	case YAML_ALIAS_EVENT:
		return error_at(b->err, b->doc->file, (int)ev->start_mark.line + 1,
				(int)ev->start_mark.column + 1,
				"aliases (*%s) are not supported: write the value out",
				(const char *)ev->data.alias.anchor);
	case YAML_SCALAR_EVENT:
		ret = check_plain_event(b, ev, ev->data.scalar.anchor,
					ev->data.scalar.plain_implicit ||
						ev->data.scalar.quoted_implicit
					    ? NULL
					    : ev->data.scalar.tag);
		if (ret)
			return ret;
		if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length))
			return error_at(b->err, b->doc->file, (int)ev->start_mark.line + 1,
					(int)ev->start_mark.column + 1,
					"a value contains a NUL character");
		n = node_new(b, YDOC_SCALAR, &ev->start_mark);
		if (!n)
			return -ENOMEM;
		n->text = strndup((const char *)ev->data.scalar.value, ev->data.scalar.length);
		if (!n->text) {
			free(n);
			return -ENOMEM;
		}
		n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
		return attach(b, n);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		bool seq = ev->type == YAML_SEQUENCE_START_EVENT;

		ret = check_plain_event(
		    b, ev, seq ? ev->data.sequence_start.anchor : ev->data.mapping_start.anchor,
		    (seq ? ev->data.sequence_start.implicit : ev->data.mapping_start.implicit)
			? NULL
			: (seq ? ev->data.sequence_start.tag : ev->data.mapping_start.tag));
		if (ret)
			return ret;
		if (b->depth == YDOC_MAX_DEPTH)
			return error_at(b->err, b->doc->file, (int)ev->start_mark.line + 1,
					(int)ev->start_mark.column + 1,
					"nesting deeper than %d levels", YDOC_MAX_DEPTH);
		n = node_new(b, seq ? YDOC_SEQUENCE : YDOC_MAPPING, &ev->start_mark);
		if (!n)
			return -ENOMEM;
		ret = attach(b, n);
		if (ret)
			return ret;
		b->stack[b->depth++] = (struct frame){.node = n};
		return 0;
	}
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		if (b->depth > 0)
			b->depth--;
		return 0;
	case YAML_NO_EVENT:
		break;
	}
	return 0;
}

int ydoc_parse_string(const char *text, size_t len, const char *file, struct ydoc **out,
		      struct ydoc_error *err)
{
	yaml_parser_t parser;
	struct builder b = {.err = err};
	struct ydoc_error local;
	bool done = false;
	int ret = 0;

	if (!err)
		err = b.err = &local;
	b.doc = calloc(1, sizeof(*b.doc));
	if (!b.doc)
		return -ENOMEM;
	b.doc->file = strdup(file ? file : "<string>");
	if (!b.doc->file) {
		free(b.doc);
		return -ENOMEM;
	}
	if (!yaml_parser_initialize(&parser)) {
		ydoc_free(b.doc);
		return -ENOMEM;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	while (!done) {
		yaml_event_t ev;

		if (!yaml_parser_parse(&parser, &ev)) {
			if (parser.error == YAML_MEMORY_ERROR) {
				ret = -ENOMEM;
			} else {
				const yaml_mark_t *m = &parser.problem_mark;
				/* The most common cause by far: a tab where YAML wants spaces. */
				bool tab = m->index < len && text[m->index] == '\t';

				ret = error_at(
				    err, b.doc->file, (int)m->line + 1, (int)m->column + 1,
				    "YAML syntax error: %s%s%s%s",
				    parser.problem ? parser.problem : "malformed input",
				    parser.context ? " " : "", parser.context ? parser.context : "",
				    tab ? " (a tab: YAML indents with spaces only)" : "");
			}
			break;
		}
		ret = on_event(&b, &ev, &done);
		yaml_event_delete(&ev);
		if (ret)
			break;
	}
	yaml_parser_delete(&parser);
	if (ret) {
		/* A key waiting for its value belongs to no node yet. */
		for (int i = 0; i < b.depth; i++)
			node_free(b.stack[i].key);
		ydoc_free(b.doc);
		return ret;
	}
	*out = b.doc;
	return 0;
}

static int read_file(const char *path, char **text, size_t *len, struct ydoc_error *err)
{
	struct stat st;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		error_at(err, path, 0, 0, "cannot open: %s", strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		error_at(err, path, 0, 0, "cannot stat: %s", strerror(-ret));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size > YDOC_MAX_FILE) {
		ret = error_at(err, path, 0, 0, "not a regular file of at most 16 MiB");
		goto out;
	}
	ret = fileio_read_fd(fd, YDOC_MAX_FILE, text, len);
	if (ret == -EFBIG) /* it grew since the fstat */
		ret = error_at(err, path, 0, 0, "not a regular file of at most 16 MiB");
	else if (ret)
		error_at(err, path, 0, 0, "cannot read: %s", strerror(-ret));
out:
	close(fd);
	return ret;
}

int ydoc_parse_file(const char *path, struct ydoc **out, char **text, size_t *text_len,
		    struct ydoc_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	int ret;

	ret = read_file(path, &buf, &len, err);
	if (ret)
		return ret;
	ret = ydoc_parse_string(buf, len, path, out, err);
	if (ret == 0 && text) {
		*text = buf;
		*text_len = len;
		buf = NULL;
	}
	free(buf);
	return ret;
}

/* ---- overrides ------------------------------------------------------------------------------ */

static int set_error(struct ydoc_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int set_error(struct ydoc_error *err, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return -EINVAL;
	memset(err, 0, sizeof(*err));
	snprintf(err->file, sizeof(err->file), "--set");
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static void retarget(struct ydoc_node *n, const char *file)
{
	n->file = file;
	for (size_t i = 0; i < n->n; i++) {
		if (n->type == YDOC_SEQUENCE) {
			retarget(n->items[i], file);
		} else {
			n->pairs[i].key->file = file;
			retarget(n->pairs[i].value, file);
		}
	}
}

/* A plain scalar with the position of `at`. */
static int scalar_new(const struct ydoc *doc, const char *text, const struct ydoc_node *at,
		      struct ydoc_node **out)
{
	struct ydoc_node *n = calloc(1, sizeof(*n));

	if (!n)
		return -ENOMEM;
	n->type = YDOC_SCALAR;
	n->text = strdup(text);
	if (!n->text) {
		free(n);
		return -ENOMEM;
	}
	n->file = doc->file;
	n->line = at->line;
	n->col = at->col;
	*out = n;
	return 0;
}

int ydoc_node_copy(const struct ydoc_node *n, struct ydoc_node **out)
{
	struct ydoc_node *c = calloc(1, sizeof(*c));
	int ret = -ENOMEM;

	if (!c)
		return -ENOMEM;
	*c = (struct ydoc_node){.type = n->type, .line = n->line, .col = n->col, .file = n->file,
				.quoted = n->quoted};
	if (n->text && !(c->text = strdup(n->text)))
		goto fail;
	if (n->type == YDOC_SEQUENCE && n->n) {
		c->items = calloc(n->n, sizeof(*c->items));
		if (!c->items)
			goto fail;
		for (size_t i = 0; i < n->n; i++, c->n++)
			if ((ret = ydoc_node_copy(n->items[i], &c->items[i])))
				goto fail;
	} else if (n->type == YDOC_MAPPING && n->n) {
		c->pairs = calloc(n->n, sizeof(*c->pairs));
		if (!c->pairs)
			goto fail;
		for (size_t i = 0; i < n->n; i++) {
			ret = ydoc_node_copy(n->pairs[i].key, &c->pairs[i].key);
			if (!ret)
				ret = ydoc_node_copy(n->pairs[i].value, &c->pairs[i].value);
			if (ret) {
				node_free(c->pairs[i].key);
				goto fail;
			}
			c->n++;
		}
	}
	*out = c;
	return 0;
fail:
	node_free(c);
	return ret ? ret : -ENOMEM;
}

void ydoc_node_free(struct ydoc_node *n)
{
	node_free(n);
}

int ydoc_seq_remove(struct ydoc_node *seq, size_t i)
{
	if (!seq || seq->type != YDOC_SEQUENCE || i >= seq->n)
		return -EINVAL;
	node_free(seq->items[i]);
	memmove(&seq->items[i], &seq->items[i + 1], (seq->n - i - 1) * sizeof(*seq->items));
	seq->n--;
	return 0;
}

int ydoc_map_remove(struct ydoc_node *map, const char *key)
{
	if (!map || map->type != YDOC_MAPPING)
		return -EINVAL;
	for (size_t i = 0; i < map->n; i++) {
		if (strcmp(map->pairs[i].key->text, key))
			continue;
		node_free(map->pairs[i].key);
		node_free(map->pairs[i].value);
		memmove(&map->pairs[i], &map->pairs[i + 1], (map->n - i - 1) * sizeof(*map->pairs));
		map->n--;
		return 0;
	}
	return -ENOENT;
}

/* The replacement node: a copy of `node` when given (a profile's `set:` value, keeping its
 * position), else from the text: a flow collection ("[4k, 8k]", "{threads: 2}") or a plain
 * scalar. */
static int make_value(const struct ydoc *doc, const char *value, const struct ydoc_node *node,
		      const struct ydoc_node *at, struct ydoc_node **out, struct ydoc_error *err)
{
	struct ydoc_node *n;

	if (node)
		return ydoc_node_copy(node, out);
	if (value[0] == '[' || value[0] == '{') {
		struct ydoc *sub;
		struct ydoc_error e;
		int ret = ydoc_parse_string(value, strlen(value), "--set", &sub, &e);

		if (ret == -EINVAL)
			return set_error(err, "value '%s': %s", value, e.msg);
		if (ret)
			return ret;
		n = sub->root;
		sub->root = NULL;
		ydoc_free(sub);
		if (!n)
			return set_error(err, "empty value");
		/* Errors inside the grafted value point into the --set text, whose name must
		 * outlive the sub-document: a literal. */
		retarget(n, "--set");
		*out = n;
		return 0;
	}
	return scalar_new(doc, value, at, out);
}

/* Parses a list index: digits only. */
static bool parse_index(const char *s, size_t *idx)
{
	uint64_t v;

	if (!*s || !isdigit((unsigned char)*s) || units_parse_u64(s, &v) || strchr(s, 'x'))
		return false;
	*idx = (size_t)v;
	return true;
}

/* ydoc_set_path() and ydoc_set_node(): the value is `node` when not NULL, else `value`. */
static int set_path(struct ydoc *doc, const char *path, const char *value,
		    const struct ydoc_node *node, struct ydoc_error *err)
{
	char buf[512], walked[512] = "";
	char *comp, *next;
	struct ydoc_node *cur, **slot = NULL, *nv = NULL;
	int ret;

	if (!path || !*path || strlen(path) >= sizeof(buf))
		return set_error(err, "expected a path such as phases.2.rounds.cell_time");
	if (!value)
		value = "";
	snprintf(buf, sizeof(buf), "%s", path);
	cur = doc->root;
	if (!cur)
		return set_error(err, "%s: the document is empty", path);
	for (comp = buf; comp; comp = next) {
		next = strchr(comp, '.');
		if (next)
			*next++ = '\0';
		if (!*comp)
			return set_error(err, "%s: empty component in the path", path);
		if (cur->type == YDOC_SCALAR)
			return set_error(err, "%s: '%s' is a single value, it has no '%s'", path,
					 *walked ? walked : "the document", comp);
		if (cur->type == YDOC_SEQUENCE) {
			size_t idx;

			if (!parse_index(comp, &idx))
				return set_error(
				    err,
				    "%s: '%s' is a list: expected an index (0 to %zu), got '%s'",
				    path, *walked ? walked : "the document",
				    cur->n ? cur->n - 1 : 0, comp);
			if (cur->n == 0)
				return set_error(err, "%s: '%s' is an empty list", path,
						 *walked ? walked : "the document");
			if (idx >= cur->n)
				return set_error(
				    err, "%s: '%s' has %zu item%s (indexes 0 to %zu), no %zu", path,
				    *walked ? walked : "the document", cur->n,
				    cur->n == 1 ? "" : "s", cur->n ? cur->n - 1 : 0, idx);
			slot = &cur->items[idx];
		} else {
			size_t i;

			for (i = 0; i < cur->n; i++)
				if (!strcmp(cur->pairs[i].key->text, comp))
					break;
			if (i == cur->n) {
				struct ydoc_node *k;
				struct ydoc_pair *p;

				if (next)
					return set_error(err, "%s: no key '%s' in '%s'", path, comp,
							 *walked ? walked : "the document");
				/* The last component may add a key to an existing mapping. */
				ret = scalar_new(doc, comp, cur, &k);
				if (ret)
					return ret;
				ret = make_value(doc, value, node, cur, &nv, err);
				if (ret) {
					node_free(k);
					return ret;
				}
				p = realloc(cur->pairs, (cur->n + 1) * sizeof(*p));
				if (!p) {
					node_free(k);
					node_free(nv);
					return -ENOMEM;
				}
				cur->pairs = p;
				cur->pairs[cur->n].key = k;
				cur->pairs[cur->n].value = nv;
				cur->n++;
				return 0;
			}
			slot = &cur->pairs[i].value;
		}
		cur = *slot;
		if (strlen(walked) + strlen(comp) + 2 < sizeof(walked)) {
			if (*walked)
				strcat(walked, ".");
			strcat(walked, comp);
		}
	}
	ret = make_value(doc, value, node, cur, &nv, err);
	if (ret)
		return ret;
	node_free(*slot);
	*slot = nv;
	return 0;
}

int ydoc_set_path(struct ydoc *doc, const char *path, const char *value, struct ydoc_error *err)
{
	return set_path(doc, path, value, NULL, err);
}

int ydoc_set_node(struct ydoc *doc, const char *path, const struct ydoc_node *value,
		  struct ydoc_error *err)
{
	return set_path(doc, path, NULL, value, err);
}

int ydoc_set_assignment(struct ydoc *doc, const char *assignment, struct ydoc_error *err)
{
	const char *eq = assignment ? strchr(assignment, '=') : NULL;
	char path[512];

	if (!eq || eq == assignment || (size_t)(eq - assignment) >= sizeof(path))
		return set_error(
		    err, "expected KEY=VALUE such as phases.2.rounds.cell_time=30s, got '%s'",
		    assignment ? assignment : "");
	memcpy(path, assignment, (size_t)(eq - assignment));
	path[eq - assignment] = '\0';
	return ydoc_set_path(doc, path, eq + 1, err);
}

/* ---- the schema ----------------------------------------------------------------------------- */

/* Edit distance of two short strings (cut at 63 characters: names are shorter), counting a
 * swap of two neighbours as one edit ("idel" -> "idle"): optimal string alignment distance. */
static unsigned edit_distance(const char *a, const char *b)
{
	unsigned d[64][64], la = (unsigned)strnlen(a, 63), lb = (unsigned)strnlen(b, 63);

	for (unsigned i = 0; i <= la; i++)
		d[i][0] = i;
	for (unsigned j = 0; j <= lb; j++)
		d[0][j] = j;
	for (unsigned i = 1; i <= la; i++) {
		for (unsigned j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]),
			    cb = tolower((unsigned char)b[j - 1]);
			unsigned best = d[i - 1][j - 1] + (ca != cb);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *ydoc_nearest(const char *name, const char *const *names)
{
	const char *best = NULL;
	unsigned bestd = UINT_MAX, len = (unsigned)strlen(name), limit;

	/* A third of the word, at least 1 and at most 3 edits: "cell_tme" -> "cell_time", while
	 * "foo" suggests nothing from unrelated names. */
	limit = len / 3;
	if (limit < 1)
		limit = 1;
	if (limit > 3)
		limit = 3;
	for (; *names; names++) {
		unsigned d = edit_distance(name, *names);

		if (d < bestd) {
			bestd = d;
			best = *names;
		}
	}
	return bestd <= limit ? best : NULL;
}

const char *ydoc_kind_expect(enum ydoc_kind kind)
{
	switch (kind) {
	case YK_STRING:
		return "a text";
	case YK_BOOL:
		return "true or false";
	case YK_INT:
		return "a whole number";
	case YK_UINT:
	case YK_U64:
		return "a whole number such as 4";
	case YK_DOUBLE:
		return "a number such as 1.5";
	case YK_SIZE:
		return units_expect_size();
	case YK_DURATION:
		return units_expect_duration();
	case YK_PERCENT:
		return units_expect_percent();
	case YK_AMOUNT:
		return units_expect_amount();
	case YK_RANGE:
		return units_expect_range();
	case YK_ENUM:
		return "one of the listed names";
	case YK_MAPPING:
		return "a mapping (key: value, ...)";
	case YK_SEQUENCE:
		return "a list ([a, b] or '- ' items)";
	case YK_ANY:
		return "a value";
	}
	return "a value";
}

/* "'fast'", "nothing", "a list": what was found, for messages. */
static const char *got_text(const struct ydoc_node *n, char *buf, size_t len)
{
	if (n->type != YDOC_SCALAR)
		return ydoc_type_name(n->type);
	if (!n->quoted && !*n->text)
		return "nothing";
	if (strlen(n->text) > 40)
		snprintf(buf, len, "'%.37s...'", n->text);
	else
		snprintf(buf, len, "'%s'", n->text);
	return buf;
}

static const char *key_expect(const struct ydoc_key *k)
{
	return k->expect ? k->expect : ydoc_kind_expect(k->kind);
}

static int wrong(const struct ydoc_node *n, const struct ydoc_key *k, struct ydoc_error *err)
{
	char g[64];

	return ydoc_errorf(err, n, "expected %s, got %s", key_expect(k), got_text(n, g, sizeof(g)));
}

/* Prints a bound in the kind's unit for "must be from A to B". */
static const char *bound_fmt(const struct ydoc_key *k, double v, char *buf, size_t len)
{
	char num[40];

	switch (k->kind) {
	case YK_SIZE:
		return units_fmt_size((uint64_t)v, buf, len);
	case YK_DURATION:
		return units_fmt_duration((uint64_t)v, buf, len);
	case YK_PERCENT:
		snprintf(buf, len, "%s%%",
			 units_fmt_double(v * 100.0, v * 100 == (long)(v * 100) ? 0 : 2, num,
					  sizeof(num)));
		return buf;
	case YK_DOUBLE:
		return units_fmt_double(v, v == (long)v ? 0 : 3, buf, len);
	default:
		snprintf(buf, len, "%.0f", v);
		return buf;
	}
}

static int check_bounds(const struct ydoc_node *n, const struct ydoc_key *k, double v,
			struct ydoc_error *err)
{
	char lo[48], hi[48];

	if (!k->bounded || (v >= k->min && v <= k->max))
		return 0;
	return ydoc_errorf(err, n, "%s %s is outside %s to %s", k->name, n->text,
			   bound_fmt(k, k->min, lo, sizeof(lo)),
			   bound_fmt(k, k->max, hi, sizeof(hi)));
}

/* Text of the unit part when a value starts like a number but the unit is unknown. */
static bool bad_unit(const char *s, char *unit, size_t len)
{
	const char *p = s;

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p) && *p != '.')
		return false;
	while (isdigit((unsigned char)*p) || *p == '.' || *p == ' ')
		p++;
	if (!*p || !isalpha((unsigned char)*p))
		return false;
	snprintf(unit, len, "%s", p);
	return true;
}

/* Errors of the units parsers: bad unit, too large, or not of the form at all. */
static int unit_error(const struct ydoc_node *n, const struct ydoc_key *k, int ret,
		      struct ydoc_error *err)
{
	char unit[32], g[64];

	if (ret == -ERANGE)
		return ydoc_errorf(err, n, "invalid %s %s (expected %s)", k->name, n->text,
				   key_expect(k));
	if (ret == -EINVAL && bad_unit(n->text, unit, sizeof(unit)))
		return ydoc_errorf(err, n, "bad unit '%s' in %s: expected %s", unit,
				   got_text(n, g, sizeof(g)), key_expect(k));
	if (ret == -EINVAL)
		return wrong(n, k, err);
	return ret;
}

static int convert_enum(const struct ydoc_node *n, const struct ydoc_key *k, int *out,
			struct ydoc_error *err)
{
	char list[256] = "", g[64];
	const char *near;

	for (int i = 0; k->enum_names[i]; i++) {
		if (!strcmp(n->text, k->enum_names[i])) {
			*out = i;
			return 0;
		}
	}
	if (k->expect)
		snprintf(list, sizeof(list), "%s", k->expect);
	for (int i = 0; !k->expect && k->enum_names[i]; i++) {
		size_t l = strlen(list);

		snprintf(list + l, sizeof(list) - l, "%s%s",
			 i ? (k->enum_names[i + 1] ? ", " : " or ") : "", k->enum_names[i]);
	}
	near = ydoc_nearest(n->text, k->enum_names);
	if (near)
		return ydoc_errorf(err, n, "expected %s, got %s (did you mean '%s'?)", list,
				   got_text(n, g, sizeof(g)), near);
	return ydoc_errorf(err, n, "expected %s, got %s", list, got_text(n, g, sizeof(g)));
}

/* A number or a percentage: parse, check the bounds, store a double. */
static int convert_double(const struct ydoc_node *n, const struct ydoc_key *k,
			  int (*parse)(const char *, double *), void *out, struct ydoc_error *err)
{
	double v;
	int ret = parse(n->text, &v);

	if (ret)
		return unit_error(n, k, ret, err);
	ret = check_bounds(n, k, v, err);
	if (ret)
		return ret;
	*(double *)out = v;
	return 0;
}

int ydoc_convert(const struct ydoc_node *n, const struct ydoc_key *k, void *out,
		 struct ydoc_error *err)
{
	int ret;

	switch (k->kind) {
	case YK_MAPPING:
		if (n->type != YDOC_MAPPING)
			return wrong(n, k, err);
		*(const struct ydoc_node **)out = n;
		return 0;
	case YK_SEQUENCE:
		if (n->type != YDOC_SEQUENCE)
			return wrong(n, k, err);
		*(const struct ydoc_node **)out = n;
		return 0;
	case YK_ANY:
		*(const struct ydoc_node **)out = n;
		return 0;
	default:
		break;
	}
	if (n->type != YDOC_SCALAR)
		return wrong(n, k, err);
	/* An empty plain scalar ("cell_time:" with nothing after it) is YAML's null. */
	if (!n->quoted && !*n->text && k->kind != YK_STRING)
		return wrong(n, k, err);
	switch (k->kind) {
	case YK_STRING:
		*(const char **)out = n->text;
		return 0;
	case YK_BOOL: {
		static const char *const t[] = {"true", "yes", "on", NULL};
		static const char *const f[] = {"false", "no", "off", NULL};

		for (int i = 0; t[i]; i++) {
			if (!strcasecmp(n->text, t[i])) {
				*(bool *)out = true;
				return 0;
			}
			if (!strcasecmp(n->text, f[i])) {
				*(bool *)out = false;
				return 0;
			}
		}
		return wrong(n, k, err);
	}
	case YK_INT: {
		const char *s = n->text;
		bool neg = *s == '-';
		uint64_t v;

		ret = units_parse_u64(neg ? s + 1 : s, &v);
		if (ret == 0 && v > (uint64_t)INT64_MAX + neg)
			ret = -ERANGE;
		if (ret)
			return ret == -ERANGE ? unit_error(n, k, ret, err) : wrong(n, k, err);
		{
			int64_t x = neg ? (int64_t)(0 - v) : (int64_t)v;

			ret = check_bounds(n, k, (double)x, err);
			if (ret)
				return ret;
			*(int64_t *)out = x;
		}
		return 0;
	}
	case YK_UINT:
	case YK_U64: {
		uint64_t v;

		ret = units_parse_u64(n->text, &v);
		if (ret)
			return ret == -ERANGE ? unit_error(n, k, ret, err) : wrong(n, k, err);
		ret = check_bounds(n, k, (double)v, err);
		if (ret)
			return ret;
		if (k->kind == YK_UINT) {
			if (v > UINT_MAX)
				return unit_error(n, k, -ERANGE, err);
			*(unsigned *)out = (unsigned)v;
		} else {
			*(uint64_t *)out = v;
		}
		return 0;
	}
	case YK_DOUBLE:
		return convert_double(n, k, units_parse_double, out, err);
	case YK_SIZE:
	case YK_DURATION: {
		uint64_t v;

		ret = k->kind == YK_SIZE ? units_parse_size(n->text, &v)
					 : units_parse_duration(n->text, &v);
		if (ret)
			return unit_error(n, k, ret, err);
		ret = check_bounds(n, k, (double)v, err);
		if (ret)
			return ret;
		if (k->align && v % k->align) {
			char a[32];

			return ydoc_errorf(err, n, "%s must be a multiple of %s, got %s", k->name,
					   units_fmt_size(k->align, a, sizeof(a)), n->text);
		}
		*(uint64_t *)out = v;
		return 0;
	}
	case YK_PERCENT:
		return convert_double(n, k, units_parse_percent, out, err);
	case YK_AMOUNT: {
		struct amount a;

		ret = units_parse_amount(n->text, &a);
		if (ret)
			return unit_error(n, k, ret, err);
		if (k->align && a.kind == AMOUNT_BYTES && a.bytes % k->align) {
			char al[32];

			return ydoc_errorf(err, n, "%s must be a multiple of %s, got %s", k->name,
					   units_fmt_size(k->align, al, sizeof(al)), n->text);
		}
		*(struct amount *)out = a;
		return 0;
	}
	case YK_RANGE: {
		struct range r;

		ret = units_parse_range(n->text, &r);
		if (ret)
			return unit_error(n, k, ret, err);
		if (k->align && !r.percent && (r.lo_b % k->align || r.hi_b % k->align)) {
			char a[32];

			return ydoc_errorf(err, n, "%s ends must be multiples of %s, got %s",
					   k->name, units_fmt_size(k->align, a, sizeof(a)),
					   n->text);
		}
		*(struct range *)out = r;
		return 0;
	}
	case YK_ENUM:
		return convert_enum(n, k, (int *)out, err);
	default:
		return wrong(n, k, err);
	}
}

int ydoc_map_read_multi(const struct ydoc_node *map, const char *ctx,
			const struct ydoc_schema *schemas, size_t nschemas, struct ydoc_error *err)
{
	const char *names[YDOC_SCHEMA_MAX_KEYS + 1];
	uint64_t seen[YDOC_SCHEMA_MAX] = {0};
	size_t nnames = 0;
	char g[64];
	int ret;

	if (nschemas > YDOC_SCHEMA_MAX)
		return -EINVAL;
	for (size_t s = 0; s < nschemas; s++)
		for (size_t j = 0; schemas[s].keys[j].name && j < 64; j++)
			if (nnames < YDOC_SCHEMA_MAX_KEYS)
				names[nnames++] = schemas[s].keys[j].name;
	names[nnames] = NULL;
	if (!map)
		return ydoc_errorf(err, NULL, "%s: expected a mapping", ctx);
	/* "purge:" with nothing after it is YAML's null: no settings, defaults apply. */
	if (map->type == YDOC_SCALAR && !map->quoted && !*map->text) {
		for (size_t s = 0; s < nschemas; s++)
			for (size_t j = 0; schemas[s].keys[j].name && j < 64; j++)
				if (schemas[s].keys[j].required)
					return ydoc_errorf(err, map,
							   "missing required key '%s' in %s",
							   schemas[s].keys[j].name, ctx);
		for (size_t s = 0; s < nschemas; s++)
			if (schemas[s].present)
				*schemas[s].present = 0;
		return 0;
	}
	if (map->type != YDOC_MAPPING)
		return ydoc_errorf(err, map, "expected a mapping of settings for %s, got %s", ctx,
				   got_text(map, g, sizeof(g)));
	for (size_t i = 0; i < map->n; i++) {
		const struct ydoc_node *kn = map->pairs[i].key;
		size_t s, j = 0;
		bool found = false;

		for (s = 0; s < nschemas && !found; s++)
			for (j = 0; schemas[s].keys[j].name && j < 64; j++)
				if (!strcmp(kn->text, schemas[s].keys[j].name)) {
					found = true;
					break;
				}
		if (!found) {
			const char *near = ydoc_nearest(kn->text, names);

			if (near)
				return ydoc_errorf(err, kn,
						   "unknown key '%s' in %s (did you mean '%s'?)",
						   kn->text, ctx, near);
			return ydoc_errorf(err, kn, "unknown key '%s' in %s", kn->text, ctx);
		}
		s--;
		ret = ydoc_convert(map->pairs[i].value, &schemas[s].keys[j],
				   (char *)schemas[s].dst + schemas[s].keys[j].offset, err);
		if (ret)
			return ret;
		seen[s] |= 1ull << j;
	}
	for (size_t s = 0; s < nschemas; s++)
		for (size_t j = 0; schemas[s].keys[j].name && j < 64; j++)
			if (schemas[s].keys[j].required && !(seen[s] & (1ull << j)))
				return ydoc_errorf(err, map, "missing required key '%s' in %s",
						   schemas[s].keys[j].name, ctx);
	for (size_t s = 0; s < nschemas; s++)
		if (schemas[s].present)
			*schemas[s].present = seen[s];
	return 0;
}

int ydoc_map_read(const struct ydoc_node *map, const char *ctx, const struct ydoc_key *keys,
		  void *dst, uint64_t *present, struct ydoc_error *err)
{
	const struct ydoc_schema s = {.keys = keys, .dst = dst, .present = present};

	return ydoc_map_read_multi(map, ctx, &s, 1, err);
}
