# SPDX-License-Identifier: MIT
"""headline_check: checks a run's headline block against summary.json and records.jsonl.

Usage: headline_check.py PROFILE RESULTS_DIR HEADLINE_BLOCK RUN_STDOUT

Every line of the block must be of a known kind, and every number on it must equal, to the
printed precision, the summary.json figure it stands for; the figures themselves are recomputed
from records.jsonl where the headline derives them (per-cell IOPS and MB/s, the WSAT trend, the
recovery rule). Exit 0 when all holds, 1 with the reasons on stderr otherwise. Called by
headline_test.sh; reads only the results directory, never ssdlab's code.
"""
import json
import math
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ss_early_rule  # noqa: E402

name, d, block_path, run_path = sys.argv[1:5]
summary = json.load(open(d + "/summary.json"))
manifest = json.load(open(d + "/manifest.json"))
recs = [json.loads(line) for line in open(d + "/records.jsonl")]
h = summary["headline"]
lines = open(block_path).read().splitlines()
run_out = open(run_path).read().splitlines()
errors = []


def bad(msg):
    errors.append(msg)


def decimals(text):
    return len(text.split(".")[1]) if "." in text else 0


def near(printed, value, what, scale=1.0):
    """printed (a string as shown) equals value / scale rounded to the printed decimals."""
    if value is None:
        bad("%s: %s printed, summary has null" % (what, printed))
        return
    p = float(printed)
    tol = 0.5 * 10 ** -decimals(printed) * (1 + 1e-9) + 1e-12
    if abs(p - value / scale) > tol:
        bad("%s: printed %s, summary %r (/%g)" % (what, printed, value, scale))


UNIT = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def near_duration(printed, ns, what):
    """A duration as units_fmt_duration prints it: '397.45 us', '1.02 s', '1m14s', '18h56m'."""
    if ns is None:
        bad("%s: %s printed, summary has null" % (what, printed))
        return
    # Durations are printed from whole nanoseconds (llround, then units_fmt_duration), so a mean of
    # 127574.82 ns is 127575 ns and prints as 127.58 us.
    ns = math.floor(ns + 0.5)
    m = re.fullmatch(r"([0-9.]+) (ns|us|ms|s)", printed)
    if m:
        near(m.group(1), ns, what, UNIT[m.group(2)])
        return
    for pat, big, small in ((r"(\d+)m(\d\d)s", 60e9, 1e9), (r"(\d+)h(\d\d)m", 3600e9, 60e9),
                            (r"(\d+)d(\d\d)h", 86400e9, 3600e9)):
        m = re.fullmatch(pat, printed)
        if m:
            v = int(m.group(1)) * big + int(m.group(2)) * small
            if abs(v - ns) > small / 2 * (1 + 1e-9):
                bad("%s: printed %s, summary %r ns" % (what, printed, ns))
            return
    bad("%s: %r is not a duration" % (what, printed))


def metric_text(metric):
    """The pattern print_metric uses for a steady-state metric: (regex, scale)."""
    if metric == "iops":
        return r"IOPS (\S+)", 1
    if metric in ("read_iops", "write_iops"):
        return metric[0:metric.index("_")] + r" IOPS (\S+)", 1
    if "bw" in metric:
        return r"(\S+) MB/s", 1e6
    if "lat_" in metric:
        return re.escape(metric) + r" (\S+) us", 1e3
    return re.escape(metric) + r" (\S+)", 1


DUR = r"[0-9.]+ (?:ns|us|ms|s)|\d+m\d\ds|\d+h\d\dm|\d+d\d\dh"

# ---- the block, line by line -------------------------------------------------------------
ss = h["steady_state"]
# Series of the same workload, queue and metric (an idle sweep's steady states) are one line with
# their range and median, in the order of their first series.
ss_groups = []
for e in ss:
    key = (e.get("workload"), e.get("queue"), e.get("metric"))
    g = next((g for g in ss_groups if g[0] == key), None)
    if g:
        g[1].append(e)
    else:
        ss_groups.append((key, [e]))
i_grp = 0
cur_group = None
# An idle sweep (with a gc_recovery): the recovery lines are one table sorted by idle time (then
# by the idle's phase).
rec_list = h["recovery"]
if len(rec_list) > 1 and summary.get("gc_recovery"):
    rec_list = sorted(rec_list, key=lambda e: (e["idle_target_ns"], e["idle_phase"]))
gc_points = (summary.get("gc_recovery") or {}).get("points", [])
results = h.get("results", [])
wsat = h.get("write_saturation", [])
# SLC-cache probes print their SLC line instead of a WSAT line (suite/cli/headline.c, print_wsat),
# and so do an idle sweep's measurements after an idle (their row of the recovery table).
slc_phases = {x["phase"] for x in summary.get("slc_cache", [])}
sweep_phases = {x["phase"] for x in gc_points}
wsat_lines = [e for e in wsat if e["phase"] not in slc_phases | sweep_phases]
i_ss = i_wa = i_rec = i_res = i_ws = 0
# SNIA blocks, recomputed from the raw files by snia_blocks_check (beside this script).
sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.abspath(__file__)))
import snia_blocks_check  # noqa: E402
snia_hl = h.get("snia", [])
snia_want = {(b["phase"], b["repeat"]): b for b in snia_blocks_check.recompute(d)}
import snia_hir_check  # noqa: E402
hir_want = snia_hir_check.recompute(d)
i_snia = 0
se = None
table_scaled = None
cur_res_phase = None
figures = 0
named = set()
i_surf = 0
for ln in lines:
    m = re.fullmatch(r"steady state   ()(.*) over (\d+) phases \(median (\S+); (reached in all|"
                     r"NOT reached in (\d+) of them)\)", ln)
    if m and i_grp < len(ss_groups):
        key, grp = ss_groups[i_grp]
        i_grp += 1
        i_ss += len(grp)
        cur_group = grp
        pat, scale = metric_text(key[2])
        if not m.group(2).startswith(key[0] + " ") or int(m.group(3)) != len(grp) or len(grp) < 2:
            bad("steady-state range %r vs %d series of %r" % (ln, len(grp), key))
            continue
        mm = re.fullmatch(pat.replace(r"(\S+)", r"([0-9.]+)-([0-9.]+)"), m.group(2)[len(key[0]) + 1:])
        if not mm:
            bad("steady-state range %r does not show %r" % (ln, key))
            continue
        avgs = [e["average"] for e in grp]
        near(mm.group(1), min(avgs), "steady state lowest", scale)
        near(mm.group(2), max(avgs), "steady state highest", scale)
        near(m.group(4), statistics.median(avgs), "steady state median", scale)
        notr = sum(e["verdict"] != "reached" for e in grp)
        if (notr == 0) != (m.group(5) == "reached in all") or (m.group(6) and int(m.group(6)) != notr):
            bad("%r: %d series not reached" % (ln, notr))
        named.update(e["phase"] for e in grp)
        figures += 1
        continue
    m = re.fullmatch(r"WA             ([0-9.]+)-([0-9.]+) in steady state \(median (\S+)\)", ln)
    if m:
        was = [e["wa"] for e in (cur_group or []) if e.get("wa") is not None]
        if not was or i_wa >= i_ss:
            bad("WA range %r is not after its steady-state range" % ln)
            continue
        near(m.group(1), min(was), "WA lowest")
        near(m.group(2), max(was), "WA highest")
        near(m.group(3), statistics.median(was), "WA median")
        i_wa = i_ss
        figures += 1
        continue
    m = re.fullmatch(r"steady state   (.+?) (IOPS .*|read IOPS .*|write IOPS .*|\S+ MB/s .*|"
                     r"lat_\S+ .*)", ln)
    if m and i_grp < len(ss_groups):
        if len(ss_groups[i_grp][1]) != 1:
            bad("%r: %d series of this shape are one range line" % (ln, len(ss_groups[i_grp][1])))
        e = ss_groups[i_grp][1][0]
        i_grp += 1
        i_ss += 1
        cur_group = [e]
        pat, scale = metric_text(e["metric"])
        tail = (r" \(reached in rounds (\d+)-(\d+)\)" if e["verdict"] == "reached" else
                r" \(NOT reached: " + re.escape(e.get("reason", e["verdict"])) +
                r"; last window rounds (\d+)-(\d+)\)")
        mm = re.fullmatch(re.escape(e["workload"]) + " " + pat + tail, ln[len("steady state   "):])
        if not mm:
            bad("steady-state line %r does not show %r" % (ln, e))
            continue
        near(mm.group(1), e["average"], "steady state average", scale)
        if int(mm.group(2)) != e["first_round"] or int(mm.group(3)) != e["last_round"]:
            bad("steady-state rounds %r vs %r" % (ln, e))
        named.add(e["phase"])
        figures += 1
        continue
    m = re.fullmatch(r"early verdict  (?:steady state predicted at round (\d+) \(confidence (\S+)\)"
                     r"(, SNIA window not completed|; --strict-pts: SNIA window run)|"
                     r"not predicted \(confidence (\S+)\))", ln)
    if m:
        # beside the SNIA line of its series; recomputed from records.jsonl (ss_early_rule.py)
        if i_ss < 1 or not cur_group or "early" not in cur_group[-1]:
            bad("early verdict line %r is not after a steady-state line with an early block" % ln)
            continue
        ent = cur_group[-1]
        ee = ent["early"]
        track = [t for t in manifest.get("steady_state", []) if t["phase"] == ent["phase"] and
                 t["repeat"] == ent["repeat"] and t["cell"] == ent["cell"]]
        if not track or "early" not in track[0]:
            bad("early verdict line %r: the manifest declares no early rule" % ln)
            continue
        got, _, yv, rv = ss_early_rule.recompute(recs, track[0])
        conf = m.group(2) or m.group(4)
        near(conf, ee["confidence"], "early verdict confidence")
        if m.group(1):
            stopped = m.group(3).startswith(",")
            if not got or int(m.group(1)) != got["round"] or ee["round"] != got["round"]:
                bad("early verdict %r: recomputed %s" % (ln, got and got["round"]))
            if stopped != (not manifest.get("options", {}).get("strict_pts", False) and
                           rv[-1] == int(m.group(1))):
                bad("early verdict %r: stopped or not does not match the records" % ln)
        elif got:
            bad("early verdict %r: recomputed predicted at round %d" % (ln, got["round"]))
        figures += 1
        continue
    m = re.fullmatch(r"WA guard       (?:passed: round (\d+) WA (\S+) against 1/\(1-alpha\) = (\S+) "
                     r"\(short when more than (\S+) % below\)|delayed: (\d+) verdict\(s\) refused from "
                     r"round (\d+) \(WA short\), accepted at round (\d+) \(WA (\S+), (\S+) % below (\S+)\)|"
                     r"short: the rounds ended at round (\d+) with WA (\S+), (\S+) % below (\S+) "
                     r"\(tolerance (\S+) %\): steady state not confirmed|(unavailable): .*)", ln)
    if m:
        # the WA guard (docs/fast-steady-state.md): each round's WA recomputed here from the
        # tracked records' wa_guard_counters, the expectation from the manifest's sprandom alpha
        if i_ss < 1 or not cur_group or "wa_guard" not in cur_group[-1]:
            bad("WA guard line %r is not after a steady-state line with a wa_guard block" % ln)
            continue
        ent = cur_group[-1]
        alpha = [x for x in manifest.get("sprandom", []) if x["phase"] < ent["phase"] and
                 "inputs" in x][-1]["inputs"]["alpha"]
        exp = 1 / (1 - alpha)
        tol = ent["wa_guard"]["tolerance"]
        rws = {r["round"]: r["wa_guard_counters"] for r in recs if r.get("kind") == "cell" and
               r.get("phase") == ent["phase"] and r.get("cell") == ent["cell"] and
               "wa_guard_counters" in r}
        rwa = {k: (c["nand_bytes"] / c["host_bytes"] if c["host_bytes"] else None)
               for k, c in rws.items()}
        shortr = [k for k in sorted(rwa) if rwa[k] is not None and rwa[k] < (1 - tol) * exp]
        g = m.groups()
        if g[0]:
            rd, w, e, t = int(g[0]), g[1], g[2], g[3]
            if shortr and shortr[-1] >= rd:
                bad("WA guard %r: round %d is short here" % (ln, shortr[-1]))
        elif g[4]:
            rd, w, e = int(g[6]), g[7], g[9]
            near(g[8], 100 * (1 - rwa[rd] / exp), "WA guard shortfall")
            if int(g[5]) != min(ent["wa_guard"]["first_blocked_round"] or 0, 10 ** 9) or \
                    int(g[5]) not in shortr or rd in shortr:
                bad("WA guard %r: refused from %s, short rounds here %r" % (ln, g[5], shortr))
        elif g[10]:
            rd, w, e, t = int(g[10]), g[11], g[13], g[14]
            near(g[12], 100 * (1 - rwa[rd] / exp), "WA guard shortfall")
            if rd not in shortr:
                bad("WA guard %r: round %d is not short here" % (ln, rd))
        else:
            if any(v is not None for v in rwa.values()):
                bad("WA guard %r: the records have the WA" % ln)
            figures += 1
            continue
        near(w, rwa[rd], "WA guard round WA")
        near(e, exp, "WA guard expected WA")
        if g[0] or g[10]:
            near(t, 100 * tol, "WA guard tolerance")
        figures += 1
        continue
    m = re.fullmatch(r"WA             (\S+) in steady state(?:, (\S+) whole run)?", ln)
    if m:
        if i_ss < 1 or i_wa >= i_ss:
            bad("WA line %r is not after its steady-state line" % ln)
            continue
        near(m.group(1), cur_group[-1]["wa"], "WA in steady state")
        if m.group(2):
            near(m.group(2), h["wa_run"], "WA whole run")
        i_wa = i_ss
        figures += 1
        continue
    m = re.fullmatch(r"WA             (\S+) whole run", ln)
    if m:
        near(m.group(1), h["wa_run"], "WA whole run")
        figures += 1
        continue
    m = re.fullmatch(r"after (.+?) idle (.+) \(([+-]?\d+)%\), (back to steady state after (.+) "
                     r"of writing|not back to steady state within the measured rounds) "
                     r"\(rule: (\d+) rounds in a row within (\d+)%\)", ln)
    if m:
        if i_rec >= len(rec_list):
            bad("recovery line %r has no recovery entry" % ln)
            continue
        e = rec_list[i_rec]
        i_rec += 1
        near_duration(m.group(1), e["idle_profile_ns"], "idle time")
        pat, scale = metric_text(e["metric"])
        mm = re.fullmatch(pat, m.group(2))
        if not mm:
            bad("recovery figure %r" % m.group(2))
        else:
            near(mm.group(1), e["first"], "first after idle", scale)
        near(m.group(3), 100 * e["first_change"], "change after idle")
        if m.group(5):
            near_duration(m.group(5), e["back_after_profile_ns"], "back after")
            if e["verdict"] != "back":
                bad("printed back, verdict %s" % e["verdict"])
        elif e["verdict"] != "not_within_measured_rounds":
            bad("printed not back, verdict %s" % e["verdict"])
        if "rule" not in e:
            bad("recovery entry without its rule: %r" % e)
            continue
        near(m.group(6), e["rule"]["rounds"], "rule rounds")
        near(m.group(7), 100 * e["rule"]["band"], "rule band")
        named.add(e["phase"])
        figures += 1
        continue
    m = re.fullmatch(r"recovery after (\d+) idles, by idle time; (times are the target's \(the "
                     r"profile's in brackets\)|times as measured)(?:; back = (\d+) rounds in a row "
                     r"within (\d+)% of steady state)?", ln)
    if m:
        if int(m.group(1)) != len(rec_list) or len(rec_list) < 2:
            bad("%r: %d recovery entries" % (ln, len(rec_list)))
        table_scaled = m.group(2).startswith("times are")
        # time-scaled when the two clocks differ (the virtual SSD's --time-scale)
        if table_scaled != any(abs(e["idle_target_ns"] - e["idle_profile_ns"]) > 1 + 1e-6 * e["idle_profile_ns"]
                               for e in rec_list):
            bad("%r: the entries' idle times say otherwise" % ln)
        if m.group(3):
            near(m.group(3), rec_list[0]["rule"]["rounds"], "rule rounds")
            near(m.group(4), 100 * rec_list[0]["rule"]["band"], "rule band")
        continue
    m = re.fullmatch(r"  idle +first \(vs steady\) +(excess +)?back to steady state after \(writing\)", ln)
    if m:
        if table_scaled is None or bool(m.group(1)) != ("gc_recovery" in summary):
            bad("%r: not under a recovery table heading, or the excess column is wrong" % ln)
        continue
    m = re.fullmatch(r"  (" + DUR + r")(?: \((" + DUR + r")\))? +(.+?) \(([+-]?\d+)%\) +(?:(\S+) MB +)?"
                     r"(?:(" + DUR + r")(?: \((" + DUR + r")\))?|(not back within the measured rounds))", ln)
    if m and table_scaled is not None and i_rec < len(rec_list):
        e = rec_list[i_rec]
        i_rec += 1
        if bool(m.group(2)) != table_scaled or (m.group(6) and bool(m.group(7)) != table_scaled):
            bad("%r: not in the table's time base" % ln)
        near_duration(m.group(1), e["idle_target_ns"], "idle time (target)")
        if m.group(2):
            near_duration(m.group(2), e["idle_profile_ns"], "idle time (profile)")
        pat, scale = metric_text(e["metric"])
        mm = re.fullmatch(pat, m.group(3))
        if not mm:
            bad("recovery figure %r" % m.group(3))
        else:
            near(mm.group(1), e["first"], "first after idle", scale)
        near(m.group(4), 100 * e["first_change"], "change after idle")
        pt = next((x for x in gc_points if (x["idle_phase"], x["idle_repeat"]) ==
                   (e["idle_phase"], e["idle_repeat"])), None)
        if m.group(5) is not None:
            if not pt:
                bad("%r: excess printed, no gc_recovery point for the idle" % ln)
            else:
                near(m.group(5), pt["excess_bytes"], "excess bytes", 1e6)
        if m.group(6):
            near_duration(m.group(6), e["back_after_target_ns"], "back after (target)")
            if m.group(7):
                near_duration(m.group(7), e["back_after_profile_ns"], "back after (profile)")
            if e["verdict"] != "back":
                bad("printed back, verdict %s" % e["verdict"])
        elif e["verdict"] != "not_within_measured_rounds":
            bad("printed not back, verdict %s" % e["verdict"])
        named.add(e["phase"])
        figures += 1
        continue
    m = re.fullmatch(r"  \((\d+) more phases of the same cells, phases (\d+) to (\d+), in summary.json\)", ln)
    if m:
        # the blocks left out: the next N (phase, repeat) blocks, each of the cells of the last one
        shown = [(x["workload"], x["queue"], x["over"]) for x in results[:i_res] if
                 (x["phase"], x["repeat"]) == cur_res_phase]
        blocks = []
        j = i_res
        while j < len(results) and len(blocks) < int(m.group(1)):
            k = j
            while k < len(results) and (results[k]["phase"], results[k]["repeat"]) == \
                    (results[j]["phase"], results[j]["repeat"]):
                k += 1
            blocks.append((j, k))
            j = k
        if len(blocks) != int(m.group(1)) or int(m.group(1)) < 1 or \
                results[blocks[0][0]]["phase"] != int(m.group(2)) or \
                results[blocks[-1][0]]["phase"] != int(m.group(3)):
            bad("%r: the next blocks are %r" % (ln, [results[b[0]]["phase"] for b in blocks]))
            continue
        for a, b in blocks + [(j, j + len(shown))]:
            if [(x["workload"], x["queue"], x["over"]) for x in results[a:b]] != shown:
                bad("%r: phase %d has other cells" % (ln, results[a]["phase"] if a < len(results) else -1))
            named.update(x["phase"] for x in results[a:b])
        i_res = j
        continue
    m = re.fullmatch(r"cells of phase (\d+)(?: \(repeat (\d+)\))?, rounds (\d+)-(\d+)"
                     r"( \(steady-state window\)| \(fast run: matrix rounds after the first\))?", ln)
    if m:
        if i_res >= len(results):
            bad("%r: no results entry left" % ln)
            continue
        e = results[i_res]
        cur_res_phase = (int(m.group(1)), int(m.group(2) or 0))
        if cur_res_phase != (e["phase"], e["repeat"]) or int(m.group(3)) != e["first_round"] \
                or int(m.group(4)) != e["last_round"] \
                or (m.group(5) or "") != {"steady_state_window": " (steady-state window)",
                                          "fast_matrix_rounds": " (fast run: matrix rounds after the first)"
                                          }.get(e["over"], ""):
            bad("%r does not head results entry %r" % (ln, e))
        continue
    m = re.fullmatch(r"  (.+?) +IOPS (\S+), (\S+) MB/s, latency mean (.+), p99 (.+), max (.+)", ln)
    if m:
        if i_res >= len(results):
            bad("%r: no results entry left" % ln)
            continue
        e = results[i_res]
        i_res += 1
        if (e["phase"], e["repeat"]) != cur_res_phase:
            bad("%r is not under its phase's heading" % ln)
        if m.group(1) != (e["workload"] + " " + e["queue"]).strip():
            bad("cell line names %r, summary %r" % (m.group(1), e["workload"] + " " + e["queue"]))
        near(m.group(2), e["iops"], "cell IOPS")
        near(m.group(3), e["bw_bps"], "cell MB/s", 1e6)
        near_duration(m.group(4), e["lat_mean_ns"], "cell mean latency")
        near_duration(m.group(5), e["lat_p99_ns"], "cell p99 latency")
        near_duration(m.group(6), e["lat_max_ns"], "cell max latency")
        named.add(e["phase"])
        figures += 1
        continue
    m = re.fullmatch(r"  \((\d+) more cells in summary.json\)", ln)
    if m:
        near(m.group(1), h["results_omitted"], "cells left out")
        continue
    m = re.fullmatch(r"WSAT           phase (\d+) (.+): (\S+)x capacity in (%s), IOPS (\S+) in the "
                     r"first record, (\S+) over the last fill" % DUR, ln)
    if m:
        if i_ws >= len(wsat_lines):
            bad("%r: no write_saturation entry" % ln)
            continue
        e = wsat_lines[i_ws]
        i_ws += 1
        if int(m.group(1)) != e["phase"] or m.group(2) != (e["workload"] + " " + e["queue"]).strip():
            bad("WSAT line %r vs %r" % (ln, e))
        near(m.group(3), e["written_x"], "WSAT capacity written")
        near_duration(m.group(4), e["profile_ns"], "WSAT time")
        near(m.group(5), e["first_iops"], "WSAT first IOPS")
        near(m.group(6), e["fills"][-1]["iops"], "WSAT last fill IOPS")
        named.add(e["phase"])
        figures += 1
        continue
    m = re.fullmatch(r"  IOPS by capacity written:(.*)", ln)
    if m:
        e = wsat_lines[i_ws - 1] if i_ws else None
        parts = re.findall(r" ([0-9.]+)-([0-9.]+)x ([0-9.]+)", m.group(1))
        if not e or len(parts) != len(e["fills"]):
            bad("WSAT trend %r vs %r" % (ln, e and e["fills"]))
            continue
        for (a, b, v), f in zip(parts, e["fills"]):
            near(a, f["from_x"], "fill from")
            near(b, f["to_x"], "fill to")
            near(v, f["iops"], "fill IOPS")
        continue
    m = re.fullmatch(r"SLC cache      fill (\d+)% \(phase (\d+)\): (.*)", ln)
    if m:
        # one line per summary.json slc_cache entry, in order (suite/cli/headline_slc.c)
        slc = summary.get("slc_cache", [])
        e = next((x for x in slc if x["phase"] == int(m.group(2))), None)
        if not e:
            bad("%r: no slc_cache entry for the phase" % ln)
            continue
        near(m.group(1), e["fill"], "SLC fill", 0.01)
        named.add(e["phase"])  # "no cache detected" is the probe's result too
        rest = m.group(3)
        if not e["cache_detected"]:
            if not rest.startswith("no cache detected"):
                bad("%r: summary says no cache detected" % ln)
            continue
        mm = re.match(r"(\S+) MB(?: \[(\S+), (\S+)\])?, (\S+) MB/s in it(?: \[(\S+), (\S+)\])?, "
                      r"(\S+) MB/s after(?: \[(\S+), (\S+)\])?(?:; levels (.*) MB/s)?", rest)
        if not mm:
            bad("%r: not an SLC cache line" % ln)
            continue
        for g, key, sc in ((1, "cache_bytes", 1e6), (2, "cache_bytes_lo", 1e6), (3, "cache_bytes_hi", 1e6),
                           (4, "in_cache_mbps", 1), (5, "in_cache_mbps_lo", 1), (6, "in_cache_mbps_hi", 1),
                           (7, "post_cache_mbps", 1), (8, "post_cache_mbps_lo", 1), (9, "post_cache_mbps_hi", 1)):
            if mm.group(g) is not None:
                near(mm.group(g), e[key], "SLC " + key, sc)
        if mm.group(10):
            lv = mm.group(10).split(", ")
            if len(lv) != len(e["levels"]):
                bad("%r: summary has %d levels" % (ln, len(e["levels"])))
            for v, L in zip(lv, e["levels"]):
                near(v, L["mbps"], "SLC level")
        named.add(e["phase"])
        figures += 1
        continue
    m = re.fullmatch(r"SLC recovery   phase (\d+) after (.+?) idle \((.+?) on the target\): (.*)", ln)
    if m:
        # the rest block of the probe's slc_cache entry (suite/cli/headline_slc.c, print_rest)
        e = next((x for x in summary.get("slc_cache", []) if x["phase"] == int(m.group(1))), None)
        r = e and e.get("rest")
        if not r:
            bad("%r: no slc_cache rest entry for the phase" % ln)
            continue
        near_duration(m.group(2), r["rest_profile_s"] * 1e9, "SLC rest (profile)")
        rest = m.group(4)
        if not r["recovered_bytes"] > 0:
            if not rest.startswith("no cache came back"):
                bad("%r: summary says %r came back" % (ln, r["recovered_bytes"]))
            continue
        mm = re.match(r"(\S+) MB came back(?: \[(\S+), (\S+)\])?, (\S+) MB/s of idle(?: \[(\S+), (\S+)\])?", rest)
        if not mm:
            bad("%r: not an SLC recovery line" % ln)
            continue
        for g, key in ((1, "recovered_bytes"), (2, "recovered_bytes_lo"), (3, "recovered_bytes_hi"),
                       (4, "recovered_per_s"), (5, "recovered_per_s_lo"), (6, "recovered_per_s_hi")):
            if mm.group(g) is not None:
                near(mm.group(g), r[key], "SLC " + key, 1e6)
        figures += 1
        continue
    m = re.fullmatch(r"endurance +percentage used (\S+)% -> (\S+)%, available spare .*", ln)
    if m:
        pu = summary["endurance"]["percentage_used"]
        if m.group(1) != "-" and float(m.group(1)) != pu["start"]:
            bad("%r: summary has %r" % (ln, pu))
        continue
    # The GC recovery rate (docs/gc-recovery.md): the chosen model's figures from gc_recovery.
    m = re.fullmatch(r"GC recovery rate: (\S+) \+- (\S+) MB/s of idle \(Rmax (\S+) GB(?:, tau (\S+) s)?, "
                     r"t0 (\S+) s; (\S+) by BIC, (\d+) idles\)", ln)
    if m:
        g = summary["gc_recovery"]
        near(m.group(1), g["r"], "GC recovery rate", 1e6)
        near(m.group(2), g["errors"]["r"], "GC recovery rate error", 1e6)
        near(m.group(3), g["rmax"], "GC Rmax", 1e9)
        if m.group(4):
            near(m.group(4), g["tau"], "GC tau")
        near(m.group(5), g["t0"], "GC t0")
        if m.group(6) != g["model"] or int(m.group(7)) != len(g["points"]):
            bad("%r: summary has %s over %d points" % (ln, g["model"], len(g["points"])))
        figures += 1
        continue
    m = re.fullmatch(r"GC recovery rate: none (?:detected \((\d+) idles; BIC prefers no recovery\)|"
                     r"beyond a cache refill of (\S+) MB \(a burst in the first measurement after "
                     r"every idle; (\d+) idles\))", ln)
    if m:
        g = summary["gc_recovery"]
        if m.group(2):
            near(m.group(2), g["cache_refill_bytes"], "cache refill", 1e6)
        if g["source"] != ("none" if m.group(1) else "cache_refill"):
            bad("%r: summary says %s" % (ln, g["source"]))
        figures += 1
        continue
    m = re.fullmatch(r"  \(times and bytes are the target's: its idles were the profile's x (\S+)\)", ln)
    if m:
        near(m.group(1), summary["gc_recovery"]["time_scale"], "GC time scale")
        continue
    # The gc-passes experiment (docs/gc-recovery.md): one line per gc_passes entry, in order.
    m = re.fullmatch(r"GC pass (\d+) +after (?:no rest|a (\S+) rest): (?:fast region (\S+) MB \[(\S+), (\S+)\] "
                     r"at (\S+) MB/s, then (\S+) MB/s|no drop, (\S+) MB/s throughout)", ln)
    if m:
        ps = summary["gc_passes"]["passes"]
        k = int(m.group(1))
        if not 1 <= k <= len(ps):
            bad("%r: summary has %d passes" % (ln, len(ps)))
            continue
        e = ps[k - 1]
        if m.group(2):
            near_duration(m.group(2), e["rest_profile_ns"], "GC pass rest")
        elif e["rest_profile_ns"]:
            bad("%r: summary has a rest of %r ns" % (ln, e["rest_profile_ns"]))
        if e["drop"] != (m.group(3) is not None):
            bad("%r: summary says drop %r" % (ln, e["drop"]))
        elif e["drop"]:
            for g, key, sc in ((3, "fast_bytes", 1e6), (4, "fast_bytes_lo", 1e6), (5, "fast_bytes_hi", 1e6),
                               (6, "fast_mbps", 1), (7, "slow_mbps", 1)):
                near(m.group(g), e[key], "GC pass " + key, sc)
        else:
            near(m.group(8), e["mbps"], "GC pass mbps")
        named.add(e["phase"])
        figures += 1
        continue
    m = re.fullmatch(r"  \(bytes and speeds are the target's: its rests were the profile's x (\S+)\)", ln)
    if m:
        near(m.group(1), summary["gc_passes"]["time_scale"], "GC passes time scale")
        continue
    # The trim check (docs/trim-check.md): its lines against summary.json's trim_check entries.
    m = re.fullmatch(r"(?:FLAG: )?TRIM check: (.*)", ln)
    if m:
        tcs = summary.get("trim_check") or []
        rest = m.group(1)
        ok = False
        for e in tcs:
            nb, bl, dv = e.get("neighbours", {}), e.get("block_layer", {}), e.get("device", {})
            if rest == "the target keeps no data, nothing verified":
                ok = e["verdict"] == "no_data"
            elif rest.startswith("discard not sent: "):
                ok = e["verdict"] == "discard_rejected" and bl.get("reason") == rest[18:]
            else:
                mm = re.fullmatch(r"all (\d+) neighbour blocks intact \((\d+) of the discarded ranges "
                                  r"not aligned to the granularity\)", rest)
                if mm:
                    ok = nb.get("intact") and int(mm.group(1)) == nb["blocks"] and \
                        int(mm.group(2)) == nb["unaligned_ranges"]
                mm = re.fullmatch(r"(\d+) of (\d+) untrimmed neighbour blocks changed \(first at byte "
                                  r"(\d+)\): discard corrupts data beside it", rest)
                if mm:
                    ok = int(mm.group(1)) == nb.get("bad") and int(mm.group(2)) == nb.get("blocks") \
                        and int(mm.group(3)) == nb.get("first_bad_offset")
                m2 = re.fullmatch(r"block layer sent it \((\d+) discards, .* counted\)", rest)
                if m2:
                    ok = int(m2.group(1)) == bl.get("stat_discard_ios")
                m2 = re.fullmatch(r"trimmed blocks read back as (\S+); read-after-trim ([^\s;]+).*", rest)
                if m2:
                    ok = m2.group(1) == dv.get("read_back") and m2.group(2) == dv.get("read_after_trim")
                m2 = re.fullmatch(r"NVMe utilisation (\d+)(?: -> (\d+))? of (\d+) blocks.*; deallocated "
                                  r"blocks read as (.+) \(DLFEAT\)", rest)
                if m2:
                    ok = int(m2.group(1)) == dv.get("nvme_nuse_before") and \
                        (m2.group(2) is None or int(m2.group(2)) == dv.get("nvme_nuse_after")) and \
                        int(m2.group(3)) == dv.get("nvme_nsze") and \
                        m2.group(4) == dv.get("nvme_read_after_deallocate")
                gl = dv.get("nvme_get_lba_status") or {}
                if rest.startswith("NVMe Get LBA Status not supported: "):
                    ok = gl.get("supported") is False and gl.get("reason") == rest[35:]
                m2 = re.fullmatch(r"NVMe Get LBA Status over the (\d+) discarded blocks: (?:(\d+) still allocated "
                                  r"\(.*\)|allocated not reported \((.*)\)); (?:(\d+) potentially unrecoverable|"
                                  r"potentially unrecoverable not reported \((.*)\))", rest)
                if m2:
                    ok = int(m2.group(1)) == gl.get("discarded_blocks") and \
                        (m2.group(2) is None or int(m2.group(2)) == gl.get("allocated_blocks")) and \
                        (m2.group(3) is None or m2.group(3) == gl.get("allocated_error")) and \
                        (m2.group(4) is None or int(m2.group(4)) == gl.get("unrecoverable_blocks")) and \
                        (m2.group(5) is None or m2.group(5) == gl.get("unrecoverable_error"))
                if rest == "every discard returned success":
                    ok = bl.get("sent") is True
                fr = e.get("fresh")
                m2 = re.fullmatch(r"4k random writes over the .* discarded: (\d+) IOPS before, (\d+) after "
                                  r"\(x(\S+)\), p99 (\S+) ms before, (\S+) ms after"
                                  r"(?:; the discard unmapped .*, free blocks (\d+) -> (\d+))?", rest)
                if m2 and fr:
                    ok = abs(int(m2.group(1)) - fr["iops_before"]) <= 0.5 and \
                        abs(int(m2.group(2)) - fr["iops_after"]) <= 0.5 and \
                        abs(float(m2.group(3)) - fr["iops_after_over_before"]) <= 0.005 and \
                        abs(float(m2.group(4)) - fr["p99_ns_before"] / 1e6) <= 0.005 and \
                        abs(float(m2.group(5)) - fr["p99_ns_after"] / 1e6) <= 0.005 and \
                        (m2.group(6) is None) == ("free_blocks_before" not in fr) and \
                        (m2.group(6) is None or (int(m2.group(6)) == fr["free_blocks_before"]
                                                 and int(m2.group(7)) == fr["free_blocks_after"]))
            if ok:
                break
        if not ok:
            bad("%r: no trim_check entry of summary.json says so" % ln)
        figures += 1
        continue
    # The surface scans (docs/surface.md): one line per summary.json surface entry, in order.
    m = re.fullmatch(r"Surface (read|write) +(\S+) MB/s median \(min (\S+) at (\S+)%, max (\S+)\)"
                     r"(?:; (\d+) slow regions? below (\S+) MB/s:(.*?))?"
                     r"; (?:no (?:read|write) errors|(\d+) failed LBAs?:((?: \d+)+)(?: \.\.\.)?)", ln)
    if m:
        sv = summary.get("surface", [])
        if i_surf >= len(sv):
            bad("%r: summary has %d surface scans" % (ln, len(sv)))
            continue
        e = sv[i_surf]
        i_surf += 1
        if m.group(1) != e["rw"]:
            bad("%r: summary says %s" % (ln, e["rw"]))
        for g, key in ((2, "median_mbps"), (3, "min_mbps"), (4, "min_at_pct"), (5, "max_mbps")):
            near(m.group(g), e[key], "surface " + key)
        if int(m.group(6) or 0) != e["slow_regions_total"]:
            bad("%r: summary has %d slow regions" % (ln, e["slow_regions_total"]))
        if m.group(7):
            near(m.group(7), e["slow_threshold_mbps"], "surface slow threshold")
        if int(m.group(9) or 0) != e["errors_total"]:
            bad("%r: summary has %d errors" % (ln, e["errors_total"]))
        if m.group(10) and [int(x) for x in m.group(10).split()] != e["error_lbas"][:5]:
            bad("%r: summary's error LBAs are %r" % (ln, e["error_lbas"][:5]))
        named.add(e["phase"])
        figures += 1
        continue
    # Over-provisioning variants (docs/op-variants.md): one line per op_variants entry, in order.
    m = re.fullmatch(r"OP variant (\d+) +(\S+)% of capacity \(spare \+(.+?)\): IOPS (\S+), p99 (\S+) ms, "
                     r"WA (\S+)(?: \(greedy model (\S+)(?:, effective spare (\S+))?\))?", ln)
    if m:
        vs = summary.get("op_variants") or []
        k = int(m.group(1))
        if not 1 <= k <= len(vs):
            bad("%r: summary has %d variants" % (ln, len(vs)))
            continue
        e = vs[k - 1]
        near(m.group(2), e["fraction"], "OP variant fraction", 0.01)
        near(m.group(4), e["iops"], "OP variant iops")
        near(m.group(5), (e["write_lat_ns"] or {}).get("p99"), "OP variant p99", 1e6)
        near(m.group(6), e["wa"], "OP variant wa")
        if (m.group(7) is None) != (e["greedy_model"] is None):
            bad("%r: summary's greedy_model is %r" % (ln, e["greedy_model"]))
        elif m.group(7):
            near(m.group(7), e["greedy_model"]["wa"], "OP variant greedy model")
        if (m.group(8) is None) != (e.get("greedy_model_effective") is None):
            bad("%r: summary's greedy_model_effective is %r" % (ln, e.get("greedy_model_effective")))
        elif m.group(8):
            near(m.group(8), e["greedy_model_effective"]["wa"], "OP variant effective-spare model")
        figures += 1
        continue
    # SNIA DIRTH (issue 16 point 3): the Max-IOPS point of the rounds, then the three points'
    # runs, each figure also recomputed from records.jsonl by snia_dirth_check.recompute().
    m = re.fullmatch(r"SNIA DIRTH +max (\S+) IOPS at TC(\d+)/QD(\d+) \((.*)\)", ln)
    mp = re.fullmatch(r"SNIA DIRTH pts mean / p99\.99: (.*)", ln)
    if m or mp:
        import snia_dirth_check  # noqa: E402
        if m:
            if i_snia >= len(snia_hl) or snia_hl[i_snia]["test"] != "dirth":
                bad("%r: no dirth entry in summary's headline.snia here" % ln)
                continue
            se = snia_hl[i_snia]
            i_snia += 1
        elif se is None or se["test"] != "dirth":
            bad("%r: no SNIA DIRTH line before it" % ln)
            continue
        rr, rs, rm = snia_dirth_check.load(d)
        want = snia_dirth_check.recompute(rr, rs, rm, [])
        named.add(want["phase"])
        figures += 1
        if m:
            wmax = want["points"][0]
            near(m.group(1), se["max_iops"], "SNIA DIRTH max IOPS")
            near(m.group(1), wmax["rounds_iops"], "SNIA DIRTH max IOPS (records)")
            if (int(m.group(2)), int(m.group(3))) != (wmax["threads"], wmax["qd"]):
                bad("%r: records give Max at TC%d/QD%d" % (ln, wmax["threads"], wmax["qd"]))
            if "rounds %d-%d" % (want["window"]["first_round"], want["window"]["last_round"]) \
                    not in m.group(4):
                bad("%r: the window is %r" % (ln, want["window"]))
            continue
        items = re.findall(r"(max|mid|min) TC(\d+)/QD(\d+) (\S+) IOPS (%s) / (%s)" % (DUR, DUR),
                           mp.group(1))
        if [x[0] for x in items] != ["max", "mid", "min"]:
            bad("%r: expected the points max, mid, min" % ln)
            continue
        for (name, t, q, iops, mean_t, p_t), w, e in zip(items, want["points"], se["points"]):
            if (int(t), int(q)) != (w["threads"], w["qd"]):
                bad("%r: records give %s at TC%d/QD%d" % (ln, name, w["threads"], w["qd"]))
            near(iops, e["iops"], "SNIA DIRTH %s IOPS" % name)
            near(iops, w["run"]["iops"], "SNIA DIRTH %s IOPS (records)" % name)
            near_duration(mean_t, w["run"]["mean_ns"], "SNIA DIRTH %s mean (records)" % name)
            near_duration(p_t, w["run"]["percentiles"]["p99_99"],
                          "SNIA DIRTH %s p99.99 (records)" % name)
        continue
    # SNIA PTS host idle recovery (issue 16 point 1): the steady IOPS, then the mean burst IOPS
    # per wait state; each figure also recomputed from records.jsonl by snia_hir_check.
    m = re.fullmatch(r"SNIA HIR +steady (\S+) IOPS \((.*)\)", ln)
    if m:
        if i_snia >= len(snia_hl) or snia_hl[i_snia]["test"] != "hir" or hir_want is None:
            bad("%r: summary's headline has no hir entry here, records give %r" % (ln, hir_want))
            continue
        se = snia_hl[i_snia]
        i_snia += 1
        near(m.group(1), se["steady_iops"], "SNIA HIR steady")
        near(m.group(1), hir_want["steady_iops"], "SNIA HIR steady (records)")
        parts = [x.strip() for x in m.group(2).split(",")]
        w = hir_want["steady_state"]
        if parts[0] != se["verdict"] or (w and "rounds %d-%d" % (w["first_round"], w["last_round"])
                                         not in parts) or (se["queue"] and se["queue"] not in parts):
            bad("%r: verdict %r, window %r, queue %r" % (ln, se["verdict"], w, se["queue"]))
        named.add(se["phase"])
        figures += 1
        continue
    m = re.fullmatch(r"SNIA HIR waits mean burst IOPS: (.*)", ln)
    if m:
        if se is None or se["test"] != "hir" or hir_want is None:
            bad("%r: no SNIA HIR line before it" % ln)
            continue
        items = re.findall(r"(%s)(?: \[applied (%s)\])? (\S+) \((\S+)x\)" % (DUR, DUR),
                           m.group(1))
        want_states = hir_want["wait_states"]
        if len(items) != len(want_states) or len(se["wait_states"]) != len(want_states):
            bad("%r: %d wait states, records give %d" % (ln, len(items), len(want_states)))
            continue
        for (wt, ap, v, x), ws, e in zip(items, want_states, se["wait_states"]):
            near_duration(wt, ws["wait_profile_ns"], "SNIA HIR wait (records)")
            if bool(ap) != ws["wait_floored"] or e["wait_floored"] != ws["wait_floored"]:
                bad("%r: wait %s floored is %r in the records" % (ln, wt, ws["wait_floored"]))
            elif ap:
                near_duration(ap, ws["wait_ns"], "SNIA HIR applied wait (records)")
            near(v, e["mean_iops"], "SNIA HIR mean burst IOPS")
            near(v, ws["mean_iops"], "SNIA HIR mean burst IOPS (records)")
            near(x, ws["of_steady"], "SNIA HIR of steady (records)")
        figures += 1
        continue
    # SNIA ECW (issue 16 point 4): one line per ecw block, its figures recomputed from
    # records.jsonl by ecw_check.recompute() (beside this script).
    m = re.fullmatch(r"SNIA ECW PC +(\d+) rounds: (\S+) IOPS first, (\S+) IOPS last", ln) or \
        re.fullmatch(r"SNIA ECW +max (\S+) IOPS at TC(\d+)/QD(\d+) \(TOIO (\d+)\), TC1/QD1 "
                     r"(\S+) IOPS mean (.+?) \((\d+) rounds(?:; (\d+) sizes? not applicable, "
                     r"the other weights renormalised)?\)", ln)
    if m:
        import ecw_check  # noqa: E402
        if i_snia >= len(snia_hl) or snia_hl[i_snia]["test"] != "ecw":
            bad("%r: the summary's next headline.snia entry is not an ecw one" % ln)
            continue
        se = snia_hl[i_snia]
        i_snia += 1
        want = next((b for b in ecw_check.recompute(d) if b["phase"] == se["phase"] and
                     b["repeat"] == se["repeat"]), None)
        if want is None:
            bad("%r: records give no ecw block for phase %d" % (ln, se["phase"]))
            continue
        named.add(se["phase"])
        figures += 1
        if ln.startswith("SNIA ECW PC"):
            rr = want.get("rounds") if want["stage"] == "precondition" else None
            if not rr or int(m.group(1)) != len(rr) or se["rounds"] != len(rr):
                bad("%r: records give %r rounds" % (ln, rr and len(rr)))
                continue
            near(m.group(2), rr[0]["iops"], "SNIA ECW first round (records)")
            near(m.group(2), se["first_iops"], "SNIA ECW first round")
            near(m.group(3), rr[-1]["iops"], "SNIA ECW last round (records)")
            near(m.group(3), se["last_iops"], "SNIA ECW last round")
            continue
        mx, one = want.get("max_iops"), want.get("tc1_qd1")
        if want["stage"] != "toio" or not mx or not one:
            bad("%r: records give no TOIO block with a maximum and TC1/QD1" % ln)
            continue
        near(m.group(1), mx["iops"], "SNIA ECW max IOPS (records)")
        near(m.group(1), se["max_iops"], "SNIA ECW max IOPS")
        if (int(m.group(2)), int(m.group(3)), int(m.group(4))) != (mx["threads"], mx["qd"], mx["toio"]):
            bad("%r: records give the maximum at TC%d/QD%d" % (ln, mx["threads"], mx["qd"]))
        near(m.group(5), one["iops"], "SNIA ECW TC1/QD1 IOPS (records)")
        near_duration(m.group(6), one["lat_mean_ns"], "SNIA ECW TC1/QD1 mean (records)")
        near_duration(m.group(6), se["tc1_qd1_lat_mean_ns"], "SNIA ECW TC1/QD1 mean")
        if int(m.group(7)) != want["rounds"]:
            bad("%r: records give %d rounds" % (ln, want["rounds"]))
        na = (want["header"].get("bs_not_applicable") or {}).get("dropped", [])
        if int(m.group(8) or 0) != len(na) or se["bs_dropped"] != len(na):
            bad("%r: the manifest drops %d sizes" % (ln, len(na)))
        continue
    # SNIA PTS tests (issue 15 point 4): one entry of headline.snia per block of summary.json's
    # snia, each figure also recomputed from records.jsonl by snia_blocks_check.recompute().
    # SNIA XSR (issue 16 point 2): end-of-group MB/s and group 3's recovery, from the xsr block,
    # which snia_xsr_check.xsr_block() recomputes from records.jsonl (by way of recompute()).
    m = re.fullmatch(r"SNIA XSR +end of group MB/s: (.*?); (?:recovered after (\S+) of group 3 "
                     r"\(target (%s); sample (\d+): the first of (\d+) in a row within (\S+)%% of "
                     r"group 1's (\S+) MB/s\)|not recovered \(no (\d+) samples in a row within "
                     r"(\S+)%% of group 1's (\S+) MB/s\)|(recovery not judged) .*)" % DUR, ln)
    if m:
        if i_snia >= len(snia_hl) or snia_hl[i_snia]["test"] != "xsr":
            bad("%r: the next headline.snia entry is not xsr" % ln)
            continue
        se = snia_hl[i_snia]
        i_snia += 1
        want = snia_want.get((se["phase"], se["repeat"]))
        if want is None or want["test"] != "xsr":
            bad("%r: records give no xsr block for phase %d" % (ln, se["phase"]))
            continue
        named.update(g["phase"] for g in want["groups"])
        figures += 1
        items = re.findall(r"(\S+ \S+) (\S+)(?:, |$)", m.group(1))
        if len(items) != len(want["groups"]):
            bad("%r: %d groups printed, records give %d" % (ln, len(items), len(want["groups"])))
        for (wl, v), g, e in zip(items, want["groups"], se["groups"]):
            if wl != e["workload"]:
                bad("%r: group %d is %r" % (ln, g["group"], e["workload"]))
            near(v, e["end_mb_s"], "SNIA XSR group %d end MB/s" % g["group"])
            near(v, g["end_mb_s"], "SNIA XSR group %d end MB/s (records)" % g["group"])
        r = want["recovery"]
        if m.group(2):
            if r["status"] != "recovered":
                bad("%r: records give %r" % (ln, r["status"]))
                continue
            near_duration(m.group(2), r["after_profile_ns"], "SNIA XSR recovery time (records)")
            near_duration(m.group(2), se["recovery_after_profile_ns"], "SNIA XSR recovery time")
            near_duration(m.group(3), r["after_ns"], "SNIA XSR recovery target time (records)")
            if int(m.group(4)) != r["sample"] or int(m.group(5)) != r["samples_in_row"]:
                bad("%r: records give sample %r of %r in a row" % (ln, r["sample"],
                                                                   r["samples_in_row"]))
            near(m.group(6), r["band"] * 100, "SNIA XSR band")
            near(m.group(7), r["reference_mb_s"], "SNIA XSR group 1 MB/s (records)")
        elif m.group(8):
            if r["status"] != "not recovered":
                bad("%r: records give %r" % (ln, r["status"]))
                continue
            if int(m.group(8)) != r["samples_in_row"]:
                bad("%r: the rule takes %r in a row" % (ln, r["samples_in_row"]))
            near(m.group(9), r["band"] * 100, "SNIA XSR band")
            near(m.group(10), r["reference_mb_s"], "SNIA XSR group 1 MB/s (records)")
        elif r["status"] != "not judged":
            bad("%r: records give %r" % (ln, r["status"]))
        continue
    # a *-fast profile's block (issue 19 point 3): its method line, before the test's lines, is
    # the block's header.fast text as snia_blocks_check recomputes it from the records
    m = re.fullmatch(r"SNIA fast +(.*)", ln)
    if m:
        nxt = snia_hl[i_snia] if i_snia < len(snia_hl) else None
        wf = snia_want.get((nxt["phase"], nxt["repeat"])) if nxt else None
        hf = wf["header"].get("fast") if wf else None
        # the method line, then the line of the block's check of its matrix rounds
        # (header.fast.rounds_check, recomputed by snia_blocks_check.fast_rounds_check)
        if hf and m.group(1) == hf["text"] and nxt.get("fast") == m.group(1):
            pass
        elif hf and m.group(1) == hf.get("rounds_check", {}).get("text") and \
                nxt.get("fast_rounds") == m.group(1):
            pass
        else:
            bad("%r: records give %r" % (ln, hf))
        figures += 1
        continue
    m = re.fullmatch(r"SNIA (IOPS 4k|IOPS|TP (\S+)|latency|WSAT) +(.*)", ln)
    if m:
        kind = "TP" if m.group(2) else m.group(1)
        rest = m.group(3)
        if kind != "IOPS 4k":
            if i_snia >= len(snia_hl):
                bad("%r: summary's headline has %d snia entries" % (ln, len(snia_hl)))
                continue
            se = snia_hl[i_snia]
            i_snia += 1
        elif se is None:
            bad("%r: no SNIA IOPS line before it" % ln)
            continue
        want = snia_want.get((se["phase"], se["repeat"]))
        if want is None or want["test"] != se["test"]:
            bad("%r: records give no %s block for phase %d" % (ln, se["test"], se["phase"]))
            continue
        named.add(se["phase"])
        figures += 1

        def window_ok(text):
            parts = [x.strip() for x in text.split(",")]
            w = want.get("window")
            if "fast" in want["header"]:
                # the verdict's rounds are the tracking phase's, the figures' the matrix's
                ss = want["steady_state"]
                fw = ("matrix round %d" % w["first_round"] if w["first_round"] == w["last_round"]
                      else "matrix rounds %d-%d" % (w["first_round"], w["last_round"]))
                if "tracking rounds %d-%d" % (ss["first_round"], ss["last_round"]) not in parts \
                        or fw not in parts:
                    bad("%r: tracking rounds %d-%d, %s" % (ln, ss["first_round"], ss["last_round"], fw))
            elif w and "rounds %d-%d" % (w["first_round"], w["last_round"]) not in parts:
                bad("%r: the window is rounds %d-%d" % (ln, w["first_round"], w["last_round"]))
            if se["queue"] and se["queue"] not in parts:
                bad("%r: the queue is %r" % (ln, se["queue"]))

        def rows_4k(key):
            return [r for r in want[key] if r.get("bs") == 4096 and "rwmix_read" in r]
        if kind == "IOPS":
            mm = re.fullmatch(r"(\S+) (\S+) IOPS \((.*)\)", rest)
            if se["test"] != "iops" or not mm or mm.group(1) != want["tracked"]["cell"]:
                bad("%r: summary has %r" % (ln, se))
                continue
            near(mm.group(2), se["tracked_iops"], "SNIA tracked IOPS")
            near(mm.group(2), want["tracked"]["iops"], "SNIA tracked IOPS (records)")
            window_ok(mm.group(3))
        elif kind == "IOPS 4k":
            items = re.findall(r"(\d+)% (n/a|[0-9.]+)", rest)
            rows = rows_4k("matrix")
            if [int(x[0]) for x in items] != [r["rwmix_read"] for r in rows]:
                bad("%r: the 4 KiB mixes are %r" % (ln, [r["rwmix_read"] for r in rows]))
                continue
            for (mix, v), r, e in zip(items, rows, se["bs_4k"]):
                if v == "n/a":
                    if "not_applicable" not in r:
                        bad("%r: %s%% is applicable" % (ln, mix))
                    continue
                near(v, e["iops"], "SNIA 4k IOPS %s%%" % mix)
                near(v, r["iops"], "SNIA 4k IOPS %s%% (records)" % mix)
        elif kind == "TP":
            mm = re.fullmatch(r"write (\S+) MB/s, read (\S+) MB/s \((.*)\)", rest)
            if se["test"] != "throughput" or not mm:
                bad("%r: summary has %r" % (ln, se))
                continue
            b = want["bs"]
            text = "%dm" % (b >> 20) if b % (1 << 20) == 0 else "%dk" % (b >> 10)
            if m.group(2) != text:
                bad("%r: the block size is %s" % (ln, text))
            for g, d in ((1, "write"), (2, "read")):
                r = [x for x in want["table"] if x["direction"] == d][0]
                near(mm.group(g), se[d + "_mb_s"], "SNIA TP " + d)
                near(mm.group(g), r["mb_s"], "SNIA TP %s (records)" % d)
            window_ok(mm.group(3))
        elif kind == "latency":
            # a *-fast block ends the line with its verdict and rounds (headline_snia.c)
            fw = re.fullmatch(r"(.*?) \(([^()]*rounds[^()]*)\)", rest) if "fast" in want["header"] else None
            if fw:
                rest = fw.group(1)
                window_ok(fw.group(2))
            elif "fast" in want["header"]:
                bad("%r: a fast block's line has no verdict and rounds" % ln)
            mm = re.fullmatch(r"4k (.+?) mean / p99\.99: (.*?)( \(\* fewer than 10 samples at or "
                              r"beyond the percentile\))?", rest)
            if se["test"] != "latency" or not mm or mm.group(1) != se["queue"]:
                bad("%r: summary has %r" % (ln, se))
                continue
            items = re.findall(r"(\d+)%% read (?:n/a|(%s) / (%s)(\*?))" % (DUR, DUR), mm.group(2))
            rows = rows_4k("table")
            if [int(x[0]) for x in items] != [r["rwmix_read"] for r in rows]:
                bad("%r: the 4 KiB mixes are %r" % (ln, [r["rwmix_read"] for r in rows]))
                continue
            for (mix, mean, p, star), r, e in zip(items, rows, se["bs_4k"]):
                if not mean:
                    continue
                pr = r["percentiles"]["p99_99"]
                near_duration(mean, e["mean_ns"], "SNIA latency mean %s%%" % mix)
                near_duration(mean, r["mean_ns"], "SNIA latency mean %s%% (records)" % mix)
                near_duration(p, pr["ns"], "SNIA latency p99.99 %s%% (records)" % mix)
                if (star == "*") != pr["few_samples"] or e["few_samples"] != pr["few_samples"]:
                    bad("%r: %s%% few samples is %r (%d samples)" % (ln, mix, pr["few_samples"],
                                                                  pr["samples"]))
            if (mm.group(3) is not None) != any(x[3] for x in items):
                bad("%r: the note on few samples does not match the marks" % ln)
        else:
            mm = re.fullmatch(r"steady (\S+) IOPS from (\S+)x written, plateau (\S+) IOPS, "
                              r"(?:drop at (\S+)x capacity \((\S+) MB written\)|no drop within "
                              r"(\S+)x written)", rest)
            if se["test"] != "wsat" or not mm:
                bad("%r: summary has %r" % (ln, se))
                continue
            near(mm.group(1), want["steady"]["iops"], "SNIA WSAT steady (records)")
            near(mm.group(1), se["steady_iops"], "SNIA WSAT steady")
            near(mm.group(2), want["steady"]["from_x"], "SNIA WSAT steady from (records)")
            near(mm.group(3), want["plateau"]["iops"], "SNIA WSAT plateau (records)")
            if (mm.group(4) is None) != (want["drop"] is None):
                bad("%r: records give drop %r" % (ln, want["drop"]))
            elif mm.group(4):
                near(mm.group(4), want["drop"]["x"], "SNIA WSAT drop x (records)")
                near(mm.group(5), want["drop"]["bytes"], "SNIA WSAT drop bytes (records)", 1e6)
                near(mm.group(5), se["drop_bytes"], "SNIA WSAT drop bytes", 1e6)
            else:
                near(mm.group(6), want["written_x"], "SNIA WSAT written (records)")
        continue
    m = re.fullmatch(r"FLAG: .*", ln)
    if m:
        fl = summary["flags"]
        for n, key in ((r"steady state not reached in (\d+)", "steady_state_not_reached"),
                       (r"(\d+) measurements were limited by the host", "host_limited")):
            mm = re.search(n, ln)
            if mm and int(mm.group(1)) != len(fl[key]):
                bad("%r: summary has %d" % (ln, len(fl[key])))
        mm = re.search(r"(\d+) measurements stopped at an I/O error", ln)
        if mm and int(mm.group(1)) != fl["io_errors"]:
            bad("%r: summary has %d" % (ln, fl["io_errors"]))
        continue
    bad("unknown headline line %r" % ln)

if i_grp != len(ss_groups):
    bad("steady-state shapes printed %d/%d" % (i_grp, len(ss_groups)))
if i_ss != len(ss) or i_rec != len(rec_list) or i_res != len(results) or i_ws != len(wsat_lines):
    bad("entries not printed: steady state %d/%d, recovery %d/%d, results %d/%d, wsat %d/%d" %
        (i_ss, len(ss), i_rec, len(rec_list), i_res, len(results), i_ws, len(wsat_lines)))
if i_snia != len(snia_hl):
    bad("snia entries not printed: %d/%d" % (i_snia, len(snia_hl)))
if i_surf != len(summary.get("surface", [])):
    bad("surface scans not printed: %d/%d" % (i_surf, len(summary.get("surface", []))))
if not figures:
    bad("the headline carries no figure")
if sum("whole run" in ln for ln in lines) > 1:
    bad("the whole run's WA is printed more than once")

# Every measured phase is named (or its cells are counted as left out).
measured = sorted({r["phase"] for r in recs if r["kind"] in ("cell", "write_until")})
omitted = h.get("results_omitted", 0)
for p in measured:
    if p not in named:
        left = [r for r in recs if r["phase"] == p and r["kind"] == "cell"]
        if not (left and omitted):
            bad("measured phase %d is not in the headline" % p)
for ws in [e["workload"] for e in ss + results + wsat]:
    if not re.match(r"\d+[km]?(\+\d+[km]?)* (rand)?(read|write|rw)", ws):
        bad("workload %r does not name a block size and a direction" % ws)

# `run` printed the same block.
pos = 0
for ln in lines:
    try:
        pos = run_out.index(ln, pos) + 1
    except ValueError:
        bad("run did not print the headline line %r" % ln)
        break

# ---- the figures again, from records.jsonl -----------------------------------------------
cells = {(c["phase"], c["repeat"], c["cell"]): c for c in summary["cells"] if c["kind"] == "cell"}


def rel(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))


for e in results:
    rs = [r for r in recs if r["kind"] == "cell" and r["phase"] == e["phase"] and
          r["repeat"] == e["repeat"] and r["cell"] == e["cell"] and
          e["first_round"] <= r["round"] <= e["last_round"]]
    el = sum(r["elapsed_ns"] for r in rs)
    ios = sum(r["read"]["ios"] + r["write"]["ios"] for r in rs)
    by = sum(r["read"]["bytes"] + r["write"]["bytes"] for r in rs)
    if not el or not rel(e["iops"], ios * 1e9 / el) or not rel(e["bw_bps"], by * 1e9 / el):
        bad("results %s: IOPS %r MB/s %r, records give %r %r" %
            (e["cell"], e["iops"], e["bw_bps"], el and ios * 1e9 / el, el and by * 1e9 / el))
    lat = cells[(e["phase"], e["repeat"], e["cell"])]["total"]["lat_ns"] or {}
    for k, key in (("lat_mean_ns", "mean"), ("lat_p99_ns", "p99"), ("lat_max_ns", "max")):
        if e[k] != lat.get(key):
            bad("results %s: %s %r, cells %r" % (e["cell"], k, e[k], lat.get(key)))

cap = manifest["target"]["capacity"]
for e in wsat:
    rs = [r for r in recs if r["kind"] == "write_until" and r["phase"] == e["phase"] and
          r["repeat"] == e["repeat"]]
    fills, done = {}, 0
    for r in rs:
        f = fills.setdefault(done // cap, [done, 0, 0, 0])
        f[1] += r["total"]["ios"]
        f[2] += r["elapsed_ns"]
        done += r["bytes_written_total"]
        f[3] = done
    want = [(f[0] / cap, f[3] / cap, f[1] * 1e9 / f[2]) for _, f in sorted(fills.items())]
    got = [(f["from_x"], f["to_x"], f["iops"]) for f in e["fills"]]
    if len(want) != len(got) or not all(rel(a, b) for w, g in zip(want, got) for a, b in zip(w, g)):
        bad("WSAT fills %r, records give %r" % (got, want))
    first = rs[0]["total"]["ios"] * 1e9 / rs[0]["elapsed_ns"]
    if not rel(e["first_iops"], first) or not rel(e["written_x"], done / cap):
        bad("WSAT first IOPS %r / written %r, records give %r / %r" %
            (e["first_iops"], e["written_x"], first, done / cap))

# The recovery rule, applied here as docs/results-format.md states it.
RUN, BAND = 3, 0.10
for e in rec_list:
    if e.get("rule") != {"name": "first_of_consecutive_in_band", "rounds": RUN, "band": BAND}:
        bad("recovery rule %r is not the documented one" % e["rule"])
    idle = [i for i, r in enumerate(recs) if r["kind"] == "idle" and r["phase"] == e["idle_phase"]
            and r["repeat"] == e["idle_repeat"]][0]
    st = [s for s in summary["steady_state"] if s["cell"] == e["cell"] and s["metric"] == "iops"]
    avg = e["steady_state"]
    if st:
        s = st[-1]
        vals = [r["total"]["ios"] * 1e9 / r["elapsed_ns"] for r in recs
                if r["kind"] == "cell" and r["phase"] == s["phase"] and r["repeat"] == s["repeat"]
                and r["cell"] == s["cell"] and s["first_round"] <= r["round"] <= s["last_round"]]
        if not rel(avg, sum(vals) / len(vals)):
            bad("steady-state average %r, records give %r" % (avg, sum(vals) / len(vals)))
    meas = []
    for r in recs[idle + 1:]:
        if r["kind"] == "idle":
            break
        if (r["kind"] == "cell" and r["cell"] == e["cell"]) or r["kind"] == "write_until":
            meas.append(r)
    run, first_in, back, w_ns = 0, None, None, 0
    start_ns = 0
    for r in meas:
        v = r["total"]["ios"] * 1e9 / r["elapsed_ns"] if e["metric"] == "iops" else None
        if v is None:
            break
        if abs(v - avg) <= BAND * avg:
            if first_in is None:
                first_in = r["round"]
            if run == 0:
                start_round, start_ns = r["round"], w_ns
            run += 1
            if run == RUN:
                back = (start_round, start_ns)
                break
        else:
            run = 0
        w_ns += r["elapsed_ns"] + r.get("ramp_ns", 0)
    if e["metric"] == "iops":
        if e["first_in_band_round"] != first_in:
            bad("first round in band %r, records give %r" % (e["first_in_band_round"], first_in))
        if back is None and e["verdict"] != "not_within_measured_rounds":
            bad("recovery verdict %s, the rule over the records says not back" % e["verdict"])
        if back is not None and (e["verdict"] != "back" or e["back_round"] != back[0] or
                                 e["back_after_target_ns"] != back[1]):
            bad("recovery back at %r after %r ns, records give %r" %
                (e["back_round"], e["back_after_target_ns"], back))
        print("%s: recovery after idle phase %d: first in band round %r, back %r (by the rule "
              "over records.jsonl), summary says %s" %
              (name, e["idle_phase"], first_in, back, e["verdict"]))

for msg in errors:
    print("  %s: %s" % (name, msg), file=sys.stderr)
sys.exit(1 if errors else 0)
