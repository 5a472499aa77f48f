#!/bin/sh
# Side-by-side node rate: alternates `kibitz piranhas bench` of two binaries ROUNDS times and
# compares CPU time (perf stat task-clock; on a loaded machine wall time mostly measures the
# other users). Same node count = same work, so the ratio of CPU times is the speed ratio.
# Usage: tuning/nps_compare.sh OLD_KIBITZ NEW_KIBITZ [ROUNDS]
old=$1; new=$2; rounds=${3:-5}
i=0; to=0; tn=0
cpu() { perf stat -x, -e task-clock "$1" piranhas bench 2>&1 >/dev/null | awk -F, '/task-clock/{print $1/1000}'; }
while [ $i -lt $rounds ]; do
  a=$(cpu "$old"); b=$(cpu "$new")
  echo "round $i: old ${a} s CPU, new ${b} s CPU"
  to=$(echo "$to + $a" | bc -l); tn=$(echo "$tn + $b" | bc -l)
  i=$((i+1))
done
echo "nodes: old $("$old" piranhas bench | awk '{print $3}') new $("$new" piranhas bench | awk '{print $3}')"
echo "total CPU old ${to} s, new ${tn} s, speed ratio new/old = $(echo "$to / $tn" | bc -l | cut -c1-5)"
