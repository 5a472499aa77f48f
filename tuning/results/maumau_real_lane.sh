#!/usr/bin/env bash
# An ISMCTS maumau-bot (200 ms per move) against one of main's fixed bots over the real
# protocol: one maumau-server per game, deals FIRST..LAST each played twice with the seats
# swapped.
# usage: maumau_real_lane.sh FIRST LAST PORT_BASE ISMCTS_BOT RECORD_DIR [STRATEGY]
# STRATEGY: the fixed bot's --strategy (heuristic unless given: greedy, first, random).
# BIN: the directory with maumau-server and the fixed bot's maumau-bot (main's build).
# Score: kibitz score RECORD_DIR/maumau.jsonl --a ismcts
bin=${BIN:-target/release}; first=$1; last=$2; base=$3; bot=$4; rec=$5; strat=${6:-heuristic}
mkdir -p "$rec"; i=0
for d in $(seq "$first" "$last"); do
  for lead in A B; do
    port=$((base + i % 40)); i=$((i + 1))
    "$bin/maumau-server" --port "$port" --seed "$d" --games 1 --records "$rec" --log-level warn 2>>"$rec/server.err" & s=$!
    sleep 0.2
    run_a() { "$bot" --port "$port" --name ismcts --exact-name --time-ms 200 >/dev/null 2>>"$rec/bots.err"; }
    run_b() { "$bin/maumau-bot" --port "$port" --name "$strat" --exact-name --strategy "$strat" >/dev/null 2>>"$rec/bots.err"; }
    if [ $lead = A ]; then run_a & p=$!; sleep 0.1; run_b & q=$!; else run_b & p=$!; sleep 0.1; run_a & q=$!; fi
    wait $p $q $s
  done
done
