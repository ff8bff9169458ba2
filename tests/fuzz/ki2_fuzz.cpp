// libFuzzer target for the KI2 reader: any bytes go to read_ki2, which must never crash and,
// on error, must name a line and a column. An accepted record must replay through the core,
// and writing it (KI2 in UTF-8 and Shift_JIS, and KIF) and reading that back must give the
// same start, moves and result.
#include <cstdint>
#include <string_view>

#include "kifu_round_trip.h"
#include "notation/ki2.h"
#include "notation/kif.h"

using namespace hisha::notation;
using namespace hisha::notation::fuzz;

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
