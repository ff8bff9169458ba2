// BOD: the board diagram of KIF files and of pasted positions (kif.md §7): the hands
// (後手の持駒：飛　金三 ...), nine board rows with `v` marking White's pieces, the side to move
// (先手番/後手番) and the move number (手数＝N). Read into an SFEN, written from any SFEN.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/hand.h"
#include "core/position.h"
#include "notation/record.h"

namespace hisha::notation {

/// Collects the lines of one diagram, in any order, and builds its SFEN. KIF reading feeds it
/// every line before the moves; read_bod() feeds it a whole text.
class BodReader {
public:
    BodReader();
    /// Takes a line that belongs to a diagram: true when taken, false for any other line, an
    /// error (with line and column) for a diagram line that is malformed.
    Result<bool, ParseError> feed(std::string_view line, int line_no);
    /// True once a board row or a hand has been read.
    bool seen() const { return rows_ > 0 || hand_lines_ > 0; }
    bool has_side() const { return side_.has_value(); }
    int first_line() const { return first_line_; }
    /// The SFEN of the diagram (`default_side` to move when no 先手番/後手番 line was given);
    /// an error when the board is incomplete or the position impossible.
    Result<std::string, ParseError> sfen(core::Color default_side) const;

private:
    Result<bool, ParseError> feed_row(std::string_view line, int line_no);
    Result<bool, ParseError> feed_hand(std::string_view text, core::Color c, int line_no, int column);

    core::Piece board_[core::SQ_NB];
    core::Hand hands_[core::COLOR_NB];
    bool rank_seen_[9] = {};
    int rows_ = 0;
    int hand_lines_ = 0;
    int first_line_ = 0;
    int last_row_line_ = 0;
    int move_number_ = 1;
    std::optional<core::Color> side_;
    std::optional<core::Color> rest_to_;  // 残り: this side holds every piece not placed
};

/// Reads a pasted diagram (other lines, such as headers, are skipped) into an SFEN.
Result<std::string, ParseError> read_bod(std::string_view text);
/// The diagram of a position, with 先手番/後手番 and, past the first move, 手数＝N.
std::string write_bod(const core::Position& pos);
/// The diagram of an SFEN (an error when the SFEN is invalid).
Result<std::string, ParseError> write_bod(std::string_view sfen);

}  // namespace hisha::notation
