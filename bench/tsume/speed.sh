#!/usr/bin/env bash
# Usage: bench/tsume/speed.sh BUILD_DIR
# The mate solver's speed per node: a fixed set of tsume.tsv rows (hard short ones and long
# classics), each searched for a fixed number of nodes (or until solved) in one process, one
# thread. Prints per row the answer, nodes, CPU ms and nodes per CPU second, then the total.
# CPU time (not wall) because the machine may be shared; the load average is printed.
# Environment: TSUME_SPEED_ROWS=id,id (default below), TSUME_SPEED_NODES (default 2000000),
# TSUME_SPEED_MEMORY (table MB, default 1024), HISHA_TESTDATA_DIR (default tests/data/vectors).
set -euo pipefail

NAME="tsume speed bench"
source "$(dirname "$0")/common.sh"
ROWS="${TSUME_SPEED_ROWS:-edo-musou-047,edo-zukou-023,edo-zukou-099,edo-musou-030,edo-zukou-100,long-shintougenkyo}"
NODES="${TSUME_SPEED_NODES:-2000000}"
MEMORY="${TSUME_SPEED_MEMORY:-1024}"


WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
echo "== tsume speed: $HISHA, $NODES nodes per row, ${MEMORY} MB, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-20s %-8s %10s %9s %10s\n' row answer nodes cpu_ms nodes/s
total_nodes=0
total_ms=0
IFS=',' read -ra ids <<<"$ROWS"
for id in "${ids[@]}"; do
    sfen="$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$TSV")"
    if [[ -z "$sfen" ]]; then
        echo "tsume speed bench: no row $id in $TSV" >&2
        exit 2
    fi
    printf '%s\n' "$sfen" | "$HISHA" tsume --stats --nodes "$NODES" --memory "$MEMORY" - >"$WORK/out" 2>"$WORK/err" || true
    answer="$(awk 'NR == 1 { print $1 == "mate" ? "mate" $2 : $1 }' "$WORK/out")"
    nodes="$(sed -n 's/.*nodes \([0-9]*\).*/\1/p' "$WORK/err" | head -n1)"
    ms="$(sed -n 's/.*cpu_ms \([0-9]*\).*/\1/p' "$WORK/err" | head -n1)"
    out="$(cat "$WORK/out" "$WORK/err")"
    if [[ -z "$nodes" || -z "$ms" ]]; then
        echo "tsume speed bench: no statistics for $id: $out" >&2
        exit 1
    fi
    total_nodes=$((total_nodes + nodes))
    total_ms=$((total_ms + ms))
    printf '%-20s %-8s %10d %9d %10d\n' "$id" "$answer" "$nodes" "$ms" $((nodes * 1000 / (ms > 0 ? ms : 1)))
done
printf '%-20s %-8s %10d %9d %10d\n' total "" "$total_nodes" "$total_ms" $((total_nodes * 1000 / (total_ms > 0 ? total_ms : 1)))
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
