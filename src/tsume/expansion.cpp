// Expansion of one node (see expansion.h). Initial numbers follow df-pn+ (GPS Shogi, as in
// KomoringHeights): a check onto a square the defender covers twice, or an interposition the
// defender supports well, starts with a larger proof number.
#include "expansion.h"

#include <algorithm>
#include <tuple>

#include "hands.h"
#include "moves.h"

namespace hisha::tsume {

using namespace core;

namespace {

constexpr PnDn UNIT = 2;
constexpr PnDn EPSILON_DIV = 4;  // epsilon = 1/4

// The number of pieces in a set of a few (attackers of one square): a bit at a time is
// cheaper than the portable build's library call for popcount.
int count_few(Bitboard b) noexcept {
    int n = 0;
    for (std::uint64_t w : b.p)
        for (; w; w &= w - 1)
            ++n;
    return n;
}

std::pair<PnDn, PnDn> initial_pndn(const Position& pos, Move m, bool or_node) noexcept {
    Color us = pos.side_to_move(), them = ~us;
    Square to = m.to();
    int drop = m.is_drop() ? 1 : 0;
    if (or_node) {
        PnDn pn = UNIT, dn = UNIT;
        int attack = count_few(attackers_of(pos, us, to)), defence = count_few(attackers_of(pos, them, to));
        if (defence >= 2)
            pn += UNIT;
        if (attack + drop > defence) {
            dn += UNIT;
        } else if (Piece cap = pos.piece_on(to)) {
            PieceType pt = unpromote(type_of(cap));
            (pt == GOLD || pt == SILVER ? dn : pn) += UNIT;
        } else {
            pn += UNIT;
        }
        return {pn, dn};
    }
    if (pos.piece_on(to) != NO_PIECE)
        return {2 * UNIT, UNIT};
    if (!m.is_drop() && m.from() == pos.king_square(us))
        return {UNIT, UNIT};
    int attack = count_few(attackers_of(pos, them, to)), defence = count_few(attackers_of(pos, us, to));
    if (attack < defence + drop)
        return {2 * UNIT, UNIT};
    return {UNIT, 2 * UNIT};
}

// Moves whose successor in a chain is nearly the same move: drops of the defender (all
// interpositions on one square), and the non-promotions of pieces that may promote.
bool chainable(const Position& pos, Move m, bool or_node) noexcept {
    if (m.is_drop())
        return !or_node;
    Color us = pos.side_to_move();
    PieceType pt = type_of(pos.piece_on(m.from()));
    if (!in_zone(us, m.from()) && !in_zone(us, m.to()))
        return false;
    if (pt == PAWN || pt == BISHOP || pt == ROOK)
        return true;
    return pt == LANCE && relative_rank(us, rank_of(m.to())) == RANK_2;
}

bool same_chain(Move a, Move b) noexcept {
    if (a.is_drop() != b.is_drop())
        return false;
    return a.to() == b.to() && (a.is_drop() || a.from() == b.from());
}

}  // namespace

void Expansion::build_chains(const Position& pos) {
    // The last member of each chain so far (a node has few chains; at most one per move).
    int tails[MAX_MOVES];
    int ntails = 0;
    for (std::size_t i = 0; i < moves_.size(); ++i) {
        if (!chainable(pos, moves_[i], or_node_))
            continue;
        bool joined = false;
        for (int k = 0; k < ntails; ++k) {
            int& t = tails[k];
            if (same_chain(moves_[std::size_t(t)], moves_[i])) {
                next_[std::size_t(t)] = int(i);
                prev_[i] = t;
                t = int(i);
                joined = true;
                break;
            }
        }
        if (!joined)
            tails[ntails++] = int(i);
    }
}

bool Expansion::delayed(std::size_t i) const noexcept {
    for (int p = prev_[i]; p >= 0; p = prev_[std::size_t(p)])
        if (!results_[std::size_t(p)].final())
            return true;
    return false;
}

void Expansion::init(Node& n, int len, bool first_search, TranspositionTable& tt, Convention conv) {
    or_node_ = n.or_node();
    len_ = len;
    first_search_ = first_search;
    conv_ = conv;
    old_child_ = false;
    too_short_ = or_node_ && len < 1;
    Position& pos = n.pos();
    if (too_short_)
        moves_.clear();  // no mate within less than one ply: nothing to look at
    else if (or_node_)
        generate_checks(pos, moves_);
    else
        generate_evasions(pos, conv, moves_);
    std::size_t k = moves_.size();
    // The children's keys first, so that their windows of the TT load while the rest is set up.
    keys_.resize(k);
    for (std::size_t i = 0; i < k; ++i) {
        keys_[i] = n.board_key_after(moves_[i]);
        tt.prefetch(keys_[i]);
    }
    results_.resize(k);
    prev_.assign(k, -1);
    next_.assign(k, -1);
    sum_.assign(k, 1);
    in_play_.assign(k, 0);
    untested_.assign(k, 0);
    idx_.clear();
    delayed_count_ = 0;
    build_chains(pos);
    for (std::size_t i = 0; i < k; ++i) {
        // Every child is looked up, a later member of a chain too (it joins the play at once
        // when the table already settles it). Looking such members up only when they came into
        // play let Shin Togenkyo (a 1205-ply classic) be answered `nomate` after 1.26 M nodes.
        // A delayed member of a chain gets its leaf tests only when it comes into play: most
        // never do (another piece interposed on the same square settles the node first), and
        // at a defender's node with a full hand they were most of the one-ply tests.
        bool waits = delayed(i);
        results_[i] = child_result(n, i, tt, !waits);
        untested_[i] = waits && results_[i].first_visit;
        if (!results_[i].final() && waits) {
            ++delayed_count_;
            continue;
        }
        idx_.push_back(int(i));
        in_play_[i] = 1;
        if (results_[i].phi(or_node_) == 0)
            break;  // the node is settled
    }
    resort();
}

NodeResult Expansion::child_result(Node& n, std::size_t i, TranspositionTable& tt, bool leaf_tests) {
    Position& pos = n.pos();
    int clen = child_len(len_);
    Move m = moves_[i];
    Hand h = n.or_hand_after(m);
    if (int rep = n.repetition_after(keys_[i], h); rep >= 0)
        return NodeResult::make_disproven(h, clen, 1, rep);
    if (!or_node_ && clen < 1)
        return NodeResult::make_disproven(full_hand(), clen, 1);  // the attacker needs a ply to mate
    if (or_node_ && m.is_drop() && m.dropped_piece() != PAWN && m.dropped_piece() != KNIGHT
        && m.dropped_piece() != SILVER && m.dropped_piece() != GOLD)
        sum_[i] = 0;  // long-range drops on one line are much alike: count the hardest
    NodeResult r = tt.look_up(keys_[i], h, clen, n.depth() + 1, n.path_key_after(m), 1, 1, old_child_);
    if (r.first_visit)  // the initial numbers only for a child the table does not know
        std::tie(r.pn, r.dn) = initial_pndn(pos, m, or_node_);
    if (or_node_ || r.final() || !leaf_tests)
        return r;
    // Leaves for the attacker (one or three plies left) are settled at once; a new one gets
    // the one-ply test.
    bool leaf = clen == 1 || clen == 3;
    if (!leaf && !(first_search_ && r.first_visit))
        return r;
    n.do_move(m);
    if (clen == 3) {
        MateProbe3 p = mate_within(pos, conv_, clen);
        r = p.move ? NodeResult::make_proven(p.proof_hand, p.length, 1)
                   : NodeResult::make_disproven(p.disproof_hand, clen, 1);
    } else if (MateProbe p = mate_in_one(pos, conv_); p.move || p.no_check || clen == 1) {
        r = p.move     ? NodeResult::make_proven(p.proof_hand, 1, 1)
          : p.no_check ? NodeResult::make_disproven(remove_checking_pieces(pos, full_hand()), LEN_INF, 1)
                       : NodeResult::make_disproven(p.disproof_hand, 1, 1);
    }
    if (r.final())
        tt.store(n.board_key(), n.or_hand(), n.depth(), n.path_key(), r);
    n.undo_move();
    return r;
}

bool Expansion::better(int a, int b) const noexcept {
    const NodeResult& ra = results_[std::size_t(a)];
    const NodeResult& rb = results_[std::size_t(b)];
    PnDn pa = ra.phi(or_node_), pb = rb.phi(or_node_);
    if (pa != pb)
        return pa < pb;
    if (pa == 0) {
        // Settled for the node: the shortest proof, or the disproof that holds most widely.
        if (or_node_ && ra.len != rb.len)
            return ra.len < rb.len;
        if (!or_node_ && ra.rep_depth != rb.rep_depth)
            return ra.rep_depth > rb.rep_depth;
        if (!or_node_ && ra.len != rb.len)
            return ra.len > rb.len;
    }
    PnDn da = ra.delta(or_node_), db = rb.delta(or_node_);
    if (da != db)
        return da > db;
    return a < b;
}

void Expansion::resort() noexcept {
    // better() is a strict total order (ties go to the lower index), so any sort gives the
    // same order; insertion sort for short lists (after an update only the old best moves).
    if (idx_.size() > 24)
        std::sort(idx_.begin(), idx_.end(), [this](int a, int b) { return better(a, b); });
    for (std::size_t j = 1; j < idx_.size(); ++j) {
        int x = idx_[j];
        std::size_t k = j;
        for (; k > 0 && better(x, idx_[k - 1]); --k)
            idx_[k] = idx_[k - 1];
        idx_[k] = x;
    }
    sum_except_best_ = 0;
    max_except_best_ = 0;
    for (std::size_t j = 1; j < idx_.size(); ++j) {
        std::size_t i = std::size_t(idx_[j]);
        PnDn d = results_[i].delta(or_node_);
        if (sum_[i])
            sum_except_best_ = add_pndn(sum_except_best_, d);
        else
            max_except_best_ = std::max(max_except_best_, d);
    }
}

NodeResult Expansion::current(const Node& n) const {
    const Position& pos = n.pos();
    if (too_short_)
        return NodeResult::make_disproven(full_hand(), len_, 1);
    if (idx_.empty()) {
        if (or_node_)  // no check at all
            return NodeResult::make_disproven(remove_checking_pieces(pos, full_hand()), LEN_INF, 1);
        return NodeResult::make_proven(add_blocking_pieces(pos, Hand()), 0, 1);  // mated
    }
    std::size_t b = std::size_t(idx_[0]);
    const NodeResult& best = results_[b];
    PnDn phi = best.phi(or_node_);
    if (phi == 0)
        return or_node_ ? proven_or(n) : disproven_and(n);
    PnDn bd = best.delta(or_node_);
    PnDn delta = sum_[b] ? add_pndn(add_pndn(sum_except_best_, bd), max_except_best_)
                         : add_pndn(sum_except_best_, std::max(max_except_best_, bd));
    if (delta == 0)
        return or_node_ ? disproven_or(n) : proven_and(n);
    if (delayed_count_ > 0)
        delta = add_pndn(delta, 1);
    std::uint32_t amount = best.amount + std::uint32_t(moves_.size() / 2);
    return or_node_ ? NodeResult::make_unknown(phi, delta, n.or_hand(), len_, amount)
                    : NodeResult::make_unknown(delta, phi, n.or_hand(), len_, amount);
}

NodeResult Expansion::proven_or(const Node& n) const {
    std::size_t b = std::size_t(idx_[0]);
    const NodeResult& best = results_[b];
    Hand proof = hand_before(n.pos(), moves_[b], best.hand);
    return NodeResult::make_proven(proof, parent_len(best.len), best.amount + 1);
}

NodeResult Expansion::disproven_and(const Node& n) const {
    std::size_t b = std::size_t(idx_[0]);
    const NodeResult& best = results_[b];
    Hand disproof = best.hand;
    if (moves_[b].is_drop())
        disproof = keep_defender_drop(n.pos(), moves_[b].dropped_piece(), disproof);
    int rep = best.rep_depth >= n.depth() ? NO_REP : best.rep_depth;
    return NodeResult::make_disproven(disproof, parent_len(best.len), best.amount + 1, rep);
}

NodeResult Expansion::disproven_or(const Node& n) const {
    Hand disproof = full_hand();
    int len = LEN_INF, rep = NO_REP;
    std::uint32_t amount = 1;
    for (int i : idx_) {
        const NodeResult& r = results_[std::size_t(i)];
        disproof = hand_min(disproof, hand_before(n.pos(), moves_[std::size_t(i)], r.hand));
        len = std::min(len, parent_len(r.len));
        rep = std::min(rep, r.rep_depth);
        amount = std::max(amount, r.amount);
    }
    disproof = remove_checking_pieces(n.pos(), disproof);
    if (rep >= n.depth())
        rep = NO_REP;
    return NodeResult::make_disproven(disproof, len, amount + std::uint32_t(idx_.size()), rep);
}

NodeResult Expansion::proven_and(const Node& n) const {
    Hand proof;
    int len = 0;
    std::uint32_t amount = 1;
    for (int i : idx_) {
        const NodeResult& r = results_[std::size_t(i)];
        proof = hand_max(proof, r.hand);
        len = std::max(len, parent_len(r.len));
        amount = std::max(amount, r.amount);
    }
    proof = add_blocking_pieces(n.pos(), proof);
    return NodeResult::make_proven(proof, len, amount + std::uint32_t(idx_.size()));
}

std::pair<PnDn, PnDn> Expansion::child_thresholds(PnDn thpn, PnDn thdn) const noexcept {
    PnDn thphi = or_node_ ? thpn : thdn, thdelta = or_node_ ? thdn : thpn;
    PnDn second = idx_.size() > 1 ? results_[std::size_t(idx_[1])].phi(or_node_) : PNDN_INF;
    // 1 + epsilon (Pawlewicz and Lew): a little beyond the second best, so that the search
    // does not switch back and forth between two siblings of nearly equal numbers.
    PnDn cphi = std::min(thphi, second >= PNDN_MAX ? PNDN_INF : second + 1 + second / EPSILON_DIV);
    PnDn except = sum_except_best_;
    if (sum_[std::size_t(idx_[0])])
        except = add_pndn(except, max_except_best_);
    if (delayed_count_ > 0)
        except = add_pndn(except, 1);
    PnDn cdelta = thdelta > except ? thdelta - except : 0;
    return or_node_ ? std::pair{cphi, cdelta} : std::pair{cdelta, cphi};
}

void Expansion::update_best(Node& n, const NodeResult& r, TranspositionTable& tt) {
    std::size_t b = std::size_t(idx_[0]);
    Move m = moves_[b];
    tt.store(keys_[b], n.or_hand_after(m), n.depth() + 1, n.path_key_after(m), r);
    results_[b] = r;
    results_[b].first_visit = false;
    if (r.delta(or_node_) == 0) {
        // Settled in the child's favour: the next move of its chain comes into play.
        for (int j = next_[b]; j >= 0; j = next_[std::size_t(j)]) {
            std::size_t sj = std::size_t(j);
            if (!in_play_[sj]) {
                if (untested_[sj]) {
                    untested_[sj] = 0;
                    results_[sj] = child_result(n, sj, tt, true);
                }
                idx_.push_back(j);
                in_play_[sj] = 1;
                --delayed_count_;
            }
            if (results_[sj].delta(or_node_) != 0)
                break;
        }
    }
    resort();
}

}  // namespace hisha::tsume
