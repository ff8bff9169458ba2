// Time controls and the server-side game clock. Correspondence games allow a number of days
// per move; real-time games use byoyomi (main time, then a fixed period per move), Fischer
// (an increment after each move) or sudden death. The CSA rule charges whole seconds
// (shogi-server's time_clock.rb); the others charge milliseconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace hisha::server::service {

using Millis = std::int64_t;

enum class TimeKind : std::uint8_t { Correspondence, Byoyomi, Fischer, SuddenDeath };

struct TimeControl {
    TimeKind kind = TimeKind::Correspondence;
    int days_per_move = 7;     // correspondence
    Millis main_ms = 0;        // real-time: each side's main time
    Millis byoyomi_ms = 0;
    Millis increment_ms = 0;
    bool csa_seconds = false;  // charge whole seconds, rounded down (CSA servers)

    bool realtime() const { return kind != TimeKind::Correspondence; }
    /// "corr-7d", "600+10F" style text for lists.
    std::string describe() const;
};

/// Reads "corr", "corr-3" (days), "600-10" (byoyomi s), "600-10F" (Fischer), "300-0"
/// (sudden death): the CSA game-name suffix form, also used by the web API.
std::optional<TimeControl> parse_time_control(std::string_view text);

/// One side's clock reading for a move.
struct Charge {
    Millis spent = 0;       // time charged for the move (whole seconds under CSA)
    Millis remaining = 0;   // main time left after the move (increment added)
    bool flagged = false;   // the side ran out of time before the move arrived
};

/// Charges a move made `elapsed` ms after the turn started with `remaining` main time left.
Charge charge_move(const TimeControl& tc, Millis remaining, Millis elapsed);

/// Milliseconds after the turn start at which the side to move loses on time.
Millis time_allowed(const TimeControl& tc, Millis remaining);

}  // namespace hisha::server::service
