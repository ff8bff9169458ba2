// Random playouts that check, at every ply, the invariants tying Position and the generators
// together: consistency, incremental keys against recomputed ones, the SFEN round trip,
// legality of every generated move (and check_move's verdict on the rejected ones), the
// stages against the full legal list, gives_check, do/undo and play/unplay/try_play, and
// repetition lookup against a naive scan. Seeds are fixed; HISHA_TEST_QUICK shrinks the run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"

using namespace hisha::core;

namespace {

// HISHA_TEST_QUICK set to anything but "" or "0" (the Makefile's sanitizer run sets 1).
bool quick_mode() {
    const char* v = std::getenv("HISHA_TEST_QUICK");
    return v && *v && std::string_view(v) != "0";
}

template <GenType T, bool All>
std::vector<std::uint32_t> raw_moves(const Position& pos) {
    std::vector<std::uint32_t> v;
    for (const ScoredMove& sm : MoveList<T, All>(pos))
        v.push_back(sm.move.raw());
    std::sort(v.begin(), v.end());
    return v;
}

template <typename Pred>
std::vector<std::uint32_t> filtered(std::vector<std::uint32_t> v, Pred keep) {
    v.erase(std::remove_if(v.begin(), v.end(), [&](std::uint32_t m) { return !keep(Move(m)); }), v.end());
    return v;
}

std::vector<std::uint32_t> merged(std::vector<std::uint32_t> a, const std::vector<std::uint32_t>& b) {
    a.insert(a.end(), b.begin(), b.end());
    std::sort(a.begin(), a.end());
    return a;
}

std::string names(const std::vector<std::uint32_t>& v) {
    std::string s;
    for (std::uint32_t m : v)
        s += to_usi(Move(m)) + " ";
    return s;
}

// Everything do/undo must restore, compared field by field.
struct Snapshot {
    Key key, board_key, hand_key;
    Bitboard checkers, blockers_b, blockers_w;
    const StateInfo* state;
    Color side;
    int ply;
    std::uint32_t hand_b, hand_w;

    explicit Snapshot(const Position& p)
        : key(p.key()), board_key(p.board_key()), hand_key(p.hand_key()), checkers(p.checkers()),
          blockers_b(p.blockers_for_king(BLACK)), blockers_w(p.blockers_for_king(WHITE)), state(p.state()),
          side(p.side_to_move()), ply(p.game_ply()), hand_b(p.hand(BLACK).raw()), hand_w(p.hand(WHITE).raw()) {}
    bool operator==(const Snapshot&) const = default;
};

// Stages of both modes against the legal list (property e).
template <bool All>
void check_stages(const Position& pos) {
    auto legal = raw_moves<LEGAL, All>(pos);
    auto is_legal = [&](Move m) { return pos.legal(m); };
    ASSERT_TRUE(std::adjacent_find(legal.begin(), legal.end()) == legal.end()) << "duplicates: " << names(legal);
    if (pos.in_check()) {
        auto evasions = raw_moves<EVASIONS, All>(pos);
        ASSERT_EQ(filtered(evasions, is_legal), legal) << "evasions vs legal";
    } else {
        auto captures = raw_moves<CAPTURES, All>(pos), quiets = raw_moves<QUIETS, All>(pos);
        auto non_evasions = raw_moves<NON_EVASIONS, All>(pos);
        ASSERT_EQ(merged(captures, quiets), non_evasions) << "captures + quiets vs non-evasions";
        ASSERT_EQ(filtered(non_evasions, is_legal), legal) << "non-evasions vs legal";
        for (std::uint32_t m : captures)
            ASSERT_TRUE(pos.piece_on(Move(m).to()) != NO_PIECE || Move(m).is_promotion()) << to_usi(Move(m));
        for (std::uint32_t m : quiets)
            ASSERT_TRUE(pos.piece_on(Move(m).to()) == NO_PIECE && !Move(m).is_promotion()) << to_usi(Move(m));
        auto quiet_checks = raw_moves<QUIET_CHECKS, All>(pos);
        ASSERT_EQ(quiet_checks, filtered(quiets, [&](Move m) { return pos.gives_check(m); }));
    }
    auto checks = raw_moves<CHECKS, All>(pos);
    ASSERT_EQ(filtered(checks, is_legal), filtered(legal, [&](Move m) { return pos.gives_check(m); }))
        << "checks vs legal checking moves";
}

// LEGAL<false> is LEGAL<true> without the non-promotions that have a promoting twin.
void check_all_flag(const Position& pos) {
    auto some = raw_moves<LEGAL, false>(pos), all = raw_moves<LEGAL, true>(pos);
    ASSERT_TRUE(std::includes(all.begin(), all.end(), some.begin(), some.end()));
    std::vector<std::uint32_t> extra;
    std::set_difference(all.begin(), all.end(), some.begin(), some.end(), std::back_inserter(extra));
    for (std::uint32_t raw : extra) {
        Move m(raw);
        PieceType pt = type_of(m.piece_after());
        Rank rr = relative_rank(pos.side_to_move(), rank_of(m.to()));
        ASSERT_FALSE(m.is_drop() || m.is_promotion()) << to_usi(m);
        ASSERT_TRUE(pt == PAWN || pt == BISHOP || pt == ROOK || (pt == LANCE && rr == RANK_2)) << to_usi(m);
        Move twin = Move::make_promote(m.from(), m.to(), promote(m.piece_after()));
        ASSERT_TRUE(std::binary_search(some.begin(), some.end(), twin.raw())) << to_usi(m);
    }
    ASSERT_EQ(has_legal_move(pos), !all.empty());
}

// Every legal move (d, f): accepted by check_move, leaves the own king safe, gives check
// exactly when gives_check() says so, and undo restores everything. A legal pawn drop that
// checks is not mate. Every rejected pseudo-legal move is refused by check_move and
// try_play; a rejected pawn drop is mate.
void check_moves(Position& pos) {
    const Snapshot before(pos);
    const Color us = pos.side_to_move();
    auto legal = raw_moves<LEGAL, true>(pos);
    for (std::uint32_t raw : legal) {
        Move m(raw);
        ASSERT_TRUE(pos.legal(m)) << to_usi(m);
        ASSERT_TRUE(pos.pseudo_legal(m)) << to_usi(m);
        auto verdict = pos.check_move(m);
        ASSERT_TRUE(verdict.has_value()) << to_usi(m) << ": " << describe(verdict.error());
        bool check = pos.gives_check(m);
        StateInfo st;
        pos.do_move(m, st);
        if (pos.king_square(us) != SQ_NONE) {
            ASSERT_TRUE(pos.attackers_to(~us, pos.king_square(us)).empty()) << to_usi(m) << " leaves the king attacked";
        }
        ASSERT_EQ(pos.in_check(), check) << to_usi(m);
        ASSERT_EQ(pos.last_move(), m);
        if (check && m.is_drop() && m.dropped_piece() == PAWN) {
            ASSERT_TRUE(has_legal_move(pos)) << to_usi(m) << " is a pawn-drop mate";
        }
        pos.undo_move(m);
        ASSERT_TRUE(Snapshot(pos) == before) << "undo of " << to_usi(m);
    }
    auto pseudo = pos.in_check() ? raw_moves<EVASIONS, true>(pos) : raw_moves<NON_EVASIONS, true>(pos);
    for (std::uint32_t raw : pseudo) {
        Move m(raw);
        if (std::binary_search(legal.begin(), legal.end(), raw))
            continue;
        auto verdict = pos.check_move(m);
        ASSERT_FALSE(verdict.has_value()) << to_usi(m) << " rejected by legal() but accepted by check_move";
        IllegalMove why = verdict.error();
        ASSERT_TRUE(why == IllegalMove::SelfCheck || why == IllegalMove::IgnoredCheck
                    || why == IllegalMove::DropPawnMate)
            << to_usi(m) << ": " << describe(why);
        ASSERT_FALSE(pos.try_play(m).has_value()) << to_usi(m);
        ASSERT_TRUE(Snapshot(pos) == before) << "failed try_play of " << to_usi(m);
        if (why == IllegalMove::DropPawnMate) {
            StateInfo st;
            pos.do_move(m, st);  // a legal-looking position: the defender is mated
            ASSERT_TRUE(pos.in_check());
            ASSERT_FALSE(has_legal_move(pos)) << to_usi(m) << " refused as a pawn-drop mate but is not mate";
            pos.undo_move(m);
        }
    }
}

// Keys, consistency and the SFEN round trip against a freshly set position (a, b, c).
void check_state(const Position& pos) {
    ASSERT_TRUE(pos.is_consistent()) << pos.sfen();
    const std::string sfen = pos.sfen();
    Position fresh;
    auto r = fresh.set(sfen);
    ASSERT_TRUE(r.has_value()) << sfen << ": " << r.error().to_string();
    ASSERT_EQ(fresh.sfen(), sfen);
    ASSERT_EQ(fresh.key(), pos.key()) << sfen;
    ASSERT_EQ(fresh.board_key(), pos.board_key()) << sfen;
    ASSERT_EQ(fresh.hand_key(), pos.hand_key()) << sfen;
    ASSERT_EQ(fresh.checkers(), pos.checkers()) << sfen;
    ASSERT_EQ(fresh.blockers_for_king(BLACK), pos.blockers_for_king(BLACK)) << sfen;
    ASSERT_EQ(fresh.blockers_for_king(WHITE), pos.blockers_for_king(WHITE)) << sfen;
}

// repetition_info() against a scan of the keys of the game so far (keys[i] after i plies).
void check_repetition(const Position& pos, const std::vector<Key>& keys) {
    RepetitionInfo expected;
    int n = int(keys.size()) - 1;
    for (int d = 2; d <= n; d += 2)
        if (keys[n - d] == keys[n]) {
            if (expected.count++ == 0)
                expected.last_distance = d;
            expected.first_distance = d;
        }
    RepetitionInfo got = pos.repetition_info();
    ASSERT_EQ(got.count, expected.count);
    ASSERT_EQ(got.first_distance, expected.first_distance);
    ASSERT_EQ(got.last_distance, expected.last_distance);
}

// Plays the chosen move through play(), do_move and try_play, which must agree (g).
void check_play_interfaces(Position& pos, Move m) {
    const Snapshot before(pos);
    const std::string sfen_before = pos.sfen();
    StateInfo st;
    pos.do_move(m, st);
    const std::string after_do = pos.sfen();
    const Key key_do = pos.key();
    const Bitboard checkers_do = pos.checkers();
    pos.undo_move(m);
    ASSERT_EQ(pos.sfen(), sfen_before);
    ASSERT_TRUE(Snapshot(pos) == before);
    const int history = pos.history_length();
    pos.play(m);
    ASSERT_EQ(pos.sfen(), after_do);
    ASSERT_EQ(pos.key(), key_do);
    ASSERT_EQ(pos.checkers(), checkers_do);
    ASSERT_EQ(pos.history_length(), history + 1);
    pos.unplay();
    ASSERT_EQ(pos.sfen(), sfen_before);
    ASSERT_TRUE(Snapshot(pos) == before);
    auto r = pos.try_play(m);
    ASSERT_TRUE(r.has_value()) << to_usi(m);
    ASSERT_EQ(pos.sfen(), after_do);
    ASSERT_EQ(pos.key(), key_do);
}

// One random game from sfen: every ply runs every check, then plays a uniformly chosen
// LEGAL<true> move. Returns the number of plies played.
int playout(const std::string& sfen, std::uint32_t seed, int max_plies) {
    Position pos;
    auto r = pos.set(sfen);
    EXPECT_TRUE(r.has_value()) << sfen;
    if (!r)
        return 0;
    const std::string start = pos.sfen();
    std::mt19937 rng(seed);
    std::vector<Key> keys{pos.key()};
    int ply = 0;
    for (; ply < max_plies; ++ply) {
        SCOPED_TRACE("seed " + std::to_string(seed) + " ply " + std::to_string(ply) + ": " + pos.sfen());
        check_state(pos);
        check_stages<false>(pos);
        check_stages<true>(pos);
        check_all_flag(pos);
        check_moves(pos);
        check_repetition(pos, keys);
        if (testing::Test::HasFatalFailure() || testing::Test::HasFailure())
            return ply;
        MoveList<LEGAL, true> moves(pos);
        if (moves.size() == 0)
            break;
        Move m = moves.begin()[rng() % moves.size()].move;
        check_play_interfaces(pos, m);
        if (testing::Test::HasFailure())
            return ply;
        keys.push_back(pos.key());
    }
    // Unwind the whole game: back to the start, exactly.
    while (pos.history_length() > 0)
        pos.unplay();
    EXPECT_EQ(pos.sfen(), start);
    return ply;
}

void run_playouts(const std::vector<std::string>& sfens, int games, int quick_games, std::uint32_t seed0) {
    int n = quick_mode() ? quick_games : games;
    long plies = 0;
    for (int g = 0; g < n && !testing::Test::HasFailure(); ++g)
        plies += playout(sfens[g % sfens.size()], seed0 + std::uint32_t(g), 300);
    EXPECT_GT(plies, long(n) * 20) << "games ended too early to test much";
    testing::Test::RecordProperty("plies", std::to_string(plies));
}

}  // namespace

TEST(Property, RandomPlayoutsFromStartPosition) { run_playouts({std::string(START_SFEN)}, 80, 12, 1000); }

TEST(Property, RandomPlayoutsFromHandicaps) {
    run_playouts({"lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                  "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                  "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                  "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"},
                 50, 8, 2000);
}

TEST(Property, RandomPlayoutsFromMidgames) {
    run_playouts({"l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
                  "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b BGSs3p 91",
                  "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
                  "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
                  "9/9/9/3k5/9/5K3/9/9/9 b RB2G2S2N2L9Prb2g2s2n2l9p 1", "4k4/9/9/9/9/9/9/9/9 b 16P 1",
                  "l7l/5bS2/p1np5/6Sk1/4p2B1/PSpPPn1G1/1P1G2g1N/2+l6/L1KN1+r3 b R3Pgs7p 1"},
                 70, 10, 3000);
}

TEST(Property, ChecksCanFail) {
    // The comparisons above must detect a difference: a snapshot sees a changed key, and the
    // stage filter sees a missing move.
    Position a, b;
    ASSERT_TRUE(b.set("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2").has_value());
    EXPECT_FALSE(Snapshot(a) == Snapshot(b));
    auto all = raw_moves<LEGAL, true>(a);
    EXPECT_NE(filtered(all, [](Move m) { return m.to() != SQ_76; }), all);
}

TEST(Property, CloneKeepsHistoryAndRepetitions) {
    Position pos;
    // Rooks shuffle twice: the start position occurs three times.
    for (int i = 0; i < 2; ++i)
        for (const auto& [from, to] : {std::pair{SQ_28, SQ_38}, {SQ_82, SQ_72}, {SQ_38, SQ_28}, {SQ_72, SQ_82}})
            ASSERT_TRUE(pos.try_play(pos.make_move(from, to, false)).has_value());
    RepetitionInfo rep = pos.repetition_info();
    EXPECT_EQ(rep.count, 2);
    EXPECT_EQ(rep.last_distance, 4);
    EXPECT_EQ(rep.first_distance, 8);

    std::mt19937 rng(5);
    for (int ply = 0; ply < 40; ++ply) {
        MoveList<LEGAL, true> moves(pos);
        ASSERT_GT(moves.size(), 0u);
        pos.play(moves.begin()[rng() % moves.size()].move);
    }
    // Walk back into the repetition: the clone must see the same history.
    for (int i = 0; i < 40; ++i)
        pos.unplay();
    auto copy = pos.clone();
    EXPECT_EQ(copy->sfen(), pos.sfen());
    EXPECT_EQ(copy->key(), pos.key());
    EXPECT_EQ(copy->board_key(), pos.board_key());
    EXPECT_EQ(copy->hand_key(), pos.hand_key());
    EXPECT_EQ(copy->checkers(), pos.checkers());
    EXPECT_EQ(copy->history_length(), pos.history_length());
    EXPECT_TRUE(copy->is_consistent());
    RepetitionInfo crep = copy->repetition_info();
    EXPECT_EQ(crep.count, 2);
    EXPECT_EQ(crep.first_distance, 8);
    EXPECT_EQ(crep.last_distance, 4);

    // Mid-game clones: equal now, independent afterwards, and able to unwind their history.
    for (int ply = 0; ply < 30; ++ply) {
        MoveList<LEGAL, true> moves(pos);
        ASSERT_GT(moves.size(), 0u);
        pos.play(moves.begin()[rng() % moves.size()].move);
    }
    auto mid = pos.clone();
    EXPECT_EQ(mid->sfen(), pos.sfen());
    EXPECT_EQ(mid->key(), pos.key());
    EXPECT_EQ(mid->repetition_info().count, pos.repetition_info().count);
    EXPECT_EQ(mid->last_move(), pos.last_move());
    const std::string at_clone = pos.sfen();
    MoveList<LEGAL, true> next(*mid);
    ASSERT_GT(next.size(), 0u);
    mid->play(next.begin()->move);
    EXPECT_EQ(pos.sfen(), at_clone);
    EXPECT_NE(mid->sfen(), at_clone);
    mid->unplay();
    EXPECT_EQ(mid->sfen(), at_clone);
    int back = mid->history_length();
    EXPECT_EQ(back, 38);
    for (int i = 0; i < back; ++i) {
        mid->unplay();
        pos.unplay();
        ASSERT_EQ(mid->sfen(), pos.sfen());
        ASSERT_EQ(mid->key(), pos.key());
        ASSERT_EQ(mid->repetition_info().count, pos.repetition_info().count);
    }
    EXPECT_EQ(mid->sfen(), std::string(START_SFEN));
}
