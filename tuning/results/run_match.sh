#!/bin/sh
# usage: run_match.sh LABEL GAMES A B  -> appends the result table to maumau_matches.log
BIN=${BIN:-/work/wt/mau/target/kibitz-m1}
echo "### $1  ($(date +%H:%M))  A=$3  B=$4" >> /work/wt/mau/tuning/results/maumau_matches.log
nice -n 10 $BIN maumau match --games $2 --a "$3" --b "$4" --iterations 100000000 --threads ${THREADS:-2} --seed ${SEED:-1} --players ${PLAYERS:-2} --elo1 ${ELO1:-50} 2>> /work/wt/mau/tuning/results/progress/$(echo "$1" | tr -c "a-zA-Z0-9\n" "_").log >> /work/wt/mau/tuning/results/maumau_matches.log
