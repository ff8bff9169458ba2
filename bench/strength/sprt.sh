#!/usr/bin/env bash
# SPRT test of one engine against another (fishtest-style): `hisha match` plays game pairs (one
# opening, each colour once) from the balanced opening set at a fixed short time control (or a
# fixed node count), two games at a time, until the sequential probability ratio test over the
# pentanomial pair scores accepts H0 (Elo <= elo0) or H1 (Elo >= elo1), or the game limit comes.
# Then it appends one row to RESULTS.md: date, change, engines, control, bounds, games W-L-D,
# pentanomial counts, Elo with its 95% interval, LLR with its bounds, verdict.
#
# Usage: bench/strength/sprt.sh [options] NEW BASE
#   NEW, BASE   a Hisha binary (run as `PATH usi`) or any USI engine command line ("usi:CMD" or a
#               command that is not a file named hisha); the Elo is NEW's over BASE.
# Options:
#   --change TEXT       what NEW changes (the RESULTS.md row); default: the two commands
#   --elo0 E --elo1 E   bounds in logistic Elo (default 0 and 10)
#   --alpha A --beta B  error rates (default 0.05 each)
#   --tc TC             time control for both (default st=0.1); e.g. nodes=20000, 10b0.1 ...
#   --nodes N           shorthand for --tc nodes=N (fixed nodes a move: a pure search-behaviour test)
#   --games N           game limit (default 4000; an even number)
#   --concurrency K     games at once (default 2)
#   --openings FILE     default bench/strength/openings-balanced.txt
#   --hash MB           USI_Hash of both (default 64)
#   --option NAME:K=V   passed to hisha match (NAME is new or base); both engines get Threads=1 and
#                       USI_Hash, a Hisha also OwnBook=false (for YaneuraOu add e.g.
#                       --option base:BookFile=no_book --option base:NetworkDelay=0 ...)
#   --match HISHA       the hisha binary that runs the match (default: NEW if it is a hisha, else
#                       BASE, else `hisha` on the PATH)
#   --results FILE      default bench/strength/RESULTS.md; --no-record appends nothing
#   --out DIR           keep the game records (KIF and CSA) in DIR
# Environment: MARGIN_MS (lateness forgiven on a loaded machine, default 1000).
# Prints the match's progress and table; exit status 0 once the row is written (whatever the
# verdict), 2 on a usage error.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,/^# Prints/p' "$0" | sed 's/^# \{0,1\}//' >&2; exit "${1:-2}"; }

change="" elo0=0 elo1=10 alpha=0.05 beta=0.05 tc="st=0.1" games=4000 concurrency=2
openings="$here/openings-balanced.txt" hash=64 match_bin="" results="$here/RESULTS.md" record=1 out=""
extra=()
pos=()
while (( $# )); do
    case $1 in
    --change) change=$2; shift 2 ;;
    --elo0) elo0=$2; shift 2 ;;
    --elo1) elo1=$2; shift 2 ;;
    --alpha) alpha=$2; shift 2 ;;
    --beta) beta=$2; shift 2 ;;
    --tc) tc=$2; shift 2 ;;
    --nodes) tc="nodes=$2"; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --openings) openings=$2; shift 2 ;;
    --hash) hash=$2; shift 2 ;;
    --option) extra+=(--option "$2"); shift 2 ;;
    --match) match_bin=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --no-record) record=0; shift ;;
    --out) out=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    -*) echo "sprt: unknown option $1" >&2; usage ;;
    *) pos+=("$1"); shift ;;
    esac
done
(( ${#pos[@]} == 2 )) || usage
[[ -f $openings ]] || { echo "sprt: no opening file $openings" >&2; exit 2; }

is_hisha() { [[ -f $1 && -x $1 && $(basename "$1") == hisha* ]]; }
command_of() {  # a Hisha binary speaks USI after `usi`; anything else is taken as given
    if is_hisha "$1"; then echo "$(realpath "$1") usi"; else echo "$1"; fi
}
new_cmd=$(command_of "${pos[0]}")
base_cmd=$(command_of "${pos[1]}")
if [[ -z $match_bin ]]; then
    if is_hisha "${pos[0]}"; then match_bin=${pos[0]}
    elif is_hisha "${pos[1]}"; then match_bin=${pos[1]}
    else match_bin=$(command -v hisha || true)
    fi
fi
[[ -x $match_bin ]] || { echo "sprt: no hisha to run the match (--match)" >&2; exit 2; }
[[ -n $change ]] || change="$new_cmd vs $base_cmd"

engine_options() {  # one thread and the same hash for both; Hisha without its opening book
    local name=$1 arg=$2
    echo --option "$name:USI_Hash=$hash" --option "$name:Threads=1"
    if is_hisha "$arg"; then echo --option "$name:OwnBook=false"; fi
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
out_args=()
[[ -n $out ]] && out_args=(--out "$out")
echo "== SPRT [$elo0, $elo1] alpha=$alpha beta=$beta, tc $tc, concurrency $concurrency, up to $games games"
echo "   new:  $new_cmd"
echo "   base: $base_cmd"
echo "   load before: $(cut -d' ' -f1-3 /proc/loadavg)"
start=$(date +%s)
# shellcheck disable=SC2046
"$match_bin" match --engine "new=$new_cmd" --engine "base=$base_cmd" \
    $(engine_options new "${pos[0]}") $(engine_options base "${pos[1]}") "${extra[@]}" \
    --tc "$tc" --margin "${MARGIN_MS:-1000}" --games "$games" --concurrency "$concurrency" \
    --openings "$openings" --sprt "elo0=$elo0" "elo1=$elo1" "alpha=$alpha" "beta=$beta" \
    "${out_args[@]}" | tee "$log"
minutes=$(( ($(date +%s) - start + 59) / 60 ))
echo "   load after: $(cut -d' ' -f1-3 /proc/loadavg)"

summary=$(grep '^summary: ' "$log" | tail -n 1)
[[ -n $summary ]] || { echo "sprt: the match printed no summary" >&2; exit 1; }
get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" ${summary#summary: }"; }
row=$(printf '| %s | %s | %s | %s | [%s, %s] | %s: %s-%s-%s | %s | %s [%s, %s] | %s [%s, %s] | %s | %s min |' \
    "$(date -u +%Y-%m-%d)" "$change" "$tc" "$concurrency" "$elo0" "$elo1" \
    "$(get games)" "$(get wins)" "$(get losses)" "$(get draws)" "$(get penta | tr ',' ' ')" \
    "$(get elo)" "$(get elo_lower)" "$(get elo_upper)" "$(get llr)" "$(get llr_lower)" "$(get llr_upper)" \
    "$(case $(get verdict) in H1) echo "H1 (pass)" ;; H0) echo "H0 (fail)" ;; *) echo "no decision" ;; esac)" \
    "$minutes")
echo "$row"
if (( record )); then
    if [[ ! -f $results ]]; then
        printf '# SPRT results\n\n' >"$results"
    fi
    if ! grep -q '^| date ' "$results"; then
        printf '| date | change (new vs base) | tc | conc. | bounds | games: W-L-D | pairs 0-¼-½-¾-1 | Elo [95%%] | LLR [bounds] | verdict | time |\n' >>"$results"
        printf '|---|---|---|---|---|---|---|---|---|---|---|\n' >>"$results"
    fi
    echo "$row" >>"$results"
    echo "appended to $results"
fi
