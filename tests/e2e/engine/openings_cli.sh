#!/usr/bin/env bash
# `hisha openings`: the same seed gives the same file; each line is a `startpos moves ...` of
# the asked length whose position a search of that depth scores within the window (checked
# again through `hisha usi`); the file is read by `hisha match --openings`; bad options are
# refused. Usage: openings_cli.sh PATH/TO/hisha
set -euo pipefail
hisha=$1
source "$(dirname "$0")/../lib.sh"

args=(--count 6 --min-plies 6 --max-plies 10 --depth 4 --window 150)
"$hisha" openings "${args[@]}" --seed 7 --out "$out/a.txt" 2>"$out/log" || fail "openings failed: $(cat "$out/log")"
"$hisha" openings "${args[@]}" --seed 7 --out "$out/b.txt" 2>/dev/null || fail "second run failed"
"$hisha" openings "${args[@]}" --seed 8 --out "$out/c.txt" 2>/dev/null || fail "third run failed"
cmp -s "$out/a.txt" "$out/b.txt" || fail "seed 7 gave two different files"
cmp -s "$out/a.txt" "$out/c.txt" && fail "seeds 7 and 8 gave the same file"
grep -q '^# Balanced openings: hisha openings --count 6' "$out/a.txt" || fail "no header: $(head -n 2 "$out/a.txt")"
grep -v '^#' "$out/a.txt" >"$out/lines"
[[ $(wc -l <"$out/lines") == 6 ]] || fail "want 6 lines: $(cat "$out/a.txt")"
[[ $(sort -u "$out/lines" | wc -l) == 6 ]] || fail "duplicate lines"
while read -r line; do
    [[ $line =~ ^startpos\ moves(\ [1-9][a-i][1-9][a-i]\+?|\ [PLNSGBR]\*[1-9][a-i])+$ ]] || fail "not a move line: $line"
    n=$(($(wc -w <<<"$line") - 2))
    (( n >= 6 && n <= 10 )) || fail "$n plies: $line"
    score=$(printf 'usi\nisready\nsetoption name OwnBook value false\nposition %s\ngo depth 4\n' "$line" | "$hisha" usi \
        | sed -n 's/^info depth 4 .*score cp \(-\{0,1\}[0-9]*\).*/\1/p' | tail -n 1)
    [[ -n $score ]] || fail "no depth-4 score for $line"
    (( score >= -150 && score <= 150 )) || fail "score $score outside the window: $line"
done <"$out/lines"
"$hisha" match --engine a=hisha --engine b=hisha --tc depth=1 --games 2 --openings "$out/a.txt" --quiet >"$out/match" \
    || fail "match refused the file: $(cat "$out/match")"
grep -q '^summary: games=2 ' "$out/match" || fail "no summary: $(cat "$out/match")"

expect_status 2 "--out FILE is required" "$hisha" openings --count 3
expect_status 2 "above --max-plies" "$hisha" openings --out "$out/x" --min-plies 9 --max-plies 8
expect_status 2 "bad value" "$hisha" openings --out "$out/x" --depth 0
expect_status 2 "unknown option" "$hisha" openings --out "$out/x" --bogus
expect_status 1 "cannot read" "$hisha" openings --out "$out/x" "$out/missing.kif"
echo "openings_cli: ok"
