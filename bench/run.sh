#!/usr/bin/env bash
# Usage: bench/run.sh BUILD_DIR   (`make bench` runs it on build-native, a -march=native Release build)
# Prints the machine, runs `hisha perft 6` from the start position PERFT_RUNS times (median nps and
# time), the attack and movegen micro-benchmarks, and perft 4 of the "matsuri" position once.
# Exits 1 when a perft node count differs from the published value, 2 on a usage error.
# Environment: PERFT_RUNS (default 5), MIN_TIME (seconds per micro-benchmark, default 0.2),
# REPETITIONS (micro-benchmark repetitions, median shown, default 3).
set -euo pipefail

source "$(dirname "$0")/lib.sh"
(( $# == 1 )) || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
HISHA=$(bench_binary bench "$1" hisha)
BIN="$1/bin"
PERFT_RUNS="${PERFT_RUNS:-5}"
MIN_TIME="${MIN_TIME:-0.2}"
REPETITIONS="${REPETITIONS:-3}"
START_D6=547581517
MATSURI_SFEN='l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1'
MATSURI_D4=516925165

failed=0

# --- machine
echo "== machine"
echo "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "commit:  $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- src 2>/dev/null || echo ' (src modified)')"
echo "nproc:   $(nproc)"
echo "cpu:     $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') (family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' '))"
echo "bmi2:    $(grep -q -w bmi2 /proc/cpuinfo && echo yes || echo no)"
echo "load:    $(loadavg) (1, 5, 15 min)"

# Runs `hisha perft DEPTH [--sfen SFEN]`, prints its last line with the user CPU time, checks the
# node count and appends "nps time_ms cpu_nps" to the file $RESULTS. hisha reports wall-clock
# time, which other processes stretch; nodes per CPU second is steadier on a loaded machine.
perft_run() {
    local expected="$1" label="$2"
    shift 2
    local last nodes cpu
    if ! { TIMEFORMAT='%3U'; time "$HISHA" perft "$@" >"$OUT"; } 2>"$CPU"; then
        echo "$label: hisha perft failed: $(cat "$CPU")" >&2
        failed=1
        return
    fi
    last=$(tail -n 1 "$OUT")
    cpu=$(tail -n 1 "$CPU")
    nodes=$(sed -n 's/.*nodes=\([0-9]*\).*/\1/p' <<<"$last")
    echo "$label: $last cpu_s=$cpu cpu_nps=$(awk -v n="${nodes:-0}" -v c="$cpu" 'BEGIN { printf "%.0f", (c > 0 ? n / c : 0) }')"
    if [[ "$nodes" != "$expected" ]]; then
        echo "$label: WRONG node count ${nodes:-none}, expected $expected" >&2
        failed=1
    fi
    sed -n 's/.*time_ms=\([0-9.]*\) nps=\([0-9.]*\).*/\2 \1/p' <<<"$last" \
        | awk -v n="${nodes:-0}" -v c="$cpu" '{ printf "%s %s %.0f\n", $1, $2, (c > 0 ? n / c : 0) }' >>"$RESULTS"
}

# The median of the numbers in column $2 of file $1, rounded ("n/a" when there are none).
column_median() {
    local m
    m=$(awk -v c="$2" '{ print $c }' "$1" | median)
    if [[ -z $m ]]; then echo n/a; else printf '%.0f\n' "$m"; fi
}

RESULTS=$tmp/results
OUT=$tmp/out
CPU=$tmp/cpu

# --- perft 6 from the start position
echo
echo "== hisha perft 6 (start position), $PERFT_RUNS runs"
for ((i = 1; i <= PERFT_RUNS; ++i)); do
    perft_run "$START_D6" "run $i" 6
done
echo "median: nps=$(column_median "$RESULTS" 1) time_ms=$(column_median "$RESULTS" 2) cpu_nps=$(column_median "$RESULTS" 3)"

# --- micro-benchmarks (the Time column is per call; the median of the repetitions is shown)
for name in attacks_bench movegen_bench eval_bench; do
    echo
    echo "== $name (min_time ${MIN_TIME}s, median of $REPETITIONS)"
    if [[ ! -x "$BIN/$name" ]]; then
        echo "$name: not built (Google Benchmark missing?); skipped"
        continue
    fi
    if ! "$BIN/$name" --benchmark_min_time="$MIN_TIME" --benchmark_repetitions="$REPETITIONS" \
        --benchmark_report_aggregates_only=true 2>&1 \
        | grep -v -E '_(mean|stddev|cv) '; then
        echo "$name: FAILED" >&2
        failed=1
    fi
done

# --- matsuri perft 4
echo
echo "== hisha perft 4 (matsuri)"
: >"$RESULTS"
perft_run "$MATSURI_D4" "matsuri" 4 --sfen "$MATSURI_SFEN"

# Engine strength against gnushogi (about an hour for 120 games at two at once): STRENGTH_BENCH=1 runs it.
[[ "${STRENGTH_BENCH:-0}" == 1 ]] && { echo; CONCURRENCY=${CONCURRENCY:-2} bash "$(dirname "$0")/strength/run.sh" "$1" || failed=1; }
[[ "${TSUME_BENCH:-1}" == 0 ]] || { echo; bash "$(dirname "$0")/tsume/run.sh" "$1" || failed=1; }  # mate solver (TSUME_BENCH=0 skips)
[[ "${SERVER_BENCH:-1}" == 0 ]] || { echo; bash "$(dirname "$0")/server/run.sh" "$1" || failed=1; }  # game server load (SERVER_BENCH=0 skips)

echo
echo "load after: $(loadavg)"
if ((failed)); then
    echo "bench: FAILED (see above)" >&2
    exit 1
fi
echo "bench: all node counts as expected"
