// The text protocol's steps that the loopback tests share: a player logged in (or registered),
// logged out, a move played with its confirmation, a challenge offered and accepted.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "server_process.h"

namespace hisha::server::test {

/// A text connection logged in (or registered) as `name` with the password "secret"; the answer
/// to the login (its welcome, the messages left) in `welcome` when wanted.
inline std::unique_ptr<LineClient> text_login(ServerProcess& srv, const std::string& name, bool reg = true,
                                              std::string* welcome = nullptr) {
    auto c = std::make_unique<LineClient>(srv.ports.at("text"));
    c->read_until("hisha> ");
    std::string r = c->cmd((reg ? "REGISTER " : "LOGIN ") + name + " secret");
    EXPECT_TRUE(has(r, "Welcome, " + name)) << r;
    if (welcome)
        *welcome = r;
    return c;
}

/// QUIT, its Bye. read, and the connection closed.
inline void text_quit(std::unique_ptr<LineClient>& c) {
    c->send_line("QUIT");
    c->read_until("Bye.");
    c.reset();
}

/// A move's command (PLAY, HANDICAP) with the <p,o,n,y> confirmation answered y; the reply.
inline std::string confirmed(LineClient& c, const std::string& command) {
    std::string q = c.cmd(command, "<p,o,n,y> ");
    if (!has(q, "<p,o,n,y>"))
        return q;
    return c.cmd("y");
}

/// PLAY with its confirmation; the reply to the move.
inline std::string play(LineClient& c, const std::string& move) { return confirmed(c, "PLAY " + move); }

/// `mover` plays `move` (confirmed): the reply must say "you played <shown>", the move as the
/// server writes it (`move` itself unless given); then the notices waiting for `opponent` are
/// dropped.
inline void play_move(LineClient& mover, LineClient& opponent, const std::string& move, const std::string& shown = {}) {
    std::string r = play(mover, move);
    EXPECT_TRUE(has(r, "you played " + (shown.empty() ? move : shown))) << move << ": " << r;
    opponent.drain();
}

/// `challenger` offers challenge `num` as White (NEW <opponent> W) and `opponent` accepts it, so
/// playing Black: game `num` when every challenge was accepted. The challenger's notices are read
/// up to the acceptance.
inline void start_game_as_white(LineClient& challenger, LineClient& opponent, const std::string& opponent_name,
                                int num = 1) {
    std::string n = std::to_string(num);
    EXPECT_TRUE(has(challenger.cmd("NEW " + opponent_name + " W"), "Challenge " + n + " added"));
    std::string accepted = opponent.cmd("N " + n);
    EXPECT_TRUE(has(accepted, "You accepted challenge " + n) && has(accepted, "game " + n)) << accepted;
    challenger.read_until("accepted challenge " + n);
    challenger.drain();
}

/// RESIGN in the current game `game`, confirmed with yes; the confirmation's question and the
/// answer are checked.
inline void resign(LineClient& c, const std::string& game) {
    EXPECT_TRUE(has(c.cmd("RESIGN", "(yes/no) "), "resign game " + game));
    EXPECT_TRUE(has(c.cmd("yes"), "You resigned game " + game + "."));
}

/// A server over the database `db` with two players registered on the text protocol, alice and
/// bob unless named: `auto [srv, alice, bob] = TwoPlayers(temp_db("tag"));`.
struct TwoPlayers {
    ServerProcess srv;
    std::unique_ptr<LineClient> first, second;

    explicit TwoPlayers(const std::string& db, const std::string& first_name = "alice",
                        const std::string& second_name = "bob")
        : srv(db), first(text_login(srv, first_name)), second(text_login(srv, second_name)) {}
};

}  // namespace hisha::server::test
