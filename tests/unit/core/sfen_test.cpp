// SFEN input and output: the golden lists tests/data/sfen/valid.txt (round trip, canonical
// output, canonical hand order) and invalid.txt (message and column of every error, and a
// failed set() leaving the position untouched), plus the Strict/Relaxed piece limits.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "core/position.h"

using namespace hisha::core;

namespace {

// Lines of a data file without comments ('#' first) and blank lines; '\r' is dropped.
std::vector<std::string> data_lines(const std::string& name) {
    std::ifstream in(std::string(HISHA_TEST_DATA_LOCAL) + "/sfen/" + name);
    EXPECT_TRUE(in.good()) << "cannot open " << name;
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line[0] == '#')
            continue;
        lines.push_back(line);
    }
    return lines;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= s.size(); ++i)
        if (i == s.size() || s[i] == sep) {
            out.push_back(s.substr(start, i - start));
            start = i + 1;
        }
    return out;
}

struct ValidCase {
    std::string input;
    std::string canonical;
};

std::vector<ValidCase> valid_cases() {
    std::vector<ValidCase> cases;
    for (const auto& line : data_lines("valid.txt")) {
        auto cols = split(line, '\t');
        EXPECT_LE(cols.size(), 2u) << line;
        cases.push_back({cols[0], cols.size() > 1 ? cols[1] : cols[0]});
    }
    return cases;
}

struct InvalidCase {
    std::string sfen;
    std::string message;
    int column;
};

std::vector<InvalidCase> invalid_cases() {
    std::vector<InvalidCase> cases;
    for (const auto& line : data_lines("invalid.txt")) {
        auto cols = split(line, '\t');
        EXPECT_EQ(cols.size(), 3u) << "malformed line: " << line;
        if (cols.size() == 3)
            cases.push_back({cols[0], cols[1], std::atoi(cols[2].c_str())});
    }
    return cases;
}

// The hand field of an SFEN output: "-", or pieces in the order R B G S N L P r b g s n l p,
// each letter once, with a count only when it is 2 or more.
::testing::AssertionResult canonical_hand(const std::string& sfen) {
    auto fields = split(sfen, ' ');
    if (fields.size() != 4)
        return ::testing::AssertionFailure() << "not 4 fields: " << sfen;
    const std::string& hand = fields[2];
    if (hand == "-")
        return ::testing::AssertionSuccess();
    const std::string order = "RBGSNLPrbgsnlp";
    std::size_t last = 0;
    bool first = true;
    for (std::size_t i = 0; i < hand.size();) {
        int count = 1;
        if (hand[i] >= '0' && hand[i] <= '9') {
            if (hand[i] == '0')
                return ::testing::AssertionFailure() << "leading zero in " << hand;
            count = 0;
            while (i < hand.size() && hand[i] >= '0' && hand[i] <= '9')
                count = count * 10 + (hand[i++] - '0');
            if (count < 2)
                return ::testing::AssertionFailure() << "count 1 written out in " << hand;
        }
        if (i >= hand.size())
            return ::testing::AssertionFailure() << "count without a piece in " << hand;
        std::size_t idx = order.find(hand[i++]);
        if (idx == std::string::npos)
            return ::testing::AssertionFailure() << "bad hand letter in " << hand;
        if (!first && idx <= last)
            return ::testing::AssertionFailure() << "hand not in canonical order: " << hand;
        first = false;
        last = idx;
    }
    return ::testing::AssertionSuccess();
}

}  // namespace

TEST(SfenData, FilesHaveEnoughCases) {
    EXPECT_GE(valid_cases().size(), 25u);
    EXPECT_GE(invalid_cases().size(), 30u);
}

TEST(SfenData, CanonicalHandCheckerRejectsBadHands) {
    // The checker used below must be able to fail.
    EXPECT_TRUE(canonical_hand("9/9/9/9/9/9/9/9/9 b RG2Pr3p 1"));
    EXPECT_FALSE(canonical_hand("9/9/9/9/9/9/9/9/9 b GR 1"));
    EXPECT_FALSE(canonical_hand("9/9/9/9/9/9/9/9/9 b pP 1"));
    EXPECT_FALSE(canonical_hand("9/9/9/9/9/9/9/9/9 b 1P 1"));
    EXPECT_FALSE(canonical_hand("9/9/9/9/9/9/9/9/9 b PP 1"));
    EXPECT_FALSE(canonical_hand("9/9/9/9/9/9/9/9/9 b P2 1"));
}

TEST(SfenValid, EverySetsAndRoundTrips) {
    for (const auto& [input, canonical] : valid_cases()) {
        SCOPED_TRACE(input);
        Position pos;
        auto r = pos.set(input);
        ASSERT_TRUE(r.has_value()) << r.error().to_string();
        EXPECT_TRUE(pos.is_consistent());
        const std::string out = pos.sfen();
        EXPECT_EQ(out, canonical);
        EXPECT_TRUE(canonical_hand(out));

        // Output set again gives the same output, key and state.
        Position again;
        auto r2 = again.set(out);
        ASSERT_TRUE(r2.has_value()) << r2.error().to_string();
        EXPECT_EQ(again.sfen(), out);
        EXPECT_EQ(again.key(), pos.key());
        EXPECT_EQ(again.board_key(), pos.board_key());
        EXPECT_EQ(again.hand_key(), pos.hand_key());
        EXPECT_EQ(again.checkers(), pos.checkers());
        EXPECT_EQ(again.side_to_move(), pos.side_to_move());
        EXPECT_EQ(again.game_ply(), pos.game_ply());

        // The Relaxed rules accept everything the Strict rules accept, with the same result.
        Position relaxed;
        auto r3 = relaxed.set(input, SfenRules::Relaxed);
        ASSERT_TRUE(r3.has_value()) << r3.error().to_string();
        EXPECT_EQ(relaxed.sfen(), out);

        // sfen(false) leaves out the move number only.
        EXPECT_EQ(pos.sfen(false) + " " + std::to_string(pos.game_ply()), out);
    }
}

TEST(SfenValid, HandOrderDoesNotChangeTheKey) {
    Position a, b;
    ASSERT_TRUE(a.set("4k4/9/9/9/9/9/9/9/4K4 b 2P3pGg 1").has_value());
    ASSERT_TRUE(b.set("4k4/9/9/9/9/9/9/9/4K4 b g3pG2P 1").has_value());
    EXPECT_EQ(a.key(), b.key());
    EXPECT_EQ(a.sfen(), b.sfen());
    EXPECT_EQ(a.hand(BLACK).count(PAWN), 2);
    EXPECT_EQ(a.hand(BLACK).count(GOLD), 1);
    EXPECT_EQ(a.hand(WHITE).count(PAWN), 3);
    EXPECT_EQ(a.hand(WHITE).count(GOLD), 1);
    // A different hand, or the other side to move, gives a different key.
    Position c, d;
    ASSERT_TRUE(c.set("4k4/9/9/9/9/9/9/9/4K4 b 3P2pGg 1").has_value());
    ASSERT_TRUE(d.set("4k4/9/9/9/9/9/9/9/4K4 w 2P3pGg 1").has_value());
    EXPECT_NE(a.key(), c.key());
    EXPECT_EQ(a.board_key(), c.board_key());
    EXPECT_NE(a.key(), d.key());
    EXPECT_EQ(a.hand_key(), d.hand_key());
}

TEST(SfenValid, PiecesLandOnTheRightSquares) {
    Position pos;
    ASSERT_TRUE(pos.set("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").has_value());
    EXPECT_EQ(pos.piece_on(SQ_91), W_LANCE);   // 9a: first character
    EXPECT_EQ(pos.piece_on(SQ_11), W_LANCE);   // 1a
    EXPECT_EQ(pos.piece_on(SQ_82), W_ROOK);    // 8b
    EXPECT_EQ(pos.piece_on(SQ_22), W_BISHOP);  // 2b
    EXPECT_EQ(pos.piece_on(SQ_88), B_BISHOP);  // 8h
    EXPECT_EQ(pos.piece_on(SQ_28), B_ROOK);    // 2h
    EXPECT_EQ(pos.piece_on(SQ_59), B_KING);
    EXPECT_EQ(pos.king_square(WHITE), SQ_51);
    ASSERT_TRUE(pos.set("4k4/+R7+r/9/9/9/9/9/9/4K4 w - 3").has_value());
    EXPECT_EQ(pos.piece_on(SQ_92), B_DRAGON);
    EXPECT_EQ(pos.piece_on(SQ_12), W_DRAGON);
    EXPECT_EQ(pos.side_to_move(), WHITE);
    EXPECT_EQ(pos.game_ply(), 3);
    ASSERT_TRUE(pos.set("9/9/9/9/9/9/9/9/9 b - 1").has_value());
    EXPECT_EQ(pos.king_square(BLACK), SQ_NONE);
    EXPECT_EQ(pos.king_square(WHITE), SQ_NONE);
}

TEST(SfenInvalid, EveryFailsWithMessageAndColumn) {
    Position pos;
    // A position with history, so that "unchanged" covers the move chain too.
    ASSERT_TRUE(pos.set("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1").has_value());
    ASSERT_TRUE(pos.try_play(pos.make_drop(PAWN, SQ_55)).has_value());
    const std::string before = pos.sfen();
    const Key key = pos.key();
    const int history = pos.history_length();
    ASSERT_EQ(history, 1);
    for (const auto& c : invalid_cases()) {
        SCOPED_TRACE("SFEN: '" + c.sfen + "'");
        auto r = pos.set(c.sfen);
        ASSERT_FALSE(r.has_value()) << "accepted";
        const ParseError& e = r.error();
        EXPECT_NE(e.message.find(c.message), std::string::npos)
            << "message '" << e.message << "' lacks '" << c.message << "'";
        EXPECT_NE(e.to_string().find(c.message), std::string::npos);
        EXPECT_EQ(e.column, c.column) << "message: " << e.message;
        if (e.column > 0) {
            EXPECT_NE(e.to_string().find("col " + std::to_string(e.column) + ": "), std::string::npos);
        }
        EXPECT_EQ(e.line, 0);
        EXPECT_EQ(pos.sfen(), before);
        EXPECT_EQ(pos.key(), key);
        EXPECT_EQ(pos.history_length(), history);
        EXPECT_TRUE(pos.is_consistent());
    }
    // The position still plays on from where it was.
    pos.unplay();
    EXPECT_EQ(pos.sfen(), "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1");
}

TEST(SfenInvalid, ErrorCodesNameTheField) {
    Position pos;
    auto code = [&](const std::string& sfen) {
        auto r = pos.set(sfen);
        EXPECT_FALSE(r.has_value()) << sfen;
        return r ? ParseErrorCode::Empty : r.error().code;
    };
    const std::string board = "4k4/9/9/9/9/9/9/9/4K4";
    EXPECT_EQ(code(""), ParseErrorCode::Empty);
    EXPECT_EQ(code(board), ParseErrorCode::MissingField);
    EXPECT_EQ(code(board + " b - 1 x"), ParseErrorCode::TooManyFields);
    EXPECT_EQ(code("4k4/9/9/9/9/9/9/4K4 b - 1"), ParseErrorCode::BadBoard);
    EXPECT_EQ(code(board + " x - 1"), ParseErrorCode::BadSideToMove);
    EXPECT_EQ(code(board + " b 0P 1"), ParseErrorCode::BadHand);
    EXPECT_EQ(code(board + " b - 0"), ParseErrorCode::BadMoveNumber);
    EXPECT_EQ(code("P3k4/9/9/9/9/9/9/9/4K4 b - 1"), ParseErrorCode::IllegalPosition);
}

TEST(SfenRules, RelaxedAllowsMorePiecesThanASet) {
    // peeper-kn-drops of perft.tsv: three bishops and three rooks.
    const std::string sfen = "k+n7/sg7/9/9/9/9/+r5K1g/7L1/2LN1R1+Bb b RBGSNLP 1";
    Position pos;
    auto strict = pos.set(sfen);
    ASSERT_FALSE(strict.has_value());
    EXPECT_NE(strict.error().message.find("more pieces than exist"), std::string::npos) << strict.error().message;
    auto relaxed = pos.set(sfen, SfenRules::Relaxed);
    ASSERT_TRUE(relaxed.has_value()) << relaxed.error().to_string();
    EXPECT_EQ(pos.sfen(), sfen);
    EXPECT_TRUE(pos.is_consistent());
    // Relaxed is still bounded by what a hand can store: 31 pawns, 3 rooks.
    auto r32 = pos.set("4k4/9/9/9/9/9/9/9/4K4 b 32P 1", SfenRules::Relaxed);
    ASSERT_FALSE(r32.has_value());
    EXPECT_NE(r32.error().message.find("more than the 31"), std::string::npos) << r32.error().message;
    EXPECT_FALSE(pos.set("RRRR1k3/9/9/9/9/9/9/9/4K4 b - 1", SfenRules::Relaxed).has_value());
    // ... and by the size of a set in total (41 pieces: a full set and one more bishop).
    EXPECT_FALSE(
        pos.set("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b B 1", SfenRules::Relaxed).has_value());
    // Relaxed does not relax the other rules.
    EXPECT_FALSE(pos.set("P3k4/9/9/9/9/9/9/9/4K4 b - 1", SfenRules::Relaxed).has_value());
    EXPECT_FALSE(pos.set("4k4/4R4/9/9/9/9/9/9/4K4 b - 1", SfenRules::Relaxed).has_value());
    EXPECT_EQ(pos.sfen(), sfen);
}

// Relaxed accepts a hand above the Strict maximum (three bishops, 19 pawns); the position
// must then be consistent. Run in a child process because debug builds abort inside set()
// (HISHA_ASSERT(3, is_consistent())) when it is not.
TEST(SfenRules, RelaxedHandAboveStrictMaximumIsConsistent) {
    for (const char* sfen : {"4k4/9/9/9/9/9/9/9/4K4 b 3B 1", "4k4/9/9/9/9/9/9/9/4K4 w 19p 1"}) {
        EXPECT_EXIT(
            {
                Position pos;
                auto r = pos.set(sfen, SfenRules::Relaxed);
                std::exit(!r.has_value() ? 2 : pos.is_consistent() ? 0 : 1);
            },
            ::testing::ExitedWithCode(0), "")
            << sfen << " (exit 1: set() succeeded but is_consistent() is false; 2: rejected)";
    }
}

TEST(SfenSet, StartposAndResetOfHistory) {
    Position pos;
    ASSERT_TRUE(pos.set("startpos").has_value());
    EXPECT_EQ(pos.sfen(), std::string(START_SFEN));
    pos.play(pos.make_move(SQ_77, SQ_76, false));
    pos.play(pos.make_move(SQ_33, SQ_34, false));
    EXPECT_EQ(pos.history_length(), 2);
    ASSERT_TRUE(pos.set(START_SFEN).has_value());
    EXPECT_EQ(pos.history_length(), 0);
    EXPECT_EQ(pos.repetition_info().count, 0);
    Position fresh;
    EXPECT_EQ(pos.key(), fresh.key());
}
