// A random legal game for the server benchmarks: `plies` moves in CSA notation, none of which
// ends the game (mate, fourfold repetition, perpetual check), so a server must accept each.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/game.h"
#include "core/movegen.h"
#include "notation/csa.h"

namespace bench {

inline std::vector<std::string> random_game(int plies, std::uint64_t seed) {
    auto next = [&seed] {  // xorshift64*
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        return seed * 2685821657736338717ULL;
    };
    for (;;) {
        hisha::core::Game g;
        std::vector<std::string> out;
        while (int(out.size()) < plies) {
            hisha::core::MoveList<hisha::core::LEGAL, true> list(g.position());
            std::vector<hisha::core::Move> moves;
            for (const auto& sm : list)
                moves.push_back(sm.move);
            bool played = false;
            while (!moves.empty() && !played) {
                std::size_t i = next() % moves.size();
                hisha::core::Move m = moves[i];
                moves.erase(moves.begin() + std::ptrdiff_t(i));
                if (!g.play(m))
                    continue;
                if (g.over()) {
                    g.undo();
                    continue;
                }
                out.push_back(hisha::notation::format_csa_move(m));
                played = true;
            }
            if (!played)
                break;  // a dead end: start over with the generator where it is
        }
        if (int(out.size()) == plies)
            return out;
    }
}

}  // namespace bench
