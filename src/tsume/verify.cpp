// Replay of a mating line through the core (see verify.h).
#include "verify.h"

#include <memory>

#include "core/rules.h"
#include "moves.h"

namespace hisha::tsume {

std::string line_error(const core::Position& start, const std::vector<core::Move>& pv, int plies, Convention conv) {
    if (plies < 1 || plies % 2 == 0)
        return "a mate has an odd number of plies, not " + std::to_string(plies);
    if (int(pv.size()) != plies)
        return "the line has " + std::to_string(pv.size()) + " moves, the length says " + std::to_string(plies);
    std::unique_ptr<core::Position> pos = start.clone();
    for (std::size_t i = 0; i < pv.size(); ++i) {
        core::Move m = pv[i];
        std::string at = "ply " + std::to_string(i + 1) + " " + core::to_usi(m) + ": ";
        if (!pos->is_legal(m))
            return at + "illegal";
        if (i % 2 == 0 && !pos->gives_check(m))
            return at + "does not check";
        pos->play(m);
    }
    if (core::is_checkmate(*pos))
        return "";
    if (conv == Convention::Tsume && !has_evasion(*pos, conv))
        return "";  // only futile interpositions left
    return "the final position is not checkmate";
}

}  // namespace hisha::tsume
