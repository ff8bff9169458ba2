#!/usr/bin/env bash
# Strength benchmark (issue 4): Hisha against Debian's gnushogi 1.4.2 (with its opening book) at
# a per-move time ratio, from the varied openings in openings.txt with colours swapped.
# Usage: bench/strength/run.sh BUILD_DIR
# Environment: GAMES (default 120: each of 60 openings with both colours), HISHA_ST (default 0.1),
# GNUSHOGI_ST (default 1), CONCURRENCY (default 1: on a 2-core machine two games at once would
# share the cores between four engines), FAST_GAMES (games at Hisha 0.01 s a move, default 20;
# 0 skips), MARGIN_MS (lateness forgiven on a loaded machine, default 1000), OUT (record directory).
# Prints `hisha bench`, then each match's table (score, Elo with 95% interval, LOS) and endings.
set -euo pipefail
if (( $# != 1 )); then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
HISHA="$1/bin/hisha"
here=$(cd "$(dirname "$0")" && pwd)
GAMES=${GAMES:-120}
HISHA_ST=${HISHA_ST:-0.1}
GNUSHOGI_ST=${GNUSHOGI_ST:-1}
CONCURRENCY=${CONCURRENCY:-1}
FAST_GAMES=${FAST_GAMES:-20}
MARGIN_MS=${MARGIN_MS:-1000}
OUT=${OUT:-$(mktemp -d)}
[[ -x $HISHA ]] || { echo "strength: $HISHA not found" >&2; exit 2; }
command -v gnushogi >/dev/null || [[ -x /usr/games/gnushogi ]] || { echo "strength: gnushogi missing" >&2; exit 2; }

echo "== strength: hisha ${HISHA_ST}s vs gnushogi ${GNUSHOGI_ST}s a move, $GAMES games"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$HISHA" bench 2>&1 | tail -n 1
time_by_engine() {
    # Per engine: the mean time of its moves, read from the CSA records (N+ / N- name the sides).
    local dir=$1
    for f in "$dir"/*.csa; do
        awk '/^N\+/ { b = substr($0, 3) } /^N-/ { w = substr($0, 3) }
             /^[+-][0-9]/ { side = substr($1, 1, 1) }
             /^T[0-9.]+$/ { t = substr($0, 2); who = side == "+" ? b : w; s[who] += t; c[who]++ }
             END { for (k in s) print k, s[k], c[k] }' "$f"
    done | awk '{ s[$1] += $2; c[$1] += $3 } END { for (k in s) printf "  %s: %.3f s a move over %d moves\n", k, s[k] / c[k], c[k] }'
}
"$HISHA" match --engine hisha=hisha --engine gnushogi=gnushogi --games "$GAMES" \
    --tc "st=$GNUSHOGI_ST" --tc "hisha:st=$HISHA_ST" --margin "$MARGIN_MS" --concurrency "$CONCURRENCY" \
    --openings "$here/openings.txt" --out "$OUT/main" --quiet
echo "time used:"
time_by_engine "$OUT/main"
if (( FAST_GAMES > 0 )); then
    echo
    echo "== strength: hisha 0.01s vs gnushogi ${GNUSHOGI_ST}s a move, $FAST_GAMES games"
    "$HISHA" match --engine hisha=hisha --engine gnushogi=gnushogi --games "$FAST_GAMES" \
        --tc "st=$GNUSHOGI_ST" --tc "hisha:st=0.01" --margin "$MARGIN_MS" --concurrency "$CONCURRENCY" \
        --openings "$here/openings.txt" --out "$OUT/fast" --quiet
    echo "time used:"
    time_by_engine "$OUT/fast"
fi
echo "records: $OUT"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
