// Guests (POST /api/guest) through the JSON API over a real SQLite store: a guest plays the
// bots, unrated, and is refused what involves people; guests are limited per address like
// registrations; they and their sessions expire on a timer unless in a game; registering from a
// guest's session keeps its games.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "server/proto/json_api.h"
#include "test_util.h"

namespace hisha::server {
namespace {

using nlohmann::json;
using test::Fixture;

constexpr service::Millis DAY = 86'400'000;

struct Guest {
    std::string name, token;
};

// A new guest from `peer`: its name and session token (from the cookie).
Guest new_guest(proto::JsonApi& api, const std::string& peer = "192.0.2.1") {
    proto::HttpReply r = api.handle("POST", "/api/guest", "{}", "", peer);
    EXPECT_EQ(r.status, 200) << r.body;
    json u = json::parse(r.body)["user"];
    EXPECT_TRUE(u["guest"].get<bool>()) << r.body;
    auto at = r.set_cookie.find("hisha_session=");
    EXPECT_NE(at, std::string::npos) << r.set_cookie;
    std::string token = r.set_cookie.substr(at + 14, r.set_cookie.find(';', at) - at - 14);
    EXPECT_EQ(token.size(), 64u) << r.set_cookie;
    return {u["name"].get<std::string>(), token};
}

proto::HttpReply post(proto::JsonApi& api, const std::string& path, const json& body, const std::string& token) {
    return api.handle("POST", "/api/" + path, body.dump(), token, "192.0.2.1");
}

std::string error_of(const proto::HttpReply& r) { return json::parse(r.body).value("error", std::string()); }

TEST(Guests, AGuestPlaysTheBotsUnratedAndIsRefusedWhatInvolvesPeople) {
    Fixture f("guests_rules");
    f.add_users({"alice"});
    ASSERT_TRUE(f.svc->ensure_bot("hisha-bot", "skill 0").has_value());
    proto::JsonApi api(*f.svc);
    Guest g = new_guest(api);
    EXPECT_TRUE(g.name.starts_with("guest-")) << g.name;
    EXPECT_EQ(g.name.size(), 12u) << g.name;
    proto::HttpReply me = api.handle("GET", "/api/me", "", g.token, "192.0.2.1");
    ASSERT_EQ(me.status, 200) << me.body;
    EXPECT_EQ(json::parse(me.body)["user"]["name"], g.name);

    proto::HttpReply game = post(api, "games", {{"opponent", "hisha-bot"}, {"color", "black"}}, g.token);
    ASSERT_EQ(game.status, 200) << game.body;
    std::int64_t id = json::parse(game.body)["id"];
    proto::HttpReply move = post(api, "games/" + std::to_string(id) + "/move", {{"move", "7g7f"}}, g.token);
    EXPECT_EQ(move.status, 200) << move.body;

    proto::HttpReply people = post(api, "games", {{"opponent", "alice"}}, g.token);
    EXPECT_EQ(people.status, 400);
    EXPECT_NE(error_of(people).find("guests play the engine only"), std::string::npos) << people.body;
    proto::HttpReply challenge = post(api, "challenges", {{"pattern", "*"}}, g.token);
    EXPECT_EQ(challenge.status, 400);
    EXPECT_NE(error_of(challenge).find("guests may not post challenges"), std::string::npos) << challenge.body;
    auto alices = f.svc->new_challenge("alice", "*", 1, "", "", std::nullopt);
    ASSERT_TRUE(alices.has_value()) << alices.error();
    proto::HttpReply accept = post(api, "challenges/" + std::to_string(*alices) + "/accept", json::object(), g.token);
    EXPECT_EQ(accept.status, 400);
    EXPECT_NE(error_of(accept).find("guests may not accept challenges"), std::string::npos) << accept.body;
    EXPECT_NE(error_of(post(api, "shout", {{"text", "hi all"}}, g.token)).find("guests may not shout"),
              std::string::npos);
    EXPECT_NE(error_of(post(api, "tell", {{"to", "alice"}, {"text", "hi"}}, g.token)).find("guests may not"),
              std::string::npos);
    // Nor can a person start a game with a guest.
    EXPECT_FALSE(f.svc->create_game("alice", g.name, service::TimeControl{}, "text").has_value());

    // The game ends: no rating or count changes on either side.
    ASSERT_EQ(post(api, "games/" + std::to_string(id) + "/resign", json::object(), g.token).status, 200);
    EXPECT_TRUE(f.svc->game(id)->finished());
    const UserRow* gu = f.svc->user(g.name);
    const UserRow* bot = f.svc->user("hisha-bot");
    EXPECT_EQ(gu->rating, 1500.0);
    EXPECT_EQ(gu->losses + bot->wins, 0);
    EXPECT_EQ(bot->rating, 1500.0);

    // The name is no account anyone can register or log into.
    EXPECT_NE(f.svc->register_user("guest-abcdef", "secret").error().find("kept for guests"), std::string::npos);
    EXPECT_FALSE(f.svc->login(g.name, "").has_value());
}

TEST(Guests, GuestsOfAnAddressAreLimitedLikeRegistrations) {
    Fixture f("guests_limit");
    proto::JsonApi api(*f.svc);
    int made = 0;
    proto::HttpReply r;
    for (; made < 100; ++made) {
        r = api.handle("POST", "/api/guest", "{}", "", "198.51.100.7");
        if (r.status != 200)
            break;
    }
    EXPECT_EQ(made, 30) << "the registrations' burst per address";
    EXPECT_EQ(r.status, 429) << r.body;
    EXPECT_GT(r.retry_after_s, 0);
    EXPECT_NE(error_of(r).find("too many new accounts from your address"), std::string::npos) << r.body;
    // The same bucket: a registration from there waits too; another address is served.
    bool refused = false;
    api.account("POST", "/api/register", R"({"name":"carol","password":"secret"})", "198.51.100.7", "",
                [&](proto::HttpReply a) { refused = a.status == 429; });
    EXPECT_TRUE(refused);
    new_guest(api, "198.51.100.8");
    // A minute later the bucket has refilled a little.
    f.advance(60'000);
    EXPECT_EQ(api.handle("POST", "/api/guest", "{}", "", "198.51.100.7").status, 200);
}

TEST(Guests, GuestsAndTheirSessionsExpireUnlessInAGame) {
    Fixture f("guests_expire");
    ASSERT_TRUE(f.svc->ensure_bot("hisha-bot", "skill 0").has_value());
    proto::JsonApi api(*f.svc);
    Guest idle = new_guest(api), playing = new_guest(api);
    ASSERT_EQ(post(api, "games", {{"opponent", "hisha-bot"}}, playing.token).status, 200);
    f.advance(DAY / 2);
    EXPECT_TRUE(f.svc->token_user(idle.token).has_value());
    f.advance(DAY / 2);
    EXPECT_FALSE(f.svc->token_user(idle.token).has_value()) << "the session ends with the guest";
    EXPECT_EQ(api.handle("GET", "/api/me", "", idle.token, "192.0.2.1").status, 401);
    EXPECT_EQ(f.svc->user(idle.name), nullptr) << "gone on the expiry's timer";
    EXPECT_FALSE(f.store->find_user(idle.name).has_value()) << "deleted from the store";
    EXPECT_NE(f.svc->user(playing.name), nullptr) << "kept while its game lasts";
    f.reopen();
    EXPECT_EQ(f.svc->user(idle.name), nullptr);
    EXPECT_NE(f.svc->user(playing.name), nullptr);
}

// A connection that keeps why the server ended its session.
struct EndedSession : service::Listener {
    std::string why;
    void deliver(const service::Event&) override {}
    void end_session(const std::string& w) override { why = w; }
};

TEST(Guests, GuestsExpireOnATimerOfTheLoopWithoutANewGuest) {
    constexpr auto TIMER = service::Service::GUEST_TIMER;
    Fixture f("guests_timer");
    ASSERT_TRUE(f.svc->ensure_bot("hisha-bot", "skill 0").has_value());
    EXPECT_FALSE(f.env.timers.contains(TIMER)) << "no guest, no timer";
    auto api = std::make_unique<proto::JsonApi>(*f.svc);
    Guest idle = new_guest(*api);
    ASSERT_TRUE(f.env.timers.contains(TIMER));
    EXPECT_EQ(f.env.timers[TIMER], f.env.t + DAY) << "set for the guest's end";
    f.advance(DAY / 4);
    Guest playing = new_guest(*api);
    proto::HttpReply game = post(*api, "games", {{"opponent", "hisha-bot"}, {"color", "black"}}, playing.token);
    ASSERT_EQ(game.status, 200) << game.body;
    std::int64_t id = json::parse(game.body)["id"];
    auto conn = std::make_shared<EndedSession>();
    f.svc->connect(idle.name, conn, "web");
    EXPECT_EQ(f.env.timers[TIMER], f.env.t - DAY / 4 + DAY) << "still the first guest's end";

    f.advance(DAY * 3 / 4);  // the first guest is a day old: gone at once, no new guest needed
    EXPECT_EQ(f.svc->user(idle.name), nullptr);
    EXPECT_FALSE(f.store->find_user(idle.name).has_value()) << "its row deleted";
    EXPECT_FALSE(f.svc->token_user(idle.token).has_value()) << "its session deleted";
    EXPECT_EQ(conn->why, "the guest session has expired") << "its connection told to end";
    EXPECT_NE(f.svc->user(playing.name), nullptr);
    EXPECT_EQ(f.env.timers[TIMER], f.env.t + DAY / 4) << "now set for the second guest's end";

    f.advance(DAY / 4);  // a day old, but its game is in play: kept, looked at again later
    EXPECT_NE(f.svc->user(playing.name), nullptr);
    EXPECT_FALSE(f.svc->game(id)->finished());
    EXPECT_EQ(f.env.timers[TIMER], f.env.t + service::Service::GUEST_RECHECK_MS);
    ASSERT_TRUE(f.svc->resign(playing.name, id).has_value());  // (its session is over: a day old)
    f.advance(service::Service::GUEST_RECHECK_MS);
    EXPECT_EQ(f.svc->user(playing.name), nullptr) << "gone once its game is over";
    EXPECT_FALSE(f.store->find_user(playing.name).has_value());
    EXPECT_FALSE(f.env.timers.contains(TIMER)) << "no guest left, no timer";
    EXPECT_TRUE(f.store->load_game(id).has_value()) << "its finished game stays";

    // The guests of a run are expired by the next one when due.
    Guest left = new_guest(*api);
    api.reset();
    f.env.timers.clear();
    f.reopen();
    ASSERT_TRUE(f.env.timers.contains(TIMER));
    EXPECT_EQ(f.env.timers[TIMER], f.env.t + DAY);
    f.advance(DAY);
    EXPECT_EQ(f.svc->user(left.name), nullptr);
    EXPECT_FALSE(f.store->find_user(left.name).has_value());
}

TEST(Guests, RegisteringFromAGuestSessionKeepsItsGames) {
    Fixture f("guests_register");
    ASSERT_TRUE(f.svc->ensure_bot("hisha-bot", "skill 0").has_value());
    proto::JsonApi api(*f.svc);
    Guest g = new_guest(api);
    proto::HttpReply game = post(api, "games", {{"opponent", "hisha-bot"}, {"color", "white"}}, g.token);
    ASSERT_EQ(game.status, 200) << game.body;
    std::int64_t id = json::parse(game.body)["id"];
    proto::HttpReply answer;
    bool answered = api.account("POST", "/api/register", R"({"name":"newbie","password":"secret","cookie":true})",
                                "192.0.2.1", g.token, [&](proto::HttpReply a) { answer = std::move(a); });
    ASSERT_TRUE(answered);
    ASSERT_EQ(answer.status, 200) << answer.body;
    EXPECT_FALSE(json::parse(answer.body)["user"]["guest"].get<bool>());
    EXPECT_EQ(f.svc->game(id)->row.white, "newbie") << "the game in play goes on as the account's";
    EXPECT_EQ(f.svc->user(g.name), nullptr);
    EXPECT_FALSE(f.svc->token_user(g.token).has_value()) << "the guest's session is gone";
    f.reopen();
    auto stored = f.store->load_game(id);
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->white, "newbie");
    EXPECT_FALSE(f.store->find_user(g.name).has_value());
    // An account's registration from an account's session gives nothing away.
    EXPECT_FALSE(f.svc->adopt_guest("newbie", "hisha-bot").has_value());
}

TEST(Guests, AServerWithoutGuestPlayRefusesThem) {
    Fixture f("guests_off");
    service::Config cfg;  // (the fixture's store, a service with guests off)
    cfg.guest_lifetime_ms = 0;
    service::Service svc(*f.store, f.env, cfg);
    ASSERT_TRUE(svc.start().has_value());
    proto::JsonApi api(svc);
    proto::HttpReply r = api.handle("POST", "/api/guest", "{}", "", "192.0.2.1");
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(error_of(r).find("no guest play"), std::string::npos) << r.body;
}

}  // namespace
}  // namespace hisha::server
