#!/usr/bin/env bash
# Nodes per second of Hisha's fixed-work bench against another USI engine's, side by side
# (issue 18's speed goal): `HISHA bench DEPTH` (the bench positions, one thread) and, when given,
# `bench 64 1 15 default depth` of a YaneuraOu-style engine (64 MB, one thread, depth 15).
# The runs alternate (Hisha, other, Hisha, ...) so that both see the same load; each prints its
# nodes, wall-clock milliseconds and nodes per second, then the medians and their ratio.
# Hisha's default depth, 13, makes its run last about 10 s, like the other's 20-30 s: at depth 9
# (half a second) a shared machine's swings of speed decide the figure more than the engine does.
#
# Usage: bench/strength/nps.sh [--runs N] [--depth D] HISHA [OTHER]
#   HISHA   a hisha binary (e.g. build-native/bin/hisha: the other engine is usually built for
#           the machine's CPU too)
#   OTHER   a USI engine with YaneuraOu's `bench` command (e.g. the YaneuraOu material build)
#   --runs  runs of each (default 3)
#   --depth the depth of Hisha's bench (default 13, `hisha bench` with no depth)
# Exit status 0, 1 if a run prints no figure, 2 on a usage error.
set -euo pipefail
runs=3
depth=13
pos=()
while (( $# )); do
    case $1 in
    --runs) runs=$2; shift 2 ;;
    --depth) depth=$2; shift 2 ;;
    -h|--help) sed -n '2,/^# Exit/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "nps: unknown option $1" >&2; exit 2 ;;
    *) pos+=("$1"); shift ;;
    esac
done
if (( ${#pos[@]} < 1 || ${#pos[@]} > 2 )) || ! [[ $runs =~ ^[1-9][0-9]*$ && $depth =~ ^[1-9][0-9]?$ ]]; then
    echo "usage: $0 [--runs N] [--depth D] HISHA [OTHER]" >&2
    exit 2
fi
hisha=${pos[0]} other=${pos[1]:-}
for b in "$hisha" ${other:+"$other"}; do
    if [[ ! -x $b ]]; then
        echo "nps: $b is not an executable file" >&2
        exit 2
    fi
done

# One line per run: "nodes ms nps".
hisha_run() {
    local line
    line=$("$hisha" bench "$depth" 2>/dev/null | tail -n 1)
    [[ $line =~ nodes=([0-9]+)\ time_ms=([0-9]+)\ nps=([0-9]+) ]] || return 1
    echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]}"
}
other_run() {
    local out nodes ms nps
    out=$(printf 'bench 64 1 15 default depth\nquit\n' | (cd "$(dirname "$other")" && "$other") 2>&1)
    nodes=$(awk -F: '/^Nodes searched/ {gsub(/ /, "", $2); print $2}' <<<"$out")
    ms=$(awk -F: '/^Total time/ {gsub(/ /, "", $2); print $2}' <<<"$out")
    nps=$(awk -F: '/^Nodes\/second/ {gsub(/ /, "", $2); print $2}' <<<"$out")
    [[ -n $nodes && -n $ms && -n $nps ]] || return 1
    echo "$nodes $ms $nps"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); hisha bench $depth"
hisha_nps=() other_nps=()
for ((i = 1; i <= runs; i++)); do
    r=$(hisha_run) || { echo "nps: $hisha bench printed no figure" >&2; exit 1; }
    read -r n ms v <<<"$r"
    printf 'run %d  hisha  nodes=%s time_ms=%s nps=%s\n' "$i" "$n" "$ms" "$v"
    hisha_nps+=("$v")
    if [[ -n $other ]]; then
        r=$(other_run) || { echo "nps: $other bench printed no figure" >&2; exit 1; }
        read -r n ms v <<<"$r"
        printf 'run %d  other  nodes=%s time_ms=%s nps=%s\n' "$i" "$n" "$ms" "$v"
        other_nps+=("$v")
    fi
done
h=$(printf '%s\n' "${hisha_nps[@]}" | median)
echo "median hisha nps=$h"
if [[ -n $other ]]; then
    o=$(printf '%s\n' "${other_nps[@]}" | median)
    echo "median other nps=$o"
    awk -v h="$h" -v o="$o" 'BEGIN { printf "ratio hisha/other = %.2f\n", h / o }'
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
