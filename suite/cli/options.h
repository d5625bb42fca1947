/* SPDX-License-Identifier: MIT */
/*
 * options: what the user tells ssdlab besides the subcommand: option values parsed with units
 * (printing "ssdlab CMD: --opt: expected ..." when one is malformed), the answer to what getopt
 * rejected, a list of strings from a repeatable option (--set KEY=VALUE), and the directories
 * named in the environment. The libraries read no environment; the CLI reads it here and passes
 * it down.
 *
 * Functions return 0 or -errno and leave output parameters untouched on failure.
 */
#ifndef SSDLAB_CLI_OPTIONS_H
#define SSDLAB_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

/* Each parses `arg` for option `opt` of subcommand `cmd`; on failure prints the expected form
 * with cli_error() and returns -EINVAL (or -ERANGE). */
int cli_opt_u64(const char *cmd, const char *opt, const char *arg, uint64_t *v);
int cli_opt_double(const char *cmd, const char *opt, const char *arg, double *v);
int cli_opt_size(const char *cmd, const char *opt, const char *arg, uint64_t *bytes);
int cli_opt_duration(const char *cmd, const char *opt, const char *arg, uint64_t *ns);

/* The one-line answer to what getopt_long() rejected (call it with opterr = 0 and an optstring
 * that starts with ':'): c is getopt's ':' (a value is missing) or '?' (unknown option); names
 * the option and points to `ssdlab CMD --help`. Returns EXIT_USAGE. */
int cli_opt_reject(const char *cmd, int c, char **argv);

/* A growable list of strings (copies). cli_strlist_release frees the copies; accepts NULL. */
struct cli_strlist {
	char **v;
	size_t n, cap;
};
int cli_strlist_add(struct cli_strlist *l, const char *s);
void cli_strlist_release(struct cli_strlist *l);

/*
 * The directories the user names in the environment, searched before the bundled ones:
 * $SSDLAB_PROFILES and $SSDLAB_MODELS (NULL when unset or empty). The libraries read no
 * environment; the CLI reads it here and passes it down (profile_load, target_open_opts).
 */
const char *cli_profiles_dir(void);
const char *cli_models_dir(void);

#endif
