// libFuzzer target for the KIF reader: any bytes go to read_kif, which must never crash and,
// on error, must name a line and a column. An accepted record must replay through the core,
// and writing it (KIFU, Shift_JIS KIF and KI2) and reading that back must give the same start,
// moves and result.
#include <cstdint>
#include <string_view>

#include "kifu_round_trip.h"
#include "notation/ki2.h"
#include "notation/kif.h"

using namespace hisha::notation;
using namespace hisha::notation::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    auto rec = read_kif(bytes);
    if (!rec) {
        FUZZ_CHECK(rec.error().code == ParseErrorCode::Empty || (rec.error().line > 0 && rec.error().column > 0));
        return 0;
    }
    FUZZ_CHECK(final_position(*rec).has_value());
    check_written(*rec, read_kif(write_kif(*rec)), true);
    check_written(*rec, read_kif(write_kif(*rec, Encoding::ShiftJis)), true);
    check_written(*rec, read_ki2(write_ki2(*rec)), false);
    return 0;
}
