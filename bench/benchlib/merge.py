# SPDX-License-Identifier: GPL-2.0
"""Several results.json into one: each bench/run of some parts (a part
takes tens of minutes under TCG, so the goals' parts are often run one
at a time) adds its samples, parts and facts; the merged file keeps
every source run's provenance under "runs" so that the tables name each
run and its commit. A part or a measure found in two runs is an error:
samples of two runs (two commits, two guest boots) are not one
measure's rounds."""

import os


class MergeError(Exception):
    pass


def _src(res, path):
    """the provenance of one source run, and what it contributes"""
    rn = dict(res.get("run", {}))
    if "runs" in res:
        raise MergeError("%s: already a merge of %d runs; merge its sources"
                         % (path, len(res["runs"])))
    rn["parts"] = dict(res.get("parts", {}))
    rn["results_json"] = path
    return rn


def merge(inputs):
    """inputs: [(path, results dict)] -> (runs, parts, samples, info, bad)"""
    if len(inputs) < 2:
        raise MergeError("--merge wants at least two results files")
    runs, parts, samples, facts, bad = [], {}, {}, {}, []
    owner_part, owner_key = {}, {}
    for path, res in inputs:
        rn = _src(res, path)
        name = rn.get("name", os.path.basename(os.path.dirname(path)))
        for p, status in rn["parts"].items():
            if p in owner_part:
                raise MergeError("part '%s' is in %s and in %s" % (p, owner_part[p], name))
            owner_part[p] = name
            parts[p] = status
        for k, v in res.get("samples", {}).items():
            if k in owner_key:
                raise MergeError("measure '%s' is in %s and in %s" % (k, owner_key[k], name))
            owner_key[k] = name
            samples[k] = list(v)
        for k, v in res.get("info", {}).items():
            facts.setdefault(k, []).append((name, v))
        bad += ["%s: %s" % (name, b) for b in res.get("bad_lines", [])]
        runs.append(rn)
    # a fact two runs state alike (the polling policy) is one fact; when
    # they differ, each run's is kept, named
    info = {k: v[0][1] if len(set(x for _, x in v)) == 1 else
            "; ".join("%s: %s" % nv for nv in v) for k, v in facts.items()}
    return runs, parts, samples, info, bad
