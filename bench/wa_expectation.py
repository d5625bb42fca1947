#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""wa_expectation: why the WA guard's expectation 1 / (1 - alpha) sits below the long run's WA on
most of bench/fast_ss.py's models (docs/fast-steady-state.md, "The WA guard").

For each model (fast_ss.py's shrunk models and grid, the same builders), the long run of
bench/fast_ss_longrun.yaml (purge, 1x SEQ 128 KiB, RND 4 KiB to 5x, then 1x more) twice: with the
write cache off, as the PTS and that benchmark run it, and on. Over the last capacity, from the
snapshots' simulator counters (read here, not from ssdlab's summary): the WA, the share of the
NAND writes that is padding (a 4 KiB write with the cache off waits for its program, so the rest
of the 64 KiB page is filler), 1 + GC relocation / host, and SLC folding / host; against the
expectation 1 / (1 - alpha), alpha the clean validity the sprandom fill resolves on the model
(read from `ssdlab plan`'s line for a sprandom fill: the same resolution the runner uses).

    bench/wa_expectation.py [--build DIR] [--only REGEX] [--out FILE]

Prints a markdown table; about 30 s on a 2-core machine.
"""
import argparse
import glob
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(HERE)
spec = importlib.util.spec_from_file_location("fast_ss", os.path.join(HERE, "fast_ss.py"))
fs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fs)

# (name, builder, time scale): the scales bench/fast_ss.py found for these models (table 1)
BASE = open(os.path.join(SRC, "profiles", "models", "client-tlc.yaml")).read()
MODELS = [
    ("client-tlc", lambda: fs.shrink(BASE, "client-tlc-1g", 1), 26),
    ("grid-sf0.07-slc0", lambda: fs.grid_model(BASE, "grid-sf0.07-slc0", 0.07, 0, 1), 61),
    ("grid-sf0.12-slc0", lambda: fs.grid_model(BASE, "grid-sf0.12-slc0", 0.12, 0, 1), 25),
    ("grid-sf0.28-slc0", lambda: fs.grid_model(BASE, "grid-sf0.28-slc0", 0.28, 0, 1), 9.2),
    ("grid-sf0.28-slc15", lambda: fs.grid_model(BASE, "grid-sf0.28-slc15", 0.28, 15, 1), 11),
]
FILL = """name: wa-expectation-fill
description: only for plan's resolution of the sprandom inputs on the model
destructive: true
phases:
  - precondition: {method: sprandom}
"""


def alpha_on(ssdlab, model, tmp):
    prof = os.path.join(tmp, "fill.yaml")
    with open(prof, "w") as f:
        f.write(FILL)
    out = subprocess.run([ssdlab, "plan", prof, "--target", "sim:" + model], capture_output=True,
                         text=True, check=True).stdout
    m = re.search(r"sprandom here: spare ([0-9.]+) % \(model\), clean validity ([0-9.]+)", out)
    if not m:
        raise RuntimeError("plan shows no resolved sprandom inputs:\n" + out)
    return float(m.group(2))


def last_capacity(d):
    a = json.load(open(glob.glob(d + "/snapshots/*phase-3-write_until-start.json")[0]))
    b = json.load(open(glob.glob(d + "/snapshots/*phase-3-write_until-end.json")[0]))
    c = {k: b["counters"][k]["value"] - a["counters"][k]["value"] for k in b["counters"]}
    h = c["host_bytes_written"]
    return {"wa": c["nand_bytes_written"] / h, "gc": 1 + c["nand_bytes_written_gc"] / h,
            "pad": c["nand_bytes_written_pad"] / c["nand_bytes_written"],
            "fold": c["nand_bytes_written_fold"] / h}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(SRC, "build"))
    ap.add_argument("--only")
    ap.add_argument("--out")
    a = ap.parse_args()
    ssdlab = os.path.join(a.build, "suite", "ssdlab")
    rows = ["| model | expected 1/(1-alpha) | cache | WA | vs expected | 1 + GC/host | padding share of NAND writes | folding / host |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    with tempfile.TemporaryDirectory() as tmp:
        long_off = os.path.join(HERE, "fast_ss_longrun.yaml")
        long_on = os.path.join(tmp, "long-on.yaml")
        with open(long_off) as f:
            text = f.read()
        on = text.replace('write_cache: "off"', 'write_cache: "on"')
        if on == text:
            raise RuntimeError("fast_ss_longrun.yaml no longer says write_cache: \"off\"")
        with open(long_on, "w") as f:
            f.write(on)
        for name, build, scale in MODELS:
            if a.only and not re.search(a.only, name):
                continue
            model = os.path.join(tmp, name + ".yaml")
            with open(model, "w") as f:
                f.write(build())
            exp = 1 / (1 - alpha_on(ssdlab, model, tmp))
            for cache, prof in (("off", long_off), ("on", long_on)):
                d = os.path.join(tmp, name + "-" + cache)
                subprocess.run([ssdlab, "run", prof, "--target", "sim:" + model, "--out", d, "--seed", "7",
                                "--time-scale", repr(scale), "--quiet"], check=True)
                r = last_capacity(d)
                rows.append("| %s | %.2f | %s | %.2f | %+.1f %% | %.2f | %.1f %% | %.2f |" % (
                    name, exp, cache, r["wa"], (r["wa"] / exp - 1) * 100, r["gc"], r["pad"] * 100, r["fold"]))
    text = "\n".join(rows) + "\n"
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
