// The `solve` command: a forced mate by the side to move. The df-pn solver of src/tsume was
// not committed when this was written, so this runs the engine in a mate-only mode: the first
// move is restricted to checks and a mate score is reported with its line. It proves a mate
// when it finds one; "no mate found" is a time-limited search, not a proof of absence.
#pragma once

#include <string>
#include <vector>

#include "core/move.h"

namespace hisha::play {

class Session;

struct MateReport {
    bool mate = false;
    int plies = 0;
    std::vector<core::Move> line;
    bool all_checks = false;  // every attacking move of the line gives check (a tsume solution)
    std::string text;         // what the command prints
};

MateReport solve_mate(Session& session, double seconds);

}  // namespace hisha::play
