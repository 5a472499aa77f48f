#!/usr/bin/env python3
"""Fit of the Piranhas `v5` round-limit weights (issue 38) on replayed game positions.

Input: the lines of `cargo run --release -p kibitz-piranhas --example limit_data -- RECORDS`
(`game turn red_to_move y v4 d sign exposed ...`; positions before turn 30 are skipped).

Model (the Texel loss of tune.rs, on the late positions only):
    p(win) = sigmoid((v4 + ramp * (proj * d + outcome * sign - exposed * x)) / scale)
with ramp = (turn - 30) / 30 (turn 30 fitted better than 35 or 40). First `scale` is fitted on `v4` alone, then the three weights by
a coordinate grid search with `scale` fixed. Every 5th game is held out; the script prints
the mean squared error before and after on both parts, overall and for RED to move.

Usage: python3 tuning/piranhas_limit_fit.py DATA.txt
No third-party packages (plain Python).
"""
import math
import sys

# The first turn of the round-limit terms (`LIMIT_FROM` in engines/piranhas/src/eval.rs).
START = 30


def load(path):
    rows = []
    with open(path) as f:
        for line in f:
            g, t, red, y, v4, d, sign, ex = line.split()[:8]
            if int(t) < START:
                continue
            ramp = (int(t) - START) / (60.0 - START)
            rows.append((int(g), int(t), int(red), float(y), float(v4),
                         [ramp * float(d), ramp * float(sign), -ramp * float(ex)]))
    return rows


def sig(v):
    if v < -40:
        return 0.0
    if v > 40:
        return 1.0
    return 1.0 / (1.0 + math.exp(-v))


def mse(rows, w, scale, only_red=False):
    tot = n = 0
    for (_, _, red, y, v4, x) in rows:
        if only_red and not red:
            continue
        s = v4 + sum(a * b for a, b in zip(w, x))
        tot += (y - sig(s / scale)) ** 2
        n += 1
    return tot / max(n, 1)


def fit_scale(rows):
    best = None
    for scale in [20 * k for k in range(2, 60)]:
        e = mse(rows, [0, 0, 0], scale)
        if best is None or e < best[0]:
            best = (e, scale)
    return best[1]


def fit(rows, scale, rounds=3):
    """Coordinate search: each weight over a grid of 0..600 in steps of 10, others fixed."""
    w = [0.0, 0.0, 0.0]
    for _ in range(rounds):
        for i in range(3):
            best = None
            for v in range(-100, 610, 10):
                trial = list(w)
                trial[i] = float(v)
                e = mse(rows, trial, scale)
                if best is None or e < best[0]:
                    best = (e, v)
            w[i] = float(best[1])
    return w


def main():
    rows = load(sys.argv[1])
    train = [r for r in rows if r[0] % 5 != 0]
    val = [r for r in rows if r[0] % 5 == 0]
    scale = fit_scale(train)
    w = fit(train, scale)
    print(f"{len(rows)} positions ({len(train)} train, {len(val)} validation), scale {scale}")
    print("weights proj outcome exposed:", [round(x, 1) for x in w])
    for name, part in (("train", train), ("validation", val)):
        print(f"{name}: mse v4 {mse(part, [0, 0, 0], scale):.5f} -> {mse(part, w, scale):.5f}; "
              f"RED to move {mse(part, [0, 0, 0], scale, True):.5f} -> {mse(part, w, scale, True):.5f}")
    v5 = [float(a) for a in sys.argv[2:5]] if len(sys.argv) >= 5 else None
    if v5:
        print("given weights", v5, "validation", f"{mse(val, v5, scale):.5f}",
              "RED", f"{mse(val, v5, scale, True):.5f}")


if __name__ == "__main__":
    main()
