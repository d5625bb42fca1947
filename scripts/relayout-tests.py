#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""relayout-tests: moves the flat tests/ folder into tests/unit/, tests/integration/ and
tests/hardware/ (issue 10, point 8), once, from the source root, on a clean work tree:

    python3 scripts/relayout-tests.py && meson setup --reconfigure build && ninja -C build

It reads the tables of the flat tests/meson.build (unit_tests rows [name, [sources], suite,
timeout], sh_tests rows [name, script, timeout], and the standalone test() calls of the slow,
hardware and layers tests), so that tests other branches added to those tables move with the
rest; then it `git mv`s each file by its suite (unit -> tests/unit/, integration and slow ->
tests/integration/, hardware stays in tests/hardware/), and writes tests/meson.build (the
environment, the shared helpers, the fuzz target) and one meson.build per folder. Each cmocka
test links only the library of its layer (LAYER_LIB below; the static libraries bring what is
below them); a test whose name the map does not know links every library and is named on
stderr, to be given its layer by hand. Shared files: testutil.[ch] and profiles/ stay in tests/,
sim_testlib.[ch] (unit) and run_lib.sh, headline_check.py (integration) move with their users.
Paths that name a moved file (docs, model files, messages) are rewritten; the programs stay
build/tests/test_<name>. It refuses to run twice (tests/unit/ exists) or on a dirty tree.
"""
import os
import re
import subprocess
import sys

# The library of each test's layer; static libraries carry those below them. A test that needs
# more says why in NOTE, which becomes a comment on its row.
LAYER_LIB = {
    "units": "engine_lib", "hist": "base_lib", "ydoc": "base_lib", "jsonnum": "base_lib",
    "prng": "base_lib",
    "safety": "host_lib", "devinfo": "host_lib", "hostinfo": "host_lib",
    "snapshot": "results_lib", "results": "results_lib, analysis_lib, engine_lib",
    "ss": "analysis_lib", "analyze": "analysis_lib, engine_lib",
    "sim_model": "targets_lib",
    "workload": "engine_lib", "engine_file": "engine_lib",
    "profile": "profile_lib",
    "runner": "run_lib",
    "cli_util": "run_lib",
    "theory": "analysis_lib", "wa": "analysis_lib", "recovery": "analysis_lib",
    "cells": "analysis_lib", "wsat": "analysis_lib",
    "fileio": "base_lib", "errmsg": "base_lib",
    "sim_ftl": "sim_lib, analysis_lib", "sim_wa": "sim_lib, analysis_lib",
    "sim_timing": "sim_lib, analysis_lib", "sim_idle": "sim_lib, analysis_lib",
    "sim_seq": "sim_lib, analysis_lib",
}
NOTE = {
    "units": "also checks jobspec.c's rw-mode and block-size-split parsers (engine)",
    "results": "results.c calls job_no_io_reason (engine) and ss_params_* (analysis): upward; "
               "[results_lib] once issue 10 point 1 lands",
    "analyze": "through results.c's job_no_io_reason (engine): [analysis_lib] once issue 10 "
               "point 1 lands",
    "sim_model": "measures the models through the sim target (target_open \"sim:...\")",
    "sim_ftl": "sim_testlib checks WA against analysis/theory", "sim_wa": "against analysis/theory",
    "sim_timing": "sim_testlib uses analysis/theory", "sim_idle": "sim_testlib uses analysis/theory",
    "sim_seq": "sim_testlib uses analysis/theory",
}
PREFIX_LIB = [("sim_", "sim_lib"), ("target", "targets_lib"), ("phase", "profile_lib"),
              ("plan", "profile_lib"), ("run", "run_lib")]
SHARED_STAY = {"testutil.c", "testutil.h", "fuzz_profile.c", "meson.build", "profiles",
               "layers_check.py", "hardware", "unit", "integration", "data"}


def sh(*args):
    subprocess.run(args, check=True)


def lib_of(name):
    if name in LAYER_LIB:
        return LAYER_LIB[name], True
    for p, lib in PREFIX_LIB:
        if name.startswith(p):
            return lib, True
    return "ssdlab_libs", False


def block(text, var):
    m = re.search(r"^%s = \[\n(.*?)^\]" % var, text, re.S | re.M)
    if not m:
        sys.exit("relayout-tests: no %s table in tests/meson.build" % var)
    return m.group(1)


def main():
    if not os.path.isdir("tests") or not os.path.isfile("meson.build"):
        sys.exit("relayout-tests: run from the source root")
    if os.path.isdir("tests/unit"):
        sys.exit("relayout-tests: tests/unit/ exists: the move is done")
    if subprocess.run(["git", "diff", "--quiet", "HEAD"]).returncode:
        sys.exit("relayout-tests: the work tree has changes: commit them first")
    text = open("tests/meson.build").read()

    cases = []  # (name, [sources], suite, timeout)
    for m in re.finditer(r"\[\s*'(\w+)',\s*\[([^\]]*)\],\s*'(\w+)',\s*(\d+)\s*\]",
                         block(text, "unit_tests")):
        srcs = re.findall(r"'([^']+)'", m.group(2))
        cases.append((m.group(1), srcs, m.group(3), int(m.group(4))))
    shells = []  # (name, script, suite, timeout, comment lines above it)
    comment = []
    for line in block(text, "sh_tests").split("\n"):
        m = re.match(r"\s*\[\s*'(\w+)',\s*'([\w.]+)',\s*(\d+)\s*\],?\s*(#.*)?$", line)
        if m:
            shells.append((m.group(1), m.group(2), "integration", int(m.group(3)), comment,
                           m.group(4) or ""))
            comment = []
        elif line.strip().startswith("#") and "name," not in line:
            comment.append(line.strip())
    for m in re.finditer(r"^test\('(\w+)', find_program\('bash'\), args : \[files\('([\w./]+)'\)\],"
                         r"\s*suite : '(\w+)',\s*timeout : (\d+)", text, re.M):
        if m.group(3) != "hardware":
            shells.append((m.group(1), m.group(2), m.group(3), int(m.group(4)), [], ""))

    moved = {}  # old name in tests/ -> new path relative to tests/
    unknown = []
    for name, srcs, suite, _ in cases:
        d = "unit" if suite == "unit" else "integration"
        for s in srcs:
            if not s.startswith("../") and "/" not in s:
                moved.setdefault(s, d + "/" + s)
                if s == "sim_testlib.c":
                    moved.setdefault("sim_testlib.h", d + "/sim_testlib.h")
        if not lib_of(name)[1]:
            unknown.append(name)
    for name, script, suite, _, _, _ in shells:
        moved.setdefault(script, "integration/" + script)
    for f in ("run_lib.sh", "headline_check.py"):
        if os.path.exists("tests/" + f):
            moved[f] = "integration/" + f
    leftover = sorted(f for f in os.listdir("tests") if f not in moved and f not in SHARED_STAY)
    if leftover:
        sys.exit("relayout-tests: not in any table of tests/meson.build: %s (register them, "
                 "or add them to SHARED_STAY)" % ", ".join(leftover))

    for d in ("unit", "integration"):
        os.makedirs("tests/" + d, exist_ok=True)
    for old, new in sorted(moved.items()):
        sh("git", "mv", "tests/" + old, "tests/" + new)
    sh("git", "mv", "tests/layers_check.py", "tests/unit/layers_check.py")

    # tests/meson.build: what every folder shares, then the folders.
    head = text[:text.index("unit_tests = [")]
    head = head.replace("# Each entry: [name, [sources], suite, timeout seconds].\n", "")
    f0 = text.index("if get_option('fuzz')")
    fuzz = text[f0:text.index("\nendif\n", f0) + len("\nendif\n")]
    hw_setup = ""
    m = re.search(r"^add_test_setup\(.*\)$", text, re.M)
    if m:
        hw_setup = m.group(0) + "\n"
    c_loop = """foreach t : c_tests
  exe = executable('test_' + t[0], t[1] + testutil,
    include_directories : [src_inc, test_inc],
    link_with : t[3],
    dependencies : ssdlab_deps + [cmocka_dep])
  test(t[0], exe, suite : t[2], timeout : t[4], env : test_env, is_parallel : t[2] == 'unit')
endforeach
"""
    out = [head.rstrip() + "\n",
           "# The helpers every cmocka test links (skip with a reason, temporary directories).\n",
           "testutil = files('testutil.c')\n",
           "test_inc = include_directories('.')\n",
           "# The cmocka tests: each folder adds its rows [name, sources, suite, libraries, timeout\n",
           "# seconds], and one loop builds them all (as build/tests/test_<name>).\n",
           "c_tests = []\n\n",
           "subdir('unit')         # one cmocka program per module, linked with its layer's library\n",
           "subdir('integration')  # the virtual SSD, loop devices, zram, files; and the slow suite\n",
           "subdir('hardware')     # a spare drive named by SSDLAB_HW_DEV; not in the default run\n",
           "\n", c_loop, "\n",
           "# The default `meson test` leaves hardware out; `--suite hardware` runs it.\n",
           hw_setup, "\n", fuzz]
    open("tests/meson.build", "w").write("".join(out))

    def rows(suite_dirs):
        lines = []
        for name, srcs, suite, timeout in cases:
            if ("unit" if suite == "unit" else "integration") not in suite_dirs:
                continue
            lib = lib_of(name)[0]
            # one folder deeper: ../suite/cli/cli_util.c becomes ../../suite/cli/cli_util.c
            s = "files(%s)" % ", ".join("'%s'" % ("../" + x if x.startswith("../") else x)
                                        for x in srcs)
            libs = lib if lib == "ssdlab_libs" else "[%s]" % lib
            if name in NOTE:
                lines.append("  # %s: %s\n" % (name, NOTE[name]))
            lines.append("  ['%s', %s, '%s', %s, %d],\n" % (name, s, suite, libs, timeout))
        return "".join(lines)

    unit = ["# Unit tests: one cmocka program per module, linked with the static library of its\n",
            "# layer only (which brings the layers below it). Row: name, sources, suite,\n",
            "# libraries, timeout in seconds.\n",
            "c_tests += [\n", rows({"unit"}), "]\n",
            "\n# The layering rules of docs/architecture.md (issue 10, point 9): no upward include,\n"
            "# no circle, analysis/ only over base/ and the results reader, analyze.c only the\n"
            "# table of passes.\n"
            "test('layers', find_program('python3'), args : [files('layers_check.py'),\n"
            "    meson.project_source_root()], suite : 'unit', timeout : 30, env : test_env)\n"]
    open("tests/unit/meson.build", "w").write("".join(unit))

    integ = ["# Integration tests: the virtual SSD, loop devices, zram, files. The cmocka ones link\n",
             "# their layer's library; the shell ones drive the ssdlab binary, need root where they\n",
             "# attach devices, and skip (exit 77) with a printed reason where a capability is\n",
             "# absent. Row: name, sources, suite, libraries, timeout in seconds.\n",
             "c_tests += [\n", rows({"integration"}), "]\n",
             "\n# Shell tests. Row: name, script, suite, timeout in seconds. The slow suite holds\n"
             "# the tests over 60 s under ASan (build-san, measured 2026-12-02: resume_kill 96.5 s;\n"
             "# every other test under 34 s); `meson test` with no suite filter, the README's\n"
             "# command (scripts/bootstrap.sh test), runs it; `--no-suite slow` leaves it out.\n"
             "sh_tests = [\n"]
    for name, script, suite, timeout, comment, tail in shells:
        for c in comment:
            integ.append("  %s\n" % c)
        integ.append("  ['%s', '%s', '%s', %d],%s\n" % (name, script.split("/")[-1], suite, timeout,
                                                       ("  " + tail) if tail else ""))
    integ.append("""]
foreach t : sh_tests
  test(t[0], find_program('bash'), args : [files(t[1])], suite : t[2],
    timeout : t[3], env : test_env, is_parallel : false, depends : ssdlab_exe)
endforeach
""")
    open("tests/integration/meson.build", "w").write("".join(integ))

    m = re.search(r"^(# hardware:.*?)^add_test_setup", text, re.S | re.M)
    hw = m.group(1) if m else ""
    hw = hw.replace("[files('hardware/", "[files('")
    open("tests/hardware/meson.build", "w").write(hw)

    # Paths that name moved files.
    subs = [("tests/" + old, "tests/" + new) for old, new in moved.items()]
    subs.append(("tests/layers_check.py", "tests/unit/layers_check.py"))
    files = subprocess.run(["git", "ls-files", "docs", "README.md", "profiles", "tests", "scripts",
                            "suite", "analysis", "bench"], check=True, capture_output=True,
                           text=True).stdout.split()
    for f in files:
        if f == "scripts/relayout-tests.py" or not os.path.isfile(f):
            continue
        try:
            s = open(f, encoding="utf-8").read()
        except UnicodeDecodeError:
            continue
        t = s
        for old, new in subs:
            t = re.sub(re.escape(old) + r"(?![\w./])", new, t)
        t = t.replace("tests/test_sim_*.c", "tests/unit/test_sim_*.c")
        if t != s:
            open(f, "w", encoding="utf-8").write(t)
    for name in unknown:
        print("relayout-tests: %s: no layer known, it links every library: give it its layer in "
              "tests/*/meson.build" % name, file=sys.stderr)
    print("relayout-tests: moved %d files; now: meson setup --reconfigure build && ninja -C build"
          % (len(moved) + 1))


if __name__ == "__main__":
    main()
