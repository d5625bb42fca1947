/* SPDX-License-Identifier: MIT */
/*
 * journal: the device changes of a run (issue 13 point 1), so that a drive is never left changed
 * (a smaller capacity, the write cache off, a security password set) whatever happens to ssdlab.
 * It is the file journal.jsonl in the results directory (docs/results-format.md), one JSON object
 * per line, each appended with one write(2) and fsync'ed (the file, and the directory when the
 * file was created) BEFORE the command it announces is sent to the drive:
 *
 *   {"schema":1,"seq":N,"op":"change","id":"ID","kind":"write_cache","device":{...},
 *    "from":<value>,"to":<value>,"command":"ATA SET FEATURES 0x82 (...)","persistent":false,
 *    "wall_ns":...}                                       written before the command is sent
 *   {"schema":1,"seq":N,"op":"done","id":"ID","ok":true,"readback":<value>,"error":null,...}
 *                                                         after it, with the value read back
 *   {"schema":1,"seq":N,"op":"restored","id":"ID","ok":true,"readback":<value>,"how":"...",
 *    "error":null,...}                                    after the restore (or a failed try)
 *
 * "device" is the identity the restore must find again before it sends anything (path, serial,
 * wwn, model, transport, nsid; a different drive at the same path is refused). "from"/"to" are
 * the kind's own JSON values (devchange.h says each kind's shape). A change is outstanding while
 * it has no "restored" line with ok true; a "change" line without its "done" line means the
 * command may or may not have reached the drive (a crash between the two): the restore re-reads
 * the drive and acts on what it finds. A torn last line (a crash mid-append) is ignored, as for
 * records.jsonl.
 *
 * All functions return 0 or -errno with a message in err where they take one.
 */
#ifndef SSDLAB_RESULTS_JOURNAL_H
#define SSDLAB_RESULTS_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

#define JOURNAL_FILE "journal.jsonl"
#define JOURNAL_ID_MAX 32
#define JOURNAL_KIND_MAX 32
#define JOURNAL_COMMAND_MAX 512

struct journal; /* an open journal (opaque) */

/* Opens (creating it when absent) DIR/journal.jsonl for appending; ids continue after the
 * highest one found in an existing file. */
int journal_open(const char *dir, struct journal **out, char *err, size_t errlen);
void journal_close(struct journal *j); /* accepts NULL */

/*
 * Appends and fsyncs a "change" line before the command is sent. device, from and to are
 * borrowed (copied into the line). id_out gets the new id ("wc-1", "hpa-2": id_prefix, the
 * kind's prefix, and a number that counts every change of the file, whatever its kind).
 * wall_ns: the caller's wall clock (nothing here reads the clock).
 */
int journal_change(struct journal *j, const char *kind, const char *id_prefix, struct json_object *device,
		   struct json_object *from, struct json_object *to, const char *command, bool persistent,
		   int64_t wall_ns, char id_out[JOURNAL_ID_MAX], char *err, size_t errlen);
/* The command's outcome: ok, the value read back (borrowed, may be NULL) and the error text
 * (NULL when ok). */
int journal_done(struct journal *j, const char *id, bool ok, struct json_object *readback,
		 const char *error, int64_t wall_ns, char *err, size_t errlen);
/* A restore's outcome: how (the command sent, or "already at the original value"), ok, the
 * value read back, the error text. */
int journal_restored(struct journal *j, const char *id, bool ok, struct json_object *readback,
		     const char *how, const char *error, int64_t wall_ns, char *err, size_t errlen);

/* One change as the file tells it. */
struct journal_entry {
	char id[JOURNAL_ID_MAX];
	char kind[JOURNAL_KIND_MAX];
	char command[JOURNAL_COMMAND_MAX];
	bool persistent;
	bool done;	   /* a "done" line exists */
	bool done_ok;	   /* ... and says ok */
	bool restored_ok;  /* a "restored" line with ok true exists: nothing left to do */
	unsigned restore_tries; /* "restored" lines so far (failed ones included) */
	struct json_object *device, *from, *to; /* owned; NULL when absent */
	struct json_object *readback;		/* the "done" line's, owned; may be NULL */
};

/*
 * Reads DIR/journal.jsonl: every change in file order into *out (n entries; journal_entries_free).
 * A missing file is 0 entries. -EBADMSG with "journal.jsonl:LINE: ..." in err for a bad line
 * that is not the last one (a torn last line is dropped, *torn set).
 */
int journal_read(const char *dir, struct journal_entry **out, size_t *n, bool *torn, char *err,
		 size_t errlen);
void journal_entries_free(struct journal_entry *e, size_t n);
/* How many entries are outstanding (not restored_ok). */
size_t journal_outstanding(const struct journal_entry *e, size_t n);

#endif
