// Shared vocabulary of the df-pn mate solver: proof and disproof numbers, mate lengths in plies
// and the result a node reports to its parent. Lengths make the search answer "mate within
// len plies?" rather than "mate at all?", which is what proving the shortest mate needs.
#pragma once

#include <cstdint>

#include "core/hand.h"

namespace hisha::tsume {

using PnDn = std::uint64_t;

/// A proof (pn) or disproof (dn) number of a resolved node. Sums saturate below it, so an
/// unresolved node never looks resolved however large its numbers grow.
inline constexpr PnDn PNDN_INF = PnDn(1) << 56;
inline constexpr PnDn PNDN_MAX = PNDN_INF - 1;

constexpr PnDn add_pndn(PnDn a, PnDn b) noexcept {
    PnDn s = a + b;
    return s >= PNDN_MAX ? PNDN_MAX : s;
}

/// The remaining length of an unlimited search ("mate at any length"); it never shrinks.
inline constexpr int LEN_INF = 0x7fff;
/// rep_depth of a result that does not depend on the path that led to the node.
inline constexpr int NO_REP = 0x7fff;
/// Deepest ply the search visits; deeper nodes count as a (path-dependent) failure to mate.
inline constexpr int MAX_PLY = 3000;

constexpr int child_len(int len) noexcept { return len == LEN_INF ? LEN_INF : len - 1; }
constexpr int parent_len(int len) noexcept { return len >= LEN_INF - 1 ? LEN_INF : len + 1; }

/// What a search of one node found. `len` reads by state: proven = a mate within len plies
/// (the length of the proof found: an upper bound); disproven = no mate within len plies
/// (LEN_INF: none at all); unknown = the remaining length the numbers were computed for.
/// `hand` is the attacker's hand of the proof (the least that still mates), of the disproof
/// (the most that still fails) or, when unknown, the node's own hand.
struct NodeResult {
    PnDn pn = 1;
    PnDn dn = 1;
    core::Hand hand;
    int len = 0;
    /// Disproofs only: the shallowest depth of an ancestor that a repetition in the disproof
    /// returned to. A disproof with rep_depth below the node's depth holds only on this path.
    int rep_depth = NO_REP;
    std::uint32_t amount = 1;  // work spent below the node: the TT keeps the larger
    bool first_visit = false;  // nothing was known about the node before

    bool proven() const noexcept { return pn == 0; }
    bool disproven() const noexcept { return dn == 0; }
    bool final() const noexcept { return pn == 0 || dn == 0; }
    /// phi/delta: the node's numbers seen by the side to move (pn/dn at OR nodes).
    PnDn phi(bool or_node) const noexcept { return or_node ? pn : dn; }
    PnDn delta(bool or_node) const noexcept { return or_node ? dn : pn; }

    static NodeResult make_proven(core::Hand h, int len, std::uint32_t amount) noexcept {
        return {0, PNDN_INF, h, len, NO_REP, amount, false};
    }
    static NodeResult make_disproven(core::Hand h, int len, std::uint32_t amount, int rep = NO_REP) noexcept {
        return {PNDN_INF, 0, h, len, rep, amount, false};
    }
    static NodeResult make_unknown(PnDn pn, PnDn dn, core::Hand h, int len, std::uint32_t amount) noexcept {
        return {pn, dn, h, len, NO_REP, amount, false};
    }
};

/// How the defender may answer and how lengths count.
enum class Convention : std::uint8_t {
    Ordinary,  // every legal reply, futile interpositions included
    Tsume,     // tsume-shogi: futile drop interpositions are not replies (see solver.h)
};

}  // namespace hisha::tsume
