#!/usr/bin/env bash
# Converts every shared record to KIF, KI2 and CSA with `hisha convert` and checks that the
# independent tsshogi reader (npm) reads the same start and moves. Usage: run.sh HISHA TESTDATA
set -euo pipefail
hisha=$1 testdata=$2
here=$(cd "$(dirname "$0")" && pwd)
if [[ ! -d "$here/node_modules/tsshogi" ]]; then
    (cd "$here" && npm ci --no-audit --no-fund --silent)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
manifest="$work/manifest.tsv"
: > "$manifest"
i=0
for f in "$testdata"/records/*/*; do
    i=$((i + 1))
    line=$("$hisha" convert --to sfen "$f")        # "sfen <board> <side> <hands> <ply> [moves ...]"
    start=$(echo "$line" | awk '{print $2" "$3" "$4" "$5}')
    moves=$(echo "$line" | sed -n 's/.* moves //p')
    for fmt in kif ki2 csa; do
        out="$work/$i.$fmt"
        "$hisha" convert --to "$fmt" --encoding utf-8 "$f" "$out"
        printf '%s\t%s\t%s\t%s\n' "$out" "$fmt" "$start" "$moves" >> "$manifest"
    done
done
node "$here/check.mjs" "$manifest"
