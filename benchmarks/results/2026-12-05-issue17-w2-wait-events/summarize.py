#!/usr/bin/env python3
"""Sums the pg_stat_activity samples of each variant's runs by what the session was doing, per run.

Each line of NN-variant-activity.txt.gz is one busy client session in one sample (every 50 ms):
epoch ms|pid|state|wait type|wait event|transaction age ms|statement (first 100 characters).
A session "idle in transaction" waits for its client's next statement; its statement is the last
one it ran, which tells the transaction it is in.

Usage: python3 summarize.py [rows, default 30] [regex of the variants, default W2's]
"""
import collections
import glob
import gzip
import re
import sys

top = int(sys.argv[1]) if len(sys.argv) > 1 else 30
wanted = re.compile(sys.argv[2] if len(sys.argv) > 2 else "^(before|after|new)$")
runs = collections.defaultdict(list)
for path in sorted(glob.glob("*-activity.txt.gz")):
    variant = re.sub(r"^\d+-|-activity\.txt\.gz$", "", path)
    if not wanted.search(variant):
        continue
    counts = collections.Counter()
    with gzip.open(path, "rt") as lines:
        for line in lines:
            parts = line.rstrip("\n").split("|", 6)
            if len(parts) < 7 or parts[6].startswith("SELECT (extract"):
                continue
            statement = re.sub(r"\$\d+", "?", parts[6])[:60]
            doing = "active" if parts[2] == "active" else "idle in tx"
            wait = (parts[3] + ":" + parts[4]) if parts[3] else "-"
            counts[f"{doing} | {wait} | {statement}"] += 1
    runs[variant].append(counts)

variants = list(runs)
mean = {v: {k: sum(c[k] for c in runs[v]) / len(runs[v]) for c in runs[v] for k in c} for v in variants}
print("| " + " | ".join(f"{v} ({len(runs[v])} runs)" for v in variants) + " | session | wait | last statement |")
print("| " + " | ".join("---:" for _ in variants) + " | --- | --- | --- |")
print("| " + " | ".join(f"{sum(mean[v].values()):,.0f}" for v in variants) + " | all busy samples, per run | | |")
keys = sorted({k for v in variants for k in mean[v]}, key=lambda k: -sum(mean[v].get(k, 0) for v in variants))
for key in keys[:top]:
    doing, wait, statement = key.split(" | ", 2)
    print("| " + " | ".join(f"{mean[v].get(key, 0):,.1f}" for v in variants)
          + f" | {doing} | {wait} | `{statement.strip()}` |")
