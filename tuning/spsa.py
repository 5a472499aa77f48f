#!/usr/bin/env python3
"""SPSA: tune named integer parameters by simultaneous perturbation over paired games.

Example:
    python3 tuning/spsa.py --spec "search:nodes=5000" --iterations 200 --pairs 4 \
        --param swarm_share:0:400:20 --param rim:0:40:4 --csv spsa.csv

Each iteration flips a random sign for every parameter, plays theta+c·delta against
theta−c·delta over `--pairs` openings (each opening with colours swapped, all iterations'
games spread over the worker processes), and moves theta along the measured gradient
(Spall's gains a_k = a/(A+k+1)^0.602, c_k = c/(k+1)^0.101, with c the parameter's step).
The trajectory goes to CSV; the final values are printed as `--param` flags.
"""

import argparse
import csv
import random
import sys
from concurrent.futures import ThreadPoolExecutor

from common import kibitz_binary, play_batch, workers_default


def parse_param(text):
    name, lo, hi, step = text.split(":")
    return {"name": name, "min": float(lo), "max": float(hi), "step": float(step)}


def spec_with(base, values):
    sep = "," if ":" in base else ":"
    return base + sep + ",".join(f"param.{k}={int(round(v))}" for k, v in values.items())


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="piranhas")
    p.add_argument("--spec", default="search:nodes=5000", help="player spec the parameters are added to")
    p.add_argument("--param", action="append", required=True, type=parse_param,
                   help="name:min:max:step (start value: --start or the middle of the range)")
    p.add_argument("--start", action="append", default=[], help="name=value start values")
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--pairs", type=int, default=4, help="openings (game pairs) per iteration")
    p.add_argument("--a", type=float, default=None,
                   help="gain numerator (default: chosen so the first step moves about one step)")
    p.add_argument("--A", type=float, default=None, help="stability constant (default 10 %% of iterations)")
    p.add_argument("--workers", type=int, default=workers_default())
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--csv", default="spsa.csv")
    p.add_argument("--kibitz")
    args = p.parse_args()

    exe = kibitz_binary(args.kibitz)
    rng = random.Random(args.seed)
    params = args.param
    theta = {q["name"]: (q["min"] + q["max"]) / 2 for q in params}
    for s in args.start:
        k, v = s.split("=")
        theta[k] = float(v)
    big_a = args.A if args.A is not None else 0.1 * args.iterations
    # With a result in [-1, 1] per iteration, a_0 = step·(A+1)^0.602 moves roughly one step.
    a_num = args.a if args.a is not None else (big_a + 1) ** 0.602
    names = [q["name"] for q in params]
    with open(args.csv, "w", newline="") as f, ThreadPoolExecutor(max_workers=args.workers) as pool:
        out = csv.writer(f)
        out.writerow(["iteration", "result", *names])
        out.writerow([0, "", *[f"{theta[n]:.2f}" for n in names]])
        for k in range(args.iterations):
            ak = a_num / (big_a + k + 1) ** 0.602
            ck = {q["name"]: q["step"] / (k + 1) ** 0.101 for q in params}
            delta = {n: rng.choice((-1, 1)) for n in names}
            plus = {q["name"]: min(q["max"], max(q["min"], theta[q["name"]] + ck[q["name"]] * delta[q["name"]])) for q in params}
            minus = {q["name"]: min(q["max"], max(q["min"], theta[q["name"]] - ck[q["name"]] * delta[q["name"]])) for q in params}
            a_spec, b_spec = spec_with(args.spec, plus), spec_with(args.spec, minus)
            seeds = [args.seed * 1_000_003 + k * 1000 + j for j in range(args.pairs)]
            results = list(pool.map(lambda s: play_batch(exe, args.game, a_spec, b_spec, 2, s), seeds))
            w = sum(r[0] for r in results)
            l = sum(r[2] for r in results)
            games = 2 * args.pairs
            result = (w - l) / games
            for q in params:
                n = q["name"]
                # Gradient step in units of the parameter's step size.
                theta[n] += ak * result * delta[n] * q["step"]
                theta[n] = min(q["max"], max(q["min"], theta[n]))
            out.writerow([k + 1, f"{result:+.3f}", *[f"{theta[n]:.2f}" for n in names]])
            f.flush()
            print(f"iter {k + 1:4d}/{args.iterations}  result {result:+.3f}  " +
                  "  ".join(f"{n}={theta[n]:.1f}" for n in names), flush=True)
    print("\nfinal values:")
    print(" ".join(f"--param {n}={int(round(theta[n]))}" for n in names))
    print("as a player spec:", spec_with(args.spec, theta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
