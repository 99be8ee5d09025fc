#!/usr/bin/env python3
"""Checks a sharded run (Tools/cluster/cluster-test.sh): the journals name every input of
the reference run exactly once as ok, each from one shard, with the size and SHA-256 of the
output as it is on disk; no input is named twice and none is missing.

usage: check.py REFERENCE_LIST SHARDS JOURNAL...
REFERENCE_LIST holds the inputs (one per line) the one-machine run did."""
import hashlib
import json
import os
import sys


def main():
    reference, shards, journals = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    expected = set(open(reference).read().split("\n")) - {""}
    ok = {}
    problems = []
    for path in journals:
        for n, line in enumerate(open(path, "rb").read().split(b"\n"), 1):
            if not line:
                continue
            try:
                r = json.loads(line)
            except ValueError:
                problems.append(f"{path}:{n}: not JSON (a torn line is allowed only where a task was killed)")
                continue
            if r["status"] != "ok":
                problems.append(f"{path}:{n}: {r['input']} {r['status']}: {r.get('error')}")
                continue
            if r["input"] in ok:
                problems.append(f"{path}:{n}: {r['input']} is ok twice (also in {ok[r['input']][0]})")
            ok[r["input"]] = (path, r)
            k, count = r["shard"].split("/")
            if int(count) != shards:
                problems.append(f"{path}:{n}: shard {r['shard']}, expected of {shards}")
            data = open(r["output"], "rb").read()
            if len(data) != r["bytes"] or hashlib.sha256(data).hexdigest() != r["sha256"]:
                problems.append(f"{path}:{n}: {r['output']} is not the file recorded")
    missing = expected - set(ok)
    extra = set(ok) - expected
    if missing:
        problems.append(f"{len(missing)} inputs in no journal, e.g. {sorted(missing)[:3]}")
    if extra:
        problems.append(f"{len(extra)} inputs not in the reference run, e.g. {sorted(extra)[:3]}")
    shard_of = {}
    for path, r in ok.values():
        shard_of.setdefault(path, set()).add(r["shard"])
    for path, s in shard_of.items():
        if len(s) != 1:
            problems.append(f"{path} holds several shards: {sorted(s)}")
    for p in problems[:20]:
        print("check: " + p, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"check: {len(ok)} inputs, each once, in {len(journals)} journals")


main()
