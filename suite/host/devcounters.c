// SPDX-License-Identifier: MIT
#include "host/devcounters.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void devcounters_init(struct devcounters *dc)
{
	dc->n = 0;
}

static struct devcounter *find(struct devcounters *dc, const char *key)
{
	for (size_t i = 0; i < dc->n; i++)
		if (!strcmp(dc->c[i].key, key))
			return &dc->c[i];
	return NULL;
}

int devcounters_set(struct devcounters *dc, const char *key, uint64_t value)
{
	struct devcounter *c;
	size_t len = strlen(key);

	if (!len || len >= DEVCOUNTER_KEY_MAX)
		return -EINVAL;
	c = find(dc, key);
	if (!c) {
		if (dc->n == DEVCOUNTERS_MAX)
			return -ENOSPC;
		c = &dc->c[dc->n++];
		memcpy(c->key, key, len + 1);
	}
	c->value = value;
	return 0;
}

int devcounters_setf(struct devcounters *dc, uint64_t value, const char *fmt, ...)
{
	char key[DEVCOUNTER_KEY_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(key, sizeof key, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof key)
		return -EINVAL;
	return devcounters_set(dc, key, value);
}

const struct devcounter *devcounters_get(const struct devcounters *dc, const char *key)
{
	return find((struct devcounters *)dc, key);
}

bool devcounters_equal(const struct devcounters *a, const struct devcounters *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct devcounter *o = devcounters_get(b, a->c[i].key);
		if (!o || o->value != a->c[i].value)
			return false;
	}
	return true;
}
