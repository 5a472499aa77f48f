#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for SECONDS each and prints one table row per
# target: executions, executions/s, corpus, crashes, property violations, hangs, slowest input.
# Failing inputs go to fuzz/artifacts/. Not part of CI (the short version runs in cargo test).
#   fuzz/run.sh SECONDS [TARGET...]          targets one after another
#   PARALLEL=1 fuzz/run.sh SECONDS           all targets at once, each in its own nice'd process
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
cargo build --release -p kibitz-fuzz --bin kibitz-fuzz
bin="${CARGO_TARGET_DIR:-target}/release/kibitz-fuzz"
if [ "${PARALLEL:-0}" = 1 ]; then
  names=("$@")
  [ ${#names[@]} -eq 0 ] && names=(connect4-udp piranhas-xml maumau-json koehandel-query wuerfel-dice connect4-position)
  pids=()
  for t in "${names[@]}"; do
    nice -n 10 "$bin" --seconds "$secs" "$t" > "fuzz/artifacts-$t.log" 2>&1 &
    pids+=($!)
  done
  rc=0
  for p in "${pids[@]}"; do wait "$p" || rc=1; done
  head -1 "fuzz/artifacts-${names[0]}.log"
  for t in "${names[@]}"; do tail -n +2 "fuzz/artifacts-$t.log"; rm -f "fuzz/artifacts-$t.log"; done
  exit $rc
fi
exec nice -n 10 "$bin" --seconds "$secs" "$@"
