/* SPDX-License-Identifier: MIT */
/*
 * cmd_models: `ssdlab models` lists the bundled virtual-SSD models (sim:NAME) with what they
 * represent and their spare both ways (spare factor of physical, OP of user); `ssdlab models
 * NAME|FILE` shows one model's parameters and sources, and checks a model file of one's own.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "sim/sim_model.h"
#include "targets/target.h"
#include "base/units.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: ssdlab models [--paths]\n"
		   "       ssdlab models NAME|FILE.yaml\n\n"
		   "Lists the virtual-SSD models usable as the target sim:NAME (from $SSDLAB_MODELS,\n"
		   "the source tree's profiles/models and the installed one, in that order), with\n"
		   "the drive each represents and its spare as a spare factor ((physical - user) /\n"
		   "physical) and as OP ((physical - user) / user). With a NAME or a model file,\n"
		   "validates it and prints its parameters and where its numbers come from.\n\n"
		   "  --paths     also print the file of each model\n"
		   "  -h, --help  this text\n");
}

static const char *gb(uint64_t bytes, char *buf, size_t len)
{
	/* drives are sold in decimal units: say "480 GB" for what `represents` holds */
	char num[32];

	snprintf(buf, len, "%s GB", units_fmt_double((double)bytes / 1e9, bytes % 1000000000ULL ? 1 : 0,
						     num, sizeof(num)));
	return buf;
}

static void show(const struct sim_model *m)
{
	const struct sim_config *c = &m->cfg;
	char a[32], b[32], d[32], e[32], f[32], g[32], h[32], x[32];

	printf("%s: %s\n  file: %s\n", m->name, m->description, m->path[0] ? m->path : "-");
	printf("  capacity %s standing for %s (time scale %s: profile durations are multiplied by it)\n",
	       units_fmt_size(c->user_capacity, a, sizeof(a)), gb(c->represents ? c->represents : c->user_capacity, b, sizeof(b)),
	       units_fmt_double(sim_model_time_scale(m), 6, d, sizeof(d)));
	printf("  spare factor %s, OP %s%%; %llu blocks of %s, %u-byte sectors, %s mapping unit\n",
	       units_fmt_double(sim_model_spare_factor(m), 4, a, sizeof(a)),
	       units_fmt_double(sim_model_op(m) * 100, 1, b, sizeof(b)),
	       (unsigned long long)sim_config_physical_blocks(c),
	       units_fmt_size((uint64_t)c->page_size * c->pages_per_block, d, sizeof(d)),
	       c->logical_block_size, units_fmt_size(c->mapping_unit, e, sizeof(e)));
	printf("  %u channels x %u dies, program unit %s; read %s, program %s (SLC %s), erase %s, "
	       "%s per KiB on a channel\n",
	       c->channels, c->dies_per_channel, units_fmt_size(c->page_size, a, sizeof(a)),
	       units_fmt_duration(c->timing.read, b, sizeof(b)),
	       units_fmt_duration(c->timing.program, d, sizeof(d)),
	       units_fmt_duration(c->timing.program_slc, e, sizeof(e)),
	       units_fmt_duration(c->timing.erase, f, sizeof(f)),
	       units_fmt_duration(c->timing.transfer_per_kib, g, sizeof(g)));
	printf("  GC %s", sim_gc_policy_name(c->gc_policy));
	if (c->gc_policy == SIM_GC_DCHOICES)
		printf(" (d = %u)", c->gc_d);
	printf(", reserve %u blocks; idle GC ", sim_config_watermark(c));
	if (!c->idle_gc.enabled)
		printf("off\n");
	else if (c->idle_gc.aggressive)
		printf("aggressive after %s\n", units_fmt_duration(c->idle_gc.delay, a, sizeof(a)));
	else
		printf("after %s at %s MB/s\n", units_fmt_duration(c->idle_gc.delay, a, sizeof(a)),
		       units_fmt_double(c->idle_gc.rate / 1e6, 0, b, sizeof(b)));
	if (c->slc.size)
		printf("  SLC cache %s (%s), %s after it, %sfolded on idle\n",
		       units_fmt_size(c->slc.size, a, sizeof(a)), c->slc.dynamic ? "dynamic" : "static",
		       c->slc.post_cache == SIM_POST_FOLD ? "folding while writing" : "TLC directly",
		       c->slc.fold_on_idle ? "" : "not ");
	else
		printf("  no SLC cache\n");
	printf("  write buffer %s, write cache %s, power-loss protection %s; link %s MB/s, %s per command\n",
	       c->write_buffer ? units_fmt_size(c->write_buffer, a, sizeof(a)) : "one program unit per die",
	       c->write_cache ? "on" : "off", c->power_loss_protection ? "yes" : "no",
	       c->iface.max_bytes_per_s > 0 ? units_fmt_double(c->iface.max_bytes_per_s / 1e6, 0, h, sizeof(h)) : "unlimited",
	       units_fmt_duration(c->iface.command_overhead, x, sizeof(x)));
	if (m->sources[0])
		printf("  sources: %s\n", m->sources);
}

int cmd_models(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"paths", no_argument, NULL, 'p'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct ydoc_error e;
	struct sim_model m;
	char **names = NULL, buf[1024];
	size_t n = 0, w = 8;
	bool paths = false;
	int c, ret, rc = EXIT_OK;

	optind = 1;
	opterr = 0; /* one line of our own for a bad option, as run and io */
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			paths = true;
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:
			return cli_opt_reject("models", c, argv);
		}
	}
	if (argc - optind > 1) {
		cli_error("models", "unexpected argument '%s'", argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (optind < argc) {
		struct target_spec ts;

		target_spec_parse(argv[optind], &ts); /* "sim:NAME" or a bare NAME */
		if (sim_model_load(ts.arg, cli_models_dir(), &m, &e)) {
			fprintf(stderr, "%s\n", ydoc_error_format(&e, buf, sizeof(buf)));
			return EXIT_USAGE;
		}
		show(&m);
		return EXIT_OK;
	}
	ret = sim_model_names(cli_models_dir(), &names, &n);
	if (ret) {
		cli_error("models", "cannot list models: %s", strerror(-ret));
		return EXIT_FAILED;
	}
	if (!n) {
		cli_error("models", "no models found (set SSDLAB_MODELS to a directory of model files)");
		return EXIT_FAILED;
	}
	for (size_t i = 0; i < n; i++)
		if (strlen(names[i]) > w)
			w = strlen(names[i]);
	printf("%-*s  %-8s  %-10s  %-6s  %-6s  %s\n", (int)w, "model", "capacity", "represents", "spare", "OP",
	       "description");
	for (size_t i = 0; i < n; i++) {
		char a[32], b[32], d[32], f[32], op[40];

		if (sim_model_load(names[i], cli_models_dir(), &m, &e)) {
			fprintf(stderr, "%s\n", ydoc_error_format(&e, buf, sizeof(buf)));
			rc = EXIT_FAILED;
			continue;
		}
		snprintf(op, sizeof(op), "%s%%", units_fmt_double(sim_model_op(&m) * 100, 1, f, sizeof(f)));
		printf("%-*s  %-8s  %-10s  %-6s  %-6s  %s\n", (int)w, names[i],
		       units_fmt_size(m.cfg.user_capacity, a, sizeof(a)),
		       gb(m.cfg.represents ? m.cfg.represents : m.cfg.user_capacity, b, sizeof(b)),
		       units_fmt_double(sim_model_spare_factor(&m), 3, d, sizeof(d)),
		       op,
		       m.description);
		if (paths)
			printf("%-*s  %s\n", (int)w, "", m.path);
	}
	printf("\nuse as: ssdlab run PROFILE --target sim:MODEL (the default target is sim:client-tlc);\n"
	       "details: ssdlab models MODEL\n");
	sim_model_names_free(names, n);
	return rc;
}
