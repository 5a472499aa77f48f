#!/bin/sh
# Side-by-side ISMCTS speed: `kibitz bench --only maumau` (8 deals x 4000 iterations = 32,000
# iterations) alternating OLD / NEW. Prints per binary the bench's own time (the search only)
# and the user CPU of the whole process (start-up included).
OLD=${OLD:?set OLD to the old kibitz binary (built in its own target dir)}
NEW=${NEW:-target/release/kibitz}
for i in $(seq 1 ${RUNS:-15}); do
  for b in "$OLD" "$NEW"; do
    # "BIN BENCH_SECONDS USER_SECONDS": the bench's time column, then /usr/bin/time's user CPU.
    /usr/bin/time -f "%U" -o /tmp/maumau_speed.$$ nice -n 10 "$b" bench --only maumau 2>/dev/null |
      grep '│ maumau' | awk -F'┆' -v b="$b" '{gsub(/ /, "", $4); printf "%s %s ", b, $4}'
    cat /tmp/maumau_speed.$$
  done
done | awk '{t[$1] += $2; u[$1] += $3; n[$1]++}
  END {for (b in t) printf "%s runs %d bench %.3f s -> %.0f iterations/s; user %.2f s -> %.0f iterations/s\n",
    b, n[b], t[b], n[b] * 32000 / t[b], u[b], n[b] * 32000 / u[b]}'
rm -f /tmp/maumau_speed.$$
