// One entry of a game's move list, typed. The store keeps each entry as a text (MoveRow::text,
// the database's form: a USI move, "HANDICAP:L@1a,R@8b", "RESIGN:B"/"RESIGN:W" or "DECLARE");
// decode_row() and row_text() are the one codec between that form and a MoveRecord, replay()
// the one function that plays a move list through the core. A record carries its spellings,
// made once when it is played or replayed: every protocol formats a move from them and none
// parses the row again.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/game.h"
#include "core/move.h"
#include "server/service/reply.h"
#include "server/store/records.h"

namespace hisha::server::service {

enum class MoveKind : std::uint8_t {
    Board,     // a move on the board (or a drop)
    Handicap,  // the removal of White's pieces, the first entry of an even game
    Resign,    // a resignation that UNDO may take back (correspondence)
    Declare,   // an entering-king declaration that won
};

struct MoveRecord {
    int ply = 0;                      // 0-based index in the list
    MoveKind kind = MoveKind::Board;
    core::Color mover = core::BLACK;  // who made it (Resign: who resigned; Handicap: Black)
    core::Move move;                  // Board: the move; none for the others
    Millis spent_ms = 0;              // time charged
    Millis at = 0;                    // wall time (epoch ms) when played
    bool forced = false;              // the first move forced by NEW: cannot be undone
    bool locked = false;              // replayed after an undo: cannot be undone again
    std::string comment;              // the mover's comment, kept with the move (CSA: "* 120 -3334FU")
    // Spellings, made when the record is made:
    std::string text;                 // the stored form (USI, HANDICAP:..., RESIGN:B, DECLARE)
    std::string western;              // P-7f, HANDICAP:L@1a, RESIGN, DECLARE
    std::string csa;                  // +7776FU, %TORYO, %KACHI ("" for a handicap)
    std::string ja;                   // KI2 with its side mark, ▲７六歩 ("" but for board moves)
    std::vector<std::string> notices; // after it: "White's king is checked by 3c." ...
    std::string start_sfen;           // Handicap: the start after the removal

    bool board() const { return kind == MoveKind::Board; }
};

/// What a move changed, worked out once and shared by every listener of the Move event.
struct MoveFacts {
    MoveRecord record;
    bool latest = true;  // the game's last entry when announced: the fields below are its position's
    std::string sfen;    // the position after it
    bool check = false;  // the side to move is in check
};

// --- the codec between a record and its stored row

/// The stored form of a record (MoveRow::text).
std::string row_text(const MoveRecord& r);
/// The row to store for a record.
MoveRow to_row(const MoveRecord& r);
/// Decodes a stored row in the position before it (a board move is read as USI); the
/// record's spellings and notices are left empty (replay() and spell() make them).
Reply<MoveRecord> decode_row(const MoveRow& row, const core::Position& before);
/// Whether a player's text names a handicap removal ("HANDICAP:L@1a,R@8b", "L@1a").
bool is_handicap_text(std::string_view text);
/// A handicap removal as a player gives it ("HANDICAP:L@1a,R@8b", the prefix optional,
/// letters in either case), in the even start with Black to move: its record (canonical text,
/// the start after it).
Reply<MoveRecord> read_handicap(std::string_view text, const core::Position& before);

// --- spellings

/// Fills the spellings of a record that is about to be played: `before` is the position
/// before it, `previous` the board move before it (none if there is none). The notices are
/// made from the position after it (note()).
void spell(MoveRecord& r, const core::Position& before, core::Move previous);
/// The check notices of the position after a move ("White's king is checked by 3c.").
std::vector<std::string> check_notices(const core::Position& after);
/// The Japanese (KI2) spelling of a board move, with its side mark.
std::string ki2_spelling(const core::Position& before, core::Move m, core::Move previous);

// --- replay

/// Plays a record on a game: a board move through the core (false when it is illegal there;
/// its check notices are filled in), a handicap removal as the game's new start, a
/// resignation or a declaration as the game's result.
bool apply(core::Game& game, MoveRecord& r);
/// The one replay of a game's move list: resets `game` to row.start_sfen and plays the first
/// `plies` entries of row.moves (all when -1) through the core, judging as the core does.
/// The records it made, with their spellings; `error` says where it stopped early.
struct Replayed {
    std::vector<MoveRecord> log;
    std::string error;
};
Replayed replay(const GameRow& row, core::Game& game, int plies = -1);

}  // namespace hisha::server::service
