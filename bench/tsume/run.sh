#!/usr/bin/env bash
# Usage: bench/tsume/run.sh BUILD_DIR
# The mate solver on ../shared/testdata/tsume.tsv, one problem per process under /usr/bin/time -v:
#   1. the 15-29 ply band, TSUME_BAND_TIME seconds each (default 60): proved with the exact
#      length or not, per length band, with the total time;
#   2. the long classics (31 plies and more), Kotobuki (611 plies) first, TSUME_KOTOBUKI_TIME
#      seconds for it (default 600) and TSUME_LONG_TIME for each other one (default 300).
# Every run reports the answer, wall and CPU time, nodes and peak memory (maximum resident set).
# Environment: TSUME_MEMORY (table MB, default 4096), TSUME_BAND=0 / TSUME_LONG=0 skip a part,
# TSUME_ONLY=id,id runs only those rows, HISHA_TESTDATA_DIR (default ../shared/testdata).
# Exits 1 when a mate is reported with a length other than a verified (basis A or B) one.
set -euo pipefail

if (( $# != 1 )); then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
HISHA="$1/bin/hisha"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DATA="${HISHA_TESTDATA_DIR:-$ROOT/../shared/testdata}"
TSV="$DATA/tsume.tsv"
MEMORY="${TSUME_MEMORY:-4096}"
BAND_TIME="${TSUME_BAND_TIME:-60}"
LONG_TIME="${TSUME_LONG_TIME:-300}"
KOTOBUKI_TIME="${TSUME_KOTOBUKI_TIME:-600}"
ONLY="${TSUME_ONLY:-}"

if [[ ! -x "$HISHA" ]]; then
    echo "tsume bench: $HISHA not found; build first" >&2
    exit 2
fi
if [[ ! -f "$TSV" ]]; then
    echo "tsume bench: $TSV not found; skipped"
    exit 0
fi
if [[ ! -x /usr/bin/time ]]; then
    echo "tsume bench: /usr/bin/time (GNU time) is needed for peak memory" >&2
    exit 2
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
failed=0

# run_one ID SFEN STATED BASIS SECONDS: prints one line and appends "id stated got ok wall cpu" to $WORK/results.
run_one() {
    local id="$1" sfen="$2" stated="$3" basis="$4" seconds="$5"
    echo "$sfen" >"$WORK/problem"
    /usr/bin/time -v "$HISHA" tsume --stats --time-limit "$seconds" --memory "$MEMORY" "$WORK/problem" \
        >"$WORK/out" 2>"$WORK/err" || true
    local answer stats rss wall cpu nodes got ok
    answer=$(head -n 1 "$WORK/out")
    stats=$(grep -m1 '^info nodes' "$WORK/err" || true)
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): *//p' "$WORK/err")
    cpu=$(sed -n 's/.*User time (seconds): *//p' "$WORK/err")
    wall=$(sed -n 's/.*time_ms \([0-9]*\).*/\1/p' <<<"$stats")
    nodes=$(sed -n 's/.*nodes \([0-9]*\).*/\1/p' <<<"$stats")
    got=$(awk '$1 == "mate" { print $2 } $1 == "nomate" { print -1 }' <<<"$answer")
    ok=no
    if [[ "$got" == "$stated" ]]; then
        ok=yes
    elif [[ -n "$got" && "$basis" != C* ]]; then
        ok=WRONG
        failed=1
    fi
    printf '%-16s %4s plies (basis %s): %-22s exact=%-3s wall %7.1f s  cpu %7.1f s  nodes %11s  peak %6d MB\n' \
        "$id" "$stated" "${basis:0:1}" "$(cut -c1-22 <<<"${answer:-no answer}")" "$ok" \
        "$(awk -v w="${wall:-0}" 'BEGIN { print w / 1000 }')" "${cpu:-0}" "${nodes:-?}" "$(( ${rss:-0} / 1024 ))"
    echo "$id $stated ${got:-none} $ok ${wall:-0} ${cpu:-0} ${rss:-0}" >>"$WORK/results"
}

rows() {  # rows MIN MAX: "id<TAB>sfen<TAB>len<TAB>basis" with MIN <= len <= MAX, Kotobuki first
    awk -F'\t' -v lo="$1" -v hi="$2" -v only=",$ONLY," 'NR > 1 && $3 >= lo && $3 <= hi \
        && (only == ",," || index(only, "," $1 ",")) { print ($1 == "edo-zukou-100" ? 0 : 1) "\t" $3 "\t" $1 "\t" $2 "\t" $3 "\t" $7 }' "$TSV" \
        | sort -t$'\t' -k1,1n -k2,2n | cut -f3-
}

echo "== tsume solver: $HISHA, table $MEMORY MB, load $(cut -d' ' -f1-3 /proc/loadavg)"
if [[ "${TSUME_BAND:-1}" != 0 ]]; then
    echo
    echo "== 15-29 plies, ${BAND_TIME} s each"
    : >"$WORK/results"
    while IFS=$'\t' read -r id sfen len basis; do
        run_one "$id" "$sfen" "$len" "$basis" "$BAND_TIME"
    done < <(rows 15 29)
    awk '{ band = ($2 <= 19 ? "15-19" : "21-29"); n[band]++; if ($4 == "yes") { ok[band]++; t[band] += $5 / 1000 }
           cpu[band] += $6; if ($4 == "yes" && $2 > longest) longest = $2 }
         END { for (b in n) printf "band %s: %d of %d proved exact, %.1f s wall for those, %.1f s cpu in all\n", b, ok[b], n[b], t[b], cpu[b];
               printf "longest proved: %d plies\n", longest }' "$WORK/results" | sort
fi
if [[ "${TSUME_LONG:-1}" != 0 ]]; then
    echo
    echo "== long classics (31+ plies), Kotobuki ${KOTOBUKI_TIME} s, others ${LONG_TIME} s"
    : >"$WORK/results"
    while IFS=$'\t' read -r id sfen len basis; do
        t="$LONG_TIME"
        [[ "$id" == edo-zukou-100 ]] && t="$KOTOBUKI_TIME"
        run_one "$id" "$sfen" "$len" "$basis" "$t"
    done < <(rows 31 100000)
fi
exit "$failed"
