// The `edit` sub-protocol.
#include "board_editor.h"

#include <cctype>

#include "notation/coordinate.h"

namespace hisha::play {

using namespace hisha::core;
using core::unexpected;

const char* const BoardEditor::HELP[4] = {".   Exit to main", "#   Clear board", "c   Change sides",
                                          "enter piece & location:"};

BoardEditor::BoardEditor(const Position& pos) {
    for (Square s = SQ_11; s < SQ_NB; ++s)
        board_[s] = pos.piece_on(s);
    for (Color c : {BLACK, WHITE})
        for (int pt = PAWN; pt <= GOLD; ++pt)
            hand_[c][pt] = pos.hand(c).count(PieceType(pt));
}

core::Result<BoardEditor::Step, std::string> BoardEditor::apply(std::string_view token) {
    if (token == ".")
        return Step::Done;
    if (token == "#") {
        for (Piece& p : board_)
            p = NO_PIECE;
        for (auto& h : hand_)
            for (int& n : h)
                n = 0;
        return Step::Continue;
    }
    if (token == "c" || token == "C") {
        color_ = ~color_;
        return Step::Continue;
    }
    bool promoted = false;
    if (token.size() > 1 && token[0] == '+') {
        promoted = true;
        token.remove_prefix(1);
    }
    PieceType pt = token.empty() ? NO_PIECE_TYPE : notation::piece_from_letter(char(std::toupper(token[0])));
    if (pt == NO_PIECE_TYPE)
        return unexpected("# Invalid piece type '" + std::string(token.substr(0, 1)) + "'");
    if (token.size() == 2 && token[1] == '*') {
        if (pt == KING || promoted)
            return unexpected("# Invalid piece type '" + std::string(token.substr(0, 1)) + "' in hand");
        ++hand_[color_][pt];
        return Step::Continue;
    }
    std::string_view sq = token.substr(1);
    if (!sq.empty() && sq.back() == '+') {
        promoted = true;
        sq.remove_suffix(1);
    }
    if (sq.size() != 2 || sq[0] < '1' || sq[0] > '9' || sq[1] < 'a' || sq[1] > 'i')
        return unexpected("# Out-of-board position '" + std::string(sq) + "'");
    if (promoted && !can_promote(pt))
        return unexpected("# Invalid piece type '" + std::string(token.substr(0, 1)) + "' promoted");
    Square s = make_square(File(sq[0] - '1'), Rank(sq[1] - 'a'));
    board_[s] = make_piece(color_, promoted ? promote(pt) : pt);
    return Step::Continue;
}

std::string BoardEditor::sfen(Color side) const {
    static const char* const LETTERS = " PLNSBRGK";
    std::string out;
    for (int r = RANK_1; r <= RANK_9; ++r) {
        int empty = 0;
        for (int f = FILE_9; f >= FILE_1; --f) {
            Piece pc = board_[make_square(File(f), Rank(r))];
            if (pc == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty)
                out += std::to_string(empty);
            empty = 0;
            PieceType pt = type_of(pc);
            if (is_promoted(pt))
                out += '+';
            char c = LETTERS[unpromote(pt) == KING ? KING : unpromote(pt)];
            out += color_of(pc) == BLACK ? c : char(std::tolower(c));
        }
        if (empty)
            out += std::to_string(empty);
        if (r != RANK_9)
            out += '/';
    }
    out += side == BLACK ? " b " : " w ";
    std::string hands;
    for (Color c : {BLACK, WHITE})
        for (PieceType pt : HAND_ORDER) {
            int n = hand_[c][pt];
            if (n == 0)
                continue;
            if (n > 1)
                hands += std::to_string(n);
            char l = LETTERS[pt];
            hands += c == BLACK ? l : char(std::tolower(l));
        }
    return out + (hands.empty() ? "-" : hands) + " 1";
}

}  // namespace hisha::play
