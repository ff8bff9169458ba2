#!/usr/bin/env bash
# scripts/tune-eval.sh, the way src/engine/tuned_params.h is made: a few self-play games append
# samples ("sfen<TAB>result<TAB>score" lines) to the data file, a second run with another seed
# appends more, the fit reports its losses and writes a header with one entry per parameter
# it moved; bad arguments are refused with exit 2. Usage: tune_eval.sh PATH/TO/hisha SOURCE_DIR
set -euo pipefail
hisha=$1
src=$2
source "$(dirname "$0")/../lib.sh"
script=$src/scripts/tune-eval.sh

bash "$script" --hisha "$hisha" --games 2 --nodes 300 --threads 1 --seed 3 --epochs 5 --min-count 1 \
    "$out/data.txt" >"$out/log1" 2>&1 || fail "first run: $(tail -n 5 "$out/log1")"
first=$(wc -l <"$out/data.txt")
(( first > 10 )) || fail "2 games gave $first samples"
while IFS=$'\t' read -r sfen result score; do
    [[ $sfen =~ ^[1-9lnsgkbrpLNSGKBRP+/]+\ [bw]\ [-0-9A-Za-z]+\ [0-9]+$ ]] || fail "not an SFEN: $sfen"
    [[ $result == 0 || $result == 0.5 || $result == 1 ]] || fail "result $result"
    [[ $score =~ ^-?[0-9]+$ ]] || fail "score $score"
done <"$out/data.txt"
bash "$script" --hisha "$hisha" --games 2 --nodes 300 --threads 1 --seed 4 --epochs 5 --min-count 1 \
    --header "$out/tuned_params.h" "$out/data.txt" >"$out/log2" 2>&1 || fail "second run: $(tail -n 5 "$out/log2")"
(( $(wc -l <"$out/data.txt") > first )) || fail "the second run appended nothing"
grep -Eq '^samples=[0-9]+ scale=[0-9]+ loss_before=0\.[0-9]+ loss_after=0\.[0-9]+' "$out/log2" \
    || fail "no loss line: $(cat "$out/log2")"
grep -q 'inline constexpr int TUNED_SIZE = [1-9]' "$out/tuned_params.h" || fail "no TUNED_SIZE: $(head "$out/tuned_params.h")"
grep -Eq '^    \{[0-9]+, -?[0-9]+\}' "$out/tuned_params.h" || fail "no parameters in the header"

# Refusals: no data file, an unknown option, no binary.
set +e
bash "$script" --hisha "$hisha" >/dev/null 2>&1; [[ $? == 2 ]] || fail "no DATA: want exit 2"
bash "$script" --hisha "$hisha" --bogus 1 "$out/x" 2>"$out/err"; [[ $? == 2 ]] || fail "--bogus: want exit 2"
grep -q 'unknown option --bogus' "$out/err" || fail "--bogus: $(cat "$out/err")"
bash "$script" --hisha "$out/none" "$out/x" 2>"$out/err"; [[ $? == 2 ]] || fail "no binary: want exit 2"
bash "$script" --hisha "$hisha" "$out/empty.txt" 2>"$out/err"; [[ $? == 2 ]] || fail "empty data: want exit 2"
grep -q 'has no samples' "$out/err" || fail "empty data: $(cat "$out/err")"
echo "tune-eval: $(wc -l <"$out/data.txt") samples from 4 games; header written"
