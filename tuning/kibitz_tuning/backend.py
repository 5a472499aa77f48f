"""Where batches run: on a Dask cluster (local or remote) or in-process, one after another.

Both backends offer the same three operations to the SPRT and SPSA drivers: `submit(job)`,
`next_result()` (blocks until some submitted batch is done, in completion order) and
`cancel_pending()`. Counting each batch once is the drivers' job (keyed by batch index); the
Dask backend's job is that every submitted batch eventually yields exactly one result:

* a worker that dies mid-batch: the scheduler notices the closed connection and reruns the
  batch elsewhere; if it keeps dying (Dask's `allowed-failures`, then `KilledWorker`), the
  batch is resubmitted under a new key up to `retries` times, with the same seed;
* a deterministic failure (bad player spec, unknown parameter: `KibitzError`) stops the run.
"""

import contextlib
import logging
import os
import shutil
import tempfile
import time
import uuid
from pathlib import Path

from .kibitz import KibitzError, run_batch


class SerialBackend:
    """Runs each batch in this process when its result is asked for, in submission order.

    No Dask at all: the reference the distributed runs are compared with."""

    def __init__(self):
        self._queue = []
        #: Number of batches run again after a lost worker (always 0 here).
        self.resubmitted = 0

    @property
    def slots(self):
        """Batches that run at the same time."""
        return 1

    def submit(self, job):
        """Queues `job`."""
        self._queue.append(job)

    def next_result(self):
        """Plays the oldest queued batch; None when nothing is queued."""
        if not self._queue:
            return None
        return run_batch(self._queue.pop(0))

    def cancel_pending(self):
        """Drops every queued batch."""
        self._queue.clear()


class DaskBackend:
    """Submits batches as Dask tasks (`run_batch`) and streams results back with
    `distributed.as_completed`."""

    def __init__(self, client, retries=3):
        from distributed import as_completed

        self.client = client
        self.retries = retries
        self._as_completed = as_completed
        self._ac = as_completed()
        self._pending = {}
        self._tag = uuid.uuid4().hex[:8]
        self._slots, self._slots_at = 1, float("-inf")
        #: Number of batches resubmitted after Dask gave up on them (KilledWorker, lost data).
        self.resubmitted = 0

    @property
    def slots(self):
        """Batches that run at the same time: the cluster's worker threads (asked from the
        scheduler at most once a second, as workers may come and go)."""
        now = time.monotonic()
        if now - self._slots_at > 1.0:
            self._slots = max(1, sum(self.client.nthreads().values()))
            self._slots_at = now
        return self._slots

    def submit(self, job, attempt=0):
        """Submits `job` as one task, keyed by stream, index and attempt."""
        key = f"kibitz-{job.stream}-b{job.index}-{self._tag}-t{attempt}"
        fut = self.client.submit(run_batch, job, key=key, pure=False)
        self._pending[fut.key] = (fut, job, attempt)
        self._ac.add(fut)

    def next_result(self):
        """The next finished batch (resubmitting lost ones); None when nothing is pending."""
        from distributed import KilledWorker

        while self._pending:
            fut = next(self._ac)
            entry = self._pending.pop(fut.key, None)
            if entry is None:
                continue  # cancelled earlier
            _, job, attempt = entry
            if fut.status == "finished":
                return fut.result()
            exc = fut.exception() if fut.status == "error" else None
            lost = exc is None or isinstance(exc, (KilledWorker, OSError))
            if not lost or attempt >= self.retries:
                self.cancel_pending()
                raise exc or RuntimeError(
                    f"batch {job.stream}/{job.index} lost {attempt + 1} times")
            # Lost (KilledWorker, connection trouble, cancelled by a restart): play it again.
            self.resubmitted += 1
            self.submit(job, attempt + 1)
        return None

    def cancel_pending(self):
        """Cancels every batch not yet returned (running subprocesses finish on their own)."""
        futures = [f for f, _, _ in self._pending.values()]
        self._pending.clear()
        self._ac = self._as_completed()
        if futures:
            self.client.cancel(futures)


def upload_package(client):
    """Ships this package to every worker (also ones that join later), so a remote cluster
    needs only Python with dask/distributed and the kibitz binary."""
    src = Path(__file__).resolve().parent
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "kibitz_tuning"
        shutil.copytree(src, base / "kibitz_tuning",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        archive = shutil.make_archive(str(base), "zip", root_dir=base)
        client.upload_file(archive)


@contextlib.contextmanager
def dask_client(scheduler=None, workers=None):
    """A Dask client: connected to `scheduler` (tcp://HOST:8786) if given, else to a new
    LocalCluster with `workers` single-threaded worker processes (default: one per core)."""
    from distributed import Client, LocalCluster

    if scheduler:
        client = Client(scheduler)
        try:
            upload_package(client)
            yield client
        finally:
            client.close()
        return
    n = workers or os.cpu_count() or 1
    cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                           dashboard_address=None, silence_logs=logging.ERROR)
    client = Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


@contextlib.contextmanager
def make_backend(scheduler=None, workers=None, serial=False):
    """The backend the command line asks for: serial (in-process), a remote cluster, or a
    LocalCluster."""
    if serial:
        yield SerialBackend()
        return
    with dask_client(scheduler, workers) as client:
        yield DaskBackend(client)
