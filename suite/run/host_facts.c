/* SPDX-License-Identifier: MIT */
/*
 * host_facts: the host state and a block device's link for the manifest (see host_facts.h).
 */
#include "run/host_facts.h"

#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "host/hostinfo.h"

int host_facts_collect(const struct target *t, struct results_facts *f)
{
	const struct target_info *ti = target_info(t);
	struct hostinfo_link l;
	struct hostinfo h;

	memset(f, 0, sizeof(*f));
	hostinfo_collect(NULL, &h);
	f->host = hostinfo_to_json(&h);
	if (!f->host)
		return -ENOMEM;
	if (ti->kind != TARGET_KIND_BLOCKDEV || hostinfo_block_link(NULL, ti->path, &l))
		return 0;
	f->link = hostinfo_link_to_json(&l);
	if (!f->link) {
		host_facts_release(f);
		return -ENOMEM;
	}
	return 0;
}

void host_facts_release(struct results_facts *f)
{
	if (!f)
		return;
	json_object_put(f->host);
	json_object_put(f->link);
	f->host = f->link = NULL;
}
