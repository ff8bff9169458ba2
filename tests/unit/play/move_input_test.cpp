// Moves typed in every notation, promotion questions and the reasons for refusals.
#include <gtest/gtest.h>

#include <utility>

#include "../test_positions.h"  // play_tests see only tests/unit/play
#include "core/position.h"
#include "play/move_input.h"

namespace hisha::play {
namespace {

using Status = MoveInput::Status;
using hisha::testing::pos_of;

std::string usi(const MoveInput& m) { return m.status == Status::Ok ? core::to_usi(m.move) : "?"; }

// Each text typed at `p` reads as the USI move beside it.
void expect_reads(const core::Position& p, std::initializer_list<std::pair<const char*, const char*>> typed) {
    for (auto [text, move] : typed)
        EXPECT_EQ(usi(read_move_input(p, text)), move) << text;
}

TEST(MoveInput, GnuShogiForms) {
    core::Position p;
    p.set_startpos();
    for (const char* text : {"7g7f", "P7f", "Pg7f", "P77f", "P-7f", "7g7f="})
        EXPECT_EQ(usi(read_move_input(p, text)), "7g7f") << text;
    EXPECT_EQ(read_move_input(p, "G5h").status, Status::Ambiguous);
    expect_reads(p, {{"S6h", "7i6h"}, {"G4i5h", "4i5h"}, {"G4i-5h", "4i5h"}});
}

TEST(MoveInput, DropsInBothSpellings) {
    expect_reads(*pos_of("4k4/9/9/9/9/9/9/9/4K4 b P 1"), {{"P*5e", "P*5e"}, {"P'5e", "P*5e"}});
}

TEST(MoveInput, OpenPromotionIsAQuestion) {
    auto p = pos_of("4k4/9/9/9/9/9/9/7B1/4K4 b - 1");
    for (const char* text : {"2h8b", "B8b", "B-8b"}) {
        MoveInput m = read_move_input(*p, text);
        EXPECT_EQ(m.status, Status::PromotionChoice) << text;
        EXPECT_EQ(m.candidates.size(), 2u);
    }
    expect_reads(*p, {{"2h8b+", "2h8b+"}, {"B8b+", "2h8b+"}, {"2h8b=", "2h8b"}, {"B-8b=", "2h8b"}});
}

TEST(MoveInput, ForcedPromotionNeedsNoQuestion) {
    auto p = pos_of("4k4/9/P8/9/9/9/9/9/4K4 b - 1");
    expect_reads(*p, {{"9c9b+", "9c9b+"}});
    MoveInput plain = read_move_input(*p, "9c9b");
    EXPECT_NE(plain.status, Status::Ok);
}

TEST(MoveInput, IllegalMovesSayWhy) {
    // Each move is refused as illegal, with a reason that says so.
    auto expect_illegal = [](const core::Position& p, const char* text, const char* why) {
        MoveInput m = read_move_input(p, text);
        EXPECT_EQ(m.status, Status::Illegal) << text;
        EXPECT_NE(m.reason.find(why), std::string::npos) << m.reason;
    };
    expect_illegal(*pos_of("4k4/9/9/9/9/9/4P4/9/4K4 b P 1"), "P*5e", "two pawns");
    expect_illegal(*pos_of("3rkr3/9/3G1G3/9/9/9/9/9/4K4 b P 1"), "P*5b", "mate");
    core::Position s;
    s.set_startpos();
    MoveInput far = read_move_input(s, "7g7e");
    EXPECT_EQ(far.status, Status::Illegal);
    EXPECT_FALSE(far.reason.empty());
    expect_illegal(s, "P*5e", "hand");
}

TEST(MoveInput, WordsAreNotMoves) {
    core::Position p;
    p.set_startpos();
    EXPECT_EQ(read_move_input(p, "bogus").status, Status::NotAMove);
    EXPECT_EQ(read_move_input(p, "").status, Status::NotAMove);
}

TEST(MoveInput, JapaneseMoves) {
    core::Position p;
    p.set_startpos();
    expect_reads(p, {{"▲７六歩", "7g7f"}, {"７六歩(77)", "7g7f"}});
}

}  // namespace
}  // namespace hisha::play
