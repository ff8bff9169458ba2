#!/usr/bin/env bash
# `hisha` as GNU Shogi scripts use it: commands piped in or typed ahead while the program
# thinks. Every line is read once and in order, by the command loop or by the question a
# command asks (the file name of save and get, the numbers of depth and hashdepth), in the
# raw and xshogi displays, whether the lines are all in the pipe at once (the end of input
# seen during the search) or arrive while the engine is searching; nothing hangs. Also: no
# question for a time control without time arguments, no Promote? question when the input is
# no terminal, and a USI GUI that starts `hisha` on pipes gets a USI engine.
set -euo pipefail
HISHA=$(realpath "${1:?usage: typeahead.sh HISHA}")
export HISHA_HASHFILE=/nonexistent/hisha-test.hsh
FAIL_LATER=1
source "$(dirname "$0")/../lib.sh"
T=$out
trap '' PIPE  # a write to a program that has exited fails instead of ending the test
# Runs hisha with stdin from $1 (a string) and the remaining arguments; the output in $T/out.
run() {
    local input=$1
    shift
    local rc=0
    printf '%s' "$input" | (cd "$T" && timeout 120 "$HISHA" "$@") >"$T/out" 2>&1 || rc=$?
    if ((rc)); then
        fail "hisha $* exited with $rc (input: $(printf '%s' "$input" | tr '\n' '/'))"
        cat "$T/out" >&2
        return 1
    fi
}
# The output without the prompts of the command loop.
shown() { sed 's/Your move is? //g' "$T/out"; }
expect() {  # expect WHAT REGEX: the output has a line matching REGEX
    shown | grep -E -- "$2" >/dev/null || { fail "$1: no line matching /$2/"; cat "$T/out" >&2; }
}
expect_not() {
    if shown | grep -E -- "$2" >/dev/null; then fail "$1: a line matches /$2/"; cat "$T/out" >&2; fi
}

# 1. The issue's script: save's file name piped right behind the move, read while the program
# thinks about its answer (and after the end of input was seen).
run $'7g7f\nsave\ngame.sav\nbd\nquit\n' -R 0:01 && {
    expect "raw save" '^Enter file name: Saved the game to game.sav'
    [[ -f "$T/game.sav" ]] || fail "raw save: no game.sav"
    grep -q '7g7f\|P-7f\|7六' "$T/game.sav" 2>/dev/null || fail "raw save: game.sav lacks 7g7f"
    [[ ! -e "$T/bd" && ! -e "$T/quit" ]] || fail "raw save: a command was taken for the file name"
    expect "raw save, then bd" '^White to move|^Black to move'
}
rm -f "$T"/game.sav "$T"/bd "$T"/quit

# 2. The same in the xshogi protocol (no question is printed there).
run $'depth 2\n7g7f\nsave\ngame.psn\nquit\n' -X 40 5 && {
    expect "xshogi move" '^1\. \.\.\. '
    [[ -f "$T/game.psn" ]] || fail "xshogi save: no game.psn"
    [[ ! -e "$T/quit" ]] || fail "xshogi save: quit was taken for the file name"
}

# 3. Lines that arrive while the engine is searching on a pipe that stays open: the move, then
# (the program thinking for 3 s) get, its file name, depth and its number, bd; quit comes once
# the program has answered.
mkfifo "$T/in"
(cd "$T" && timeout 120 "$HISHA" -R 0:03 <"$T/in" >"$T/out" 2>&1) &
pid=$!
exec 3>"$T/in"
printf '7g7f\nget\ngame.psn\ndepth\n3\nbd\n' >&3
for _ in $(seq 1 600); do
    grep -q 'Depth: 3 plies' "$T/out" 2>/dev/null && break
    sleep 0.1
done
printf 'quit\n' >&3
exec 3>&-
wait "$pid" || fail "open pipe: hisha exited with $?"
expect "open pipe: the program's move" '^My move is: '
expect "open pipe: get read its file name" '^Enter file name: Loaded [0-9]+ moves from game.psn'
expect "open pipe: depth read its number" '^depth = Depth: 3 plies'
expect_not "open pipe" 'Illegal move'

# 4. No time arguments: no question; the script's first line is its first command.
run $'depth 1\n7g7f\nbd\nhelp\nquit\n' -R && {
    expect_not "no time arguments" 'Time control\?'
    expect "no time arguments: depth" '^Depth: 1 ply'
    expect "no time arguments: GNU's response time" '^Time control: 0:15 per move'
    expect "no time arguments: the answer" '^My move is: '
}

# 5. A move that may promote, without +, from a pipe: played as GNU Shogi plays it.
run $'force\n7g7f\n3c3d\n8h2b\nsfen\nquit\n' -R 30 && {
    expect_not "8h2b" 'Promote\?'
    expect "8h2b unpromoted" '^lnsgkgsnl/1r5B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4$'
}

# 6. hashdepth and the windows read two numbers, on one line or two; setup reads nine lines.
run $'hashdepth\n5\n12\nAwindow\n100 110\nsetup\n\nLNSGKGSNL\n.R.....B.\nPPPPPPPPP\n.........\n.........\n..p......\npp.pppppp\n.b.....r.\nlnsgkgsnl\nsfen\nhelp\nquit\n' -R 30 && {
    expect "hashdepth" '^hashdepth = MoveLimit = Experience file used from depth 5 during the first 12 moves\.'
    expect "Awindow" 'Awindow: White 100, Black 110'
    expect "setup" '^Setup successful'
    expect "setup's position" '^lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 1$'
}

# 7. A USI GUI starting hisha on pipes: the first line `usi` makes it a USI engine.
run $'usi\nisready\nposition startpos moves 7g7f\ngo depth 3\nquit\n' && {
    expect "usi" '^id name Hisha'
    expect "usi" '^usiok$'
    expect "usi" '^readyok$'
    expect "usi" '^bestmove [1-9][a-i]'
}
run $'usi\nquit\n' && expect "usi alone" '^usiok$'
# ... and anything else keeps GNU Shogi's xshogi protocol.
run $'depth 1\n7g7f\nquit\n' 40 5 && {
    expect "xshogi by default" '^Hisha .*GNU Shogi'
    expect "xshogi by default" '^1\. 7g7f '
    expect_not "xshogi by default" 'usiok'
}

exit_with_failures
echo "typeahead ok"
