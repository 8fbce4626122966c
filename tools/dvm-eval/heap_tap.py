# SPDX-License-Identifier: GPL-2.0
"""tools/dvm-eval/heap_tap.py: the raw numbers of one DVM heap scenario's
TAP (selftests/dvm_heap/{structs,fallback,programs}.sh), for
tools/dvm-eval/collect, which finds the scenarios' TAP in the guest part
of `make dvm-eval` (selftests/dvm/eval_guest.sh passes each on behind
"# dvm_heap/NAME: ").

A scenario's "# raw: phase=P" line starts phase P; the lines after it that
this module knows are kept, raw, under that phase: "# raw: k=v ..." pairs,
the accelerator's "# accel WHAT k v ..." lines, the launcher's "# mp-dvm:
pid N: heap ..." summary, /proc/buddyinfo, the physical walk,
redis-benchmark's requests per second.  The TAP points are counted.
Nothing is derived here: tools/dvm-eval/heap-tables makes the tables of
Documentation/dvm-heap.rst from the results file."""
import re

NUM = r'([0-9]+(?:\.[0-9]+)?)'
SUMMARY = re.compile(
    r'^# mp-dvm: pid \d+: heap ' + NUM + r' MiB in (\d+) chunks, identity ' +
    NUM + r' MiB \(' + NUM + r' %\), fallback ' + NUM +
    r' MiB(?: \(nocontig ' + NUM + r' MiB\))?, refused ' + NUM +
    r' MiB(?: \(nocontig ' + NUM + r' MiB\))?( \(strict\))?; anonymous memory ' +
    NUM + r' MiB, identity ' + NUM + r' MiB \(' + NUM + r' %\)')
SUMMARY_KEYS = ('heap_mib', 'chunks', 'identity_mib', 'identity_pct',
                'fallback_mib', 'fallback_nocontig_mib', 'refused_mib',
                'refused_nocontig_mib', 'strict', 'anon_mib',
                'anon_identity_mib', 'anon_identity_pct')
BUDDY = re.compile(r'^# buddyinfo: Node (\d+), zone\s+(\S+)((?:\s+\d+)+)\s*$')
WALK = re.compile(r'^# nodes walked: (\d+), at VA == PA: (\d+)')
BENCH = re.compile(r'^# redis-benchmark (without|with):\s*(.*)$')
RPS = re.compile(r'([A-Z]+): ' + NUM + r' requests per second')
FRAG = re.compile(r'^# ready held (\d+) MiB freed (\d+) MiB huge (\d+) MiB '
                  r'memfree (\d+) MiB')


def number(v):
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


def parse(lines):
    """{"points": {...}, "phases": {phase: {...}}} of one scenario's TAP,
    given as lines."""
    phases, cur = {}, None
    points = {"passed": 0, "failed": 0, "skipped": 0}
    for line in lines:
        line = line.rstrip('\n')
        if re.match(r'^ok \d+ ', line):
            points["skipped" if '# SKIP' in line else "passed"] += 1
        elif re.match(r'^not ok \d+ ', line):
            points["failed"] += 1
        if line.startswith('# raw: '):
            pairs = dict(w.split('=', 1) for w in line[7:].split()
                         if '=' in w)
            if 'phase' in pairs:
                cur = phases.setdefault(pairs.pop('phase'), {})
            if cur is not None:
                cur.update({k: number(v) for k, v in pairs.items()})
            continue
        if cur is None:
            continue
        m = SUMMARY.match(line)
        if m:
            s = {}
            for k, v in zip(SUMMARY_KEYS, m.groups()):
                if k == 'strict':
                    s[k] = v is not None
                elif v is not None:
                    s[k] = number(v)
            cur['summary'] = s
            continue
        if line.startswith('# accel '):
            w = line[2:].split()
            cur.setdefault('accel', {})[w[1]] = {
                w[i]: number(w[i + 1]) for i in range(2, len(w) - 1, 2)}
            continue
        m = BUDDY.match(line)
        if m:
            cur.setdefault('buddyinfo', {})[m.group(2)] = \
                [int(x) for x in m.group(3).split()]
            continue
        m = WALK.match(line)
        if m:
            cur['walk'] = {'nodes': int(m.group(1)),
                           'identity': int(m.group(2))}
            continue
        m = BENCH.match(line)
        if m:
            cur.setdefault('bench_rps', {})[m.group(1)] = {
                k: float(v) for k, v in RPS.findall(m.group(2))}
            continue
        m = FRAG.match(line)
        if m:
            cur['frag'] = dict(zip(('held_mib', 'freed_mib', 'huge_mib',
                                    'memfree_mib'),
                                   (int(x) for x in m.groups())))
    return {"points": points, "phases": phases}
