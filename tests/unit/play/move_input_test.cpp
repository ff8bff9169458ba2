// Moves typed in every notation, promotion questions and the reasons for refusals.
#include <gtest/gtest.h>

#include "core/position.h"
#include "play/move_input.h"

namespace hisha::play {
namespace {

using Status = MoveInput::Status;

std::unique_ptr<core::Position> at_ptr(const char* sfen) {
    auto p = std::make_unique<core::Position>();
    EXPECT_TRUE(p->set(sfen, core::SfenRules::Relaxed)) << sfen;
    return p;
}

std::string usi(const MoveInput& m) { return m.status == Status::Ok ? core::to_usi(m.move) : "?"; }

TEST(MoveInput, GnuShogiForms) {
    core::Position p;
    p.set_startpos();
    for (const char* text : {"7g7f", "P7f", "Pg7f", "P77f", "P-7f", "7g7f="})
        EXPECT_EQ(usi(read_move_input(p, text)), "7g7f") << text;
    EXPECT_EQ(usi(read_move_input(p, "S6h")), "7i6h");
    EXPECT_EQ(read_move_input(p, "G5h").status, Status::Ambiguous);
    EXPECT_EQ(usi(read_move_input(p, "G4i5h")), "4i5h");
    EXPECT_EQ(usi(read_move_input(p, "G4i-5h")), "4i5h");
}

TEST(MoveInput, DropsInBothSpellings) {
    auto p_owner = at_ptr("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    const core::Position& p = *p_owner;
    EXPECT_EQ(usi(read_move_input(p, "P*5e")), "P*5e");
    EXPECT_EQ(usi(read_move_input(p, "P'5e")), "P*5e");
}

TEST(MoveInput, OpenPromotionIsAQuestion) {
    auto p_owner = at_ptr("4k4/9/9/9/9/9/9/7B1/4K4 b - 1");
    const core::Position& p = *p_owner;
    for (const char* text : {"2h8b", "B8b", "B-8b"}) {
        MoveInput m = read_move_input(p, text);
        EXPECT_EQ(m.status, Status::PromotionChoice) << text;
        EXPECT_EQ(m.candidates.size(), 2u);
    }
    EXPECT_EQ(usi(read_move_input(p, "2h8b+")), "2h8b+");
    EXPECT_EQ(usi(read_move_input(p, "B8b+")), "2h8b+");
    EXPECT_EQ(usi(read_move_input(p, "2h8b=")), "2h8b");
    EXPECT_EQ(usi(read_move_input(p, "B-8b=")), "2h8b");
}

TEST(MoveInput, ForcedPromotionNeedsNoQuestion) {
    auto p_owner = at_ptr("4k4/9/P8/9/9/9/9/9/4K4 b - 1");
    const core::Position& p = *p_owner;
    EXPECT_EQ(usi(read_move_input(p, "9c9b+")), "9c9b+");
    MoveInput plain = read_move_input(p, "9c9b");
    EXPECT_NE(plain.status, Status::Ok);
}

TEST(MoveInput, IllegalMovesSayWhy) {
    auto two_owner = at_ptr("4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    const core::Position& two = *two_owner;
    MoveInput m = read_move_input(two, "P*5e");
    EXPECT_EQ(m.status, Status::Illegal);
    EXPECT_NE(m.reason.find("two pawns"), std::string::npos) << m.reason;

    auto mate_owner = at_ptr("3rkr3/9/3G1G3/9/9/9/9/9/4K4 b P 1");
    const core::Position& mate = *mate_owner;
    m = read_move_input(mate, "P*5b");
    EXPECT_EQ(m.status, Status::Illegal);
    EXPECT_NE(m.reason.find("mate"), std::string::npos) << m.reason;

    core::Position s;
    s.set_startpos();
    m = read_move_input(s, "7g7e");
    EXPECT_EQ(m.status, Status::Illegal);
    EXPECT_FALSE(m.reason.empty());
    m = read_move_input(s, "P*5e");
    EXPECT_EQ(m.status, Status::Illegal);
    EXPECT_NE(m.reason.find("hand"), std::string::npos) << m.reason;
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
    EXPECT_EQ(usi(read_move_input(p, "▲７六歩")), "7g7f");
    EXPECT_EQ(usi(read_move_input(p, "７六歩(77)")), "7g7f");
}

}  // namespace
}  // namespace hisha::play
