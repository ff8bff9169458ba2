#!/usr/bin/env bash
# `hisha book build` and `hisha book show` from the command line: a book built from records
# holds their first moves with weights; bad options and unreadable files are refused with a
# message. Usage: book_cli.sh PATH/TO/hisha RECORD_DIR
set -euo pipefail
hisha=$1
records=$2
source "$(dirname "$0")/../lib.sh"

"$hisha" book build --plies 6 --out "$out/book.sfen" "$records" >"$out/stdout" 2>"$out/stderr" \
    || fail "book build failed: $(cat "$out/stdout" "$out/stderr")"
grep -Eq '^records=[1-9][0-9]* skipped=[0-9]+ positions=[1-9]' "$out/stdout" || fail "summary: $(cat "$out/stdout")"
head -n 1 "$out/book.sfen" | grep -q '^#HISHA-BOOK' || fail "not an SFEN book: $(head -n 2 "$out/book.sfen")"
"$hisha" book show "$out/book.sfen" startpos >"$out/show" || fail "book show failed"
grep -Eq '^[1-9][a-i][1-9][a-i]\+? [0-9]+$' "$out/show" || fail "no weighted start moves: $(cat "$out/show")"
# The engine plays from that book when given it.
printf 'usi\nsetoption name BookFile value %s\nisready\nposition startpos\ngo movetime 300\n' "$out/book.sfen" \
    | "$hisha" usi >"$out/usi"
best=$(sed -n 's/^bestmove \([^ ]*\).*/\1/p' "$out/usi")
grep -q "^$best " "$out/show" || fail "bestmove $best is not a book move: $(cat "$out/show")"

export EXPECT_STDOUT=1  # its messages may go to either
expect_status 2 "usage" "$hisha" book frobnicate
expect_status 2 "needs a number" "$hisha" book build --plies x --out "$out/b" "$records"
expect_status 2 "usage" "$hisha" book build --out "$out/b"
expect_status 1 "cannot read" "$hisha" book build --out "$out/b" "$out/missing.kif"
expect_status 1 "cannot open" "$hisha" book show "$out/missing.sfen"
expect_status 2 "not a valid SFEN" "$hisha" book show "$out/book.sfen" "not-a-position"
echo "book cli: ok"
