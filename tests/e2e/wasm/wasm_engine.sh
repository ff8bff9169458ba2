#!/usr/bin/env bash
# The browser's engine (make wasm: web/public/wasm/hisha.{js,wasm,nnue}) run in node, checked
# against the native program: the same bench trees (depth 6, Classic and NNUE: equal node
# counts mean the same search, move for move), a mate in 3 with its unique line, the board
# command's legal moves against `hisha`'s perft 1, a KIF record read by the record command (the
# page's offline load) against `hisha convert`, and clear errors for bad input.
# Usage: wasm_engine.sh HISHA WASM_DIR. Exit 77 (skipped) when the wasm is not built, outside CI.
set -euo pipefail
hisha=$1 dir=$2
here=$(cd "$(dirname "$0")" && pwd)
runner=$here/../../../bench/wasm/hisha-node.mjs
if [[ ! -f $dir/hisha.wasm ]]; then
    echo "wasm_engine: no $dir/hisha.wasm (make wasm needs emscripten)" >&2
    [[ -n "${CI:-}" ]] && exit 1
    exit 77
fi
fail=0 pass=0
check() {  # check NAME EXPECTED ACTUAL
    if [[ "$2" == "$3" ]]; then pass=$((pass + 1)); echo "ok: $1"
    else fail=$((fail + 1)); echo "FAIL: $1: expected '$2', got '$3'"; fi
}
nodes() { sed -n 's/^nodes=\([0-9]*\).*/\1/p'; }

for eval in Classic NNUE; do
    native=$("$hisha" bench 6 --evaluation "$eval" | nodes)
    net=; [[ $eval == NNUE ]] && net=--net
    wasm=$(node "$runner" "$dir" $net "setoption name Evaluation value $eval" 'bench 6' | nodes)
    check "bench 6 $eval nodes (native $native)" "$native" "$wasm"
done

out=$(node "$runner" "$dir" 'notation on' 'tsume convention tsume sfen 3sks3/9/4+P4/9/9/9/9/9/4K4 b 2G 1')
check "tsume mate in 3" "tsume mate 3 G*5b 4a5b G*4b unique" "$(grep '^tsume ' <<<"$out")"
check "tsume western line" "info string western G*5b S4ax5b G*4b" "$(grep '^info string western' <<<"$out")"

after='lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3'  # 7g7f 3c3d
board=$(node "$runner" "$dir" 'position startpos moves 7g7f 3c3d' board)
check "board sfen" "board sfen $after" "$(grep '^board sfen' <<<"$board")"
legal=$(sed -n 's/^board legal //p' <<<"$board" | wc -w)
perft=$("$hisha" perft 1 --sfen "$after" | nodes)
check "board legal moves = perft 1" "$perft" "$legal"

# (The page hands the worker text it decoded: UTF-8.)
kif=$here/../../data/vectors/records/kif/habu-fujii-2006.kif  # Shift_JIS, with comments
utf8=$(mktemp --suffix=.kif); trap 'rm -f "$utf8"' EXIT
iconv -f CP932 -t UTF-8 "$kif" >"$utf8"
rec=$(node "$runner" "$dir" --put "$utf8=/game.kif" 'record /game.kif' board)
usi=$("$hisha" convert --to usi "$kif" - | sed 's/^position startpos moves //')
check "record start" "record start lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1" "$(grep '^record start' <<<"$rec")"
check "record moves = hisha convert" "$usi" "$(sed -n 's/^board move \([^ ]*\) .*/\1/p' <<<"$rec" | paste -sd' ')"
check "record headers" 1 "$(grep -c $'^record header black\t羽生善治$' <<<"$rec")"
check "record first move in KI2" "board move 7g7f P-7f ▲７六歩 ７六歩(77)" "$(grep -m1 '^board move' <<<"$rec")"
check "record comment before the first move" 1 "$(grep -c '^record comment 0 .*第65期順位戦' <<<"$rec")"

out=$(node "$runner" "$dir" 'go' 'go infinite' 'position sfen nonsense' 'setoption name Threads value 2' 'frobnicate' 'tsume sfen 9/9/9/9/9/9/9/9/9 b - 1' 'record /nothing.kif' isready)
check "errors, then still answering" 6 "$(grep -c '^info string error' <<<"$out")"
check "tsume of no problem" 1 "$(grep -c '^tsume error' <<<"$out")"
check "readyok at the end" readyok "$(tail -1 <<<"$out")"

echo "$pass passed, $fail failed"
((fail == 0))
