// Two scripted CSA players over 127.0.0.1 in one game, for the CSA loopback tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.h"
#include "protocol/csa_client.h"
#include "server_process.h"

namespace hisha::server::test {

/// alice (Black) and bob (White) in one game, with the Game_Summary each was sent.
struct CsaPair {
    std::unique_ptr<LineClient> black, white;
    std::string game_id, black_summary, white_summary;
};

/// Both log in with password "secret" under one game name, read their summaries and agree
/// (Black with the game's id, White without); returns after both got START.
inline CsaPair start_csa_game(ServerProcess& srv, const std::string& game_name) {
    CsaPair p;
    p.black = std::make_unique<LineClient>(srv.ports.at("csa"));
    p.white = std::make_unique<LineClient>(srv.ports.at("csa"));
    p.black->send_line("LOGIN alice " + game_name + ",secret", "\n");
    EXPECT_TRUE(has(p.black->read_until("\n"), "LOGIN:alice OK"));
    p.white->send_line("LOGIN bob " + game_name + ",secret", "\n");
    EXPECT_TRUE(has(p.white->read_until("\n"), "LOGIN:bob OK"));
    p.black_summary = p.black->read_until("END Game_Summary\n");
    p.white_summary = p.white->read_until("END Game_Summary\n");
    auto at = p.black_summary.find("Game_ID:");
    EXPECT_NE(at, std::string::npos) << p.black_summary;
    if (at == std::string::npos)
        return p;
    p.game_id = p.black_summary.substr(at + 8, p.black_summary.find('\n', at) - at - 8);
    p.black->send_line("AGREE " + p.game_id, "\n");
    p.white->send_line("AGREE", "\n");
    EXPECT_TRUE(has(p.black->read_until("\n"), "START:" + p.game_id));
    EXPECT_TRUE(has(p.white->read_until("\n"), "START:" + p.game_id));
    return p;
}

/// A CSA client logged in with password "secret" and the x1 extension, its login answer read.
inline std::unique_ptr<LineClient> csa_x1_login(int port, const std::string& name) {
    auto c = std::make_unique<LineClient>(port);
    c->send_line("LOGIN " + name + " secret x1", "\n");
    std::string answer = c->read_until("+OK x1\n");
    EXPECT_NE(answer.find("LOGIN:" + name + " OK"), std::string::npos) << answer;
    return c;
}

/// A Game_Summary as a client reads it (its BEGIN Game_Summary line to its END line), parsed.
inline core::Result<protocol::CsaSummary, std::string> parse_summary_read(const std::string& read) {
    std::vector<std::string> inside;
    bool begun = false;
    for (std::string_view line : hisha::text::lines(read)) {
        if (line == "END Game_Summary")
            break;
        if (begun)
            inside.emplace_back(line);
        begun = begun || line == "BEGIN Game_Summary";
    }
    return protocol::parse_game_summary(inside);
}

}  // namespace hisha::server::test
