// df-pn search (see dfpn.h). The parent expands a child before descending into it, so a
// child seen for the first time whose numbers already exceed its thresholds costs no call.
// Cycles in the graph can make a child return at once with nothing learnt; when a node reads
// a child last reached from a shallower depth, its thresholds are raised just above its own
// numbers (TCA, Kishimoto's threshold controlling algorithm) so that every visit expands.
#include "dfpn.h"

#include <algorithm>

#include <time.h>

namespace hisha::tsume {

double thread_cpu_seconds() noexcept {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

Searcher::Searcher(TranspositionTable& tt, Convention conv, const StopCondition& stop)
    : tt_(tt), conv_(conv), stop_(stop) {
    stack_.resize(MAX_PLY + 2);
}

bool Searcher::should_stop() noexcept {
    if (stopped_ || exhausted_)
        return true;
    if (nodes_ < next_check_)
        return false;
    // Every 128 nodes: in a position full of checks a node can take 25 us, and the engine gives
    // the solver a few milliseconds before each timed move (1,024 nodes overshot them by 25 ms).
    next_check_ = nodes_ + 128;
    if (stop_.max_nodes && nodes_ >= stop_.max_nodes)
        stopped_ = true;
    else if (stop_.stop && stop_.stop->load(std::memory_order_relaxed))
        stopped_ = true;
    else if (std::chrono::steady_clock::now() >= stop_.deadline)
        stopped_ = true;
    else if (stop_.cpu_deadline_s > 0 && thread_cpu_seconds() >= stop_.cpu_deadline_s)
        stopped_ = true;
    exhausted_ = budget_end_ && nodes_ >= budget_end_;
    return stopped_ || exhausted_;
}

NodeResult Searcher::peek(Node& n, int len) {
    bool old = false;
    return tt_.look_up(n.board_key(), n.or_hand(), len, n.depth(), n.path_key(), 1, 1, old);
}

NodeResult Searcher::search_root(Node& n, int len, std::uint64_t budget) {
    stopped_ = exhausted_ = false;
    next_check_ = nodes_;
    budget_end_ = budget ? nodes_ + budget : 0;
    if (NodeResult known = peek(n, len); known.final())
        return known;
    Expansion& ex = stack_[std::size_t(n.depth())];
    ex.init(n, len, true, tt_, conv_);
    // An unlimited search grows its thresholds step by step (keeps the TT focused);
    // a length-limited one runs to the end at once.
    PnDn thpn = len == LEN_INF ? 1 : PNDN_INF, thdn = thpn;
    NodeResult r = ex.current(n);
    while (!r.final() && !should_stop()) {
        r = search(n, thpn, thdn, len, false);
        if (r.final() || stopped_ || exhausted_)
            break;
        thpn = std::clamp<PnDn>(std::max(thpn, r.pn * 2), 1, PNDN_INF);
        thdn = std::clamp<PnDn>(std::max(thdn, r.dn * 2), 1, PNDN_INF);
    }
    tt_.store(n.board_key(), n.or_hand(), n.depth(), n.path_key(), r);
    return r;
}

NodeResult Searcher::search(Node& n, PnDn thpn, PnDn thdn, int len, bool inc_flag) {
    Expansion& ex = stack_[std::size_t(n.depth())];
    ++nodes_;
    max_depth_ = std::max(max_depth_, n.depth());
    NodeResult cur = ex.current(n);
    if (n.depth() >= MAX_PLY && !cur.final())  // too deep: a failure that holds on no path
        return NodeResult::make_disproven(n.or_hand(), len, 1, -1);
    // Step 1. TCA: an old child may send us round a cycle; make sure this visit expands.
    inc_flag = inc_flag || ex.has_old_child();
    if (inc_flag && !cur.final()) {
        thpn = std::max(thpn, std::min(add_pndn(cur.pn, 1), PNDN_INF));
        thdn = std::max(thdn, std::min(add_pndn(cur.dn, 1), PNDN_INF));
    }
    if (tt_.needs_room())
        tt_.make_room();
    // Step 2. Descend into the best child until the node's numbers pass a threshold.
    while (cur.pn < thpn && cur.dn < thdn && !should_stop()) {
        core::Move m = ex.best_move();
        bool first = ex.best_first_visit();
        auto [cthpn, cthdn] = ex.child_thresholds(thpn, thdn);
        int clen = child_len(len);
        n.do_move(m);
        Expansion& child = stack_[std::size_t(n.depth())];
        child.init(n, clen, first, tt_, conv_);
        NodeResult cr = child.current(n);
        if (first)
            inc_flag = false;  // a new node: progress is certain
        if (!first || (cr.pn < cthpn && cr.dn < cthdn))
            cr = search(n, cthpn, cthdn, clen, inc_flag);
        n.undo_move();
        ex.update_best(n, cr, tt_);
        cur = ex.current(n);
    }
    return cur;
}

}  // namespace hisha::tsume
