#!/usr/bin/env python3
"""SPRT: play a new configuration against a base one until the test accepts or rejects.

Example:
    python3 tuning/sprt.py --base "search:nodes=20000" \
        --new "search:nodes=20000,param.rim=12" --elo0 0 --elo1 10

Games are played in batches by independent worker processes (`kibitz <game> match --threads 1`),
each batch with its own seed; inside a batch every opening (Kraken pair, deal) is played twice
with colours swapped. Prints W/D/L, Elo ± 95 % and the LLR after every batch.
"""

import argparse
import math
import sys
from concurrent.futures import ThreadPoolExecutor, as_completed

from common import elo, kibitz_binary, llr, play_batch, workers_default


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", default="piranhas")
    p.add_argument("--base", required=True, help="player spec of the base version")
    p.add_argument("--new", required=True, help="player spec of the new version")
    p.add_argument("--elo0", type=float, default=0.0)
    p.add_argument("--elo1", type=float, default=10.0)
    p.add_argument("--alpha", type=float, default=0.05)
    p.add_argument("--beta", type=float, default=0.05)
    p.add_argument("--batch", type=int, default=20, help="games per worker batch (even)")
    p.add_argument("--workers", type=int, default=workers_default())
    p.add_argument("--max-games", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1, help="first batch seed")
    p.add_argument("--kibitz", help="path of the kibitz binary (default: target/release/kibitz)")
    args = p.parse_args()

    exe = kibitz_binary(args.kibitz)
    lower = math.log(args.beta / (1 - args.alpha))
    upper = math.log((1 - args.beta) / args.alpha)
    w = d = l = 0
    seed = args.seed
    print(f"SPRT [{args.elo0}, {args.elo1}] alpha={args.alpha} beta={args.beta}: "
          f"bounds ({lower:.2f}, {upper:.2f}); {args.workers} workers, batches of {args.batch}")
    print(f"new:  {args.new}\nbase: {args.base}")
    verdict = "inconclusive (max games reached)"
    with ThreadPoolExecutor(max_workers=args.workers) as pool:
        pending = set()

        def submit():
            nonlocal seed
            pending.add(pool.submit(play_batch, exe, args.game, args.new, args.base, args.batch, seed))
            seed += 1

        for _ in range(args.workers):
            submit()
        while pending:
            done = next(as_completed(pending))
            pending.remove(done)
            bw, bd, bl = done.result()
            w, d, l = w + bw, d + bd, l + bl
            e, err = elo(w, d, l)
            ratio = llr(w, d, l, args.elo0, args.elo1)
            print(f"games {w + d + l:6d}  W {w:5d} D {d:5d} L {l:5d}  "
                  f"Elo {e:+7.1f} ± {err:5.1f}  LLR {ratio:+6.2f} ({lower:.2f}, {upper:.2f})", flush=True)
            if ratio >= upper:
                verdict = "H1 accepted: the new version is stronger"
            elif ratio <= lower:
                verdict = "H0 accepted: no improvement of elo1"
            elif w + d + l + args.batch * len(pending) < args.max_games:
                submit()
                continue
            else:
                continue
            for f in pending:
                f.cancel()
            break
    e, err = elo(w, d, l)
    print(f"\nresult: {w + d + l} games, W {w} D {d} L {l}, Elo {e:+.1f} ± {err:.1f}, "
          f"LLR {llr(w, d, l, args.elo0, args.elo1):.2f} — {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
