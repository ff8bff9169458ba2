// UsiClient: drives any USI engine as a child process (docs/protocols.md): `usi` with
// its options, `setoption`s, `isready`, `usinewgame`, then `position` + `go` for each move,
// `gameover` at the end and `quit`. Every answer is awaited with a deadline: a missing usiok
// or readyok is a start failure, a missing bestmove is a hang (the engine is killed and
// started afresh for the next game), end of output is a crash.
#pragma once

#include <string>
#include <vector>

#include "engine_player.h"

namespace hisha::protocol {

class UsiClient final : public ChildEnginePlayer {
public:
    explicit UsiClient(EngineSpec spec);

    core::Result<void, std::string> start() override;
    core::Result<void, std::string> new_game(const GameSetup& setup) override;
    MoveReply think(const core::Game& game, const MoveRequest& request) override;
    void game_over(const core::GameResult& result, core::Color me) override;

    /// Option names the engine declared (`option name X ...`).
    const std::vector<std::string>& declared_options() const { return declared_; }

private:
    /// Reads lines until one starts with `word`; false on timeout or end of output.
    bool wait_for(const std::string& word, int timeout_ms, std::string& failure);
    MoveReply read_bestmove(SteadyClock::time_point t0, const MoveRequest& request);
    MoveReply after_deadline(SteadyClock::time_point t0, const MoveRequest& request, MoveReply reply);
    MoveReply crashed(SteadyClock::time_point t0, const std::string& when);
    void note_info(const std::string& line, MoveReply& reply) const;

    std::vector<std::string> declared_;
};

/// `position startpos [moves ...]` or `position sfen <sfen> [moves ...]` for a game.
std::string usi_position_command(const core::Game& game);
/// `go btime .. wtime .. byoyomi ..` (or binc/winc, movestogo, depth, nodes, movetime).
std::string usi_go_command(const engine::Limits& limits);
/// Reads `bestmove X [ponder Y]` into a reply (Move, Resign or Win); false if malformed.
bool parse_bestmove(const std::string& line, MoveReply& reply);

}  // namespace hisha::protocol
