// Board rendering for the interactive displays.
#include "board_view.h"

#include "core/names.h"
#include "kanji.h"
#include "notation/coordinate.h"

namespace hisha::play {

using namespace hisha::core;

namespace {

constexpr EnumName<PieceStyle> PIECE_STYLE_NAMES[] = {
    {PieceStyle::Ascii, "ascii"},
    {PieceStyle::Letters, "letters", {"case"}},
    {PieceStyle::Kanji, "kanji"},
};

// Files from left to right and ranks from top to bottom as the viewer sees them.
File file_at(int column, bool reverse) { return File(reverse ? column : 8 - column); }
Rank rank_at(int row, bool reverse) { return Rank(reverse ? 8 - row : row); }

std::string ascii_cell(Piece pc) {
    if (pc == NO_PIECE)
        return "    ";
    std::string s = is_promoted(type_of(pc)) ? "+" : " ";
    s += color_of(pc) == WHITE ? 'w' : 'b';
    s += notation::piece_letter(type_of(pc));
    return s + " ";
}

std::string letter_cell(Piece pc) {
    if (pc == NO_PIECE)
        return " . ";
    char c = notation::piece_letter(type_of(pc));
    if (color_of(pc) == WHITE)
        c = char(c - 'A' + 'a');
    return std::string(is_promoted(type_of(pc)) ? "+" : " ") + c + " ";
}

std::string kanji_cell(Piece pc) {
    if (pc == NO_PIECE)
        return " ・";
    PieceType pt = type_of(pc);
    std::string name = pt == KING ? (color_of(pc) == WHITE ? "王" : "玉") : kanji::piece(pt);
    return std::string(color_of(pc) == WHITE ? "v" : " ") + name;
}

std::string cell(Piece pc, PieceStyle style) {
    switch (style) {
    case PieceStyle::Ascii: return ascii_cell(pc);
    case PieceStyle::Letters: return letter_cell(pc);
    case PieceStyle::Kanji: return kanji_cell(pc);
    }
    return "";
}

std::string file_header(PieceStyle style, bool reverse) {
    std::string out = style == PieceStyle::Letters ? "   " : " ";
    for (int col = 0; col < 9; ++col) {
        int file = file_at(col, reverse) + 1;
        if (style == PieceStyle::Ascii)
            out += "  " + std::to_string(file) + "  ";
        else if (style == PieceStyle::Letters)
            out += " " + std::to_string(file) + " ";
        else
            out += " " + kanji::file_digit(file);
    }
    while (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

std::string rank_label(Rank r, PieceStyle style) {
    if (style == PieceStyle::Kanji)
        return kanji::rank_digit(r + 1);
    return std::string(style == PieceStyle::Ascii ? "  " : " ") + char('a' + r);
}

std::string border(PieceStyle style) {
    int inner = style == PieceStyle::Ascii ? 44 : 27;
    return "+" + std::string(std::size_t(inner), '-') + "+";
}

std::string board_row(const Position& pos, int row, const BoardStyle& style) {
    Rank r = rank_at(row, style.reverse);
    std::string line = style.pieces == PieceStyle::Letters ? "  |" : "|";
    for (int col = 0; col < 9; ++col) {
        line += cell(pos.piece_on(make_square(file_at(col, style.reverse), r)), style.pieces);
        if (style.pieces == PieceStyle::Ascii)
            line += "|";
    }
    if (style.pieces != PieceStyle::Ascii)
        line += "|";
    if (style.coords)
        line += rank_label(r, style.pieces);
    return line;
}

}  // namespace

const char* piece_style_name(PieceStyle s) { return name_of(PIECE_STYLE_NAMES, s); }

std::optional<PieceStyle> piece_style_named(std::string_view name) { return value_named(PIECE_STYLE_NAMES, name); }

std::string hand_text(Hand h, PieceStyle style) {
    std::string out;
    for (PieceType pt : HAND_ORDER) {
        int n = h.count(pt);
        if (n == 0)
            continue;
        if (!out.empty())
            out += ' ';
        if (style == PieceStyle::Kanji)
            out += kanji::piece(pt) + (n > 1 ? kanji::count(n) : "");
        else
            out += (n > 1 ? std::to_string(n) : "") + notation::piece_letter(pt);
    }
    if (out.empty())
        return style == PieceStyle::Kanji ? "なし" : "-";
    return out;
}

std::string hand_line(const Position& pos, Color c, PieceStyle style) {
    if (style == PieceStyle::Kanji)
        return std::string(c == BLACK ? "先手の持駒：" : "後手の持駒：") + hand_text(pos.hand(c), style);
    return std::string(c == BLACK ? "Black" : "White") + " in hand: " + hand_text(pos.hand(c), style);
}

std::vector<std::string> board_lines(const Position& pos, const BoardStyle& style) {
    std::vector<std::string> lines;
    Color top = style.reverse ? BLACK : WHITE;
    lines.push_back(hand_line(pos, top, style.pieces));
    if (style.coords)
        lines.push_back(file_header(style.pieces, style.reverse));
    std::string edge = (style.pieces == PieceStyle::Letters ? "  " : "") + border(style.pieces);
    lines.push_back(edge);
    for (int row = 0; row < 9; ++row) {
        lines.push_back(board_row(pos, row, style));
        if (style.pieces == PieceStyle::Ascii && !style.compact)
            lines.push_back(edge);
    }
    if (style.pieces != PieceStyle::Ascii || style.compact)
        lines.push_back(edge);
    lines.push_back(hand_line(pos, ~top, style.pieces));
    return lines;
}

int text_width(std::string_view s) { return kanji::columns(s); }

}  // namespace hisha::play
