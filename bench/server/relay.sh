#!/usr/bin/env bash
# Usage: bench/server/relay.sh BUILD_DIR   (SERVER_BIN=PATH runs another hisha-server)
# The relay benchmark of issue 22: the server's CPU per relayed move at ply ~10 (plies 0-19)
# and ply ~250 (plies 240-259) of RELAY_GAMES (default 20) games, with 1 and 50 watchers of
# each kind (WebSocket, text protocol), RELAY_RUNS times each (default 3); prints every run and
# the medians of cpu_us_per_move (the whole server process) and loop_us_per_move (the event
# loop). Not a pass/fail test: it fails only when a run fails (a move refused, a watcher
# missing one).
set -euo pipefail

source "$(dirname "$0")/../lib.sh"
(( $# == 1 )) || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
BENCH=$(bench_binary "relay bench" "$1" relay_bench)
RUNS="${RELAY_RUNS:-3}"
GAMES="${RELAY_GAMES:-20}"

echo "== relay: CPU per relayed move (${SERVER_BIN:-$1/bin/hisha-server}), $GAMES games, $RUNS runs each"
echo "load before: $(loadavg)"
for kind in ws text; do
    for start in 0 240; do
        for watchers in 1 50; do
            key="$kind-$start-$watchers"
            for ((i = 1; i <= RUNS; ++i)); do
                out=$("$BENCH" "${SERVER_ARG[@]}" --games "$GAMES" --start-ply "$start" --window 20 \
                    --watchers "$watchers" --watcher-kind "$kind")
                echo "run $i: $out"
                sed -n 's/.*cpu_us_per_move=\([0-9.]*\) loop_us_per_move=\([0-9.]*\).*/\1 \2/p' <<<"$out" >>"$tmp/$key"
            done
        done
    done
done
echo
printf '%-5s %-10s %-9s %16s %17s\n' kind ply watchers cpu_us_per_move loop_us_per_move
for kind in ws text; do
    for start in 0 240; do
        for watchers in 1 50; do
            key="$kind-$start-$watchers"
            printf '%-5s %-10s %-9s %16s %17s\n' "$kind" "$((start + 10))" "$watchers" \
                "$(cut -d' ' -f1 "$tmp/$key" | median)" "$(cut -d' ' -f2 "$tmp/$key" | median)"
        done
    done
done
echo "load after: $(loadavg)"
