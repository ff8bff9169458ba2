// /healthz and /metrics over 127.0.0.1: the health check follows the database (503 once its
// file is moved away, 200 again when it is back); /metrics parses as Prometheus' text format
// and counts the connections by protocol, the game and its moves, the latency histograms and a
// limit's refusals.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "http_client.h"
#include "server_process.h"
#include "test_util.h"
#include "text_session.h"

using namespace hisha::server::test;

namespace {

// The samples of a text exposition by name with labels (`name{a="b"}`), checking its grammar:
// HELP and TYPE before a family's samples, a known type, numeric values; a histogram's buckets
// at most its count, the +Inf one equal to it.
std::map<std::string, double> parse_metrics(const std::string& text) {
    static const std::regex help(R"(# HELP ([a-zA-Z_:][a-zA-Z0-9_:]*) .+)");
    static const std::regex type(R"(# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped))");
    static const std::regex sample(
        R"(([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})? (\S+))");
    std::map<std::string, double> out;
    std::map<std::string, std::string> types;
    std::istringstream in(text);
    std::string line;
    std::smatch m;
    while (std::getline(in, line)) {
        if (std::regex_match(line, m, help))
            continue;
        if (std::regex_match(line, m, type)) {
            EXPECT_FALSE(types.count(m[1])) << "two TYPE lines: " << line;
            types[m[1]] = m[2];
            continue;
        }
        if (!std::regex_match(line, m, sample)) {
            ADD_FAILURE() << "not a sample: '" << line << "'";
            continue;
        }
        std::string name = m[1];
        std::string family = name;
        for (const char* suffix : {"_bucket", "_sum", "_count"})
            if (!types.count(family) && family.ends_with(suffix))
                family = family.substr(0, family.size() - std::strlen(suffix));
        EXPECT_TRUE(types.count(family)) << "no TYPE before " << line;
        std::size_t used = 0;
        double v = 0;
        EXPECT_NO_THROW(v = std::stod(m[4], &used)) << line;
        out[name + std::string(m[2])] = v;
    }
    for (auto& [family, t] : types) {
        if (t != "histogram")
            continue;
        for (auto& [key, v] : out) {
            if (key.starts_with(family + "_bucket{")) {
                EXPECT_LE(v, out[family + "_bucket{le=\"+Inf\"}"]) << key;
            }
        }
        EXPECT_EQ(out[family + "_bucket{le=\"+Inf\"}"], out[family + "_count"]) << family;
    }
    return out;
}

}  // namespace

TEST(Operations, HealthzFollowsTheDatabase) {
    std::string db = temp_db("healthz");
    ServerProcess srv(db);
    Http h(srv.ports.at("http"));
    auto up = h.exchange(http::verb::get, "/healthz");
    EXPECT_EQ(up.result_int(), 200) << up.body();
    json j = json::parse(up.body());
    EXPECT_EQ(j["ok"], true);
    EXPECT_EQ(j["database"], true);
    EXPECT_EQ(up[http::field::content_type], "application/json");

    std::filesystem::rename(db, db + ".away");  // the file the server writes is gone from its place
    auto down = h.exchange(http::verb::get, "/healthz");
    EXPECT_EQ(down.result_int(), 503) << down.body();
    json d = json::parse(down.body());
    EXPECT_EQ(d["ok"], false);
    EXPECT_EQ(d["database"], false);
    EXPECT_NE(d["error"].get<std::string>().find("moved or deleted"), std::string::npos) << d.dump();
    std::filesystem::rename(db + ".away", db);
    EXPECT_EQ(h.exchange(http::verb::get, "/healthz").result_int(), 200);
    EXPECT_EQ(h.exchange(http::verb::post, "/healthz").result_int(), 405);
}

TEST(Operations, MetricsCountConnectionsGamesMovesLatenciesAndLimits) {
    ServerProcess srv(temp_db("metrics"), {"--login-per-address", "1/1", "--bots", ""});
    int port = srv.ports.at("http");
    Http h(port);
    std::string dave = h.post("/api/register", {{"name", "dave"}, {"password", "secret"}})["token"];
    std::string erin = h.post("/api/register", {{"name", "erin"}, {"password", "secret"}})["token"];
    h.post("/api/login", {{"name", "dave"}, {"password", "wrong"}}, {}, 401);
    h.post("/api/login", {{"name", "dave"}, {"password", "wrong"}}, {}, 429);  // the limit
    json g = h.post("/api/games", {{"opponent", "erin"}, {"color", "black"}, {"time_control", "600-10"}}, dave);
    int id = g["id"];
    Ws dw(port, dave), ew(port, erin);
    const char* line[] = {"7g7f", "3c3d", "2g2f", "8c8d"};
    for (int i = 0; i < 4; ++i) {
        (i % 2 == 0 ? dw : ew).send({{"type", "move"}, {"game", id}, {"move", line[i]}});
        EXPECT_EQ((i % 2 == 0 ? ew : dw).read_move(line[i]).value("usi", ""), std::string(line[i]));
    }
    LineClient text(srv.ports.at("text"));
    text.read_until("hisha> ");
    LineClient csa(srv.ports.at("csa"));
    csa.send_line("%%VERSION", "\n");  // (read: the session is counted by the time it answers)
    csa.read_until("\n");

    auto res = h.exchange(http::verb::get, "/metrics");
    ASSERT_EQ(res.result_int(), 200);
    EXPECT_EQ(res[http::field::content_type], "text/plain; version=0.0.4; charset=utf-8");
    auto m = parse_metrics(res.body());
    EXPECT_EQ(m["hisha_connections{protocol=\"text\"}"], 1) << res.body();
    EXPECT_EQ(m["hisha_connections{protocol=\"csa\"}"], 1);
    EXPECT_EQ(m["hisha_connections{protocol=\"websocket\"}"], 2);
    EXPECT_EQ(m["hisha_connections{protocol=\"http\"}"], 1);  // this one
    EXPECT_EQ(m["hisha_players_online"], 2);
    EXPECT_EQ(m["hisha_games_in_progress"], 1);
    EXPECT_EQ(m["hisha_moves_total"], 4);
    EXPECT_EQ(m["hisha_move_latency_seconds_count"], 4);
    EXPECT_GT(m["hisha_move_latency_seconds_sum"], 0);
    EXPECT_GE(m["hisha_db_commit_seconds_count"], 1);
    EXPECT_TRUE(m.count("hisha_move_latency_seconds_bucket{le=\"0.001\"}"));
    EXPECT_EQ(m["hisha_move_relay_seconds_count"], 4);
    EXPECT_EQ(m["hisha_limited_total{limit=\"login_per_address\"}"], 1);
    EXPECT_EQ(m["hisha_limited_total{limit=\"job_queue\"}"], 0);
    EXPECT_TRUE(m.count("hisha_limited_total{limit=\"jobs_per_account\"}"));
    EXPECT_TRUE(m.count("hisha_limited_total{limit=\"hash_queue\"}"));
    EXPECT_EQ(m["hisha_hash_queue_depth"], 0);
    EXPECT_EQ(m["hisha_solver_jobs{state=\"running\"}"], 0);
    EXPECT_EQ(m["hisha_solver_jobs{state=\"waiting\"}"], 0);
}

// hisha_move_relay_seconds counts every move once, whatever protocol carried it: 2 in a text
// (correspondence) game, 4 over WebSocket, 4 in a CSA game; its buckets are cumulative in
// the order of their bounds, the +Inf one the count, the sum positive.
TEST(Operations, MoveRelayHistogramCountsEveryMoveOfEveryProtocol) {
    ServerProcess srv(temp_db("metrics_relay"), open_csa({"--bots", ""}));
    auto alice = text_login(srv, "alice"), bob = text_login(srv, "bob");
    start_game_as_white(*alice, *bob, "bob");  // game 1, bob Black
    alice->cmd("B 1");                         // her current game
    play_move(*bob, *alice, "P-7f");
    play_move(*alice, *bob, "P-3d");
    int port = srv.ports.at("http");
    Http h(port);
    std::string dave = h.post("/api/register", {{"name", "dave"}, {"password", "secret"}})["token"];
    std::string erin = h.post("/api/register", {{"name", "erin"}, {"password", "secret"}})["token"];
    json g = h.post("/api/games", {{"opponent", "erin"}, {"color", "black"}, {"time_control", "600-10"}}, dave);
    Ws dw(port, dave), ew(port, erin);
    const char* usi[] = {"7g7f", "3c3d", "2g2f", "8c8d"};
    for (int i = 0; i < 4; ++i) {
        (i % 2 == 0 ? dw : ew).send({{"type", "move"}, {"game", g["id"]}, {"move", usi[i]}});
        (i % 2 == 0 ? ew : dw).read_move(usi[i]);
    }

    LineClient black(srv.ports.at("csa")), white(srv.ports.at("csa"));
    black.send_line("LOGIN carol relay-600-0-B,secret", "\n");
    black.read_until("LOGIN:carol OK\n");
    white.send_line("LOGIN frank relay-600-0-W,secret", "\n");
    black.read_until("END Game_Summary\n");
    white.read_until("END Game_Summary\n");
    black.send_line("AGREE", "\n");
    white.send_line("AGREE", "\n");
    black.read_until("START:");
    white.read_until("START:");
    const char* csa[] = {"+7776FU", "-3334FU", "+2726FU", "-8384FU"};
    for (int i = 0; i < 4; ++i) {
        (i % 2 == 0 ? black : white).send_line(csa[i], "\n");
        (i % 2 == 0 ? white : black).read_until(std::string(csa[i]) + ",T");  // relayed
    }

    std::string body = h.exchange(http::verb::get, "/metrics").body();
    auto m = parse_metrics(body);
    EXPECT_EQ(m["hisha_moves_total"], 10) << body;
    EXPECT_EQ(m["hisha_move_relay_seconds_count"], 10) << body;
    EXPECT_GT(m["hisha_move_relay_seconds_sum"], 0);
    EXPECT_EQ(m["hisha_move_relay_seconds_bucket{le=\"+Inf\"}"], 10);
    std::istringstream lines(body);
    std::vector<double> buckets;
    for (std::string line; std::getline(lines, line);)
        if (line.starts_with("hisha_move_relay_seconds_bucket{"))
            buckets.push_back(std::stod(line.substr(line.rfind(' ') + 1)));
    ASSERT_EQ(buckets.size(), 12u) << body;  // 11 bounds and +Inf
    for (std::size_t i = 1; i < buckets.size(); ++i)
        EXPECT_LE(buckets[i - 1], buckets[i]) << "bucket " << i << " is not cumulative:\n" << body;
    EXPECT_TRUE(body.find("# TYPE hisha_move_relay_seconds histogram") != std::string::npos);
}
