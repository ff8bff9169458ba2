#!/usr/bin/env bash
# Every subcommand `hisha help` lists answers --help with its usage on standard output and exit
# status 0, and both programs do; a bad value exits 2 with one message naming the option (it
# aborted: `hisha selfplay --games x` died of an uncaught exception, status 134).
# Usage: help.sh HISHA HISHA_SERVER
set -euo pipefail
HISHA=${1:?usage: help.sh HISHA HISHA_SERVER}
SERVER=${2:?usage: help.sh HISHA HISHA_SERVER}
fail() { echo "FAIL: $*" >&2; exit 1; }

subs=$("$HISHA" help | sed -n 's/^ *\(usage:\)\? *hisha \([a-z][a-z-]*\).*/\2/p' | sort -u | grep -vx help)
(( $(wc -w <<< "$subs") >= 10 )) || fail "hisha help lists too few subcommands: $subs"
for sub in $subs; do
    [[ $sub == usi ]] && continue  # `hisha usi` is the engine: its help is the USI command `help`
    out=$("$HISHA" "$sub" --help 2>/dev/null) || fail "hisha $sub --help exits $?"
    grep -q "usage: hisha $sub" <<< "$out" || fail "hisha $sub --help: $out"
done
# Outputs are read whole before they are searched: `grep -q` in a pipe would close it early, and
# under pipefail the writer's SIGPIPE would fail the test at random.
out=$("$HISHA" --help) && grep -q "usage: hisha" <<< "$out" || fail "hisha --help"
out=$("$SERVER" --help) && grep -q "usage: hisha-server" <<< "$out" || fail "hisha-server --help"
out=$(printf 'help\nquit\n' | "$HISHA" usi) && grep -q "info string go:" <<< "$out" || fail "hisha usi: help"

set +e
msg=$("$HISHA" selfplay --games x --out /dev/null 2>&1); rc=$?
set -e
(( rc == 2 )) || fail "hisha selfplay --games x exits $rc: $msg"
grep -q -- "--games wants a whole number, not 'x'" <<< "$msg" || fail "hisha selfplay --games x: $msg"
set +e
msg=$("$HISHA" bench 99 2>&1); rc=$?
set -e
(( rc == 2 )) && grep -q "1..30" <<< "$msg" || fail "hisha bench 99 exits $rc: $msg"
# The bench's evaluation: the default (NNUE with the built-in net) and Classic search different
# trees; an unknown evaluation is refused with the choices.
nnue=$("$HISHA" bench 3 | tail -1) && classic=$("$HISHA" bench 3 --evaluation Classic | tail -1) \
    || fail "hisha bench 3 [--evaluation Classic]"
[[ $nnue == nodes=* && $classic == nodes=* && ${nnue%% *} != "${classic%% *}" ]] \
    || fail "hisha bench 3: the default ($nnue) and --evaluation Classic ($classic) searched the same tree"
set +e
msg=$("$HISHA" bench 3 --evaluation Bogus 2>&1); rc=$?
set -e
(( rc == 1 )) && grep -q "Bogus" <<< "$msg" || fail "hisha bench --evaluation Bogus exits $rc: $msg"
for bad in "--csa-max-moves x|--csa-max-moves needs a number 0..100000, not 'x'" \
           "--text-port 70000|--text-port needs a port, 0..65535 (0: any; -1: off), not '70000'" \
           "--log loud|--log is json or off, not 'loud'" "--frobnicate 1|unknown argument --frobnicate" \
           "--tournament floodgate-600-10|--tournament needs PATTERN:INTERVAL (e.g. floodgate-600-10F*:30m), not 'floodgate-600-10'"; do
    args=${bad%%|*} want=${bad#*|}
    set +e
    # shellcheck disable=SC2086
    msg=$("$SERVER" $args 2>&1); rc=$?
    set -e
    (( rc == 2 )) && grep -qF -- "$want" <<< "$msg" || fail "hisha-server $args exits $rc: $msg"
done
echo "PASS: --help of $(wc -w <<< "$subs") subcommands and both programs; bad values exit 2"
