"""A worker killed in the middle of a batch: the batch is played again elsewhere, no batch is
lost and none is counted twice, and the run's result is exactly the in-process one."""

import logging
import os
import time

import dask
import psutil
import pytest

from kibitz_tuning.backend import DaskBackend, SerialBackend
from kibitz_tuning.kibitz import derive_seed
from kibitz_tuning.sprt import SprtConfig, run_sprt

BATCHES = 6


def kill_a_busy_worker(client):
    """SIGKILLs a worker process while it is playing a batch; returns (pid, batch seed).

    The worker is frozen (SIGSTOP) before its kibitz child is inspected, so it cannot report
    that batch in between: if the child is still alive, the batch is certainly unfinished."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for pid in client.run(os.getpid).values():
            worker = psutil.Process(pid)
            worker.suspend()
            for child in worker.children():
                try:
                    cmd = child.cmdline()
                    alive = child.status() != psutil.STATUS_ZOMBIE
                except psutil.Error:
                    continue
                if alive and "match" in cmd and "--seed" in cmd:
                    worker.kill()
                    child.kill()  # the orphaned game would only finish unread
                    return pid, int(cmd[cmd.index("--seed") + 1])
            worker.resume()
    pytest.fail("no worker was seen playing a batch within 60 s")


def loss_cfg(exe, interface):
    """Bounds far out of reach: all BATCHES batches are played and counted."""
    return SprtConfig(game="piranhas", base="search:nodes=400",
                      new="search:nodes=400,param.fish=55", exe=exe, interface=interface,
                      alpha=1e-9, beta=1e-9, batch_games=2, max_games=2 * BATCHES, seed=11)


@pytest.fixture(scope="module")
def reference(exe, interface):
    """The batches of the run played in-process, by index."""
    batches = {}
    run_sprt(loss_cfg(exe, interface), SerialBackend(), out=lambda _: None,
             on_count=lambda r, _b: batches.setdefault(r.index, r))
    return batches


@pytest.mark.parametrize("allowed_failures", [None, 0],
                         ids=["dask-reschedules", "killedworker-resubmitted"])
def test_killed_worker_loses_no_batch_and_counts_none_twice(exe, interface, reference,
                                                            allowed_failures):
    from distributed import Client, LocalCluster

    cfg = loss_cfg(exe, interface)

    settings = {} if allowed_failures is None else \
        {"distributed.scheduler.allowed-failures": allowed_failures}
    seen, killed = {}, []

    def on_count(r, backend):
        assert r.index not in seen, f"batch {r.index} counted twice"
        seen[r.index] = r
        if not killed:
            killed.append(kill_a_busy_worker(backend.client))

    with dask.config.set(settings):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=logging.CRITICAL)
        client = Client(cluster)
        try:
            backend = DaskBackend(client)
            result = run_sprt(cfg, backend, out=lambda _: None, on_count=on_count)
        finally:
            client.close()
            cluster.close()

    (dead_pid, dead_seed), = killed
    index_of = {derive_seed(cfg.seed, "sprt", i): i for i in range(BATCHES)}
    lost = index_of[dead_seed]
    assert result.verdict == "inconclusive" and result.duplicates == 0
    assert result.counted == list(range(BATCHES))
    assert result.games == 2 * BATCHES
    # The lost batch was played again by another worker process, with its own seed.
    assert seen[lost].worker_pid != dead_pid and seen[lost].seed == dead_seed
    # Every batch, replayed or not, is exactly the in-process batch.
    key = lambda r: (r.seed, r.games, r.wins, r.draws, r.losses)
    assert {i: key(r) for i, r in seen.items()} == {i: key(r) for i, r in reference.items()}
    if allowed_failures == 0:
        assert backend.resubmitted >= 1  # KilledWorker came back and the backend resubmitted
