#!/usr/bin/env bash
# scripts/train-net.sh, a training pass in miniature: 80 positions of self-play at 300 nodes, one
# epoch, an SPRT of 2 games at 300 nodes a move (which cannot pass); the candidate net is written,
# the log of passes gains a "not committed" line and the net to replace is left alone. A second
# run with a larger target continues the same data file (no game repeated: it validates).
# Skipped (77) when Debian's python3-torch is missing under /usr/bin/python3.
# Usage: train_script.sh HISHA SOURCE_DIR
set -euo pipefail
HISHA=${1:?usage: train_script.sh HISHA SOURCE_DIR}
SRC=${2:?usage: train_script.sh HISHA SOURCE_DIR}
fail() { echo "FAIL: $*" >&2; exit 1; }
if ! /usr/bin/python3 -c 'import torch, numpy' 2>/dev/null; then
    echo "SKIP: python3-torch is not installed (scripts/install-deps.sh installs it)"
    exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
common=(--hisha "$HISHA" --work "$dir/work" --nodes 300 --epochs 1 --threads 1 --net none
        --to "$dir/hisha.nnue" --record "$dir/NETS.md")

bash "$SRC/scripts/train-net.sh" "${common[@]}" --positions 80 --games 2 --tc nodes=300 \
    > "$dir/pass.txt" 2>&1 || fail "the pass: $(tail -20 "$dir/pass.txt")"
[[ -s $dir/work/candidate.nnue ]] || fail "no candidate net: $(tail -20 "$dir/pass.txt")"
"$HISHA" nnue info "$dir/work/candidate.nnue" | grep -q "layers=256x2-32-32-1" || fail "nnue info of the candidate"
first=$(( $(stat -c %s "$dir/work/data.bin") / 48 ))
(( first >= 80 )) || fail "$first positions generated"
[[ $(wc -l < "$dir/NETS.md") == 1 ]] || fail "NETS.md: $(cat "$dir/NETS.md")"
grep -q "^| 20[0-9-]* | KB9 candidate | $first positions, .* | vs Classic: 2 games, .* no decision | no |$" "$dir/NETS.md" \
    || fail "the NETS.md line: $(cat "$dir/NETS.md")"
[[ ! -e $dir/hisha.nnue ]] || fail "a net that did not pass replaced the committed one"

bash "$SRC/scripts/train-net.sh" "${common[@]}" --positions 140 --no-sprt > "$dir/again.txt" 2>&1 \
    || fail "the second run: $(tail -20 "$dir/again.txt")"
second=$(( $(stat -c %s "$dir/work/data.bin") / 48 ))
(( second >= 140 && second > first )) || fail "the data file did not continue: $first then $second"
"$HISHA" gensfen --validate "$dir/work/data.bin" > "$dir/val.txt" || fail "validate: $(cat "$dir/val.txt")"
grep -q "bad=0" "$dir/val.txt" || fail "validate: $(cat "$dir/val.txt")"
[[ $(wc -l < "$dir/NETS.md") == 1 ]] || fail "a run without SPRT wrote to NETS.md"
if bash "$SRC/scripts/train-net.sh" "${common[@]}" --epochs many > "$dir/bad.txt" 2>&1; then fail "--epochs many accepted"; fi
grep -q "epochs many: a whole number" "$dir/bad.txt" || fail "bad value: $(cat "$dir/bad.txt")"
echo "PASS: $first then $second positions, a candidate net, its NETS.md line, the committed net untouched"
