#!/usr/bin/env bash
# Tuning CI: make a virtual environment (PEP 668: Debian's own Python refuses a system-wide pip
# install), install the pinned Python dependencies into it (tuning/requirements.txt: dask,
# distributed and pytest, which pull in their own dependencies such as tornado, cloudpickle,
# msgpack, psutil, toolz), build target/release/kibitz if it is missing, and run the pytest suite
# of tuning/ against that real binary (2-worker Dask LocalClusters; ~1-2 min on 2 cores).
# Where `python3 -m venv` is missing (Debian without python3-venv) it is installed with apt-get
# when running as root, and the script says so. The venv lives in $TUNING_VENV (default
# target/tuning-venv) and is reused. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
VENV="${TUNING_VENV:-${CARGO_TARGET_DIR:-target}/tuning-venv}"
case "$VENV" in /*) ;; *) VENV="$PWD/$VENV" ;; esac
if [ ! -x "$VENV/bin/python" ]; then
  mkdir -p "$(dirname "$VENV")"
  if ! "$PY" -m venv "$VENV" >/dev/null 2>&1; then
    rm -rf "$VENV"
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "tuning/ci.sh: installing python3-venv (apt-get)"
      apt-get update -qq >/dev/null
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
      PY=/usr/bin/python3
      "$PY" -m venv "$VENV"
    else
      echo "tuning/ci.sh: error: '$PY -m venv' does not work; install python3-venv" >&2
      exit 1
    fi
  fi
  echo "tuning/ci.sh: made a virtual environment in $VENV ($("$VENV/bin/python" --version))"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r tuning/requirements.txt
if [ ! -x "${CARGO_TARGET_DIR:-target}/release/kibitz" ]; then
  cargo build --release --bin kibitz
fi
cd tuning
exec "$VENV/bin/python" -m pytest -q "$@"
