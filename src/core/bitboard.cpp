// Bitboard debugging output.
#include "bitboard.h"

namespace hisha::core {

std::string Bitboard::pretty() const {
    std::string s;
    for (int r = 0; r < 9; ++r) {
        for (int f = 8; f >= 0; --f)
            s += test(make_square(File(f), Rank(r))) ? " X" : " .";
        s += '\n';
    }
    return s;
}

}  // namespace hisha::core
