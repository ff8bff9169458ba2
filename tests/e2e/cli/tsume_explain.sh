#!/usr/bin/env bash
# hisha tsume --explain: the main line, each other defence with the mate proven after it, the
# yozume report; --format json parses; --help names the options; bad values exit 2.
# yane-m5-03 (tests/data/vectors/tsume.tsv): S*5h 6i6h ..., and 6i7i loses at once to R*6i.
# Usage: tsume_explain.sh HISHA
set -euo pipefail
HISHA=${1:?usage: tsume_explain.sh HISHA}
fail() { echo "FAIL: $*" >&2; exit 1; }
P='lnG4nl/5k3/p1p+R1g1p1/1p1p3sp/5N3/2P1p1p2/PP1GP3P/1SG2+p1+b1/LN1K4L w Srbs4p 60'

out=$("$HISHA" tsume --help)
for opt in --explain --explain-budget --format; do
    grep -q -- "$opt" <<< "$out" || fail "hisha tsume --help does not name $opt: $out"
done

out=$(echo "$P" | "$HISHA" tsume --explain -)
grep -qx 'mate 5 S\*5h 6i6h .*' <<< "$out" || fail "no main line: $out"
grep -q '^  6i7i: mate 1 R\*6i$' <<< "$out" || fail "no refutation of 6i7i: $out"
grep -q '^no yozume' <<< "$out" || fail "no yozume report: $out"
grep -q '^questions [0-9]*, timeouts 0$' <<< "$out" || fail "no question count: $out"

# Two gold drops mate: the yozume report names the other one.
out=$(echo '8k/9/6S1P/9/9/9/9/9/9 b G 1' | "$HISHA" tsume --explain --convention tsume -)
grep -q '^yozume at ply 1 (G\*[12]b, 1 plies left): G\*[12]b mates in 1' <<< "$out" || fail "no yozume: $out"

json=$(echo "$P" | "$HISHA" tsume --explain --format json -)
python3 -c '
import json, sys
j = json.loads(sys.argv[1])
assert j["status"] == "mate" and j["length"] == 5, j
d = j["defences"][0]
assert d["played"] == "6i6h" and d["others"][0] == {"move": "6i7i", "verdict": "mate", "length": 1, "line": ["R*6i"]}, d
assert j["yozume"] == [] and j["timeouts"] == 0, j
' "$json" || fail "JSON: $json"
# Without --explain, --format json is the solve alone; a bad position is a JSON error too.
json=$(printf '%s\nnot a position\n' "$P" | "$HISHA" tsume --format json -)
python3 -c '
import json, sys
a, b = [json.loads(l) for l in sys.argv[1].splitlines()]
assert a["status"] == "mate" and a["defences"] == [] and a["questions"] == 0, a
assert b["status"] == "error" and b["error"], b
' "$json" || fail "JSON without --explain: $json"

# A budget too small to answer: timeouts are said, nothing is guessed.
out=$(echo "$P" | "$HISHA" tsume --explain --explain-budget 1 -)
grep -q 'timeout' <<< "$out" || fail "--explain-budget 1: $out"
out=$(echo "$P" | "$HISHA" tsume --explain --explain-budget 5s -)
grep -q '^  6i7i: mate 1 R\*6i$' <<< "$out" || fail "--explain-budget 5s: $out"

for bad in "--explain-budget x" "--explain-budget 0" "--explain-budget -1s" "--format xml"; do
    set +e
    # shellcheck disable=SC2086
    msg=$(echo "$P" | "$HISHA" tsume $bad - 2>&1); rc=$?
    set -e
    (( rc == 2 )) && grep -q -- "${bad%% *}" <<< "$msg" || fail "hisha tsume $bad exits $rc: $msg"
done
echo "PASS: hisha tsume --explain (text, json, budgets, bad values)"
