// What the KIF and KI2 targets share: reading the input (an error names a line and a column, a
// record replays through the core), and the round trip: a record written in some format and read
// back must have the same start, the same moves with the same variations, and the same result.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "notation/ki2.h"
#include "notation/kif.h"
#include "notation/record.h"

namespace hisha::notation::fuzz {

inline void same_lines(const std::vector<MoveRecord>& a, const std::vector<MoveRecord>& b) {
    FUZZ_CHECK(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        FUZZ_CHECK(a[i].move == b[i].move);
        FUZZ_CHECK(a[i].variations.size() == b[i].variations.size());
        for (std::size_t v = 0; v < a[i].variations.size(); ++v)
            same_lines(a[i].variations[v].moves, b[i].variations[v].moves);
    }
}

// `with_time`: the format keeps the total time of the game, which must then read back too.
inline void check_written(const GameRecord& rec, const Result<GameRecord, ParseError>& back, bool with_time) {
    if (!back)
        std::fprintf(stderr, "written record does not read: %s\n", back.error().to_string().c_str());
    FUZZ_CHECK(back.has_value());
    FUZZ_CHECK(back->start_sfen == rec.start_sfen);
    same_lines(rec.moves, back->moves);
    FUZZ_CHECK(back->result.reason == rec.result.reason);
    FUZZ_CHECK(back->result.winner == rec.result.winner);
    if (with_time)
        FUZZ_CHECK(back->result.time_ms == rec.result.time_ms || !rec.result.time_ms);
}

// A Japanese record format: its reader and writer, and whether it keeps the game's total time.
struct KifuFormat {
    Result<GameRecord, ParseError> (*read)(std::string_view bytes);
    std::string (*write)(const GameRecord& rec, Encoding enc);
    bool keeps_time;
};
inline constexpr KifuFormat KIF{read_kif, write_kif, true};
inline constexpr KifuFormat KI2{read_ki2, write_ki2, false};

// One input of the target for `format`: its reader must refuse it with an error that names a
// line and a column (or says the input is empty), or give a record that replays through the
// core and reads back the same written in `format` (UTF-8 and Shift_JIS; the total time too
// where the format keeps it) and in `other`.
inline void check_input(const std::uint8_t* data, std::size_t size, const KifuFormat& format, const KifuFormat& other) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto rec = format.read(bytes);
    if (!rec) {
        FUZZ_CHECK(rec.error().code == ParseErrorCode::Empty || (rec.error().line > 0 && rec.error().column > 0));
        return;
    }
    FUZZ_CHECK(final_position(*rec).has_value());
    check_written(*rec, format.read(format.write(*rec, Encoding::Utf8)), format.keeps_time);
    check_written(*rec, format.read(format.write(*rec, Encoding::ShiftJis)), format.keeps_time);
    check_written(*rec, other.read(other.write(*rec, Encoding::Utf8)), false);
}

}  // namespace hisha::notation::fuzz
