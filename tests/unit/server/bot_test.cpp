// Engine bots: a bot answers a move in its game on the event loop, and once the server lets
// go of it (shutdown) nothing keeps it alive: its engine, which holds the callback of its last
// search, must not hold the bot (a cycle that kept the engine and its hash past the end).
#include <gtest/gtest.h>

#include <chrono>

#include "server/net/bots.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::service;
using hisha::server::test::Fixture;

TEST(Bot, AnswersAMoveAndIsFreedOnceTheServerLetsGoOfIt) {
    Fixture f("bot");
    f.add_users({"alice"});
    ASSERT_TRUE(f.svc->ensure_bot("hisha-bot", "skill 0").has_value());
    net::asio::io_context ioc;
    auto bot = std::make_shared<net::Bot>(*f.svc, ioc, "hisha-bot", 0);
    bot->start();
    auto g = f.svc->create_game("alice", "hisha-bot", TimeControl{}, "text");
    ASSERT_TRUE(g.has_value()) << g.error();
    ASSERT_TRUE(f.svc->play("alice", *g, "7g7f").has_value());
    // The bot searches on its engine's thread (half a second in a correspondence game) and
    // plays on the loop.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (f.svc->game(*g)->row.moves.size() < 2 && std::chrono::steady_clock::now() < deadline) {
        ioc.restart();
        ioc.run_for(std::chrono::milliseconds(50));
    }
    const LiveGame* game = f.svc->game(*g);
    ASSERT_EQ(game->row.moves.size(), 2u);
    EXPECT_EQ(game->to_move(), hisha::core::BLACK);

    std::weak_ptr<net::Bot> weak = bot;
    bot->stop();
    bot.reset();
    ioc.restart();
    ioc.poll();  // what the bot posted to the loop
    EXPECT_TRUE(weak.expired()) << "something still holds the bot (and its engine)";
}
