// Western (Hodges / SHOGI-L) notation: canonical output against a golden file, every variant
// the seeds use, every error path with its column, round trips over all legal moves, and the
// GNU Shogi manual's sample game (Trent vs Murphy) read and replayed to its final position.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/movegen.h"
#include "core/rules.h"
#include "move_errors.h"
#include "notation/psn.h"
#include "notation/western.h"
#include "test_files.h"
#include "test_positions.h"

using namespace hisha;
using namespace hisha::notation;

namespace {
using hisha::testing::pos_of;
using hisha::testing::slurp;

std::string usi_of(const core::Position& pos, const std::string& text) {
    auto r = parse_western(pos, text);
    return r ? core::to_usi(*r) : "error: " + r.error().to_string();
}

// Black: golds on 6i and 4i, a pawn on 2d (may promote on 2c), a pawn on 1b (must promote),
// a tokin on 4c; a White pawn on 7f to capture; a pawn and a silver in hand.
const char* MIXED = "4k4/8P/5+P3/7P1/9/2p6/9/9/3GKG3 b SP 1";

}  // namespace

TEST(Western, CanonicalFormsMatchTheGoldenFile) {
    std::istringstream in(slurp(hisha::testing::notation_data("western/canonical_moves.txt")));
    std::unique_ptr<core::Position> pos;
    std::string line;
    std::size_t moves = 0, positions = 0;
    std::set<std::string> expected;
    auto check_complete = [&]() {
        if (!pos)
            return;
        std::set<std::string> all;
        for (const auto& sm : core::MoveList<core::LEGAL, true>(*pos))
            all.insert(core::to_usi(sm.move));
        EXPECT_EQ(all, expected) << "the golden file lists every legal move of " << pos->sfen();
    };
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        if (line.rfind("sfen ", 0) == 0) {
            check_complete();
            pos = pos_of(line.substr(5));
            expected.clear();
            ++positions;
            continue;
        }
        auto tab = line.find('\t');
        ASSERT_NE(tab, std::string::npos) << line;
        std::string usi = line.substr(0, tab), western = line.substr(tab + 1);
        expected.insert(usi);
        bool found = false;
        for (const auto& sm : core::MoveList<core::LEGAL, true>(*pos))
            if (core::to_usi(sm.move) == usi) {
                found = true;
                EXPECT_EQ(write_western(*pos, sm.move), western) << pos->sfen() << " " << usi;
                auto back = parse_western(*pos, western);
                ASSERT_TRUE(back) << western << ": " << back.error().to_string();
                EXPECT_EQ(*back, sm.move) << western;
            }
        EXPECT_TRUE(found) << usi;
        ++moves;
    }
    check_complete();
    EXPECT_EQ(positions, 5u);
    EXPECT_GT(moves, 350u);
}

TEST(Western, WritesTheCanonicalChoices) {
    auto p = pos_of(MIXED);
    auto w = [&](const char* usi) {
        for (const auto& sm : core::MoveList<core::LEGAL, true>(*p))
            if (core::to_usi(sm.move) == usi)
                return write_western(*p, sm.move);
        return std::string("not legal: ") + usi;
    };
    EXPECT_EQ(w("2d2c+"), "P-2c+");
    EXPECT_EQ(w("2d2c"), "P-2c=");
    EXPECT_EQ(w("1b1a+"), "P-1a+");
    EXPECT_EQ(w("4c4b"), "+P-4b");
    EXPECT_EQ(w("P*5e"), "P*5e");
    EXPECT_EQ(w("S*7g"), "S*7g");
    EXPECT_EQ(w("6i5h"), "G6i-5h");
    EXPECT_EQ(w("4i5h"), "G4i-5h");
    EXPECT_EQ(w("6i7h"), "G-7h");
    EXPECT_EQ(write_western(*p, core::Move::resign()), "resign");
}

TEST(Western, ReadsTheVariantsInUse) {
    auto p = pos_of(MIXED);
    const std::pair<const char*, const char*> cases[] = {
        {"P-2c=", "2d2c"},   {"P2c=", "2d2c"},   {"P-2c", "2d2c"},      {"P2c", "2d2c"},    {"P-2c+", "2d2c+"},
        {"P2c+", "2d2c+"},   {"p-2c+", "2d2c+"}, {"P - 2c +", "2d2c+"}, {"P-2C+", "2d2c+"}, {"P2d-2c+", "2d2c+"},
        {"P2dx2c", "error"}, {"P*5e", "P*5e"},   {"P'5e", "P*5e"},      {"p'5e", "P*5e"},   {"S*7g", "S*7g"},
        {"S'7g", "S*7g"},    {"+P-4b", "4c4b"},  {"+P4b", "4c4b"},      {"T-4b", "4c4b"},   {"t4b", "4c4b"},
        {"P4b", "4c4b"},     {"G6i-5h", "6i5h"}, {"G4i5h", "4i5h"},     {"G4-5h", "4i5h"},  {"G65h", "6i5h"},
        {"G-7h", "6i7h"},    {"g7h", "6i7h"},    {"P-1a+", "1b1a+"},    {"K-5h!", "5i5h"},  {"K5h?", "5i5h"},
        {"2d2c+", "2d2c+"},  {"2d2c", "2d2c"},   {"2d2c=", "2d2c"},     {"G6i5h", "6i5h"},  {"G 6i - 5h", "6i5h"},
    };
    for (auto [text, usi] : cases) {
        std::string got = usi_of(*p, text);
        if (std::string(usi) == "error")
            EXPECT_EQ(got.rfind("error", 0), 0u) << text << " gave " << got;
        else
            EXPECT_EQ(got, usi) << text;
    }
    // Captures: 'x' or 'X'; the pawn on 7f is White's.
    auto c = pos_of("4k4/9/9/9/9/2p6/2P6/9/4K4 b - 1");
    EXPECT_EQ(usi_of(*c, "Px7f"), "7g7f");
    EXPECT_EQ(usi_of(*c, "PX7f"), "7g7f");
    EXPECT_EQ(usi_of(*c, "P7f"), "7g7f");
    // Ranks as digits, as some books write them (P76 = P-7f, Wikipedia's S72x83+ = S7bx8c+).
    core::Position start;
    EXPECT_EQ(usi_of(start, "P76"), "7g7f");
    EXPECT_EQ(usi_of(start, "G49-58"), "4i5h");
    auto s = pos_of("4k4/2S6/1p7/9/9/9/9/9/4K4 b - 1");
    EXPECT_EQ(usi_of(*s, "S72x83+"), "7b8c+");
    EXPECT_EQ(usi_of(*s, "S7bx8c+"), "7b8c+");
    // Horse and dragon by their 81Dojo letters.
    auto hd = pos_of("4k4/9/9/9/9/9/9/1+B5+R1/4K4 b - 1");
    EXPECT_EQ(usi_of(*hd, "H-7g"), "8h7g");
    EXPECT_EQ(usi_of(*hd, "+B-7g"), "8h7g");
    EXPECT_EQ(usi_of(*hd, "D-2a"), "2h2a");
    EXPECT_EQ(usi_of(*hd, "+R2a"), "2h2a");
}

TEST(Western, PlusAfterAMoveThatCannotPromoteIsACheckMark) {
    // The GNU Shogi manual: "Check is indicated by a + after the move, e.g. R3f+".
    auto p = pos_of("9/9/9/9/9/2k6/9/9/R3K4 b - 1");
    EXPECT_EQ(usi_of(*p, "R-9f+"), "9i9f");
    EXPECT_EQ(usi_of(*p, "R9f+"), "9i9f");
    // Without check the '+' is an error: the rook cannot promote there.
    auto r = parse_western(*p, "R-9g+");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().message, "R-9g+: that move cannot promote");
}

TEST(Western, SyntaxErrorsNameTheColumn) {
    core::Position start;
    for (const auto& c : hisha::testing::move_error_rows("western", 3)) {
        SCOPED_TRACE(c[0]);
        auto r = parse_western(start, c[0], 9, 5);
        ASSERT_FALSE(r);
        hisha::testing::expect_error(r.error(), core::ParseErrorCode::BadMove, 9, std::stoi(c[1]), c[2]);
        EXPECT_FALSE(looks_like_move(c[0]));
    }
}

TEST(Western, IllegalAndAmbiguousMovesSayWhy) {
    for (const auto& c : hisha::testing::move_error_rows("western-illegal", 4)) {
        SCOPED_TRACE(c[1] + " (" + c[2] + ")");
        auto pos = pos_of(c[0]);
        auto r = parse_western(*pos, c[1], 12, 3);
        ASSERT_FALSE(r);
        hisha::testing::expect_error(
            r.error(), c[2] == "BadMove" ? core::ParseErrorCode::BadMove : core::ParseErrorCode::IllegalMove, 12, 3,
            c[3]);
    }
}

TEST(Western, EveryLegalMoveRoundTrips) {
    std::vector<std::string> sfens = hisha::testing::VARIED_SFENS;
    sfens.push_back(MIXED);
    for (const std::string& sfen : sfens) {
        auto pos = pos_of(sfen);
        for (const auto& sm : core::MoveList<core::LEGAL, true>(*pos)) {
            std::string text = write_western(*pos, sm.move);
            auto back = parse_western(*pos, text);
            ASSERT_TRUE(back) << sfen << " " << text << ": " << back.error().to_string();
            EXPECT_EQ(*back, sm.move) << sfen << " " << text;
        }
    }
    // And along random games, where promoted pieces and full hands turn up.
    hisha::testing::random_games(81, 30, 200, [](const core::Position& pos, int) {
        for (const auto& sm : core::MoveList<core::LEGAL, true>(pos)) {
            auto back = parse_western(pos, write_western(pos, sm.move));
            ASSERT_TRUE(back) << pos.sfen() << " " << write_western(pos, sm.move);
            ASSERT_EQ(*back, sm.move) << pos.sfen() << " " << write_western(pos, sm.move);
        }
    });
}

// The GNU Shogi manual's sample game, typed in as the seed prints it (no-break spaces and all).
TEST(Western, SampleGameFromTheGnuShogiManual) {
    auto rec = read_psn(slurp(hisha::testing::notation_data("western/sample_game.txt")));
    ASSERT_TRUE(rec) << rec.error().to_string();
    EXPECT_EQ(rec->moves.size(), 71u);
    EXPECT_EQ(rec->header(key::BLACK), "Michael Trent (1-dan)");
    EXPECT_EQ(rec->header(key::WHITE), "David Murphy (2-dan)");
    EXPECT_EQ(rec->result.winner, core::Winner::Black);
    EXPECT_EQ(rec->result.reason, core::EndReason::Resignation);
    ASSERT_TRUE(rec->result.actor.has_value());
    EXPECT_EQ(*rec->result.actor, core::WHITE);
    // Every move legal, replayed by the core to the position where White resigned (the
    // same final position that tsshogi's replay of these moves gives).
    core::Game game;
    auto replayed = replay(*rec, game);
    ASSERT_TRUE(replayed) << replayed.error().to_string();
    EXPECT_EQ(game.position().sfen(), "ln6l/1ks+N+R4/pppp5/4p1p1p/n8/1PP1P1P1P/P2P5/2KG5/LN6L w RB2G3S2Pbg2p 72");
    EXPECT_FALSE(game.over());
    EXPECT_FALSE(core::is_checkmate(game.position()));
    // The comments stay with their moves: the first follows White's 2... B3c.
    ASSERT_FALSE(rec->moves[3].comments.empty());
    EXPECT_EQ(rec->moves[3].comments[0].rfind("This move is necessary", 0), 0u);
    ASSERT_EQ(rec->start_comments.size(), 1u);
    EXPECT_EQ(rec->start_comments[0].rfind("This game was annotated by Pieter Stouten", 0), 0u);
    // The Western output is the canonical form of every move, the seed's spellings mapped so.
    std::string psn = write_psn(*rec);
    EXPECT_EQ(psn, slurp(hisha::testing::notation_data("western/sample_game.psn")));
    for (const char* canonical :
         {"1. P-2f P-3d 2. P-2e B-3c", "9. G4i-5h G4a-5b", "17. Bx3c+ Nx3c", "21. R-2a+ P*4g", "24. +Rx6a +Px3g",
          "25. +Rx5b S*6b", "27. N*6e +P-4g", "32. Gx6i R-4h+", "36. K-7h Resigns"})
        EXPECT_NE(psn.find(canonical), std::string::npos) << canonical;
    auto again = read_psn(psn);
    ASSERT_TRUE(again) << again.error().to_string();
    EXPECT_EQ(again->main_line(), rec->main_line());
    EXPECT_EQ(again->start_comments, rec->start_comments);
    EXPECT_EQ(write_psn(*again), psn);
}
