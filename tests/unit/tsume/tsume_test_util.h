// Helpers of the tsume tests: the shared problem list (tests/data/vectors/tsume.tsv) and the
// replay of a solver's line through the core.
#pragma once

#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/rules.h"

namespace hisha::tsume::test {

struct Problem {
    std::string id;
    std::string sfen;
    int length = 0;  // plies of the shortest mate, -1: no mate
};

/// How GoogleTest and CTest name a problem (instead of a dump of its bytes).
inline void PrintTo(const Problem& p, std::ostream* os) {
    *os << p.id << " (" << (p.length < 0 ? std::string("no mate") : std::to_string(p.length) + " plies")
        << "): " << p.sfen;
}

inline std::vector<Problem> load_problems() {
    std::vector<Problem> out;
    std::ifstream f(std::string(HISHA_TESTDATA_DIR) + "/tsume.tsv");
    std::string line;
    std::getline(f, line);  // header
    while (std::getline(f, line)) {
        std::vector<std::string> cols;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, '\t');)
            cols.push_back(c);
        if (cols.size() >= 3)
            out.push_back({cols[0], cols[1], std::stoi(cols[2])});
    }
    return out;
}

/// Why `pv` is not a correct mating line of `plies` plies from `sfen` ("" when it is): every
/// attacking move is legal and checks, every defence is legal, the end is checkmate.
inline std::string replay_error(const std::string& sfen, const std::vector<core::Move>& pv, int plies) {
    core::Position pos;
    if (!pos.set(sfen, core::SfenRules::Relaxed))
        return "bad sfen";
    if (int(pv.size()) != plies)
        return "line has " + std::to_string(pv.size()) + " moves, length says " + std::to_string(plies);
    for (std::size_t i = 0; i < pv.size(); ++i) {
        core::Move m = pv[i];
        std::string at = "ply " + std::to_string(i + 1) + " " + core::to_usi(m) + ": ";
        if (!pos.is_legal(m))
            return at + "illegal";
        if (i % 2 == 0 && !pos.gives_check(m))
            return at + "does not check";
        pos.play(m);
    }
    if (!core::is_checkmate(pos))
        return "the final position is not checkmate";
    return "";
}

}  // namespace hisha::tsume::test
