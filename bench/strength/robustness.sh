#!/usr/bin/env bash
# Robustness benchmark (issue 18): many fast games of Hisha against itself (a separate `hisha usi`
# process, so the USI layer and the time management are in play on both sides) and against another
# USI engine, and a count of every way a game ended. A game must end by the rules: an illegal move,
# a crash, a hang or a move past the clock (beyond MARGIN_MS) is a fault of the engine that made
# it. Prints both matches' tables and endings and the faults by engine; exit 1 when there is one.
# Not a test: it takes the machine for a while, and a time loss on a loaded machine is the
# machine's as much as the engine's (run it on a quiet one, quote the load printed with it).
#
# Usage: bench/strength/robustness.sh HISHA [USI_ENGINE]
#   HISHA        a Hisha binary (e.g. build-native/bin/hisha)
#   USI_ENGINE   the other engine's command (e.g. a YaneuraOu build); without it,
#                only the games against itself are played
# Environment: SELF_GAMES (default 500), OTHER_GAMES (default 500), TC (default st=0.03),
# MARGIN_MS (default 100), CONCURRENCY (default 2), OUT (record directory; default a temporary one),
# OTHER_OPTIONS (extra `--option other:K=V` words for the other engine; YaneuraOu's defaults below).
set -euo pipefail
if (( $# < 1 || $# > 2 )); then
    sed -n '/^# Usage/,/^# Environment/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
hisha=$1
other=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
SELF_GAMES=${SELF_GAMES:-500}
OTHER_GAMES=${OTHER_GAMES:-500}
TC=${TC:-st=0.03}
MARGIN_MS=${MARGIN_MS:-100}
CONCURRENCY=${CONCURRENCY:-2}
OUT=${OUT:-$(mktemp -d)}
[[ -x $hisha ]] || { echo "robustness: $hisha is not an executable" >&2; exit 2; }
mkdir -p "$OUT"

echo "== robustness: $("$hisha" --version 2>/dev/null | head -n 1), $TC a move, margin $MARGIN_MS ms"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# The endings of the rules; every other ending in games.txt (column 7) is a fault.
RULES='^(checkmate|no legal move|resignation|sennichite|perpetual check|entering-king declaration|impasse count|move limit)'
faults=0
report() {
    local dir=$1
    awk -F'\t' '{print $7}' "$dir/games.txt" | sed 's/:.*//' | sort | uniq -c | sort -rn | sed 's/^/  /'
    local bad
    bad=$(awk -F'\t' -v re="$RULES" '$7 !~ re' "$dir/games.txt")
    if [[ -n $bad ]]; then
        echo "faults:"
        printf '%s\n' "$bad" | sed 's/^/  /'
        faults=$((faults + $(printf '%s\n' "$bad" | wc -l)))
    fi
}

echo
echo "== $SELF_GAMES games: hisha (in process) vs hisha usi (a separate process)"
"$hisha" match --engine inproc=hisha --engine usi="$hisha usi" \
    --option inproc:USI_Hash=64 --option usi:USI_Hash=64 --option usi:OwnBook=false \
    --option inproc:OwnBook=false --games "$SELF_GAMES" --tc "$TC" --margin "$MARGIN_MS" \
    --concurrency "$CONCURRENCY" --openings "$here/openings-balanced.txt" --out "$OUT/self" --quiet
report "$OUT/self"

if [[ -n $other ]]; then
    echo
    echo "== $OTHER_GAMES games: hisha vs $other"
    # shellcheck disable=SC2086
    "$hisha" match --engine hisha=hisha --engine other="$other" \
        --option hisha:USI_Hash=64 --option hisha:OwnBook=false \
        --option other:Threads=1 --option other:USI_Hash=64 --option other:BookFile=no_book \
        --option other:NetworkDelay=0 --option other:NetworkDelay2=12 --option other:MinimumThinkingTime=10 \
        ${OTHER_OPTIONS:-} --games "$OTHER_GAMES" --tc "$TC" --margin "$MARGIN_MS" \
        --concurrency "$CONCURRENCY" --openings "$here/openings-balanced.txt" --out "$OUT/other" --quiet
    report "$OUT/other"
fi
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "records: $OUT"
echo "faults: $faults"
(( faults == 0 ))
