/* The subcommand table, included by main.c: {name, cmd_<name>, one-line summary}.
 * Add a line here when a cmd_<name>.c lands. */
{"io", cmd_io, "run one ad-hoc job on a block device, file or sim:MODEL (fio-like figures)"},
{"analyze", cmd_analyze, "recompute summary.json of a results directory and print the headline figures"},
{"profiles", cmd_profiles, "list the bundled test profiles with one-line descriptions"},
{"check", cmd_check, "validate a profile and print a summary of its plan"},
{"run", cmd_run, "run a profile on a target and write a results directory (then analyze it)"},
{"resume", cmd_resume, "continue an interrupted run after its last finished measurement"},
{"plan", cmd_plan, "show a profile's phases, bytes written and estimated duration; writes nothing"},
{"models", cmd_models, "list the virtual-SSD models (sim:MODEL): what each represents, spare factor and OP"},
{"info", cmd_info, "show a block device's identity, link, cache, power management and what it offers; reads only"},
{"smart", cmd_smart, "print a drive's SMART attributes with ssdlab's own units; --load FILE decodes a skdump --save blob"},
{"drives", cmd_drives, "list the drive database (SMART host/NAND-write counters per model) or show the entry for MODEL"},
{"hpa", cmd_hpa, "show a SATA drive's native and accessible max address (HPA/AMAC, DCO, frozen); --set/--restore with --dry-run list the commands"},
