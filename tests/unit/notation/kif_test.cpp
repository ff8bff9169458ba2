// KIF/KIFU: every shared fixture reads, replays through core::Game and round-trips (UTF-8 and
// Shift_JIS); details of each fixture; variations; golden writer output; the forgiving parts of
// reading; and every error path with its message, line and column.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "notation/csa.h"
#include "notation/encoding.h"
#include "notation/ki2.h"
#include "notation/kif.h"
#if __has_include("notation/csa.h")
#include "notation/csa.h"
#include "record_fixtures.h"
#include "test_files.h"
#define HISHA_HAVE_CSA 1
#endif

namespace hisha::notation {
namespace {

using testing::expect_golden, testing::files_in, testing::slurp;

GameRecord read_ok(const std::string& bytes, const std::string& what) {
    return testing::parsed([](const std::string& b) { return read_kif(b); }, bytes, what);
}


TEST(KifFixtures, ReadReplayAndRoundTrip) {
    testing::expect_fixtures_round_trip(
        testing::RECORDS + "kif", 8, [](const std::string& b) { return read_kif(b); },
        [](const GameRecord& r, Encoding enc) { return write_kif(r, enc); }, true);
}

TEST(KifFixtures, LanceHandicapWithStrayCarriageReturns) {
    GameRecord rec = read_ok(slurp(testing::RECORDS + "kif/20081220kyoochi.kif"), "kyoochi");
    EXPECT_EQ(rec.handicap, core::Handicap::Lance);
    EXPECT_EQ(rec.start_sfen, core::handicap_info(core::Handicap::Lance).sfen);
    ASSERT_EQ(rec.moves.size(), 142u);
    EXPECT_EQ(core::to_usi(rec.moves[0].move), "3c3d");  // the handicap giver moves first
    EXPECT_EQ(rec.header(key::BLACK), "糸谷哲郎");
    EXPECT_EQ(rec.header(key::WHITE), "深浦康市");
    EXPECT_EQ(rec.header(key::EVENT), "その他の棋戦");
    EXPECT_EQ(rec.header(key::SITE), "東京・将棋会館");
    EXPECT_EQ(rec.header(key::TIME_CONTROL), "60分 切れたら1分将棋");
    EXPECT_EQ(rec.header(key::START_TIME), "2008/12/20(土)");
    ASSERT_EQ(rec.start_comments.size(), 2u);
    EXPECT_EQ(rec.start_comments[0], "棋戦詳細：トップ棋士VS関西新鋭 指し込み2番勝負");
    EXPECT_EQ(rec.result.reason, core::EndReason::Resignation);
    EXPECT_EQ(rec.result.winner, core::Winner::Black);
    EXPECT_EQ(rec.result.actor, core::WHITE);
    EXPECT_NE(write_kif(rec).find("手合割：香落ち\n上手：深浦康市\n下手：糸谷哲郎\n"), std::string::npos);
    EXPECT_NE(write_kif(rec).find("まで142手で下手の勝ち"), std::string::npos);
}

TEST(KifFixtures, TimesCommentsAndResults) {
    GameRecord ryuou = read_ok(slurp(testing::RECORDS + "kif/ryuou201409020101.kif"), "ryuou");
    EXPECT_EQ(ryuou.moves.size(), 117u);
    EXPECT_EQ(ryuou.start_comments.size(), 6u);
    EXPECT_EQ(ryuou.moves[0].comments.size(), 5u);
    EXPECT_EQ(ryuou.moves[0].time_ms, 0);
    EXPECT_EQ(ryuou.header(key::TITLE), "竜王戦");
    EXPECT_EQ(ryuou.header(key::END_TIME), "2014/09/02 21:47");
    EXPECT_EQ(ryuou.header("図"), "投了");
    EXPECT_EQ(ryuou.result.winner, core::Winner::Black);

    GameRecord oui = read_ok(slurp(testing::RECORDS + "kif/oui201407080101.kif"), "oui");
    EXPECT_EQ(oui.moves.size(), 116u);
    EXPECT_EQ(oui.result.winner, core::Winner::White);
    EXPECT_EQ(oui.result.actor, core::BLACK);

    GameRecord habu = read_ok(slurp(testing::RECORDS + "kif/habu-fujii-2006.kif"), "habu");
    EXPECT_EQ(habu.moves.size(), 181u);
    EXPECT_EQ(habu.header(key::OPENING), "四間飛車");
    EXPECT_EQ(habu.headers.back().key, key::BLACK);  // 後手 before 先手, as in the file
    EXPECT_FALSE(habu.moves[0].time_ms.has_value());
}

TEST(KifFixtures, SealedMoveWithLongThinkingTimes) {
    GameRecord rec = read_ok(slurp(testing::RECORDS + "kif/meijinsen_20180508_M7_10034.kif"), "meijinsen");
    ASSERT_EQ(rec.moves.size(), 52u);
    EXPECT_EQ(rec.moves[1].time_ms, 60'000);
    EXPECT_EQ(rec.moves[23].time_ms, 14 * 60'000);
    EXPECT_EQ(rec.result.reason, core::EndReason::SealedMove);
    EXPECT_EQ(rec.result.actor, core::BLACK);
    EXPECT_EQ(rec.result.time_ms, 25 * 60'000);
    EXPECT_EQ(rec.headers[0].key, "対局ID");
    EXPECT_EQ(rec.header(key::NOTE), "昼休前33手目22分\\n封じ手時刻:18:30＜53手目＞\\n");
    std::string out = write_kif(rec);
    EXPECT_NE(out.find("  53 封じ手       (25:00/04:07:00)\nまで52手で封じ手\n"), std::string::npos);
}

TEST(KifFixtures, ShogidokoroBodStart) {
    GameRecord rec = read_ok(slurp(testing::RECORDS + "kif/shogidokoro.kifu"), "shogidokoro");
    EXPECT_EQ(rec.start_sfen, "4+B2n1/7k1/6pp1/7gp/4P3P/9/9/9/9 b RBSNr3g3s2n4l13p 1");
    EXPECT_FALSE(rec.handicap.has_value());
    ASSERT_EQ(rec.moves.size(), 19u);
    EXPECT_EQ(rec.moves[0].time_ms, 31'000);
    EXPECT_EQ(rec.moves[1].time_ms, 0);
    EXPECT_EQ(rec.result.reason, core::EndReason::None);
    auto end = final_position(rec);
    ASSERT_TRUE(end.has_value());
    EXPECT_TRUE((*end)->in_check());
}

TEST(KifFixtures, FourfoldRepetitionIsSennichite) {
    GameRecord rec = read_ok(slurp(testing::RECORDS + "kif/shogihome-e2e5-sennichite.kifu"), "sennichite");
    EXPECT_EQ(rec.result.reason, core::EndReason::Sennichite);
    EXPECT_EQ(rec.result.winner, core::Winner::Draw);
    EXPECT_EQ(rec.header(key::TITLE), "test+test-30-5F+Enemy+usi-csa-bridge+20260805000500");
    EXPECT_EQ(rec.header("対局日"), "2026/08/05");
    core::Game game;
    ASSERT_TRUE(replay(rec, game).has_value());
    EXPECT_TRUE(game.over());
    EXPECT_EQ(game.result().reason, core::EndReason::Sennichite);
    EXPECT_EQ(game.result().winner, core::Winner::Draw);
}

TEST(KifFixtures, EightPieceGameInKifKi2AndCsa) {
    GameRecord kif = read_ok(slurp(testing::RECORDS + "kif/8mai.kif"), "8mai.kif");
    auto ki2 = read_ki2(slurp(testing::RECORDS + "ki2/8mai.ki2"));
    ASSERT_TRUE(ki2.has_value()) << ki2.error().to_string();
    EXPECT_EQ(kif.handicap, core::Handicap::EightPiece);
    EXPECT_EQ(kif.start_sfen, ki2->start_sfen);
    EXPECT_EQ(kif.main_line(), ki2->main_line());
    EXPECT_EQ(kif.result.reason, core::EndReason::Abort);
    EXPECT_EQ(kif.result.reason, ki2->result.reason);
    EXPECT_EQ(kif.result.actor, ki2->result.actor);
    EXPECT_EQ(kif.result.time_ms, 39'000);
    EXPECT_EQ(kif.header(key::BLACK), "shitate");
    EXPECT_EQ(kif.header(key::WHITE), ki2->header(key::WHITE));
    auto csa = read_csa(slurp(testing::RECORDS + "csa/8mai.csa"));
    ASSERT_TRUE(csa.has_value()) << csa.error().to_string();
    core::Position a, b;
    ASSERT_TRUE(a.set(kif.start_sfen).has_value());
    ASSERT_TRUE(b.set(csa->start_sfen).has_value());
    EXPECT_EQ(a.sfen(false), b.sfen(false));
    EXPECT_EQ(kif.main_line(), csa->main_line());
    EXPECT_EQ(kif.result.reason, csa->result.reason);
    for (std::size_t i = 0; i < kif.moves.size() && i < csa->moves.size(); ++i)
        EXPECT_EQ(kif.moves[i].time_ms, csa->moves[i].time_ms) << "ply " << i + 1;
}

TEST(KifWrite, GoldenFiles) {
    GameRecord mai = read_ok(slurp(testing::RECORDS + "kif/8mai.kif"), "8mai");
    expect_golden(write_kif(mai), testing::NOTATION + "kif/8mai.kifu");
    expect_golden(write_kif(mai, Encoding::ShiftJis), testing::NOTATION + "kif/8mai.kif");
    GameRecord dokoro = read_ok(slurp(testing::RECORDS + "kif/shogidokoro.kifu"), "shogidokoro");
    expect_golden(write_kif(dokoro), testing::NOTATION + "kif/shogidokoro.kifu");
    GameRecord habu = read_ok(slurp(testing::RECORDS + "kif/habu-fujii-2006.kif"), "habu");
    expect_golden(write_kif(habu), testing::NOTATION + "kif/habu-fujii-2006.kifu");
}

TEST(KifVariations, NestedBranchesReadAndWriteBackExactly) {
    std::string text = slurp(testing::NOTATION + "kif/variations.kifu");
    GameRecord rec = read_ok(text, "variations");
    ASSERT_EQ(rec.moves.size(), 5u);
    EXPECT_EQ(rec.start_comments, std::vector<std::string>{"start comment"});
    EXPECT_EQ(rec.moves[0].comments, (std::vector<std::string>{"first move", "second line"}));
    ASSERT_EQ(rec.moves[1].variations.size(), 1u);  // 変化：2手
    ASSERT_EQ(rec.moves[2].variations.size(), 1u);  // 変化：3手
    const auto& three = rec.moves[2].variations[0].moves;
    ASSERT_EQ(three.size(), 3u);
    EXPECT_EQ(core::to_usi(three[0].move), "6g6f");
    EXPECT_EQ(three[0].time_ms, 40'000);
    ASSERT_EQ(three[1].variations.size(), 1u);  // 変化：4手 inside 変化：3手
    const auto& four = three[1].variations[0].moves;
    ASSERT_EQ(four.size(), 1u);
    EXPECT_EQ(core::to_usi(four[0].move), "2b3c");
    EXPECT_EQ(four[0].comments, std::vector<std::string>{"&しおり"});
    const auto& two = rec.moves[1].variations[0].moves;
    ASSERT_EQ(two.size(), 2u);
    EXPECT_EQ(core::to_usi(two[0].move), "8c8d");
    EXPECT_EQ(rec.result.reason, core::EndReason::Resignation);
    EXPECT_EQ(rec.result.time_ms, 1'000);
    EXPECT_EQ(write_kif(rec), text);
}

TEST(KifVariations, WithoutPlusMarksTheDeepestLineWins) {
    // Without Kifu for Windows' '+' a variation branches from the deepest open line that has
    // a move at that ply; a second alternative to the same ply is a sibling.
    std::string text = "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n"
                       "変化：2手\n   2 ８四歩(83)\n   3 ６八銀(79)\n"
                       "変化：3手\n   3 ７八金(69)\n"
                       "変化：2手\n   2 同　歩(73)\n";
    auto r = read_kif(text);
    ASSERT_FALSE(r.has_value());  // 同 at the start of a variation refers to its previous move
    EXPECT_EQ(r.error().to_string(), "line 10, col 6: 同　歩(73): the piece on 7c cannot move to 7f");
    text.replace(text.find("同　歩(73)"), std::string("同　歩(73)").size(), "３二金(41)");
    GameRecord rec = read_ok(text, "no plus");
    ASSERT_EQ(rec.moves[1].variations.size(), 2u);
    const auto& first = rec.moves[1].variations[0].moves;
    ASSERT_EQ(first.size(), 2u);
    ASSERT_EQ(first[1].variations.size(), 1u);
    EXPECT_EQ(core::to_usi(first[1].variations[0].moves[0].move), "6i7h");
    EXPECT_EQ(core::to_usi(rec.moves[1].variations[1].moves[0].move), "4a3b");
    GameRecord back = read_ok(write_kif(rec), "no plus, written");
    testing::expect_same_record(rec, back, true, "no plus");
}

TEST(KifRead, ForgivingLayout) {
    std::string text = "\xEF\xBB\xBF# comment line\r\n"
                       "先手:ASCII colon\r\r\n"
                       "\r\n"
                       "後手：　Full Width　\r\n"
                       "手合割：平手　　\r\n"
                       "*before the first move\r\n"
                       "   1 ７六歩(77)   ( 0:03/ 0:00:03)\r\n"
                       "# a program comment between moves\r\n"
                       "\r\n"
                       "   2 ３四歩(33)      (00:31 / 00:00:31)+\r\n"
                       "&読み込み時表示\r\n"
                       "   3 ２二角成(88)   (61:05/01:01:08)\r\n"
                       "   4 同 銀(31)\r\n"
                       "*after 4\r\n"
                       "   5 ４五角打\r\n"
                       "   6 詰み\r\n"
                       "まで5手で先手の勝ち\r\n";
    GameRecord rec = read_ok(text, "forgiving");
    EXPECT_EQ(rec.header(key::BLACK), "ASCII colon");
    EXPECT_EQ(rec.header(key::WHITE), "Full Width");
    EXPECT_EQ(rec.handicap, core::Handicap::Even);
    ASSERT_EQ(rec.moves.size(), 5u);
    EXPECT_EQ(rec.moves[0].time_ms, 3'000);
    EXPECT_EQ(rec.moves[1].time_ms, 31'000);
    EXPECT_EQ(rec.moves[1].comments, std::vector<std::string>{"&読み込み時表示"});
    EXPECT_EQ(rec.moves[2].time_ms, (61 * 60 + 5) * 1000);
    EXPECT_EQ(rec.moves[3].comments, std::vector<std::string>{"after 4"});
    EXPECT_EQ(rec.result.reason, core::EndReason::Checkmate);
    EXPECT_EQ(rec.result.winner, core::Winner::Black);
    std::string out = write_kif(rec);
    EXPECT_NE(out.find("   3 ２二角成(88) (61:05/01:01:08)\n"), std::string::npos);
    EXPECT_NE(out.find("&読み込み時表示\n"), std::string::npos);
    EXPECT_NE(out.find("   6 詰み         ( 0:00/00:00:31)\nまで5手で詰み\n"), std::string::npos);
}

TEST(KifRead, EverySpecialMove) {
    struct Case {
        std::string word;
        core::EndReason reason;
        core::Winner winner;
        std::optional<core::Color> actor;
    };
    using core::EndReason;
    using core::Winner;
    const Case cases[] = {
        {"投了", EndReason::Resignation, Winner::Black, core::WHITE},
        {"中断", EndReason::Abort, Winner::None, core::WHITE},
        {"千日手", EndReason::Sennichite, Winner::Draw, std::nullopt},
        {"持将棋", EndReason::ImpasseCount, Winner::Draw, std::nullopt},
        {"詰み", EndReason::Checkmate, Winner::Black, std::nullopt},
        {"詰", EndReason::Checkmate, Winner::Black, std::nullopt},
        {"切れ負け", EndReason::TimeUp, Winner::Black, core::WHITE},
        {"反則勝ち", EndReason::IllegalMove, Winner::White, core::BLACK},
        {"反則負け", EndReason::IllegalMove, Winner::Black, core::WHITE},
        {"入玉勝ち", EndReason::Declaration, Winner::White, core::WHITE},
        {"不戦勝", EndReason::Abort, Winner::White, std::nullopt},
        {"不戦敗", EndReason::Abort, Winner::Black, std::nullopt},
        {"封じ手", EndReason::SealedMove, Winner::None, core::WHITE},
    };
    for (const auto& c : cases) {
        std::string text = "   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 " + c.word + "     ( 0:07/00:00:07)\n";
        GameRecord rec = read_ok(text, c.word);
        EXPECT_EQ(rec.result.reason, c.reason) << c.word;
        EXPECT_EQ(rec.result.winner, c.winner) << c.word;
        EXPECT_EQ(rec.result.actor, c.actor) << c.word;
        EXPECT_EQ(rec.result.time_ms, 7'000) << c.word;
        GameRecord back = read_ok(write_kif(rec), c.word + " written");
        testing::expect_same_record(rec, back, true, c.word);
    }
    GameRecord nomate = read_ok("   1 ７六歩(77)\n   2 不詰\n", "不詰");
    EXPECT_EQ(nomate.result.reason, core::EndReason::None);
    EXPECT_EQ(nomate.moves[0].comments, std::vector<std::string>{"不詰"});
}

// A game lost by a dropped connection: Kakinoki has no special move for it, so the forfeit's
// (不戦勝 when the side to move wins, 不戦敗 when it loses) and a summary line that says why,
// which reads back as the lost connection; a summary that does not say so leaves a forfeit.
TEST(KifRead, ALostConnectionIsAForfeitWhoseSummarySaysWhy) {
    using core::EndReason;
    using core::Winner;
    for (Winner w : {Winner::White, Winner::Black}) {
        GameRecord rec = read_ok("   1 ７六歩(77)\n", "one move");
        rec.result.reason = EndReason::Disconnect;
        rec.result.winner = w;
        std::string text = write_kif(rec);
        bool stm_wins = w == Winner::White;
        EXPECT_NE(text.find(stm_wins ? "不戦勝" : "不戦敗"), std::string::npos) << text;
        EXPECT_NE(text.find(std::string("まで1手で接続切れにより") + (stm_wins ? "後手" : "先手") + "の勝ち"),
                  std::string::npos)
            << text;
        GameRecord back = read_ok(text, "written back");
        EXPECT_EQ(back.result.reason, EndReason::Disconnect);
        EXPECT_EQ(back.result.winner, w);
    }
    GameRecord forfeit = read_ok("   1 ７六歩(77)\n   2 不戦勝\nまで1手で後手の勝ち\n", "forfeit");
    EXPECT_EQ(forfeit.result.reason, EndReason::Abort);
    EXPECT_EQ(forfeit.result.winner, Winner::White);
}

TEST(KifEncoding, ShiftJisOutputReadsLikeUtf8Output) {
    for (const auto& path : files_in(testing::RECORDS + "kif")) {
        GameRecord rec = read_ok(slurp(path), path);
        std::string sjis = write_kif(rec, Encoding::ShiftJis);
        std::string utf8 = write_kif(rec, Encoding::Utf8);
        EXPECT_NE(sjis.find("\r\n"), std::string::npos);
        EXPECT_FALSE(is_valid_utf8(sjis)) << path;
        GameRecord a = read_ok(sjis, path + " sjis"), b = read_ok(utf8, path + " utf8");
        testing::expect_same_record(a, b, true, path);
        EXPECT_EQ(to_utf8(sjis, Encoding::ShiftJis).text,
                  [&] {
                      std::string crlf;
                      for (char c : utf8)
                          crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
                      return crlf.substr(crlf.find('\n') + 1);
                  }()
                      .insert(0, "#KIF version=2.0 encoding=Shift_JIS\r\n"));
    }
}

TEST(KifErrors, MessagesWithLineAndColumn) {
    const std::string moves_to_two_pawns =
        "手合割：平手\n"
        "   1 ２六歩(27)\n   2 ８四歩(83)\n   3 ２五歩(26)\n   4 ８五歩(84)\n   5 ２四歩(25)\n"
        "   6 同　歩(23)\n   7 同　飛(28)\n   8 ８六歩(85)\n   9 ７五歩打\n  10 投了\n";
    struct Case {
        std::string text;
        std::string message;
    };
    const Case cases[] = {
        {"先 手：羽生\n", "line 1, col 1: bad header key: 先 手"},
        {"：羽生\n", "line 1, col 1: bad header key: "},
        {"手合割：九枚落ち\n   1 ７六歩(77)\n", "line 1, col 1: unknown handicap: 九枚落ち"},
        {"先手：a\nこんにちは\n", "line 2, col 1: unrecognised line: こんにちは"},
        {"   1 ７六象(77)\n", "line 1, col 8: ７六象(77): unknown piece"},
        {"   1 ０六歩(77)\n", "line 1, col 6: ０六歩(77): bad square"},
        {"   1 ７六歩77\n", "line 1, col 9: ７六歩77: expected 打 or a source square like (77)"},
        {"   1 ７六歩(7)\n", "line 1, col 9: ７六歩(7): bad source square"},
        {"   1 ７五歩(77)\n", "line 1, col 6: ７五歩(77): the piece on 7g cannot move to 7e"},
        {moves_to_two_pawns, "line 10, col 6: ７五歩打: two pawns on file 7"},
        {"   1 同　歩(77)\n", "line 1, col 6: 同　歩(77): 同 with no previous move"},
        {"   2 ７六歩(77)\n", "line 1, col 4: expected move 1, found 2"},
        {"   1 ７六歩(77)\n   3 ３四歩(33)\n", "line 2, col 4: expected move 2, found 3"},
        {"   1 投了\n   2 ７六歩(77)\n", "line 2, col 4: a move after the end of the game"},
        {"   1 ７六歩(77) ( 0:1x/00:00:01)\n", "line 1, col 14: unexpected text after the move: ( 0:1x/00:00:01)"},
        {"   1 投了 (x)\n", "line 1, col 8: bad time column"},
        {"   1 ７六歩(77)\n変化：5手\n", "line 2, col 4: 変化：5手: no move 5 to branch from"},
        {"   1 ７六歩(77)\n変化：x\n", "line 2, col 4: bad 変化 line"},
        {"▲７六歩\n", "line 1, col 1: a KI2 move line in a KIF record"},
        {"   1 ７六歩(77)\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n", "line 2, col 1: a board diagram after the moves"},
        {"   1 ７六歩(77)\n手合割：平手\n", "line 2, col 1: 手合割 after the moves"},
        {"   1 ７六歩(77)\nmore text\n", "line 2, col 1: unrecognised line: more text"},
        {"a:\x82\xa0\nb:\x81\x20\n", "line 2, col 3: bytes that are not valid shift_jis"},
        {"\n \n", "empty record"},
        {"後手の持駒：なし\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|一\n   1 ７六歩(77)\n",
         "line 2, col 1: BOD: the board has 1 rows, not 9"},
    };
    for (const auto& c : cases)
        EXPECT_EQ(testing::error_of([](const std::string& t) { return read_kif(t); }, c.text), c.message) << c.text;
}

}  // namespace
}  // namespace hisha::notation
