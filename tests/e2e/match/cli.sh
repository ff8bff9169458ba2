#!/usr/bin/env bash
# `hisha match` from the command line: a short match writes its table and its records; bad
# options are refused with exit status 2 and a message; an engine that cannot be used fails
# the pre-flight check with status 1. Usage: cli.sh PATH/TO/hisha
set -euo pipefail
hisha=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$hisha" match --engine a=hisha --engine b="$hisha usi" --option a:USI_Hash=16 --option b:USI_Hash=16 \
    --games 2 --tc depth=1 --max-plies 60 --out "$out/games" --log "$out/traffic.log" >"$out/stdout" \
    || fail "the match failed: $(cat "$out/stdout")"
grep -q '^Game 2/2 ' "$out/stdout" || fail "no progress line: $(cat "$out/stdout")"
grep -Eq '^a vs b +2 ' "$out/stdout" || fail "no table row: $(cat "$out/stdout")"
grep -q 'LOS' "$out/stdout" || fail "no LOS column"
[[ $(ls "$out/games"/*.kif | wc -l) == 2 && $(ls "$out/games"/*.csa | wc -l) == 2 ]] || fail "records missing"
[[ $(wc -l <"$out/games/games.txt") == 2 ]] || fail "games.txt should list 2 games"
grep -q 'b > usi' "$out/traffic.log" || fail "the traffic log misses the handshake"
grep -q 'b < bestmove' "$out/traffic.log" || fail "the traffic log misses the answers"

expect_status() {
    local want=$1 pattern=$2; shift 2
    local status=0
    "$hisha" match "$@" >"$out/stdout" 2>"$out/stderr" || status=$?
    [[ $status == "$want" ]] || fail "status $status (want $want) for: $*"
    grep -q -- "$pattern" "$out/stderr" || fail "no '$pattern' in: $(cat "$out/stderr")"
}
expect_status 2 "at least two" --engine a=hisha --tc depth=1
expect_status 2 "tc is required" --engine a=hisha --engine b=hisha
expect_status 2 "no engine named c" --engine a=hisha --engine b=hisha --tc depth=1 --option c:x=1
expect_status 2 "bad time control" --engine a=hisha --engine b=hisha --tc 5x
expect_status 2 "unknown option" --engine a=hisha --engine b=hisha --tc depth=1 --frobnicate
expect_status 2 "sprt" --engine a=hisha --engine b=hisha --tc depth=1 --sprt elo0=5 elo1=0
expect_status 1 "exited" --engine a=hisha --engine b=/nonexistent/engine --tc depth=1
"$hisha" match --help | grep -q -- '--concurrency' || fail "help"
echo "match cli: ok"
