#!/usr/bin/env bash
# Usage: bench/tsume/run.sh BUILD_DIR
# The mate solver on every row of tests/data/vectors/tsume.tsv, one problem per process under
# GNU time (so each row's peak memory is its own), one thread, shortest-mate mode:
#   1. every row up to 29 plies and every no-mate row, TSUME_TIME seconds each (default 60):
#      the answer must be `mate <stated plies>` (or `nomate`) and the line must replay through
#      the rules (`hisha tsume --verify`: every attacking move checks, every defence is legal,
#      the end is mate, the length matches);
#   2. the long classics (31 plies and more), Kotobuki (611 plies) first with
#      TSUME_KOTOBUKI_TIME seconds (default 600), the other rows with a verified length (basis A
#      or B) TSUME_LONG_TIME each (default 120), the published-only ones (basis C)
#      TSUME_LONG_C_TIME each (default 60);
#   3. the published-only rows (basis C) again under `--convention tsume`, TSUME_LONG_C_TIME each
#      (TSUME_CONVENTION=0 skips): verdict `published` when the length is the published one,
#      `differs` otherwise (the solver's futility rule is narrower than the composers', see
#      src/tsume/solver.h), BADLINE when the line fails the replay under the convention.
# Prints one line per row (the length found, a verdict, verification, wall and CPU time, nodes,
# peak memory), then a table per length band: rows proved, total wall and CPU time, the slowest
# row, peak memory; the longest mate proved and its time. Verdicts: exact (the stated answer, a
# verified line), proved (a verified shortest mate under ordinary rules where the row states
# only a published tsume-convention length, basis C), unsolved (time out), WRONG (contradicts a
# verified length, or `nomate` for a row with a published mate), BADLINE (the line fails the replay).
# Time limits count the solver's CPU time (the machine is shared; TSUME_CLOCK=wall counts wall
# time instead); CPU times shown are user + system of the whole process (table set-up included).
# Environment: TSUME_MEMORY (table MB of the short rows, default 256), TSUME_LONG_MEMORY (table
# MB of 15 plies and up, default 4096), TSUME_SHORT=0 / TSUME_LONG=0 skip a part, TSUME_ONLY=id,id
# runs only those rows, TSUME_RESULTS=FILE keeps the per-row results (TSV),
# HISHA_TESTDATA_DIR (default tests/data/vectors).
# Exits 1 when a row of part 1 is not answered exactly with a verified line, or when any mate
# reported contradicts a verified (basis A or B) length or fails verification.
set -euo pipefail

NAME="tsume bench"
source "$(dirname "$0")/common.sh"
MEMORY="${TSUME_MEMORY:-256}"
LONG_MEMORY="${TSUME_LONG_MEMORY:-4096}"
TIME="${TSUME_TIME:-60}"
LONG_TIME="${TSUME_LONG_TIME:-120}"
LONG_C_TIME="${TSUME_LONG_C_TIME:-60}"
KOTOBUKI_TIME="${TSUME_KOTOBUKI_TIME:-600}"
ONLY="${TSUME_ONLY:-}"
CLOCK="${TSUME_CLOCK:-cpu}"

if [[ ! -x /usr/bin/time ]]; then
    echo "tsume bench: /usr/bin/time (GNU time) is needed for CPU time and peak memory" >&2
    exit 2
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
RESULTS="${TSUME_RESULTS:-$WORK/results.tsv}"
printf 'id\tband\tstated\tbasis\tfound\tverdict\tverify\twall_s\tcpu_s\tnodes\tpeak_mb\tlimit_s\n' >"$RESULTS"
failed=0

band_of() {  # the length band of a stated length
    local n="$1"
    if ((n < 0)); then echo nomate
    elif ((n <= 5)); then echo 1-5
    elif ((n <= 13)); then echo 7-13
    elif ((n <= 21)); then echo 15-21
    elif ((n <= 29)); then echo 23-29
    elif ((n <= 119)); then echo 31-119
    else echo 200+
    fi
}

# run_one ID SFEN STATED BASIS SECONDS MEMORY STRICT [tsume]: runs one row, prints a line, appends
# to $RESULTS. STRICT=1: anything but the exact stated answer with a verified line fails the
# bench. A last argument `tsume` solves under the tsume convention (part 3).
run_one() {
    local id="$1" sfen="$2" stated="$3" basis="$4" seconds="$5" memory="$6" strict="$7" conv="${8:-}"
    echo "$sfen" >"$WORK/problem"
    local clock=()
    [[ "$CLOCK" == cpu ]] && clock=(--cpu-time)
    [[ -n "$conv" ]] && clock+=(--convention "$conv")
    /usr/bin/time -f 'time %e %U %S %M' "$HISHA" tsume --stats --verify --time-limit "$seconds" "${clock[@]}" \
        --memory "$memory" "$WORK/problem" >"$WORK/out" 2>"$WORK/err" || true
    local answer stats times verify wall cpu rss nodes found verdict
    answer=$(head -n 1 "$WORK/out")
    stats=$(grep -m1 '^info nodes' "$WORK/err" || true)
    times=$(grep -m1 '^time ' "$WORK/err" || echo 'time 0 0 0 0')
    verify=$(sed -n 's/^verify //p' "$WORK/err" | head -n 1)
    local user sys
    read -r _ wall user sys rss <<<"$times"
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
    nodes=$(sed -n 's/.*nodes \([0-9]*\).*/\1/p' <<<"$stats")
    found=$(awk '$1 == "mate" { print $2 } $1 == "nomate" { print -1 } $1 == "timeout" { print "timeout" }
                 $1 == "error" { print "error" }' <<<"$answer")
    found="${found:-none}"
    [[ -n "$verify" ]] || verify=-
    [[ "$verify" == ok || "$verify" == - ]] || verify="ERROR"
    if [[ -n "$conv" ]]; then
        if [[ "$verify" == ERROR ]]; then
            verdict=BADLINE
        elif [[ "$found" == "$stated" && "$verify" == ok ]]; then
            verdict=published
        elif [[ "$found" =~ ^-?[0-9]+$ ]]; then
            verdict=differs
        else
            verdict=unsolved
        fi
    elif [[ "$found" == "$stated" && "$verify" != ERROR && ("$stated" == -1 || "$verify" == ok) ]]; then
        verdict=exact
    elif [[ "$verify" == ERROR ]]; then
        verdict=BADLINE
    elif [[ "$found" =~ ^-?[0-9]+$ && ("$basis" != C* || "$found" == -1) ]]; then
        verdict=WRONG  # a mate (or nomate) contradicting a verified answer
    elif [[ "$found" =~ ^[0-9]+$ ]]; then
        verdict=proved  # proved shortest under ordinary rules; the row states a tsume-convention length
    else
        verdict=unsolved
    fi
    if [[ "$verdict" == BADLINE || "$verdict" == WRONG ]] || { ((strict)) && [[ "$verdict" != exact ]]; }; then
        failed=1
    fi
    printf '%-28s %5s plies: %-9s %-8s verify %-5s wall %7.2f s  cpu %7.2f s  nodes %11s  peak %6d MB\n' \
        "$id" "$stated" "$found" "$verdict" "$verify" "$wall" "$cpu" "${nodes:-?}" "$((rss / 1024))"
    if [[ "$verify" == ERROR ]]; then
        sed -n 's/^verify /    /p' "$WORK/err"
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$(band_of "$stated")" "$stated" "${basis:0:1}" \
        "$found" "$verdict" "$verify" "$wall" "$cpu" "${nodes:-0}" "$((rss / 1024))" "$seconds" >>"$RESULTS"
}

rows() {  # rows MIN MAX: "id<TAB>sfen<TAB>len<TAB>basis" with MIN <= len <= MAX (or no mate when MIN < 0), Kotobuki first
    awk -F'\t' -v lo="$1" -v hi="$2" -v only=",$ONLY," 'NR > 1 && (($3 >= lo && $3 <= hi) || (lo < 0 && $3 == -1)) \
        && (only == ",," || index(only, "," $1 ",")) { print ($1 == "edo-zukou-100" ? 0 : 1) "\t" ($3 < 0 ? 100000 : $3) "\t" NR "\t" $1 "\t" $2 "\t" $3 "\t" $7 }' "$TSV" \
        | sort -t$'\t' -k1,1n -k2,2n -k3,3n | cut -f4-
}

summary() {  # the table per band of the rows in $RESULTS
    awk -F'\t' 'NR > 1 {
            b = $2; if (!(b in n)) order[++nb] = b; n[b]++; wall[b] += $8; cpu[b] += $9
            if ($6 == "exact" || $6 == "proved") ok[b]++
            if ($9 > slow[b]) { slow[b] = $9; slowid[b] = $1 }
            if ($11 > peak[b]) peak[b] = $11
            if ($5 ~ /^[0-9]+$/ && $7 == "ok" && $5 + 0 > longest) { longest = $5 + 0; longid = $1; longwall = $8; longcpu = $9; longmb = $11 }
            if ($11 > allpeak) allpeak = $11
            tw += $8; tc += $9
        }
        END {
            printf "%-7s %9s %10s %10s  %-36s %8s\n", "band", "proved", "wall s", "cpu s", "slowest (cpu s)", "peak MB"
            for (i = 1; i <= nb; i++) { b = order[i]
                printf "%-7s %4d / %-3d %10.1f %10.1f  %-28s %7.2f %8d\n", b, ok[b], n[b], wall[b], cpu[b], slowid[b], slow[b], peak[b] }
            printf "all: %.1f s wall, %.1f s cpu; peak memory %d MB\n", tw, tc, allpeak
            if (longest) printf "longest mate proved shortest (line verified): %s, %d plies, %.1f s wall, %.1f s cpu, %d MB\n", longid, longest, longwall, longcpu, longmb
        }' "$1"
}

echo "== tsume solver: $HISHA, load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores, limits in $CLOCK time"
if [[ "${TSUME_SHORT:-1}" != 0 ]]; then
    echo
    echo "== up to 29 plies and no-mate rows, ${TIME} s each (table ${MEMORY} MB, ${LONG_MEMORY} MB from 15 plies)"
    while IFS=$'\t' read -r id sfen len basis; do
        mem="$MEMORY"
        ((len < 15 && len > 0)) || mem="$LONG_MEMORY"
        run_one "$id" "$sfen" "$len" "$basis" "$TIME" "$mem" 1
    done < <(rows -1 29)
fi
if [[ "${TSUME_LONG:-1}" != 0 ]]; then
    echo
    echo "== long classics (31+ plies): Kotobuki ${KOTOBUKI_TIME} s, basis A/B ${LONG_TIME} s, basis C ${LONG_C_TIME} s" \
        "(table ${LONG_MEMORY} MB; basis C lengths are tsume-convention ones, the solver's are ordinary-rule)"
    while IFS=$'\t' read -r id sfen len basis; do
        t="$LONG_TIME"
        [[ "$basis" == C* ]] && t="$LONG_C_TIME"
        [[ "$id" == edo-zukou-100 ]] && t="$KOTOBUKI_TIME"
        run_one "$id" "$sfen" "$len" "$basis" "$t" "$LONG_MEMORY" 0
    done < <(rows 31 100000)
fi
if [[ "${TSUME_CONVENTION:-1}" != 0 ]]; then
    CONV_RESULTS="$WORK/convention.tsv"
    MAIN_RESULTS="$RESULTS"
    RESULTS="$CONV_RESULTS"
    echo
    echo "== published-only rows (basis C) under --convention tsume, ${LONG_C_TIME} s each (table ${LONG_MEMORY} MB)"
    while IFS=$'\t' read -r id sfen len basis; do
        [[ "$basis" == C* ]] || continue
        run_one "$id" "$sfen" "$len" "$basis" "$LONG_C_TIME" "$LONG_MEMORY" 0 tsume
    done < <(rows 31 100000)
    echo "published lengths reproduced: $(awk -F'\t' '$6 == "published"' "$CONV_RESULTS" | wc -l) of $(wc -l <"$CONV_RESULTS")"
    RESULTS="$MAIN_RESULTS"
fi
echo
echo "== per band (proved: verdict exact or proved; load now $(cut -d' ' -f1-3 /proc/loadavg))"
summary "$RESULTS"
exit "$failed"
