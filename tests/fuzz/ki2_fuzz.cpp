// libFuzzer target for the KI2 reader: any bytes go to read_ki2, which must never crash and,
// on error, must name a line and a column. An accepted record must replay through the core,
// and writing it (KI2 in UTF-8 and Shift_JIS, and KIF) and reading that back must give the
// same start, moves and result.
#include <cstdint>

#include "kifu_round_trip.h"

using namespace hisha::notation::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    check_input(data, size, KI2, KIF);
    return 0;
}
