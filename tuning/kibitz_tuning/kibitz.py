"""The `kibitz` binary as seen by the tuner: locating it, the match command of one batch,
reading its JSON line, and the parameter listing of an engine.

Two command-line interfaces are understood:

* the unified arena, `kibitz match <game> --a A --b B --games N --seed S --concurrency 1 --json`
  (CONTRACT: one JSON line with `wins`/`draws`/`losses`/`games`), for every game;
* the older per-game form, `kibitz piranhas match ... --threads 1 --json` (keys `w`/`d`/`l`),
  which only Piranhas has; used when the binary has no `match` command yet.
"""

import dataclasses
import hashlib
import json
import os
import socket
import subprocess
from pathlib import Path

#: Games `kibitz match` plays.
GAMES = ("connect4", "piranhas", "maumau", "koehandel")

#: The repository root (tuning/ sits directly under it).
ROOT = Path(__file__).resolve().parent.parent.parent

#: Environment variable a worker machine may set to point at its own kibitz binary.
ENV_BINARY = "KIBITZ_BIN"


class KibitzError(RuntimeError):
    """A kibitz run failed (bad spec, unknown parameter, crash) or printed no usable JSON.

    Deterministic failures: a batch that raises this is not retried."""


def derive_seed(run_seed, stream, index):
    """The u64 seed (63 bits, so every JSON reader keeps it exact) of batch `index` of
    `stream` in a run seeded with `run_seed`. Stable across machines and Python versions."""
    text = f"kibitz-tuning/{run_seed}/{stream}/{index}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little") >> 1


def find_binary(path=None, build=True):
    """Path of the kibitz binary: `path`, else $KIBITZ_BIN, else target/release/kibitz of this
    checkout (built with `cargo build --release --bin kibitz` when missing and `build`)."""
    if path:
        return str(path)
    if os.environ.get(ENV_BINARY):
        return os.environ[ENV_BINARY]
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    exe = target / "release" / "kibitz"
    if not exe.exists() and build:
        subprocess.run(["cargo", "build", "--release", "--bin", "kibitz"], cwd=ROOT, check=True)
    return str(exe)


def detect_interface(exe):
    """"arena" when the binary has the unified `kibitz match`, else "legacy"."""
    out = subprocess.run([exe, "match", "--help"], capture_output=True, text=True, check=False)
    return "arena" if out.returncode == 0 else "legacy"


def supported_games(exe, interface):
    """Games this binary can play with `--json` under `interface`."""
    return GAMES if interface == "arena" else ("piranhas",)


@dataclasses.dataclass(frozen=True)
class Job:
    """One batch: `games` games of spec `a` against spec `b` with one seed, on one core."""

    #: Batch index inside its stream; results are counted once per (stream, index).
    index: int
    #: Which part of a run the batch belongs to ("sprt", "spsa-17", ...).
    stream: str
    game: str
    a: str
    b: str
    games: int
    seed: int
    exe: str
    interface: str = "arena"

    def command(self, exe=None):
        """The argv of this batch (with `exe` in place of the recorded binary if given)."""
        exe = exe or self.exe
        if self.interface == "arena":
            return [exe, "match", self.game, "--a", self.a, "--b", self.b,
                    "--games", str(self.games), "--seed", str(self.seed),
                    "--concurrency", "1", "--json"]
        return [exe, self.game, "match", "--games", str(self.games), "--a", self.a,
                "--b", self.b, "--seed", str(self.seed), "--threads", "1", "--json"]


@dataclasses.dataclass(frozen=True)
class BatchResult:
    """What one batch played, from A's point of view."""

    index: int
    stream: str
    seed: int
    games: int
    wins: int
    draws: int
    losses: int
    #: Process id of the Python worker that ran the batch (for the worker-loss test and logs).
    worker_pid: int = 0
    #: CPU seconds (user + system) the kibitz process used: the machine-load-independent cost.
    cpu_seconds: float = 0.0


def parse_match_json(stdout):
    """(games, wins, draws, losses) from the JSON line `kibitz match --json` printed.

    Accepts the contract keys (`wins`, ...) and the older short keys (`w`, ...). `games` is
    W+D+L, the games that count (the statistics are over outcomes)."""
    lines = [ln for ln in stdout.splitlines() if ln.lstrip().startswith("{")]
    if not lines:
        raise KibitzError(f"no JSON line in the output: {stdout[:200]!r}")
    try:
        r = json.loads(lines[-1])
        w = int(r["wins"] if "wins" in r else r["w"])
        d = int(r["draws"] if "draws" in r else r["d"])
        l = int(r["losses"] if "losses" in r else r["l"])
    except (ValueError, KeyError, TypeError) as e:
        raise KibitzError(f"unreadable match JSON {lines[-1][:200]!r}: {e}") from e
    if min(w, d, l) < 0:
        raise KibitzError(f"negative counts in match JSON {lines[-1][:200]!r}")
    return w + d + l, w, d, l


def run_batch(job):
    """Plays one batch in a subprocess and returns its BatchResult. Runs on a Dask worker
    (or in-process); the binary is $KIBITZ_BIN of the worker if set, else the job's path."""
    exe = os.environ.get(ENV_BINARY) or job.exe
    cmd = job.command(exe)
    before = _children_cpu()
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, check=False)
    except OSError as e:
        raise KibitzError(f"cannot run {exe} on {socket.gethostname()}: {e} "
                          f"(install kibitz there or set {ENV_BINARY})") from e
    cpu = _children_cpu() - before
    if out.returncode != 0:
        err = out.stderr.strip().splitlines()
        first = err[0] if err else f"exit code {out.returncode}"
        raise KibitzError(f"{' '.join(cmd)}: {first}")
    games, w, d, l = parse_match_json(out.stdout)
    return BatchResult(job.index, job.stream, job.seed, games, w, d, l, os.getpid(), cpu)


def _children_cpu():
    """CPU seconds of this process's finished children (exact per batch when a worker runs
    one batch at a time, as with `--nthreads 1`); 0 where `resource` does not exist."""
    try:
        import resource
    except ImportError:
        return 0.0
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


@dataclasses.dataclass(frozen=True)
class Param:
    """One tunable parameter and the range a tuner may explore."""

    name: str
    default: float
    min: float
    max: float
    step: float

    @property
    def integer(self):
        """Whole-number parameter (whole step and bounds), passed to kibitz rounded."""
        return all(float(v).is_integer() for v in (self.step, self.min, self.max))

    def clamp(self, v):
        """`v` limited to [min, max]."""
        return min(self.max, max(self.min, v))

    def format(self, v):
        """`v` as it goes into a player spec."""
        if self.integer:
            return str(int(round(v)))
        return f"{v:.6g}"


def engine_params(exe, game):
    """The engine's parameter list from `kibitz <game> params --json`, or None when the binary
    does not have that command (then ranges come from `--param name:min:max:step`)."""
    try:
        out = subprocess.run([exe, game, "params", "--json"], capture_output=True, text=True,
                             check=False, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    try:
        rows = json.loads(out.stdout.strip().splitlines()[-1])
        return {r["name"]: Param(r["name"], float(r["default"]), float(r["min"]),
                                 float(r["max"]), float(r["step"])) for r in rows}
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def spec_with(base, params, values):
    """Player spec `base` with `param.NAME=VALUE` appended for every parameter."""
    if not params:
        return base
    extra = ",".join(f"param.{p.name}={p.format(values[p.name])}" for p in params)
    sep = "," if ":" in base else ":"
    return base + sep + extra
