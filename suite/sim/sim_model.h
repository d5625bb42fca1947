/* SPDX-License-Identifier: MIT */
/*
 * sim_model: virtual-SSD model files. A model is a YAML file (bundled ones live in
 * profiles/models/) that fills a struct sim_config plus what a user reads about it: its name,
 * what real drive it stands for and where its numbers come from. The keys are a contract
 * (docs/virtual-ssd.md lists them with units and defaults):
 *
 *   name, description, sources, represents, user_capacity, spare_factor | op, mapping_unit,
 *   logical_block_size, page_size, pages_per_block, channels, dies_per_channel,
 *   timing {read, program, program_slc, erase, transfer_per_kib},
 *   gc {policy: greedy | fifo | random | d-choices, d, free_block_watermark},
 *   idle_gc {enabled, delay, rate | aggressive},
 *   slc_cache {size, dynamic, fold_on_idle, post_cache: direct | fold},
 *   write_buffer, write_cache, power_loss_protection, interface {max_bytes_per_s, command_overhead}
 *
 * A wrong model gets the same "file:line:col: message" errors as a profile (through ydoc).
 * Spare is given either as spare_factor = (physical - user) / physical or as op = (physical -
 * user) / user ("28%"); both are reported everywhere.
 */
#ifndef SSDLAB_SIM_MODEL_H
#define SSDLAB_SIM_MODEL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"
#include "base/ydoc.h"

struct sim_model {
	char name[64];
	char description[256];
	char sources[4096]; /* printed whole by `ssdlab models NAME`; longer is an error */
	char path[PATH_MAX]; /* the file it was read from ("" for a string) */
	struct sim_config cfg;
};

/*
 * Parses a model from text (file names it in errors). Keys left out take the defaults of
 * sim_config_default(); user_capacity and one of spare_factor / op are required. The name is
 * the `name` key, else the file's base name without .yaml. Returns 0, -EINVAL with err filled
 * (also for a model the simulator cannot run, e.g. too little spare), -ENOMEM. m is untouched
 * on failure.
 */
int sim_model_parse(const char *text, size_t len, const char *file, struct sim_model *m,
		    struct ydoc_error *err);

/*
 * Loads a model by spec: a path to a YAML file (contains '/' or ends in .yaml/.yml), or the name
 * of a bundled model, searched in user_dir (NULL or "" for none; the CLI passes
 * $SSDLAB_MODELS: the library reads no environment), then <source tree>/profiles/models, then
 * the installed profiles/models. -ENOENT with err filled when there is no such model.
 */
int sim_model_load(const char *spec, const char *user_dir, struct sim_model *m,
		   struct ydoc_error *err);

/* The bundled models' names in sim_model_load()'s search path, sorted, without duplicates (the
 * first directory wins). The caller frees with sim_model_names_free(). Returns 0 or -ENOMEM;
 * no directory is not an error. */
int sim_model_names(const char *user_dir, char ***names, size_t *n);
void sim_model_names_free(char **names, size_t n);

/* user_capacity / represents (1 when represents is not set). */
double sim_model_time_scale(const struct sim_model *m);
/* The realised spare, counting whole blocks: (physical - user) / physical and / user. */
double sim_model_spare_factor(const struct sim_model *m);
double sim_model_op(const struct sim_model *m);

#endif
