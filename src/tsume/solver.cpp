// solve(): validation, the first mate, the shortening searches, the line and (tsume
// convention) the uniqueness of the first move. See solver.h for what is implemented.
#include "solver.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <memory>

#include "core/attacks.h"
#include "dfpn.h"
#include "moves.h"
#include "pv.h"
#include "tt.h"

namespace hisha::tsume {

using namespace core;

namespace {

const char* invalid_reason(const Position& pos) {
    Color us = pos.side_to_move();
    Square ksq = pos.king_square(~us);
    if (ksq == SQ_NONE)
        return "the defender has no king";
    if (pos.attackers_to(us, ksq).any())
        return "the defender is in check with the attacker to move";
    return nullptr;
}

// The first mate: the unlimited search, which finds long mates, in turns with searches
// limited to a growing length, which cannot wander down long lines of checks that lead
// nowhere (and whose failures bound the length from below). Both budgets double each round;
// the TT keeps the work of every turn. Returns the first proof, a disproof or a stop.
NodeResult first_mate(Searcher& s, Node& node, int& lower) {
    static constexpr int LENGTHS[] = {7,   11,  15,  19,  23,  27,  31,  39,  47,  55,   63,   79,   95,  111,
                                      127, 159, 191, 255, 319, 383, 511, 639, 767, 1023, 1279, 1535, 2047};
    std::uint64_t budget = 20'000;
    std::size_t next = 0;
    while (true) {
        NodeResult r = s.search_root(node, LEN_INF, budget);
        if (r.final() || s.stopped())
            return r;
        if (next < std::size(LENGTHS)) {
            NodeResult limited = s.search_root(node, LENGTHS[next], budget);
            if (limited.proven())
                return limited;
            if (s.stopped())
                return r;
            if (limited.disproven()) {
                lower = LENGTHS[next];
                ++next;
            }
        }
        budget *= 2;
    }
}

// Shortening: searches limited to L - 2 plies until one fails (or L - 2 is known to fail).
// Returns whether L is proven minimal (false when a limit stopped the search first).
bool shorten(Searcher& s, Node& node, int& length, int lower) {
    while (length > 1 && length - 2 > lower) {
        NodeResult r = s.search_root(node, length - 2);
        if (r.proven() && r.len <= length - 2) {
            length = r.len;
            continue;
        }
        return r.disproven() && r.rep_depth >= 0;
    }
    return true;
}

// Tsume convention: another first move that mates within the length, if any.
Move other_mating_first_move(Searcher& s, Node& node, int length, Move first) {
    std::vector<Move> checks;
    generate_checks(node.pos(), checks);
    for (Move m : checks) {
        if (m == first)
            continue;
        node.do_move(m);
        NodeResult r = s.search_root(node, length - 1);
        node.undo_move();
        if (r.proven())
            return m;
        if (s.stopped())
            break;
    }
    return Move::none();
}

void find_mate(Searcher& s, Node& node, const Limits& limits, Result& out) {
    int lower = 0;  // no mate within `lower` plies
    NodeResult r = first_mate(s, node, lower);
    if (r.disproven() && r.rep_depth >= 0) {
        out.status = Status::NoMate;
        return;
    }
    if (!r.proven())
        return;  // Timeout
    int length = r.len;
    // The first mate's line is read before the shortening searches, which may not end in time
    // (Kotobuki's 611 plies are found in seconds; the proof that nothing shorter exists takes far
    // longer): a stop then still answers with the mate found, marked as not proved shortest.
    std::vector<Move> found;
    bool found_complete = limits.shortest && extract_pv(s, node, length, false, found);
    out.exact = limits.shortest ? shorten(s, node, length, lower) : false;
    out.length = length;
    bool complete = extract_pv(s, node, length, out.exact, out.pv);
    if (!complete) {
        // Stopped while reading the line: fall back to any line within the bound.
        out.exact = false;
        complete = extract_pv(s, node, length, false, out.pv);
    }
    if (!complete && found_complete) {
        out.pv = std::move(found);
        complete = true;
    }
    // Without `shortest` any proven mate is the answer; with it, only the proven shortest.
    out.status = complete && (out.exact || !limits.shortest) ? Status::Mate : Status::Timeout;
    // Not exact, `length` is still a proved bound: a mate within it exists. The line's defender
    // moves are the longest defences the table knows (upper bounds), not proved best, so the line
    // may end sooner; its length is no mate length (long-ran: a 235-ply line under a bound of 433
    // or more, whose remainder after 200 plies needs 59, not 35).
    if (!complete)
        out.pv.clear();
    if (out.status == Status::Mate && limits.convention == Convention::Tsume && !out.pv.empty()) {
        out.other_first_move = other_mating_first_move(s, node, out.length, out.pv[0]);
        out.unique = !out.other_first_move;
    }
}

}  // namespace

Solver::Solver() = default;
Solver::~Solver() = default;

Result solve(const Position& pos, const Limits& limits) {
    Solver solver;
    return solver.solve(pos, limits);
}

Result Solver::solve(const Position& pos, const Limits& limits) {
    auto t0 = std::chrono::steady_clock::now();
    Result out;
    if (const char* why = invalid_reason(pos)) {
        out.status = Status::Error;
        out.error = why;
        return out;
    }
    std::unique_ptr<Position> p = pos.clone();
    StopCondition stop;
    stop.max_nodes = limits.max_nodes;
    stop.stop = limits.stop;
    double cpu0 = thread_cpu_seconds();
    std::uint64_t positions0 = positions_made;
    if (limits.time_limit_s > 0 && limits.cpu_time)
        stop.cpu_deadline_s = cpu0 + limits.time_limit_s;
    else if (limits.time_limit_s > 0)
        stop.deadline = t0 + std::chrono::microseconds(std::int64_t(std::min(limits.time_limit_s, 1e9) * 1e6));
    if (!tt_ || tt_mb_ != limits.memory_mb) {
        tt_.reset();  // free the old table before allocating the new one
        tt_ = std::make_unique<TranspositionTable>(limits.memory_mb);
        tt_mb_ = limits.memory_mb;
    } else {
        tt_->new_search();
    }
    Node node(*p);
    Searcher searcher(*tt_, limits.convention, stop);
    find_mate(searcher, node, limits, out);
    out.nodes = searcher.nodes();
    out.positions = positions_made - positions0;
    out.max_depth = searcher.max_depth();
    out.table_bytes = tt_->bytes();
    out.time_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    out.cpu_time_s = thread_cpu_seconds() - cpu0;
    return out;
}

bool complete_defender_hand(Position& pos) {
    Color defender = ~pos.side_to_move();
    if (!pos.hand(defender).empty())
        return false;
    constexpr PieceType TYPES[7] = {ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN};
    constexpr int FULL[PIECE_TYPE_NB] = {0, 18, 4, 4, 4, 2, 2, 4};
    int count[PIECE_TYPE_NB] = {};
    for (int s = 0; s < SQ_NB; ++s)
        if (Piece pc = pos.piece_on(Square(s)))
            ++count[unpromote(type_of(pc))];
    Hand attacker_hand = pos.hand(~defender);
    std::string hand;
    for (PieceType pt : TYPES) {
        int missing = FULL[pt] - count[pt] - attacker_hand.count(pt);
        int have = attacker_hand.count(pt);
        if (have > 0)
            hand += (have > 1 ? std::to_string(have) : "") + char(defender == WHITE ? "?PLNSBRG"[pt] : "?plnsbrg"[pt]);
        if (missing > 0)
            hand += (missing > 1 ? std::to_string(missing) : "")
                  + char(defender == WHITE ? "?plnsbrg"[pt] : "?PLNSBRG"[pt]);
    }
    if (hand.empty())
        return false;
    std::string sfen = pos.sfen();
    // SFEN fields: board, side, hands, move number.
    std::size_t b = sfen.find(' ', sfen.find(' ') + 1), c = sfen.find(' ', b + 1);
    std::string rebuilt = sfen.substr(0, b + 1) + hand + (c == std::string::npos ? "" : sfen.substr(c));
    return bool(pos.set(rebuilt, SfenRules::Relaxed));
}

std::string format_result(const Result& r, Convention conv) {
    auto line = [](const std::vector<Move>& pv) {
        std::string s;
        for (Move m : pv)
            s += ' ' + to_usi(m);
        return s;
    };
    switch (r.status) {
    case Status::Mate: {
        std::string s = "mate " + std::to_string(r.length) + line(r.pv);
        if (conv == Convention::Tsume)
            s += r.unique ? " unique" : " yozume " + to_usi(r.other_first_move);
        return s;
    }
    case Status::NoMate: return "nomate";
    case Status::Error: return "error " + r.error;
    case Status::Timeout: break;
    }
    if (!r.pv.empty())
        return "timeout mate-found " + std::to_string(r.length) + line(r.pv);
    return "timeout";
}

}  // namespace hisha::tsume
