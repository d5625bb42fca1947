#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fast_cells: every matrix cell of snia-iops-fast against snia-iops, with cells long enough to
measure (issue 19, "every steady-state figure within 5 %"; docs/fast-steady-state.md, "Every
cell").

bench/fast_ss.py runs each model at the smallest --time-scale the runner accepts: a 1 MiB cell
then lasts about one drain of its queue, and one round of a cell can land in a garbage-collection
wave or miss it. Here the three models of the `fast` test (client-tlc and client-7op shrunk to
1 GiB, enterprise-28op to 2 GiB) run at the scale the runner names for 10 drains per cell, with
the write cache off (the PTS-E setting) and on (PTS-C), seeds 7 and 11: a full `snia-iops` and a
`snia-iops-fast` run each. From records.jsonl, with this script's own arithmetic:

  - each matrix cell's IOPS per round of the full run's SNIA window, and SNIA's steady-state rule
    applied to that cell's own window series (data excursion <= 20 %, slope excursion <= 10 % of
    the average): a cell that fails it has no steady-state figure in the full run (its window
    average mixes states), typically the 100 % read large-block cells whose window holds round 1,
    when the 2x sequential precondition's layout still serves them;
  - the fast figure (the matrix rounds after the first) against the full window's average, and
    against the full run's rounds after its first;
  - the fast run's own check of its matrix rounds (cells of at most 4 KiB, SNIA's rule over both
    rounds; analysis/pass_snia_fast.c) recomputed, and compared with summary.json's;
  - each cell's tail latency (p99, p99.9 of every I/O, from the records' histograms) of the fast
    figure against the full window's, beside two yardsticks of the procedure's own
    reproducibility against the same window: the other seed's full run, and the full run's last
    window round alone (one round, as the fast figure is); the tracked cell's fast p99 / p99.9
    compared with summary.json's.

Usage: bench/fast_cells.py [--build DIR] [--out DIR] [--seeds 7,11] [--caches off,on]
                           [--models NAME:GIB,...] [--only REGEX] [--drains 10] [--reuse]
Writes OUT/fast_cells.json and OUT/fast_cells.md. Target time only; the machine's time is not
measured. About 20 minutes on a 2-core machine for the default 12 pairs.
"""

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fast_ss  # noqa: E402  (the model shrinking and the SNIA constants)

SRC = fast_ss.SRC
MODELS = "client-tlc:1,client-7op:1,enterprise-28op:2"  # the `fast` test's, NAME:GIB
PLAN_SCALE = re.compile(r"--time-scale ([0-9.e+]+) or more \(([0-9.e+]+) for 10 drains\)")
TOL = 0.05


def model_text(name, gib):
    """A bundled model or one of fast_ss.py's grid (grid-sf0.07-slc15, ...) at `gib` GiB."""
    build = dict(fast_ss.models(False)).get(name)
    if build is None:
        raise SystemExit("fast_cells: no model %s (bundled names, or fast_ss.py's grid-sfS-slcP)"
                         % name)
    return build(gib)


def scale_for(ssdlab, mpath, drains):
    """The --time-scale `ssdlab plan` names for 10 drains per cell, times drains / 10."""
    p = subprocess.run([ssdlab, "plan", "snia-iops", "--target", "sim:" + mpath],
                       capture_output=True, text=True, check=True)
    m = PLAN_SCALE.search(p.stdout + p.stderr)
    if not m:
        raise RuntimeError("plan names no --time-scale for 10 drains:\n" + p.stdout[-800:])
    return float(m.group(2)) * drains / 10


def run(ssdlab, profile, mpath, out, seed, scale, cache):
    subprocess.run(["rm", "-rf", out], check=True)
    cmd = [ssdlab, "run", profile, "--target", "sim:" + mpath, "--out", out, "--seed", str(seed),
           "--time-scale", repr(scale), "--quiet", "--set", "write_cache=" + cache]
    if profile.endswith("-fast"):
        # the bench measures the shortcut also where the profile refuses it (a dynamic SLC
        # cache without PLP with the cache off): that is how the refusal was decided; the
        # manifest says "forced"
        cmd += ["--set", "phases.1.precondition.force=true"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), p.returncode, p.stderr[-600:]))


def records(d):
    with open(os.path.join(d, "records.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def cell_rounds(recs, phase):
    """{cell: {round: (iops, planned_ns / drain_ns)}} of the cell records of phase."""
    out = {}
    for r in recs:
        if r.get("kind") != "cell" or r["phase"] != phase or r.get("not_applicable"):
            continue
        ios = r["read"]["ios"] + r["write"]["ios"]
        drains = r["planned_ns"] / r["drain_ns"] if r.get("drain_ns") else float("inf")
        out.setdefault(r["cell"], {})[r["round"]] = (ios * 1e9 / r["elapsed_ns"], drains)
    return out


def cell_hists(recs, phase):
    """{cell: {round: [read hist, write hist]}} of the cell records of phase: every I/O's
    latency (a mixed cell's reads and writes together)."""
    out = {}
    for r in recs:
        if r.get("kind") != "cell" or r["phase"] != phase or r.get("not_applicable"):
            continue
        out.setdefault(r["cell"], {})[r["round"]] = [r["read"].get("hist"), r["write"].get("hist")]
    return out


def tails(hs, rounds):
    """p99 and p99.9 (ns) of the histograms of `rounds`, merged (fast_ss.percentile)."""
    hists = [h for k in rounds for h in hs[k]]
    return {"p99": fast_ss.percentile(hists, 99.0), "p99_9": fast_ss.percentile(hists, 99.9)}


def snia_ok(ys):
    """SNIA's rule on the series ys (all of it): data and slope excursions within 20 / 10 %."""
    n = len(ys)
    avg = sum(ys) / n
    xm = (n - 1) / 2.0
    slope = sum((i - xm) * (v - avg) for i, v in enumerate(ys)) / sum((i - xm) ** 2 for i in range(n))
    return (max(ys) - min(ys) <= fast_ss.SNIA["data"] * avg * (1 + 1e-9) and
            abs(slope) * (n - 1) <= fast_ss.SNIA["slope"] * avg * (1 + 1e-9))


def bs_of(cell):
    m = re.search(r"bs=(\d+)([km]?)", cell)
    return int(m.group(1)) * {"": 1, "k": 1024, "m": 1 << 20}[m.group(2)]


def pair(full, fast):
    rf, rq = records(full), records(fast)
    # the full run's window: the SNIA rule on the tracked cell, recomputed
    fphase = min(r["phase"] for r in rf if r.get("kind") == "cell")
    fr = cell_rounds(rf, fphase)
    tracked = [fr[fast_ss.TRACKED][k][0] for k in sorted(fr[fast_ss.TRACKED])]
    hit = fast_ss.snia_rule(tracked)
    if not hit:
        raise RuntimeError("%s: the full run did not reach steady state" % full)
    hi = hit[0]
    lo = hi - fast_ss.SNIA["window"] + 1
    # the fast run: the matrix is its last cell phase, its figures the rounds after the first
    qphases = sorted({r["phase"] for r in rq if r.get("kind") == "cell"})
    qr = cell_rounds(rq, qphases[-1])
    qrounds = sorted({k for v in qr.values() for k in v})
    used = qrounds[1:] if len(qrounds) > 1 else qrounds
    sq = json.load(open(os.path.join(fast, "summary.json")))
    unsteady_sum = set(sq["snia"][0]["header"]["fast"]["rounds_check"]["unsteady"])
    fh, qh = cell_hists(rf, fphase), cell_hists(rq, qphases[-1])
    cells, checks = [], []
    for c in sorted(fr):
        win = [fr[c][k][0] for k in range(lo, hi + 1)]
        after1 = [fr[c][k][0] for k in range(max(lo, 2), hi + 1)]
        avg, avg2 = sum(win) / len(win), sum(after1) / len(after1)
        q = sum(qr[c][k][0] for k in used) / len(used)
        qall = [qr[c][k][0] for k in qrounds]
        checked = bs_of(c) <= 4096 and len(qrounds) > 1
        fast_steady = snia_ok(qall) if checked else None
        if checked and (not fast_steady) != (c in unsteady_sum):
            checks.append("%s %s: fast rounds check here %s, summary.json %s"
                          % (fast, c, fast_steady, c not in unsteady_sum))
        drains = min([fr[c][k][1] for k in range(lo, hi + 1)] + [qr[c][k][1] for k in used])
        # tail latency: the full window, the full run's last window round alone (one round, as
        # the fast figure is) and the fast run's rounds after the first
        lat = {"full": tails(fh[c], range(lo, hi + 1)), "full_last": tails(fh[c], [hi]),
               "fast": tails(qh[c], used)}
        if c == fast_ss.TRACKED:
            # ssdlab's own figure for the tracked cell over the same rounds (summary.json's
            # cells entry of the matrix phase): a disagreement is a check failure
            e = [x for x in sq["cells"] if x["phase"] == qphases[-1] and x["cell"] == c and
                 x.get("kind") == "cell"]
            w = e[0]["write"]["lat_ns"] if e else {}
            if not e or not fast_ss.close(w.get("p99"), lat["fast"]["p99"], 1e-9) or \
                    not fast_ss.close(w.get("p99_9"), lat["fast"]["p99_9"], 1e-9):
                checks.append("%s %s: p99/p99.9 here %r, summary.json %r"
                              % (fast, c, lat["fast"], w))
        cells.append({"cell": c, "full_window": win, "full_avg": avg, "full_after_round1": avg2,
                      "fast": q, "fast_rounds": qall, "full_steady": snia_ok(win),
                      "fast_checked": checked, "fast_steady": fast_steady,
                      "d": q / avg - 1, "d_after_round1": q / avg2 - 1, "min_drains": drains,
                      "lat": lat})
    return {"window": [lo, hi], "cells": cells, "checks": checks,
            "tracked_d": [x for x in cells if x["cell"] == fast_ss.TRACKED][0]["d"]}


def summarize(p):
    cs = p["cells"]
    st = [x for x in cs if x["full_steady"]]
    un = [x for x in cs if not x["full_steady"]]
    return {
        "cells": len(cs),
        "steady": len(st), "steady_within": sum(abs(x["d"]) <= TOL for x in st),
        "steady_worst": max((x["d"] for x in st), key=abs, default=0.0),
        "unsteady": len(un), "unsteady_within": sum(abs(x["d"]) <= TOL for x in un),
        "unsteady_within_after1": sum(abs(x["d_after_round1"]) <= TOL for x in un),
        "fast_flagged": sum(1 for x in cs if x["fast_steady"] is False),
        "misses": ["%s %+.1f %%%s" % (x["cell"], 100 * x["d"],
                                      "" if x["fast_steady"] is not False else " (flagged)")
                   for x in st if abs(x["d"]) > TOL],
        "unsteady_cells": ["%s %+.1f %% (after round 1: %+.1f %%)"
                           % (x["cell"], 100 * x["d"], 100 * x["d_after_round1"]) for x in un],
        "min_drains": min(x["min_drains"] for x in cs),
    }


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return None if not n else (xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2)


def tail_row(r, rows):
    """Tail latency (p99, p99.9 of every I/O of a cell) of run row r: the fast figure against the
    full window's, beside the procedure's own reproducibility against the same window: another
    seed's full run (same model and cache) and the full run's last window round alone (one round,
    as the fast figure is). Per percentile: over the cells, how many within 5 %, the median and
    worst |difference|, and how many cells the fast figure is no further off than the other
    seed's full run is."""
    other = [o for o in rows if o["model"] == r["model"] and o["cache"] == r["cache"] and
             o["seed"] != r["seed"]]
    out = {}
    for p in ("p99", "p99_9"):
        dq, dff, d1, near = [], [], [], 0
        for c, lat in sorted(r["lat"].items()):
            full = lat["full"][p]
            if not full or lat["fast"][p] is None or lat["full_last"][p] is None:
                continue
            dq.append(abs(lat["fast"][p] / full - 1))
            d1.append(abs(lat["full_last"][p] / full - 1))
            o = other[0]["lat"].get(c, {}).get("full", {}).get(p) if other else None
            if o is not None:
                dff.append(abs(o / full - 1))
                near += dq[-1] <= dff[-1]
        t = r["lat"][fast_ss.TRACKED]
        ot = other[0]["lat"][fast_ss.TRACKED]["full"][p] if other else None
        out[p] = {"cells": len(dq), "fast_within": sum(x <= TOL for x in dq),
                  "fast_median": median(dq), "fast_worst": max(dq, default=None),
                  "other_within": sum(x <= TOL for x in dff) if dff else None,
                  "other_median": median(dff), "one_within": sum(x <= TOL for x in d1),
                  "one_median": median(d1), "fast_no_further": near if dff else None,
                  "tracked_fast": t["fast"][p] / t["full"][p] - 1,
                  "tracked_one": t["full_last"][p] / t["full"][p] - 1,
                  "tracked_other": ot / t["full"][p] - 1 if ot else None}
    return out


def tail_md(rows):
    def pc(x):
        return "-" if x is None else "%.1f %%" % (100 * x)

    def spc(x):
        return "-" if x is None else "%+.1f %%" % (100 * x)

    md = ["Tail latency per cell (p99 / p99.9 of every I/O of the cell; |difference| from the full "
          "window's; `other full`: the other seed's full run, `one round`: the full run's last "
          "window round alone):", "",
          "| model | cache | seed | pct | fast within 5 % | median fast | worst fast | other full "
          "within 5 % | median other full | one round within 5 % | median one round | fast no "
          "further than other full | tracked: fast / one round / other full |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        for p, name in (("p99", "p99"), ("p99_9", "p99.9")):
            t = r["tails"][p]
            md.append("| %s | %s | %d | %s | %d of %d | %s | %s | %s | %s | %d of %d | %s | %s | %s / %s / %s |"
                      % (r["model"], r["cache"], r["seed"], name, t["fast_within"], t["cells"],
                         pc(t["fast_median"]), pc(t["fast_worst"]),
                         "-" if t["other_within"] is None else "%d of %d" % (t["other_within"], t["cells"]),
                         pc(t["other_median"]), t["one_within"], t["cells"], pc(t["one_median"]),
                         "-" if t["fast_no_further"] is None else "%d of %d" % (t["fast_no_further"], t["cells"]),
                         spc(t["tracked_fast"]), spc(t["tracked_one"]), spc(t["tracked_other"])))
    return md


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(SRC, "build"))
    ap.add_argument("--out", help="default: BUILD/fast_cells.out (out of the tree)")
    ap.add_argument("--seeds", default="7,11")
    ap.add_argument("--caches", default="off,on")
    ap.add_argument("--only", help="a regular expression on the model names")
    ap.add_argument("--models", default=MODELS,
                    help="NAME:GIB,... (bundled models, or fast_ss.py's grid-sfS-slcP); default "
                    + MODELS)
    ap.add_argument("--drains", type=float, default=10, help="drains per cell the scale gives")
    ap.add_argument("--reuse", action="store_true", help="read the runs left in --out again")
    a = ap.parse_args()
    ssdlab = os.environ.get("SSDLAB", os.path.join(a.build, "suite", "ssdlab"))
    os.environ["SSDLAB"] = ssdlab  # for the --one children
    out = os.path.abspath(a.out or os.path.join(a.build, "fast_cells.out"))
    os.makedirs(out, exist_ok=True)
    rows, checks = [], []
    for name, gib in [(m.split(":")[0], int(m.split(":")[1])) for m in a.models.split(",")]:
        if a.only and not re.search(a.only, name):
            continue
        mpath = os.path.join(out, name + ".yaml")
        with open(mpath, "w") as f:
            f.write(model_text(name, gib))
        scale0 = scale_for(ssdlab, mpath, a.drains)
        with open(mpath) as f:
            plp = re.search(r"^power_loss_protection: *true", f.read(), re.M) is not None
        caches = a.caches.split(",")
        if plp and len(caches) > 1:
            # the buffer is protected: writes complete in it whatever the cache setting
            # (suite/sim/sim.c), so the runs would be the same twice
            print("%s: power-loss protection, the write cache setting changes nothing: cache %s"
                  " only" % (name, caches[0]), flush=True)
            caches = caches[:1]
        for cache in caches:
            for seed in [int(s) for s in a.seeds.split(",")]:
                tag = "%s-%s-%d" % (name, cache, seed)
                full, fast = os.path.join(out, tag + "-full"), os.path.join(out, tag + "-fast")
                scale, reuse = scale0, a.reuse
                if reuse and os.path.exists(os.path.join(out, tag + ".scale")):
                    with open(os.path.join(out, tag + ".scale")) as f:
                        scale = float(f.read())
                for attempt in range(3):
                    if not (reuse and os.path.exists(os.path.join(fast, "summary.json")) and
                            os.path.exists(os.path.join(full, "summary.json"))):
                        # the two runs side by side: one process each
                        jobs = [subprocess.Popen([sys.executable, __file__, "--one", p, mpath, d,
                                                  str(seed), repr(scale), cache])
                                for p, d in (("snia-iops", full), ("snia-iops-fast", fast))]
                        if any(j.wait() for j in jobs):
                            raise RuntimeError("%s: a run failed" % tag)
                        with open(os.path.join(out, tag + ".scale"), "w") as f:
                            f.write(repr(scale))
                    p = pair(full, fast)
                    s = summarize(p)
                    # plan's drain is an estimate (a probe on a filled copy); where the runs'
                    # own drains fall short of the aim, again at the scale they call for
                    if s["min_drains"] >= 0.95 * a.drains:
                        break
                    if attempt == 2:
                        break
                    old, scale, reuse = scale, scale * a.drains / s["min_drains"] * 1.1, False
                    print("%s: %.1f drains per cell at --time-scale %g, again at %g"
                          % (tag, s["min_drains"], old, scale), flush=True)
                checks += p["checks"]
                rows.append({"model": name, "gib": gib, "scale": scale, "cache": cache, "plp": plp,
                             "seed": seed, "window": p["window"],
                             "tracked_d": p["tracked_d"], **s,
                             "lat": {x["cell"]: x["lat"] for x in p["cells"]}})
                print("%-16s cache %-3s seed %-2d: steady in full %d, within 5 %% %d (worst %+.1f %%); "
                      "not steady in full %d; fast flagged %d; min drains %.1f"
                      % (name, cache, seed, s["steady"], s["steady_within"],
                         100 * s["steady_worst"], s["unsteady"], s["fast_flagged"],
                         s["min_drains"]), flush=True)
    for r in rows:
        r["tails"] = tail_row(r, rows)
    commit = subprocess.run(["git", "-C", SRC, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    with open(os.path.join(out, "fast_cells.json"), "w") as f:
        json.dump({"schema": 1, "commit": commit, "drains": a.drains, "rows": rows,
                   "checks": checks}, f, indent=1)
    md = ["Made by `bench/fast_cells.py` at commit %s (%g drains per cell)." % (commit, a.drains),
          "",
          "| model | scale | cache | seed | full window | tracked | steady in full: within 5 % | worst | "
          "not steady in full: within 5 % / after round 1 | fast flagged | misses |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        md.append("| %s | %.3g | %s | %d | %d-%d | %+.1f %% | %d of %d | %+.1f %% | %d / %d of %d | %d | %s |"
                  % (r["model"], r["scale"], r["cache"], r["seed"], r["window"][0], r["window"][1],
                     100 * r["tracked_d"], r["steady_within"], r["steady"],
                     100 * r["steady_worst"], r["unsteady_within"], r["unsteady_within_after1"],
                     r["unsteady"], r["fast_flagged"], "; ".join(r["misses"]) or "-"))
    md.append("")
    md.append("Cells not steady in the full run's own window (per row):")
    md.append("")
    for r in rows:
        md.append("- %s, cache %s, seed %d: %s" % (r["model"], r["cache"], r["seed"],
                                                   "; ".join(r["unsteady_cells"]) or "none"))
    md.append("")
    md += tail_md(rows)
    with open(os.path.join(out, "fast_cells.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    for c in checks:
        print("check: " + c, file=sys.stderr)
    print("wrote %s/fast_cells.json and fast_cells.md" % out)
    return 1 if checks else 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        prof, mpath, d, seed, scale, cache = sys.argv[2:8]
        ssd = os.environ.get("SSDLAB", os.path.join(SRC, "build", "suite", "ssdlab"))
        run(ssd, prof, mpath, d, int(seed), float(scale), cache)
        sys.exit(0)
    sys.exit(main())
