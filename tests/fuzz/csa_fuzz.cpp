// libFuzzer target for the CSA reader: any bytes go to read_csa, which must never crash and,
// on error, must name a line. An accepted record must replay through the core, and writing it
// in V2.2 and V3.0 and reading that back must give the same start, moves and result.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fuzz_check.h"
#include "notation/csa.h"

using namespace hisha::notation;

namespace {

void check_round_trip(const GameRecord& rec, CsaVersion v) {
    auto back = read_csa(write_csa(rec, v));
    if (!back)
        std::fprintf(stderr, "csa_fuzz: written record does not read: %s\n", back.error().to_string().c_str());
    FUZZ_CHECK(back.has_value());
    FUZZ_CHECK(back->start_sfen == rec.start_sfen);
    FUZZ_CHECK(back->main_line() == rec.main_line());
    FUZZ_CHECK(back->result.winner == rec.result.winner);
    if (v == CsaVersion::V3_0) {
        FUZZ_CHECK(back->result.reason == rec.result.reason);
        for (std::size_t i = 0; i < rec.moves.size(); ++i)
            FUZZ_CHECK(back->moves[i].time_ms == rec.moves[i].time_ms);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto rec = read_csa(bytes);
    if (!rec) {
        FUZZ_CHECK(rec.error().line > 0);
        return 0;
    }
    FUZZ_CHECK(final_position(*rec).has_value());
    check_round_trip(*rec, CsaVersion::V3_0);
    check_round_trip(*rec, CsaVersion::V2_2);
    return 0;
}
