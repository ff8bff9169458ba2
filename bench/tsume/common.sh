# Shared set-up of the tsume benches, sourced by run.sh and speed.sh after they set NAME (the
# bench's name in messages): checks the one argument, sets HISHA and TSV, and stops (exit 0,
# "skipped") when the test data is not beside the repository.
if (($# != 1)); then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi
HISHA="$1/bin/hisha"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DATA="${HISHA_TESTDATA_DIR:-$ROOT/tests/data/vectors}"
TSV="$DATA/tsume.tsv"
if [[ ! -x "$HISHA" ]]; then
    echo "$NAME: $HISHA not found; build first" >&2
    exit 2
fi
if [[ ! -f "$TSV" ]]; then
    echo "$NAME: $TSV not found; skipped"
    exit 0
fi
