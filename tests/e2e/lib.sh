# What the end-to-end test scripts share (source it after `set -euo pipefail`): a scratch folder
# $out removed at exit, fail (the first failure ends the test), and expect_status.

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

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
