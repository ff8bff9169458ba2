// USI moves and position strings: every form, every error path with its column, round trips
// over every legal move of the perft positions and of random games.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "core/movegen.h"
#include "move_errors.h"
#include "notation/usi.h"
#include "test_files.h"
#include "test_positions.h"

using namespace hisha;
using namespace hisha::notation;

namespace {
using hisha::testing::pos_of;

// The distinct SFENs of the shared perft table.
std::vector<std::string> perft_sfens() {
    std::ifstream in(std::string(HISHA_TESTDATA_DIR) + "/perft.tsv");
    std::set<std::string> seen;
    std::vector<std::string> out;
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string name, sfen;
        std::getline(fields, name, '\t');
        std::getline(fields, sfen, '\t');
        if (!sfen.empty() && seen.insert(sfen).second)
            out.push_back(sfen);
    }
    return out;
}


}  // namespace

TEST(UsiMove, ReadsBoardMovesPromotionsAndDrops) {
    core::Position start;
    auto m = parse_usi_move(start, "7g7f");
    ASSERT_TRUE(m) << m.error().to_string();
    EXPECT_EQ(m->from(), core::SQ_77);
    EXPECT_EQ(m->to(), core::SQ_76);
    EXPECT_FALSE(m->is_promotion());

    auto p = pos_of("4k4/9/9/7P1/9/9/9/9/4K4 b P 1");
    auto promo = parse_usi_move(*p, "2d2c+");
    ASSERT_TRUE(promo);
    EXPECT_TRUE(promo->is_promotion());
    auto plain = parse_usi_move(*p, "2d2c");
    ASSERT_TRUE(plain);
    EXPECT_FALSE(plain->is_promotion());
    auto drop = parse_usi_move(*p, "P*5e");
    ASSERT_TRUE(drop);
    EXPECT_TRUE(drop->is_drop());
    EXPECT_EQ(drop->dropped_piece(), core::PAWN);
    EXPECT_EQ(drop->to(), core::SQ_55);
}

TEST(UsiMove, MalformedMovesNameTheColumn) {
    core::Position start;
    for (const auto& c : hisha::testing::move_error_rows("usi", 3)) {
        auto r = parse_usi_move(start, c[0]);
        ASSERT_FALSE(r) << c[0];
        SCOPED_TRACE(c[0]);
        hisha::testing::expect_error(r.error(), core::ParseErrorCode::BadMove, 1, std::stoi(c[1]), c[2]);
    }
    // Columns count from where the move stands in its line.
    auto r = parse_usi_move(start, "7j7f", 3, 10);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().line, 3);
    EXPECT_EQ(r.error().column, 11);
}

TEST(UsiMove, IllegalMovesGiveTheCoreReason) {
    core::Position start;
    for (const auto& c : hisha::testing::move_error_rows("usi-illegal", 3)) {
        auto pos = pos_of(c[0]);
        auto r = parse_usi_move(*pos, c[1], 7, 4);
        ASSERT_FALSE(r) << c[0] << " " << c[1];
        SCOPED_TRACE(c[1]);
        hisha::testing::expect_error(r.error(), core::ParseErrorCode::IllegalMove, 7, 4, c[2]);
    }
}

TEST(UsiMove, EveryLegalMoveRoundTrips) {
    std::size_t checked = 0;
    for (const auto& sfen : perft_sfens()) {
        auto pos = pos_of(sfen);
        for (const auto& sm : core::MoveList<core::LEGAL, true>(*pos)) {
            std::string text = write_usi_move(sm.move);
            EXPECT_EQ(text, core::to_usi(sm.move));
            auto back = parse_usi_move(*pos, text);
            ASSERT_TRUE(back) << sfen << " " << text << ": " << back.error().to_string();
            EXPECT_EQ(*back, sm.move) << sfen << " " << text;
            ++checked;
        }
    }
    EXPECT_GT(checked, 900u);
}

TEST(UsiPosition, ReadsStartposSfenAndBareForms) {
    auto a = parse_usi_position("position startpos moves 7g7f 3c3d 8h2b+");
    ASSERT_TRUE(a) << a.error().to_string();
    EXPECT_EQ(a->start_sfen, core::START_SFEN);
    ASSERT_EQ(a->moves.size(), 3u);
    EXPECT_TRUE(a->moves[2].move.is_promotion());
    EXPECT_FALSE(a->handicap.has_value());

    auto b = parse_usi_position("startpos moves 7g7f");
    ASSERT_TRUE(b);
    EXPECT_EQ(b->moves.size(), 1u);

    auto c = parse_usi_position("position startpos");
    ASSERT_TRUE(c);
    EXPECT_TRUE(c->moves.empty());
    auto bare_moves = parse_usi_position("position startpos moves");
    ASSERT_TRUE(bare_moves);
    EXPECT_TRUE(bare_moves->moves.empty());

    const std::string sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";
    auto d = parse_usi_position("position sfen " + sfen + " moves 1d1e");
    ASSERT_TRUE(d) << d.error().to_string();
    EXPECT_EQ(d->start_sfen, "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
    EXPECT_EQ(d->moves.size(), 1u);

    auto e = parse_usi_position(sfen);
    ASSERT_TRUE(e);
    EXPECT_TRUE(e->moves.empty());
    auto f = parse_usi_position("sfen " + sfen + " moves 1d1e");
    ASSERT_TRUE(f);
    EXPECT_EQ(f->moves.size(), 1u);
    // The move number is optional; a handicap start is recognised.
    auto g =
        parse_usi_position("position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - moves 3c3d");
    ASSERT_TRUE(g) << g.error().to_string();
    ASSERT_TRUE(g->handicap.has_value());
    EXPECT_EQ(*g->handicap, core::Handicap::Lance);
    EXPECT_EQ(g->moves.size(), 1u);
}

TEST(UsiPosition, ErrorsNameTheMoveAndColumn) {
    const std::string text = "position startpos moves 7g7f 3c3d 7g7f";
    auto r = parse_usi_position(text, 5);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, core::ParseErrorCode::IllegalMove);
    EXPECT_EQ(r.error().line, 5);
    EXPECT_EQ(r.error().column, int(text.rfind("7g7f")) + 1);
    EXPECT_EQ(r.error().message, "move 3: 7g7f: no Black piece on 7g");
    EXPECT_EQ(r.error().to_string(), "line 5, col 35: move 3: 7g7f: no Black piece on 7g");

    auto bad = parse_usi_position("position startpos moves 7g7f 3c3x");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, core::ParseErrorCode::BadMove);
    EXPECT_EQ(bad.error().column, 33);
    EXPECT_EQ(bad.error().message, "move 2: expected a rank a-i");

    struct Case {
        const char* text;
        core::ParseErrorCode code;
        int column;
    };
    const Case cases[] = {
        {"", core::ParseErrorCode::Empty, 1},
        {"position", core::ParseErrorCode::Empty, 9},
        {"position foo", core::ParseErrorCode::BadBoard, 10},
        {"position startpos 7g7f", core::ParseErrorCode::TooManyFields, 19},
        {"position sfen", core::ParseErrorCode::MissingField, 14},
        {"position sfen moves 7g7f", core::ParseErrorCode::MissingField, 15},
    };
    for (const auto& c : cases) {
        auto e = parse_usi_position(c.text);
        ASSERT_FALSE(e) << c.text;
        EXPECT_EQ(e.error().code, c.code) << c.text << ": " << e.error().to_string();
        EXPECT_EQ(e.error().column, c.column) << c.text << ": " << e.error().to_string();
        EXPECT_EQ(e.error().line, 1);
    }
    // The SFEN's own errors, at their columns in the whole string.
    const std::string board = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1";
    auto e1 = parse_usi_position(board);
    ASSERT_FALSE(e1);
    EXPECT_EQ(e1.error().code, core::ParseErrorCode::BadBoard);
    EXPECT_EQ(e1.error().column, int(board.find('X')) + 1);
    const std::string side = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1 moves 7g7f";
    auto e2 = parse_usi_position(side);
    ASSERT_FALSE(e2);
    EXPECT_EQ(e2.error().code, core::ParseErrorCode::BadSideToMove);
    EXPECT_EQ(e2.error().column, int(side.find(" x ")) + 2);
}

TEST(UsiPosition, WritesStartposOrSfen) {
    GameRecord rec;
    EXPECT_EQ(write_usi_position(rec), "position startpos");
    rec = *parse_usi_position("startpos moves 7g7f 3c3d");
    EXPECT_EQ(write_usi_position(rec), "position startpos moves 7g7f 3c3d");
    rec.set_handicap(core::Handicap::TwoPiece);
    rec.moves.clear();
    EXPECT_EQ(write_usi_position(rec), "position sfen lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
}

TEST(UsiPosition, RandomGamesRoundTrip) {
    std::mt19937 rng(20260521);
    for (int game = 0; game < 20; ++game) {
        core::Position pos;
        GameRecord rec;
        for (int ply = 0; ply < 150; ++ply) {
            core::MoveList<core::LEGAL, true> moves(pos);
            if (moves.size() == 0)
                break;
            core::Move m = (moves.begin() + rng() % moves.size())->move;
            rec.moves.push_back(MoveRecord{m, {}, {}, {}});
            pos.play(m);
        }
        std::string text = write_usi_position(rec);
        auto back = parse_usi_position(text);
        ASSERT_TRUE(back) << text << ": " << back.error().to_string();
        EXPECT_EQ(back->main_line(), rec.main_line());
        EXPECT_EQ(write_usi_position(*back), text);
    }
}
