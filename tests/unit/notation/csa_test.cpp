// CSA records: every shared file reads, replays and round-trips in V2.2 and V3.0; the details
// of the format (statements, times, specials, positions); every error path with its line
// and column; golden writer output; and what the core says about the sennichite and
// declaration files.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/game.h"
#include "core/rules.h"
#include "notation/csa.h"
#include "test_files.h"

namespace hisha::notation {
namespace {

namespace fs = std::filesystem;
using core::EndReason;
using core::Winner;
using testing::slurp;

const fs::path SHARED_DIR = fs::path(HISHA_TESTDATA_DIR) / "records" / "csa";
const fs::path GOLDEN_DIR = fs::path(HISHA_TEST_DATA_LOCAL) / "notation" / "csa";

GameRecord read_ok(std::string_view text) {
    auto r = read_csa(text);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
    return r ? std::move(r.value()) : GameRecord{};
}

GameRecord read_file(const std::string& name) { return read_ok(slurp(SHARED_DIR / name)); }

ParseError read_error(std::string_view text) {
    auto r = read_csa(text);
    EXPECT_FALSE(r.has_value()) << "read without error:\n" << text;
    return r ? ParseError{} : r.error();
}

std::string usi_line(const GameRecord& rec) {
    std::string s;
    for (const auto& m : rec.moves) {
        if (!s.empty())
            s += ' ';
        s += core::to_usi(m.move);
    }
    return s;
}

std::vector<std::optional<int>> times(const GameRecord& rec) {
    std::vector<std::optional<int>> v;
    for (const auto& m : rec.moves)
        v.push_back(m.time_ms);
    return v;
}

void expect_same_result(const RecordResult& a, const RecordResult& b) {
    EXPECT_EQ(a.winner, b.winner);
    EXPECT_EQ(a.reason, b.reason);
    EXPECT_EQ(a.actor, b.actor);
    EXPECT_EQ(a.time_ms, b.time_ms);
}

// read -> write -> read keeps everything a CSA file holds.
void expect_round_trip(const GameRecord& rec, CsaVersion v, const std::string& what) {
    SCOPED_TRACE(what + (v == CsaVersion::V2_2 ? " V2.2" : " V3.0"));
    std::string text = write_csa(rec, v);
    GameRecord back = read_ok(text);
    EXPECT_EQ(back.start_sfen, rec.start_sfen);
    EXPECT_EQ(back.handicap, rec.handicap);
    EXPECT_EQ(back.main_line(), rec.main_line());
    EXPECT_EQ(times(back), times(rec));
    expect_same_result(back.result, rec.result);
    ASSERT_EQ(back.headers.size(), rec.headers.size());
    for (std::size_t i = 0; i < rec.headers.size(); ++i) {
        EXPECT_EQ(back.headers[i].key, rec.headers[i].key);
        EXPECT_EQ(back.headers[i].value, rec.headers[i].value);
    }
    EXPECT_EQ(back.start_comments, rec.start_comments);
    for (std::size_t i = 0; i < rec.moves.size() && i < back.moves.size(); ++i)
        EXPECT_EQ(back.moves[i].comments, rec.moves[i].comments) << "move " << i + 1;
    // Writing is deterministic and stable.
    EXPECT_EQ(write_csa(back, v), text);
}

// --- the shared files

struct SharedFile {
    const char* name;
    std::size_t plies;
    Winner winner;
    EndReason reason;
};

const SharedFile SHARED[] = {
    {"2005_GPS_K-SHOGI.csa", 173, Winner::Black, EndReason::Resignation},
    {"8mai.csa", 25, Winner::None, EndReason::Abort},
    {"dr1test1test0+tu-1_aobazero_viper-300-5F+aobazero+viper+20200719201040.csa", 400, Winner::Black,
     EndReason::Declaration},
    {"jishogi_kachi.csa", 315, Winner::White, EndReason::Declaration},
    {"not_sennichite.csa", 89, Winner::None, EndReason::None},
    {"not_uchifuzume.csa", 113, Winner::None, EndReason::None},
    {"oute_sennichite.csa", 110, Winner::None, EndReason::None},
    {"oute_sennichite2.csa", 135, Winner::None, EndReason::None},
    {"uchifuzume.csa", 103, Winner::None, EndReason::None},
    {"v2.csa", 196, Winner::White, EndReason::Resignation},
    {"wdoor+floodgate-900-0+gps_normal+gps_l+20100507120007.csa", 158, Winner::White, EndReason::Resignation},
};

TEST(CsaShared, EveryFileIsListed) {
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(SHARED_DIR))
        if (e.path().extension() == ".csa") {
            ++n;
            bool listed = false;
            for (const auto& f : SHARED)
                listed = listed || e.path().filename() == f.name;
            EXPECT_TRUE(listed) << e.path();
        }
    EXPECT_EQ(n, std::size(SHARED));
}

TEST(CsaShared, ReadReplayAndResult) {
    for (const auto& f : SHARED) {
        SCOPED_TRACE(f.name);
        GameRecord rec = read_file(f.name);
        EXPECT_EQ(rec.moves.size(), f.plies);
        EXPECT_EQ(rec.result.winner, f.winner);
        EXPECT_EQ(rec.result.reason, f.reason);
        auto pos = final_position(rec);
        ASSERT_TRUE(pos.has_value()) << pos.error().to_string();
        core::Game game;
        auto r = replay(rec, game);
        EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
    }
}

TEST(CsaShared, RoundTripsInBothVersions) {
    for (const auto& f : SHARED) {
        GameRecord rec = read_file(f.name);
        expect_round_trip(rec, CsaVersion::V2_2, f.name);
        expect_round_trip(rec, CsaVersion::V3_0, f.name);
    }
}

TEST(CsaShared, V1WithoutVersionLine) {
    GameRecord rec = read_file("2005_GPS_K-SHOGI.csa");
    EXPECT_EQ(rec.header(key::BLACK), "sente");
    EXPECT_EQ(rec.header(key::WHITE), "gote");
    EXPECT_EQ(rec.handicap, core::Handicap::Even);
    EXPECT_EQ(rec.start_sfen, core::START_SFEN);
    ASSERT_EQ(rec.start_comments.size(), 1u);
    EXPECT_EQ(rec.start_comments[0], "Tue May  3 13:50:01 2005");
    EXPECT_EQ(core::to_usi(rec.moves[0].move), "7g7f");
    EXPECT_EQ(rec.moves[0].time_ms, 12000);
    EXPECT_EQ(rec.moves[0].comments, std::vector<std::string>{"time left 1488 1500"});
    EXPECT_EQ(rec.result.actor, core::WHITE);  // 173 plies: White to move resigned
    // Comments after the special stay with the last move.
    EXPECT_EQ(rec.moves.back().comments.back(), "game end");
}

TEST(CsaShared, FloodgateLog) {
    GameRecord rec = read_file("v2.csa");
    EXPECT_EQ(rec.header(key::BLACK), "Titanda_L");
    EXPECT_EQ(rec.header(key::WHITE), "HarrySan");
    EXPECT_EQ(rec.header(key::EVENT), "wdoor+floodgate-600-10F+Titanda_L+HarrySan+20160614033003");
    EXPECT_EQ(rec.header(key::START_TIME), "2016/06/14 03:30:03");
    // Floodgate's header comments, and the ratings after the side line, open the record.
    EXPECT_EQ(rec.start_comments.front(), "Max_Moves:256");
    EXPECT_EQ(rec.start_comments.back().rfind("white_rate:HarrySan", 0), 0u);
    EXPECT_EQ(rec.moves[0].comments, std::vector<std::string>{"** 104"});
    EXPECT_EQ(rec.moves[0].time_ms, 0);
    EXPECT_EQ(rec.result.actor, core::BLACK);
    EXPECT_EQ(rec.moves.back().comments.back(), "$END_TIME:2016/06/14 04:19:38");
}

TEST(CsaShared, HandicapByRowsAndCommaJoinedTimes) {
    GameRecord rec = read_file("8mai.csa");
    EXPECT_EQ(rec.handicap, core::Handicap::EightPiece);
    EXPECT_EQ(rec.header(key::BLACK), "shitate");
    EXPECT_EQ(rec.header(key::WHITE), "uwate");
    EXPECT_EQ(rec.header(key::END_TIME), "2014/10/13 18:53:37");
    EXPECT_EQ(format_csa_move(rec.moves[0].move), "-6172KI");
    EXPECT_EQ(rec.moves[0].time_ms, 3000);
    EXPECT_EQ(rec.moves[7].time_ms, 14000);
    EXPECT_EQ(rec.result.reason, EndReason::Abort);
    EXPECT_EQ(rec.result.time_ms, 39000);
    EXPECT_EQ(rec.result.actor, core::BLACK);
    // The Shift_JIS comment before the version line is read as UTF-8.
    ASSERT_EQ(rec.start_comments.size(), 1u);
    EXPECT_NE(rec.start_comments[0].find("CSA形式棋譜ファイル"), std::string::npos);
}

TEST(CsaShared, DeclarationWithRepeatedSpecial) {
    GameRecord rec = read_file("dr1test1test0+tu-1_aobazero_viper-300-5F+aobazero+viper+20200719201040.csa");
    EXPECT_EQ(rec.result.winner, Winner::Black);
    EXPECT_EQ(rec.result.actor, core::BLACK);
    EXPECT_EQ(rec.result.time_ms, 10000);
    auto& c = rec.moves.back().comments;
    EXPECT_NE(std::find(c.begin(), c.end(), "* -5000 win"), c.end());
}

TEST(CsaShared, ShiftJisCommentsAreDecoded) {
    GameRecord rec = read_file("uchifuzume.csa");
    bool found = false;
    for (const auto& m : rec.moves)
        for (const auto& c : m.comments)
            found = found || c.rfind("** 95 H-5756歩", 0) == 0;
    EXPECT_TRUE(found);
}

// --- what the core says about the regression files of shogi-server

core::GameResult replay_in_game(const GameRecord& rec, core::Game& game) {
    auto r = replay(rec, game);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error().to_string());
    return game.result();
}

TEST(CsaJudge, PerpetualCheckByBlackLoses) {
    GameRecord rec = read_file("oute_sennichite.csa");
    EXPECT_EQ(rec.result.reason, EndReason::None);  // the reader judges nothing
    core::Game game;
    core::GameResult r = replay_in_game(rec, game);
    EXPECT_EQ(r.reason, EndReason::PerpetualCheck);
    EXPECT_EQ(r.winner, Winner::White);
    EXPECT_EQ(game.moves().size(), rec.moves.size());  // judged on the last move
}

TEST(CsaJudge, PerpetualCheckByWhiteLoses) {
    core::Game game;
    core::GameResult r = replay_in_game(read_file("oute_sennichite2.csa"), game);
    EXPECT_EQ(r.reason, EndReason::PerpetualCheck);
    EXPECT_EQ(r.winner, Winner::Black);
}

TEST(CsaJudge, NotSennichiteIsNotADraw) {
    core::Game game;
    core::GameResult r = replay_in_game(read_file("not_sennichite.csa"), game);
    EXPECT_NE(r.winner, Winner::Draw);
    EXPECT_EQ(r.reason, EndReason::None);
    EXPECT_FALSE(game.over());
}

TEST(CsaJudge, KachiOfWhiteHoldsUnderThe27PointRule) {
    GameRecord rec = read_file("jishogi_kachi.csa");
    core::Game game;
    replay_in_game(rec, game);
    ASSERT_FALSE(game.over());
    EXPECT_EQ(game.position().side_to_move(), core::WHITE);
    core::DeclarationCheck d = core::check_declaration(game.position(), game.white_credit());
    EXPECT_TRUE(d.ok()) << core::describe(d.failure) << ": " << d.points << " points, " << d.pieces_in_zone
                        << " pieces";
    EXPECT_EQ(d.required, 27);
    EXPECT_TRUE(game.declare().has_value());
    EXPECT_EQ(game.result().winner, Winner::White);
    EXPECT_EQ(game.result().reason, EndReason::Declaration);
    // The record's %KACHI says the same.
    EXPECT_EQ(rec.result.winner, Winner::White);
    EXPECT_EQ(rec.result.reason, EndReason::Declaration);
}

TEST(CsaJudge, KachiOfBlackInTheAobaZeroGameHolds) {
    core::Game game;
    replay_in_game(read_file("dr1test1test0+tu-1_aobazero_viper-300-5F+aobazero+viper+20200719201040.csa"), game);
    EXPECT_EQ(game.position().side_to_move(), core::BLACK);
    EXPECT_TRUE(game.declare().has_value());
    EXPECT_EQ(game.result().winner, Winner::Black);
}

TEST(CsaJudge, ResignationInAMatedPosition) {
    // Floodgate logs %TORYO even when the last move mated; the core sees the mate.
    core::Game game;
    GameRecord rec = read_file("v2.csa");
    replay_in_game(rec, game);
    EXPECT_EQ(game.result().reason, EndReason::Checkmate);
    EXPECT_EQ(game.result().winner, rec.result.winner);
}

TEST(CsaJudge, UchifuzumeFilesReplayToTheCriticalDrop) {
    // After replay, White's -0064FU mates by a pawn drop (illegal); in the other file
    // -0092FU does not.
    GameRecord bad = read_file("uchifuzume.csa");
    auto pos = final_position(bad);
    ASSERT_TRUE(pos.has_value());
    auto m = parse_csa_move(**pos, "-0064FU");
    ASSERT_FALSE(m.has_value());
    EXPECT_EQ(m.error().message, "-0064FU: " + std::string(core::describe(core::IllegalMove::DropPawnMate)));

    GameRecord good = read_file("not_uchifuzume.csa");
    auto pos2 = final_position(good);
    ASSERT_TRUE(pos2.has_value());
    EXPECT_TRUE(parse_csa_move(**pos2, "-0092FU").has_value());
}

// --- reading details

constexpr const char* EVEN_HEADER = "V2.2\nPI\n+\n";

TEST(CsaRead, EveryVersionLine) {
    for (const char* v : {"V2", "V2.1", "V2.2", "V3.0"}) {
        SCOPED_TRACE(v);
        GameRecord rec = read_ok(std::string(v) + "\nPI\n+\n+7776FU\n");
        EXPECT_EQ(rec.moves.size(), 1u);
    }
}

TEST(CsaRead, CommentsFollowTheirMove) {
    GameRecord rec = read_ok("'before\nV2.2\n'header\nPI\n+\n'start\n+7776FU\n'first\n-3334FU\nT2\n'second\n");
    EXPECT_EQ(rec.start_comments, (std::vector<std::string>{"before", "header", "start"}));
    EXPECT_EQ(rec.moves[0].comments, std::vector<std::string>{"first"});
    EXPECT_EQ(rec.moves[1].comments, std::vector<std::string>{"second"});
    EXPECT_EQ(rec.moves[1].time_ms, 2000);
}

TEST(CsaRead, StatementsSharingALine) {
    GameRecord rec = read_ok("V2.2\nPI\n+\n+7776FU,T12,-3334FU,T6\n+8822UM,T1,'* nice\n");
    EXPECT_EQ(usi_line(rec), "7g7f 3c3d 8h2b+");
    EXPECT_EQ(times(rec), (std::vector<std::optional<int>>{12000, 6000, 1000}));
    EXPECT_EQ(rec.moves[2].comments, std::vector<std::string>{"* nice"});
}

TEST(CsaRead, CommentKeepsCommasAfterAnApostrophe) {
    GameRecord rec = read_ok("V2.2\nPI\n+\n+7776FU,'* 12 -3334FU,+2726FU\n");
    ASSERT_EQ(rec.moves.size(), 1u);
    EXPECT_EQ(rec.moves[0].comments, std::vector<std::string>{"* 12 -3334FU,+2726FU"});
}

TEST(CsaRead, FractionalTimesOfV3) {
    GameRecord rec = read_ok("'CSA encoding=UTF-8\nV3.0\nPI\n+\n+7776FU\nT1.234\n-3334FU\nT0.5\n+2726FU\nT2.0005\n");
    EXPECT_EQ(times(rec), (std::vector<std::optional<int>>{1234, 500, 2001}));
    EXPECT_TRUE(rec.start_comments.empty());  // the encoding line is not a comment
}

TEST(CsaRead, ForgivingLineEnds) {
    GameRecord rec = read_ok("V2.2\r\r\nN+a \r\n\r\n\nPI\r\n+\r\n+7776FU  \r\n\r\nT3\r\n%TORYO\r\n");
    EXPECT_EQ(rec.header(key::BLACK), "a");
    EXPECT_EQ(usi_line(rec), "7g7f");
    EXPECT_EQ(rec.moves[0].time_ms, 3000);
    EXPECT_EQ(rec.result.reason, EndReason::Resignation);
}

TEST(CsaRead, OnlyTheFirstOfSeveralRecords) {
    GameRecord rec = read_ok("V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n+2726FU\n");
    EXPECT_EQ(usi_line(rec), "7g7f");
    EXPECT_EQ(rec.result.actor, core::WHITE);
}

TEST(CsaRead, HeadersAreMappedOrKept) {
    GameRecord rec =
        read_ok("V3.0\nN+Sente\nN-Gote\n$EVENT:Cup\n$SITE:Tokyo\n$START_TIME:2024/05/14 10:00:00\n"
                "$END_TIME:2024/05/14 12:00:00\n$TIME:600+10+0\n$OPENING:YAGURA\n$MAX_MOVES:320\n$JISHOGI:27\n"
                "$NOTE:a note\nPI\n+\n$END_TIME:2024/05/14 12:30:00\n");
    EXPECT_EQ(rec.header(key::EVENT), "Cup");
    EXPECT_EQ(rec.header(key::SITE), "Tokyo");
    EXPECT_EQ(rec.header(key::START_TIME), "2024/05/14 10:00:00");
    EXPECT_EQ(rec.header(key::END_TIME), "2024/05/14 12:30:00");  // late headers are read (WCSC)
    EXPECT_EQ(rec.header(key::TIME_CONTROL), "600+10+0");
    EXPECT_EQ(rec.header(key::OPENING), "YAGURA");
    EXPECT_EQ(rec.header(key::NOTE), "a note");
    EXPECT_EQ(rec.header("$MAX_MOVES"), "320");
    EXPECT_EQ(rec.header("$JISHOGI"), "27");
    GameRecord v2 = read_ok("V2.2\n$TIME_LIMIT:00:25+00\nPI\n+\n");
    EXPECT_EQ(v2.header(key::TIME_CONTROL), "00:25+00");
    expect_round_trip(rec, CsaVersion::V3_0, "headers");
    expect_round_trip(v2, CsaVersion::V2_2, "time limit");
}

TEST(CsaRead, HandicapByPI) {
    GameRecord rec = read_ok("V2.2\nPI82HI22KA\n-\n-5142OU\n");
    EXPECT_EQ(rec.handicap, core::Handicap::TwoPiece);
    EXPECT_EQ(rec.start_sfen, core::handicap_info(core::Handicap::TwoPiece).sfen);
    EXPECT_EQ(usi_line(rec), "5a4b");
    GameRecord lance = read_ok("PI11KY\n-\n");
    EXPECT_EQ(lance.handicap, core::Handicap::Lance);
}

TEST(CsaRead, PieceListsAndAllRemaining) {
    // A mating problem: White's king alone, Black holds a gold, White everything else.
    GameRecord rec = read_ok("P-51OU\nP+53FU00KI\nP-00AL\n+\n+0052KI\n%TSUMI\n");
    EXPECT_EQ(rec.start_sfen, "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    EXPECT_FALSE(rec.handicap.has_value());
    EXPECT_EQ(rec.result.reason, EndReason::Checkmate);
    EXPECT_EQ(rec.result.winner, Winner::Black);
    expect_round_trip(rec, CsaVersion::V2_2, "lists");
}

TEST(CsaRead, RowsMayBeSqueezedOrTrimmed) {
    GameRecord rec = read_ok("P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI * * * * * -KA *\nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\n"
                             "P4 * * * * * * * * *\nP5 *  *  *  *  *  *  *  *  "
                             "*\nP6*********\nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI *\n"
                             "P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n");
    EXPECT_EQ(rec.start_sfen, core::START_SFEN);
}

TEST(CsaRead, PromotedNameMeansPromotion) {
    GameRecord rec =
        read_ok("P1 *  *  *  *  * -OU *  *  * \nP8 *  *  *  *  *  *  * +HI * \nP9 *  *  *  * +OU *  *  *  * \n"
                "+\n+2822RY\n-4151OU\n+2232RY\n");
    EXPECT_EQ(usi_line(rec), "2h2b+ 4a5a 2b3b");
    EXPECT_TRUE(rec.moves[0].move.is_promotion());
    EXPECT_FALSE(rec.moves[2].move.is_promotion());
}

TEST(CsaRead, EverySpecial) {
    struct Case {
        const char* line;
        Winner winner;
        EndReason reason;
        std::optional<core::Color> actor;
    };
    // After +7776FU it is White's move.
    const Case cases[] = {
        {"%TORYO", Winner::Black, EndReason::Resignation, core::WHITE},
        {"%CHUDAN", Winner::None, EndReason::Abort, core::WHITE},
        {"%SENNICHITE", Winner::Draw, EndReason::Sennichite, std::nullopt},
        {"%TIME_UP", Winner::Black, EndReason::TimeUp, core::WHITE},
        {"%ILLEGAL_MOVE", Winner::Black, EndReason::IllegalMove, core::WHITE},
        {"%+ILLEGAL_ACTION", Winner::White, EndReason::IllegalMove, core::BLACK},
        {"%-ILLEGAL_ACTION", Winner::Black, EndReason::IllegalMove, core::WHITE},
        {"%JISHOGI", Winner::Draw, EndReason::ImpasseCount, std::nullopt},
        {"%KACHI", Winner::White, EndReason::Declaration, core::WHITE},
        {"%HIKIWAKE", Winner::Draw, EndReason::Declaration, core::WHITE},
        {"%MAX_MOVES", Winner::Draw, EndReason::MoveLimit, std::nullopt},
        {"%TSUMI", Winner::Black, EndReason::Checkmate, std::nullopt},
        {"%FUZUMI", Winner::None, EndReason::Abort, core::WHITE},
        {"%ERROR", Winner::None, EndReason::Abort, core::WHITE},
        {"%MATTA", Winner::None, EndReason::Abort, core::WHITE},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.line);
        GameRecord rec = read_ok(std::string(EVEN_HEADER) + "+7776FU\n" + c.line + ",T7\n");
        EXPECT_EQ(rec.result.winner, c.winner);
        EXPECT_EQ(rec.result.reason, c.reason);
        EXPECT_EQ(rec.result.actor, c.actor);
        EXPECT_EQ(rec.result.time_ms, 7000);
        // Written back, every special keeps winner and reason (the three that have no
        // counterpart read as %CHUDAN).
        GameRecord back = read_ok(write_csa(rec, CsaVersion::V3_0));
        expect_same_result(back.result, rec.result);
    }
}

// A game lost by a dropped connection: CSA has no special for it, so %CHUDAN and then the
// comment naming the side whose connection was lost; read back, the same result. The comment
// alone, not after %CHUDAN, is only a comment.
TEST(CsaRead, ALostConnectionIsChudanWithTheSideInAComment) {
    GameRecord rec = read_ok(std::string(EVEN_HEADER) + "+7776FU\n");
    rec.result.reason = EndReason::Disconnect;
    rec.result.winner = Winner::Black;  // White, to move, lost the connection
    for (CsaVersion v : {CsaVersion::V2_2, CsaVersion::V3_0}) {
        std::string text = write_csa(rec, v);
        EXPECT_NE(text.find("+7776FU\n%CHUDAN\n'- disconnected\n"), std::string::npos) << text;
        GameRecord back = read_ok(text);
        EXPECT_EQ(back.result.reason, EndReason::Disconnect);
        EXPECT_EQ(back.result.winner, Winner::Black);
        EXPECT_TRUE(back.moves[0].comments.empty());
    }
    GameRecord black_lost = read_ok(std::string(EVEN_HEADER) + "+7776FU\n-3334FU\n%CHUDAN\n'+ disconnected\n");
    EXPECT_EQ(black_lost.result.reason, EndReason::Disconnect);
    EXPECT_EQ(black_lost.result.winner, Winner::White);
    GameRecord plain = read_ok(std::string(EVEN_HEADER) + "+7776FU\n'+ disconnected\n%TORYO\n");
    EXPECT_EQ(plain.result.reason, EndReason::Resignation);
    EXPECT_EQ(plain.moves[0].comments, std::vector<std::string>{"+ disconnected"});
}

TEST(CsaRead, NothingAfterTheSpecialIsDropped) {
    ParseError e = read_error("V2.2\nPI\n+\n+7776FU\n%TORYO\n-3334FU\n");
    EXPECT_EQ(e.line, 6);
    EXPECT_EQ(e.column, 1);
    EXPECT_EQ(e.to_string(), "line 6, col 1: -3334FU: a move after the game ended (line 5)");
}

// --- errors: message, line and column

struct ErrorCase {
    const char* text;
    int line;
    int column;
    std::string message;
};

TEST(CsaErrors, MessagesLinesAndColumns) {
    const ErrorCase cases[] = {
        {"", 1, 1, "no start position (PI or P1..P9, then '+' or '-')"},
        {"V2.2\nN+a\n", 3, 1, "no start position (PI or P1..P9, then '+' or '-')"},
        {"V4.0\nPI\n+\n", 1, 1, "unsupported version 'V4.0' (V2, V2.1, V2.2 and V3.0 are read)"},
        {"N+a\nV2.2\nPI\n+\n", 2, 1, "the version line must come before the record"},
        {"V2.2\nNx\nPI\n+\n", 2, 1, "a name line starts with N+ (Black) or N- (White)"},
        {"V2.2\n$EVENT\nPI\n+\n", 2, 1, "an information line is $KEY:value"},
        {"V2.2\nPX\n+\n", 2, 1, "a position line is PI, P1..P9, P+ or P-"},
        {"V2.2\nP1-KY-KE-GI-KI-OU-KI-GI-KE\n+\n", 2, 27, "rank 1 has 8 squares, expected 9"},
        {"V2.2\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY-FU\n+\n", 2, 30, "unexpected text after the ninth square"},
        {"V2.2\nP1-KY-KE-GI-KI-XX-KI-GI-KE-KY\n+\n", 2, 16, "unknown piece 'XX'"},
        {"V2.2\nP1-KY-KE-GI-KI=OU-KI-GI-KE-KY\n+\n", 2, 15, "a square is ' * ', or '+' or '-' and a piece name"},
        {"V2.2\nP1 *  *  *  * -OU *  *  *  * \nP1 *  *  *  * -OU *  *  *  * \n+\n", 3, 1, "rank 1 is given twice"},
        {"V2.2\nPI82HI22HI\n-\n", 2, 7, "PI: there is no HI on 22 to remove"},
        {"V2.2\nPI8XHI\n-\n", 2, 3, "PI: bad square '8X'"},
        {"V2.2\nPI\nP1 *  *  *  * -OU *  *  *  * \n+\n", 3, 1, "PI and P1..P9 cannot both describe the board"},
        {"V2.2\nP+00OU\n+\n", 2, 5, "OU cannot be held in hand"},
        {"V2.2\nP+55FU55KI\n+\n", 2, 7, "square 55 is already occupied"},
        {"V2.2\nP+0AFU\n+\n", 2, 3, "bad square '0A'"},
        {"V2.2\nP+55F\n+\n", 2, 3, "a piece is a square and a piece name, like 99KY or 00FU"},
        {"V2.2\nP-00AL\nP+00AL\n+\n", 3, 3, "00AL is given twice"},
        {"V2.2\nP+11FU\n+\n", 3, 1, "start position: Black pawn on 1a could never move"},
        {"V2.2\nPI\n+7776FU\n", 3, 1, "+7776FU: a move before the '+' or '-' line that ends the start position"},
        {"V2.2\nPI\n%TORYO\n", 3, 1, "%TORYO: a special move before the '+' or '-' line that ends the start position"},
        {"V2.2\nPI\n", 3, 1, "the start position is not followed by a '+' or '-' line"},
        {"V2.2\nPI\n+\nPI\n", 4, 1, "a position line after the side-to-move line"},
        {"V2.2\nPI\n+\n-\n", 4, 1, "a second side-to-move line after the side-to-move line"},
        {"V2.2\nPI\n+\nT3\n", 4, 1, "a time with no move before it"},
        {"V2.2\nPI\n+\n+7776FU\nT3\nT4\n", 6, 1, "a second time for the same move"},
        {"V2.2\nPI\n+\n+7776FU\nT3s\n", 5, 1, "a time is T and seconds, like T12 or T1.5, found 'T3s'"},
        {"V2.2\nPI\n+\n+7776FU\n%RESIGN\n", 5, 1, "unknown special move '%RESIGN'"},
        {"V2.2\nPI\n+\n+7776FU,X\n", 4, 9, "unknown statement 'X'"},
        {"V2.2\nPI\n+\n+7776FU-3334FU\n", 4, 8,
         "+7776FU-3334FU: unexpected text after the move (statements on one line are separated by ',')"},
        {"V2.2\nPI\n+\n+7776FUT12\n", 4, 8,
         "+7776FUT12: unexpected text after the move (statements on one line are separated by ',')"},
        {"V2.2\nPI\n+\n+776FU\n", 4, 1, "+776FU: a move is a sign, four digits and a piece name, like +7776FU"},
        {"V2.2\nPI\n+\n+7A76FU\n", 4, 3, "+7A76FU: a square is two digits"},
        {"V2.2\nPI\n+\n+7770FU\n", 4, 4, "+7770FU: bad destination square '70'"},
        {"V2.2\nPI\n+\n+7076FU\n", 4, 2, "+7076FU: bad origin square '70'"},
        {"V2.2\nPI\n+\n+7776XX\n", 4, 6, "+7776XX: unknown piece 'XX'"},
        {"V2.2\nPI\n+\n-3334FU\n", 4, 1, "-3334FU: it is Black's move"},
        {"V2.2\nPI\n+\n+7776KI\n", 4, 6, "+7776KI: the piece on 77 is FU, not KI"},
        {"V2.2\nPI\n+\n+7776TO\n", 4, 1, "+7776TO: " + std::string(core::describe(core::IllegalMove::CannotPromote))},
        {"V2.2\nPI\n+\n+7775FU\n", 4, 1, "+7775FU: the piece on 7g cannot move to 7e"},
        {"V2.2\nPI\n+\n+5554FU\n", 4, 1, "+5554FU: no Black piece on 5e"},
        {"V2.2\nPI\n+\n+0055FU\n", 4, 1, "+0055FU: " + std::string(core::describe(core::IllegalMove::NotInHand))},
        {"V2.2\nPI\n+\n+0055OU\n", 4, 6, "+0055OU: OU cannot be dropped"},
        {"V2.2\nPI\n+\n+7776FU,T1,-3334FU,T1,+8822UM,T1,-3122GI,T1,+0055KA,+0044FU\n", 4, 53,
         "+0044FU: it is White's move"},
    };
    for (const ErrorCase& c : cases) {
        SCOPED_TRACE(c.text);
        ParseError e = read_error(c.text);
        EXPECT_EQ(e.message, c.message);
        EXPECT_EQ(e.line, c.line);
        EXPECT_EQ(e.column, c.column);
    }
}

TEST(CsaErrors, IllegalMoveNamesTheCoreReason) {
    // Two pawns on a file: the reason comes from the core, the place from the reader.
    ParseError e =
        read_error("V2.2\nPI\n+\n+7776FU\n-3334FU\n+7675FU\n-3435FU\n+7574FU\n-3536FU\n+7473FU\n-3637FU\n+0077FU\n");
    EXPECT_EQ(e.code, ParseErrorCode::IllegalMove);
    EXPECT_EQ(e.to_string(), "line 12, col 1: +0077FU: two pawns on file 7");
}

// --- writer

GameRecord sample_record() {
    GameRecord rec;
    rec.set_header(key::BLACK, "Black name");
    rec.set_header(key::WHITE, "後手");
    rec.set_header(key::EVENT, "Test");
    rec.set_header(key::TIME_CONTROL, "600+10+0");
    rec.set_header("作品名", "not a CSA field");
    rec.set_header("$MAX_MOVES", "256");
    rec.start_comments = {"a start comment"};
    auto pos = start_position(rec);
    for (const char* text : {"+7776FU", "-3334FU", "+8822UM", "-3122GI"}) {
        auto m = parse_csa_move(*pos, text);
        EXPECT_TRUE(m.has_value());
        pos->play(*m);
        rec.moves.push_back({*m, {}, {}, {}});
    }
    rec.moves[0].time_ms = 1500;
    rec.moves[1].time_ms = 2000;
    rec.moves[2].time_ms = 999;
    rec.moves[2].comments = {"* 120 -3122GI", "two\nlines"};
    rec.result = {Winner::White, EndReason::Resignation, core::BLACK, 12345};
    return rec;
}

void expect_golden(const std::string& text, const std::string& name) {
    testing::expect_golden(text, GOLDEN_DIR / name);
}

TEST(CsaWrite, GoldenFiles) {
    GameRecord sample = sample_record();
    expect_golden(write_csa(sample, CsaVersion::V3_0), "sample.v3.csa");
    expect_golden(write_csa(sample, CsaVersion::V2_2), "sample.v22.csa");
    GameRecord mai = read_file("8mai.csa");
    expect_golden(write_csa(mai, CsaVersion::V3_0), "8mai.v3.csa");
    expect_golden(write_csa(mai, CsaVersion::V2_2), "8mai.v22.csa");
    GameRecord problem;
    problem.start_sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
    expect_golden(write_csa(problem, CsaVersion::V2_2), "problem.v22.csa");
    GameRecord three_pawns;
    three_pawns.set_handicap(core::Handicap::ThreePawns);
    expect_golden(write_csa(three_pawns, CsaVersion::V3_0), "three_pawns.v3.csa");
}

TEST(CsaWrite, GoldenFilesReadBack) {
    for (const char* name :
         {"sample.v3.csa", "sample.v22.csa", "8mai.v3.csa", "8mai.v22.csa", "problem.v22.csa", "three_pawns.v3.csa"}) {
        SCOPED_TRACE(name);
        read_ok(slurp(GOLDEN_DIR / name));
    }
    GameRecord back = read_ok(slurp(GOLDEN_DIR / "sample.v3.csa"));
    GameRecord sample = sample_record();
    EXPECT_EQ(back.main_line(), sample.main_line());
    EXPECT_EQ(times(back), times(sample));
    expect_same_result(back.result, sample.result);
    EXPECT_EQ(back.header(key::WHITE), "後手");
    EXPECT_EQ(back.header("作品名"), "");  // CSA has no field for it
    EXPECT_EQ(back.moves[2].comments, (std::vector<std::string>{"* 120 -3122GI", "two", "lines"}));
    GameRecord tp = read_ok(slurp(GOLDEN_DIR / "three_pawns.v3.csa"));
    EXPECT_EQ(tp.handicap, core::Handicap::ThreePawns);
}

TEST(CsaWrite, TimesPerVersion) {
    GameRecord rec = sample_record();
    std::string v3 = write_csa(rec, CsaVersion::V3_0), v22 = write_csa(rec, CsaVersion::V2_2);
    EXPECT_NE(v3.find("\nT1.5\n"), std::string::npos);
    EXPECT_NE(v3.find("\nT0.999\n"), std::string::npos);
    EXPECT_NE(v3.find("%TORYO\nT12.345\n"), std::string::npos);
    EXPECT_NE(v22.find("\nT1\n"), std::string::npos);
    EXPECT_NE(v22.find("\nT0\n"), std::string::npos);
    EXPECT_EQ(v3.rfind("'CSA encoding=UTF-8\nV3.0\n", 0), 0u);
    EXPECT_EQ(v22.rfind("'encoding=UTF-8\nV2.2\n", 0), 0u);  // the text is not ASCII
    GameRecord ascii;
    EXPECT_EQ(write_csa(ascii, CsaVersion::V2_2), "V2.2\nPI\n+\n");
}

TEST(CsaWrite, HandicapsAsPI) {
    struct Case {
        core::Handicap h;
        const char* pi;
    };
    const Case cases[] = {
        {core::Handicap::Lance, "PI11KY\n-\n"},
        {core::Handicap::RightLance, "PI91KY\n-\n"},
        {core::Handicap::Bishop, "PI22KA\n-\n"},
        {core::Handicap::Rook, "PI82HI\n-\n"},
        {core::Handicap::RookLance, "PI82HI11KY\n-\n"},
        {core::Handicap::TwoPiece, "PI82HI22KA\n-\n"},
        {core::Handicap::FourPiece, "PI82HI22KA11KY91KY\n-\n"},
        {core::Handicap::SixPiece, "PI82HI22KA21KE81KE11KY91KY\n-\n"},
        {core::Handicap::EightPiece, "PI82HI22KA31GI71GI21KE81KE11KY91KY\n-\n"},
        {core::Handicap::TenPiece, "PI82HI22KA41KI61KI31GI71GI21KE81KE11KY91KY\n-\n"},
    };
    for (const Case& c : cases) {
        GameRecord rec;
        rec.set_handicap(c.h);
        EXPECT_EQ(write_csa(rec, CsaVersion::V2_2), std::string("V2.2\n") + c.pi);
    }
    for (const auto& info : core::all_handicaps()) {
        SCOPED_TRACE(info.id);
        GameRecord rec;
        rec.set_handicap(info.handicap);
        GameRecord back = read_ok(write_csa(rec));
        EXPECT_EQ(back.handicap, info.handicap);
        EXPECT_EQ(back.start_sfen, rec.start_sfen);
    }
}

TEST(CsaWrite, EndingsWithoutACsaLineKeepTheWinner) {
    GameRecord rec = read_ok(std::string(EVEN_HEADER) + "+7776FU\n-3334FU\n");
    // White gave the checks (and made the last move), so White loses.
    rec.result = {Winner::Black, EndReason::PerpetualCheck, std::nullopt, std::nullopt};
    GameRecord back = read_ok(write_csa(rec));
    EXPECT_EQ(back.result.winner, Winner::Black);
    EXPECT_EQ(back.result.reason, EndReason::IllegalMove);
    EXPECT_NE(write_csa(rec).find("%-ILLEGAL_ACTION"), std::string::npos);
    rec.result = {Winner::Draw, EndReason::MoveLimit, std::nullopt, std::nullopt};
    EXPECT_NE(write_csa(rec, CsaVersion::V3_0).find("%MAX_MOVES"), std::string::npos);
    EXPECT_NE(write_csa(rec, CsaVersion::V2_2).find("%JISHOGI"), std::string::npos);
    rec.result = {Winner::White, EndReason::Declaration, core::BLACK, std::nullopt};  // a failed declaration
    EXPECT_NE(write_csa(rec).find("%ILLEGAL_MOVE"), std::string::npos);
    EXPECT_EQ(read_ok(write_csa(rec)).result.winner, Winner::White);
}

TEST(CsaMove, FormatAndParse) {
    core::Position pos;
    auto m = parse_csa_move(pos, "+7776FU");
    ASSERT_TRUE(m.has_value());
    EXPECT_EQ(format_csa_move(*m), "+7776FU");
    EXPECT_EQ(format_csa_move(core::Move::make_drop(core::BISHOP, core::SQ_34, core::WHITE)), "-0034KA");
    EXPECT_EQ(format_csa_move(core::Move::resign()), "");
    auto bad = parse_csa_move(pos, "+7776KI");
    ASSERT_FALSE(bad.has_value());
    EXPECT_EQ(bad.error().line, 0);
    EXPECT_EQ(bad.error().column, 6);
}

}  // namespace
}  // namespace hisha::notation
