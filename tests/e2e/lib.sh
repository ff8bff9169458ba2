# What the end-to-end test scripts share (source it after `set -euo pipefail`): a scratch folder
# $out removed at exit, fail, and expect_status. fail ends the test at the first failure; with
# FAIL_LATER=1 set before sourcing, it counts them in $failures and the test goes on (it ends
# with `exit_with_failures`).

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
failures=0
if [[ ${FAIL_LATER:-0} == 1 ]]; then
    fail() {
        echo "FAIL: $*" >&2
        failures=$((failures + 1))
    }
else
    fail() { echo "FAIL: $*" >&2; exit 1; }
fi
# Ends a FAIL_LATER test: status 1 and the count when anything failed.
exit_with_failures() {
    if ((failures)); then
        echo "$failures failure(s)" >&2
        exit 1
    fi
}

# expect_status STATUS PATTERN COMMAND...: COMMAND exits with STATUS and its standard error (and
# its standard output too when EXPECT_STDOUT=1) says PATTERN.
expect_status() {
    local want=$1 pattern=$2 status=0
    shift 2
    "$@" >"$out/stdout" 2>"$out/stderr" || status=$?
    [[ $status == "$want" ]] || fail "status $status (want $want) for: $*"
    local where=("$out/stderr")
    [[ ${EXPECT_STDOUT:-0} == 1 ]] && where+=("$out/stdout")
    grep -q -- "$pattern" "${where[@]}" || fail "no '$pattern' for $*: $(cat "$out/stderr")"
}
