// Mating line extraction (see pv.h). An attacker's node that mates in exactly r plies has no
// child mating within r - 3, so any child proven within r - 1 mates in exactly r - 1; a
// defender's child mates in exactly r - 1 when it cannot be mated within r - 3, which a
// length-limited search decides.
#include "pv.h"

#include <algorithm>

#include "moves.h"

namespace hisha::tsume {

using namespace core;

namespace {

// Checks or evasions of the node, in the solver's order.
std::vector<Move> moves_at(const Searcher& s, Node& n) {
    std::vector<Move> moves;
    if (n.or_node())
        generate_checks(n.pos(), moves);
    else
        generate_evasions(n.pos(), s.convention(), moves);
    return moves;
}

NodeResult query(Searcher& s, Node& n, Move m, int len, bool search) {
    n.do_move(m);
    NodeResult r = search ? s.search_root(n, len) : s.peek(n, len);
    n.undo_move();
    return r;
}

// The attacker's move: a child proven within r - 1, the shortest known.
bool attacker_step(Searcher& s, Node& n, int r, Move& out) {
    std::vector<Move> moves = moves_at(s, n);
    int best = LEN_INF;
    for (bool search : {false, true}) {
        for (Move m : moves) {
            NodeResult c = query(s, n, m, r - 1, search);
            if (c.proven() && c.len < best) {
                best = c.len;
                out = m;
                if (search)
                    return true;
            }
            if (s.stopped())
                return false;
        }
        if (best < LEN_INF)
            return true;
    }
    return false;
}

// Preference among defences of equal length: king moves and captures, moved interpositions,
// drops that are not futile, futile drops.
int defence_rank(Position& pos, Move m) {
    if (m.is_drop())
        return is_futile_drop(pos, m.to(), m.dropped_piece()) ? 3 : 2;
    if (pos.piece_on(m.to()) != NO_PIECE || m.from() == pos.king_square(pos.side_to_move()))
        return 0;
    return 1;
}

std::vector<Move> ranked_defences(const Searcher& s, Node& n) {
    std::vector<Move> moves = moves_at(s, n);
    std::stable_sort(moves.begin(), moves.end(),
                     [&](Move a, Move b) { return defence_rank(n.pos(), a) < defence_rank(n.pos(), b); });
    return moves;
}

int pieces_left_after(Searcher& s, Node& n, Move m, int len) {
    std::vector<Move> rest;
    n.do_move(m);
    bool ok = extract_pv(s, n, len, true, rest);
    for (Move x : rest)
        n.do_move(x);
    int left = ok ? n.pos().hand(n.attacker()).total() : 99;
    for (std::size_t i = 0; i < rest.size(); ++i)
        n.undo_move();
    n.undo_move();
    return left;
}

// The defender's move when the node mates in exactly r: a child that mates in exactly r - 1.
bool exact_defence(Searcher& s, Node& n, int r, Move& out, bool tie_break) {
    std::vector<Move> candidates;
    for (Move m : ranked_defences(s, n)) {
        bool exact = r - 3 < 1;
        if (!exact) {
            NodeResult c = query(s, n, m, r - 3, false);
            if (!c.final())
                c = query(s, n, m, r - 3, true);
            if (s.stopped())
                return false;
            exact = c.disproven();
        }
        if (!exact)
            continue;
        if (!tie_break) {
            out = m;
            return true;
        }
        candidates.push_back(m);
    }
    if (candidates.empty())
        return false;
    // Tsume convention: of equal defences, the one leaving the attacker the fewest pieces.
    out = candidates[0];
    if (candidates.size() > 1 && r <= 63) {
        int best = 100;
        for (Move m : candidates) {
            int left = pieces_left_after(s, n, m, r - 1);
            if (left < best) {
                best = left;
                out = m;
            }
        }
    }
    return true;
}

// The defender's move when the length is only an upper bound: the longest known defence.
bool longest_defence(Searcher& s, Node& n, int r, Move& out) {
    int best = -1;
    for (Move m : ranked_defences(s, n)) {
        NodeResult c = query(s, n, m, r - 1, false);
        if (!c.proven())
            c = query(s, n, m, r - 1, true);
        if (!c.proven())
            return false;
        if (c.len > best) {
            best = c.len;
            out = m;
        }
    }
    return best >= 0;
}

}  // namespace

bool extract_pv(Searcher& s, Node& n, int len, bool exact, std::vector<Move>& pv) {
    pv.clear();
    bool tie_break = exact && s.convention() == Convention::Tsume && n.depth() == 0;
    bool ok = true, mated = false;
    for (int r = len; ok; --r) {
        Move m;
        if (n.or_node()) {
            ok = r >= 1 && attacker_step(s, n, r, m);
        } else {
            if ((mated = moves_at(s, n).empty()))
                break;
            ok = r >= 2 && (exact ? exact_defence(s, n, r, m, tie_break) : longest_defence(s, n, r, m));
        }
        if (ok) {
            pv.push_back(m);
            n.do_move(m);
        }
    }
    for (std::size_t i = 0; i < pv.size(); ++i)
        n.undo_move();
    return ok && mated;
}

}  // namespace hisha::tsume
