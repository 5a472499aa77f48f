"""Command line: `python3 -m kibitz_tuning {sprt,spsa,params} ...` (see tuning/README.md)."""

import argparse
import os
import signal
import sys

from .backend import make_backend
from .kibitz import GAMES, KibitzError, Param, detect_interface, engine_params, find_binary, supported_games
from .spsa import ResumeError, SpsaConfig, run_spsa
from .sprt import SprtConfig, run_sprt


def _common(p):
    p.add_argument("--game", default="piranhas", choices=GAMES)
    p.add_argument("--seed", type=int, default=1,
                   help="run seed: every batch seed derives from it and the batch index")
    p.add_argument("--kibitz", help="kibitz binary (default: $KIBITZ_BIN, else "
                   "target/release/kibitz, built if missing); must exist on every worker")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://HOST:8786 "
                   "(default: a LocalCluster on this machine)")
    g.add_argument("--serial", action="store_true",
                   help="no Dask: play the batches one after another in this process")
    p.add_argument("--workers", type=int, default=None,
                   help="LocalCluster worker processes (default: one per core)")
    p.add_argument("--log", help="also append every output line to this file")


def _printer(log_path):
    log = open(log_path, "a") if log_path else None

    def out(line):
        print(line, flush=True)
        if log:
            log.write(line + "\n")
            log.flush()
    return out


def _binary(args):
    exe = find_binary(args.kibitz)
    if not os.access(exe, os.X_OK):
        sys.exit(f"error: no kibitz binary at {exe} (give --kibitz PATH or set $KIBITZ_BIN)")
    interface = detect_interface(exe)
    if args.game not in supported_games(exe, interface):
        sys.exit(f"error: {exe} has no `kibitz match {args.game} --json` yet "
                 f"(only {', '.join(supported_games(exe, interface))})")
    return exe, interface


def parse_params(exe, game, texts, starts):
    """The parameters to tune and their start values, from `--param` and `--start` flags.

    `--param name` takes the range from `kibitz <game> params --json`; `--param
    name:min:max:step` gives it explicitly; no `--param` tunes every parameter the engine
    lists."""
    listing = engine_params(exe, game)
    params = []
    for text in texts or ([] if listing is None else list(listing)):
        parts = text.split(":")
        if len(parts) == 1:
            if listing is None or text not in listing:
                raise ValueError(f"--param {text}: no range known (this kibitz has no "
                                 f"`{game} params --json` listing it); use name:min:max:step")
            params.append(listing[text])
        elif len(parts) == 4:
            name = parts[0]
            lo, hi, step = (float(x) for x in parts[1:])
            if not lo < hi or step <= 0:
                raise ValueError(f"--param {text}: need min < max and step > 0")
            default = listing[name].default if listing and name in listing else (lo + hi) / 2
            params.append(Param(name, default, lo, hi, step))
        else:
            raise ValueError(f"--param {text}: expected name or name:min:max:step")
    if not params:
        raise ValueError("no parameters: give --param name:min:max:step")
    start = {p.name: p.default for p in params}
    for s in starts:
        name, _, value = s.partition("=")
        if name not in start:
            raise ValueError(f"--start {s}: {name} is not a tuned parameter")
        start[name] = float(value)
    return params, start


def cmd_sprt(args):
    exe, interface = _binary(args)
    cfg = SprtConfig(game=args.game, base=args.base, new=args.new, exe=exe,
                     interface=interface, elo0=args.elo0, elo1=args.elo1, alpha=args.alpha,
                     beta=args.beta, batch_games=args.batch_games, max_games=args.max_games,
                     seed=args.seed)
    with make_backend(args.scheduler, args.workers, args.serial) as backend:
        result = run_sprt(cfg, backend, out=_printer(args.log))
    return 130 if result.verdict == "interrupted" else 0


def cmd_spsa(args):
    exe, interface = _binary(args)
    try:
        params, start = parse_params(exe, args.game, args.param, args.start)
    except ValueError as e:
        sys.exit(f"error: {e}")
    cfg = SpsaConfig(game=args.game, spec=args.spec, params=params, start=start, exe=exe,
                     csv_path=args.csv, interface=interface, iterations=args.iterations,
                     batches=args.batches, batch_games=args.batch_games, a=args.a,
                     big_a=args.A, seed=args.seed, resume=args.resume)
    try:
        with make_backend(args.scheduler, args.workers, args.serial) as backend:
            run_spsa(cfg, backend, out=_printer(args.log))
    except ResumeError as e:
        sys.exit(f"error: {e}")
    return 0


def cmd_params(args):
    exe = find_binary(args.kibitz)
    listing = engine_params(exe, args.game)
    if listing is None:
        sys.exit(f"error: {exe} has no `{args.game} params --json`; give ranges as "
                 "--param name:min:max:step")
    print("name\tdefault\tmin\tmax\tstep")
    for p in listing.values():
        print(f"{p.name}\t{p.default:g}\t{p.min:g}\t{p.max:g}\t{p.step:g}")
    return 0


def build_parser():
    """The argument parser of all three commands."""
    top = argparse.ArgumentParser(prog="python3 -m kibitz_tuning", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)

    s = sub.add_parser("sprt", help="SPRT of a new player spec against a base spec")
    _common(s)
    s.add_argument("--base", required=True, help="player spec of the base version")
    s.add_argument("--new", required=True, help="player spec of the new version")
    s.add_argument("--elo0", type=float, default=0.0)
    s.add_argument("--elo1", type=float, default=10.0)
    s.add_argument("--alpha", type=float, default=0.05)
    s.add_argument("--beta", type=float, default=0.05)
    s.add_argument("--batch-games", "--batch", type=int, default=20,
                   help="games per batch (one `kibitz match` run)")
    s.add_argument("--max-games", type=int, default=20000)
    s.set_defaults(func=cmd_sprt)

    p = sub.add_parser("spsa", help="SPSA over named engine parameters")
    _common(p)
    p.add_argument("--spec", required=True,
                   help="player spec the parameters are added to, e.g. search:nodes=2000")
    p.add_argument("--param", action="append", default=[],
                   help="name (range from `kibitz <game> params`) or name:min:max:step; "
                   "repeat; none = every parameter the engine lists")
    p.add_argument("--start", action="append", default=[],
                   help="name=value start value (default: the engine's default, else mid-range)")
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--batches", "--pairs", type=int, default=4, help="batches per iteration")
    p.add_argument("--batch-games", type=int, default=2, help="games per batch")
    p.add_argument("--a", type=float, default=None,
                   help="gain numerator (default: the first step moves about one step)")
    p.add_argument("--A", type=float, default=None,
                   help="stability constant (default: 10 %% of the iterations)")
    p.add_argument("--csv", default="spsa.csv", help="trajectory CSV (one row per iteration)")
    p.add_argument("--resume", action="store_true",
                   help="continue the run recorded in --csv (same --param, --seed)")
    p.set_defaults(func=cmd_spsa)

    q = sub.add_parser("params", help="list an engine's tunable parameters")
    q.add_argument("game", choices=GAMES)
    q.add_argument("--kibitz")
    q.set_defaults(func=cmd_params)
    return top


def _interrupt(_signum, _frame):
    raise KeyboardInterrupt


def main(argv=None):
    """Entry point; returns the exit code."""
    args = build_parser().parse_args(argv)
    # SIGTERM (a scheduler or `kill` stopping the run) ends it like Ctrl-C: the SPRT prints
    # its result so far, SPSA its last iteration is already logged.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        return args.func(args)
    except KibitzError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
