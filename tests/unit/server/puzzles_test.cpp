// Tsume puzzles (issue 20) through the JSON API over a real SQLite store: a correct solve raises
// the player's rating and lowers the puzzle's, a wrong move lowers it and names a legal defence
// after which there is no mate within the puzzle's length, hints, guests unrated, ratings kept
// across a restart, bad input answered 400.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "core/movegen.h"
#include "notation/usi.h"
#include "pg_fixture.h"
#include "puzzle/puzzle.h"
#include "server/proto/json_api.h"
#include "server/service/puzzles.h"
#include "test_util.h"

using namespace hisha;
using namespace hisha::server;
using hisha::server::test::Fixture;
using json = nlohmann::json;

namespace {

// The puzzles `hisha puzzles` finds in tests/data/vectors/records/csa/uchifuzume.csa (the
// 5-ply one, rated 1600 at first) and a mate in one (1200).
const char* const FIVE = "ln1g1k1nl/9/3+P1g1p1/2pKppp2/1+rS4PP/p1PBSPP1L/2G+rs4/9/LN7 w BS5Pgnp 98";
const std::vector<std::string> FIVE_LINE = {"N*7b", "6d6e", "8a7c", "6c7c", "G*6d"};
const char* const ONE = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";

puzzle::Puzzle make(const std::string& sfen, std::vector<std::string> line) {
    puzzle::Puzzle p;
    p.sfen = sfen;
    p.id = puzzle::puzzle_id(sfen);
    p.length = int(line.size());
    p.solution = std::move(line);
    p.source = "test";
    return p;
}

std::string write_set(const std::string& tag, const std::vector<puzzle::Puzzle>& set) {
    std::string path = (std::filesystem::temp_directory_path() / ("hisha_puzzles_" + tag + ".tsv")).string();
    std::ofstream out(path);
    out << "# made by the test\n";
    for (const auto& p : set)
        out << puzzle::to_line(p) << "\n";
    return path;
}

struct Api {
    Fixture& f;
    proto::JsonApi api;
    std::map<std::string, std::string> tokens;
    tsume::Solver solver;
    explicit Api(Fixture& fx) : f(fx), api(*fx.svc) {}
    proto::HttpReply call(const std::string& who, const char* method, const std::string& target,
                          const json& body = nullptr) {
        if (!tokens.contains(who))
            tokens[who] = *f.svc->create_token(who);
        // An attempt or hint comes back deferred (the server runs it on a solver thread): run here.
        return proto::JsonApi::settle(
            api.handle(method, target, body.is_null() ? "" : body.dump(), tokens[who], "127.0.0.1"), solver);
    }
    json ok(const std::string& who, const char* method, const std::string& target, const json& body = nullptr) {
        proto::HttpReply r = call(who, method, target, body);
        EXPECT_EQ(r.status, 200) << method << " " << target << ": " << r.body;
        return json::parse(r.body, nullptr, false);
    }
    json attempt(const std::string& who, const puzzle::Puzzle& p, const std::vector<std::string>& moves) {
        return ok(who, "POST", "/api/puzzles/" + p.id + "/attempt", {{"moves", moves}});
    }
};

struct PuzzleServer {
    Fixture f;
    puzzle::Puzzle five = make(FIVE, FIVE_LINE), one = make(ONE, {"G*5b"});
    std::string file;
    explicit PuzzleServer(const std::string& tag, std::string url = {})
        : f(tag, false, std::move(url)), file(write_set(tag, {one, five})) {
        f.add_users({"alice", "bob"});
        load();
    }
    void load() {
        std::string why;
        ASSERT_TRUE(f.svc->load_puzzles(file, why)) << why;
    }
};

TEST(Puzzles, ACorrectSolveRaisesThePlayersRatingAndIsKept) {
    PuzzleServer s("puzzles_solve");
    Api api(s.f);
    json next = api.ok("alice", "GET", "/api/puzzles/next");
    EXPECT_EQ(next["puzzle"]["id"], s.five.id) << next;  // 1600 is nearer 1500 than 1200
    EXPECT_EQ(next["puzzle"]["sfen"], FIVE);
    EXPECT_EQ(next["puzzle"]["length"], 5);
    EXPECT_FALSE(next["puzzle"].contains("solution"));
    EXPECT_EQ(next["player"]["rating"], 1500);

    json r = api.attempt("alice", s.five, {"N*7b"});
    EXPECT_EQ(r["result"], "continue");
    EXPECT_EQ(r["reply"], "6d6e");
    EXPECT_FALSE(r["rated"]);
    r = api.attempt("alice", s.five, {"N*7b", "6d6e", "8a7c"});
    EXPECT_EQ(r["reply"], "6c7c");
    r = api.attempt("alice", s.five, FIVE_LINE);
    EXPECT_EQ(r["result"], "correct");
    EXPECT_TRUE(r["rated"]);
    EXPECT_EQ(r["rating"]["before"], 1500);
    EXPECT_GT(r["rating"]["change"].get<int>(), 0) << r;
    const int after = r["rating"]["after"];
    EXPECT_EQ(r["solution"], json(FIVE_LINE));
    // Once rated: solving it again changes nothing.
    r = api.attempt("alice", s.five, FIVE_LINE);
    EXPECT_EQ(r["result"], "correct");
    EXPECT_FALSE(r["rated"]);
    EXPECT_EQ(r["rating"]["change"], 0);

    // A restart: the player's and the puzzle's ratings and the done puzzle are read back.
    s.f.reopen();
    s.load();
    Api again(s.f);
    json p = again.ok("alice", "GET", "/api/puzzles/" + s.five.id);
    EXPECT_EQ(p["player"]["rating"], after);
    EXPECT_EQ(p["player"]["plays"], 1);
    EXPECT_LT(p["puzzle"]["rating"].get<int>(), 1600);  // solved: the puzzle loses
    EXPECT_EQ(again.ok("alice", "GET", "/api/puzzles/next")["puzzle"]["id"], s.one.id);
    r = again.attempt("alice", s.one, {"G*5b"});
    EXPECT_TRUE(r["rated"]);
    EXPECT_EQ(again.call("alice", "GET", "/api/puzzles/next").status, 404);
}

// The first checking move of the 5-ply puzzle that is not its solution.
std::string a_wrong_check(const puzzle::Puzzle& p) {
    core::Position pos;
    EXPECT_TRUE(pos.set(p.sfen));
    for (const core::ScoredMove& sm : core::MoveList<core::LEGAL, true>(pos)) {
        std::string usi = notation::write_usi_move(sm.move);
        if (pos.gives_check(sm.move) && usi != p.solution[0])
            return usi;
    }
    return {};
}

TEST(Puzzles, AWrongMoveLowersTheRatingAndItsRefutationIsALegalDefence) {
    PuzzleServer s("puzzles_wrong");
    Api api(s.f);
    std::string wrong = a_wrong_check(s.five);
    ASSERT_FALSE(wrong.empty());
    json r = api.attempt("bob", s.five, {wrong});
    EXPECT_EQ(r["result"], "wrong") << r;
    EXPECT_EQ(r["reason"], "no mate") << r;
    EXPECT_TRUE(r["rated"]);
    EXPECT_LT(r["rating"]["change"].get<int>(), 0) << r;
    EXPECT_EQ(r["solution"], json(FIVE_LINE));
    EXPECT_NE(r["explanation"].get<std::string>().find("no mate in 3 plies"), std::string::npos) << r;
    // The refutation is legal after the wrong move, and then the solver finds no mate in 3.
    core::Position pos;
    ASSERT_TRUE(pos.set(FIVE));
    pos.play(*notation::parse_usi_move(pos, wrong));
    auto reply = notation::parse_usi_move(pos, r["refutation"].get<std::string>());
    ASSERT_TRUE(reply) << r;
    pos.play(*reply);
    tsume::Result left = tsume::solve(pos, tsume::Limits{});
    EXPECT_TRUE(left.status == tsume::Status::NoMate
                || (left.status == tsume::Status::Mate && left.exact && left.length > 3))
        << tsume::format_result(left, tsume::Convention::Ordinary);

    // Not a check, and an illegal move: wrong with their reason (no longer rated: bob failed it).
    r = api.attempt("bob", s.one, {"G*5d"});
    EXPECT_EQ(r["reason"], "not a check");
    EXPECT_TRUE(r["rated"]);
    EXPECT_EQ(api.attempt("bob", s.one, {"G*5c"})["reason"], "illegal");
    EXPECT_FALSE(api.attempt("bob", s.one, {"G*5c"})["rated"]);
}

TEST(Puzzles, HintsGiveThePieceThenTheMoveWhichCountsAsAFailure) {
    PuzzleServer s("puzzles_hint");
    Api api(s.f);
    json h = api.ok("alice", "GET", "/api/puzzles/" + s.five.id + "/hint?level=1");
    EXPECT_EQ(h["drop"], "N");
    EXPECT_FALSE(h.contains("move"));
    h = api.ok("alice", "GET", "/api/puzzles/" + s.five.id + "/hint?moves=N*7b,6d6e&level=1");
    EXPECT_EQ(h["from"], "8a");
    h = api.ok("alice", "GET", "/api/puzzles/" + s.five.id + "/hint?moves=&level=2");
    EXPECT_EQ(h["move"], "N*7b");
    EXPECT_TRUE(h["rated"]);
    EXPECT_LT(h["rating"]["change"].get<int>(), 0);
    EXPECT_FALSE(api.attempt("alice", s.five, FIVE_LINE)["rated"]);
}

TEST(Puzzles, GuestsSolveUnrated) {
    PuzzleServer s("puzzles_guest");
    Api api(s.f);
    proto::HttpReply g = api.api.handle("POST", "/api/guest", "{}", "", "192.0.2.7");
    ASSERT_EQ(g.status, 200) << g.body;
    std::string name = json::parse(g.body)["user"]["name"];
    json next = api.ok(name, "GET", "/api/puzzles/next");
    EXPECT_FALSE(next["player"]["rated"]);
    json r = api.attempt(name, s.five, FIVE_LINE);
    EXPECT_EQ(r["result"], "correct");
    EXPECT_FALSE(r["rated"]);
    EXPECT_EQ(r["rating"]["change"], 0);
    EXPECT_FALSE(s.f.store->puzzle_player(name).has_value());
    EXPECT_EQ(api.ok(name, "GET", "/api/puzzles/next")["puzzle"]["id"], s.one.id);  // the solved one is done
}

TEST(Puzzles, BadInputIsRefused) {
    PuzzleServer s("puzzles_bad");
    Api api(s.f);
    const std::string at = "/api/puzzles/" + s.five.id;
    auto status = [&](const char* method, const std::string& target, const json& body = nullptr) {
        return api.call("alice", method, target, body).status;
    };
    EXPECT_EQ(status("POST", at + "/attempt", json::object()), 400);
    EXPECT_EQ(status("POST", at + "/attempt", {{"moves", "N*7b"}}), 400);
    EXPECT_EQ(status("POST", at + "/attempt", {{"moves", json::array()}}), 400);
    EXPECT_EQ(status("POST", at + "/attempt", {{"moves", {1, 2}}}), 400);
    EXPECT_EQ(status("POST", at + "/attempt", {{"moves", {"zz"}}}), 400);
    EXPECT_EQ(status("POST", at + "/attempt", {{"moves", {"N*7b", "6d6e"}}}), 400);          // ends with the defender
    EXPECT_EQ(status("POST", at + "/attempt", {{"moves", {"N*7b", "6d7c", "8a7c"}}}), 400);  // not the reply given
    EXPECT_EQ(status("POST", at + "/attempt", {{"moves", {"a", "b", "c", "d", "e", "f", "g"}}}), 400);
    EXPECT_EQ(status("GET", at + "/hint?moves=N*7b&level=1"), 400);
    EXPECT_EQ(status("GET", at + "/hint?level=3"), 400);
    EXPECT_EQ(status("GET", at + "/hint"), 400);
    EXPECT_EQ(status("GET", at + "/hint?moves=zz,6d6e&level=1"), 400);
    EXPECT_EQ(status("GET", at + "/hint?moves=N%2A7b,6d6e,8a7c,6c7c,G%2A6d,x,y&level=1"), 400);
    EXPECT_EQ(status("GET", "/api/puzzles/ffffffff"), 404);
    EXPECT_EQ(status("DELETE", at), 405);
    EXPECT_EQ(api.api.handle("GET", "/api/puzzles/next", "", "", "127.0.0.1").status, 401);
    // None of that rated anything.
    EXPECT_FALSE(s.f.store->puzzle_player("alice").has_value());
    // A bad puzzle file is refused with its line; a server without puzzles says so.
    std::string why;
    puzzle::Puzzle broken = s.one;
    broken.solution = {"G*4b"};
    EXPECT_FALSE(s.f.svc->load_puzzles(write_set("puzzles_bad_file", {s.five, broken}), why));
    EXPECT_NE(why.find(":3: "), std::string::npos) << why;
    EXPECT_FALSE(s.f.svc->load_puzzles("/nonexistent/puzzles.tsv", why));
    Fixture none("puzzles_none");
    none.add_users({"alice"});
    Api bare(none);
    EXPECT_EQ(bare.call("alice", "GET", "/api/puzzles/next").status, 404);
}

// The same statements on PostgreSQL: the tables made at load, a rated solve kept across a restart.
using hisha::server::test::Postgres;
TEST_F(Postgres, PuzzleRatingsAreKept) {
    PuzzleServer s("pg_puzzles", fresh_db());
    Api api(s.f);
    json r = api.attempt("alice", s.one, {"G*5b"});
    ASSERT_TRUE(r["rated"]) << r;
    const int after = r["rating"]["after"];
    EXPECT_GT(after, 1500);
    s.f.reopen();
    s.load();  // (the tables exist: IF NOT EXISTS)
    Api again(s.f);
    EXPECT_EQ(again.ok("alice", "GET", "/api/puzzles/" + s.one.id)["player"]["rating"], after);
    EXPECT_FALSE(again.attempt("alice", s.one, {"G*5b"})["rated"]);
    EXPECT_EQ(s.f.store->puzzles_done("alice"), std::vector<std::string>{s.one.id});
}

}  // namespace
