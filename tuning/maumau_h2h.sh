#!/usr/bin/env bash
# Mau-Mau head to head of two real maumau-bot builds over the real protocol, one
# maumau-server per game. `kibitz match maumau` plays both sides with one binary; this plays
# an old build against a new one. Each deal is played twice with the seats swapped (the first
# bot to connect gets seat 0), so the deal's luck cancels. Runs one game at a time; start two
# with their own ports and deal ranges to fill a 2-core machine. `touch RECORDS/STOP` ends it
# after the current game.
#
# Usage: tuning/maumau_h2h.sh NEW_BIN_DIR OLD_BIN_DIR FIRST_DEAL LAST_DEAL PORT RECORDS [TIME_MS]
#   NEW_BIN_DIR: holds maumau-bot and maumau-server (the server is the new build's)
#   OLD_BIN_DIR: holds the old maumau-bot
#   PORT:        first of 40 ports used in turn, so a server still closing never blocks the next
#                (pick one below 32768: above it Linux hands ports to outgoing sockets; a
#                server that finds its port taken is started again on the next one)
#   RECORDS:     folder for the servers' records (RECORDS/maumau.jsonl) and the processes' stderr
#   TIME_MS:     the bots' move budget (`maumau-bot --time-ms`: soft half of it by the one clock
#                rule; before the clock rule it was the soft budget itself, so old runs at T
#                compare with runs at 2T now)
#   env NEW_NAME, OLD_NAME: the sides' names in the records (default new, old)
#   env NEW_ARGS, OLD_ARGS: more maumau-bot flags per side, e.g. NEW_ARGS="--strategy heuristic"
#                           to calibrate a build against a fixed bot
# Score: kibitz score RECORDS/maumau.jsonl --a new --sprt 0,30
set -u
if [ $# -lt 6 ]; then
  sed -n '9,19p' "$0" >&2
  exit 2
fi
new=$1; old=$2; first=$3; last=$4; base=$5; rec=$6; ms=${7:-200}
nn=${NEW_NAME:-new}; on=${OLD_NAME:-old}
mkdir -p "$rec"
i=0
for d in $(seq "$first" "$last"); do
  for lead in new old; do
    tries=0
    while :; do
      port=$((base + i % 40)); i=$((i + 1))
      "$new/maumau-server" --port "$port" --seed "$d" --games 1 --records "$rec" \
        --log-level warn 2>>"$rec/server.err" & s=$!
      sleep 0.2
      kill -0 "$s" 2>/dev/null && break
      # The server is gone already: most likely its port was taken. Try the next one.
      tries=$((tries + 1))
      if [ "$tries" -ge 40 ]; then
        echo "maumau_h2h: no server would start on ports $base-$((base + 39))" >&2
        exit 1
      fi
    done
    if [ "$lead" = new ]; then
      a=$new; an=$nn; aa=${NEW_ARGS:-}; b=$old; bn=$on; ba=${OLD_ARGS:-}
    else
      a=$old; an=$on; aa=${OLD_ARGS:-}; b=$new; bn=$nn; ba=${NEW_ARGS:-}
    fi
    # shellcheck disable=SC2086 # the extra flags are meant to split into words
    "$a/maumau-bot" --port "$port" --name "$an" --exact-name --time-ms "$ms" $aa \
      >/dev/null 2>>"$rec/bots.err" & p=$!
    sleep 0.1
    # shellcheck disable=SC2086
    "$b/maumau-bot" --port "$port" --name "$bn" --exact-name --time-ms "$ms" $ba \
      >/dev/null 2>>"$rec/bots.err" & q=$!
    wait "$p" "$q" "$s"
    [ -e "$rec/STOP" ] && exit 0
  done
done
exit 0
