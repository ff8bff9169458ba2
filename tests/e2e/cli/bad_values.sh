#!/usr/bin/env bash
# The command lines read by CLI11 (src/app/cli.h): every subcommand and both programs answer
# --version (exit 0, the one version) and --help (exit 0, with an example); a refused value
# exits 2 with exactly one line on stderr that names the option and the value; a missing value
# and an unknown option exit 2 with one line too.
# Usage: bad_values.sh HISHA HISHA_SERVER
set -euo pipefail
HISHA=${1:?usage: bad_values.sh HISHA HISHA_SERVER}
SERVER=${2:?usage: bad_values.sh HISHA HISHA_SERVER}
fail() { echo "FAIL: $*" >&2; exit 1; }

version=$("$HISHA" --version)
[[ $version == "hisha "* ]] || fail "hisha --version: $version"
subs=(usi bench perft match openings selfplay tune gensfen nnue convert book tsume csa)
for sub in "${subs[@]}"; do
    out=$("$HISHA" "$sub" --version) || fail "hisha $sub --version exits $?"
    [[ $out == "$version" ]] || fail "hisha $sub --version: '$out', not '$version'"
    out=$("$HISHA" "$sub" --help) || fail "hisha $sub --help exits $?"
    grep -qi "example" <<< "$out" || fail "hisha $sub --help has no example"
done
out=$("$SERVER" --version) && [[ $out == "hisha-server ${version#hisha }" ]] || fail "hisha-server --version: $out"
for help in "$HISHA --help" "$SERVER --help" "$SERVER admin --help"; do
    # shellcheck disable=SC2086
    out=$($help) && grep -qi "example" <<< "$out" || fail "$help has no example"
done

# expect_one_line STATUS TEXT COMMAND...: COMMAND exits STATUS with one line on stderr holding TEXT.
expect_one_line() {
    local want=$1 text=$2 rc=0 err
    shift 2
    err=$("$@" 2>&1 >/dev/null) || rc=$?
    ((rc == want)) || fail "$* exits $rc (want $want): $err"
    (($(wc -l <<< "$err") == 1)) || fail "$*: more than one line: $err"
    grep -qF -- "$text" <<< "$err" || fail "$*: '$err' does not say '$text'"
}
expect_one_line 2 "--games wants a whole number, not 'many'" "$HISHA" selfplay --games many --out /dev/null
expect_one_line 2 "--depth wants a whole number from 1 to 30, not '99'" "$HISHA" gensfen --out /dev/null --depth 99
expect_one_line 2 "--time wants seconds above 0, not '-3'" "$HISHA" gensfen --out /dev/null --time -3
expect_one_line 2 "--epochs needs a number from 1 to 1e+06, not 'x'" "$HISHA" tune --epochs x data.txt
expect_one_line 2 "--games needs a whole number 1..100000000, not '0'" "$HISHA" match --games 0
expect_one_line 2 "--at-max wants draw or count, not 'maybe'" "$HISHA" match --at-max maybe
expect_one_line 2 "--port needs a whole number 1..65535, not '99999'" "$HISHA" csa --port 99999
expect_one_line 2 "--comments is on or off, not 'loud'" "$HISHA" csa --comments loud
expect_one_line 2 "--convention is ordinary or tsume, not 'x'" "$HISHA" tsume --convention x
expect_one_line 2 "--time-limit needs a number of at least 0, not 'soon'" "$HISHA" tsume --time-limit soon
expect_one_line 2 "--to is kif" "$HISHA" convert --to docx in.kif
expect_one_line 2 "--encoding is utf-8 or sjis, not 'latin1'" "$HISHA" convert --encoding latin1 in.kif
expect_one_line 2 "--plies needs a number from 1 to 1000, not '0'" "$HISHA" book build --plies 0 --out b r.kif
expect_one_line 2 "--count: bad value 'lots'" "$HISHA" openings --out /dev/null --count lots
expect_one_line 2 "the depth is 1..30, not '31'" "$HISHA" bench 31
expect_one_line 2 "the depth is a whole number 0..999, not 'deep'" "$HISHA" perft deep
expect_one_line 2 "--out needs a value" "$HISHA" selfplay --games 1 --out
expect_one_line 2 "unknown option --frobnicate" "$HISHA" tsume --frobnicate
expect_one_line 2 "unexpected argument 'frob'" "$HISHA" frob
expect_one_line 2 "--hash-threads needs a number, 1..64, not '0'" "$SERVER" --hash-threads 0
expect_one_line 2 "--session-lifetime needs a duration: 30m, 12h, 30d, 2w (or 90s), not 'forever'" \
    "$SERVER" --session-lifetime forever
expect_one_line 2 "--guest-lifetime needs a duration: 30m, 12h, 1d (or 0: no guests), not 'soon'" \
    "$SERVER" --guest-lifetime soon
expect_one_line 2 "--db needs a value" "$SERVER" --db
expect_one_line 2 "unknown argument --frobnicate" "$SERVER" --frobnicate 1
expect_one_line 2 "unknown option --frobnicate" "$SERVER" admin list --frobnicate
# GNU Shogi's own syntax is not CLI11's and still works: -v prints the version.
out=$("$HISHA" -v 2>&1 </dev/null) || fail "hisha -v exits $?"
grep -q "${version#hisha }" <<< "$out" || fail "hisha -v: $out"
echo "PASS: --version and --help of ${#subs[@]} subcommands and both programs; bad values exit 2 in one line"
