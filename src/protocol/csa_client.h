// CsaClient: plays games on a CSA server (protocol 1.2.1; docs/protocols.md) with
// an engine behind an EnginePlayer (Hisha in-process, or any USI engine): LOGIN, the
// Game_Summary (per-side times, Max_Moves, any start position with moves already played),
// AGREE, START, moves with the server's time accounting mirrored locally, %TORYO/%KACHI when
// the engine resigns or declares, keep-alive while waiting or thinking, the # end messages,
// LOGOUT, and a reconnect after a dropped or refused connection.
#pragma once

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/result.h"
#include "engine_player.h"

namespace hisha::protocol {

/// One side's time as a Game_Summary states it; every figure is in units of unit_ms.
struct CsaTime {
    int unit_ms = 1000;       // Time_Unit: 1sec, 1min, 100msec ...
    long long total = 0;      // Total_Time
    long long byoyomi = 0;    // Byoyomi
    long long increment = 0;  // Increment (Fischer)
    long long least = 0;      // Least_Time_Per_Move
    bool roundup = false;     // Time_Roundup:YES
};

/// A parsed Game_Summary.
struct CsaSummary {
    std::string game_id;
    std::string names[core::COLOR_NB];
    core::Color me = core::BLACK;  // Your_Turn
    int max_moves = 0;             // 0: no limit
    CsaTime time[core::COLOR_NB];
    std::string start_sfen;               // the Position block's start
    std::vector<core::Move> played;       // moves already played (resumed games)
    std::vector<long long> played_units;  // their T<n> times
};

/// Reads the lines between `BEGIN Game_Summary` and `END Game_Summary` (both excluded).
/// Unknown keys are ignored; a missing or malformed Game_ID, Your_Turn or Position, a bad
/// time value or an illegal move in the Position block is an error naming the line.
core::Result<CsaSummary, std::string> parse_game_summary(const std::vector<std::string>& lines);

/// The clocks of a CSA game as the server keeps them (shogi-server's rule): a move charges
/// max(T, Least_Time_Per_Move) units; the main time then grows by the increment and shrinks
/// by the charge, never below zero (byoyomi is not banked).
class CsaClocks {
public:
    void reset(const CsaTime (&time)[core::COLOR_NB]);
    void charge(core::Color c, long long units);
    long long remaining_ms(core::Color c) const { return remaining_[c]; }
    /// Engine limits for the side to move, with `margin_ms` kept back for the network.
    engine::Limits limits(int margin_ms) const;
    /// How long `c` may think before the server's flag falls (all of it, no margin).
    long long allowance_ms(core::Color c) const;

private:
    CsaTime time_[core::COLOR_NB];
    long long remaining_[core::COLOR_NB] = {0, 0};
};

struct CsaClientOptions {
    std::string host = "127.0.0.1";
    int port = 4081;
    std::string user, password;  // the password may be "<game name>,<secret>" (Floodgate)
    int games = 1;               // games to play, one connection each (0: until stopped)
    int margin_ms = 300;         // kept back from every clock for the network
    int depth = 0, nodes = 0;    // fixed search limits instead of the clocks (tests, weak play)
    int keepalive_s = 30;        // an empty line after this much silence (the spec's minimum)
    int reconnects = 5;          // attempts after a failed connect or a dropped connection
    int reconnect_delay_ms = 5000;
    bool comments = true;        // each move with Floodgate's comment: ,'* <score from Black> <pv>
    std::function<void(const std::string&)> log;  // traffic and events ("> LOGIN ...")
};

/// Floodgate's comment for a move the engine chose in `before`: "'* <score> <pv>", the score in
/// centipawns from Black's side (mates as +-(100000 - plies)), the expected line after the
/// move in CSA form (at most 32 moves, up to the first the position does not allow). Empty
/// when the engine gave no score.
std::string floodgate_comment(const core::Position& before, core::Move played, const MoveReply& reply);

/// The outcome of one game as the server announced it.
struct CsaOutcome {
    std::string game_id;
    core::Color me = core::BLACK;
    std::string result;  // "win", "lose", "draw", "censored", "chudan"
    std::string reason;  // the # reason line without '#': "RESIGN", "TIME_UP", "SENNICHITE" ...
    int plies = 0;
};

class CsaClient {
public:
    CsaClient(CsaClientOptions options, EnginePlayer& engine);
    /// Plays options.games games; the error says why it had to stop early.
    core::Result<void, std::string> run();
    const std::vector<CsaOutcome>& outcomes() const { return outcomes_; }

private:
    class Connection;
    class GameLoop;  // one game's moves, the engine's thinking and the server's messages
    enum class Step { Done, Retry, Fatal };
    Step play_one(std::string& error);
    Step wait_for_game(Connection& conn, CsaSummary& summary, std::string& error);
    Step play_game(Connection& conn, const CsaSummary& summary, std::string& error);
    void note(const std::string& line) const;

    CsaClientOptions options_;
    EnginePlayer& engine_;
    std::vector<CsaOutcome> outcomes_;
};

}  // namespace hisha::protocol
