#!/usr/bin/env bash
# Tuning CI: install the pinned Python dependencies with pip (tuning/requirements.txt: dask,
# distributed and pytest, which pull in their own dependencies such as tornado, cloudpickle,
# msgpack, psutil, toolz), build target/release/kibitz if it is missing, and run the pytest
# suite of tuning/ against that real binary (2-worker Dask LocalClusters; ~1-2 min on 2 cores).
# Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
"$PY" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore -r tuning/requirements.txt
if [ ! -x "${CARGO_TARGET_DIR:-target}/release/kibitz" ]; then
  cargo build --release --bin kibitz
fi
cd tuning
exec "$PY" -m pytest -q "$@"
