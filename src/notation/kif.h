// KIF and KIFU game records (Kakinoki's format, kif.md): headers, 手合割 or a BOD start,
// numbered moves with source squares and time columns, comments, special moves such as 投了,
// and variations (変化). The reader is shared with KI2, which differs only in its move lines.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "notation/encoding.h"
#include "notation/record.h"

namespace hisha::notation {

/// Reads a KIF or KIFU file. The encoding is detected (BOM, `#KIF ... encoding=NAME`, valid
/// UTF-8, else Shift_JIS/CP932). Every move is checked by the core as it is read; the first
/// unreadable or illegal move is an error naming its line, column and the reason.
/// `&` bookmarks are kept as comments that start with '&' (and written back as bookmarks).
Result<GameRecord, ParseError> read_kif(std::string_view bytes);
/// Writes a record as KIF (KIFU when `enc` is UTF-8): headers, 手合割 for the standard
/// handicaps (a BOD for any other start), move lines with times when the record has them,
/// comments, the special move and a まで summary, then the variations. Shift_JIS output uses
/// CR LF line ends, as the Windows programs that read it expect.
std::string write_kif(const GameRecord& rec, Encoding enc = Encoding::Utf8);

namespace detail {

/// The two move syntaxes of Kakinoki's formats.
enum class KakinokiFormat { Kif, Ki2 };

/// Decodes the bytes and reads a KIF or KI2 record.
Result<GameRecord, ParseError> read_kakinoki(std::string_view bytes, KakinokiFormat format);

/// Header lines, with 手合割 or the BOD of the start placed before the players' names.
std::string header_block(const GameRecord& rec);
/// True when the start is a handicap with White to move: the players are then 下手/上手.
bool uses_handicap_names(const GameRecord& rec);
/// `*` lines for comments (a comment that starts with '&' is a bookmark line).
std::string comment_lines(const std::vector<std::string>& comments);
/// Converts the UTF-8 text (LF line ends) to the output encoding (CR LF for Shift_JIS).
std::string encode_output(const std::string& text, Encoding enc);

/// Receives a record's moves in the order KIF and KI2 write them: the main line, then the
/// variations depth-first, the latest branch point first (as Kifu for Windows writes them).
class RecordVisitor {
public:
    virtual ~RecordVisitor() = default;
    /// A move, with the position before it and the cumulative time of its player after it.
    virtual void on_move(const core::Position& before, const MoveRecord& mr, core::Move previous, int ply,
                         std::int64_t cumulative_ms) = 0;
    /// The end of a line: `next_ply` is the ply a special move would take.
    virtual void on_line_end(const core::Position& end, int next_ply, bool main_line,
                             const std::array<std::int64_t, 2>& cumulative_ms) = 0;
    /// A variation starting at `ply` follows.
    virtual void on_variation(int ply) = 0;
};
void walk_record(const GameRecord& rec, RecordVisitor& visitor);

}  // namespace detail

}  // namespace hisha::notation
