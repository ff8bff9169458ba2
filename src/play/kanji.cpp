// Japanese notation helpers (see kanji.h for why they are wrapped).
#include "kanji.h"

#include "notation/japanese.h"

namespace hisha::play::kanji {

using namespace hisha::core;

std::string piece(PieceType pt) { return std::string(notation::piece_char(pt)); }
std::string file_digit(int file) { return std::string(notation::zenkaku_digit(file)); }
std::string rank_digit(int rank) { return std::string(notation::kanji_digit(rank)); }
std::string count(int n) { return notation::kanji_number(n); }
int columns(std::string_view text) { return notation::display_width(text); }

std::string_view first_char(std::string_view text) {
    std::string_view rest = text;
    notation::pop_code_point(rest);
    return text.substr(0, text.size() - rest.size());
}

std::string move_text(const Position& before, Move m) { return notation::ki2_move_text(before, m, before.last_move()); }

core::Result<Move, std::string> read_move(const Position& pos, std::string_view text, Move previous,
                                          bool* is_illegal) {
    auto ki2 = notation::parse_ki2_move(pos, text, previous);
    if (ki2)
        return *ki2;
    auto kif = notation::parse_kif_move(pos, text, previous);
    if (kif && kif->length == text.size())
        return kif->move;
    if (is_illegal)
        *is_illegal = ki2.error().code == ParseErrorCode::IllegalMove;
    return unexpected(ki2.error().message);
}

}  // namespace hisha::play::kanji
