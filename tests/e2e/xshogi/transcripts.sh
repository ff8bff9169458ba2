#!/usr/bin/env bash
# Replays transcripts of Debian's gnushogi 1.4.2 in xshogi mode (docs/protocols.md) against
# `hisha -X 40 5` and checks that xshogi would react to Hisha's answers as it reacts to
# gnushogi's: the banner first, the same acknowledgements, echoes, clock lines, illegal-move
# replies and machine moves, and nothing else that xshogi acts on. Moves of the engine may
# differ (Hisha is another engine), so they are checked for form and legality instead.
# Each transcript gets `depth 3` first where gnushogi would have thought for its whole
# time allowance (transcript 3 with `level 0 0:30`), to keep the test short.
set -euo pipefail
HISHA=${1:?usage: transcripts.sh HISHA}
export HISHA_HASHFILE=/nonexistent/hisha-test.hsh
FAIL_LATER=1
source "$(dirname "$0")/../lib.sh"

# xshogi's reading of a line (xshogi.c HandleMachineMove, in its order of tests).
classify() {
    local l=$1
    case "$l" in
    warning:*) echo warning; return ;;
    esac
    case "$l" in
    *"unknown host"* | *"No remote directory"* | *"not found"* | *"No such file"* | *"Permission denied"*)
        echo fatal
        return
        ;;
    esac
    case "$l" in
    "Illegal move"*) echo illegal ;;
    *"GNU Shogi"*) echo banner ;;
    Hint:*) echo hint ;;
    Clocks:*) echo clocks ;;
    Black*) echo black-wins ;;
    White*) echo white-wins ;;
    Repetition* | Draw* ) echo draw ;;
    "opponent mates!"* | "computer mates!"*) echo mate ;;
    *...*) echo move ;;
    *) echo noise ;;
    esac
}

# Runs one transcript: $1 name, $2 input (lines separated by /), then the expected
# significant lines as "kind" or "kind=regex" (noise lines are ignored unless expected with
# "noise=regex", which must then appear in order among the noise).
run_transcript() {
    local name=$1 input=$2 before=$failures
    shift 2
    local out
    out=$(printf '%s\n' "$input" | tr '/' '\n' | sed 's/^ *//; s/ *$//' | timeout 60 "$HISHA" 40 5 2>&1) || {
        fail "$name: hisha exited with $?"
        return
    }
    local first
    first=$(printf '%s\n' "$out" | head -n 1)
    [[ $(classify "$first") == banner ]] || fail "$name: first line is not a GNU Shogi banner: $first"
    local -a sig=()
    local -a noise=()
    while IFS= read -r line; do
        local kind
        kind=$(classify "$line")
        case $kind in
        noise) noise+=("$line") ;;
        banner) ;;
        *) sig+=("$kind|$line") ;;
        esac
    done < <(printf '%s\n' "$out" | tail -n +2)
    local i=0 want
    local -a want_sig=()
    local -a want_noise=()
    for want in "$@"; do
        if [[ $want == noise=* ]]; then want_noise+=("${want#noise=}"); else want_sig+=("$want"); fi
    done
    if ((${#sig[@]} != ${#want_sig[@]})); then
        fail "$name: ${#sig[@]} significant lines, expected ${#want_sig[@]}"
        printf '  got: %s\n' "${sig[@]}" >&2
    fi
    for ((i = 0; i < ${#want_sig[@]} && i < ${#sig[@]}; i++)); do
        local kind=${want_sig[i]%%=*} regex=""
        [[ ${want_sig[i]} == *=* ]] && regex=${want_sig[i]#*=}
        local got_kind=${sig[i]%%|*} got_line=${sig[i]#*|}
        [[ $got_kind == "$kind" ]] || fail "$name: line $((i + 1)) is $got_kind ($got_line), expected $kind"
        if [[ -n $regex ]] && ! [[ $got_line =~ $regex ]]; then
            fail "$name: '$got_line' does not match /$regex/"
        fi
    done
    local n=0
    for want in "${want_noise[@]}"; do
        local found=0
        while ((n < ${#noise[@]})); do
            if [[ ${noise[n]} =~ $want ]]; then found=1; n=$((n + 1)); break; fi
            n=$((n + 1))
        done
        ((found)) || fail "$name: no line matching /$want/ in order"
    done
    ((failures == before)) && echo "ok: $name"
    return 0
}

MOVE='[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i]'

# Transcript 1: depth by the next line, help, time/otime probes, a move and the reply.
run_transcript "transcript 1" \
    "beep/easy/random/depth/2/help/time 30000/otime 30000/7g7f" \
    "noise=^time 30000 0$" "noise=^otime 30000 0$" "noise=^1\. 7g7f [0-9]+$" \
    "move=^1\. \.\.\. ($MOVE) [0-9]+$"

# Transcript 2: a hint at the start, two illegal moves, a move, a hint, undo twice; `remove`
# with nothing to remove (gnushogi: "Illegal move (no match) remove", which xshogi ignores
# with no move on its board; Hisha says so as noise).
run_transcript "transcript 2" \
    "beep/easy/random/depth/1/hint/7g7e/P*5e/7g7f/hint/undo/undo/remove" \
    "hint=^Hint: ($MOVE)$" "illegal=^Illegal move \(.*\) 7g7e$" "illegal=^Illegal move \(.*\) P\*5e$" \
    "noise=^1\. 7g7f [0-9]+$" "move=^1\. \.\.\. ($MOVE) [0-9]+$" "hint=^Hint: ($MOVE)$" \
    "noise=^Nothing to remove\.$"

# Transcript 3: level answers Clocks:, a move, then per-move time and `switch`: the program
# takes the side to move and plays it (gnushogi: "2. ... 8h3c+ 0").
run_transcript "transcript 3" \
    "beep/easy/random/depth 3/level 40 5/7g7f/level 0 0:30/switch" \
    "clocks=^Clocks: 300000 300000$" "noise=^1\. 7g7f [0-9]+$" "move=^1\. \.\.\. ($MOVE) [0-9]+$" \
    "clocks=^Clocks: 0 0$" "move=^2\. \.\.\. ($MOVE) 0$"

# Commands gnushogi disables in xshogi mode are answered as illegal moves.
run_transcript "disabled commands" "xsave/xget/bsave/test/p/debug/moves" \
    "illegal=xsave$" "illegal=xget$" "illegal=bsave$" "illegal=test$" "illegal=p$" "illegal=debug$" \
    "illegal=moves$"

# A mating drop by the player: the echo, then Black mates! and no machine move after it
# (gnushogi printed a nonsense move of the mated king first).
run_transcript "mate by the player" \
    "edit/#/K5i/G*/P5c/c/K5a/./force/G*5b" \
    "noise=^1\. G\*5b [0-9]+$" "black-wins=^Black mates!$"

# Fourfold repetition reached in force mode ends the game (gnushogi printed nothing).
run_transcript "repetition" \
    "edit/#/K5i/c/K5a/./force/5i4i/5a4a/4i5i/4a5a/5i4i/5a4a/4i5i/4a5a/5i4i/5a4a/4i5i/4a5a" \
    "draw=^Drawn game!$"

exit_with_failures
echo "all transcripts replayed"
