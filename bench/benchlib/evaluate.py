# SPDX-License-Identifier: GPL-2.0
"""From the per-key statistics to the rows of the report: ratios of
medians, goals with met / NOT met / not measured, and the per-frame cost
of the data path (or "not available" when the module has no counters)."""

from . import measures


def _med(stats, key):
    s = stats.get(key)
    return s["median"] if s else None


def _ratio(a, b):
    return a / b if a is not None and b else None


def ratios(stats):
    rows = []
    for label, num, den, ref in measures.RATIOS:
        a, b = _med(stats, num), _med(stats, den)
        rows.append({"measure": label, "ours": a, "anchor": b, "ratio": _ratio(a, b),
                     "paper": ref, "keys": [num, den],
                     "rounds": [stats.get(num, {}).get("n", 0), stats.get(den, {}).get("n", 0)]})
    return rows


def goals(stats):
    rows = []
    for goal, label, num, den, op, target in measures.GOALS:
        a, b = _med(stats, num), _med(stats, den)
        r = _ratio(a, b)
        if r is None:
            status = "not measured"
        elif (r <= target) if op == "<=" else (r >= target):
            status = "met"
        else:
            status = "NOT met"
        rows.append({"goal": goal, "measure": label, "ours": a, "peer": b, "ratio": r,
                     "target": "%s %s" % (op, target), "status": status, "keys": [num, den]})
    return rows


def datapath(stats, info):
    """Per-frame cost for each run that has its counters: frames per
    second (tx + rx) and bytes copied per payload byte."""
    rows = []
    for mtu, kp in measures.DATAPATH_PREFIXES:
        for label, run in measures.DATAPATH_RUNS:
            k = kp + run + "_"
            v = {f: _med(stats, k + f) for f in
                 ("frames_tx", "frames_rx", "copied_bytes", "payload_bytes", "ms")}
            ok = all(x is not None for x in v.values())
            fps = (v["frames_tx"] + v["frames_rx"]) / (v["ms"] / 1000.0) if ok and v["ms"] else None
            cpb = v["copied_bytes"] / v["payload_bytes"] if ok and v["payload_bytes"] else None
            state = info.get(kp + "mpe_datapath", "")
            if state == "" and not ok:
                continue    # no part of this MTU ran
            rows.append({"run": "%s, %s" % (label, mtu), "frames_per_s": fps,
                         "copied_per_payload_byte": cpb,
                         "available": ok, "source": state or "absent"})
    return rows


def not_measured(samples):
    return [{"measure": label, "status": "measured" if any(
        k.startswith(prefix) for k in samples) else "not measured"}
        for label, prefix in measures.NOT_MEASURED]
