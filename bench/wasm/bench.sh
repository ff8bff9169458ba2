#!/usr/bin/env bash
# The browser's engine against the native one on this machine: `hisha bench DEPTH` (the fixed
# positions searched one by one, one thread, 16 MB hash, no book) run natively and as
# WebAssembly in node (the same hisha.wasm the page loads, through bench/wasm/hisha-node.mjs),
# with the Classic evaluation and with NNUE (the native build's built-in net, the wasm's
# hisha.nnue: the same file), RUNS runs of each alternated, the median nps reported; then the
# sizes of what the page fetches (raw and gzip -9).
# Usage: bench/wasm/bench.sh [DEPTH (13)] [RUNS (3)] [NATIVE_BUILD (build)] [WASM_WEB (build-wasm/web)]
set -euo pipefail
cd "$(dirname "$0")/../.."
depth=${1:-13} runs=${2:-3} native=${3:-build} web=${4:-build-wasm/web}
hisha=$native/bin/hisha
[[ -x $hisha ]] || { echo "bench: no $hisha (make build)" >&2; exit 1; }
[[ -f $web/hisha.wasm ]] || { echo "bench: no $web/hisha.wasm (make wasm)" >&2; exit 1; }

median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : int((v[NR/2]+v[NR/2+1])/2)}'; }
field() { sed -n "s/.*$1=\([0-9]*\).*/\1/p" | tail -1; }

echo "bench: depth $depth, $runs runs each, alternated; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "| evaluation | build | nodes | nps (median) | runs (nps) |"
echo "|---|---|---|---|---|"
for eval in Classic NNUE; do
    declare -a nat=() was=()
    nodes_n=0 nodes_w=0
    for ((i = 0; i < runs; i++)); do
        out=$("$hisha" bench "$depth" --evaluation "$eval")
        nodes_n=$(field nodes <<<"$out")
        nat+=("$(field nps <<<"$out")")
        if [[ $eval == NNUE ]]; then net=--net; else net=; fi
        out=$(node bench/wasm/hisha-node.mjs "$web" $net "setoption name Evaluation value $eval" "bench $depth")
        nodes_w=$(field nodes <<<"$out")
        was+=("$(field nps <<<"$out")")
    done
    mn=$(printf '%s\n' "${nat[@]}" | median)
    mw=$(printf '%s\n' "${was[@]}" | median)
    echo "| $eval | native | $nodes_n | $mn | ${nat[*]} |"
    echo "| $eval | wasm (node $(node --version)) | $nodes_w | $mw | ${was[*]} |"
    [[ $nodes_n == "$nodes_w" ]] || echo "bench: $eval: the trees differ ($nodes_n native, $nodes_w wasm)" >&2
    awk -v e="$eval" -v w="$mw" -v n="$mn" 'BEGIN {printf "| %s | wasm / native | | %.2f | |\n", e, w / n}'
    unset nat was
done
echo
echo "| file | bytes | gzip -9 |"
echo "|---|---|---|"
for f in hisha.js hisha.wasm hisha.nnue; do
    [[ -f $web/$f ]] && echo "| $f | $(wc -c <"$web/$f") | $(gzip -9 -c "$web/$f" | wc -c) |"
done
