// libFuzzer target for the SFEN parser and what a parsed position must then support: the
// bytes go to Position::set under the Strict and the Relaxed rules. A refused input must
// leave the position untouched; an accepted one must be consistent, round-trip through
// sfen(), generate legal moves that agree with the pseudo-legal stages filtered by legal(),
// and survive a few random plies of do/undo.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/movegen.h"
#include "core/position.h"
#include "fuzz_check.h"

using namespace hisha::core;

namespace {

std::uint64_t fnv1a(std::string_view s) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : s)
        h = (h ^ c) * 0x100000001b3ULL;
    return h;
}

// Move lists live in buffers far larger than MAX_MOVES, so that a position with too many
// moves is reported by a check instead of overflowing a MoveList.
constexpr int BIG = 4 * MAX_MOVES;

struct Moves {
    ScoredMove moves[BIG];
    int size = 0;
    bool contains(Move m) const {
        for (int i = 0; i < size; ++i)
            if (moves[i].move == m)
                return true;
        return false;
    }
};

template <GenType T>
void fill(const Position& pos, Moves& out) {
    out.size = int(generate<T, true>(pos, out.moves) - out.moves);
    FUZZ_CHECK(out.size <= MAX_MOVES);  // every MoveList must be able to hold them
}

// LEGAL<true> equals the pseudo-legal stage filtered by legal(), as sets of distinct moves.
void check_generators(const Position& pos, const Moves& legal) {
    static Moves pseudo;
    if (pos.in_check())
        fill<EVASIONS>(pos, pseudo);
    else
        fill<NON_EVASIONS>(pos, pseudo);
    int accepted = 0;
    for (int i = 0; i < pseudo.size; ++i)
        if (pos.legal(pseudo.moves[i].move)) {
            ++accepted;
            FUZZ_CHECK(legal.contains(pseudo.moves[i].move));
        }
    FUZZ_CHECK(accepted == legal.size);
    for (int i = 0; i < legal.size; ++i) {
        FUZZ_CHECK(pseudo.contains(legal.moves[i].move));
        FUZZ_CHECK(pos.check_move(legal.moves[i].move).has_value());
    }
}

// A few random plies from the hash of the input, each checked, then undone.
void play_some(Position& pos, std::uint64_t seed) {
    static Moves legal;
    const std::string start = pos.sfen();
    const Key key = pos.key();
    StateInfo states[8];
    Move played[8];
    int n = 0;
    for (; n < 8; ++n) {
        fill<LEGAL>(pos, legal);
        check_generators(pos, legal);
        if (legal.size == 0)
            break;
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        Move m = legal.moves[(seed >> 33) % std::uint64_t(legal.size)].move;
        bool check = pos.gives_check(m);
        Color us = pos.side_to_move();
        pos.do_move(m, states[n]);
        played[n] = m;
        FUZZ_CHECK(pos.is_consistent());
        FUZZ_CHECK(pos.in_check() == check);
        FUZZ_CHECK(pos.king_square(us) == SQ_NONE || !pos.attacked_by(~us, pos.king_square(us)));
    }
    while (n > 0) {
        --n;
        pos.undo_move(played[n]);
    }
    FUZZ_CHECK(pos.is_consistent());
    FUZZ_CHECK(pos.sfen() == start);
    FUZZ_CHECK(pos.key() == key);
}

// Returns whether the input was accepted under `rules`.
bool fuzz_one(std::string_view input, SfenRules rules) {
    Position pos;
    const std::string before = pos.sfen();
    auto r = pos.set(input, rules);
    if (!r) {
        const ParseError& e = r.error();
        FUZZ_CHECK(!e.message.empty());
        FUZZ_CHECK(e.column >= 0 && std::size_t(e.column) <= input.size() + 1);
        FUZZ_CHECK(pos.sfen() == before);
        FUZZ_CHECK(pos.is_consistent());
        return false;
    }
    FUZZ_CHECK(pos.is_consistent());
    const std::string out = pos.sfen();
    Position again;
    auto r2 = again.set(out, rules);
    FUZZ_CHECK(r2.has_value());
    FUZZ_CHECK(again.sfen() == out);
    FUZZ_CHECK(again.key() == pos.key());
    FUZZ_CHECK(again.checkers() == pos.checkers());
    play_some(pos, fnv1a(input));
    return true;
}

}  // namespace

// Undefined behaviour found by UBSan anywhere (the core is built in recover mode) must stop
// the run and leave a crash input, not scroll past in the log.
extern "C" const char* __ubsan_default_options() { return "halt_on_error=1:print_stacktrace=1"; }

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    bool strict = fuzz_one(input, SfenRules::Strict);
    bool relaxed = fuzz_one(input, SfenRules::Relaxed);
    FUZZ_CHECK(!strict || relaxed);  // Relaxed accepts everything Strict accepts
    return 0;
}
