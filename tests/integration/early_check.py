# SPDX-License-Identifier: MIT
"""early_check: recomputes summary.json's steady_state[].early of a results directory from
records.jsonl and manifest.json alone (ss_early_rule.py, no ssdlab code), and prints the
figures the tests report.

Usage: early_check.py DIR [--expect predicted|"not predicted"] [--stopped yes|no]

Checks, per tracked series with an early block in the manifest:
  - the guard per round: bytes_written_total + pre_write_bytes of every record since the last
    purge record, up to the round's last record, against the manifest's guard bytes;
  - the early scan (SNIA first, then the early rule where the guard holds): the same verdict,
    round and window as the summary;
  - stopped_run and the SNIA "reason": a run without --strict-pts that predicted ends at that
    round and says "SNIA window not completed"; a strict one does not stop there.
Prints one line per series: early round, SNIA verdict and window, their averages.
Exit 0 when all holds, 1 with the reasons on stderr.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ss_early_rule as rule  # noqa: E402

d = sys.argv[1]
args = sys.argv[2:]
want = args[args.index("--expect") + 1] if "--expect" in args else None
stopped_want = args[args.index("--stopped") + 1] if "--stopped" in args else None
m = json.load(open(d + "/manifest.json"))
s = json.load(open(d + "/summary.json"))
recs = [json.loads(line) for line in open(d + "/records.jsonl")]
strict = bool(m.get("options", {}).get("strict_pts", False))
errors = []


def bad(msg):
    errors.append(msg)


for tr in m.get("steady_state", []):
    if "early" not in tr:
        continue
    ph, rep, cell = tr["phase"], tr["repeat"], tr["cell"]
    try:
        r, free, y, rounds = rule.recompute(recs, tr)
    except ValueError as ex:
        bad(str(ex))
        continue
    se = [x for x in s["steady_state"] if x["phase"] == ph and x["repeat"] == rep and
          x["cell"] == cell][0]
    ee = se["early"]
    verdict = "predicted" if r else "not predicted"
    if ee["verdict"] != verdict:
        bad("phase %d: early verdict %s, recomputed %s" % (ph, ee["verdict"], verdict))
    if want and verdict != want:
        bad("phase %d: early verdict %s, the test expects %s" % (ph, verdict, want))
    if r and (ee["round"] != r["round"] or ee["window_first_round"] != r["first_round"] or
              ee["window_last_round"] != r["last_round"]):
        bad("phase %d: early round/window %s %s-%s, recomputed %s %s-%s" % (
            ph, ee["round"], ee["window_first_round"], ee["window_last_round"], r["round"],
            r["first_round"], r["last_round"]))
    stopped = bool(r) and not strict and rounds[-1] == r["round"]
    if ee["stopped_run"] != stopped:
        bad("phase %d: stopped_run %s, recomputed %s" % (ph, ee["stopped_run"], stopped))
    if r and not strict and rounds[-1] != r["round"]:
        bad("phase %d: predicted at round %d without --strict-pts, but rounds went on to %d" %
            (ph, r["round"], rounds[-1]))
    if stopped_want and stopped != (stopped_want == "yes"):
        bad("phase %d: stopped_run %s, the test expects %s" % (ph, stopped, stopped_want))
    if stopped and (se.get("reason") != "SNIA window not completed" or se["reached"]):
        bad("phase %d: stopped early but the SNIA verdict is %s (reason %r)" % (
            ph, se["verdict"], se.get("reason")))
    if not stopped and "reason" in se:
        bad("phase %d: reason %r on a run that was not stopped early" % (ph, se["reason"]))
    if r:
        k = r["round"] - rounds[0] + 1
        obs = y[k - (r["round"] - r["first_round"] + 1):k]
        avg = sum(obs) / len(obs)
        if abs(avg - ee["observed_average"]) > 1e-6 * avg:
            bad("phase %d: observed average %s, recomputed %s" % (ph, ee["observed_average"], avg))
    print("phase %d %s: early %s%s (without the guard: %s); SNIA %s rounds %s-%s avg %.1f%s" % (
        ph, cell, verdict, " at round %d (window %d-%d, observed avg %.1f)" % (
            r["round"], r["first_round"], r["last_round"],
            ee["observed_average"]) if r else "",
        "round %d" % free["round"] if free else "none", se["verdict"], se["first_round"],
        se["last_round"], se["average"], "; strict" if strict else ""))
for b in errors:
    print("  " + b, file=sys.stderr)
sys.exit(1 if errors else 0)
