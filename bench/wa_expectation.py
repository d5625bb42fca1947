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

With --fill: where the sprandom fill leaves a drive at steady state, by blocks per die. The fill
then 8 rounds of 0.25x capacity of RND 4 KiB writes (write cache off, TC4/QD32), WA per round
from the snapshots at the round boundaries, on enterprise-28op at 2 GiB (the shrink the fast
benchmark uses: 437 blocks over 32 dies) with 32 dies (with and without its 64 MiB write buffer),
24, 16 and 8 dies, and at 3, 4 and 8 GiB with 32.

    bench/wa_expectation.py [--build DIR] [--only REGEX] [--fill] [--out FILE]

Prints a markdown table; about 15 s (--fill: 20 s) on a 2-core machine.
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
  - precondition: {method: sprandom, force: true}
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


E28 = open(os.path.join(SRC, "profiles", "models", "enterprise-28op.yaml")).read()


def e28(gib, dies_per_channel, buffer):
    text = fs.sub_line(fs.shrink(E28, "e28-%dg-%dd" % (gib, 8 * dies_per_channel), gib), "dies_per_channel",
                       str(dies_per_channel))
    if buffer is not None:
        text = fs.sub_line(text, "write_buffer", buffer)
    return text


# (name, GiB, dies per channel (8 channels), write_buffer or None for the model's 64m)
FILL_MODELS = [("enterprise-28op 2 GiB", 2, 4, None), ("enterprise-28op 2 GiB, write_buffer 0", 2, 4, "0"),
               ("enterprise-28op 2 GiB", 2, 3, None), ("enterprise-28op 3 GiB", 3, 4, None),
               ("enterprise-28op 2 GiB", 2, 2, None), ("enterprise-28op 2 GiB", 2, 1, None),
               ("enterprise-28op 4 GiB", 4, 4, None), ("enterprise-28op 8 GiB", 8, 4, None)]


def fill_rounds(ssdlab, tmp):
    prof = os.path.join(tmp, "fill-rounds.yaml")
    with open(prof, "w") as f:
        f.write("name: fill-rounds\ndescription: the sprandom fill, then 8 rounds of 0.25x RND 4 KiB\n"
                "destructive: true\nwrite_cache: \"off\"\nphases:\n  - purge: {method: auto}\n"
                "  - precondition: {method: sprandom, force: true, queue: {threads: 1, depth: 32}}\n" +
                "  - write_until: {rw: randwrite, bs: 4k, amount: 0.25x, queue: {threads: 4, depth: 32}}\n" * 8)
    rows = ["| model | dies | blocks | blocks per die | fill's spare | expected 1/(1-alpha) | WA of rounds 1-8 (0.25x each) | round 1 vs expected | rounds 5-8 vs expected |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for i, (name, gib, dpc, buf) in enumerate(FILL_MODELS):
        model = os.path.join(tmp, "e28-%d.yaml" % i)
        with open(model, "w") as f:
            f.write(e28(gib, dpc, buf))
        d = model[:-5]
        subprocess.run([ssdlab, "run", prof, "--target", "sim:" + model, "--out", d, "--seed", "7",
                        "--time-scale", "11", "--quiet"], check=True)
        ins = json.load(open(d + "/manifest.json"))["sprandom"][0]["inputs"]
        exp = 1 / (1 - ins["alpha"])
        blocks = json.load(open(glob.glob(d + "/snapshots/*run-start.json")[0]))["raw"]["physical_blocks"]
        was = []
        for p in range(2, 10):
            a = json.load(open(glob.glob(d + "/snapshots/*phase-%d-write_until-start.json" % p)[0]))
            b = json.load(open(glob.glob(d + "/snapshots/*phase-%d-write_until-end.json" % p)[0]))
            c = {k: b["counters"][k]["value"] - a["counters"][k]["value"] for k in b["counters"]}
            was.append(c["nand_bytes_written"] / c["host_bytes_written"])
        late = sum(was[4:]) / 4
        rows.append("| %s | %d | %d | %.1f | %.3f | %.2f | %s | %+.1f %% | %+.1f %% |" % (
            name, 8 * dpc, blocks, blocks / (8 * dpc), ins["spare"], exp, " ".join("%.2f" % w for w in was),
            (was[0] / exp - 1) * 100, (late / exp - 1) * 100))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(SRC, "build"))
    ap.add_argument("--only")
    ap.add_argument("--out")
    ap.add_argument("--fill", action="store_true", help="the fill by blocks per die (enterprise-28op)")
    a = ap.parse_args()
    ssdlab = os.path.join(a.build, "suite", "ssdlab")
    rows = ["| model | expected 1/(1-alpha) | cache | WA | vs expected | 1 + GC/host | padding share of NAND writes | folding / host |",
            "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    with tempfile.TemporaryDirectory() as tmp:
        if a.fill:
            rows = fill_rounds(ssdlab, tmp)
            text = "\n".join(rows) + "\n"
            sys.stdout.write(text)
            if a.out:
                with open(a.out, "w") as f:
                    f.write(text)
            return
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
