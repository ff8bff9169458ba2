// Conditional moves (issue 20): the server plays a player's stored reply when the opponent's
// move matches a branch, keeps the subtree, clears the tree on any other move; the tree is
// checked when stored, only its player reads or changes it, and it survives a restart. Through
// the service and the JSON API over real SQLite.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "pg_fixture.h"
#include "server/proto/json_api.h"
#include "server/store/schema.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::service;
using hisha::server::test::Fixture;
using hisha::server::test::Postgres;
using hisha::server::test::Recorder;
using json = nlohmann::json;

namespace {

struct Api {
    Fixture& f;
    proto::JsonApi api;
    std::map<std::string, std::string> tokens;
    explicit Api(Fixture& fx) : f(fx), api(*fx.svc) {}
    proto::HttpReply call(const std::string& who, const char* method, const std::string& target,
                          const json& body = nullptr) {
        if (!tokens.contains(who))
            tokens[who] = *f.svc->create_token(who);
        return api.handle(method, target, body.is_null() ? "" : body.dump(), tokens[who], "127.0.0.1");
    }
};

std::vector<std::string> moves_of(Fixture& f, std::int64_t id) {
    std::vector<std::string> out;
    for (const auto& m : f.svc->game(id)->row.moves)
        out.push_back(m.text);
    return out;
}

// alice (Black) has played 7g7f; bob, to reply, leaves nothing; alice leaves a tree for bob's
// answer: if 3c3d then 2g2f (then if 8c8d, 2f2e), if 8c8d then 2g2f.
const json TREE = json::parse(R"([
    {"move": "3c3d", "reply": "2g2f", "then": [{"move": "8c8d", "reply": "2f2e"}]},
    {"move": "8c8d", "reply": "2g2f"}])");

std::int64_t started_game(Fixture& f) {
    f.add_users({"alice", "bob", "carol"});
    auto g = f.svc->create_game("alice", "bob", TimeControl{}, "web");
    EXPECT_TRUE(g.has_value());
    EXPECT_TRUE(f.svc->play("alice", *g, "7g7f").has_value());
    return *g;
}

}  // namespace

TEST(Conditional, AMatchingMoveIsAnsweredAtOnceAndTheSubtreeKept) {
    Fixture f("cond_match");
    auto id = started_game(f);
    Api api(f);
    auto put = api.call("alice", "PUT", "/api/games/" + std::to_string(id) + "/conditional", {{"tree", TREE}});
    ASSERT_EQ(put.status, 200) << put.body;
    EXPECT_EQ(json::parse(put.body)["ply"], 1);
    auto bob = std::make_shared<Recorder>();
    f.svc->connect("bob", bob, "web");

    ASSERT_TRUE(f.svc->play("bob", id, "3c3d").has_value());
    EXPECT_EQ(moves_of(f, id), (std::vector<std::string>{"7g7f", "3c3d", "2g2f"}));
    EXPECT_EQ(bob->count(EventKind::Move), 2);  // bob hears of the reply as of any move
    auto left = json::parse(api.call("alice", "GET", "/api/games/" + std::to_string(id) + "/conditional").body);
    EXPECT_EQ(left["ply"], 3);
    ASSERT_EQ(left["tree"].size(), 1u);
    EXPECT_EQ(left["tree"][0]["move"], "8c8d");
    EXPECT_EQ(left["tree"][0]["reply"], "2f2e");

    // The kept subtree answers the next move too, and then the tree is used up.
    ASSERT_TRUE(f.svc->play("bob", id, "8c8d").has_value());
    EXPECT_EQ(moves_of(f, id).back(), "2f2e");
    EXPECT_EQ(f.svc->game(id)->to_move(), hisha::core::WHITE);
    EXPECT_TRUE(json::parse(api.call("alice", "GET", "/api/games/" + std::to_string(id) + "/conditional").body)["tree"]
                    .empty());
}

TEST(Conditional, AnotherMoveClearsTheTree) {
    Fixture f("cond_mismatch");
    auto id = started_game(f);
    auto set = f.svc->set_conditional("alice", id, {{"3c3d", "2g2f", {}}});
    ASSERT_TRUE(set.has_value()) << set.error();
    ASSERT_TRUE(f.svc->play("bob", id, "4c4d").has_value());
    EXPECT_EQ(moves_of(f, id), (std::vector<std::string>{"7g7f", "4c4d"}));  // nothing played for alice
    EXPECT_EQ(f.svc->game(id)->to_move(), hisha::core::BLACK);
    auto t = f.svc->conditional("alice", id);
    ASSERT_TRUE(t.has_value());
    EXPECT_TRUE(t->empty());
    // Alice plays; bob's move 3c3d later finds no tree to answer it.
    ASSERT_TRUE(f.svc->play("alice", id, "2g2f").has_value());
    ASSERT_TRUE(f.svc->play("bob", id, "3c3d").has_value());
    EXPECT_EQ(moves_of(f, id).size(), 4u);
}

TEST(Conditional, BadTreesAreRefusedWithTheReason) {
    Fixture f("cond_bad");
    auto id = started_game(f);
    Api api(f);
    std::string url = "/api/games/" + std::to_string(id) + "/conditional";
    auto bad = [&](const json& tree, const std::string& says) {
        auto r = api.call("alice", "PUT", url, {{"tree", tree}});
        EXPECT_EQ(r.status, 400) << tree.dump() << " -> " << r.body;
        EXPECT_NE(json::parse(r.body)["error"].get<std::string>().find(says), std::string::npos) << r.body;
    };
    bad(json::parse(R"([{"move": "3c3e", "reply": "2g2f"}])"), "3c3e");  // bob's move illegal
    bad(json::parse(R"([{"move": "3c3d", "reply": "2g2e"}])"), "2g2e");  // the reply illegal
    bad(json::parse(R"([{"move": "3c3d", "reply": "2g2f", "then": [{"move": "2f2e", "reply": "1g1f"}]}])"),
        "2f2e");  // bob cannot move alice's pawn
    bad(json::parse(R"([{"move": "3c3d", "reply": "2g2f"}, {"move": "3c3d", "reply": "1g1f"}])"), "two branches");
    bad(json::parse(R"([{"move": "3c3d"}])"), "reply");
    bad(json::parse(R"({"move": "3c3d"})"), "array");
    json deep = json::array();  // nine levels of a shuffle: every move legal, too deep
    for (int i = 0; i < 9; ++i)
        deep = json::array({{{"move", i % 2 ? "4b3a" : "3a4b"}, {"reply", i % 2 ? "4h5i" : "5i4h"}, {"then", deep}}});
    bad(deep, "deeper");
    json wide = json::array();
    for (int i = 0; i < 65; ++i)
        wide.push_back({{"move", "3c3d"}, {"reply", "2g2f"}});
    bad(wide, "more than 64");
    EXPECT_EQ(api.call("alice", "PUT", url, {{"other", 1}}).status, 400);
    // Nothing was stored by any of them.
    EXPECT_TRUE(f.svc->conditional("alice", id)->empty());
    // On one's own turn there is nothing to answer.
    auto own = api.call("bob", "PUT", url, {{"tree", json::parse(R"([{"move": "2g2f", "reply": "8c8d"}])")}});
    EXPECT_EQ(own.status, 400) << own.body;
    EXPECT_EQ(api.call("alice", "POST", url).status, 405);
}

TEST(Conditional, OnlyThePlayerSeesOrChangesTheirOwnTree) {
    Fixture f("cond_403");
    auto id = started_game(f);
    Api api(f);
    std::string url = "/api/games/" + std::to_string(id) + "/conditional";
    ASSERT_EQ(api.call("alice", "PUT", url, {{"tree", TREE}}).status, 200);
    EXPECT_EQ(api.call("carol", "GET", url).status, 403);
    EXPECT_EQ(api.call("carol", "PUT", url, {{"tree", TREE}}).status, 403);
    EXPECT_EQ(api.call("carol", "DELETE", url).status, 403);
    // Bob's own is his (empty): alice's tree is not shown to him.
    auto bobs = api.call("bob", "GET", url);
    ASSERT_EQ(bobs.status, 200);
    EXPECT_TRUE(json::parse(bobs.body)["tree"].empty());
    EXPECT_EQ(api.call("alice", "GET", "/api/games/999/conditional").status, 404);
    EXPECT_EQ(api.api.handle("GET", url, "", "", "127.0.0.1").status, 401);
    // DELETE removes it: bob's 3c3d is then not answered.
    ASSERT_EQ(api.call("alice", "DELETE", url).status, 200);
    ASSERT_TRUE(f.svc->play("bob", id, "3c3d").has_value());
    EXPECT_EQ(moves_of(f, id).size(), 2u);
}

// Stored, answered across a restart, the subtree stored again: in SQLite and in PostgreSQL.
static void check_tree_survives_a_restart(Fixture& f) {
    auto id = started_game(f);
    ASSERT_TRUE(f.svc->set_conditional("alice", id, {{"8c8d", "2g2f", {{"8d8e", "8h7g", {}}}}}).has_value());
    f.reopen();
    auto t = f.svc->conditional("alice", id);
    ASSERT_TRUE(t.has_value());
    ASSERT_EQ(t->branches.size(), 1u);
    ASSERT_TRUE(f.svc->play("bob", id, "8c8d").has_value());
    f.reopen();
    ASSERT_TRUE(f.svc->play("bob", id, "8d8e").has_value());
    EXPECT_EQ(moves_of(f, id), (std::vector<std::string>{"7g7f", "8c8d", "2g2f", "8d8e", "8h7g"}));
    EXPECT_TRUE(f.svc->conditional("alice", id)->empty());  // used up
}

TEST(Conditional, ATreeSurvivesARestart) {
    Fixture f("cond_restart");
    check_tree_survives_a_restart(f);
}

TEST_F(Postgres, ConditionalMovesSurviveARestart) {
    Fixture f("pg_conditional", false, fresh_db());
    check_tree_survives_a_restart(f);
}

TEST(Conditional, ADatabaseOfTheSchemaBeforeConditionalMovesOpens) {
    Fixture f("cond_migrate");
    auto id = started_game(f);
    // Back to the version before it, without what the later migrations made either (the
    // rating history's columns).
    auto all = store::schema::migrations(store::schema::SQLITE, "");
    std::size_t mine = 0;
    while (mine < all.size() && all[mine].find("conditional_moves") == std::string::npos)
        ++mine;
    ASSERT_LT(mine, all.size());
    std::string sql = "DROP TABLE conditional_moves;";
    for (std::size_t later = mine + 1; later < all.size(); ++later)
        if (all[later].find("rating_black") != std::string::npos)
            sql += "DROP INDEX games_black; DROP INDEX games_white; ALTER TABLE games DROP COLUMN rating_black;"
                   "ALTER TABLE games DROP COLUMN deviation_black; ALTER TABLE games DROP COLUMN rating_white;"
                   "ALTER TABLE games DROP COLUMN deviation_white;";
    sql += "UPDATE schema_version SET version=" + std::to_string(mine) + ";";
    ASSERT_NO_FATAL_FAILURE(f.reopen_after_sql(sql.c_str()));
    ASSERT_TRUE(f.svc->set_conditional("alice", id, {{"3c3d", "2g2f", {}}}).has_value());
    ASSERT_TRUE(f.svc->play("bob", id, "3c3d").has_value());
    EXPECT_EQ(moves_of(f, id).back(), "2g2f");
}

TEST(Conditional, TheTextFormReadsBack) {
    ConditionalTree t{12, {{"7g7f", "3c3d", {{"2g2f", "8c8d", {}}, {"6i7h", "4a3b", {}}}}, {"2g2f", "8c8d", {}}}};
    std::string text = write_conditional(t);
    EXPECT_EQ(text, "12 7g7f 3c3d (2g2f 8c8d 6i7h 4a3b) 2g2f 8c8d");
    auto back = read_conditional(text);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(write_conditional(*back), text);
    EXPECT_FALSE(read_conditional("12 7g7f").has_value());
    EXPECT_FALSE(read_conditional("12 7g7f 3c3d (2g2f 8c8d").has_value());
    EXPECT_FALSE(read_conditional("x 7g7f 3c3d").has_value());
}
