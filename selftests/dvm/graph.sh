#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# vm: --kernel patched --mem 2G --pool 0 --timeout 480
#
# BFS and PageRank on /dev/dvm_accel (DVM series, patch 0006) over
# Graph500-style R-MAT graphs (edge factor 16) at several scales, each
# checked against the CPU reference (levels and fixed-point ranks equal
# exactly).  The "# table:" lines are the rows of the Table 1 / Figure 2
# reproduction in Documentation/dvm.rst.
. /selftests/lib.sh

dvm_rmat 12 | sed 's/^/# dvm_rmat: /'
dvm_accel graph ${DVM_GRAPH_SCALES:-10 12 14}
