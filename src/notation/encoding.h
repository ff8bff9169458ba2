// Text encodings of record files: UTF-8 inside Hisha; Shift_JIS (read as CP932, the Windows
// variant that shogi programs write) and EUC-JP at the edges. Conversion uses the C
// library's iconv; detection looks at a BOM, a declared encoding, then the bytes themselves.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"

namespace hisha::notation {

enum class Encoding { Utf8, ShiftJis, EucJp };

/// The encoding of raw file bytes: a UTF-8 BOM, a `#KIF ... encoding=NAME` or
/// `'encoding=NAME` line, else UTF-8 when the bytes are valid UTF-8 or hold several UTF-8
/// characters before the first invalid byte (a UTF-8 file with a fault: to_utf8 then reports
/// where the fault is), else Shift_JIS.
Encoding detect_encoding(std::string_view bytes);
/// Converts to UTF-8 (dropping a BOM). Bytes that do not decode become U+FFFD and the
/// result says where the first one was.
struct Decoded {
    std::string text;
    int bad_line = 0;  // 1-based line of the first undecodable byte, 0 if none
    int bad_column = 0;
};
Decoded to_utf8(std::string_view bytes, Encoding from);
/// Converts UTF-8 text to the encoding; characters it cannot represent become '?'.
std::string from_utf8(std::string_view text, Encoding to);
bool is_valid_utf8(std::string_view s);
const char* encoding_name(Encoding e);

}  // namespace hisha::notation
