#!/bin/sh
# Side-by-side ISMCTS speed (the name earlier logs use): tuning/nps_compare.sh on
# `kibitz bench --only maumau` (32,000 iterations a run), OLD / NEW alternating RUNS times.
exec "$(dirname "$0")/../nps_compare.sh" "${OLD:?set OLD to the old kibitz binary}" \
  "${NEW:-target/release/kibitz}" "${RUNS:-15}" maumau
