// The round trip the KIF and KI2 targets share: a record written in some format and read back
// must have the same start, the same moves with the same variations, and the same result.
#pragma once

#include <cstdio>
#include <vector>

#include "fuzz_check.h"
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

}  // namespace hisha::notation::fuzz
