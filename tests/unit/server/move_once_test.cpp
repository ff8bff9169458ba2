// A move sent again is not played twice (issue 20): POST /api/games/N/move with "ply", the
// plies the page saw, is refused with 409 when the game has moved on (the page's move queued
// during a lost connection, sent again when it is back). The JSON API over real SQLite.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "server/proto/json_api.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::service;
using hisha::server::test::Fixture;
using json = nlohmann::json;

namespace {

proto::HttpReply move(proto::JsonApi& api, const std::string& token, std::int64_t id, const json& body) {
    return api.handle("POST", "/api/games/" + std::to_string(id) + "/move", body.dump(), token, "127.0.0.1");
}

}  // namespace

TEST(MoveOnce, AMoveSentAgainWithThePliesItSawIsNotPlayedTwice) {
    // The page sends the plies it saw; a move sent again after a lost answer finds the game moved on.
    Fixture f("move_once");
    f.add_users({"alice", "bob"});
    auto id = *f.svc->create_game("alice", "bob", *parse_time_control("600-10"), "web");
    proto::JsonApi api(*f.svc);
    std::string alice = *f.svc->create_token("alice"), bob = *f.svc->create_token("bob");
    EXPECT_EQ(move(api, alice, id, {{"move", "7g7f"}, {"ply", 0}}).status, 200);
    auto again = move(api, alice, id, {{"move", "7g7f"}, {"ply", 0}});
    EXPECT_EQ(again.status, 409) << again.body;
    EXPECT_NE(again.body.find("has 1 plies"), std::string::npos) << again.body;
    EXPECT_EQ(move(api, bob, id, {{"move", "3c3d"}, {"ply", 2}}).status, 409);  // not yet there
    EXPECT_EQ(move(api, bob, id, {{"move", "3c3d"}, {"ply", 1}}).status, 200);
    EXPECT_EQ(move(api, alice, id, {{"move", "2g2f"}}).status, 200);  // without it: as before
    std::vector<std::string> played;
    for (const auto& m : f.svc->game(id)->row.moves)
        played.push_back(m.text);
    EXPECT_EQ(played, (std::vector<std::string>{"7g7f", "3c3d", "2g2f"}));
}
