"""Shared fixtures: the real kibitz binary, its match interface, tiny fixed-node player specs
per game, and a 2-worker Dask LocalCluster shared by a test module."""

import logging

import pytest

from kibitz_tuning.kibitz import detect_interface, find_binary, supported_games

#: Per game: a tiny fixed-budget player, a clearly weaker player, and for SPSA a base spec with
#: one parameter of it given an explicit range (name:min:max:step), used when the binary has no
#: `kibitz <game> params --json`. Fixed node/iteration budgets make games a function of the
#: seed alone.
SPECS = {
    "piranhas": ("search:nodes=300", "random", "search:nodes=300", "fish:0:100:8"),
    "connect4": ("search:depth=4", "random", "engine:nodes=2000", "threat:0:300:10"),
    "maumau": ("ismcts:iterations=50", "random", "ismcts:iterations=50", "c:0.1:2:0.1"),
    "koehandel": ("strong:worlds=1", "random", "strong", "worlds:1:3:1"),
}


@pytest.fixture(scope="session")
def exe():
    """Path of target/release/kibitz (built if missing)."""
    return find_binary()


@pytest.fixture(scope="session")
def interface(exe):
    """"arena" (unified `kibitz match`) or "legacy" (`kibitz piranhas match`)."""
    return detect_interface(exe)


@pytest.fixture(scope="session")
def games(exe, interface):
    """Games this binary plays with `--json`."""
    return [g for g in supported_games(exe, interface) if g in SPECS]


@pytest.fixture(scope="module")
def client():
    """A Dask client on a LocalCluster with 2 single-threaded worker processes."""
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()
