# SPDX-License-Identifier: MIT
"""The early steady-state rule (analysis/ss_early.h) written again in plain Python, with no
GSL and no scipy: the fit by its closed form, the Student t quantile by bisection on the CDF,
which is integrated numerically from the density. The checkers compare summary.json's "early"
block with what this computes from records.jsonl."""
import math


def t_cdf(t, df):
    """P(T <= t) for Student's t with df degrees of freedom (Simpson's rule on the density)."""
    if t < 0:
        return 1 - t_cdf(-t, df)
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    # substitute u = atan(x): the density in u is smooth and bounded on [0, atan(t)]
    b = math.atan(t)
    n = 4000
    h = b / n
    s = 0.0
    for i in range(n + 1):
        u = i * h
        x = math.tan(u)
        f = c * (1 + x * x / df) ** (-(df + 1) / 2) / math.cos(u) ** 2
        s += f * (1 if i in (0, n) else (4 if i % 2 else 2))
    return 0.5 + s * h / 3


def t_quantile(p, df):
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return (lo + hi) / 2


def within(measured, allowed):
    return measured <= allowed + abs(allowed) * 1e-9


def linfit(xs, ys):
    n = len(xs)
    xb = sum(xs) / n
    yb = sum(ys) / n
    sxx = sum((x - xb) ** 2 for x in xs)
    slope = sum((x - xb) * (y - yb) for x, y in zip(xs, ys)) / sxx
    return slope, yb - slope * xb, xb, sxx


def snia_stop(y, first, window, dexc, sexc, max_rounds):
    """ss_check's stop over the values seen: reached on the last window, or max_rounds."""
    n = len(y)
    if n < window:
        return False
    w = y[-window:]
    xs = [first + n - window + i for i in range(window)]
    avg = sum(w) / window
    slope, _, _, _ = linfit(xs, w)
    ok = (avg > 0 and all(math.isfinite(v) for v in w) and
          within(max(w) - min(w), dexc * avg) and
          within(abs(slope) * (window - 1), sexc * avg))
    return ok or n >= max_rounds


def early_check(y, first, window, dexc, sexc, max_rounds, conf, min_rounds):
    """dict(predicted, why, round, first_round, last_round, lo_min, hi_max, ...)."""
    n = len(y)
    r = {"predicted": False, "round": first + n - 1}
    W = window
    if W - 1 < 3:
        r["why"] = "complete"
        return r
    if n < min_rounds or n < 3:
        r["why"] = "too_few"
        return r
    k = min(n, W - 1)
    m = W - k
    r["first_round"] = r["round"] - k + 1
    r["last_round"] = r["first_round"] + W - 1
    if r["last_round"] - first + 1 > max_rounds:
        r["why"] = "no_room"
        return r
    yk = y[-k:]
    if any(not math.isfinite(v) or v <= 0 for v in yk):
        r["why"] = "nonpositive"
        return r
    xs = [r["first_round"] + i for i in range(W)]
    slope, icpt, xb, sxx = linfit(xs[:k], yk)
    ssr = sum((v - (icpt + slope * x)) ** 2 for x, v in zip(xs, yk))
    s_resid = math.sqrt(ssr / (k - 2))
    mean = sum(yk) / k
    s_floor = math.sqrt(sum((v - mean) ** 2 for v in yk) / (k - 1))
    s = max(s_resid, s_floor)
    t = t_quantile(1 - (1 - conf) / (2 * m), k - 2)
    wb = xs[0] + (W - 1) / 2
    wxx = sum((x - wb) ** 2 for x in xs)
    cx = [(x - wb) / wxx for x in xs]
    slope_obs = sum(c * v for c, v in zip(cx, yk))
    lo_all, hi_all, s_hi, s_lo = [], [], slope_obs, slope_obs
    for i in range(k, W):
        yhat = icpt + slope * xs[i]
        se = s * math.sqrt(1 + 1 / k + (xs[i] - xb) ** 2 / sxx)
        lo, hi = yhat - t * se, yhat + t * se
        lo_all.append(lo)
        hi_all.append(hi)
        s_hi += cx[i] * (hi if cx[i] > 0 else lo)
        s_lo += cx[i] * (lo if cx[i] > 0 else hi)
    avg_min = (sum(yk) + sum(lo_all)) / W
    r.update(slope=slope, intercept=icpt, s=s, t=t, lo_min=min(lo_all), hi_max=max(hi_all),
             avg_min=avg_min)
    if not (min(lo_all) > 0 and avg_min > 0):
        r["why"] = "nonpositive"
        return r
    dx = max(max(yk), max(hi_all)) - min(min(yk), min(lo_all))
    sx = max(abs(s_hi), abs(s_lo)) * (W - 1)
    r.update(data_excursion=dx, slope_excursion=sx)
    if not within(dx, dexc * avg_min):
        r["why"] = "data"
    elif not within(sx, sexc * avg_min):
        r["why"] = "slope"
    else:
        r["why"] = "predicted"
        r["predicted"] = True
    return r


def early_scan(y, guard, first, window, dexc, sexc, max_rounds, conf, min_rounds):
    """The first round the runner would stop on (ss_early_scan); None when none."""
    for i in range(1, len(y) + 1):
        if snia_stop(y[:i], first, window, dexc, sexc, max_rounds):
            return None
        if guard is not None and not guard[i - 1]:
            continue
        r = early_check(y[:i], first, window, dexc, sexc, max_rounds, conf, min_rounds)
        if r["predicted"]:
            return r
    return None


def written_since_purge(recs, phase, repeat, rnd):
    """The guard's count: bytes of every record after the last purge record, up to the last
    record of the round (docs/early-verdict.md)."""
    end = max(i for i, r in enumerate(recs)
              if r.get("phase") == phase and r.get("repeat") == repeat and r.get("round") == rnd)
    tot = 0
    for r in recs[:end + 1]:
        if r.get("kind") == "purge":
            tot = 0
            continue
        tot += r.get("bytes_written_total", 0) + r.get("pre_write_bytes", 0)
    return tot


def recompute(recs, track):
    """(scan result with the guard or None, scan result without it or None, values, rounds) of a
    manifest steady_state entry with "early", from the records (the "iops" and "lat_mean"
    metrics)."""
    ph, rep, cell = track["phase"], track["repeat"], track["cell"]
    p, e = track["params"], track["early"]
    if track["metric"] not in ("iops", "lat_mean"):
        raise ValueError("the checker knows the iops and lat_mean metrics only, not %s"
                         % track["metric"])
    cells = [r for r in recs if r.get("kind") == "cell" and r.get("phase") == ph and
             r.get("repeat") == rep and r.get("cell") == cell]
    if track["metric"] == "iops":
        y = [r["total"]["iops"] for r in cells]  # the "iops" metric: all I/Os of the cell
    else:
        # "lat_mean": the mean of every I/O's latency, both directions (the histograms' sums,
        # as snia_blocks_check.py reads the latency test's tracked series)
        y = [(r["read"]["hist"]["sum"] + r["write"]["hist"]["sum"]) /
             (r["read"]["hist"]["count"] + r["write"]["hist"]["count"]) for r in cells]
    rounds = [r["round"] for r in cells]
    guard = [written_since_purge(recs, ph, rep, rnd) >= e["guard"]["bytes"] for rnd in rounds]
    a = (rounds[0], p["window"], p["max_data_excursion"], p["max_slope_excursion"],
         p["max_rounds"], e["confidence"], e["min_rounds"])
    return early_scan(y, guard, *a), early_scan(y, None, *a), y, rounds
