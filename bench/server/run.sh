#!/usr/bin/env bash
# Usage: bench/server/run.sh BUILD_DIR   (bench/run.sh runs it; SERVER_BENCH=0 there skips it)
# The load benchmark of issue 8: server_load_bench starts hisha-server (no engine bots, no log)
# on a temporary SQLite database and plays 200 concurrent real-time CSA games of SERVER_PLIES
# (default 250) random legal plies over 127.0.0.1 with scripted clients; all games start
# together once every client has logged in and agreed, and the moves phase is timed. Three
# loads, SERVER_RUNS times each (default 3) after a cold run, in turn:
#   closed  every client answers at once (a move always in flight in every game): the most
#           moves per second the server takes. Latency is then ~200 / throughput whatever the
#           server does (Little's law), so it is not the latency figure.
#   paced   the 200 games together offer SERVER_RATE moves/s (default 18000, 20x Floodgate's
#           ~900), as players on clocks do: the latency at that load. Floodgate's own figure
#           (median 16 ms, p99 123 ms at ~900 moves/s with 200 games) is of this kind.
#   paced, sync=normal   the same, with commits safe from a crash of the server (kill -9, the
#           durability test) but not of the machine: no fdatasync before a move is relayed.
# By default (full) a move is relayed only after the fdatasync of the write-ahead log that
# holds it, so latency includes this disk's fdatasync (printed first: fsync_probe).
# Each load runs first on a new database ("cold": its write-ahead log grows to its size,
# 64 MB, and every fdatasync also commits the file's new size to the file system's journal),
# then SERVER_RUNS times on that same database ("warm", as a server is once it has served a
# while or been restarted: the log file is kept at its size and overwritten). The summary
# line of each load is the median of the warm runs.
# Latency is from a move sent to the opponent receiving it. Each run also prints the CPU
# microseconds per move of the server's threads (loop, sender, sync, checkpoint) and of the
# clients: on a busy machine they say more than wall-clock figures.
# Exits 1 when a run fails (errors, lost moves), never because of the figures.
#
# bench/server/run.sh BUILD_DIR attack   runs the attack mode instead (issue 17): SERVER_ATTACK_GAMES
# (200) honest paced games of SERVER_ATTACK_PLIES (200) plies at SERVER_ATTACK_RATE (18000, 20x
# Floodgate) moves/s, each pair playing games in turn (CSA x1 %%GAME) for about
# SERVER_ATTACK_SECONDS (60) at that rate; quiet, then under attack from 127.0.0.1 for the whole
# moves phase: SERVER_ATTACKERS (20) clients flooding wrong-password logins (text, CSA, HTTP),
# registrations (text, HTTP) and tsume problems without a login, SERVER_TSUME_ACCOUNTS (12)
# accounts flooding tsume problems logged in (two connections each), SERVER_SLOW (100) slow
# connections on each of the text, CSA and HTTP ports (a byte every 3 s, never a line's or a
# header's end), and one connection of each oversized or garbage kind (an endless line on text
# and CSA, a 1 MiB header, a 100 MiB body, WebSocket frames too big / of a bad opcode / unmasked,
# random bytes on each port), each opened again when the server closes it. The real argon2id
# cost (--password-cost interactive), the server's default limits, sync=normal (the figure is
# the event loop's, not the disk's). Alternately, SERVER_RUNS times each; the summary gives the
# medians, the rate reached, honest moves lost or misordered, and each run's answers by kind and
# outcome, the slow connections' holding times and the server's RSS before, at the peak of and
# after the attack.
#
# bench/server/run.sh BUILD_DIR attack-kill   the same attack with sync=full (a move is relayed
# only once durable), and SERVER_KILL_AFTER (20) s into the moves the server is killed with
# SIGKILL; it is started again on the same database and every move the honest clients saw
# acknowledged (echoed to its mover or relayed to the opponent) must be in its game's stored
# record, in order. SERVER_RUNS times.
#
# bench/server/run.sh BUILD_DIR flood   runs the flood mode (issue 23): SERVER_FLOOD_GAMES (50)
# paced CSA games of SERVER_FLOOD_PLIES (120) plies at SERVER_FLOOD_RATE (1000) moves/s, quiet,
# then while SERVER_FLOODERS (1) logged-in text users each paste 500 commands at once (WHO,
# GAMES, HELP -n PROHIBITED, B 1, M -n 1, STAT, N, USER flood*), and again as soon as every one
# is answered; under the server's default limit of 20 commands a second a connection, then with
# no limit (--max-commands-per-second 0, the flood as fast as the event loop answers it),
# SERVER_RUNS times each, sync=normal. The summary gives the games' median and p99 latency and
# moves lost, and the flood's commands answered (every one must be) and their rate: how much
# one connection's flood delays the other connections' moves.
# SERVER_BIN=PATH runs another hisha-server (e.g. one built before the change).
set -euo pipefail

if (( $# < 1 || $# > 2 )) || [[ $# == 2 && $2 != attack && $2 != attack-kill && $2 != flood ]]; then
    echo "usage: $0 BUILD_DIR [attack|attack-kill|flood]" >&2
    exit 2
fi
source "$(dirname "$0")/../lib.sh"
BENCH=$(bench_binary "server bench" "$1" server_load_bench)
RUNS="${SERVER_RUNS:-3}"
RATE="${SERVER_RATE:-18000}"
PLIES="${SERVER_PLIES:-250}"
failed=0

if [[ $# == 2 && $2 == flood ]]; then
    games="${SERVER_FLOOD_GAMES:-50}" plies="${SERVER_FLOOD_PLIES:-120}" rate="${SERVER_FLOOD_RATE:-1000}"
    flooders="${SERVER_FLOODERS:-1}"
    echo "== server under a command flood: $games paced games at $rate moves/s, $flooders flooding text connection(s) (${SERVER_BIN:-$1/bin/hisha-server})"
    echo "load before: $(loadavg)"
    for ((i = 1; i <= RUNS; ++i)); do
        for mode in "quiet 0 20" "flood $flooders 20" "quiet 0 0" "flood $flooders 0"; do
            read -r label n limit <<<"$mode"
            if out=$("$BENCH" "${SERVER_ARG[@]}" --games "$games" --plies "$plies" --rate "$rate" --sync normal \
                --commands-per-second "$limit" --flood "$n"); then
                report_run "$label limit=$limit run $i" "$out"
                sed -n 's/.*moves=\([0-9]*\) errors=\([0-9]*\).* median_ms=\([0-9.]*\) p99_ms=\([0-9.]*\) .*/\1 \2 \3 \4/p' <<<"$out" >>"$tmp/$label-$limit"
                sed -n 's/.*answered=\([0-9]*\) lost=\([0-9]*\) commands_per_s=\([0-9]*\).*/\1 \2 \3/p' <<<"$out" >>"$tmp/$label-$limit.flood"
            else
                echo "$label limit=$limit run $i: FAILED: $out" >&2
                failed=1
            fi
        done
    done
    for limit in 20 0; do
        for label in quiet flood; do
            f="$tmp/$label-$limit"
            [[ -s "$f" ]] || continue
            line="server: limit=$limit/s $label: median of $(wc -l <"$f") runs: median_ms=$(cut -d' ' -f3 "$f" | median)"
            line+=" p99_ms=$(cut -d' ' -f4 "$f" | median) moves=$(sum 1 "$f")"
            line+=" of $((games * plies * $(wc -l <"$f"))) errors=$(sum 2 "$f")"
            if [[ -s "$f.flood" ]]; then
                line+=" flood_answered=$(sum 1 "$f.flood")"
                line+=" flood_lost=$(sum 2 "$f.flood")"
                line+=" flood_commands_per_s=$(cut -d' ' -f3 "$f.flood" | median)"
            fi
            echo "$line"
        done
    done
    echo "goal: the games' p99 under the flood within 2x of the quiet run's, no move and no command lost"
    echo "load after: $(loadavg)"
    exit "$failed"
fi

if [[ $# == 2 ]]; then
    games="${SERVER_ATTACK_GAMES:-200}" plies="${SERVER_ATTACK_PLIES:-200}" rate="${SERVER_ATTACK_RATE:-18000}"
    seconds="${SERVER_ATTACK_SECONDS:-60}" attackers="${SERVER_ATTACKERS:-20}"
    rounds=$(( (seconds * rate + games * plies - 1) / (games * plies) ))
    attack=(--attack "$attackers" --tsume-accounts "${SERVER_TSUME_ACCOUNTS:-12}" --slow "${SERVER_SLOW:-100}" --probes 1)
    common=(--games "$games" --plies "$plies" --rounds "$rounds" --rate "$rate" --password-cost interactive
        --commands-per-second 20)
    if [[ $2 == attack-kill ]]; then
        after="${SERVER_KILL_AFTER:-20}"
        echo "== server killed (SIGKILL) under attack after $after s: $games paced games at $rate moves/s, sync=full (${SERVER_BIN:-$1/bin/hisha-server})"
        echo "load before: $(loadavg)"
        for ((i = 1; i <= RUNS; ++i)); do
            if out=$("$BENCH" "${SERVER_ARG[@]}" "${common[@]}" --sync full "${attack[@]}" --kill-after "$after"); then
                report_run "kill run $i" "$out"
            else
                echo "kill run $i: FAILED: $out" >&2
                failed=1
            fi
        done
        echo "goal: every acknowledged move stored (acknowledged_missing=0 differing=0 games_unread=0)"
        echo "load after: $(loadavg)"
        exit "$failed"
    fi
    echo "== server under attack: $games paced games ($rounds rounds of $plies plies) at $rate moves/s offered (${SERVER_BIN:-$1/bin/hisha-server})"
    echo "load before: $(loadavg)"
    for ((i = 1; i <= RUNS; ++i)); do
        for label in quiet attack; do
            args=(--attack 0)
            [[ $label == attack ]] && args=("${attack[@]}")
            if out=$("$BENCH" "${SERVER_ARG[@]}" "${common[@]}" --sync normal "${args[@]}"); then
                report_run "$label run $i" "$out"
                sed -n 's/.*moves=\([0-9]*\) errors=\([0-9]*\).* moves_per_s=\([0-9.]*\) median_ms=\([0-9.]*\) p99_ms=\([0-9.]*\) .* lost=\([0-9-]*\) misordered=\([0-9]*\).*/\1 \2 \3 \4 \5 \6 \7/p' <<<"$out" >>"$tmp/$label"
            else
                echo "$label run $i: FAILED: $out" >&2
                failed=1
            fi
        done
    done
    for label in quiet attack; do
        f="$tmp/$label"
        [[ -s "$f" ]] || continue
        echo "server: $label: median of $(wc -l <"$f") runs: moves_per_s=$(cut -d' ' -f3 "$f" | median)" \
            "median_ms=$(cut -d' ' -f4 "$f" | median) p99_ms=$(cut -d' ' -f5 "$f" | median) moves=$(sum 1 "$f")" \
            "of $((games * plies * rounds * $(wc -l <"$f"))) errors=$(sum 2 "$f") lost=$(sum 6 "$f") misordered=$(sum 7 "$f")"
    done
    echo "goal: p99 under attack within 2x of the quiet run's, no honest move lost or misordered"
    echo "load after: $(loadavg)"
    exit "$failed"
fi

echo "== server load (200 concurrent CSA games, loopback, SQLite)"
echo "load before: $(loadavg)"
"$BENCH" --fsync-probe 400 || true
for mode in "closed full 0" "paced full $RATE" "paced normal $RATE"; do
    read -r kind sync rate <<<"$mode"
    results="$tmp/$kind-$sync"
    db="$tmp/db-$kind-$sync"
    mkdir -p "$db"
    : >"$results"
    for ((i = 0; i <= RUNS; ++i)); do
        run=$([[ $i == 0 ]] && echo "cold" || echo "warm run $i")
        if out=$("$BENCH" "${SERVER_ARG[@]}" --games 200 --plies "$PLIES" --sync "$sync" --rate "$rate" --db-dir "$db"); then
            report_run "$kind sync=$sync $run" "$out"
            if [[ $i != 0 ]]; then
                sed -n 's/.*moves_per_s=\([0-9.]*\) median_ms=\([0-9.]*\) p99_ms=\([0-9.]*\) .*/\1 \2 \3/p' <<<"$out" >>"$results"
            fi
        else
            echo "$kind sync=$sync $run: FAILED: $out" >&2
            failed=1
        fi
    done
    if [[ -s "$results" ]]; then
        echo "server: $kind sync=$sync offered=$([[ $rate == 0 ]] && echo max || echo "$rate/s"): median of $(wc -l <"$results") warm runs:" \
            "moves_per_s=$(cut -d' ' -f1 "$results" | median) median_ms=$(cut -d' ' -f2 "$results" | median)" \
            "p99_ms=$(cut -d' ' -f3 "$results" | median)"
    fi
done
echo "targets: closed >= 18000 moves/s (20x Floodgate); paced at 18000/s p99 < 10 ms"
echo "load after: $(loadavg)"
exit "$failed"
