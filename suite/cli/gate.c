/* SPDX-License-Identifier: MIT */
/*
 * gate: the in-use check before opening a target and the confirmation after. See gate.h.
 */
#include "cli/gate.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/clock.h"
#include "host/safety.h"
#include "targets/target.h"

int cli_gate_in_use(const char *cmd, const char *path, const char *refusal, unsigned patience_ms)
{
	/* probe_excl: a device another program holds O_EXCL is named as such. */
	struct safety_opts so = {.probe_excl = true};
	char reason[1024] = "";
	unsigned waited = 0;
	struct stat st;
	int rc;

	/* A directory or a character device cannot be a target at all: that is bad usage, which
	 * target_open reports (exit 2), not a safety refusal. */
	if (!stat(path, &st) && !S_ISBLK(st.st_mode) && !S_ISREG(st.st_mode))
		return 0;
	for (;;) {
		rc = safety_check_in_use(path, &so, reason, sizeof(reason));
		if (rc != -EPERM || waited >= patience_ms)
			break;
		cli_sleep_ms(100);
		waited += 100;
	}
	if (!rc || rc == -ENOENT)
		return 0;
	cli_error(cmd, "%s: %s", refusal, reason[0] ? reason : strerror(-rc));
	return EXIT_SAFETY;
}

int cli_gate_confirm(const char *cmd, const struct target_info *ti, const char *what,
		     const char *yes_destroy, const char *refusal)
{
	return cli_gate_confirm_reach(cmd, ti, what, yes_destroy, refusal, false);
}

int cli_gate_confirm_reach(const char *cmd, const struct target_info *ti, const char *what,
			   const char *yes_destroy, const char *refusal, bool whole_subsystem)
{
	struct safety_opts so = {
	    .yes_destroy = yes_destroy, .allow_prompt = true, .whole_subsystem = whole_subsystem};
	char reason[4096] = ""; /* names the WWN twice, which may be 1024 long */
	struct safety_target id;
	int rc;

	target_safety_identity(ti, &id);
	rc = safety_confirm_destructive(&id, what, &so, reason, sizeof(reason));
	if (!rc)
		return 0;
	cli_error(cmd, "%s: %s", refusal, reason[0] ? reason : strerror(-rc));
	return EXIT_SAFETY;
}
