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
set -euo pipefail

if (( $# != 1 )); then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
BENCH="$1/bin/server_load_bench"
RUNS="${SERVER_RUNS:-3}"
RATE="${SERVER_RATE:-18000}"
PLIES="${SERVER_PLIES:-250}"
if [[ ! -x "$BENCH" ]]; then
    echo "server bench: $BENCH not found; build first" >&2
    exit 2
fi

echo "== server load (200 concurrent CSA games, loopback, SQLite)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$BENCH" --fsync-probe 400 || true
failed=0
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
for mode in "closed full 0" "paced full $RATE" "paced normal $RATE"; do
    read -r kind sync rate <<<"$mode"
    results="$tmp/$kind-$sync"
    db="$tmp/db-$kind-$sync"
    mkdir -p "$db"
    : >"$results"
    for ((i = 0; i <= RUNS; ++i)); do
        run=$([[ $i == 0 ]] && echo "cold" || echo "warm run $i")
        if out=$("$BENCH" --games 200 --plies "$PLIES" --sync "$sync" --rate "$rate" --db-dir "$db"); then
            echo "$kind sync=$sync $run (load $(cut -d' ' -f1 /proc/loadavg)): $(tr '\n' ' ' <<<"$out" | sed 's/^sync=[a-z]* //')"
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
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$failed"
