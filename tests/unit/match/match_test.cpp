// Whole matches: scheduling, Hisha against itself (in-process against `hisha usi`) to
// completion with results the core confirms, concurrency, handicap openings, records that read
// back through the notation module, and a short match against GNU Shogi when it is installed.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/handicap.h"
#include "match_test_util.h"
#include "notation/csa.h"
#include "notation/kif.h"
#include "test_files.h"

using namespace hisha;
using namespace hisha::match;
using namespace hisha::match::test;
namespace fs = std::filesystem;

namespace {

using hisha::testing::slurp;

// Reads the KIF and CSA files of a game, checks that both give the same moves, and replays
// them through the core: a game the rules ended must end the same way on replay.
void check_records(const GameSummary& g, int max_plies) {
    ASSERT_FALSE(g.file.empty());
    auto kif = notation::read_kif(slurp(g.file));
    std::string csa_path = g.file.substr(0, g.file.size() - 4) + ".csa";
    auto csa = notation::read_csa(slurp(csa_path));
    ASSERT_TRUE(kif.has_value()) << g.file << ": " << kif.error().to_string();
    ASSERT_TRUE(csa.has_value()) << csa_path << ": " << csa.error().to_string();
    EXPECT_EQ(kif->main_line(), csa->main_line());
    EXPECT_EQ(int(kif->main_line().size()), g.plies);
    EXPECT_EQ(kif->start_sfen, csa->start_sfen);
    core::Game game(core::GameRules{core::ImpasseRule::Csa27, max_plies, false});
    ASSERT_TRUE(notation::replay(*kif, game).has_value());
    EXPECT_EQ(kif->result.winner, csa->result.winner);
    // A declaration is no move: the replay stops before it, where it must hold.
    if (csa->result.reason == core::EndReason::Declaration && !game.over())
        EXPECT_TRUE(game.declare().has_value()) << "the recorded declaration does not hold: " << g.detail;
    if (g.failure == Failure::None && csa->result.reason != core::EndReason::Resignation) {
        // CSA names every ending the rules give (KIF writes a move limit as 持将棋).
        EXPECT_TRUE(game.over()) << g.detail;
        EXPECT_EQ(game.result().reason, csa->result.reason) << g.detail;
        EXPECT_EQ(game.result().winner, csa->result.winner) << g.detail;
    }
}

MatchConfig self_play(int games, int concurrency) {
    MatchConfig c;
    c.engines.push_back(engine_config("inproc", "hisha", "depth=1"));
    c.engines.push_back(engine_config("usi", hisha_binary() + " usi", "depth=2"));
    c.games = games;
    c.concurrency = concurrency;
    c.verbose = false;
    c.settings.rules.max_plies = 256;
    return c;
}

}  // namespace

TEST(Schedule, PairingsAndColours) {
    EXPECT_EQ(pairings(2, Tournament::Auto).size(), 1u);
    EXPECT_EQ(pairings(4, Tournament::RoundRobin).size(), 6u);
    auto g = pairings(4, Tournament::Gauntlet);
    ASSERT_EQ(g.size(), 3u);
    for (auto [a, b] : g)
        EXPECT_EQ(a, 0);

    MatchConfig c;
    for (int i = 0; i < 3; ++i)
        c.engines.push_back(engine_config("e" + std::to_string(i), "internal", "depth=1"));
    c.openings = {startpos_opening(), startpos_opening(), startpos_opening()};
    c.games = 6;
    auto tasks = schedule(c);
    ASSERT_EQ(tasks.size(), 18u);  // 3 pairs x 6 games
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        int game = int(i) / 3;
        EXPECT_EQ(tasks[i].number, int(i) + 1);
        EXPECT_EQ(tasks[i].opening, game / 2);  // each opening twice...
        auto [a, b] = pairings(3, Tournament::Auto)[std::size_t(tasks[i].pair)];
        EXPECT_EQ(tasks[i].black, game % 2 ? b : a);  // ...once with each colour
        EXPECT_EQ(tasks[i].white, game % 2 ? a : b);
    }
}

TEST(Match, HishaAgainstItselfToCompletion) {
    fs::path out = temp_dir("self");
    MatchConfig c = self_play(4, 1);
    c.out_dir = out.string();
    std::ostringstream log;
    c.verbose = true;
    Match m(c, log);
    ASSERT_TRUE(m.check().has_value());
    MatchResult r = m.run();
    ASSERT_EQ(r.games.size(), 4u);
    const PairResult& p = r.pairs[0];
    EXPECT_EQ(p.score.games(), 4);
    EXPECT_EQ(p.aborted, 0);
    for (const auto& g : r.games) {
        EXPECT_EQ(g.failure, Failure::None) << g.detail;
        EXPECT_NE(g.result, "*");
        check_records(g, 256);
    }
    std::string text = log.str();
    EXPECT_NE(text.find("Game 4/4"), std::string::npos) << text;
    EXPECT_NE(text.find("inproc vs usi: "), std::string::npos) << text;
    std::string table = format_results(r, c);
    EXPECT_NE(table.find("inproc vs usi"), std::string::npos) << table;
    EXPECT_NE(table.find("LOS"), std::string::npos) << table;
    EXPECT_TRUE(fs::exists(out / "games.txt"));
    fs::remove_all(out);
}

TEST(Match, ConcurrentGames) {
    MatchConfig c = self_play(4, 2);
    std::ostringstream log;
    MatchResult r = Match(c, log).run();
    ASSERT_EQ(r.games.size(), 4u);
    std::set<int> numbers;
    for (const auto& g : r.games) {
        numbers.insert(g.task.number);
        EXPECT_EQ(g.failure, Failure::None) << g.detail;
    }
    EXPECT_EQ(numbers.size(), 4u);
    EXPECT_EQ(r.pairs[0].score.games(), 4);
    // The game pairs, rebuilt from the games (which finished in any order): games 2k and 2k+1
    // share an opening with colours swapped; the first engine's half points of the two add up.
    int half[2] = {0, 0};
    for (const auto& g : r.games) {
        bool first_black = g.task.black == 0;
        int h = g.result == "1/2-1/2" ? 1 : (g.result == "1-0") == first_black ? 2 : 0;
        half[g.task.round / 2] += h;
    }
    Pentanomial expected;
    ++expected.n[half[0]];
    ++expected.n[half[1]];
    const Pentanomial& got = r.pairs[0].pairs;
    EXPECT_EQ(got.to_string(), expected.to_string());
    EXPECT_EQ(got.pairs(), 2);
    EXPECT_DOUBLE_EQ(got.ratio(), r.pairs[0].score.ratio());
    std::string table = format_results(r, c);
    EXPECT_NE(table.find("game pairs " + expected.to_string()), std::string::npos) << table;
    EXPECT_NE(table.find("summary: games=4 "), std::string::npos) << table;
}

TEST(Match, HandicapOpeningsAndPlyLimit) {
    fs::path out = temp_dir("handicap");
    MatchConfig c = self_play(2, 1);
    c.out_dir = out.string();
    c.settings.rules.max_plies = 40;
    c.openings = *parse_opening_line("2-piece", "two-piece");
    MatchResult r = Match(c, std::cout).run();
    ASSERT_EQ(r.games.size(), 2u);
    for (const auto& g : r.games) {
        auto rec = notation::read_kif(slurp(g.file));
        ASSERT_TRUE(rec.has_value());
        ASSERT_TRUE(rec->handicap.has_value());
        EXPECT_EQ(*rec->handicap, core::Handicap::TwoPiece);
        check_records(g, 40);
        EXPECT_LE(g.plies, 40);
    }
    fs::remove_all(out);
}

TEST(Match, RecordReadsBackWithTheSameMoves) {
    auto black = protocol::make_player(engine_config("a", "internal", "depth=1").spec);
    auto white = protocol::make_player(engine_config("b", hisha_binary() + " usi", "depth=1").spec);
    GameSettings s;
    s.tc[core::BLACK] = *parse_time_control("depth=1");
    s.tc[core::WHITE] = *parse_time_control("st=0.2");
    s.rules.max_plies = 120;
    auto opening = parse_opening_line("startpos moves 7g7f 3c3d", "o");
    GameOutcome o = play_game(*black, *white, (*opening)[0], s);
    black->quit();
    white->quit();
    ASSERT_NE(o.winner, core::Winner::None) << o.detail;
    std::vector<core::Move> played;
    for (const auto& m : o.record.moves)
        played.push_back(m.move);
    ASSERT_EQ(int(played.size()), o.plies);
    ASSERT_EQ(core::to_usi(played[0]), "7g7f");
    for (auto text : {notation::write_kif(o.record), notation::write_csa(o.record)}) {
        auto rec = text[0] == '#' ? notation::read_kif(text) : notation::read_csa(text);
        ASSERT_TRUE(rec.has_value()) << rec.error().to_string();
        EXPECT_EQ(rec->main_line(), played);
        EXPECT_EQ(rec->header(notation::key::BLACK), "a");
        EXPECT_EQ(rec->header(notation::key::WHITE), "b");
        EXPECT_EQ(rec->result.winner, o.winner);
        bool kif_limit = text[0] == '#' && o.reason == core::EndReason::MoveLimit;  // KIF writes 持将棋
        EXPECT_EQ(rec->result.reason, kif_limit ? core::EndReason::ImpasseCount : o.reason);
    }
    EXPECT_TRUE(o.record.moves.back().time_ms.has_value());  // times are recorded
}

TEST(Match, AgainstGnuShogiAtShallowDepth) {
    std::string gnushogi = find_gnushogi();
    if (gnushogi.empty())
        GTEST_SKIP() << "gnushogi is not installed (apt-get install gnushogi)";
    fs::path out = temp_dir("gnushogi");
    MatchConfig c;
    c.engines.push_back(engine_config("hisha", "internal", "depth=3"));
    c.engines.push_back(engine_config("gnushogi", gnushogi, "depth=1"));
    c.games = 2;
    c.verbose = false;
    c.out_dir = out.string();
    c.settings.rules.max_plies = 300;
    c.openings = *parse_opening_line("startpos moves 7g7f 3c3d 2g2f", "o");
    Match m(c, std::cout);
    ASSERT_TRUE(m.check().has_value());
    MatchResult r = m.run();
    ASSERT_EQ(r.games.size(), 2u);
    for (const auto& g : r.games) {
        EXPECT_EQ(g.failure, Failure::None) << g.detail;
        EXPECT_NE(g.result, "*") << g.detail;
        check_records(g, 300);
    }
    EXPECT_EQ(r.pairs[0].score.games(), 2);
    fs::remove_all(out);
}

TEST(Match, GnuShogiCannotThinkUnderASecond) {
    std::string gnushogi = find_gnushogi();
    if (gnushogi.empty())
        GTEST_SKIP() << "gnushogi is not installed";
    MatchConfig c;
    c.engines.push_back(engine_config("hisha", "internal", "st=0.2"));
    c.engines.push_back(engine_config("gnushogi", gnushogi, "st=0.2"));
    std::ostringstream log;
    auto r = Match(c, log).check();
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().find("less than 1 s"), std::string::npos) << r.error();
}

TEST(Match, ResignAdjudication) {
    // A threshold of 1 centipawn on one move: the first engine to see itself behind resigns.
    MatchConfig c = self_play(2, 1);
    c.settings.adjudication = Adjudication{1, 1};
    std::ostringstream log;
    MatchResult r = Match(c, log).run();
    ASSERT_EQ(r.games.size(), 2u);
    for (const auto& g : r.games) {
        EXPECT_NE(g.detail.find("adjudicated"), std::string::npos) << g.detail;
        EXPECT_TRUE(g.result == "1-0" || g.result == "0-1") << g.result;
    }
    EXPECT_EQ(r.pairs[0].endings.count("resignation (adjudicated)"), 1u);
}

TEST(Match, PlyLimitCountsWhenAsked) {
    MatchConfig c = self_play(2, 1);
    c.settings.rules.max_plies = 12;
    c.settings.rules.limit_counts_impasse = true;
    std::ostringstream log;
    MatchResult r = Match(c, log).run();
    ASSERT_EQ(r.games.size(), 2u);
    for (const auto& g : r.games) {
        EXPECT_EQ(g.plies, 12);
        EXPECT_NE(g.detail.find("points"), std::string::npos) << g.detail;  // the 24-point count decided
    }
    EXPECT_EQ(r.pairs[0].endings.count("move limit"), 1u);
}
