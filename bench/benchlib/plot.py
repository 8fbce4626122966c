# SPDX-License-Identifier: GPL-2.0
"""PNG plots (gnuplot) of the medians of a run: idle latency and
bandwidth by mix of the memory targets, and the request-size sweep of
mp_eth against Soft-RoCE (per MTU). Nothing without gnuplot."""

import os
import shutil
import subprocess
import sys

from .measures import MIXES

TARGETS = [("system", "mem_sys"), ("MP-L", "mem_mpl"),
           ("MP-R mmap", "remote_mmap"), ("MP-R pread", "remote_pio")]

GP = """set terminal pngcairo size 800,480 noenhanced
set style fill solid 0.8 border -1
set grid ytics
set output '{d}/latency.png'
set title 'Idle latency (dependent pointer chase), median of the rounds'
set ylabel 'ns per access'
set style data histograms
set boxwidth 0.8
unset key
plot '{d}/latency.dat' using 2:xtic(1)
set output '{d}/bandwidth.png'
set title 'Bandwidth by read:write mix, median of the rounds'
set ylabel 'MiB/s'
set key top right
set style histogram clustered gap 1
plot for [i=2:{n}] '{d}/bandwidth.dat' using i:xtic(1) title columnheader(i)
"""


SWEEP_GP = """set terminal pngcairo size 800,480 noenhanced
set grid
set logscale x 2
set logscale y 10
set format y '%g'
set xtics ('64 B' 64, '1 KiB' 1024, '16 KiB' 16384, '256 KiB' 262144, '4 MiB' 4194304)
set output '{d}/{name}.png'
set title 'Read latency by request size, {mtu}: p50, median of the rounds'
set xlabel 'request size'
set ylabel 'us'
set key top left
plot '{d}/{name}.dat' using 1:2 with linespoints title 'mp_eth (mpe_test lat)', \\
     '{d}/{name}.dat' using 1:3 with linespoints title 'Soft-RoCE (ib_read_lat -a)'
"""


def _gnuplot(script):
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except (subprocess.CalledProcessError, OSError) as e:
        print("report: gnuplot failed: %s" % e, file=sys.stderr)
        return False
    return True


def sweep(d, med):
    """sweep.png (MTU 1500) and jumbo_sweep.png from the sweep's medians"""
    out = []
    for kp, mtu in (("", "MTU 1500"), ("jumbo_", "MTU 9000")):
        sizes = sorted(int(k[len(kp + "mpe_sweep_"):-len("_p50_us")]) for k in med
                       if k.startswith(kp + "mpe_sweep_") and k.endswith("_p50_us"))
        rows = [(s, med[kp + "mpe_sweep_%d_p50_us" % s], med.get(kp + "rxe_sweep_%d_p50_us" % s))
                for s in sizes]
        if not rows:
            continue
        name = kp + "sweep"
        with open(os.path.join(d, name + ".dat"), "w") as f:
            for s, a, b in rows:
                f.write("%d %f %s\n" % (s, a, "%f" % b if b is not None else "NaN"))
        if _gnuplot(SWEEP_GP.format(d=d, name=name, mtu=mtu)):
            out.append(name + ".png")
    return out


HOSTS_GP = """set terminal pngcairo size 640,480 noenhanced
set style fill solid 0.8 border -1
set grid ytics
set output '{d}/hosts.png'
set title '8 MiB reads: one peer (2 hosts) against two at once (3 hosts)'
set ylabel 'aggregate MiB/s, median of the rounds'
set style data histograms
set style histogram clustered gap 1
set key top left
plot '{d}/hosts.dat' using 2:xtic(1) title 'mp_eth', '' using 3 title 'Soft-RoCE'
"""


def hosts(d, med):
    """hosts.png: 2 against 3 hosts (part "three")"""
    k = "hosts3_%s_read_%dpeer_MiBps"
    if not any(k % (t, n) in med for t in ("mpe", "rxe") for n in (1, 2)):
        return []
    with open(os.path.join(d, "hosts.dat"), "w") as f:
        for n, label in ((1, "2 hosts"), (2, "3 hosts")):
            f.write('"%s" %f %f\n' % (label, med.get(k % ("mpe", n), 0), med.get(k % ("rxe", n), 0)))
    return ["hosts.png"] if _gnuplot(HOSTS_GP.format(d=d)) else []


def plot(d, med):
    """med: {key: median}; -> the PNG file names written"""
    if not shutil.which("gnuplot"):
        return []
    pngs = sweep(d, med) + hosts(d, med)
    have = [(n, p) for n, p in TARGETS if p + "_latency" in med]
    if not have:
        return pngs
    with open(os.path.join(d, "latency.dat"), "w") as f:
        for n, p in have:
            f.write('"%s" %f\n' % (n, med[p + "_latency"]))
    with open(os.path.join(d, "bandwidth.dat"), "w") as f:
        f.write("mix " + " ".join('"%s"' % n for n, _ in have) + "\n")
        for k, m in MIXES:
            f.write('"%s" ' % m + " ".join(
                "%f" % med.get(p + "_" + k, 0) for _, p in have) + "\n")
    if _gnuplot(GP.format(d=d, n=len(have) + 1)):
        pngs += ["latency.png", "bandwidth.png"]
    return pngs
