// Sessions and administration in the service, with a fake clock: tokens expire and are revoked
// (one, or every one of an account), administrators and their audit log, bans of accounts and
// addresses refusing logins and tokens, an adjudicated game rated, the schema migration of a
// database made before administration. check_administration runs on PostgreSQL too.
#include <gtest/gtest.h>

#include "store_checks.h"
#include "test_util.h"

using namespace hisha::server;
using namespace hisha::server::test;
using service::AdminActor;
using service::AuthReply;
using service::BanKind;
using service::EventKind;

namespace {

// A listener that records events and whether (and why) its session was ended.
class Session : public Recorder {
public:
    std::string ended;
    void end_session(const std::string& why) override { ended = why; }
};

AuthReply login(Fixture& f, const std::string& peer, const std::string& name, const std::string& pw) {
    AuthReply out;
    f.svc->start_login(peer, name, pw, [&out](const AuthReply& r) { out = r; });
    return out;
}

}  // namespace

TEST(Sessions, TokensExpireAndAreRevokedOneOrAll) {
    Fixture f("sessions");
    f.add_users({"alice", "bob"});
    auto a1 = f.svc->create_token("alice");
    auto a2 = f.svc->create_token("alice");
    auto b1 = f.svc->create_token("bob");
    ASSERT_TRUE(a1 && a2 && b1);
    EXPECT_EQ(f.svc->token_user(*a1), "alice");
    EXPECT_FALSE(f.svc->token_user(std::string(64, '0')));  // unknown
    EXPECT_FALSE(f.svc->token_user("short"));

    // Log out: the one token, and the WebSocket it opened, and no other.
    auto ws1 = std::make_shared<Session>();
    auto ws2 = std::make_shared<Session>();
    auto text = std::make_shared<Session>();
    f.svc->connect("alice", ws1, "web", "127.0.0.1", *a1);
    f.svc->connect("alice", ws2, "web", "127.0.0.1", *a2);
    f.svc->connect("alice", text, "text", "127.0.0.1");
    f.svc->revoke_token(*a1);
    EXPECT_FALSE(f.svc->token_user(*a1));
    EXPECT_EQ(f.svc->token_user(*a2), "alice");
    EXPECT_EQ(ws1->ended, "logged out");
    EXPECT_EQ(ws2->ended, "");

    // Log out everywhere: every token of alice and her web sessions; bob and the text
    // connection (a password login, no token) stay.
    auto a3 = f.svc->create_token("alice");
    ASSERT_TRUE(f.svc->revoke_tokens_of("alice").has_value());
    EXPECT_FALSE(f.svc->token_user(*a2));
    EXPECT_FALSE(f.svc->token_user(*a3));
    EXPECT_EQ(ws2->ended, "logged out everywhere");
    EXPECT_EQ(text->ended, "");
    EXPECT_EQ(f.svc->token_user(*b1), "bob");
    EXPECT_FALSE(f.svc->revoke_tokens_of("nobody").has_value());

    // Expiry: config.token_lifetime_ms (30 days by default) after the login.
    f.env.t += f.svc->config().token_lifetime_ms - 1;
    EXPECT_EQ(f.svc->token_user(*b1), "bob");
    f.env.t += 1;
    EXPECT_FALSE(f.svc->token_user(*b1));
    f.reopen();
    EXPECT_FALSE(f.svc->token_user(*b1)) << "expired for good (and swept at the next login)";
}

TEST(Sessions, DurationsAndNetworksAreRead) {
    using service::Service;
    EXPECT_EQ(Service::parse_duration("90s"), 90'000);
    EXPECT_EQ(Service::parse_duration("30m"), 1'800'000);
    EXPECT_EQ(Service::parse_duration("7d"), 7 * 86'400'000LL);
    EXPECT_EQ(Service::parse_duration("2w"), 14 * 86'400'000LL);
    for (const char* bad : {"", "7", "d", "0d", "-1d", "1.5h", "7x", "99999999999d"})
        EXPECT_FALSE(Service::parse_duration(bad)) << bad;
    EXPECT_EQ(*Service::parse_network("203.0.113.7"), "203.0.113.7");
    EXPECT_EQ(*Service::parse_network("203.0.113.77/24"), "203.0.113.0/24");
    EXPECT_EQ(*Service::parse_network("2001:db8::1:2/32"), "2001:db8::/32");
    EXPECT_EQ(*Service::parse_network("10.1.2.3/0"), "0.0.0.0/0");
    for (const char* bad : {"", "carol", "203.0.113", "203.0.113.7/33", "203.0.113.7/x", "::1/129", "1.2.3.4/"})
        EXPECT_FALSE(Service::parse_network(bad).has_value()) << bad;
    EXPECT_TRUE(Service::address_in("203.0.113.200", "203.0.113.0/24"));
    EXPECT_FALSE(Service::address_in("203.0.114.1", "203.0.113.0/24"));
    EXPECT_TRUE(Service::address_in("::ffff:203.0.113.9", "203.0.113.0/24")) << "a dual-stack socket's IPv4 client";
    EXPECT_TRUE(Service::address_in("2001:db8:5::1", "2001:db8::/32"));
    EXPECT_FALSE(Service::address_in("203.0.113.9", "2001:db8::/32"));
}

namespace {

// Not an administrator: every action refused, nothing audited.
void refused_then_granted(Fixture& f, const AdminActor& alice) {
    EXPECT_FALSE(f.svc->is_admin("alice"));
    auto refused = f.svc->kick(alice, "bob", "");
    ASSERT_FALSE(refused.has_value());
    EXPECT_EQ(refused.error(), service::NOT_ADMIN);
    EXPECT_FALSE(f.svc->announce(alice, "hello").has_value());
    EXPECT_TRUE(f.store->audit(10).empty());

    // Granted in the store (as `hisha-server admin grant` does, also while the server runs).
    ASSERT_TRUE(f.store->set_admin("Alice", true, f.env.t));
    EXPECT_TRUE(f.svc->is_admin("alice"));
    EXPECT_TRUE(f.svc->is_admin("ALICE"));
    EXPECT_FALSE(f.svc->is_admin("bob"));
    EXPECT_EQ(f.store->admins(), std::vector<std::string>{"alice"});
}

// A ban of carol: her connections end, her tokens go, her logins are refused.
void user_ban(Fixture& f, const AdminActor& alice) {
    auto carol_ws = std::make_shared<Session>();
    auto carol_token = f.svc->create_token("carol");
    f.svc->connect("carol", carol_ws, "web", "10.0.0.3", *carol_token);
    EXPECT_FALSE(f.svc->ban(alice, BanKind::User, "nobody", 0, "").has_value());
    EXPECT_FALSE(f.svc->ban(alice, BanKind::User, "alice", 0, "").has_value()) << "not oneself";
    auto b = f.svc->ban(alice, BanKind::User, "Carol", 3'600'000, "cheating");
    ASSERT_TRUE(b.has_value()) << b.error();
    EXPECT_EQ(b->target, "carol");
    EXPECT_EQ(b->by, "alice");
    EXPECT_EQ(b->expires, f.env.t + 3'600'000);
    EXPECT_TRUE(carol_ws->ended.find("cheating") != std::string::npos) << carol_ws->ended;
    f.svc->disconnect(carol_ws);  // (as the WebSocket does once it has told its client)
    EXPECT_FALSE(f.svc->token_user(*carol_token));
    AuthReply r = login(f, "10.0.0.3", "carol", "secret");
    EXPECT_EQ(r.status, AuthReply::Status::Banned);
    EXPECT_TRUE(r.error.find("the account carol is banned until") != std::string::npos) << r.error;
    EXPECT_TRUE(r.error.find("cheating") != std::string::npos) << r.error;
    // It expires.
    f.env.t += 3'600'000;
    EXPECT_EQ(login(f, "10.0.0.3", "carol", "secret").status, AuthReply::Status::Ok);
}

// An address ban: a network, its logged-in connections ended, logins and registrations from
// it refused; the administrator's own address cannot be banned.
void address_ban(Fixture& f, const AdminActor& alice) {
    auto bob_text = std::make_shared<Session>();
    f.svc->connect("bob", bob_text, "text", "192.0.2.77");
    EXPECT_FALSE(f.svc->ban(alice, BanKind::Address, "10.0.0.0/8", 0, "").has_value());
    EXPECT_FALSE(f.svc->ban(alice, BanKind::Address, "not-an-address", 0, "").has_value());
    ASSERT_TRUE(f.svc->ban(alice, BanKind::Address, "192.0.2.9/24", 0, "").has_value());
    EXPECT_TRUE(bob_text->ended.find("banned") != std::string::npos);
    f.svc->disconnect(bob_text);
    EXPECT_TRUE(f.svc->ban_of_address("192.0.2.1"));
    EXPECT_FALSE(f.svc->ban_of_address("192.0.3.1"));
    EXPECT_EQ(login(f, "192.0.2.5", "bob", "secret").status, AuthReply::Status::Banned);
    AuthReply reg;
    f.svc->start_register("192.0.2.5", "newbie", "secret", [&reg](const AuthReply& a) { reg = a; });
    EXPECT_EQ(reg.status, AuthReply::Status::Banned);
    EXPECT_EQ(login(f, "192.0.3.5", "bob", "secret").status, AuthReply::Status::Ok);
    ASSERT_EQ(f.svc->bans().size(), 1u);
    EXPECT_EQ(f.svc->bans()[0].target, "192.0.2.0/24");
    EXPECT_FALSE(f.svc->unban(alice, BanKind::Address, "192.0.3.0/24").has_value());
    ASSERT_TRUE(f.svc->unban(alice, BanKind::Address, "192.0.2.0/24").has_value());
    EXPECT_EQ(login(f, "192.0.2.5", "bob", "secret").status, AuthReply::Status::Ok);
}

// Kick: every connection of the account here.
void kick(Fixture& f, const AdminActor& alice) {
    auto bob1 = std::make_shared<Session>();
    auto bob2 = std::make_shared<Session>();
    f.svc->connect("bob", bob1, "text", "10.0.0.2");
    f.svc->connect("bob", bob2, "csa", "10.0.0.2");
    auto kicked = f.svc->kick(alice, "bob", "flooding");
    ASSERT_TRUE(kicked.has_value());
    EXPECT_EQ(*kicked, 2);
    EXPECT_EQ(bob1->ended, "disconnected by an administrator: flooding");
    EXPECT_FALSE(f.svc->kick(alice, "carol", "").has_value()) << "not connected";
}

// Announce: everyone connected.
void announce(Fixture& f, const AdminActor& alice, const std::shared_ptr<Session>& everyone) {
    f.svc->connect("carol", everyone, "text", "10.0.0.3");
    auto reached = f.svc->announce(alice, "restart at 10:00");
    ASSERT_TRUE(reached.has_value());
    EXPECT_GE(*reached, 1);
    ASSERT_EQ(everyone->count(EventKind::Announce), 1);
    EXPECT_EQ(everyone->events.back().text, "restart at 10:00");
    EXPECT_EQ(everyone->events.back().from, "alice");
    EXPECT_FALSE(f.svc->announce(alice, "").has_value());
}

// Abort (no result, unrated) and adjudicate (a result, rated).
void abort_and_adjudicate(Fixture& f, const AdminActor& alice, const Session& everyone) {
    auto g1 = f.svc->create_game("bob", "carol", *service::parse_time_control("corr-7"), "web");
    auto g2 = f.svc->create_game("bob", "carol", *service::parse_time_control("corr-7"), "web");
    ASSERT_TRUE(g1 && g2);
    ASSERT_TRUE(f.svc->abort_game(alice, *g1, "server test").has_value());
    EXPECT_EQ(f.svc->game(*g1)->row.status, GameStatus::Aborted);
    EXPECT_FALSE(f.svc->abort_game(alice, *g1, "").has_value()) << "over already";
    EXPECT_FALSE(f.svc->adjudicate(alice, 9999, hisha::core::Winner::Black, "").has_value());
    ASSERT_TRUE(f.svc->adjudicate(alice, *g2, hisha::core::Winner::White, "bob left").has_value());
    EXPECT_EQ(f.svc->game(*g2)->row.winner, "white");
    EXPECT_EQ(f.svc->game(*g2)->row.reason, "adjudication");
    EXPECT_EQ(f.svc->user("carol")->wins, 1);
    EXPECT_EQ(f.svc->user("bob")->losses, 1);
    EXPECT_EQ(everyone.count(EventKind::GameEnded), 2);
}

// Reset a password: the old one no longer works, the new one does, the tokens are gone.
void password_reset(Fixture& f, const AdminActor& alice, const AdminActor& bob) {
    auto bob_token = f.svc->create_token("bob");
    std::optional<service::Reply<void>> reset;
    f.svc->reset_password(alice, "bob", "n3w-pass", [&reset](service::Reply<void> answer) { reset = answer; });
    ASSERT_TRUE(reset && reset->has_value());
    EXPECT_FALSE(f.svc->token_user(*bob_token));
    EXPECT_EQ(login(f, "10.0.0.2", "bob", "secret").status, AuthReply::Status::Refused);
    EXPECT_EQ(login(f, "10.0.0.2", "bob", "n3w-pass").status, AuthReply::Status::Ok);
    f.svc->reset_password(bob, "alice", "whatever", [&reset](service::Reply<void> answer) { reset = answer; });
    EXPECT_FALSE(reset->has_value()) << "bob is no administrator";
}

// The audit log, newest first, kept across a restart; the connections as listed.
void audit_and_revoke(Fixture& f, const AdminActor& alice) {
    f.reopen();
    auto log = f.store->audit(100);
    std::vector<std::string> actions;
    for (auto& a : log)
        actions.push_back(a.action);
    EXPECT_EQ(actions, (std::vector<std::string>{"resetpassword", "adjudicate", "abort", "announce", "kick", "unban",
                                                 "ban", "ban"}));
    EXPECT_EQ(log[0].admin, "alice");
    EXPECT_EQ(log[0].peer, "10.0.0.1");
    EXPECT_EQ(log[0].target, "bob");
    EXPECT_EQ(log.back().target, "user carol");
    EXPECT_EQ(f.store->audit(2).size(), 2u);

    // Revoked: no longer an administrator.
    ASSERT_TRUE(f.store->set_admin("alice", false, f.env.t));
    EXPECT_FALSE(f.svc->is_admin("alice"));
    EXPECT_FALSE(f.svc->announce(alice, "x").has_value());
}

}  // namespace

TEST(Administration, ActionsBansAndTheAuditLog) {
    Fixture f("admin_svc");
    check_administration(f);
}

void hisha::server::test::check_administration(Fixture& f) {
    f.add_users({"alice", "bob", "carol"});
    AdminActor alice{"alice", "10.0.0.1"}, bob{"bob", "10.0.0.2"};
    auto everyone = std::make_shared<Session>();
    ASSERT_NO_FATAL_FAILURE(refused_then_granted(f, alice));
    ASSERT_NO_FATAL_FAILURE(user_ban(f, alice));
    ASSERT_NO_FATAL_FAILURE(address_ban(f, alice));
    ASSERT_NO_FATAL_FAILURE(kick(f, alice));
    ASSERT_NO_FATAL_FAILURE(announce(f, alice, everyone));
    ASSERT_NO_FATAL_FAILURE(abort_and_adjudicate(f, alice, *everyone));
    ASSERT_NO_FATAL_FAILURE(password_reset(f, alice, bob));
    ASSERT_NO_FATAL_FAILURE(audit_and_revoke(f, alice));
}

// A database of the schema before administration (version 2) opens: the migration adds the
// tables, and what it held is there.
TEST(Administration, ADatabaseOfTheSchemaBeforeAdministrationOpens) {
    Fixture f("admin_migrate");
    f.add_users({"alice"});
    auto token = f.svc->create_token("alice");
    ASSERT_NO_FATAL_FAILURE(
        f.reopen_after_sql("DROP TABLE admins; DROP TABLE bans; DROP TABLE audit; DROP INDEX tokens_user;"
                           "ALTER TABLE moves DROP COLUMN comment; DROP INDEX games_tournament;"
                           "ALTER TABLE games DROP COLUMN tournament; ALTER TABLE users DROP COLUMN last_game;"
                           "DROP INDEX games_black; DROP INDEX games_white; ALTER TABLE games DROP COLUMN rating_black;"
                           "ALTER TABLE games DROP COLUMN deviation_black; ALTER TABLE games DROP COLUMN rating_white;"
                           "ALTER TABLE games DROP COLUMN deviation_white; DROP TABLE IF EXISTS conditional_moves;"
                           "UPDATE schema_version SET version=2;"));
    EXPECT_EQ(f.svc->token_user(*token), "alice");
    ASSERT_TRUE(f.store->set_admin("alice", true, 1));
    EXPECT_TRUE(f.svc->is_admin("alice"));
}
