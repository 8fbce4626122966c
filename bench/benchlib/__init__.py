# SPDX-License-Identifier: GPL-2.0
"""bench/report's pieces: collect, stats, measures, evaluate, rst, plot,
validate (one job each)."""
