// XshogiClient: drives GNU Shogi (Debian's gnushogi 1.4.2) through the protocol xshogi
// speaks (docs/protocols.md). The program is started afresh for every game,
// as xshogi does, with its time control as arguments (seconds a move, or moves in minutes)
// or with `depth`; the game so far is entered in `force` mode (after an `edit` for any other
// start), then `black`/`white` + `go` (inverted: `white` + `go` makes it play White) starts
// it; later the opponent's moves are sent one at a time, with `time`/`otime` for the
// clocks, and each of its moves is read from a `<n>. ... <move> <ms>` line.
//
// Quirks handled: it never resigns (a move line without a move, or a `... mates!` line
// before its move, is taken as giving up); it may declare a draw by its own count and then
// stop playing (reported as a Claim); a move that repeats a position for the fourth time may
// be swallowed without an echo (reported as Refused, not as a hang); it cannot think less than
// a second a move and counts whole seconds (st < 1 is refused, use depth=N; st=1.5 gives it 1 s). Options (--option NAME:KEY=VALUE):
// `book=PATH|off` (default: Debian's /usr/lib/games/gnushogi/gnushogi.bbk when present),
// `random=on|off` (default on: varied play), `args=...` (extra command-line arguments).
#pragma once

#include <string>

#include "engine_player.h"

namespace hisha::protocol {

class XshogiClient final : public ChildEnginePlayer {
public:
    explicit XshogiClient(EngineSpec spec);

    core::Result<void, std::string> start() override;
    core::Result<void, std::string> new_game(const GameSetup& setup) override;
    MoveReply think(const core::Game& game, const MoveRequest& request) override;
    void game_over(const core::GameResult& result, core::Color me) override;

private:
    core::Result<void, std::string> launch(const std::string& time_args);
    core::Result<std::string, std::string> level_command(const engine::Limits& limits) const;
    bool read(std::string& line, SteadyClock::time_point deadline, ChildProcess::Read& status);
    void drain();
    bool note_claim(const std::string& line);
    void send_edit(const std::string& sfen);
    core::Result<void, std::string> enter_moves(const core::Game& game);
    void send_clocks(const core::Game& game, const engine::Limits& limits);
    MoveReply read_move(const core::Game& game, SteadyClock::time_point t0, const MoveRequest& request,
                        bool expect_echo);
    MoveReply failure(MoveReply::Kind kind, SteadyClock::time_point t0, std::string detail);
    std::string option(const std::string& key, const std::string& fallback) const;

    std::string claim_;  // a game-over line it printed ("Drawn game!")
    core::Color color_ = core::BLACK;
    bool clocked_ = false;   // a clock control: send `time`/`otime` before each move
    bool engaged_ = false;   // it has been told to play (black/white + go) in this game
    std::size_t known_ = 0;  // moves of the game it has seen
};

}  // namespace hisha::protocol
