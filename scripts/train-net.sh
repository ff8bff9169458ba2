#!/usr/bin/env bash
# One training pass of Hisha's network (issue 19, docs/nnue.md): self-play data from the current
# evaluation, training that starts from the committed net, and an SPRT of the result against the
# committed net (or the classical evaluation when there is none yet). A net that passes is copied
# over the committed one and NETS.md gains its line; commit both.
#
# Usage: scripts/train-net.sh [options]
# Options:
#   --hisha BIN        the engine (default build/bin/hisha; `make` builds it)
#   --work DIR         where the pass keeps its files (default ../nnue-work); everything there
#                      resumes: the data file continues (FILE.state), training from its
#                      checkpoint, and a finished step is not run again
#   --gen-minutes M    data generation, wall-clock minutes in this run (default 90)
#   --positions N      stop generating at N records in the file (default 3000000)
#   --nodes N          nodes a search in the self-play games (default 1500)
#   --gen-with E       the evaluation that plays them: net (default: the committed net, stronger than
#                      Classic since psqt1, NETS.md) or classic; without a committed net, Classic
#   --seed S           the games' seed (default 1; another seed, other games)
#   --threads T        generation and training threads (default 2)
#   --epochs E         training epochs (default 8)
#   --lambda L         weight of the game result in the target (default 0: with a million positions
#                      of one session the net learns the games' results by heart, NETS.md)
#   --games G          SPRT game limit (default 600), at --tc (default st=0.1), bounds [0, 10]
#   --net NET          the committed net to start from and to beat (default
#                      src/engine/nnue/nets/hisha.nnue when it exists; none: start from nothing, beat Classic)
#   --to NET           where a net that passes goes (default src/engine/nnue/nets/hisha.nnue)
#   --record FILE      the log of passes that gains a line (default src/engine/nnue/NETS.md)
#   --from-scratch     train from random weights even when a net is committed
#   --no-sprt          stop after training (the candidate is WORK/candidate.nnue)
# Example: scripts/train-net.sh --gen-minutes 80 --epochs 6 --games 400
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { sed -n '2,/^# Example/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }

hisha="$root/build/bin/hisha" work="$root/../nnue-work" gen_minutes=90 positions=3000000 nodes=1500 seed=1
threads=2 epochs=8 lambda=0 games=600 gen_with=net tc="st=0.1" net="" scratch=0 sprt=1
committed="$root/src/engine/nnue/nets/hisha.nnue" record="$root/src/engine/nnue/NETS.md"
# Each --name VALUE sets the variable of that name (dashes as underscores); --to and --record
# name the files committed and record.
valued=" hisha work gen-minutes positions nodes seed threads epochs lambda games tc net to record gen-with "
while (( $# )); do
    name=${1#--}
    case $1 in
    --from-scratch) scratch=1; shift ;;
    --no-sprt) sprt=0; shift ;;
    -h|--help) usage 0 ;;
    --*)
        [[ $valued == *" $name "* ]] || { echo "train-net: unknown option $1" >&2; usage; }
        (( $# >= 2 )) || { echo "train-net: $1 needs a value" >&2; exit 2; }
        var=${name//-/_}
        [[ $var == to ]] && var=committed
        printf -v "$var" '%s' "$2"
        shift 2 ;;
    *) echo "train-net: unknown argument $1" >&2; usage ;;
    esac
done
for n in gen_minutes positions nodes seed threads epochs games; do
    [[ ${!n} =~ ^[0-9]+$ ]] || { echo "train-net: --${n//_/-} ${!n}: a whole number" >&2; exit 2; }
done
[[ -x $hisha ]] || { echo "train-net: no engine at $hisha (run make, or give --hisha)" >&2; exit 2; }
py=/usr/bin/python3
"$py" -c 'import torch, numpy' 2>/dev/null \
    || { echo "train-net: $py lacks torch or numpy (scripts/install-deps.sh installs them)" >&2; exit 2; }
if [[ $net == none ]]; then net=""; elif [[ -z $net && -f $committed ]]; then net=$committed; fi
[[ -z $net || -f $net ]] || { echo "train-net: no net file $net" >&2; exit 2; }
[[ $gen_with == classic || $gen_with == net ]] || { echo "train-net: --gen-with $gen_with: classic or net" >&2; exit 2; }
mkdir -p "$work"
work=$(cd "$work" && pwd)
log="$work/pass.log"
say() { echo "train-net: $*" | tee -a "$log"; }

# The engine that plays the games is copied aside: a rebuild must not replace it mid-run.
cp "$hisha" "$work/hisha"
eval_args=()
[[ -n $net && $gen_with == net ]] && eval_args=(--eval-file "$net")
say "$(date -u +%FT%TZ) pass: net ${net:-none}, games played with ${eval_args[*]:-Classic}, nodes $nodes, seed $seed, $threads threads"

# 1. Data: self-play with the current evaluation, resumable.
start=$(date +%s)
"$work/hisha" gensfen --out "$work/data.bin" --positions "$positions" --time $(( gen_minutes * 60 )) \
    --nodes "$nodes" --threads "$threads" --seed "$seed" "${eval_args[@]}" \
    --openings "$root/bench/strength/openings-balanced.txt" > "$work/gen.out" 2> "$work/gen.err"
records=$(( $(stat -c %s "$work/data.bin") / 48 ))
gen_seconds=$(( $(cat "$work/gen.seconds" 2>/dev/null || echo 0) + $(date +%s) - start ))
echo "$gen_seconds" > "$work/gen.seconds"
say "data: $records positions in $work/data.bin, $(( gen_seconds / 60 )) min of generation in all; $(tail -1 "$work/gen.out")"

# 2. Features and training (from the committed net unless --from-scratch; from the checkpoint
# when a training of this data was interrupted).
"$work/hisha" nnue features "$work/data.bin" "$work/data.ftr" > /dev/null
train=(--features "$work/data.ftr" --out "$work/candidate.nnue" --epochs "$epochs" --lambda "$lambda"
       --threads "$threads" --checkpoint "$work/ckpt.pt")
if [[ -f $work/ckpt.pt && $work/ckpt.pt -nt $work/data.ftr ]]; then
    train+=(--resume "$work/ckpt.pt")
elif [[ -n $net && $scratch == 0 ]]; then
    train+=(--init "$net")
fi
start=$(date +%s)
"$py" "$root/tools/nnue/train.py" "${train[@]}" 2>&1 | tee "$work/train.out"
[[ -f $work/candidate.nnue && $work/candidate.nnue -nt $work/data.ftr ]] \
    || { say "training wrote no net"; exit 1; }
# The exported epoch's loss: the lowest one (train.py says which), else the last epoch's.
val=$(sed -n 's/.*the lowest validation loss (\([0-9.]*\)).*/\1/p' "$work/train.out" | tail -1)
[[ -n $val ]] || val=$(sed -n 's/.*validation loss \([0-9.]*\),.*/\1/p' "$work/train.out" | tail -1)
say "training: $epochs epochs in $(( ($(date +%s) - start) / 60 )) min, validation loss $val"
(( sprt )) || { say "candidate: $work/candidate.nnue (no SPRT)"; exit 0; }

# 3. SPRT at 0.1 s a move: the candidate against the committed net, or against Classic.
base_opts=()
if [[ -n $net ]]; then
    base_opts=(--option base:Evaluation=NNUE --option "base:EvalFile=$net"); against="the committed net"
else
    base_opts=(--option base:Evaluation=Classic); against="Classic"
fi
cp "$work/candidate.nnue" "$work/sprt.nnue"
bash "$root/bench/strength/sprt.sh" --change "NNUE pass ($records positions, $epochs epochs) vs $against" \
    --elo0 0 --elo1 10 --games "$games" --tc "$tc" \
    --option new:Evaluation=NNUE --option "new:EvalFile=$work/sprt.nnue" "${base_opts[@]}" \
    --results "$work/sprt.md" "$work/hisha" "$work/hisha" | tee "$work/sprt.out"
row=$(tail -1 "$work/sprt.md")
say "SPRT: $row"
cell() { cut -d'|' -f"$1" <<< "$row" | xargs; }
played=$(cell 7)  # "N: W-L-D"
result="vs $against: ${played%%:*} games, ${played#*: } (W-L-D), Elo $(cell 9), $(cell 11)"
line="| $(date -u +%F) | KB9 candidate | $records positions, \`gensfen --nodes $nodes --seed $seed\`, played by ${eval_args[*]:+the net}${eval_args[*]:-Classic} | $(( gen_seconds / 60 )) min, threads $threads | $epochs epochs, lambda $lambda | $val | $result |"
if grep -q "H1 (pass)" <<< "$row"; then
    mkdir -p "$(dirname "$committed")"
    cp "$work/candidate.nnue" "$committed"
    echo "$line yes |" >> "$record"
    say "passed: $committed replaced and NETS.md has its line; commit them"
else
    echo "$line no |" >> "$record"
    say "not passed: NETS.md has its line; the committed net stays"
fi
