#!/bin/sh
# Side-by-side node rate: alternates the bench of two binaries ROUNDS times and compares CPU
# time (perf stat task-clock; on a loaded machine wall time mostly measures the other users).
# Same node count = same work, so the ratio of CPU times is the speed ratio.
# Usage: tuning/nps_compare.sh OLD_KIBITZ NEW_KIBITZ [ROUNDS] [ENGINE]
#   ENGINE piranhas (default): `kibitz piranhas bench`; any other engine of `kibitz bench`
#   (connect4, maumau, koehandel, madn): `kibitz bench --only ENGINE` (for maumau 32,000
#   ISMCTS iterations, so iterations/s = 32,000 × ROUNDS / total CPU).
old=$1; new=$2; rounds=${3:-5}; engine=${4:-piranhas}
if [ "$engine" = piranhas ]; then args="piranhas bench"; else args="bench --only $engine"; fi
i=0; to=0; tn=0
# shellcheck disable=SC2086 # $args is meant to split into words
cpu() { perf stat -x, -e task-clock "$1" $args 2>&1 >/dev/null | awk -F, '/task-clock/{print $1/1000}'; }
# shellcheck disable=SC2086
nodes() { "$1" $args | awk '/^piranhas bench:/{print $3} /bench signature/{print $NF}'; }
while [ $i -lt $rounds ]; do
  a=$(cpu "$old"); b=$(cpu "$new")
  echo "round $i: old ${a} s CPU, new ${b} s CPU"
  to=$(echo "$to + $a" | bc -l); tn=$(echo "$tn + $b" | bc -l)
  i=$((i+1))
done
echo "nodes: old $(nodes "$old") new $(nodes "$new")"
echo "total CPU old ${to} s, new ${tn} s, speed ratio new/old = $(echo "$to / $tn" | bc -l | cut -c1-5)"
