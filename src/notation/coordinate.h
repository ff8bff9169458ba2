// GNU Shogi's move notation (manual, "LEGAL MOVES"): the input forms 7g7f, P7f, Pg7f, P77f,
// P*5e, P'5e, 2d2c+, P2c+ (with `=` to decline), and the output form 7g7f / 2d2c+ / P*5e.
// Also home to the move matcher that the Western reader shares: a MoveSpec (what a notation
// said about a move) is matched against the core's legality, and a failed match is explained.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "notation/record.h"

namespace hisha::notation {

// --- piece letters (English: P L N S G B R K)

/// The letter of a piece type's unpromoted kind ('P' for a pawn and a tokin); ' ' for none.
char piece_letter(core::PieceType pt);
/// The unpromoted piece type of an upper-case letter, NO_PIECE_TYPE if it is none.
core::PieceType piece_from_letter(char upper);
/// "pawn", "tokin", "dragon" ...: for messages.
std::string piece_name(core::PieceType pt);

// --- the shared matcher

/// What a notation said about a move; every field left open matches anything.
struct MoveSpec {
    enum class Capture { Any, Yes, No };
    enum class Promotion { Open, Promote, Decline };

    core::PieceType piece = core::NO_PIECE_TYPE;  // as written; NO_PIECE_TYPE: only squares given
    bool base_letter = false;  // GNU: an unpromoted letter also names its promoted piece (P5c moves a tokin)
    int from_file = -1;        // 0..8 (file 1..9), -1 when not given
    int from_rank = -1;        // 0..8 (rank a..i), -1 when not given
    bool drop = false;
    Capture capture = Capture::Any;
    core::Square to = core::SQ_NONE;
    Promotion promotion = Promotion::Open;
};

/// The legal moves that fit `spec`. An open promotion yields both choices where both exist.
std::vector<core::Move> matching_moves(const core::Position& pos, const MoveSpec& spec);
/// Why no legal move fits `spec`: the core's reason for the closest attempt ("two pawns on
/// file 5", "the piece on 8h cannot move to 3c", "no Black pawn can move to 7f" ...).
std::string explain_no_match(const core::Position& pos, const MoveSpec& spec);
/// True when the move could promote (a P, L, N, S, B or R that starts or ends in its zone).
bool promotion_possible(const core::Position& pos, core::Move m);

// --- GNU Shogi input

/// How a move typed in GNU Shogi's notation failed.
enum class MoveInputStatus {
    Syntax,           // not a move in this notation
    Illegal,          // well formed, but no legal move fits; the message gives the core's reason
    Ambiguous,        // several pieces fit (`candidates` lists them)
    PromotionChoice,  // the input left an optional promotion open: ask (`candidates` = both)
};

/// A ParseError with what an interactive program needs to go on: the kind of failure and the
/// legal moves that fitted.
struct MoveInputError : ParseError {
    MoveInputStatus status = MoveInputStatus::Syntax;
    std::vector<core::Move> candidates;
};

/// Reads one move typed in GNU Shogi's notation. Without `+` or `=`, a move that may promote
/// but need not is refused with PromotionChoice (a file reader decides it; a player is asked).
/// Errors point at `line` and at the 1-based column of the offending character, counted from
/// `column` (the column of text[0]).
core::Result<core::Move, MoveInputError> parse_coordinate(const core::Position& pos, std::string_view text,
                                                          int line = 1, int column = 1);
/// Every legal move the input can mean (both promotion choices when it leaves one open), for
/// an interactive program that offers a choice; empty when none fits.
Result<std::vector<core::Move>, ParseError> coordinate_candidates(const core::Position& pos, std::string_view text,
                                                                  int line = 1, int column = 1);
/// Reads the input into a MoveSpec (no legality); shared with the game-file reader.
Result<MoveSpec, ParseError> parse_coordinate_spec(std::string_view text, int line = 1, int column = 1);

/// GNU Shogi's output form: "7g7f", "2d2c+", "P*5e" (the same letters as USI).
std::string write_coordinate(core::Move m);
/// "7g7f, 8h2b+": moves joined for messages.
std::string join_coordinates(const std::vector<core::Move>& moves);

}  // namespace hisha::notation
