// GNU Shogi's `edit` mode: a board set up token by token. `#` clears the board and both
// hands, `c` switches between Black's and White's pieces (Black first), `p3b` puts a pawn on
// 3b, `p3b+` a promoted one, `p*` adds a pawn to the hand, `.` ends. Letters may be of either
// case (xshogi sends upper case for both colours). The result is checked by the core.
#pragma once

#include <string>
#include <string_view>

#include "core/position.h"
#include "core/result.h"

namespace hisha::play {

class BoardEditor {
public:
    /// Starts from `pos` (edit changes the current position unless `#` clears it).
    explicit BoardEditor(const core::Position& pos);

    enum class Step { Continue, Done };
    /// Applies one token; an error is GNU's "# Invalid piece type 'x'" style message.
    core::Result<Step, std::string> apply(std::string_view token);

    core::Color color() const { return color_; }
    /// Puts a piece (or NO_PIECE) on a square directly (evaluation displays).
    void set(core::Square s, core::Piece pc) { board_[s] = pc; }
    /// The edited position as an SFEN with `side` to move (move number 1).
    std::string sfen(core::Color side) const;

    /// The lines GNU Shogi prints when edit mode starts.
    static const char* const HELP[4];

private:
    core::Piece board_[core::SQ_NB];
    int hand_[core::COLOR_NB][core::HAND_TYPE_NB] = {};
    core::Color color_ = core::BLACK;
};

/// One rank of GNU Shogi's `setup` (nine lines, rank a first, file 9 first) as an SFEN rank:
/// nine characters (P L N S G B R K, upper case White, lower case Black as on GNU's raw board;
/// `-`, `.` or a blank for an empty square), a row of GNU's raw board (` -`, `+b`), or nine
/// cells apart (`+P` promoted).
core::Result<std::string, std::string> setup_rank(std::string_view line);

}  // namespace hisha::play
