// The referee: plays one game between two engine players with the core as the judge. Every
// move is checked by core::Game (mate, sennichite, perpetual check, declarations and the ply
// limit are the rules' verdicts); the referee's clock charges each move; an illegal move, a
// flag fall, a crash or a hang ends the game against the engine at fault, with the reason
// recorded. Optional adjudication resigns for an engine whose own score stays hopeless.
#pragma once

#include <atomic>
#include <optional>
#include <string>

#include "core/game.h"
#include "notation/record.h"
#include "openings.h"
#include "protocol/engine_player.h"
#include "time_control.h"

namespace hisha::match {

struct Adjudication {
    int resign_score = 0;  // 0: off; else an engine whose score is <= -resign_score...
    int resign_moves = 0;  // ...on this many of its moves in a row loses by resignation
};

struct GameSettings {
    TimeControl tc[core::COLOR_NB];  // each side's control in this game
    int margin_ms[core::COLOR_NB] = {100, 100};  // latency allowed past the clock before the flag falls
    int move_timeout_ms = 60000;     // the wait for a move when the control has no clock
    int grace_ms = 1000;             // after the deadline, a late answer is still awaited this long
    Adjudication adjudication;
    core::GameRules rules;           // max plies and what happens there
    std::string event = "Hisha match";
    const std::atomic<bool>* cancel = nullptr;  // set: the game is aborted after the current move
};

/// What went wrong, when an engine rather than the rules ended the game.
enum class Failure {
    None,
    IllegalMove,  // a move (or a declaration) the rules refuse, or an unreadable answer
    TimeUp,       // the answer came, but after the clock (plus margin) ran out
    Late,         // no answer by the deadline; it came during the grace after `stop`
    Hang,         // no answer at all: the engine was killed (and is restarted for the next game)
    Crash,        // the engine exited
    StartFailed,  // it could not be started or readied for the game
    Refused,      // the driver could not pass on the game: aborted, not scored
    Claim,        // the engine declared the game over by its own rules and stopped: aborted
    Cancelled,    // the match was stopped
};
const char* describe(Failure f);

struct GameOutcome {
    core::Winner winner = core::Winner::None;  // None: aborted, not scored
    core::EndReason reason = core::EndReason::None;
    Failure failure = Failure::None;
    std::optional<core::Color> culprit;  // the side that failed, resigned or ran out of time
    bool adjudicated = false;
    std::string detail;                  // one line: why the game ended
    notation::GameRecord record;         // the game with times, names and the result
    int plies = 0;
    /// "1-0", "0-1", "1/2-1/2" or "*".
    std::string result_text() const;
};

/// Plays a game from `opening`; `black` and `white` are started or restarted as needed.
GameOutcome play_game(protocol::EnginePlayer& black, protocol::EnginePlayer& white, const Opening& opening,
                      const GameSettings& settings);

}  // namespace hisha::match
