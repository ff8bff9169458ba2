#!/usr/bin/env bash
# Usage: bench/tsume/versus.sh BUILD_DIR KOMORINGHEIGHTS
# Hisha's solver and KomoringHeights side by side on the same tsume.tsv rows, one thread each,
# shortest-mate mode (Hisha's default; KomoringHeights with PostSearchLevel MinLength), each
# problem in its own process, TSUME_VS_RUNS times (default 1). Per row and program: the length
# found (Hisha's line is replayed by --verify: BADLINE when it fails), CPU seconds (Hisha: the
# solver's own CPU time, --cpu-time; KomoringHeights: the user seconds of its process under GNU
# time, table set-up included), nodes, and positions per CPU second. The programs count nodes
# differently: KomoringHeights, like every YaneuraOu-based program, counts Position::do_move
# calls (its own searched nodes, and the positions of its leaf tests); Hisha's nodes are its
# searched nodes, and its `positions` (from --stats) are its do_move calls, KomoringHeights'
# count: so the rate columns compare positions made per CPU second on one definition. Then the
# sums over the rows and over the 15-29 ply band, and the medians of the rates.
# Time limits are CPU seconds (the machine may be shared): Hisha stops itself (--time-limit
# with --cpu-time); KomoringHeights runs `go mate infinite` under a CPU-time rlimit (prlimit)
# and a row it does not finish counts as `timeout` at the limit.
# KOMORINGHEIGHTS is the path of a KomoringHeights binary; no part of Hisha needs it.
# Environment: TSUME_VS_ROWS=id,id (default: every row of 15 to 29 plies), TSUME_VS_TIME (CPU
# seconds per row and program, default 60), TSUME_VS_MEMORY (table MB of both, default 1024),
# TSUME_VS_RUNS (default 1; with more, each figure is the median of the runs),
# TSUME_VS_SKIP_KH=1 (Hisha only), HISHA_TESTDATA_DIR (default tests/data/vectors).
set -euo pipefail

if (($# != 2)); then
    echo "usage: $0 BUILD_DIR KOMORINGHEIGHTS" >&2
    exit 2
fi
KH="$2"
set -- "$1"
NAME="tsume versus bench"
source "$(dirname "$0")/common.sh"
TIME="${TSUME_VS_TIME:-60}"
MEMORY="${TSUME_VS_MEMORY:-1024}"
RUNS="${TSUME_VS_RUNS:-1}"
SKIP_KH="${TSUME_VS_SKIP_KH:-0}"
if [[ "$SKIP_KH" != 1 && ! -x "$KH" ]]; then
    echo "$NAME: $KH is not an executable" >&2
    exit 2
fi
trap '' PIPE  # a write to a KomoringHeights that has ended fails, it does not stop the bench
for tool in /usr/bin/time prlimit; do
    command -v "$tool" >/dev/null || { echo "$NAME: $tool is needed" >&2; exit 2; }
done

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [[ -n "${TSUME_VS_ROWS:-}" ]]; then
    ROWS="$TSUME_VS_ROWS"
else
    ROWS="$(awk -F'\t' 'NR > 1 && $3 >= 15 && $3 <= 29 { printf "%s%s", sep, $1; sep = "," }' "$TSV")"
fi

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.10g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# hisha_once SFEN: prints "found cpu_s nodes positions"
hisha_once() {
    printf '%s\n' "$1" >"$WORK/problem"
    "$HISHA" tsume --stats --verify --cpu-time --time-limit "$TIME" --memory "$MEMORY" "$WORK/problem" \
        >"$WORK/h.out" 2>"$WORK/h.err" || true
    local found nodes ms verify positions
    found=$(awk 'NR == 1 { print $1 == "mate" ? $2 : $1 }' "$WORK/h.out")
    verify=$(sed -n 's/^verify //p' "$WORK/h.err" | head -n1)
    [[ -z "$verify" || "$verify" == ok ]] || found=BADLINE  # the line fails the replay
    nodes=$(sed -n 's/^info nodes \([0-9]*\).*/\1/p' "$WORK/h.err" | head -n1)
    ms=$(sed -n 's/.* cpu_ms \([0-9]*\).*/\1/p' "$WORK/h.err" | head -n1)
    positions=$(sed -n 's/^info nodes .* positions \([0-9]*\).*/\1/p' "$WORK/h.err" | head -n1)
    echo "${found:-none} $(awk -v m="${ms:-0}" 'BEGIN { printf "%.3f", m / 1000 }') ${nodes:-0} ${positions:-0}"
}

# kh_once SFEN: prints "found cpu_s nodes"
kh_once() {
    rm -f "$WORK/k.out" "$WORK/k.time" "$WORK/k.in"
    mkfifo "$WORK/k.in"
    /usr/bin/time -f 'time %U' -o "$WORK/k.time" prlimit --cpu="$TIME" "$KH" <"$WORK/k.in" >"$WORK/k.out" 2>/dev/null &
    local pid=$!
    exec 7>"$WORK/k.in"
    printf 'usi\nsetoption name Threads value 1\nsetoption name USI_Hash value %s\n' "$MEMORY" >&7
    printf 'setoption name PostSearchLevel value MinLength\nisready\nusinewgame\n' >&7
    printf 'position sfen %s\ngo mate infinite\n' "$1" >&7
    # Stdin stays open until the answer (quit would stop the search) or the rlimit's kill.
    while kill -0 "$pid" 2>/dev/null && ! grep -q '^checkmate' "$WORK/k.out"; do
        sleep 0.2
    done
    echo quit >&7 2>/dev/null || true
    exec 7>&-
    wait "$pid" 2>/dev/null || true
    local found nodes cpu
    found=$(awk '$1 == "checkmate" { if ($2 == "nomate") print "nomate"; else if ($2 == "timeout") print "timeout";
                 else print NF - 1; exit }' "$WORK/k.out")
    nodes=$(awk '$1 == "info" { for (i = 2; i < NF; ++i) if ($i == "nodes") n = $(i + 1) } END { print n + 0 }' "$WORK/k.out")
    cpu=$(sed -n 's/^time //p' "$WORK/k.time" | tail -n1)
    echo "${found:-timeout} ${cpu:-0} ${nodes:-0}"
}

echo "== tsume versus: $HISHA vs $KH, ${TIME} CPU s a row, ${MEMORY} MB, runs $RUNS, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-22s %5s | %-7s %8s %10s %11s %9s | %-7s %8s %10s %9s\n' row plies hisha cpu_s nodes positions pos/s kh cpu_s \
    nodes nodes/s
IFS=',' read -ra ids <<<"$ROWS"
: >"$WORK/table"
for id in "${ids[@]}"; do
    sfen="$(awk -F'\t' -v id="$id" '$1 == id { print $2 }' "$TSV")"
    stated="$(awk -F'\t' -v id="$id" '$1 == id { print $3 }' "$TSV")"
    if [[ -z "$sfen" ]]; then
        echo "$NAME: no row $id in $TSV" >&2
        exit 2
    fi
    : >"$WORK/h.runs"
    : >"$WORK/k.runs"
    for ((r = 0; r < RUNS; ++r)); do
        hisha_once "$sfen" >>"$WORK/h.runs"
        if [[ "$SKIP_KH" != 1 ]]; then
            kh_once "$sfen" >>"$WORK/k.runs"
        else
            echo "- 0 0" >>"$WORK/k.runs"
        fi
    done
    hf=$(awk 'NR == 1 { print $1 }' "$WORK/h.runs")
    kf=$(awk 'NR == 1 { print $1 }' "$WORK/k.runs")
    hc=$(awk '{ print $2 }' "$WORK/h.runs" | median)
    hn=$(awk '{ print $3 }' "$WORK/h.runs" | median)
    hp=$(awk '{ print $4 }' "$WORK/h.runs" | median)
    kc=$(awk '{ print $2 }' "$WORK/k.runs" | median)
    kn=$(awk '{ print $3 }' "$WORK/k.runs" | median)
    hr=$(awk -v n="$hp" -v c="$hc" 'BEGIN { printf "%d", (c > 0 ? n / c : 0) }')
    kr=$(awk -v n="$kn" -v c="$kc" 'BEGIN { printf "%d", (c > 0 ? n / c : 0) }')
    printf '%-22s %5s | %-7s %8.2f %10d %11d %9d | %-7s %8.2f %10d %9d\n' "$id" "$stated" "$hf" "$hc" "$hn" "$hp" "$hr" \
        "$kf" "$kc" "$kn" "$kr"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$stated" "$hf" "$hc" "$hn" "$hp" "$hr" "$kf" "$kc" "$kn" \
        "$kr" >>"$WORK/table"
done
# Sums: every row, and the 15-29 band; a row not solved counts at the limit.
awk -F'\t' -v limit="$TIME" '
    function add(tag, hc, kc, hs, ks) { H[tag] += hc; K[tag] += kc; HS[tag] += hs; KS[tag] += ks; N[tag]++ }
    {
        hs = ($3 == $2) ? 1 : 0; ks = ($8 == $2) ? 1 : 0
        hc = hs ? $4 : limit; kc = ks ? $9 : limit
        add("all rows", hc, kc, hs, ks)
        if ($2 >= 15 && $2 <= 29) add("15-29 plies", hc, kc, hs, ks)
    }
    END {
        for (t in N)
            printf "%-12s %3d rows: hisha %3d exact, %9.2f CPU s | kh %3d exact, %9.2f CPU s (unsolved count %d s)\n", t, N[t], HS[t], H[t], KS[t], K[t], limit
    }' "$WORK/table"
printf 'median positions (do_move calls) per CPU second: hisha %s, kh %s (its nodes)\n' \
    "$(awk -F'\t' '$7 > 0 { print $7 }' "$WORK/table" | median)" "$(awk -F'\t' '$11 > 0 { print $11 }' "$WORK/table" | median)"
printf 'median searched nodes per CPU second: hisha %s\n' \
    "$(awk -F'\t' '$4 > 0 { printf "%d\n", $5 / $4 }' "$WORK/table" | median)"
printf 'median CPU seconds a row: hisha %s, kh %s\n' \
    "$(awk -F'\t' '{ print $4 }' "$WORK/table" | median)" "$(awk -F'\t' '{ print $9 }' "$WORK/table" | median)"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
