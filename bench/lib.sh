# What the benchmark scripts share (source it after `set -euo pipefail`).

# bench_binary NAME BUILD_DIR PROGRAM: checks that the script got one build folder (exit 2 with its
# usage otherwise) and that BUILD_DIR/bin/PROGRAM is built; prints its path.
bench_binary() {
    local name=$1 dir=${2:-} program=$3
    [[ -n $dir ]] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
    [[ -x $dir/bin/$program ]] || { echo "$name: $dir/bin/$program not found; build first" >&2; exit 2; }
    echo "$dir/bin/$program"
}

# The benches' --server argument: SERVER_BIN=PATH runs another hisha-server (one built before a change).
SERVER_ARG=()
if [[ -n ${SERVER_BIN:-} ]]; then
    SERVER_ARG=(--server "$SERVER_BIN")
fi

# A scratch folder, removed at exit.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The median of the numbers on standard input, one a line (nothing when there are none).
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# sum COLUMN FILE: the sum of a space-separated column.
sum() { awk -v c="$1" '{ s += $c } END { print s + 0 }' "$2"; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# report_run LABEL OUTPUT: one line for a run: its label, the load then, and the bench's output
# on one line.
report_run() { echo "$1 (load $(cut -d' ' -f1 /proc/loadavg)): $(tr '\n' ' ' <<<"$2" | sed 's/^sync=[a-z]* //')"; }
