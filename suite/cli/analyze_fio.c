/* SPDX-License-Identifier: MIT */
/*
 * analyze_fio: `ssdlab analyze --fio` (analyze_fio.h). fio prints notes before its JSON when
 * --output is not given ("note: both iodepth >= 1 and synchronous I/O engine ..."), so the
 * document is taken from the first '{' of the file.
 */
#include "cli/analyze_fio.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "analysis/fio.h"
#include "base/fileio.h"
#include "cli/cli.h"

static int print_lines(struct json_object *s)
{
	struct json_object *ss = json_object_object_get(s, "steady_state");

	for (size_t i = 0; i < json_object_array_length(ss); i++) {
		struct json_object *e = json_object_array_get_idx(ss, i);
		struct json_object *r = json_object_object_get(e, "result");

		printf("phase %d iteration %d cell %s: %zu rounds, steady state %s (IOPS window avg "
		       "%.0f)\n",
		       json_object_get_int(json_object_object_get(e, "phase")),
		       json_object_get_int(json_object_object_get(e, "iteration")),
		       json_object_get_string(json_object_object_get(e, "cell")),
		       json_object_array_length(json_object_object_get(e, "rounds")),
		       json_object_get_string(json_object_object_get(r, "verdict")),
		       json_object_get_double(json_object_object_get(r, "average")));
	}
	return 0;
}

int cli_analyze_fio(const char *path, const char *outdir, bool quiet)
{
	struct json_object *doc = NULL, *sum = NULL;
	struct json_tokener *tok = NULL;
	struct ss_params p;
	char *buf = NULL, *start, err[512] = "", *out = NULL;
	const char *text;
	size_t len;
	int rc, code = EXIT_FAILED;

	rc = fileio_read_file(path, 1u << 30, &buf, &len);
	if (rc) {
		cli_error("analyze", "%s: %s", path, strerror(-rc));
		return rc == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
	}
	start = memchr(buf, '{', len);
	tok = json_tokener_new();
	if (!tok)
		goto out;
	doc = start ? json_tokener_parse_ex(tok, start, (int)(len - (size_t)(start - buf))) : NULL;
	if (!doc) {
		cli_error("analyze", "%s: not fio's JSON output (fio --output-format=json+)", path);
		code = EXIT_USAGE;
		goto out;
	}
	ss_params_default(&p);
	rc = fio_analyze(doc, &p, &sum, err, sizeof(err));
	if (rc) {
		cli_error("analyze", "%s: %s", path, *err ? err : strerror(-rc));
		code = rc == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
		goto out;
	}
	text = json_object_to_json_string_ext(sum, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							   JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!outdir) {
		printf("%s\n", text);
		code = EXIT_OK;
		goto out;
	}
	if (mkdir(outdir, 0777) && errno != EEXIST) {
		cli_error("analyze", "cannot create %s: %s", outdir, strerror(errno));
		goto out;
	}
	if (asprintf(&out, "%s/summary.json", outdir) < 0) {
		out = NULL;
		goto out;
	}
	{
		FILE *f = fopen(out, "w");
		int bad = !f || fprintf(f, "%s\n", text) < 0;

		if (f && fclose(f))
			bad = 1;
		if (bad) {
			cli_error("analyze", "cannot write %s: %s", out, strerror(errno));
			goto out;
		}
	}
	if (!quiet) {
		print_lines(sum);
		printf("summary: %s\n", out);
	}
	code = EXIT_OK;
out:
	free(out);
	json_object_put(sum);
	json_object_put(doc);
	if (tok)
		json_tokener_free(tok);
	free(buf);
	return code;
}
