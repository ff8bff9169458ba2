// The `edit` sub-protocol.
#include "board_editor.h"

#include <cctype>
#include <optional>
#include <vector>

#include "kanji.h"
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

namespace {

bool is_empty_cell(std::string_view cell) { return cell == "-" || cell == "." || cell == " "; }

// The SFEN letter of one cell: GNU's upper case White is SFEN's lower case.
core::Result<std::string, std::string> setup_cell(std::string_view cell) {
    std::string_view piece = cell.substr(cell.size() > 1 && cell[0] == '+' ? 1 : 0);
    if (piece.size() != 1 || std::string_view("PLNSGBRKplnsgbrk").find(piece[0]) == std::string_view::npos)
        return unexpected("'" + std::string(cell)
                          + "' is no piece (P L N S G B R K: upper case White, lower case Black; - or . empty)");
    char c = piece[0];
    char sfen = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : char(std::toupper(c));
    bool promoted = piece.size() < cell.size();
    if (promoted && std::string_view("GKgk").find(c) != std::string_view::npos)
        return unexpected("'" + std::string(cell) + "': that piece does not promote");
    return (promoted ? "+" : "") + std::string(1, sfen);
}

// GNU Shogi's raw board row: two columns a square, ' ' or '+' then the piece or '-'.
std::optional<std::vector<std::string>> raw_board_cells(std::string_view line) {
    std::string row(line);
    if (row.size() == 17)
        row.insert(0, " ");
    if (row.size() != 18)
        return std::nullopt;
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < 18; i += 2) {
        if (row[i] != ' ' && row[i] != '+')
            return std::nullopt;
        cells.push_back(row[i] == '+' ? row.substr(i, 2) : row.substr(i + 1, 1));
    }
    return cells;
}

std::vector<std::string> setup_cells(std::string_view line) {
    if (auto cells = raw_board_cells(line))
        return *cells;
    std::vector<std::string> words;
    for (std::size_t i = 0; i < line.size();) {
        std::size_t j = line.find_first_of(" \t", i);
        if (j == std::string_view::npos)
            j = line.size();
        if (j > i)
            words.emplace_back(line.substr(i, j - i));
        i = j + 1;
    }
    if (words.size() == 9)
        return words;
    std::vector<std::string> chars;  // nine characters (UTF-8 ones whole), blanks included
    for (std::string_view rest = line; !rest.empty();) {
        std::string_view ch = kanji::first_char(rest);
        chars.emplace_back(ch);
        rest.remove_prefix(ch.size());
    }
    while (chars.size() < 9)
        chars.emplace_back(" ");
    return chars;
}

}  // namespace

core::Result<std::string, std::string> setup_rank(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.remove_suffix(1);
    std::vector<std::string> cells = setup_cells(line);
    if (cells.size() != 9)
        return unexpected("'" + std::string(line) + "' is not nine squares");
    std::string rank;
    int empty = 0;
    for (const std::string& cell : cells) {
        if (is_empty_cell(cell)) {
            ++empty;
            continue;
        }
        auto letter = setup_cell(cell);
        if (!letter)
            return unexpected(letter.error());
        if (empty)
            rank += std::to_string(empty);
        empty = 0;
        rank += *letter;
    }
    if (empty)
        rank += std::to_string(empty);
    return rank;
}

}  // namespace hisha::play
