"""SPRT and SPSA against the real kibitz binary on a 2-worker LocalCluster, compared with the
same runs played in-process without Dask (same seed ⇒ same result)."""

import pytest

from kibitz_tuning.backend import DaskBackend, SerialBackend
from kibitz_tuning.kibitz import GAMES, KibitzError, Param, engine_params
from kibitz_tuning.spsa import SpsaConfig, run_spsa
from kibitz_tuning.sprt import SprtConfig, run_sprt

from conftest import SPECS


def quiet(_line):
    """Drops the progress lines."""


def tiny_sprt(exe, interface, game, seed=7):
    strong, weak, *_ = SPECS[game]
    return SprtConfig(game=game, base=weak, new=strong, exe=exe, interface=interface,
                      elo0=0, elo1=100, batch_games=2, max_games=40, seed=seed)


@pytest.mark.parametrize("game", GAMES)
def test_tiny_sprt_distributed_equals_in_process(client, exe, interface, games, game):
    if game not in games:
        pytest.skip(f"this kibitz has no `match {game} --json` yet")
    cfg = tiny_sprt(exe, interface, game)
    dist = run_sprt(cfg, DaskBackend(client), out=quiet)
    local = run_sprt(cfg, SerialBackend(), out=quiet)
    # A fixed-budget player against a random one: never H0; in Piranhas H1 within 40 games.
    assert dist.verdict != "H0"
    if game == "piranhas":
        assert dist.verdict == "H1" and dist.llr >= dist.upper
        assert len(dist.counted) < cfg.max_games // cfg.batch_games
    assert dist.counted == list(range(len(dist.counted))) and dist.duplicates == 0
    assert (dist.wins, dist.draws, dist.losses, dist.counted, dist.llr) == \
        (local.wins, local.draws, local.losses, local.counted, local.llr)


def test_another_seed_plays_other_games(client, exe, interface):
    game = "piranhas"
    strong = SPECS[game][0]
    cfgs = [SprtConfig(game=game, base=strong, new=strong.replace("300", "200"), exe=exe,
                       interface=interface, batch_games=2, max_games=4, seed=s)
            for s in (1, 2)]
    seen = []
    for cfg in cfgs:
        per_batch = []
        run_sprt(cfg, DaskBackend(client), out=quiet,
                 on_count=lambda r, _b: per_batch.append((r.seed, r.wins, r.draws, r.losses)))
        seen.append(per_batch)
    assert len(seen[0]) == len(seen[1]) == 2
    assert {s for s, *_ in seen[0]}.isdisjoint({s for s, *_ in seen[1]})


def test_bad_spec_stops_the_run_with_the_kibitz_message(client, exe, interface):
    strong = SPECS["piranhas"][0]
    cfg = SprtConfig(game="piranhas", base=strong, new=strong + ",param.no_such_param=1",
                     exe=exe, interface=interface, batch_games=2, max_games=20)
    for backend in (DaskBackend(client), SerialBackend()):
        with pytest.raises(KibitzError, match="no_such_param"):
            run_sprt(cfg, backend, out=quiet)


def spsa_cfg(exe, interface, csv_path, iterations, resume=False):
    _, _, base, param = SPECS["piranhas"]
    name, lo, hi, step = param.split(":")
    p = Param(name, 40.0, float(lo), float(hi), float(step))
    return SpsaConfig(game="piranhas", spec=base, params=[p], start={name: 40.0}, exe=exe,
                      csv_path=str(csv_path), interface=interface, iterations=iterations,
                      batches=2, batch_games=2, seed=3, resume=resume)


def test_tiny_spsa_distributed_equals_in_process_and_resumes(client, exe, interface, tmp_path):
    dist_csv, local_csv, resumed_csv = (tmp_path / n for n in ("d.csv", "l.csv", "r.csv"))
    theta = run_spsa(spsa_cfg(exe, interface, dist_csv, 2), DaskBackend(client), out=quiet)
    run_spsa(spsa_cfg(exe, interface, local_csv, 2), SerialBackend(), out=quiet)
    rows = dist_csv.read_text().splitlines()
    assert rows[0] == "iteration,run_seed,games,wins,draws,losses,result,fish"
    assert [r.split(",")[0] for r in rows[1:]] == ["0", "1", "2"]
    assert all(r.split(",")[2] == "4" for r in rows[2:])  # 2 batches x 2 games, none lost
    assert 0 <= theta["fish"] <= 100
    assert dist_csv.read_text() == local_csv.read_text()
    # Stop after one iteration, resume to two: the same trajectory as the straight run.
    run_spsa(spsa_cfg(exe, interface, resumed_csv, 1), SerialBackend(), out=quiet)
    run_spsa(spsa_cfg(exe, interface, resumed_csv, 2, resume=True), DaskBackend(client),
             out=quiet)
    assert resumed_csv.read_text() == local_csv.read_text()


@pytest.mark.parametrize("game", GAMES)
def test_one_spsa_iteration_per_game(client, exe, interface, games, game, tmp_path):
    """One parameter per game tuned for one iteration (its range from `kibitz <game> params
    --json` when the binary lists it, else SPECS'): the engine accepts the perturbed specs
    and θ moves at most one step."""
    if game not in games:
        pytest.skip(f"this kibitz has no `match {game} --json` yet")
    _, _, base, explicit = SPECS[game]
    if base is None:
        pytest.skip(f"no tunable parameter of {game} known to the tests")
    name, lo, hi, step = explicit.split(":")
    listing = engine_params(exe, game) or {}
    p = listing.get(name) or Param(name, (float(lo) + float(hi)) / 2, float(lo), float(hi),
                                   float(step))
    cfg = SpsaConfig(game=game, spec=base, params=[p], start={p.name: p.default}, exe=exe,
                     csv_path=str(tmp_path / "t.csv"), interface=interface, iterations=1,
                     batches=2, batch_games=2, seed=5)
    theta = run_spsa(cfg, DaskBackend(client), out=quiet)
    assert abs(theta[p.name] - p.default) <= p.step * 1.0001 + abs(p.default) * 1e-9
    assert p.min <= theta[p.name] <= p.max
