#!/usr/bin/env bash
# Texel tuning of the default (Classic) evaluation, as run for src/engine/tuned_params.h:
# self-play positions with their game's result and search score (hisha selfplay), then a fit
# of every parameter to them (hisha tune), written as the header the build applies.
#
# Usage: scripts/tune-eval.sh [options] DATA
#   DATA            the sample file; selfplay appends to it, so a stopped run is resumed by
#                   running the script again with a new --seed (so that its games are new ones)
# Options:
#   --hisha BIN     the hisha binary (default build/bin/hisha)
#   --games N       self-play games to add first (default 0: tune on DATA as it is)
#   --nodes K       nodes a move in those games (default 6000)
#   --threads T     games at once (default 2)
#   --seed S        seed of the games' random opening plies (default 1)
#   --lambda L      target = L x result + (1 - L) x sigmoid(score) (default 0.5)
#   --min-count N   parameters seen in fewer samples keep their value (default 500)
#   --l2 L          pull towards the hand-set values (default 3e-9)
#   --epochs N      (default 300)
#   --header PATH   where to write the header (default: print the fit only)
# The defaults are those of the committed header's fit: on its 122,000 samples a larger
# min-count or l2 held the fit back, and a smaller one let the held-out loss rise (over-fitting).
# The figures of the committed header (samples, loss before and after) are in its first lines.
set -euo pipefail
usage() { sed -n '2,/^# The figures/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

hisha=build/bin/hisha games=0 nodes=6000 threads=2 seed=1 lambda=0.5 min_count=500 l2=3e-9 epochs=300 header=""
data=""
while (( $# )); do
    case "$1" in
        --hisha) hisha=$2; shift 2 ;;
        --games) games=$2; shift 2 ;;
        --nodes) nodes=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --lambda) lambda=$2; shift 2 ;;
        --min-count) min_count=$2; shift 2 ;;
        --l2) l2=$2; shift 2 ;;
        --epochs) epochs=$2; shift 2 ;;
        --header) header=$2; shift 2 ;;
        -h|--help) usage ;;
        -*) echo "tune-eval.sh: unknown option $1" >&2; exit 2 ;;
        *) [[ -z $data ]] || { echo "tune-eval.sh: one DATA file only ($data, $1)" >&2; exit 2; }; data=$1; shift ;;
    esac
done
[[ -n $data ]] || usage
[[ -x $hisha ]] || { echo "tune-eval.sh: no hisha binary at $hisha (build first, or --hisha BIN)" >&2; exit 2; }

if (( games > 0 )); then
    echo "self-play: $games games at $nodes nodes a move, seed $seed -> $data"
    "$hisha" selfplay --games "$games" --nodes "$nodes" --threads "$threads" --seed "$seed" \
        --random-plies 8 --out "$data"
fi
[[ -s $data ]] || { echo "tune-eval.sh: $data has no samples (give --games N)" >&2; exit 2; }
echo "samples: $(wc -l < "$data") lines in $data"
args=("$data" --epochs "$epochs" --lambda "$lambda" --min-count "$min_count" --l2 "$l2" --validation 0.1)
[[ -z $header ]] || args+=(--emit-header "$header")
"$hisha" tune "${args[@]}"
