// The `solve` command: a forced mate by the side to move, found by the df-pn solver of
// src/tsume (shortest mate proven when time allows). `solve ... tsume` reads the position as
// a tsume problem: pieces on neither the board nor the attacker's hand belong to the
// defender, and futile drop interpositions do not count as defences.
#pragma once

#include <string>
#include <vector>

#include "core/move.h"

namespace hisha::play {

class Session;

struct MateReport {
    bool mate = false;
    int plies = 0;
    bool exact = false;             // the length is proven shortest
    std::vector<core::Move> line;
    std::string text;               // what the command prints
};

MateReport solve_mate(Session& session, double seconds, bool tsume_convention);

}  // namespace hisha::play
