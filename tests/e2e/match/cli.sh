#!/usr/bin/env bash
# `hisha match` from the command line: a short match writes its table and its records; bad
# options are refused with exit status 2 and a message; an engine that cannot be used fails
# the pre-flight check with status 1. Usage: cli.sh PATH/TO/hisha
set -euo pipefail
hisha=$1
source "$(dirname "$0")/../lib.sh"

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

expect_status 2 "at least two" "$hisha" match --engine a=hisha --tc depth=1
expect_status 2 "tc is required" "$hisha" match --engine a=hisha --engine b=hisha
expect_status 2 "no engine named c" "$hisha" match --engine a=hisha --engine b=hisha --tc depth=1 --option c:x=1
expect_status 2 "bad time control" "$hisha" match --engine a=hisha --engine b=hisha --tc 5x
expect_status 2 "unknown option" "$hisha" match --engine a=hisha --engine b=hisha --tc depth=1 --frobnicate
expect_status 2 "sprt" "$hisha" match --engine a=hisha --engine b=hisha --tc depth=1 --sprt elo0=5 elo1=0
expect_status 1 "exited" "$hisha" match --engine a=hisha --engine b=/nonexistent/engine --tc depth=1
"$hisha" match --help | grep -q -- '--concurrency' || fail "help"
echo "match cli: ok"
