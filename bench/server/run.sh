#!/usr/bin/env bash
# Usage: bench/server/run.sh BUILD_DIR   (bench/run.sh runs it; SERVER_BENCH=0 there skips it)
# The load benchmark of issue 8: server_load_bench starts hisha-server (no engine bots, no log)
# on a temporary SQLite database (full durability: a move is relayed only after the fdatasync
# of the write-ahead log that holds it) and plays 200 concurrent real-time CSA games of 100
# random legal plies over 127.0.0.1 with scripted clients; all games start together once every
# client has logged in and agreed, and the moves phase is timed. It runs SERVER_RUNS times
# (default 3) and prints each run, then the medians of moves/s, median latency and p99 latency
# (move sent -> opponent notified) against the target: >= 18000 moves/s (20x Floodgate's ~900)
# with p99 < 10 ms, and the CPU seconds the server and the clients used in the moves phase (on
# a busy machine moves per server CPU second says more than moves per wall-clock second).
# Exits 1 when a run fails (errors, lost moves), never because of the figures.
set -euo pipefail

if (( $# != 1 )); then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
BENCH="$1/bin/server_load_bench"
RUNS="${SERVER_RUNS:-3}"
if [[ ! -x "$BENCH" ]]; then
    echo "server bench: $BENCH not found; build first" >&2
    exit 2
fi

echo "== server load (200 concurrent CSA games, loopback, SQLite, every move durable before it is relayed)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
results=$(mktemp)
trap 'rm -f "$results"' EXIT
failed=0
for ((i = 1; i <= RUNS; ++i)); do
    if line=$("$BENCH" --games 200); then
        echo "run $i: $line"
        echo "  load: $(cut -d' ' -f1-3 /proc/loadavg)"
        sed -n 's/.*moves_per_s=\([0-9.]*\) median_ms=\([0-9.]*\) p99_ms=\([0-9.]*\) server_cpu_s=\([0-9.]*\) client_cpu_s=\([0-9.]*\) moves_per_server_cpu_s=\([0-9.]*\).*/\1 \2 \3 \6 \4 \5/p' <<<"$line" >>"$results"
    else
        echo "run $i: FAILED: $line" >&2
        failed=1
    fi
done
if [[ -s "$results" ]]; then
    median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
    mps=$(cut -d' ' -f1 "$results" | median)
    med=$(cut -d' ' -f2 "$results" | median)
    p99=$(cut -d' ' -f3 "$results" | median)
    cpu=$(cut -d' ' -f4 "$results" | median)
    scpu=$(cut -d' ' -f5 "$results" | median)
    ccpu=$(cut -d' ' -f6 "$results" | median)
    echo "server: median of $(wc -l <"$results") runs: moves_per_s=$mps median_ms=$med p99_ms=$p99 moves_per_server_cpu_s=$cpu server_cpu_s=$scpu client_cpu_s=$ccpu (target >= 18000 moves/s, p99 < 10 ms)"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$failed"
