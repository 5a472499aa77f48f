"""SPSA driver: tune named parameters by simultaneous perturbation over paired games.

Iteration k flips a sign δ for every parameter (from a RNG seeded by the run seed and k),
plays θ+c_k·δ (player A) against θ−c_k·δ (player B) in `batches` seeded batches spread over
the workers, and once every batch is in moves θ by a_k · result · δ · step, where result =
(W−L)/games ∈ [−1, 1] and Spall's gains are a_k = a/(A+k+1)^0.602, c_k = step/(k+1)^0.101.
One CSV row per iteration (θ written exactly, with `repr`), so a run resumes from its CSV and
a resumed run is identical to an uninterrupted one.
"""

import csv
import dataclasses
import os
import random

from .kibitz import Job, derive_seed, spec_with

FIXED_COLUMNS = ["iteration", "run_seed", "games", "wins", "draws", "losses", "result"]


@dataclasses.dataclass
class SpsaConfig:
    """Everything that defines an SPSA run."""

    game: str
    spec: str
    #: The parameters tuned (kibitz.Param), in CSV column order.
    params: list
    #: Start values by name.
    start: dict
    exe: str
    csv_path: str
    interface: str = "arena"
    iterations: int = 100
    batches: int = 4
    batch_games: int = 2
    a: float = None
    big_a: float = None
    seed: int = 1
    resume: bool = False


class ResumeError(ValueError):
    """The CSV to resume from was written by a different run (other parameters or seed)."""


def _read_trajectory(path, names, seed):
    """(last iteration, θ) of an existing trajectory CSV."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if len(rows) < 2:
        raise ResumeError(f"{path}: no rows to resume from")
    if rows[0] != FIXED_COLUMNS + names:
        raise ResumeError(f"{path}: columns {rows[0]} are not {FIXED_COLUMNS + names}")
    last = rows[-1]
    if int(last[1]) != seed:
        raise ResumeError(f"{path} was written with --seed {last[1]}, not {seed}")
    theta = {n: float(v) for n, v in zip(names, last[len(FIXED_COLUMNS):])}
    return int(last[0]), theta


def perturbation(cfg, k):
    """δ of iteration k: ±1 per parameter, from a RNG seeded by the run seed and k."""
    rng = random.Random(derive_seed(cfg.seed, "spsa-delta", k))
    return {p.name: rng.choice((-1, 1)) for p in cfg.params}


def run_spsa(cfg, backend, out=print):
    """Runs (or resumes) SPSA on `backend`; returns the final θ by name."""
    names = [p.name for p in cfg.params]
    big_a = cfg.big_a if cfg.big_a is not None else 0.1 * cfg.iterations
    # With a result in [-1, 1], a_0 = (A+1)^0.602 moves a parameter about one step.
    a_num = cfg.a if cfg.a is not None else (big_a + 1) ** 0.602
    if cfg.resume and os.path.exists(cfg.csv_path):
        k0, theta = _read_trajectory(cfg.csv_path, names, cfg.seed)
        out(f"resuming {cfg.csv_path} after iteration {k0}")
        f = open(cfg.csv_path, "a", newline="")
        writer = csv.writer(f)
    else:
        k0, theta = 0, {p.name: p.clamp(float(cfg.start[p.name])) for p in cfg.params}
        f = open(cfg.csv_path, "w", newline="")
        writer = csv.writer(f)
        writer.writerow(FIXED_COLUMNS + names)
        writer.writerow([0, cfg.seed, 0, 0, 0, 0, ""] + [repr(theta[n]) for n in names])
        f.flush()
    out(f"SPSA {cfg.game}: {len(names)} parameters, {cfg.iterations} iterations of "
        f"{cfg.batches} batches x {cfg.batch_games} games, {backend.slots} slots, seed {cfg.seed}")
    with f:
        for k in range(k0, cfg.iterations):
            ak = a_num / (big_a + k + 1) ** 0.602
            delta = perturbation(cfg, k)
            plus, minus = {}, {}
            for p in cfg.params:
                ck = p.step / (k + 1) ** 0.101
                plus[p.name] = p.clamp(theta[p.name] + ck * delta[p.name])
                minus[p.name] = p.clamp(theta[p.name] - ck * delta[p.name])
            a_spec = spec_with(cfg.spec, cfg.params, plus)
            b_spec = spec_with(cfg.spec, cfg.params, minus)
            stream = f"spsa-{k}"
            for j in range(cfg.batches):
                backend.submit(Job(index=j, stream=stream, game=cfg.game, a=a_spec, b=b_spec,
                                   games=cfg.batch_games, seed=derive_seed(cfg.seed, stream, j),
                                   exe=cfg.exe, interface=cfg.interface))
            got = {}
            while len(got) < cfg.batches:
                r = backend.next_result()
                if r is None:
                    raise RuntimeError(f"iteration {k + 1}: batches missing: "
                                       f"{sorted(set(range(cfg.batches)) - set(got))}")
                if r.stream == stream:
                    got.setdefault(r.index, r)  # once per batch index
            w = sum(r.wins for r in got.values())
            d = sum(r.draws for r in got.values())
            l = sum(r.losses for r in got.values())
            games = w + d + l
            result = (w - l) / games if games else 0.0
            for p in cfg.params:
                theta[p.name] = p.clamp(theta[p.name] + ak * result * delta[p.name] * p.step)
            writer.writerow([k + 1, cfg.seed, games, w, d, l, f"{result:+.6f}"]
                            + [repr(theta[n]) for n in names])
            f.flush()
            out(f"iter {k + 1:4d}/{cfg.iterations}  W {w:3d} D {d:3d} L {l:3d}  result "
                f"{result:+.3f}  " + "  ".join(f"{n}={theta[n]:.2f}" for n in names))
    out("final values: " + " ".join(f"--param {p.name}={p.format(theta[p.name])}"
                                     for p in cfg.params))
    out("as a player spec: " + spec_with(cfg.spec, cfg.params, theta))
    return theta
