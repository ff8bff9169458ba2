// The CSA server protocol 1.2.1 (docs/protocols.md) as a line state machine:
// LOGIN (game name in the password as on Floodgate, or x1 mode), Game_Summary, AGREE/REJECT,
// START, moves echoed with their times, %TORYO, %KACHI, keep-alive, the # end messages, and
// the x1 commands %%WHO %%LIST %%SHOW %%CHAT %%GAME %%VERSION %%HELP %%MONITOR2ON %%MONITOR2OFF.
// A move may carry a comment after it (Floodgate's `+7776FU,'* 120 -3334FU`): it is kept with
// the move and relayed only to the clients that monitor the game (%%MONITOR2ON).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "server/proto/shell.h"

namespace hisha::server::proto {

class CsaShell : public Shell, public std::enable_shared_from_this<CsaShell> {
public:
    using Shell::Shell;

    void on_line(std::string_view line) override;
    void on_line_too_long() override;
    void on_disconnect() override;
    void deliver(const service::Event& e) override;

    /// The CSA Game_ID of a game: hisha-<id>+<game name>+<black>+<white>+<start time>.
    static std::string game_id(const service::LiveGame& g);
    /// The even start as CSA P1..P9 lines plus the side to move (Game_Summary's Position).
    static std::string position_block(const core::Position& pos);

private:
    enum class State { Connected, Waiting, Offered, Resuming, Playing };

    void farewell(const std::string& why) override;

    void login(std::string_view line);
    void logged_in(const UserRow& u, const std::string& game_name, int color);
    void command(std::string_view line);  // %% x1 commands
    void game_line(std::string_view line);
    void send_summary(const service::LiveGame& g);
    void send_end(const service::Event& e, const service::LiveGame& g);
    void wait_again();
    // %%MONITOR2ON / %%MONITOR2OFF: a game's record so far, then each move (with its comment)
    // and the end, every line "##[MONITOR2][<Game_ID>] ..." and each group closed by "+OK".
    void monitor_on(const std::string& arg);
    void monitor_off(const std::string& arg);
    void monitor_lines(const std::string& id, const std::vector<std::string>& lines);
    void monitor_record(const service::LiveGame& g);
    void monitor_event(const service::Event& e);
    const service::LiveGame* game_named(const std::string& arg);
    void line(const std::string& text);
    bool my_turn() const;

    State state_ = State::Connected;
    std::string user_;
    bool x1_ = false;
    std::string game_name_;
    int color_pref_ = -1;
    std::int64_t game_ = 0;
    int resume_plies_ = 0;       // Resuming: the moves the Game_Summary listed
    std::string deferred_move_;  // a move sent out of turn (with its comment): played when the turn comes
    std::map<std::int64_t, std::string> monitoring_;  // games monitored (%%MONITOR2ON): id -> Game_ID
};

}  // namespace hisha::server::proto
