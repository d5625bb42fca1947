#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The man page cannot drift from the program (issue 18 point 4).

Independent sources: the command table (suite/cli/cmd_table.h, read as text) and what each
`ssdlab CMD --help` prints. Every subcommand must have its own subsection in the rendered
man page, every long option a command's --help prints must appear in that subsection, and
`man --warnings -l` must render the page without a single warning.
usage: man_check.py SSDLAB MANPAGE CMD_TABLE_H
"""
import os
import re
import subprocess
import sys

ssdlab, manpage, table = sys.argv[1:4]
fail = []

env = dict(os.environ, MANWIDTH="80", LC_ALL="C.UTF-8")
r = subprocess.run(["man", "--warnings", "-l", manpage], capture_output=True, text=True, env=env)
if r.returncode != 0 or r.stderr.strip():
    fail.append(f"man -l: exit {r.returncode}, warnings:\n{r.stderr}")
text = re.sub(r".\x08", "", r.stdout)  # overstrike bold/underline, should a pager setting add it
for u in ("\u2010", "\u2011", "\u2212"):
    text = text.replace(u, "-")

# Subsections of COMMANDS: rendered as a 3-space-indented heading, the body at 7 spaces.
sections, cur, in_cmds = {}, None, False
for line in text.splitlines():
    if re.match(r"^[A-Z][A-Z ]+$", line):
        in_cmds = line == "COMMANDS"
        cur = None
        continue
    if not in_cmds:
        continue
    m = re.match(r"^   (\S+)", line)
    if m:
        cur = m.group(1)
        sections[cur] = []
    elif cur:
        sections[cur].append(line)
sections = {k: "\n".join(v) for k, v in sections.items()}

src_cmds = re.findall(r'^\{"([a-z-]+)",', open(table).read(), re.M)
top = subprocess.run([ssdlab, "--help"], capture_output=True, text=True).stdout
help_cmds = re.findall(r"^  ([a-z][a-z-]*)\s", top.split("commands:", 1)[1], re.M)
if set(src_cmds) != set(help_cmds):
    fail.append(f"cmd_table.h {sorted(src_cmds)} != --help {sorted(help_cmds)}")
if len(src_cmds) < 16:
    fail.append(f"only {len(src_cmds)} commands read from {table}")
for opt in set(re.findall(r"--[a-z][a-z0-9-]*", top)):
    if opt not in text:
        fail.append(f"top-level {opt} not in the man page")

nopts = 0
for cmd in src_cmds:
    if cmd not in sections:
        fail.append(f"no subsection for '{cmd}'")
        continue
    h = subprocess.run([ssdlab, cmd, "--help"], capture_output=True, text=True)
    if h.returncode != 0:
        fail.append(f"{cmd} --help exited {h.returncode}")
    opts = sorted(set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", h.stdout)) - {"--help"})
    nopts += len(opts)
    for o in opts:
        if not re.search(re.escape(o) + r"(?![a-z0-9-])", sections[cmd]):
            fail.append(f"{cmd}: {o} (from --help) not in its man subsection")

for f in fail:
    print("FAIL:", f)
print(f"{len(src_cmds)} commands, {nopts} long options checked against {manpage}")
sys.exit(1 if fail else 0)
