// GameRecord: the one model every record format reads into and writes from: a start
// position (any SFEN, or a named handicap), moves with optional times, comments and
// variations, ordered headers, and how the game ended.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/handicap.h"
#include "core/move.h"
#include "core/parse_error.h"
#include "core/position.h"
#include "core/result.h"

namespace hisha::notation {

using core::ParseError;
using core::ParseErrorCode;
using core::Result;

struct MoveRecord;

/// A sequence of moves: the main line, or a variation that replaces a move of its parent.
struct Line {
    std::vector<MoveRecord> moves;
};

struct MoveRecord {
    core::Move move;
    std::optional<int> time_ms;          // thinking time spent on this move
    std::vector<std::string> comments;   // comments that follow the move
    std::vector<Line> variations;        // alternatives to this move, each starting at its ply
};

/// How a record says the game ended. `actor` is the side that resigned, declared, ran out of
/// time, made the illegal move, sealed the move or interrupted; `time_ms` the time it used.
struct RecordResult {
    core::Winner winner = core::Winner::None;
    core::EndReason reason = core::EndReason::None;
    std::optional<core::Color> actor;
    std::optional<int> time_ms;
};

/// Header keys shared by all formats; a format maps its own keys onto these and keeps any
/// other key under its own name (e.g. "作品名", "$OPENING").
namespace key {
inline constexpr std::string_view BLACK = "black";          // 先手/下手, N+
inline constexpr std::string_view WHITE = "white";          // 後手/上手, N-
inline constexpr std::string_view EVENT = "event";          // 棋戦, $EVENT
inline constexpr std::string_view SITE = "site";            // 場所, $SITE
inline constexpr std::string_view START_TIME = "start";     // 開始日時, $START_TIME ("YYYY/MM/DD HH:MM:SS")
inline constexpr std::string_view END_TIME = "end";         // 終了日時, $END_TIME
inline constexpr std::string_view TIME_CONTROL = "time_control";  // 持ち時間, $TIME_LIMIT / $TIME
inline constexpr std::string_view OPENING = "opening";      // 戦型, $OPENING
inline constexpr std::string_view TITLE = "title";          // 表題, # title line of xshogi files
inline constexpr std::string_view NOTE = "note";            // 備考
}  // namespace key

struct Header {
    std::string key;
    std::string value;
};

struct GameRecord {
    std::string start_sfen{core::START_SFEN};
    std::optional<core::Handicap> handicap;  // set when the start is a standard handicap
    std::vector<Header> headers;             // in file order
    std::vector<std::string> start_comments; // comments before the first move
    std::vector<MoveRecord> moves;           // the main line
    RecordResult result;

    /// The value of a header, or "" when absent.
    std::string header(std::string_view k) const;
    /// Sets (replacing) or adds a header.
    void set_header(std::string_view k, std::string value);
    /// Sets the start from a handicap (its SFEN and name).
    void set_handicap(core::Handicap h);
    /// The moves of the main line, without times and comments.
    std::vector<core::Move> main_line() const;
};

/// The start position of a record (its SFEN is checked when the record is built).
std::unique_ptr<core::Position> start_position(const GameRecord& rec);
/// Replays the main line through the core; on an illegal move, says which ply and why.
Result<std::unique_ptr<core::Position>, ParseError> final_position(const GameRecord& rec);
/// Replays the main line into a Game (so that mate, sennichite ... are judged by the core).
Result<void, ParseError> replay(const GameRecord& rec, core::Game& game);

/// A readable reason for an illegal move in a position: "two pawns on file 5",
/// "the piece on 2h cannot move to 2a" ...
std::string explain_illegal(const core::Position& pos, core::Move m, core::IllegalMove why);

/// A ParseError for an unparsable or illegal move at a place in a file.
ParseError move_error(int line, int column, std::string_view move_text, std::string reason);

}  // namespace hisha::notation
