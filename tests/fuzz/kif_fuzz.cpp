// libFuzzer target for the KIF reader: any bytes go to read_kif, which must never crash and,
// on error, must name a line and a column. An accepted record must replay through the core,
// and writing it (KIFU, Shift_JIS KIF and KI2) and reading that back must give the same start,
// moves and result.
#include <cstdint>

#include "kifu_round_trip.h"

using namespace hisha::notation::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    check_input(data, size, KIF, KI2);
    return 0;
}
