// Board diagrams in the layout of the 003 help file's INITIAL SET-UP:
//         9  8  7  6  5  4  3  2  1
//       +--+--+--+--+--+--+--+--+--+
//       : l: n: s: g: k: g: s: n: l: a
#include "server/proto/board.h"

#include <cctype>

#include "core/text.h"
#include "notation/coordinate.h"

namespace hisha::server::proto {

using namespace core;

namespace {

constexpr const char* INDENT = "      ";

// Kanji for each piece type (index PieceType); the king differs by side.
const char* kanji(PieceType pt, Color c, const BoardStyle& st, bool simple_gold) {
    switch (pt) {
    case PAWN: return "歩";
    case LANCE: return "香";
    case KNIGHT: return "桂";
    case SILVER: return "銀";
    case GOLD: return "金";
    case BISHOP: return "角";
    case ROOK: return "飛";
    case KING: return c == BLACK ? "玉" : "王";
    case PRO_PAWN: return "と";
    case PRO_LANCE: return simple_gold ? "金" : "杏";
    case PRO_KNIGHT: return simple_gold ? "金" : "圭";
    case PRO_SILVER: return simple_gold ? "金" : "全";
    case HORSE: return "馬";
    case DRAGON: return st.old_dragon ? "龍" : "竜";
    default: return "？";
    }
}

// A full-width Latin letter (U+FF21.. upper, U+FF41.. lower) in UTF-8.
std::string wide_letter(char c) {
    unsigned cp = std::isupper(static_cast<unsigned char>(c)) ? 0xFF21 + unsigned(c - 'A') : 0xFF41 + unsigned(c - 'a');
    std::string s;
    s += char(0xE0 | (cp >> 12));
    s += char(0x80 | ((cp >> 6) & 0x3F));
    s += char(0x80 | (cp & 0x3F));
    return s;
}

// The two columns of one cell.
std::string cell(const Position& pos, Square s, const BoardStyle& st) {
    Piece pc = pos.piece_on(s);
    if (pc == NO_PIECE)
        return "  ";
    PieceType pt = type_of(pc);
    Color c = color_of(pc);
    std::string text;
    if (st.style == 2 || (st.style == 1 && c == BLACK)) {
        text = kanji(pt, c, st, true);
    } else if (st.style == 1) {
        // White in romaji: lower case, promoted upper case, D and H for dragon and horse, K king.
        char letter = notation::piece_letter(unpromote(pt));
        if (pt == KING)
            text = wide_letter('K');
        else if (pt == DRAGON)
            text = wide_letter('D');
        else if (pt == HORSE)
            text = wide_letter('H');
        else
            text = wide_letter(is_promoted(pt) ? letter : char(std::tolower(static_cast<unsigned char>(letter))));
    } else {
        char letter = notation::piece_letter(unpromote(pt));
        if (c == WHITE)
            letter = char(std::tolower(static_cast<unsigned char>(letter)));
        text = std::string(is_promoted(pt) ? "+" : " ") + letter;
    }
    std::string attrs;
    const std::string& side_attr = c == BLACK ? st.black_attr : st.white_attr;
    if (!side_attr.empty())
        attrs = side_attr;
    if (!st.threatened_attr.empty() && pos.attacked_by(~c, s))
        attrs += (attrs.empty() ? "" : ";") + st.threatened_attr;
    if (attrs.empty())
        return text;
    return "\x1b[" + attrs + "m" + text + "\x1b[0m";
}

std::string hand_line(const Position& pos, Color c) {
    std::string s = std::string(INDENT) + (c == BLACK ? "Black" : "White") + " in hand:";
    Hand h = pos.hand(c);
    if (h.empty())
        return s + " nothing";
    for (PieceType pt : HAND_ORDER) {
        int n = h.count(pt);
        if (n == 0)
            continue;
        s += ' ';
        s += notation::piece_letter(pt);
        if (n > 1)
            s += std::to_string(n);
    }
    return s;
}

}  // namespace

std::string draw_board(const Position& pos, const BoardStyle& st, bool from_white) {
    std::string out;
    const char* rule = "+--+--+--+--+--+--+--+--+--+";
    out += hand_line(pos, from_white ? BLACK : WHITE) + "\r\n\r\n";
    out += std::string(INDENT) + "  ";
    for (int i = 0; i < 9; ++i) {
        int file = from_white ? i : 8 - i;
        out += ' ';
        out += char('1' + file);
        out += (i < 8 ? " " : "");
    }
    out += "\r\n";
    out += std::string(INDENT) + rule + "\r\n";
    for (int i = 0; i < 9; ++i) {
        int rank = from_white ? 8 - i : i;
        out += INDENT;
        for (int j = 0; j < 9; ++j) {
            int file = from_white ? j : 8 - j;
            out += ':';
            out += cell(pos, make_square(File(file), Rank(rank)), st);
        }
        out += ": ";
        out += char('a' + rank);
        out += "\r\n";
        out += std::string(INDENT) + rule + "\r\n";
    }
    out += "\r\n" + hand_line(pos, from_white ? WHITE : BLACK) + "\r\n";
    return out;
}

namespace {
constexpr std::pair<const char*, const char*> ATTRIBUTES[] = {
    {"NONE", ""},     {"BOLD", "1"},    {"U", "4"},        {"UNDERLINE", "4"}, {"BLINK", "5"},
    {"REV", "7"},     {"REVERSE", "7"}, {"BLACK", "30"},   {"RED", "31"},      {"GREEN", "32"},
    {"YELLOW", "33"}, {"BLUE", "34"},   {"MAGENTA", "35"}, {"CYAN", "36"},     {"WHITE", "37"},
};
}  // namespace

std::string attribute_code(std::string_view name) {
    std::string up = text::upper(name);
    for (auto& [n, code] : ATTRIBUTES)
        if (up == n)
            return code;
    return "?";
}

std::vector<std::string> attribute_names() {
    std::vector<std::string> out;
    for (auto& [n, code] : ATTRIBUTES)
        out.emplace_back(n);
    return out;
}

}  // namespace hisha::server::proto
