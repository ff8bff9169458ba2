// Japanese shogi vocabulary shared by the KIF, KI2 and BOD formats (and by the web UI): piece
// names, full-width and kanji numerals, squares such as ７六, the side marks ▲△, the text of a
// move in KIF style (７六歩(77)) and in KI2 style (▲７六歩, with 右/左/直/上/寄/引/打 exactly as
// the JSA rules require), and the special-move words and まで summaries that say how a game ended.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/move.h"
#include "core/position.h"
#include "notation/record.h"

namespace hisha::notation {

// --- UTF-8 text
/// Removes the first code point of s and returns it (U+FFFD for a malformed byte, 0 when empty).
char32_t pop_code_point(std::string_view& s);
int code_point_count(std::string_view s);
/// Columns on a terminal: 2 for full-width (CJK) characters, 1 otherwise.
int display_width(std::string_view s);
/// Removes `prefix` from the front of s when s starts with it.
bool consume(std::string_view& s, std::string_view prefix);
/// Without leading and trailing ASCII whitespace and ideographic spaces (U+3000).
std::string_view trim_spaces(std::string_view s);
std::string_view skip_spaces(std::string_view s);

// --- pieces
/// The name used in moves: 歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍.
std::string_view piece_kanji(core::PieceType pt);
/// One character, used on BOD boards and in hands: 杏 圭 全 for the promoted minors.
std::string_view piece_char(core::PieceType pt);
/// Reads a piece name at the front of s (王/玉, 竜/龍, 杏/圭/全 and 成香/成桂/成銀 accepted).
std::optional<core::PieceType> read_piece(std::string_view& s);

// --- numbers and squares
std::string_view zenkaku_digit(int n);  // 1..9 -> "１".."９"
std::string_view kanji_digit(int n);    // 1..9 -> "一".."九"
/// 1..99 in kanji ("二", "十", "十八"), as hand counts are written.
std::string kanji_number(int n);
/// One digit 1..9 written in ASCII, full width or kanji.
std::optional<int> read_digit(std::string_view& s);
/// A count in kanji (一 .. 九十九) or in ASCII/full-width digits.
std::optional<int> read_number(std::string_view& s);
/// "７六": full-width file and kanji rank.
std::string square_name(core::Square sq);
/// A destination square: file then rank, each in ASCII, full-width or kanji digits.
std::optional<core::Square> read_square(std::string_view& s);
/// The square of a Japanese file (1..9) and rank (1..9).
constexpr core::Square square_of(int file, int rank) {
    return core::make_square(core::File(file - 1), core::Rank(rank - 1));
}

// --- sides
std::string_view side_mark(core::Color c);  // ▲ △
/// ▲☗▼ for Black, △☖▽ for White.
std::optional<core::Color> read_side_mark(std::string_view& s);
/// 先手/後手, or 下手/上手 in a handicap game.
std::string_view side_name(core::Color c, bool handicap);

// --- moves
/// KIF style: "７六歩(77)", "同　歩(23)", "２三歩打", "７七角成(22)"; `previous` gives 同.
std::string kif_move_text(const core::Position& pos, core::Move m, core::Move previous = core::Move::none());
/// KI2 style: "▲７六歩", "△５二金右", "▲同　銀", "▲４五銀打", "▲２二角不成".
std::string ki2_move_text(const core::Position& pos, core::Move m, core::Move previous = core::Move::none(),
                          bool with_mark = true);

/// A move read from text and how many bytes of the text it took.
struct ParsedMove {
    core::Move move;
    std::size_t length = 0;
};
/// Reads a KIF move at the front of `text` and checks it with the core. Errors carry the
/// 1-based column within `text` (line 0): the caller places them in its file.
Result<ParsedMove, ParseError> parse_kif_move(const core::Position& pos, std::string_view text, core::Move previous);
/// Reads one KI2 move (the whole of `text`, an optional side mark first) and resolves
/// 右/左/直/上/寄/引/打 against the pieces that can reach the square.
Result<core::Move, ParseError> parse_ki2_move(const core::Position& pos, std::string_view text, core::Move previous);

// --- how a game ended
/// The result a KIF special move (投了, 中断, 千日手 ...) stands for, with `stm` to move.
/// nullopt for a word that is not a special move; a result with reason None for 不詰 (a tsume
/// answer that the record model has no result for).
std::optional<RecordResult> result_from_special(std::string_view word, core::Color stm);
/// The KIF special move for a result ("" when there is none).
std::string_view special_word(const RecordResult& r, core::Color stm);
/// "まで117手で先手の勝ち" for a result after `moves` moves ("" when there is none).
std::string summary_text(const RecordResult& r, int moves, core::Color stm, bool handicap);
/// The result a まで line states (KI2 has no other place for it); nullopt for free text.
std::optional<RecordResult> result_from_summary(std::string_view line, core::Color stm);

}  // namespace hisha::notation
