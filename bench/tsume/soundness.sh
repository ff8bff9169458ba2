#!/usr/bin/env bash
# Usage: bench/tsume/soundness.sh BUILD_DIR [PLIES]
# The soundness suite's exhaustive cross-check (tests/unit/tsume/soundness_test.cpp) beyond make
# test's 9 plies: every tsume.tsv row confirmed twice (length_basis A) of at most PLIES plies
# (default 13) must have exactly its listed length by a fixed-depth search through the core's
# moves. Prints the rows checked, the failures and the slowest rows; exits 1 on a failure.
set -euo pipefail
build=${1:?usage: soundness.sh BUILD_DIR [PLIES]}
plies=${2:-13}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
set +e
HISHA_SOUNDNESS_PLIES=$plies "$build/bin/tsume_tests" --gtest_filter='Tsv/TwoSources.*' > "$out" 2>&1
rc=$?
set -e
echo "rows up to $plies plies: $(grep -c '^\[       OK' "$out") exact, $(grep -c '^\[  FAILED  \] Tsv' "$out") failed, $(( $(date +%s) - start )) s"
echo "slowest:"
grep '^\[       OK' "$out" | sed 's/.*\/\([^ ]*\) (\([0-9]*\) ms)/\2 ms \1/' | sort -rn | head -5
grep -A3 'Failure' "$out" | head -40 || true
exit $rc
