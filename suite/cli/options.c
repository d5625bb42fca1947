/* SPDX-License-Identifier: MIT */
/*
 * options: option values, getopt rejections, repeatable-option lists, the environment's
 * directories. See options.h.
 */
#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "base/units.h"

static int opt_fail(const char *cmd, const char *opt, const char *arg, int rc, const char *expect)
{
	if (rc == -ERANGE)
		cli_error(cmd, "%s: '%s' is out of range", opt, arg);
	else
		cli_error(cmd, "%s: '%s' is not %s", opt, arg, expect);
	return rc;
}

int cli_opt_u64(const char *cmd, const char *opt, const char *arg, uint64_t *v)
{
	int rc = units_parse_u64(arg, v);

	return rc ? opt_fail(cmd, opt, arg, rc, "a non-negative integer") : 0;
}

int cli_opt_double(const char *cmd, const char *opt, const char *arg, double *v)
{
	int rc = units_parse_double(arg, v);

	return rc ? opt_fail(cmd, opt, arg, rc, "a number such as 0.5") : 0;
}

int cli_opt_size(const char *cmd, const char *opt, const char *arg, uint64_t *bytes)
{
	int rc = units_parse_size(arg, bytes);

	return rc ? opt_fail(cmd, opt, arg, rc, units_expect_size()) : 0;
}

int cli_opt_duration(const char *cmd, const char *opt, const char *arg, uint64_t *ns)
{
	int rc = units_parse_duration(arg, ns);

	return rc ? opt_fail(cmd, opt, arg, rc, units_expect_duration()) : 0;
}

int cli_opt_reject(const char *cmd, int c, char **argv)
{
	const char *opt = optind > 0 ? argv[optind - 1] : "?";

	if (c == ':')
		cli_error(cmd, "%s needs a value (see ssdlab %s --help)", opt, cmd);
	else
		cli_error(cmd, "unknown option '%s' (see ssdlab %s --help)", opt, cmd);
	return EXIT_USAGE;
}
int cli_strlist_add(struct cli_strlist *l, const char *s)
{
	char *copy;

	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 8;
		char **v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	l->v[l->n++] = copy;
	return 0;
}

void cli_strlist_release(struct cli_strlist *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

static const char *env_dir(const char *var)
{
	const char *v = getenv(var);

	return v && *v ? v : NULL;
}

const char *cli_profiles_dir(void)
{
	return env_dir("SSDLAB_PROFILES");
}

const char *cli_models_dir(void)
{
	return env_dir("SSDLAB_MODELS");
}
