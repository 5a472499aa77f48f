"""SPRT driver: play a new spec against a base spec in seeded batches until the LLR leaves
its bounds.

Batches complete in any order (several workers, lost workers replayed), but they are
*counted in index order*: a finished batch waits until every batch before it is counted. The
stopping point, the verdict and the W/D/L are therefore a function of the run seed alone,
the same in-process, on 2 local workers or on a cluster, and fast batches (short games) can
not bias the moment the test stops. Batches still running when it stops are cancelled.
"""

import dataclasses
import math
import time

from .kibitz import Job, derive_seed
from .stats import elo, llr, sprt_bounds


@dataclasses.dataclass
class SprtConfig:
    """Everything that defines an SPRT run (the same config and seed give the same games)."""

    game: str
    base: str
    new: str
    exe: str
    interface: str = "arena"
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    batch_games: int = 20
    max_games: int = 20000
    seed: int = 1


@dataclasses.dataclass
class SprtResult:
    """Outcome of an SPRT run, W/D/L from the new spec's point of view."""

    wins: int
    draws: int
    losses: int
    llr: float
    lower: float
    upper: float
    #: "H1", "H0", "inconclusive" (max games reached first) or "interrupted" (SIGINT /
    #: SIGTERM: the result so far).
    verdict: str
    #: Batch indices counted, in the order they were counted (always 0, 1, 2, ...).
    counted: list
    #: Results that arrived for a batch already counted (and were ignored).
    duplicates: int = 0
    #: Wall-clock seconds from the first submitted batch to the verdict.
    elapsed: float = 0.0
    #: CPU seconds the counted batches' kibitz processes used.
    cpu_seconds: float = 0.0

    @property
    def games(self):
        """Games counted."""
        return self.wins + self.draws + self.losses

    def summary(self):
        """One line: games, W/D/L, Elo ± 95 %, LLR and the verdict."""
        e, err = elo(self.wins, self.draws, self.losses)
        text = {"H1": "H1 accepted: the new version is stronger",
                "H0": "H0 accepted: no gain of elo1",
                "inconclusive": "inconclusive (max games reached)",
                "interrupted": "interrupted: the result so far, no verdict"}[self.verdict]
        return (f"result: {self.games} games in {len(self.counted)} batches, W {self.wins} "
                f"D {self.draws} L {self.losses}, Elo {e:+.1f} ± {err:.1f}, LLR {self.llr:.2f} "
                f"({self.lower:.2f}, {self.upper:.2f}) — {text}; {self.elapsed:.1f} s, "
                f"{self.games / max(self.elapsed, 1e-9):.2f} games/s, "
                f"{self.cpu_seconds / max(self.games, 1):.3f} CPU s/game")


def batch_job(cfg, index):
    """Batch `index` of the run: the new spec is player A."""
    return Job(index=index, stream="sprt", game=cfg.game, a=cfg.new, b=cfg.base,
               games=cfg.batch_games, seed=derive_seed(cfg.seed, "sprt", index), exe=cfg.exe,
               interface=cfg.interface)


def run_sprt(cfg, backend, out=print, on_count=None):
    """Runs the SPRT on `backend`, printing one line per counted batch through `out`.

    `on_count(batch_result, backend)` is called after each counted batch (tests use it to
    kill a worker mid-run)."""
    lower, upper = sprt_bounds(cfg.alpha, cfg.beta)
    max_batches = max(1, math.ceil(cfg.max_games / cfg.batch_games))
    out(f"SPRT [{cfg.elo0}, {cfg.elo1}] alpha={cfg.alpha} beta={cfg.beta}: bounds "
        f"({lower:.2f}, {upper:.2f}); {cfg.game}, batches of {cfg.batch_games} games, "
        f"{backend.slots} slots, seed {cfg.seed}")
    out(f"new:  {cfg.new}\nbase: {cfg.base}")
    started = time.monotonic()
    w = d = l = 0
    cpu = 0.0
    ratio = 0.0
    counted, buffered = [], {}
    duplicates = 0
    next_index = 0
    verdict = "inconclusive"
    # An interrupt (Ctrl-C, or SIGTERM turned into one by the CLI) ends the run with the
    # batches counted so far, so a run stopped by hand still prints its summary line.
    try:
        while verdict == "inconclusive":
            window = max(2, 2 * backend.slots)
            while next_index < max_batches and next_index - len(counted) < window:
                backend.submit(batch_job(cfg, next_index))
                next_index += 1
            r = backend.next_result()
            if r is None:
                break
            if r.index < len(counted) or r.index in buffered:
                duplicates += 1
                continue
            buffered[r.index] = r
            while len(counted) in buffered and verdict == "inconclusive":
                b = buffered.pop(len(counted))
                counted.append(b.index)
                w, d, l = w + b.wins, d + b.draws, l + b.losses
                cpu += b.cpu_seconds
                e, err = elo(w, d, l)
                ratio = llr(w, d, l, cfg.elo0, cfg.elo1)
                out(f"games {w + d + l:6d}  W {w:5d} D {d:5d} L {l:5d}  Elo {e:+7.1f} ± {err:5.1f}"
                    f"  LLR {ratio:+6.2f} ({lower:.2f}, {upper:.2f})  batch {b.index}")
                if on_count:
                    on_count(b, backend)
                if ratio >= upper:
                    verdict = "H1"
                elif ratio <= lower:
                    verdict = "H0"
    except KeyboardInterrupt:
        verdict = "interrupted"
    backend.cancel_pending()
    result = SprtResult(w, d, l, ratio, lower, upper, verdict, counted, duplicates,
                        time.monotonic() - started, cpu)
    out(result.summary())
    return result
