#!/usr/bin/env bash
# The curses display (hisha -C) driven in tmux: a short game typed with send-keys, the screen
# read back with capture-pane after each step (board, hands, clocks, move list, the
# program's move, the prompt), help shown and dismissed, the kanji board, Promote? asked at
# the terminal, then a move, save, its file name and quit typed ahead while the program
# thinks (each line read once and in order: the game is saved under the name typed, then the
# program quits). The last screens are kept in OUTDIR (curses_capture.txt, curses_kanji.txt).
# Exit 77 (skipped) when tmux is missing.
set -euo pipefail
HISHA=$(realpath "${1:?usage: tmux_game.sh HISHA [OUTDIR]}")
OUT=${2:-$(mktemp -d)}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
rm -f "$OUT/typed_ahead.psn" "$OUT/quit" "$OUT/save"
if ! command -v tmux >/dev/null 2>&1; then
    echo "SKIP: tmux is not installed (scripts/install-deps.sh installs it)"
    [[ -n "${CI:-}" ]] && exit 1  # CI installs it: a missing tmux there is a failure
    exit 77
fi
SOCK="hisha-curses-test-$$"
T=(tmux -L "$SOCK")
cleanup() { "${T[@]}" kill-server >/dev/null 2>&1 || true; }
trap cleanup EXIT

"${T[@]}" -f /dev/null new-session -d -s play -x 100 -y 34 \
    "cd '$OUT' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color HISHA_HASHFILE=/nonexistent/h.hsh $HISHA -C 40 5; echo \"hisha exited: \$?\"; sleep 30"

screen() { "${T[@]}" capture-pane -p -t play; }
failures=0
fail() {
    echo "FAIL: $*" >&2
    screen >&2
    failures=$((failures + 1))
}
# Waits until the screen matches a regex (grep -E), at most $2 seconds.
wait_for() {
    local pattern=$1 limit=${2:-30} i
    for ((i = 0; i < limit * 10; i++)); do
        if screen | grep -Eq -- "$pattern"; then return 0; fi
        sleep 0.1
    done
    return 1
}
type_line() {
    "${T[@]}" send-keys -t play -l -- "$1"
    "${T[@]}" send-keys -t play Enter
}

wait_for 'Your move:' 20 || fail "no prompt"
wait_for '\| bL \| bN \| bS \| bG \| bK \| bG \| bS \| bN \| bL \|  i' 5 || fail "no board"
wait_for 'Black +[0-9]+:[0-9]{2} +\*?White +[0-9]+:[0-9]{2}' 5 || fail "no clocks"
type_line "depth 2"
type_line "7g7f"
wait_for 'My move is: ' 60 || fail "the program did not answer 7g7f"
wait_for ' 1\. 7g7f +[0-9][a-i]' 5 || fail "the move list does not show move 1"
type_line "2g2f"
wait_for '2\. 2g2f +[0-9][a-i]' 60 || fail "no answer to 2g2f"
type_line "7g7e"
wait_for 'Illegal move \(.*\) 7g7e' 10 || fail "an illegal move was not refused"
type_line "help"
wait_for 'handicap NAME' 10 || fail "help is not shown"
type_line ""
wait_for '\| bL \|' 10 || fail "the board does not come back after help"
type_line "P-6f"
wait_for '3\. P-6f|3\. 6g6f' 60 || fail "no third move"
wait_for 'Black to move \(move 7\)' 60 || fail "the program's third move did not come"
screen >"$OUT/curses_capture.txt"
type_line "pieces kanji"
wait_for '先手の持駒' 10 || fail "no kanji board"
wait_for '玉' 5 || fail "no 玉 on the kanji board"
screen >"$OUT/curses_kanji.txt"
type_line "pieces ascii"
# At a terminal a move that may promote, typed without + or =, asks.
type_line "force"
wait_for 'force mode' 10 || fail "no force mode"
type_line "sfen startpos moves 7g7f 3c3d"
type_line "8h2b"
wait_for 'Promote\? \(y/n\)' 10 || fail "8h2b at the terminal did not ask Promote?"
type_line "y"
type_line "sfen"
wait_for '1r5\+B1/' 10 || fail "8h2b and y did not promote"
type_line "force"
wait_for 'Hisha plays' 10 || fail "force mode did not end"
# Typed ahead while the program thinks (40 moves in 5:00, no book, no depth limit: seconds).
type_line "new"
type_line "book"
wait_for 'book off' 10 || fail "book did not turn the book off"
type_line "depth 0"
type_line "7g7f"
type_line "save"
type_line "$OUT/typed_ahead.psn"
type_line "quit"
# The shell in the pane says when hisha has ended (and how).
wait_for '^hisha exited: 0$' 90 || fail "hisha did not quit (with 0)"
[[ -f "$OUT/typed_ahead.psn" ]] || fail "the game typed ahead was not saved under the name typed"
grep -q '7f' "$OUT/typed_ahead.psn" 2>/dev/null || fail "the saved game lacks 7g7f"
[[ ! -e "$OUT/quit" && ! -e "$OUT/save" ]] || fail "a command typed ahead was taken for a file name"

if ((failures)); then
    echo "$failures failure(s)" >&2
    exit 1
fi
echo "curses game ok; screens in $OUT/curses_capture.txt and $OUT/curses_kanji.txt"
