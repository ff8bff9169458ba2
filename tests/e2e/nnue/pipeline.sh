#!/usr/bin/env bash
# The network's pipeline end to end, in seconds: `hisha gensfen` plays 2 games at depth 2, the
# file validates, `hisha nnue features` turns it into the trainer's input, tools/nnue/train.py
# trains a small net for a few steps and exports it, and the engine's values of every position
# (`hisha nnue eval`) equal the trainer's quantised ones; the float model agrees within a stated
# tolerance; a net read back as the start of the next pass (--init) is the same net; `hisha usi`
# plays with the net (Evaluation NNUE, EvalFile).
# Skipped (77) when Debian's python3-torch is missing under /usr/bin/python3.
# Usage: pipeline.sh HISHA SOURCE_DIR
set -euo pipefail
HISHA=${1:?usage: pipeline.sh HISHA SOURCE_DIR}
SRC=${2:?usage: pipeline.sh HISHA SOURCE_DIR}
PY=/usr/bin/python3
fail() { echo "FAIL: $*" >&2; exit 1; }
if ! "$PY" -c 'import torch, numpy' 2>/dev/null; then
    echo "SKIP: python3-torch is not installed (scripts/install-deps.sh installs it)"
    exit 77
fi
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$HISHA" gensfen --out "$dir/data.bin" --games 2 --depth 2 --seed 3 \
    --openings "$SRC/bench/strength/openings-balanced.txt" > "$dir/gen.txt" 2> "$dir/gen.err" \
    || fail "gensfen: $(cat "$dir/gen.err")"
grep -q "games=2 " "$dir/gen.txt" || fail "gensfen: $(cat "$dir/gen.txt")"
"$HISHA" gensfen --validate "$dir/data.bin" > "$dir/val.txt" || fail "validate: $(cat "$dir/val.txt")"
records=$(sed -n 's/^records=\([0-9]*\) bad=0 .*/\1/p' "$dir/val.txt")
[[ -n $records ]] && (( records >= 20 )) || fail "validate: $(cat "$dir/val.txt")"
"$HISHA" nnue features "$dir/data.bin" "$dir/data.ftr" > /dev/null || fail "nnue features"

"$PY" "$SRC/tools/nnue/train.py" --features "$dir/data.ftr" --out "$dir/net.nnue" --steps 30 --batch 32 \
    --lr 0.01 --l1 64 --threads 1 --compare "$dir/py.txt" > "$dir/train.txt" 2>&1 \
    || fail "train.py: $(cat "$dir/train.txt")"
grep -q "^epoch 1: " "$dir/train.txt" || fail "train.py reported no epoch: $(cat "$dir/train.txt")"
"$HISHA" nnue info "$dir/net.nnue" | grep -q "layers=64x2-32-32-1" || fail "nnue info"
"$HISHA" nnue eval "$dir/net.nnue" "$dir/data.bin" > "$dir/engine.txt" || fail "nnue eval"

# The engine's integers equal the trainer's quantised values; the float model is within
# 8 cp + 5% of them on every position (int8 weights at x64 and int16 rows at x127).
paste -d' ' "$dir/py.txt" "$dir/engine.txt" | awk -v n="$records" '
    { total++; if ($2 != $3) { bad++; if (bad < 5) print "position " NR ": quantised " $2 ", engine " $3 }
      d = $1 - $2; if (d < 0) d = -d; if (d > max) max = d; tol = 8 + 0.05 * ($1 < 0 ? -$1 : $1);
      if (d > tol) { far++; if (far < 5) print "position " NR ": float " $1 ", quantised " $2 } }
    END { printf "%d positions, %d differ from the engine, float vs quantised max %.2f cp\n", total, bad, max;
          exit (total != n || bad || far) }' || fail "values differ"

# A pass starts from the committed net: --init reads it back into the float model, and with no
# training step the exported net evaluates every position exactly as the one it started from. The
# layer sizes come from that net (no --l1 here), as scripts/train-net.sh relies on.
"$PY" "$SRC/tools/nnue/train.py" --features "$dir/data.ftr" --out "$dir/again.nnue" --epochs 0 \
    --init "$dir/net.nnue" > "$dir/again.txt" 2>&1 || fail "train.py --init: $(cat "$dir/again.txt")"
"$HISHA" nnue eval "$dir/again.nnue" "$dir/data.bin" > "$dir/again-engine.txt" || fail "nnue eval (again)"
cmp -s "$dir/engine.txt" "$dir/again-engine.txt" || fail "the net read back by --init evaluates differently"
if "$PY" "$SRC/tools/nnue/train.py" --features "$dir/data.ftr" --out "$dir/bad.nnue" --epochs 0 --l1 64 \
    --init "$dir/data.ftr" > "$dir/bad.txt" 2>&1; then fail "train.py --init accepted a feature file"; fi
grep -q "not a Hisha net file" "$dir/bad.txt" || fail "train.py --init on a foreign file: $(cat "$dir/bad.txt")"

# The engine plays with it.
out=$(printf 'usi\nsetoption name EvalFile value %s\nsetoption name Evaluation value NNUE\nisready\nposition startpos\ngo depth 4\n' "$dir/net.nnue" \
      | timeout 60 "$HISHA" usi)
grep -q "^bestmove [1-9]" <<< "$out" || fail "hisha usi with the net: $out"
if grep -q "info string" <<< "$out"; then fail "hisha usi complained: $out"; fi
echo "PASS: $records positions generated, trained, exported; engine = quantised trainer on all of them"
