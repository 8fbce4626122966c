# SPDX-License-Identifier: GPL-2.0
"""Read a bench/run output directory: each part's status (PART.status)
and, from every guest's TAP log (PART/hostN/tap.log), the lines

    # RESULT key value      one sample of a measure (one per round)
    # INFO key text...      a fact about the run (payload per frame, ...)

Samples of a key are kept in the order the rounds printed them."""

import os
import re

RESULT = re.compile(r"^# RESULT (\S+) (\S+)\s*$")
INFO = re.compile(r"^# INFO (\S+) (.+?)\s*$")


def _num(s):
    try:
        v = float(s)
    except ValueError:
        return None
    return v if v == v and v not in (float("inf"), float("-inf")) else None


def _taps(d, part):
    pdir = os.path.join(d, part)
    if not os.path.isdir(pdir):
        return []
    return [os.path.join(pdir, h, "tap.log") for h in sorted(os.listdir(pdir))
            if os.path.exists(os.path.join(pdir, h, "tap.log"))]


def collect(d):
    """-> (parts {part: status}, samples {key: [float]}, info {key: str},
    bad [lines that carried a non-numeric value])"""
    parts, samples, info, bad = {}, {}, {}, []
    for name in sorted(os.listdir(d)):
        if not name.endswith(".status"):
            continue
        part = name[:-len(".status")]
        with open(os.path.join(d, name)) as f:
            parts[part] = f.read().strip()
        for tap in _taps(d, part):
            with open(tap, errors="replace") as f:
                for line in f:
                    m = RESULT.match(line)
                    if m:
                        v = _num(m.group(2))
                        if v is None:
                            bad.append("%s: %s" % (part, line.strip()))
                        else:
                            samples.setdefault(m.group(1), []).append(v)
                        continue
                    m = INFO.match(line)
                    if m:
                        info[m.group(1)] = m.group(2)
    return parts, samples, info, bad
