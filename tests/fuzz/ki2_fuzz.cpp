// libFuzzer target for the KI2 reader: any bytes go to read_ki2, which must never crash and,
// on error, must name a line and a column. An accepted record must replay through the core,
// and writing it (KI2 in UTF-8 and Shift_JIS, and KIF) and reading that back must give the
// same start, moves and result.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "notation/ki2.h"
#include "notation/kif.h"

using namespace hisha::notation;

namespace {

#define FUZZ_CHECK(cond)                                                                   \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            std::fprintf(stderr, "ki2_fuzz: check failed: %s (line %d)\n", #cond, __LINE__); \
            std::abort();                                                                  \
        }                                                                                  \
    } while (0)

void same_lines(const std::vector<MoveRecord>& a, const std::vector<MoveRecord>& b) {
    FUZZ_CHECK(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        FUZZ_CHECK(a[i].move == b[i].move);
        FUZZ_CHECK(a[i].variations.size() == b[i].variations.size());
        for (std::size_t v = 0; v < a[i].variations.size(); ++v)
            same_lines(a[i].variations[v].moves, b[i].variations[v].moves);
    }
}

void check_written(const GameRecord& rec, const Result<GameRecord, ParseError>& back, bool with_time) {
    if (!back)
        std::fprintf(stderr, "ki2_fuzz: written record does not read: %s\n", back.error().to_string().c_str());
    FUZZ_CHECK(back.has_value());
    FUZZ_CHECK(back->start_sfen == rec.start_sfen);
    same_lines(rec.moves, back->moves);
    FUZZ_CHECK(back->result.reason == rec.result.reason);
    FUZZ_CHECK(back->result.winner == rec.result.winner);
    if (with_time)
        FUZZ_CHECK(back->result.time_ms == rec.result.time_ms || !rec.result.time_ms);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto rec = read_ki2(bytes);
    if (!rec) {
        FUZZ_CHECK(rec.error().code == ParseErrorCode::Empty || (rec.error().line > 0 && rec.error().column > 0));
        return 0;
    }
    FUZZ_CHECK(final_position(*rec).has_value());
    check_written(*rec, read_ki2(write_ki2(*rec)), false);
    check_written(*rec, read_ki2(write_ki2(*rec, Encoding::ShiftJis)), false);
    check_written(*rec, read_kif(write_kif(*rec)), false);
    return 0;
}
