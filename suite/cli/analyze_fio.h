/* SPDX-License-Identifier: MIT */
/*
 * analyze_fio: `ssdlab analyze --fio FILE.json [--out DIR]` (docs/fio.md): fio's JSON through
 * analysis/fio.h, written as DIR/summary.json or printed.
 */
#ifndef SSDLAB_ANALYZE_FIO_H
#define SSDLAB_ANALYZE_FIO_H

#include <stdbool.h>

/* Reads path (fio --output-format=json or json+), analyzes it with the SNIA steady-state
 * defaults, writes outdir/summary.json (outdir created; NULL: the JSON on standard output) and,
 * unless quiet, one line per steady-state series. Returns an exit code (cli.h). */
int cli_analyze_fio(const char *path, const char *outdir, bool quiet);

#endif
