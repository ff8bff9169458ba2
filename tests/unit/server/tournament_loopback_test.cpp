// A scheduled tournament on a real hisha-server over 127.0.0.1: scripted CSA engines log in
// under the tournament's game name, wait for the round (not paired on arrival), are paired by
// rating, play and resign; the rating list, the tournament's games and their CSA records come
// over HTTP, the round is logged and counted in /metrics, and an odd player waits for the next
// round. Bad --tournament values stop the server with one line naming the option and the value.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "csa_players.h"
#include "http_client.h"
#include "server/service/service.h"
#include "server/store/store.h"
#include "server_process.h"
#include "test_util.h"

using namespace hisha::server::test;
using hisha::core::BLACK;
using hisha::core::WHITE;
using hisha::server::UserRow;

namespace {

constexpr const char* GAME_NAME = "tour-300-10";

// The accounts, with their ratings, written to the database before the server starts.
void seed_players(const std::string& db, const std::map<std::string, double>& ratings) {
    std::string err;
    auto store = hisha::server::store::open_store("sqlite:" + db, err);
    ASSERT_TRUE(store) << err;
    for (auto& [name, rating] : ratings) {
        UserRow u;
        u.name = name;
        u.password_hash = hisha::server::service::password_hash("secret", 1, 8192);
        u.rating = rating;
        ASSERT_TRUE(store->save_user(u)) << store->last_error();
    }
}

nlohmann::json tournaments(ServerProcess& srv) { return Http(srv.ports.at("http")).get("/api/tournaments"); }

// Returns once the next round is at least `room_ms` away (waiting past a round that is nearer),
// so that the logins that follow all fall before one round.
void wait_for_room(ServerProcess& srv, long room_ms) {
    for (int tries = 0; tries < 3; ++tries) {
        auto t = tournaments(srv);
        long left = t["tournaments"][0]["next_round"].get<long>() - t["now"].get<long>();
        if (left >= room_ms)
            return;
        std::this_thread::sleep_for(std::chrono::milliseconds(left + 100));
    }
    FAIL() << "the rounds do not leave " << room_ms << " ms";
}

std::vector<std::string> waiting_names(ServerProcess& srv) {
    std::vector<std::string> out;
    auto t = tournaments(srv);  // (kept: a range over a temporary's member would dangle)
    for (auto& w : t["tournaments"][0]["waiting"])
        out.push_back(w["name"]);
    return out;
}

struct Engine {
    std::string name;
    std::unique_ptr<LineClient> c;
    std::string summary;
};

// Logs in under the tournament's game name.
void login(Engine& e, ServerProcess& srv) {
    e.c = std::make_unique<LineClient>(srv.ports.at("csa"));
    e.c->send_line("LOGIN " + e.name + " " + GAME_NAME + ",secret", "\n");
    EXPECT_TRUE(has(e.c->read_until("\n"), "LOGIN:" + e.name + " OK"));
}

// Plays one game of the round: both agree, two plies each way (one more when the loser is
// White, so that the loser is to move) and the loser resigns; both hear the end.
void play_game(Engine& black, Engine& white, const std::string& loser) {
    black.c->send_line("AGREE", "\n");
    white.c->send_line("AGREE", "\n");
    black.c->read_until("START:");
    white.c->read_until("START:");
    std::vector<const char*> plies = {"+7776FU", "-3334FU", "+2726FU", "-8384FU"};
    if (loser == white.name)
        plies.push_back("+2625FU");
    bool black_moves = true;
    for (const char* m : plies) {
        (black_moves ? black : white).c->send_line(m, "\n");
        (black_moves ? white : black).c->read_until(std::string(m) + ",T");
        black_moves = !black_moves;
    }
    Engine& l = loser == black.name ? black : white;
    Engine& w = loser == black.name ? white : black;
    l.c->send_line("%TORYO", "\n");
    EXPECT_TRUE(has(l.c->read_until("#LOSE\n"), "#RESIGN"));
    EXPECT_TRUE(has(w.c->read_until("#WIN\n"), "#RESIGN"));
}

// The rating list: the four with one game each, the winners up, the losers down, best first.
void check_ratings(ServerProcess& srv, const std::map<std::string, double>& rating) {
    auto list = Http(srv.ports.at("http")).get("/api/ratings");
    ASSERT_TRUE(list.is_array()) << list.dump();
    std::map<std::string, nlohmann::json> rated;
    long previous = 1L << 30;
    for (auto& r : list) {
        rated[r["name"]] = r;
        EXPECT_LE(r["rating"].get<long>(), previous);
        previous = r["rating"].get<long>();
    }
    EXPECT_EQ(rated.size(), 4u) << list.dump();  // echo and foxtrot have no game yet
    for (const char* name : {"alpha", "bravo", "charlie", "delta"}) {
        ASSERT_TRUE(rated.contains(name)) << list.dump();
        EXPECT_EQ(rated[name]["games"], 1);
        EXPECT_GT(rated[name]["last_game"].get<long>(), 0);
        EXPECT_LT(rated[name]["deviation"].get<long>(), 350);
    }
    EXPECT_GT(rated["bravo"]["rating"].get<double>(), rating.at("bravo"));
    EXPECT_LT(rated["alpha"]["rating"].get<double>(), rating.at("alpha"));
    EXPECT_GT(rated["charlie"]["rating"].get<double>(), rating.at("charlie"));
    EXPECT_LT(rated["delta"]["rating"].get<double>(), rating.at("delta"));
    EXPECT_EQ(rated["bravo"]["wins"], 1);
    EXPECT_EQ(rated["alpha"]["losses"], 1);
}

// The tournament's games, with their results, and their CSA records.
void check_tournament_games(ServerProcess& srv) {
    auto games = Http(srv.ports.at("http")).get("/api/tournaments/tour-*/games");
    ASSERT_EQ(games.size(), 2u) << games.dump();
    for (auto& g : games) {
        EXPECT_EQ(g["status"], "finished");
        EXPECT_EQ(g["reason"], "resignation");
        EXPECT_EQ(g["game_name"], GAME_NAME);
        auto [status, csa] = Http(srv.ports.at("http")).request(http::verb::get, g["record"].get<std::string>());
        ASSERT_EQ(status, 200) << csa;
        EXPECT_TRUE(has(csa, "N+" + g["black"].get<std::string>())) << csa;
        EXPECT_TRUE(has(csa, "N-" + g["white"].get<std::string>())) << csa;
        EXPECT_TRUE(has(csa, "+7776FU")) << csa;
        EXPECT_TRUE(has(csa, "%TORYO")) << csa;
        std::string winner = g[g["winner"] == "black" ? "black" : "white"].get<std::string>();
        EXPECT_TRUE(winner == "bravo" || winner == "charlie") << g.dump();
    }
    EXPECT_EQ(Http(srv.ports.at("http")).get("/api/tournaments/tour-%2A/games").size(), 2u);
    auto [missing, why] = Http(srv.ports.at("http")).request(http::verb::get, "/api/tournaments/nope-*/games");
    EXPECT_EQ(missing, 404) << why;
}

// The round in the log and in /metrics.
void check_round_reported(ServerProcess& srv) {
    std::string log = srv.log_text();
    EXPECT_TRUE(has(log, "\"event\":\"tournament_round\"")) << log;
    EXPECT_TRUE(has(log, "\"pairs\":\"2\"")) << log;
    EXPECT_TRUE(has(log, "\"left_waiting\":\"echo\"")) << log;
    auto [mstatus, metrics] = Http(srv.ports.at("http")).request(http::verb::get, "/metrics");
    EXPECT_TRUE(has(metrics, "hisha_tournament_games_total{tournament=\"tour-*\"} 2")) << metrics;
    EXPECT_TRUE(has(metrics, "hisha_tournament_rounds_total{tournament=\"tour-*\"}")) << metrics;
}

}  // namespace

TEST(TournamentLoopback, ARoundPairsFourEnginesByRatingAndPublishesRatingsAndRecords) {
    std::string db = temp_db("tournament_loopback");
    const std::map<std::string, double> rating = {{"alpha", 1900}, {"bravo", 1700}, {"charlie", 1500},
                                                  {"delta", 1300}, {"echo", 1600},  {"foxtrot", 1400}};
    seed_players(db, rating);
    ServerProcess srv(db, {"--tournament", "tour-*:5s"});
    auto t = tournaments(srv);
    ASSERT_EQ(t["tournaments"].size(), 1u) << t.dump();
    EXPECT_EQ(t["tournaments"][0]["pattern"], "tour-*");
    EXPECT_EQ(t["tournaments"][0]["interval_s"], 5);
    wait_for_room(srv, 3500);

    // Arrivals in an order that pairs charlie with alpha on arrival; echo, the fifth, comes last.
    std::map<std::string, Engine> engines;
    for (const char* name : {"charlie", "alpha", "delta", "bravo", "echo"}) {
        engines[name].name = name;
        login(engines[name], srv);
    }
    EXPECT_EQ(waiting_names(srv), (std::vector<std::string>{"charlie", "alpha", "delta", "bravo", "echo"}))
        << "paired before the round";
    for (const char* name : {"alpha", "bravo", "charlie", "delta"})
        engines[name].summary = engines[name].c->read_until("END Game_Summary\n", 8000);
    EXPECT_EQ(waiting_names(srv), std::vector<std::string>{"echo"});
    EXPECT_EQ(engines["echo"].c->drain(200), "");  // no game for the odd one

    // By rating: alpha-bravo and charlie-delta, each summary naming both.
    auto opponents = [&](const std::string& a, const std::string& b) {
        const std::string& read = engines[a].summary;
        auto s = parse_summary_read(read);
        EXPECT_TRUE(s) << s.error() << "\n" << read;
        if (!s)
            return std::string();
        std::set<std::string> names{s->names[BLACK], s->names[WHITE]};
        EXPECT_EQ(names, (std::set<std::string>{a, b})) << read;
        EXPECT_EQ(s->time[BLACK].total, 300);
        EXPECT_EQ(s->time[BLACK].byoyomi, 10);
        EXPECT_TRUE(has(s->game_id, "+tour-300-10+")) << read;
        return s->names[BLACK];
    };
    std::string ab_black = opponents("alpha", "bravo"), cd_black = opponents("charlie", "delta");
    opponents("bravo", "alpha");
    opponents("delta", "charlie");
    // bravo beats alpha (an upset), charlie beats delta.
    play_game(engines[ab_black], engines[ab_black == "alpha" ? "bravo" : "alpha"], "alpha");
    play_game(engines[cd_black], engines[cd_black == "charlie" ? "delta" : "charlie"], "delta");

    ASSERT_NO_FATAL_FAILURE(check_ratings(srv, rating));
    ASSERT_NO_FATAL_FAILURE(check_tournament_games(srv));
    check_round_reported(srv);

    // The odd one's next round: a newcomer logs in and meets echo, who waited.
    engines["foxtrot"].name = "foxtrot";
    login(engines["foxtrot"], srv);
    std::string read = engines["echo"].c->read_until("END Game_Summary\n", 8000);
    auto s = parse_summary_read(read);
    ASSERT_TRUE(s) << s.error() << "\n" << read;
    EXPECT_EQ((std::set<std::string>{s->names[BLACK], s->names[WHITE]}), (std::set<std::string>{"echo", "foxtrot"}));
}

TEST(TournamentLoopback, BadTournamentValuesAreRefusedNamingTheOptionAndTheValue) {
    const std::pair<const char*, const char*> cases[] = {
        {"--tournament floodgate-600-10", "hisha-server: --tournament needs PATTERN:INTERVAL"},
        {"--tournament 'x-*:0'", "--tournament needs an interval of 1s to 7d"},
        {"--tournament 'x-*:soon'", "not 'x-*:soon'"},
        {"--tournament 'a b:10'", "--tournament needs a game-name pattern"},
        {"--tournament 'x-<ab:10'", "a group (<...>) is not closed (HELP PATTERNS), not 'x-<ab:10'"},
        {"--tournament 'x-*:10' --tournament 'x-*:5'", "--tournament x-* is given twice, not 'x-*:5'"},
        {"--tournament", "--tournament needs a value"},
    };
    for (auto [args, want] : cases) {
        std::string cmd = std::string(HISHA_SERVER_BINARY) + " --db sqlite::memory: " + args + " 2>&1";
        FILE* p = popen(cmd.c_str(), "r");
        ASSERT_TRUE(p);
        std::string out;
        char buf[512];
        for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
            out.append(buf, n);
        int status = pclose(p);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 2) << args << ": " << out;
        EXPECT_TRUE(has(out, want)) << args << ": " << out;
        EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << args << ": " << out;
    }
}
