/* SPDX-License-Identifier: MIT */
/*
 * results/handle: the body of an open results directory, struct results, which results.h
 * keeps opaque. Only the files of suite/results/ that write through a handle include this:
 * results.c (create, open, close), results_record.c (the append to records.jsonl) and
 * results_snapshot.c (the snapshot files' numbering). No other layer may: they have
 * results_path() and the writer functions of results.h.
 */
#ifndef SSDLAB_RESULTS_HANDLE_H
#define SSDLAB_RESULTS_HANDLE_H

struct results {
	char *path;
	int recfd;	   /* records.jsonl, O_APPEND, flock'ed: one writer per directory */
	unsigned next_seq; /* of the next snapshot file */
};

#endif
