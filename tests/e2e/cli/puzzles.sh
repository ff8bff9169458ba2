#!/usr/bin/env bash
# `hisha puzzles` on a real game record gives the committed puzzle file (the one the web UI's
# puzzle test serves), twice the same; a directory is read like its records; bad input fails.
# Usage: puzzles.sh HISHA TESTDATA
set -euo pipefail
HISHA=$(readlink -f "${1:?usage: puzzles.sh HISHA TESTDATA}")
DATA=$(readlink -f "${2:?usage: puzzles.sh HISHA TESTDATA}")
fail() { echo "FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cd "$DATA/vectors/records"
"$HISHA" puzzles --max-plies 5 --out "$work/a.tsv" csa/uchifuzume.csa 2> "$work/a.log" || fail "hisha puzzles: $(cat "$work/a.log")"
diff "$DATA/puzzles/uchifuzume.tsv" "$work/a.tsv" || fail "the puzzles differ from tests/data/puzzles/uchifuzume.tsv"
grep -q "records=1 .*puzzles=2 " "$work/a.log" || fail "summary: $(cat "$work/a.log")"
# Deterministic: a second run writes the same bytes, to standard output.
"$HISHA" puzzles --max-plies 5 csa/uchifuzume.csa > "$work/b.tsv" 2>/dev/null
cmp "$work/a.tsv" "$work/b.tsv" || fail "a second run differs"
# A directory: its records in name order (the two 8mai games have no mate in 1).
mkdir "$work/dir" && cp csa/8mai.csa kif/8mai.kif "$work/dir/"
out=$("$HISHA" puzzles --max-plies 1 "$work/dir" 2>&1) || fail "a directory: $out"
grep -q "records=2 " <<< "$out" || fail "a directory: $out"
# --max-plies 1 keeps only the mates in one.
"$HISHA" puzzles --max-plies 1 csa/uchifuzume.csa > "$work/c.tsv" 2>/dev/null
awk -F'\t' '$4 != 1 { bad = 1 } END { exit bad }' "$work/c.tsv" || fail "--max-plies 1: $(cat "$work/c.tsv")"
set +e
msg=$("$HISHA" puzzles --max-plies 0 csa/uchifuzume.csa 2>&1); rc=$?
set -e
(( rc == 2 )) && grep -q -- "--max-plies" <<< "$msg" || fail "--max-plies 0 exits $rc: $msg"
set +e
msg=$("$HISHA" puzzles "$work/missing.kif" 2>&1); rc=$?
set -e
(( rc == 1 )) && grep -q "missing.kif" <<< "$msg" || fail "a missing file exits $rc: $msg"
echo "PASS: hisha puzzles: $(wc -l < "$work/a.tsv") puzzles equal to the committed file"
