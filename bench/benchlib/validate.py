# SPDX-License-Identifier: GPL-2.0
"""Is a results.json well formed? The keys bench/report writes, a
non-empty sample array of finite numbers behind every measure, statistics
that match the samples, and goals with a known status. No timing is
judged here."""

import math

from . import stats as st

STATUS = ("met", "NOT met", "not measured")


def _finite(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def problems(res, min_rounds=1, want=()):
    """-> list of what is wrong (empty: well formed). want: keys that must
    be there with at least min_rounds samples each (one per round; a
    measure taken once per part, such as stressapptest's error count, has
    one)."""
    p = []
    for k in ("run", "parts", "samples", "stats", "goals", "ratios", "datapath", "info"):
        if k not in res:
            p.append("no '%s'" % k)
    if p:
        return p
    for k in ("name", "dir", "commit", "date", "rounds"):
        if not res["run"].get(k):
            p.append("run has no '%s'" % k)
    if not res["parts"]:
        p.append("no parts")
    samples = res["samples"]
    if not samples:
        p.append("no samples at all")
    for k, v in sorted(samples.items()):
        if not isinstance(v, list) or not v:
            p.append("%s: empty sample array" % k)
        elif not all(_finite(x) for x in v):
            p.append("%s: a sample is not a finite number" % k)
        elif k in want and len(v) < min_rounds:
            p.append("%s: %d samples, %d rounds wanted" % (k, len(v), min_rounds))
        else:
            s = res["stats"].get(k)
            if not s or not all(_finite(s.get(f)) for f in ("median", "p99", "min", "max")):
                p.append("%s: statistics missing or not numeric" % k)
            elif abs(s["median"] - st.median(v)) > 1e-9 * max(1.0, abs(s["median"])):
                p.append("%s: median does not match the samples" % k)
    for k in want:
        if k not in samples:
            p.append("%s: not in the samples" % k)
    for g in res["goals"]:
        if g.get("status") not in STATUS:
            p.append("goal '%s': status %r" % (g.get("measure"), g.get("status")))
        elif (g["status"] == "not measured") != (g.get("ratio") is None):
            p.append("goal '%s': status and ratio disagree" % g.get("measure"))
    for d in res["datapath"]:
        if d.get("available") and not _finite(d.get("frames_per_s")):
            p.append("datapath %s: available but no number" % d.get("run"))
    return p
