/* The subcommand table, included by main.c: {name, cmd_<name>, one-line summary}.
 * Add a line here when a cmd_<name>.c lands. */
