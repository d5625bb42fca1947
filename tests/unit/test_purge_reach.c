// SPDX-License-Identifier: MIT
/*
 * test_purge_reach: what the run's confirmation says about a profile's purges (cli/purge_reach.h):
 * nvme-sanitize reaches the whole subsystem (whole_subsystem set, the sanitize warning: subsystem-
 * wide, not abortable, survives power loss, restricted state on failure); auto and nvme-format
 * may (said, checked again at the purge); a target without drive purge commands adds nothing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/ydoc.h"
#include "cli/purge_reach.h"
#include "profile/profile.h"
#include "targets/target.h"

static int t_open(struct target *t, const char *spec, const struct target_open_opts *o)
{
	(void)spec;
	(void)o;
	target_info_mut(t)->capacity = 1 << 20;
	target_info_mut(t)->nvme.nsid = 1; /* an NVMe namespace; the SATA case clears it */
	return 0;
}
static void t_close(struct target *t)
{
	(void)t;
}
static int t_qopen(struct target *t, const struct target_queue_opts *o, struct target_queue **q)
{
	(void)t;
	(void)o;
	(void)q;
	return -ENOSYS;
}
static void t_qclose(struct target_queue *q)
{
	(void)q;
}
static int t_submit(struct target_queue *q, struct target_io *ios, unsigned n)
{
	(void)q;
	(void)ios;
	(void)n;
	return -ENOSYS;
}
static int t_reap(struct target_queue *q, struct target_completion *c, unsigned min, unsigned max)
{
	(void)q;
	(void)c;
	(void)min;
	(void)max;
	return -ENOSYS;
}
static uint64_t t_now(struct target *t)
{
	(void)t;
	return 0;
}

static const struct target_ops ops = {.name = "reach",
				      .open = t_open,
				      .close = t_close,
				      .queue_open = t_qopen,
				      .queue_close = t_qclose,
				      .submit = t_submit,
				      .reap = t_reap,
				      .now = t_now};

static struct profile *parse(const char *method, bool in_repeat)
{
	char text[512];
	struct ydoc_error e;
	struct profile *p = NULL;

	if (in_repeat) /* the purge one level down, inside the repeat's phases */
		snprintf(text, sizeof text,
			 "name: x\ndestructive: true\nphases:\n  - repeat:\n      count: 2\n      "
			 "phases:\n"
			 "        - purge: {method: %s}\n",
			 method);
	else
		snprintf(text, sizeof text,
			 "name: x\ndestructive: true\nphases:\n  - purge: {method: %s}\n  - idle: "
			 "{time: 1s}\n",
			 method);
	assert_int_equal(profile_parse_string(text, strlen(text), "x.yaml", NULL, 0, &p, &e), 0);
	return p;
}

static void test_reach(void **state)
{
	struct target *t = NULL;
	char err[256], what[1024];
	bool whole = true;
	struct profile *p;

	(void)state;
	assert_int_equal(target_open_ops(&ops, "reach:", NULL, &t, err, sizeof err), 0);

	/* no drive purge commands: nothing added */
	p = parse("nvme-sanitize", false);
	snprintf(what, sizeof what, "profile 'x'");
	cli_purge_reach(p, t, what, sizeof what, &whole);
	assert_string_equal(what, "profile 'x'");
	assert_false(whole);

	target_add_caps(t, TARGET_CAP_DRIVE_PURGE);
	cli_purge_reach(p, t, what, sizeof what, &whole);
	assert_true(whole);
	assert_non_null(
	    strstr(what, "profile 'x'; its purge sends a sanitize (an NVMe sanitize erases every "
			 "namespace of the whole NVM subsystem, cannot be aborted"));
	assert_non_null(strstr(what, "power loss"));
	assert_non_null(strstr(what, "restricted state"));
	profile_free(p);

	p = parse("auto", true);
	snprintf(what, sizeof what, "profile 'x'");
	cli_purge_reach(p, t, what, sizeof what, &whole);
	assert_false(whole);
	assert_string_equal(
	    what,
	    "profile 'x'; its purge may format or sanitize the drive, which can reach every "
	    "namespace of its NVM subsystem (each is checked again before the command is sent)");
	profile_free(p);

	p = parse("discard", false);
	snprintf(what, sizeof what, "profile 'x'");
	cli_purge_reach(p, t, what, sizeof what, &whole);
	assert_false(whole);
	assert_string_equal(what, "profile 'x'");
	profile_free(p);

	/* a SATA drive (no namespace): its purges reach only the target itself */
	target_info_mut(t)->nvme.nsid = 0;
	p = parse("auto", false);
	snprintf(what, sizeof what, "profile 'x'");
	cli_purge_reach(p, t, what, sizeof what, &whole);
	assert_false(whole);
	assert_string_equal(what, "profile 'x'");
	profile_free(p);
	target_close(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_reach)};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
