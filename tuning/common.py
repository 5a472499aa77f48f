"""Shared helpers of the tuning scripts: run `kibitz <game> match` batches and do the statistics.

Only the Python standard library is used, so the scripts run on any fresh machine with python3.
"""

import json
import math
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
Z95 = 1.959963984540054


def kibitz_binary(path=None):
    """Path of the kibitz binary, building it in release mode when it is missing."""
    if path:
        return path
    exe = ROOT / "target" / "release" / "kibitz"
    if not exe.exists():
        print("building kibitz (release) ...", file=sys.stderr)
        subprocess.run(["cargo", "build", "--release", "--bin", "kibitz"], cwd=ROOT, check=True)
    return str(exe)


def play_batch(exe, game, a, b, games, seed, extra=()):
    """Plays `games` games of spec `a` against spec `b` (both colours per opening) in one
    single-threaded worker process and returns (wins, draws, losses) of `a`."""
    cmd = [exe, game, "match", "--games", str(games), "--a", a, "--b", b,
           "--seed", str(seed), "--threads", "1", "--json", *extra]
    out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{out.stderr}")
    line = [l for l in out.stdout.splitlines() if l.startswith("{")][-1]
    r = json.loads(line)
    return r["w"], r["d"], r["l"]


def workers_default():
    return max(1, os.cpu_count() or 1)


def score_from_elo(elo):
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(s):
    s = min(max(s, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / s - 1.0)


def variance(w, d, l):
    n = w + d + l
    s = (w + 0.5 * d) / n
    return (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s * s) / n, s


def elo(w, d, l):
    """Elo difference and the half-width of its 95 % interval (same model as kibitz-search)."""
    n = w + d + l
    if n == 0:
        return 0.0, float("inf")
    var, s = variance(w, d, l)
    half = Z95 * math.sqrt(var / n)
    return elo_from_score(s), (elo_from_score(s + half) - elo_from_score(s - half)) / 2


def llr(w, d, l, elo0, elo1):
    """GSPRT log-likelihood ratio of H1 (elo1) over H0 (elo0), normal approximation."""
    n = w + d + l
    if n == 0:
        return 0.0
    var, s = variance(w, d, l)
    var = max(var, 0.25 / (n + 1))
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return n * (s1 - s0) * (2 * s - s0 - s1) / (2 * var)
