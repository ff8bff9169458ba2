// Session: the state of the interactive program without any input or output: the game (with
// the start position, moves and result judged by the core), the engine, the clocks, the
// experience file, GNU Shogi's option flags and what was recorded for each ply (depth,
// nodes, time, score), which `list` writes.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/game.h"
#include "engine/engine.h"
#include "experience.h"
#include "notation/record.h"
#include "settings.h"
#include "time_control.h"

namespace hisha::play {

/// What is known about one ply of the game.
struct PlyInfo {
    core::Move move;
    bool by_engine = false;
    std::string typed;      // the player's text (xshogi echoes it)
    int depth = 0;
    std::uint64_t nodes = 0;
    int time_ms = 0;
    int score = 0;          // the engine's score for its side
    int clock_before = 0;   // the mover's clock before the move (undo restores it)
};

class Session {
public:
    explicit Session(const Settings& settings);
    ~Session();

    // --- state
    const core::Game& game() const { return game_; }
    const core::Position& position() const { return game_.position(); }
    core::Color side_to_move() const { return position().side_to_move(); }
    Options& options() { return options_; }
    const Options& options() const { return options_; }
    const Settings& settings() const { return settings_; }
    engine::Engine& engine() { return *engine_; }
    GameClocks& clocks() { return clocks_; }
    const GameClocks& clocks() const { return clocks_; }
    Experience& experience() { return experience_; }
    const std::vector<PlyInfo>& plies() const { return plies_; }
    /// Plies since the start or the last set-up (edit, sfen, xget).
    int ply_count() const { return int(game_.moves().size()); }
    /// The side whose turn it is belongs to the program (and it is not in force mode).
    bool computer_to_move() const;

    // --- games and positions
    void new_game();
    void new_game(core::Handicap h);
    /// Starts from an SFEN (edit, sfen, xget); the game's moves are forgotten.
    core::Result<void, std::string> set_position(std::string_view sfen);
    /// Replays a record (get, load); on error nothing changes.
    core::Result<void, std::string> load_record(const notation::GameRecord& rec);
    notation::GameRecord to_record() const;
    /// Sets the time control and resets both clocks.
    void set_time_control(const TimeControl& tc);

    // --- moves
    /// Plays a legal move, charging the running clock; false (nothing changes) if illegal.
    core::Result<void, core::IllegalMove> play(core::Move m, PlyInfo info);
    /// Takes back one ply; false when there is none.
    bool undo();
    /// An entering-king declaration by the side to move; false when it does not hold.
    bool declare();
    void resign(core::Color c);
    /// The move in the chosen notation, written in the position before it.
    std::string move_text(const core::Position& before, core::Move m) const;
    std::string move_text_at(int ply) const;  // ply counted from 0
    /// The limits for the program's next search of the side to move.
    engine::Limits search_limits() const;

    /// Writes the experience file if it changed (game end, exit).
    void save_experience();

private:
    void reset_game_state();

    Settings settings_;
    Options options_;
    std::unique_ptr<engine::Engine> engine_;
    core::Game game_;
    GameClocks clocks_;
    Experience experience_;
    std::vector<PlyInfo> plies_;
};

}  // namespace hisha::play
