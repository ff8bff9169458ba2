// GNU Shogi's save file: written and read back, a file whose moves do not lead to its board,
// and damaged files (gnushogi_compare_test.cpp checks it against the real gnushogi).
#include <gtest/gtest.h>

#include "core/game.h"
#include "notation/usi.h"
#include "play/gnu_save.h"

namespace hisha::play {
namespace {

using namespace hisha::core;

Game game_of(const std::vector<std::string>& usi) {
    Game g;
    for (const auto& text : usi) {
        auto m = notation::parse_usi_move(g.position(), text);
        EXPECT_TRUE(m) << text;
        if (m)
            EXPECT_TRUE(g.play(*m)) << text;
    }
    return g;
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
    std::size_t at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

TEST(GnuSave, WrittenAndReadBack) {
    Game g = game_of({"7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "2b3c"});
    std::string text = write_gnu_save(g, true);
    EXPECT_EQ(text.substr(0, text.find('\n')), "White computer Black Human    1 force");
    EXPECT_NE(text.find("\nb  - R - - - - - - -   0 0 0 0 0 0 0 3 0\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n S3a2b       0     0       0      0   512  0x00000000 0x00000000  B Black +\n"),
              std::string::npos)
        << text;
    ASSERT_TRUE(is_gnu_save(text));
    auto save = read_gnu_save(text);
    ASSERT_TRUE(save) << save.error();
    EXPECT_TRUE(save->force);
    EXPECT_TRUE(save->moves_kept);
    EXPECT_EQ(save->record.start_sfen, START_SFEN);
    ASSERT_EQ(save->record.moves.size(), g.moves().size());
    for (std::size_t i = 0; i < g.moves().size(); ++i)
        EXPECT_EQ(save->record.moves[i].move, g.moves()[i]);
}

TEST(GnuSave, MovesThatDoNotLeadToTheBoardLeaveThePosition) {
    std::string text = write_gnu_save(game_of({"7g7f", "3c3d"}), false);
    text = replace(text, "i  l n s g k g s n l", "i  l n s g k g s - l");  // a knight taken off
    auto save = read_gnu_save(text);
    ASSERT_TRUE(save) << save.error();
    EXPECT_FALSE(save->moves_kept);
    EXPECT_FALSE(save->force);
    EXPECT_TRUE(save->record.moves.empty());
    EXPECT_EQ(save->record.start_sfen, "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGS1L b - 1");
}

TEST(GnuSave, DamagedFilesSayWhy) {
    std::string text = write_gnu_save(game_of({"7g7f"}), false);
    EXPECT_FALSE(is_gnu_save("White to move\n"));
    auto no_rank = read_gnu_save(replace(text, "\ne  ", "\nx  "));
    ASSERT_FALSE(no_rank);
    EXPECT_EQ(no_rank.error(), "no rank e");
    auto bad_piece = read_gnu_save(replace(text, "a  L N S", "a  L Q S"));
    ASSERT_FALSE(bad_piece);
    EXPECT_EQ(bad_piece.error(), "rank a: 'Q' is no piece");
    auto no_king = read_gnu_save(replace(replace(text, "K G S N L", "- G S N L"), "k g s n l", "- g s n l"));
    EXPECT_FALSE(no_king && no_king->moves_kept);
}

}  // namespace
}  // namespace hisha::play
