#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pts_variants_check.py TEST ENTERPRISE_DIR CLIENT_DIR | amount DIR

Checks a Client run against its Enterprise run (pts_variants_test.sh). The PTS-C changes are
written out here by hand, from the issue and the reference notes, not taken from ssdlab:
  - write cache: Enterprise off, Client on (the manifest's request, the sim's read-back, and the
    write_cache the virtual SSD's own snapshots report);
  - ActiveRange: 100% -> 75% (every workload's range fractions times 0.75; the sim's mapped
    bytes never above 0.75 GiB in a Client run, above it in the Enterprise one);
  - TC x QD: IOPS TC4/QD32 -> TC2/QD16; latency TC1/QD1 in both; throughput and WSAT unchanged;
  - throughput: the Client plan has the 1024 KiB purge, precondition and rounds only;
  - the pts block: variant and spec.
The Enterprise plan with these changes must equal the Client plan, key for key.
"""
import copy
import glob
import json
import os
import sys

GIB = 1 << 30
AR_CLIENT_BYTES = 805306368  # 0.75 x 1 GiB, by hand
errors = []


def bad(msg):
    errors.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def load(d):
    with open(os.path.join(d, "manifest.json")) as f:
        return json.load(f)


def snapshots(d):
    out = []
    for f in sorted(glob.glob(os.path.join(d, "snapshots", "*.json"))):
        with open(f) as fh:
            out.append(json.load(fh))
    return out


def max_valid(d):
    return max(s["counters"]["valid_bytes"]["value"] for s in snapshots(d))


def sim_write_cache(d):
    """The write cache as the virtual SSD's last snapshot reports its model."""
    return snapshots(d)[-1]["raw"]["write_cache"]


def scale_ranges(o, f):
    if isinstance(o, dict):
        r = o.get("range")
        if isinstance(r, dict) and "lo_fraction" in r:
            r["lo_fraction"] = r["lo_fraction"] * f
            r["hi_fraction"] = r["hi_fraction"] * f
        for v in o.values():
            scale_ranges(v, f)
    elif isinstance(o, list):
        for v in o:
            scale_ranges(v, f)


def close(a, b):
    """Deep equality with a tolerance for the fractions (printed with 15 digits)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) < 1e-9
    return a == b


def diff(a, b, path=""):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                bad("%s.%s only in the %s plan" % (path, k, "expected" if k in a else "Client"))
            else:
                diff(a[k], b[k], path + "." + k)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, "%s[%d]" % (path, i))
    elif not close(a, b):
        bad("%s: expected %r, the Client plan has %r" % (path, a, b))


def expected_client_plan(test, e):
    x = copy.deepcopy(e)
    x["write_cache"] = "on"
    x["pts"]["variant"] = "client"
    x["pts"]["spec"] = "PTS 2.0.1 Client"
    x["pts"]["active_range"] = 0.75
    scale_ranges(x["phases"], 0.75)
    if test == "iops":
        b = [p for p in x["phases"] if p["kind"] == "rounds"][0]["settings"]["base"]
        if (b["threads"], b["qd"]) != (4, 32):
            bad("snia-iops: rounds at TC%d/QD%d, not PTS-E's TC4/QD32" % (b["threads"], b["qd"]))
        b["threads"], b["qd"] = 2, 16
    if test == "throughput":
        kinds = [p["kind"] for p in x["phases"]]
        if kinds != ["purge", "precondition", "rounds"] * 2:
            bad("snia-throughput: phases %s" % kinds)
        bs = [p["settings"]["workload" if p["kind"] == "precondition" else "base"]["bs"][0]["bs"]
              for p in x["phases"] if p["kind"] != "purge"]
        if bs != [1 << 20, 1 << 20, 128 << 10, 128 << 10]:
            bad("snia-throughput: block sizes %s" % bs)
        x["phases"] = x["phases"][:3]  # PTS-C: 1024 KiB only
    return x


TOIO = {"iops": ((4, 32), (2, 16)), "latency": ((1, 1), (1, 1)),
        "throughput": ((1, 32), (1, 32)), "wsat": ((4, 32), (4, 32))}


def check_pts(test, d, m, client):
    pts = m.get("pts")
    if not pts:
        bad("%s: the manifest has no pts object" % d)
        return
    want_wc = client
    exp = {
        "test": test,
        "spec": "PTS 2.0.1 Client" if client else "PTS-E 1.1 / PTS 2.0.1 Enterprise",
        "variant": "client" if client else "enterprise",
        "active_range": {"percent": 75 if client else 100,
                         "bytes": AR_CLIENT_BYTES if client else GIB},
        "active_range_amount": None,
        "write_cache": {"requested": "on" if client else "off", "read_back": want_wc,
                        "note": None},
        "data_pattern": "random",
        "toio": dict(zip(("threads", "depth"), TOIO[test][1 if client else 0])),
        # issue 19: the full profiles are not *-fast ones (profiles.md, pts.fast)
        "fast": False,
    }
    if not close(exp, pts):
        bad("%s: manifest pts %s, expected %s" % (d, json.dumps(pts), json.dumps(exp)))
    if sim_write_cache(d) is not want_wc:
        bad("%s: the virtual SSD reports write_cache %s, expected %s"
            % (d, sim_write_cache(d), want_wc))
    v = max_valid(d)
    if client and v > AR_CLIENT_BYTES:
        bad("%s: the sim mapped %d bytes, more than the 75%% ActiveRange (%d)"
            % (d, v, AR_CLIENT_BYTES))
    if not client and v <= AR_CLIENT_BYTES:
        bad("%s: the Enterprise run mapped only %d bytes: the 100%% ActiveRange was not used"
            % (d, v))


def main():
    if sys.argv[1] == "amount":
        d = sys.argv[2]
        m = load(d)
        am = m.get("pts", {}).get("active_range_amount")
        exp = {"bytes": 64 << 20, "segments": 64, "segment_bytes": 1 << 20}
        if am != exp:
            bad("%s: active_range_amount %s, expected %s" % (d, am, exp))
        wl = [p for p in m["plan"]["phases"] if p["kind"] == "write_until"][0]
        if wl["settings"]["workload"].get("active_range_amount") != {"bytes": 64 << 20,
                                                                     "segments": 64}:
            bad("%s: the write_until workload does not carry the Amount" % d)
        v = max_valid(d)
        if v > 64 << 20:
            bad("%s: the sim mapped %d bytes, more than the 64 MiB ActiveRange Amount" % (d, v))
        print("amount: at most %d bytes mapped (Amount 64 MiB)" % v)
    else:
        test, ed, cd = sys.argv[1:4]
        e, c = load(ed), load(cd)
        ep, cp = e["plan"], c["plan"]
        for p in (ep, cp):
            p.pop("name")
            p.pop("description")
        diff(expected_client_plan(test, ep), cp, "plan")
        check_pts(test, ed, e, False)
        check_pts(test, cd, c, True)
        print("%s: Client plan = Enterprise plan + the PTS-C changes; mapped %d vs %d bytes"
              % (test, max_valid(ed), max_valid(cd)))
    return 1 if errors else 0


sys.exit(main())
