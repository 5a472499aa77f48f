#!/bin/sh
# Side-by-side ISMCTS speed: `kibitz bench --only maumau` (8 deals x 4000 iterations = 32,000
# iterations) alternating baseline / new, user CPU seconds per run.
OLD=${OLD:-/work/baseline/bin/kibitz}
NEW=${NEW:-/work/wt/mau/target/kibitz-speed}
for i in $(seq 1 ${RUNS:-15}); do
  for b in "$OLD" "$NEW"; do
    /usr/bin/time -f "$b %U %e" nice -n 10 "$b" bench --only maumau 2>&1 >/dev/null | tail -1
  done
done | awk '{u[$1]+=$2; e[$1]+=$3; n[$1]++} END {for (b in u) printf "%s runs %d user %.2f s wall %.2f s -> %.0f iterations/s (user)\n", b, n[b], u[b], e[b], n[b]*32000/u[b]}'
