#!/usr/bin/env python3
"""Pairs kh_eval CSVs run on the same seed: win share of entrant 1 in each, and the paired
difference (game by game, same deck and seat) with a 95 % interval.
usage: koe_pair.py A.csv [B.csv]"""
import csv, math, sys

def load(p):
    with open(p) as f:
        return {int(r["game"]): r for r in csv.DictReader(f)}

def ci(xs):
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0), 0.0
    m = sum(xs) / n
    v = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(v / n)

a = load(sys.argv[1])
for e in range(1, 5):
    m, h = ci([float(r[f"share{e}"]) for r in a.values()])
    print(f"{sys.argv[1]}: entrant {e} win {100*m:.1f} % ± {100*h:.1f} (n={len(a)})")
if len(sys.argv) > 2:
    b = load(sys.argv[2])
    common = sorted(set(a) & set(b))
    da = [float(a[g]["share1"]) for g in common]
    db = [float(b[g]["share1"]) for g in common]
    d = [x - y for x, y in zip(da, db)]
    ma, ha = ci(da); mb, hb = ci(db); md, hd = ci(d)
    print(f"paired over {len(common)} games: A {100*ma:.1f} % ± {100*ha:.1f}, B {100*mb:.1f} % ± {100*hb:.1f}, "
          f"A-B {100*md:+.1f} pts ± {100*hd:.1f}")
