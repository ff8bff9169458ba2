// Vacations and adjournments (issue 20): a vacation stops the clock of a player's correspondence
// games on their turn only, ends by itself when the year's days are used up, and survives a
// restart with the clocks exact; an adjournment is offered and accepted (or declined) by the two
// players, freezes both clocks and the position, and a resumption agreed by both lets the clocks
// run on as they stood. Through the service, the text shell and the JSON API over real SQLite,
// on the fake clock (no sleeping).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "pg_fixture.h"
#include "server/proto/json_api.h"
#include "server/service/pauses.h"
#include "server_process.h"
#include "test_util.h"
#include "text_session.h"

using namespace hisha::server;
using namespace hisha::server::service;
using hisha::server::test::Fixture;
using hisha::server::test::Postgres;
using hisha::server::test::Recorder;
using json = nlohmann::json;

namespace {

constexpr Millis HOUR = 3'600'000;

TimeControl corr(int days) {
    TimeControl tc;
    tc.days_per_move = days;
    return tc;
}

// alice (Black) against bob in a new game of `tc`; alice has played 7g7f: bob to move.
std::int64_t game_after_first_move(Fixture& f, const TimeControl& tc) {
    f.add_users({"alice", "bob", "carol"});
    auto g = f.svc->create_game("alice", "bob", tc, "web");
    EXPECT_TRUE(g.has_value());
    EXPECT_TRUE(f.svc->play("alice", *g, "7g7f").has_value());
    return *g;
}

Millis elapsed(Fixture& f, std::int64_t id) { return f.svc->turn_elapsed(*f.svc->game(id), f.env.t); }

bool saw_notice(const Recorder& r, const std::string& part) {
    for (const auto& e : r.events)
        if (e.kind == EventKind::Notice && e.text.find(part) != std::string::npos)
            return true;
    return false;
}

}  // namespace

TEST(Vacation, ArithmeticOfSpansDaysAndDates) {
    EXPECT_EQ(covered(0, 100, {{10, 20}, {15, 30}, {50, 200}}), 20 + 50);
    EXPECT_EQ(covered(100, 200, {{0, 50}, {300, 400}}), 0);
    store::VacationRow v{1, "alice", 0, 10 * DAY_MS, 0};
    EXPECT_EQ(vacation_days(v, 1), 1);  // a day begun counts
    EXPECT_EQ(vacation_days(v, DAY_MS + 1), 2);
    EXPECT_EQ(vacation_days(v, 99 * DAY_MS), 10);
    v.ended = 3 * DAY_MS;
    EXPECT_EQ(vacation_days(v, 99 * DAY_MS), 3);
    EXPECT_EQ(parse_utc_date("2027-01-31"), Millis(1'801'353'600'000));
    EXPECT_FALSE(parse_utc_date("2027-02-30"));
    EXPECT_FALSE(parse_utc_date("31.01.2027"));
    EXPECT_FALSE(parse_utc_date("2027-1-31"));
}

TEST(Vacation, TheClockStandsStillOnTheirTurnOnly) {
    Fixture f("vac_turn");
    auto id = game_after_first_move(f, corr(3));
    ASSERT_TRUE(f.svc->start_vacation("alice", 0).has_value());
    EXPECT_TRUE(f.svc->vacation_until("alice"));

    // bob's turn runs as usual while alice is away.
    f.advance(2 * DAY_MS);
    EXPECT_EQ(elapsed(f, id), 2 * DAY_MS);
    auto reply = f.svc->play("bob", id, "3c3d");
    ASSERT_TRUE(reply.has_value()) << reply.error();
    EXPECT_EQ(reply->spent_ms, 2 * DAY_MS);

    // Her turn: ten days pass, three are allowed a move, and her clock has not moved.
    f.advance(10 * DAY_MS);
    ASSERT_TRUE(f.svc->game(id)->active());
    EXPECT_EQ(elapsed(f, id), 0);
    // The timer waits for the end of the vacation (30 days from its start) plus her three days.
    Millis vacation_end = f.env.t - 12 * DAY_MS + 30 * DAY_MS;
    EXPECT_EQ(f.env.timers.at(id), vacation_end + 3 * DAY_MS + 1);

    auto back = f.svc->end_vacation("alice");
    ASSERT_TRUE(back.has_value()) << back.error();
    EXPECT_FALSE(back->on);
    EXPECT_EQ(back->used, 12);
    EXPECT_EQ(back->left, 18);
    EXPECT_EQ(f.env.timers.at(id), f.env.t + 3 * DAY_MS + 1);
    f.advance(2 * DAY_MS);
    reply = f.svc->play("alice", id, "2g2f");
    ASSERT_TRUE(reply.has_value()) << reply.error();
    EXPECT_EQ(reply->spent_ms, 2 * DAY_MS);  // the ten days on vacation are not charged

    // Without a vacation bob's clock runs out as ever.
    f.advance(3 * DAY_MS + 1);
    EXPECT_EQ(f.svc->game(id)->row.reason, reason_name(hisha::core::EndReason::TimeUp));
    EXPECT_EQ(f.svc->game(id)->row.winner, "black");
}

TEST(Vacation, EndsByItselfWhenTheDaysAreUsedUp) {
    Fixture f("vac_allowance");
    f.vacation_days = 5;
    f.reopen();
    auto id = game_after_first_move(f, corr(3));
    ASSERT_TRUE(f.svc->play("bob", id, "3c3d").has_value());         // alice to move
    auto v = f.svc->start_vacation("alice", f.env.t + 30 * DAY_MS);  // asks for more than she has
    ASSERT_TRUE(v.has_value()) << v.error();
    EXPECT_EQ(v->until, f.env.t + 5 * DAY_MS);

    f.advance(5 * DAY_MS);
    EXPECT_FALSE(f.svc->vacation_until("alice"));
    auto info = f.svc->vacation("alice");
    EXPECT_EQ(info.used, 5);
    EXPECT_EQ(info.left, 0);
    auto again = f.svc->start_vacation("alice", 0);
    ASSERT_FALSE(again.has_value());
    EXPECT_EQ(again.error(), "no vacation days left this year (5 used)");

    // Her clock runs again from the end of the vacation: three days later she loses on time.
    f.advance(3 * DAY_MS - 1);
    EXPECT_TRUE(f.svc->game(id)->active());
    f.advance(2);
    EXPECT_EQ(f.svc->game(id)->row.reason, reason_name(hisha::core::EndReason::TimeUp));
    EXPECT_EQ(f.svc->game(id)->row.winner, "white");
}

namespace {

// alice leaves in her turn, after a day's thought; a restart keeps her vacation, her clock and the
// days used, to the millisecond.
void check_vacation_restart(Fixture& f) {
    auto id = game_after_first_move(f, corr(5));
    ASSERT_TRUE(f.svc->play("bob", id, "3c3d").has_value());
    f.advance(DAY_MS + 1234);  // alice thinks a day, then leaves
    auto v = f.svc->start_vacation("alice", *parse_utc_date("2023-12-01"));
    ASSERT_TRUE(v.has_value()) << v.error();
    f.advance(2 * DAY_MS);
    f.reopen();
    EXPECT_EQ(f.svc->vacation_until("alice"), *parse_utc_date("2023-12-01"));
    EXPECT_EQ(elapsed(f, id), DAY_MS + 1234);
    ASSERT_TRUE(f.svc->end_vacation("alice").has_value());
    f.reopen();
    EXPECT_FALSE(f.svc->vacation_until("alice"));
    EXPECT_EQ(f.svc->vacation("alice").used, 2);
    f.advance(HOUR);
    auto reply = f.svc->play("alice", id, "2g2f");
    ASSERT_TRUE(reply.has_value()) << reply.error();
    EXPECT_EQ(reply->spent_ms, DAY_MS + 1234 + HOUR);
}

}  // namespace

TEST(Vacation, ARestartKeepsItAndTheClockExact) {
    Fixture f("vac_restart");
    check_vacation_restart(f);
}

TEST_F(Postgres, VacationsSurviveARestart) {
    Fixture f("pg_vacation", false, fresh_db());
    check_vacation_restart(f);
}

TEST(Vacation, RealTimeGamesRunOnAndWrongRequestsAreRefused) {
    Fixture f("vac_realtime");
    auto tc = parse_time_control("600-10");
    auto id = game_after_first_move(f, *tc);
    ASSERT_TRUE(f.svc->play("bob", id, "3c3d").has_value());
    ASSERT_TRUE(f.svc->start_vacation("alice", 0).has_value());
    f.advance(5000);
    EXPECT_EQ(elapsed(f, id), 5000);  // a real-time clock does not stop for a vacation

    auto twice = f.svc->start_vacation("alice", 0);
    ASSERT_FALSE(twice.has_value());
    EXPECT_NE(twice.error().find("you are on vacation already, until"), std::string::npos);
    auto past = f.svc->start_vacation("bob", f.env.t - 1);
    ASSERT_FALSE(past.has_value());
    EXPECT_EQ(past.error(), "the end of a vacation must be in the future");
    auto not_on = f.svc->end_vacation("bob");
    ASSERT_FALSE(not_on.has_value());
    EXPECT_EQ(not_on.error(), "you are not on vacation");
    f.vacation_days = 0;
    f.reopen();
    auto none = f.svc->start_vacation("carol", 0);
    ASSERT_FALSE(none.has_value());
    EXPECT_EQ(none.error(), "this server gives no vacation days");
}

namespace {

void check_adjourn_restart_resume(Fixture& f) {
    auto id = game_after_first_move(f, *parse_time_control("600-10"));
    auto alice = std::make_shared<Recorder>();
    f.svc->connect("alice", alice, "web");
    f.advance(5000);  // bob thinks 5 s

    auto offer = f.svc->adjourn("bob", id);
    ASSERT_TRUE(offer.has_value()) << offer.error();
    EXPECT_EQ(*offer, AgreeStep::Offered);
    EXPECT_TRUE(saw_notice(*alice, "bob offers to adjourn game " + std::to_string(id)));
    f.advance(1000);
    auto accept = f.svc->adjourn("alice", id);
    ASSERT_TRUE(accept.has_value()) << accept.error();
    EXPECT_EQ(*accept, AgreeStep::Done);
    EXPECT_TRUE(f.svc->game(id)->adjourned());
    EXPECT_FALSE(f.env.timers.contains(id));

    // Frozen: a day passes, no flag, no move; a restart keeps it so.
    f.advance(DAY_MS);
    EXPECT_TRUE(f.svc->game(id)->active());
    auto move = f.svc->play("bob", id, "3c3d");
    ASSERT_FALSE(move.has_value());
    EXPECT_EQ(move.error(), "game " + std::to_string(id) + " is adjourned: both players must RESUME it first");
    f.reopen();
    ASSERT_TRUE(f.svc->game(id)->adjourned());
    EXPECT_EQ(elapsed(f, id), 6000);
    EXPECT_EQ(f.svc->game(id)->row.remaining[1], 600'000);

    auto ask = f.svc->resume("alice", id);
    ASSERT_TRUE(ask.has_value()) << ask.error();
    EXPECT_EQ(*ask, AgreeStep::Offered);
    f.advance(HOUR);  // bob answers an hour later: still frozen
    auto go = f.svc->resume("bob", id);
    ASSERT_TRUE(go.has_value()) << go.error();
    EXPECT_EQ(*go, AgreeStep::Done);
    EXPECT_FALSE(f.svc->game(id)->adjourned());
    EXPECT_EQ(elapsed(f, id), 6000);
    EXPECT_EQ(f.env.timers.at(id), f.env.t + 600'000 + 10'000 - 6000 + 1);
    f.advance(2000);
    auto played = f.svc->play("bob", id, "3c3d");
    ASSERT_TRUE(played.has_value()) << played.error();
    EXPECT_EQ(played->spent_ms, 8000);
    EXPECT_EQ(f.svc->game(id)->row.remaining[1], 600'000 - 8000);
}

}  // namespace

// Two servers on one database: alice's vacation begun through one stops her clock on the other,
// which keeps the game's timer (it wrote the last move), and an adjournment agreed through the
// one holds on the other.
TEST_F(Postgres, VacationsAndAdjournmentsHoldOnAnotherServerOfTheDatabase) {
    std::string url = fresh_db();
    Fixture a("pg_two_a", false, url);
    auto id = game_after_first_move(a, corr(3));
    Fixture b("pg_two_b", false, url);
    b.env.t = a.env.t;
    b.reopen();
    ASSERT_TRUE(b.svc->play("bob", id, "3c3d").has_value());  // alice to move; b keeps the clock
    ASSERT_TRUE(a.svc->start_vacation("alice", 0).has_value());
    b.advance(3 * DAY_MS + 1);
    EXPECT_TRUE(b.svc->game(id)->active());  // not lost on time: she is away
    EXPECT_EQ(b.svc->turn_elapsed(*b.svc->game(id), b.env.t), 0);

    a.env.t = b.env.t;
    a.svc->on_remote("G " + std::to_string(id));  // (b's move, as its notification brings it)
    ASSERT_TRUE(a.svc->end_vacation("alice").has_value());
    ASSERT_TRUE(b.svc->adjourn("bob", id).has_value());
    a.svc->on_remote("G " + std::to_string(id));  // (b's offer)
    auto accepted = a.svc->adjourn("alice", id);
    ASSERT_TRUE(accepted.has_value()) << accepted.error();
    EXPECT_EQ(*accepted, AgreeStep::Done);
    b.svc->on_remote("G " + std::to_string(id));  // what a's notification brings to b
    EXPECT_TRUE(b.svc->game(id)->adjourned());
    auto move = b.svc->play("alice", id, "2g2f");
    ASSERT_FALSE(move.has_value());
    EXPECT_NE(move.error().find("is adjourned"), std::string::npos);
}

TEST(Adjourn, OfferAcceptRestartAndResumeKeepTheClocks) {
    Fixture f("adj_flow");
    check_adjourn_restart_resume(f);
}

TEST_F(Postgres, AdjournmentsSurviveARestart) {
    Fixture f("pg_adjourn", false, fresh_db());
    check_adjourn_restart_resume(f);
}

TEST(Adjourn, DeclinesLapsesAndWrongPlayersAreRefusedClearly) {
    Fixture f("adj_refused");
    auto id = game_after_first_move(f, corr(3));
    std::string g = std::to_string(id);
    auto err = [](const auto& r) { return r.has_value() ? std::string("(accepted)") : r.error(); };

    EXPECT_EQ(err(f.svc->adjourn("carol", id)), "game " + g + " is not yours");
    EXPECT_EQ(err(f.svc->resume("alice", id)), "game " + g + " is not adjourned");
    EXPECT_EQ(err(f.svc->decline_offer("bob", id)), "there is no offer to decline in game " + g);
    ASSERT_TRUE(f.svc->adjourn("alice", id).has_value());
    EXPECT_EQ(err(f.svc->adjourn("alice", id)),
              "you have offered to adjourn game " + g + " already: bob has to accept");
    EXPECT_EQ(err(f.svc->decline_offer("alice", id)),
              "the offer in game " + g + " is your own: bob may accept or decline it");
    EXPECT_EQ(err(f.svc->decline_offer("carol", id)), "game " + g + " is not yours");
    ASSERT_TRUE(f.svc->decline_offer("bob", id).has_value());
    EXPECT_FALSE(f.svc->game(id)->adjourned());
    EXPECT_EQ(err(f.svc->decline_offer("bob", id)), "there is no offer to decline in game " + g);

    // An offer lapses with the next move: bob's ADJOURN after it is a new offer, not an acceptance.
    ASSERT_TRUE(f.svc->adjourn("alice", id).has_value());
    ASSERT_TRUE(f.svc->play("bob", id, "3c3d").has_value());
    auto step = f.svc->adjourn("bob", id);
    ASSERT_TRUE(step.has_value());
    EXPECT_EQ(*step, AgreeStep::Offered);
    ASSERT_TRUE(f.svc->adjourn("alice", id).has_value());
    ASSERT_TRUE(f.svc->game(id)->adjourned());
    EXPECT_EQ(err(f.svc->adjourn("bob", id)), "game " + g + " is adjourned already");
    EXPECT_EQ(err(f.svc->resume("carol", id)), "game " + g + " is not yours");
}

TEST(Adjourn, ALostCsaConnectionAdjournsWhenTheOperatorSaysSo) {
    Fixture f("adj_disconnect");
    f.csa_grace_ms = 30'000;
    f.adjourn_disconnected = true;
    f.reopen();
    auto id = game_after_first_move(f, *parse_time_control("600-10"));
    f.svc->csa_away("bob", id);
    f.advance(30'001);
    ASSERT_TRUE(f.svc->game(id)->active());
    EXPECT_TRUE(f.svc->game(id)->adjourned());
    ASSERT_TRUE(f.svc->resume("alice", id).has_value());
    ASSERT_TRUE(f.svc->resume("bob", id).has_value());
    EXPECT_EQ(elapsed(f, id), 30'001);  // the grace ran on the clock; the adjournment does not
}

TEST(Adjourn, TheJsonApiOffersAcceptsAndShowsVacations) {
    Fixture f("adj_json");
    auto id = game_after_first_move(f, corr(3));
    proto::JsonApi api(*f.svc);
    auto call = [&](const char* who, const char* method, const std::string& target, const json& body = nullptr) {
        static std::map<std::string, std::string> tokens;
        std::string& t = tokens[std::string(who) + f.path];
        if (t.empty())
            t = *f.svc->create_token(who);
        return api.handle(method, target, body.is_null() ? "" : body.dump(), t, "127.0.0.1");
    };
    std::string base = "/api/games/" + std::to_string(id);
    auto r = call("bob", "POST", base + "/adjourn");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body)["step"], "offered");
    EXPECT_EQ(json::parse(r.body)["game"]["offer"]["by"], "bob");
    r = call("bob", "POST", base + "/decline");
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(call("carol", "POST", base + "/adjourn").status, 403);
    EXPECT_EQ(call("alice", "POST", "/api/games/999/adjourn").status, 404);
    r = call("alice", "POST", base + "/adjourn");
    ASSERT_EQ(r.status, 200) << r.body;
    auto game = json::parse(r.body)["game"];
    EXPECT_EQ(game["adjourned"], true);
    EXPECT_EQ(game["clock"]["stopped"], true);

    r = call("alice", "POST", "/api/vacation", {{"until", "yesterday"}});
    EXPECT_EQ(r.status, 400) << r.body;
    r = call("alice", "POST", "/api/vacation", {{"until", "2023-11-20"}});
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body)["on"], true);
    EXPECT_EQ(json::parse(r.body)["until"], *parse_utc_date("2023-11-20"));
    auto seen = json::parse(call("bob", "GET", base).body);
    EXPECT_EQ(seen["vacation"]["black"], *parse_utc_date("2023-11-20"));
    auto challenge = call("bob", "POST", "/api/challenges", {{"pattern", "alice"}, {"first_move", "7g7f"}});
    ASSERT_EQ(challenge.status, 200) << challenge.body;
    EXPECT_NE(json::parse(challenge.body)["note"].get<std::string>().find("alice is on vacation until 2023-11-20"),
              std::string::npos);
    r = call("alice", "DELETE", "/api/vacation");
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body)["on"], false);
    EXPECT_EQ(call("alice", "DELETE", "/api/vacation").status, 409);
}

// The text commands over a real socket against a hisha-server process: ADJOURN offered and
// accepted (the opponent told), BOARD and STAT showing it, RESUME by both, DECLINE, VACATION, and
// USER and BOARD showing the vacation to the opponent.
TEST(TextPauses, AdjournResumeDeclineAndVacationOverTheTextPort) {
    using namespace hisha::server::test;
    auto [srv, alice, bob] = TwoPlayers(temp_db("text_pauses"));
    // `c` answers `command` with a reply that has `text`.
    auto says = [](LineClient& c, const std::string& command, const std::string& text) {
        std::string r = c.cmd(command);
        EXPECT_TRUE(has(r, text)) << command << ": " << r;
    };
    says(*alice, "NEW bob P-7f", "Challenge 1 added");
    says(*bob, "N 1", "You accepted challenge 1: game 1");
    alice->read_until("accepted challenge 1");
    alice->drain();
    says(*alice, "DECLINE 1", "Error: there is no offer to decline in game 1");
    says(*alice, "ADJOURN 1", "Offer to adjourn game 1 sent");
    bob->read_until("alice offers to adjourn game 1 (ADJOURN 1 accepts, DECLINE 1 declines)");
    bob->drain();
    says(*alice, "DECLINE 1", "Error: the offer in game 1 is your own");
    says(*bob, "ADJOURN 1", "Game 1 adjourned: the clocks stand still.");
    alice->read_until("game 1 is adjourned");
    alice->drain();
    says(*bob, "STAT", "yours adjourned");
    says(*bob, "B 1", "Adjourned since");
    says(*bob, "PLAY P-3d", "Error: game 1 is adjourned: both players must RESUME it first");
    says(*bob, "RESUME", "Offer to resume game 1 sent");
    alice->read_until("bob offers to resume game 1");
    alice->drain();
    says(*alice, "DECLINE", "Error: no current game");
    says(*alice, "DECLINE 1", "Offer in game 1 declined.");
    bob->read_until("alice declines to resume game 1");
    bob->drain();
    says(*bob, "RESUME 1", "Offer to resume game 1 sent");
    alice->read_until("bob offers to resume game 1");
    alice->drain();
    says(*alice, "RESUME 1", "Game 1 resumed: the clocks run on as they stood.");
    bob->drain();

    says(*alice, "VACATION", "You are not on vacation (0 of 30 vacation days used this year");
    says(*alice, "VACATION START 2001-01-01", "Error: the end of a vacation must be in the future");
    says(*alice, "VACATION START tomorrow", "Error: bad date 'tomorrow'");
    says(*alice, "VACATION START", "You are on vacation until");
    says(*bob, "USER alice", "on vacation until");
    says(*bob, "B 1", "alice is on vacation until");
    says(*bob, "NEW alice P-7f", "alice is on vacation until");
    says(*alice, "VACATION END", "Vacation ended. You are not on vacation (1 of 30");
    says(*alice, "VACATION END", "Error: you are not on vacation");
    says(*alice, "HELP -n VACATION", "Usage: VACATION [START [YYYY-MM-DD] | END]");
}
