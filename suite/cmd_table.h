/* The subcommand table, included by main.c: {name, cmd_<name>, one-line summary}.
 * Add a line here when a cmd_<name>.c lands. */
{"io", cmd_io, "run one ad-hoc job on a block device, file or sim:MODEL (fio-like figures)"},
