// The search. Worker::search follows Stockfish's step structure, adapted to shogi rules.
#include "search.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "core/attacks.h"
#include "core/movegen.h"
#include "core/rules.h"
#include "mate1ply.h"
#include "movepick.h"
#include "see.h"
#include "tsume/solver.h"

namespace hisha::engine {

using namespace core;

namespace {
// Late-move reduction table, indexed by depth and move number, in 1/1024 of a ply.
struct Reductions {
    int r[64][64];
    Reductions() {
        for (int d = 1; d < 64; ++d)
            for (int m = 1; m < 64; ++m)
                r[d][m] = int(1024 * (0.5 + std::log(double(d)) * std::log(double(m)) / 2.1));
    }
};
const Reductions REDUCTIONS;
int reduction1024(Depth d, int move_count) { return REDUCTIONS.r[std::min(d, 63)][std::min(move_count, 63)]; }
int reduction(Depth d, int move_count) { return reduction1024(d, move_count) / 1024; }

int stat_bonus(Depth d) { return std::min(16 * d * d + 100 * d - 80, 1600); }
bool is_capture(const Position& pos, Move m) { return !m.is_drop() && pos.piece_on(m.to()) != NO_PIECE; }

// Whether a df-pn mate search is worth its nodes: the enemy king is short of room (at most two
// squares to step to that are neither attacked nor its own) and two of its squares are attacked
// (three without a piece in hand to drop). A castled king has few squares of its own, so the
// attacks are what marks danger.
bool mate_plausible(const Position& p) {
    Color us = p.side_to_move(), them = ~us;
    Square k = p.king_square(them);
    if (k == SQ_NONE)
        return false;
    int attacked = 0, free = 0;
    for (Bitboard b = KING_ATTACKS[k]; b.any();) {
        Square s = b.pop_lsb();
        if (p.attacked_by(us, s))
            ++attacked;
        else if (!p.pieces(them).test(s))
            ++free;
    }
    return free <= 2 && attacked >= (p.hand(us).empty() ? 3 : 2);
}

// The correction-history slots of a position: a hash of the pawns of each side on the board,
// and of the hands.
int pawn_slot(const Position& p) {
    Bitboard b = p.pieces(BLACK, PAWN), w = p.pieces(WHITE, PAWN);
    std::uint64_t h = (b.p[0] * 0x9E3779B97F4A7C15ULL) ^ (b.p[1] * 0xC2B2AE3D27D4EB4FULL)
                    ^ (w.p[0] * 0x165667B19E3779F9ULL) ^ (w.p[1] * 0xD6E8FEB86659FD93ULL);
    return int(h >> 50);
}
int hand_slot(const Position& p) { return int((p.hand_key() * 0x9E3779B97F4A7C15ULL) >> 50); }
static_assert(History::CORRECTION_SIZE == 1 << 14);

// pv = m followed by the child's PV (none-terminated).
void update_pv(Move* pv, Move m, const Move* child) {
    *pv++ = m;
    if (child)
        while (*child)
            *pv++ = *child++;
    *pv = Move::none();
}

// A node's transposition-table entry as both searches read it: the key, the data, the slot the
// node's result is stored into, and the value made relative to this ply.
struct TTProbe {
    Key key;
    TTData tt;
    TranspositionTable::Entry* slot;
    bool hit;
    Value value;
};
TTProbe probe_tt(TranspositionTable& table, const Position& p, int ply) {
    TTProbe r{p.key(), {}, nullptr, false, VALUE_NONE};
    r.hit = table.probe(r.key, r.tt, r.slot);
    if (r.hit)
        r.value = value_from_tt(r.tt.value, ply);
    return r;
}

// Whether an entry at least `depth` deep holds a bound that settles the node against beta.
bool tt_cuts(bool hit, const TTData& tt, Value tt_value, Depth depth, Value beta) {
    return hit && tt.depth >= depth && tt_value != VALUE_NONE
        && (tt.bound & (tt_value >= beta ? BOUND_LOWER : BOUND_UPPER));
}
}  // namespace

// --- Worker

Worker::Worker(ThreadPool& pool, int idx) : index(idx), pool_(pool), stack_(MAX_PLY + 10) { history_.clear(); }

Worker::~Worker() = default;

void Worker::start_search() {
    completed_depth = 0;
    sel_depth = 0;
    calls_ = 0;
    prepare_evaluation();
    iterative_deepening();
}

void Worker::iterative_deepening() {
    Stack* ss = &stack_[4];  // room for ss - 4 .. ss - 1 sentinels
    Move root_pv[MAX_PLY + 1];
    for (int i = 0; i < int(stack_.size()); ++i) {
        stack_[i].ply = i - 4;
        stack_[i].current_move = Move::none();
        stack_[i].killers[0] = stack_[i].killers[1] = Move::none();
        stack_[i].excluded_move = Move::none();
        stack_[i].static_eval = VALUE_NONE;
        stack_[i].pv = nullptr;
        stack_[i].cont_hist = &history_.continuation[0][0];
    }
    ss->pv = root_pv;
    int multipv = std::min<int>(pool_.options.multipv, int(root_moves.size()));
    Value best = -VALUE_INFINITE;
    int max_depth = pool_.limits.depth ? pool_.limits.depth : MAX_PLY - 10;

    for (root_depth_ = 1; root_depth_ <= max_depth && !pool_.stop_; ++root_depth_) {
        // Lazy SMP: helper threads skip some depths so that they search different trees.
        if (index > 0 && root_depth_ > 2 && ((root_depth_ + index) % 4 == 0))
            continue;
        for (RootMove& rm : root_moves)
            rm.previous_score = rm.score;
        for (pv_index_ = 0; pv_index_ < multipv && !pool_.stop_; ++pv_index_) {
            sel_depth = 0;
            // Aspiration window around the previous score of this line.
            Value prev = root_moves[pv_index_].average;
            Value delta = 20 + std::abs(prev) / 20;
            Value alpha =
                root_depth_ >= 4 && prev != -VALUE_INFINITE ? std::max(prev - delta, -VALUE_INFINITE) : -VALUE_INFINITE;
            Value beta =
                root_depth_ >= 4 && prev != -VALUE_INFINITE ? std::min(prev + delta, VALUE_INFINITE) : VALUE_INFINITE;
            while (true) {
                best = search<ROOT>(ss, alpha, beta, root_depth_, false);
                std::stable_sort(root_moves.begin() + pv_index_, root_moves.end());
                if (pool_.stop_)
                    break;
                if (index == 0 && (best <= alpha || best >= beta) && pool_.time.elapsed() > 3000)
                    report(root_depth_, alpha, beta);
                if (best <= alpha) {
                    beta = (alpha + beta) / 2;
                    alpha = std::max(best - delta, -VALUE_INFINITE);
                } else if (best >= beta)
                    beta = std::min(best + delta, VALUE_INFINITE);
                else
                    break;
                delta += delta / 2;
            }
            std::stable_sort(root_moves.begin(), root_moves.begin() + pv_index_ + 1);
            if (index == 0 && (!pool_.stop_ || pv_index_ == 0))
                report(root_depth_, -VALUE_INFINITE, VALUE_INFINITE);
        }
        if (!pool_.stop_)
            completed_depth = root_depth_;
        if (index != 0)
            continue;
        // A proven mate needs no deeper search.
        if (is_mate_score(root_moves[0].score) && VALUE_MATE - std::abs(root_moves[0].score) <= root_depth_
            && !pool_.limits.infinite && !pool_.pondering_)
            break;
        if (pool_.time.limited() && !pool_.time.fixed() && !pool_.pondering_) {
            // Stop between iterations when the next one would likely overrun the optimum.
            double factor = root_moves.size() == 1 ? 0.2 : 1.0;
            if (pool_.time.elapsed() > pool_.time.optimum() * factor * 0.6)
                break;
        }
        if (pool_.limits.nodes && pool_.nodes_searched() >= pool_.limits.nodes)
            break;
    }
    if (index == 0)
        (void)best;
}

void Worker::check_time() {
    if (++calls_ < 1024)
        return;
    calls_ = 0;
    if (pool_.limits.nodes && pool_.nodes_searched() >= pool_.limits.nodes)
        pool_.stop_ = true;
    if (pool_.pondering_ || !pool_.time.limited())
        return;
    if (pool_.time.elapsed() >= pool_.time.maximum())
        pool_.stop_ = true;
}

// Step 3b of search(): at a node where a mate is plausible (mate_plausible, PV nodes from
// depth 5), a df-pn mate search of MateSearchNodes nodes: the length of the mate found and its
// first move, or 0. Its nodes count as the search's. Results are kept by position, so a node
// searched again (deeper iterations, transpositions) asks the solver once.
int Worker::interior_mate(Stack* ss, Depth depth, bool pv_node, Move& first) {
    int budget = pool_.options.interior_mate_nodes;
    if (budget <= 0 || !pv_node || depth < 5 || ss->ply >= MAX_PLY - 40)
        return 0;
    const Position& p = *pos;
    if (!mate_plausible(p))
        return 0;
    if (mate_memo_.empty())
        mate_memo_.resize(1 << 14);
    Key key = p.key();
    MateMemo& memo = mate_memo_[std::size_t(key) & (mate_memo_.size() - 1)];
    if (memo.key == key) {
        first = p.to_move(memo.first);
        return first ? memo.length : 0;
    }
    if (!mate_solver_)
        mate_solver_ = std::make_unique<tsume::Solver>();
    tsume::Limits l;
    l.max_nodes = std::uint64_t(budget);
    l.memory_mb = 4;
    l.shortest = false;
    l.stop = &pool_.stop_;
    tsume::Result r = mate_solver_->solve(p, l);
    count_nodes(r.nodes);
    bool mate = r.status == tsume::Status::Mate && !r.pv.empty() && p.legal(r.pv[0]);
    first = mate ? r.pv[0] : Move::none();
    int length = mate ? r.length : 0;
    if (!pool_.stop_.load(std::memory_order_relaxed))
        memo = {key, first.to_move16(), length};
    return length;
}

Value Worker::move_limit_value(const Position& p, bool in_check) const {
    int limit = pool_.options.max_moves_to_draw;
    if (limit == 0 || in_check || p.game_ply() - 1 < limit)  // game_ply() is the SFEN move number
        return VALUE_NONE;
    return p.side_to_move() == pool_.root_color ? -pool_.options.contempt : pool_.options.contempt;
}

// The value of a position that repeats one earlier in the game or the search: a draw, unless
// one side gave check with every move since then (that side loses). VALUE_NONE when no
// repetition.
inline Value Worker::early_value(const Position& p, Stack* ss) {
    if (index == 0)
        check_time();
    if (pool_.stop_.load(std::memory_order_relaxed) || ss->ply >= MAX_PLY)
        return ss->ply >= MAX_PLY && !ss->in_check ? evaluate(ss) : VALUE_DRAW;
    if (Value r = repetition_value(ss->ply); r != VALUE_NONE)
        return r;
    if (Value r = move_limit_value(p, ss->in_check); r != VALUE_NONE)
        return r;
    if (pool_.options.declaration_rule && check_declaration(p).ok())
        return mate_in(ss->ply + 1);
    return VALUE_NONE;
}

Value Worker::repetition_value(int ply) const {
    const StateInfo* st = pos->state();
    int end = std::min(st->plies_from_null, 32);
    if (end < 4)
        return VALUE_NONE;
    Key k = st->key();
    const StateInfo* s = st->previous->previous;
    for (int d = 4; d <= end; d += 2) {
        s = s->previous->previous;
        if (s->key() == k) {
            Color us = pos->side_to_move();
            if (st->continuous_check[~us] * 2 >= d)
                return mate_in(ply);  // the opponent checked all along: we win
            if (st->continuous_check[us] * 2 >= d)
                return mated_in(ply);
            return us == pool_.root_color ? -pool_.options.contempt : pool_.options.contempt;
        }
    }
    return VALUE_NONE;
}

template <Worker::NodeType NT>
Value Worker::search(Stack* ss, Value alpha, Value beta, Depth depth, bool cut_node) {
    constexpr bool PV_NODE = NT != NON_PV;
    constexpr bool ROOT_NODE = NT == ROOT;
    if (depth <= 0)
        return qsearch < PV_NODE ? PV : NON_PV > (ss, alpha, beta);

    Position& p = *pos;
    Move pv[MAX_PLY + 1];
    Move excluded = ss->excluded_move;
    ss->in_check = p.in_check();
    ss->move_count = 0;
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = Move::none();
    if (PV_NODE && sel_depth < ss->ply + 1)
        sel_depth = ss->ply + 1;

    // Step 1. Stop, repetition, declaration, mate distance.
    if (!ROOT_NODE) {
        if (Value v = early_value(p, ss); v != VALUE_NONE)
            return v;
        alpha = std::max(mated_in(ss->ply), alpha);
        beta = std::min(mate_in(ss->ply + 1), beta);
        if (alpha >= beta)
            return alpha;
    }

    // Step 2. Transposition table.
    auto [key, tt, slot, tt_hit, tt_value] = probe_tt(pool_.tt, p, ss->ply);
    Move tt_move = ROOT_NODE ? root_moves[pv_index_].move : tt_hit ? p.to_move(tt.move) : Move::none();
    bool tt_pv = PV_NODE || (tt_hit && tt.is_pv);
    if (!PV_NODE && !excluded && tt_cuts(tt_hit, tt, tt_value, depth, beta))
        return tt_value;

    // Step 3. Static evaluation; a mate in one ends the search here.
    Value eval, raw_eval = VALUE_NONE;
    if (ss->in_check)
        eval = ss->static_eval = VALUE_NONE;
    else {
        if (!ROOT_NODE && !excluded && depth >= 1) {
            Move mate = mate_in_one(p);
            if (mate) {
                Value v = mate_in(ss->ply + 1);
                pool_.tt.store(slot, key, value_to_tt(v, ss->ply), tt_pv, BOUND_EXACT, MAX_PLY - 20, mate.to_move16(),
                               VALUE_NONE);
                return v;
            }
            // A longer mate by checks, where one is likely: a small df-pn search. Its mate need
            // not be the shortest, so the value is a lower bound.
            Move first;
            if (int len = interior_mate(ss, depth, PV_NODE, first); len > 0) {
                Value v = mate_in(ss->ply + len);
                if (v >= beta || PV_NODE) {
                    if (PV_NODE)
                        update_pv(ss->pv, first, nullptr);
                    pool_.tt.store(slot, key, value_to_tt(v, ss->ply), tt_pv, BOUND_LOWER, MAX_PLY - 20,
                                   first.to_move16(), VALUE_NONE);
                    return v;
                }
            }
        }
        raw_eval = tt_hit && tt.eval != VALUE_NONE ? tt.eval : evaluate(ss);
        ss->static_eval = eval = corrected_eval(raw_eval);
        if (tt_value != VALUE_NONE && (tt.bound & (tt_value > eval ? BOUND_LOWER : BOUND_UPPER)))
            eval = tt_value;
    }
    bool improving = !ss->in_check && (ss - 2)->static_eval != VALUE_NONE && ss->static_eval > (ss - 2)->static_eval;

    if (!PV_NODE && !ss->in_check && !excluded) {
        // Step 4. Razoring: hopeless at low depth, verify with qsearch.
        if (depth <= 3 && eval + 250 + 200 * depth * depth < alpha) {
            Value v = qsearch<NON_PV>(ss, alpha - 1, alpha);
            if (v < alpha)
                return v;
        }
        // Step 5. Reverse futility: far above beta at low depth.
        if (depth < 8 && eval - (120 - 30 * improving) * depth >= beta && eval < VALUE_KNOWN_WIN)
            return eval;
        // Step 6. Null move: give the opponent a free move; if still above beta, cut.
        if (depth >= 3 && eval >= beta && ss->static_eval >= beta - 20 * depth + 150
            && (ss - 1)->current_move != Move::null() && !is_mate_score(beta)) {
            Depth r = 3 + depth / 4 + std::min((eval - beta) / 200, 3);
            ss->current_move = Move::null();
            ss->cont_hist = &history_.continuation[0][0];
            p.do_null_move(ss->st);
            count_nodes(1);
            Value v = -search<NON_PV>(ss + 1, -beta, -beta + 1, depth - r, !cut_node);
            p.undo_null_move();
            if (v >= beta && !is_mate_score(v))
                return v;
        }
    }

    // Step 7. Internal iterative reduction: no TT move in a PV or cut node.
    if ((PV_NODE || cut_node) && depth >= 6 && !tt_move && !excluded)
        depth -= 2;

    // Step 8. Moves loop.
    Move prev = (ss - 1)->current_move;
    Move counter = prev.is_ok() ? history_.counter[prev.piece_after()][prev.to()] : Move::none();
    const PieceToHistory* cont[3] = {(ss - 1)->cont_hist, (ss - 2)->cont_hist, (ss - 4)->cont_hist};
    MovePicker mp(p, tt_move, history_, ss->killers, counter, cont);
    Value best = -VALUE_INFINITE;
    Move best_move = Move::none();
    Move quiets[64];
    int quiet_count = 0;
    Move captures[32];
    int capture_count = 0;
    bool skip_quiets = false;
    Color us = p.side_to_move();

    for (Move m; (m = mp.next_move(skip_quiets));) {
        if (ROOT_NODE) {
            bool listed = false;
            for (int i = pv_index_; i < int(root_moves.size()); ++i)
                listed |= root_moves[i].move == m;
            if (!listed)
                continue;
        }
        if (m == excluded || !p.legal(m))
            continue;
        ++ss->move_count;
        int mc = ss->move_count;
        bool capture = is_capture(p, m);
        // Quiet: neither a capture nor a pawn's promotion. Other promotions are so common in shogi
        // (every silver, knight and lance entering the camp) that exempting them from pruning
        // and reductions makes the tree bushy (SPRT +50.9 Elo, bench/strength/RESULTS.md).
        bool quiet = !capture && !(m.is_promotion() && m.moved_type() == PAWN);
        bool gives_check = p.gives_check(m);

        // Step 9. Pruning at shallow depth.
        if (!ROOT_NODE && best > VALUE_MATED_IN_MAX_PLY && !ss->in_check) {
            int lmr_depth = std::max(depth - 1 - reduction(depth, mc), 0);
            if (quiet && !gives_check) {
                // Late-move pruning.
                if (mc >= (3 + depth * depth) / (2 - improving))
                    skip_quiets = true;
                // Continuation-history pruning: quiet moves that have failed after these moves.
                if (lmr_depth < 4
                    && (*cont[0])[m.piece_after()][m.to()] + (*cont[1])[m.piece_after()][m.to()] < -2000 * depth)
                    continue;
                // Futility pruning.
                if (lmr_depth < 7 && ss->static_eval + 150 + 120 * lmr_depth <= alpha)
                    continue;
                if (lmr_depth < 8 && !see_ge(p, m, -30 * lmr_depth * lmr_depth))
                    continue;
                if (skip_quiets && mc > 1)
                    continue;
            } else if (!see_ge(p, m, -150 * depth))
                continue;
        }

        // Step 10. Extensions: checks that do not lose material.
        Depth extension = 0;
        // Singular extension: when the TT move is far better than every other move (a search
        // without it, reduced and below the TT value, fails low), it is extended; when even
        // without it the search beats beta, several moves do (multi-cut); when the TT move's
        // value is no sure thing, it is searched less deep.
        if (!ROOT_NODE && depth >= 7 && m == tt_move && !excluded && tt_value != VALUE_NONE
            && std::abs(tt_value) < VALUE_KNOWN_WIN && (tt.bound & BOUND_LOWER) && tt.depth >= depth - 3) {
            Value singular_beta = tt_value - 2 * depth;
            Depth singular_depth = (depth - 1) / 2;
            ss->excluded_move = m;
            Value sv = search<NON_PV>(ss, singular_beta - 1, singular_beta, singular_depth, cut_node);
            ss->excluded_move = Move::none();
            ss->move_count = mc;
            if (sv < singular_beta)
                extension = 1;
            else if (singular_beta >= beta)
                return singular_beta;
            else if (tt_value >= beta || cut_node)
                extension = -1;
        } else if (gives_check && (depth > 6 || see_ge(p, m, 0)))
            extension = 1;
        Depth new_depth = depth - 1 + extension;

        // Step 11. Make the move.
        ss->current_move = m;
        ss->cont_hist = &history_.continuation[m.piece_after()][m.to()];
        p.do_move(m, ss->st);
        pool_.tt.prefetch(p.key());
        count_nodes(1);
        Value v = -VALUE_INFINITE;

        // Step 12. Late-move reduction, then full-depth and PV re-searches.
        if (depth >= 2 && mc > 1 + ROOT_NODE && (quiet || !tt_pv)) {
            // In 1/1024 of a ply: more at cut nodes and where the position is not improving,
            // less on the PV, for checks and for moves with a good history.
            int r = reduction1024(depth, mc);
            r += 2048 * cut_node + 512 * !improving;
            r -= 1024 * tt_pv + 1024 * gives_check;
            if (quiet) {
                int stat = 2 * history_.main[us][from_index(m)][m.to()] + (*cont[0])[m.piece_after()][m.to()]
                         + (*cont[1])[m.piece_after()][m.to()] - 3000;
                r -= std::clamp(stat * 1024 / 10000, -2048, 2048);
            }
            Depth d = std::clamp(new_depth - r / 1024, 1, new_depth + 1);
            v = -search<NON_PV>(ss + 1, -(alpha + 1), -alpha, d, true);
            if (v > alpha && d < new_depth)
                v = -search<NON_PV>(ss + 1, -(alpha + 1), -alpha, new_depth, !cut_node);
        } else if (!PV_NODE || mc > 1)
            v = -search<NON_PV>(ss + 1, -(alpha + 1), -alpha, new_depth, !cut_node);
        if (PV_NODE && (mc == 1 || (v > alpha && (ROOT_NODE || v < beta)))) {
            (ss + 1)->pv = pv;
            pv[0] = Move::none();
            v = -search<PV>(ss + 1, -beta, -alpha, new_depth, false);
        }

        p.undo_move(m);
        if (pool_.stop_.load(std::memory_order_relaxed))
            return VALUE_ZERO;

        if (ROOT_NODE) {
            RootMove& rm =
                *std::find_if(root_moves.begin(), root_moves.end(), [&](const RootMove& r) { return r.move == m; });
            rm.average = rm.average == -VALUE_INFINITE ? v : (2 * v + rm.average) / 3;
            if (mc == 1 || v > alpha) {
                rm.score = v;
                rm.seldepth = sel_depth;
                rm.pv.assign(1, m);
                for (Move* q = (ss + 1)->pv; q && *q; ++q)
                    rm.pv.push_back(*q);
            } else
                rm.score = -VALUE_INFINITE;
        }

        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                if (PV_NODE && !ROOT_NODE)
                    update_pv(ss->pv, m, (ss + 1)->pv);
                if (v >= beta)
                    break;
                alpha = v;
            }
        }
        if (m != best_move) {
            if (quiet && quiet_count < 64)
                quiets[quiet_count++] = m;
            else if (capture && capture_count < 32)
                captures[capture_count++] = m;
        }
    }

    // Step 13. No legal move: in shogi that loses, in check or not. Without the excluded move
    // the singular search has merely found nothing else.
    if (!ss->move_count)
        return excluded ? alpha : mated_in(ss->ply);

    // Step 14. Learn from the cutoff.
    if (best_move && best >= beta) {
        int bonus = stat_bonus(depth);
        if (!is_capture(p, best_move) && !(best_move.is_promotion() && best_move.moved_type() == PAWN)) {
            update_quiet_stats(ss, best_move, bonus, quiets, quiet_count);
        } else {
            PieceType cap = type_of(p.piece_on(best_move.to()));
            history_.capture[best_move.piece_after()][best_move.to()][cap].update(bonus);
        }
        for (int i = 0; i < capture_count; ++i) {
            Move c = captures[i];
            history_.capture[c.piece_after()][c.to()][type_of(p.piece_on(c.to()))].update(-bonus);
        }
    }

    if (excluded)
        return best;
    // Learn how far the static evaluation was from the search's result, where the result
    // says something about it: not in check, no capture as the best move (the evaluation is
    // of a quiet position), and not a bound on the wrong side of the evaluation.
    if (!ss->in_check && !(best_move && is_capture(p, best_move)) && !is_mate_score(best)
        && !(best >= beta && best <= ss->static_eval) && !(!best_move && best >= ss->static_eval))
        update_correction(best - ss->static_eval, depth);
    Bound b = best >= beta ? BOUND_LOWER : PV_NODE && best_move ? BOUND_EXACT : BOUND_UPPER;
    pool_.tt.store(slot, key, value_to_tt(best, ss->ply), tt_pv, b, depth, best_move.to_move16(), raw_eval);
    return best;
}

template <Worker::NodeType NT>
Value Worker::qsearch(Stack* ss, Value alpha, Value beta, Depth depth) {
    constexpr bool PV_NODE = NT == PV;
    Position& p = *pos;
    Move pv[MAX_PLY + 1];
    if (PV_NODE) {
        (ss + 1)->pv = pv;
        ss->pv[0] = Move::none();
    }
    ss->in_check = p.in_check();
    // The clock is read in qsearch too: in a tactical position most nodes are here (checks and
    // evasions), and counting only search()'s calls let a 30 ms move run to 400 ms.
    if (Value v = early_value(p, ss); v != VALUE_NONE)
        return v;

    auto [key, tt, slot, tt_hit, tt_value] = probe_tt(pool_.tt, p, ss->ply);
    Depth tt_depth = ss->in_check || depth >= 0 ? 0 : -1;
    if (!PV_NODE && tt_cuts(tt_hit, tt, tt_value, tt_depth, beta))
        return tt_value;

    Value best, futility_base, raw_eval = VALUE_NONE;
    if (ss->in_check) {
        best = futility_base = -VALUE_INFINITE;
        ss->static_eval = VALUE_NONE;
    } else {
        raw_eval = tt_hit && tt.eval != VALUE_NONE ? tt.eval : evaluate(ss);
        ss->static_eval = best = corrected_eval(raw_eval);
        if (tt_value != VALUE_NONE && (tt.bound & (tt_value > best ? BOUND_LOWER : BOUND_UPPER)))
            best = tt_value;
        // Stand pat.
        if (best >= beta) {
            if (!tt_hit)
                pool_.tt.store(slot, key, value_to_tt(best, ss->ply), false, BOUND_LOWER, -6, Move16(), raw_eval);
            return best;
        }
        alpha = std::max(alpha, best);
        futility_base = ss->static_eval + 200;
        // At the horizon, a mate in one (often a drop) outweighs any exchange.
        if (depth == 0 && mate_in_one(p))
            return mate_in(ss->ply + 1);
    }

    Move tt_move = tt_hit ? p.to_move(tt.move) : Move::none();
    // At the first ply of qsearch, checks too (drops above all): the attacks that decide shogi games.
    MovePicker mp(p, tt_move, history_, depth == 0 && !ss->in_check);
    Move best_move = Move::none();
    int move_count = 0;
    for (Move m; (m = mp.next_move());) {
        if (!p.legal(m))
            continue;
        ++move_count;
        bool capture = is_capture(p, m);
        if (!ss->in_check) {
            // Deep in qsearch, only captures; losing exchanges and hopeless captures pruned.
            if (depth < -4 && !capture)
                continue;
            if (!p.gives_check(m) && futility_base > -VALUE_KNOWN_WIN) {
                Value fv = futility_base + see_value(type_of(p.piece_on(m.to())));
                if (fv <= alpha) {
                    best = std::max(best, fv);
                    continue;
                }
            }
            if (!see_ge(p, m, 0))
                continue;
        }
        ss->current_move = m;
        ss->cont_hist = &history_.continuation[m.piece_after()][m.to()];
        p.do_move(m, ss->st);
        pool_.tt.prefetch(p.key());
        count_nodes(1);
        Value v = -qsearch<NT>(ss + 1, -beta, -alpha, depth - 1);
        p.undo_move(m);
        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                if (PV_NODE)
                    update_pv(ss->pv, m, (ss + 1)->pv);
                if (v >= beta)
                    break;
                alpha = v;
            }
        }
    }
    // In check with no legal move: mated (no move at all loses too, but outside check
    // qsearch looks only at captures, so "none" proves nothing there).
    if (ss->in_check && move_count == 0)
        return mated_in(ss->ply);
    pool_.tt.store(slot, key, value_to_tt(best, ss->ply), false, best >= beta ? BOUND_LOWER : BOUND_UPPER, tt_depth,
                   best_move.to_move16(), raw_eval);
    return best;
}

Value Worker::corrected_eval(Value raw) const {
    const Position& p = *pos;
    Color us = p.side_to_move();
    int c = history_.pawn_correction[us][pawn_slot(p)] + history_.hand_correction[us][hand_slot(p)];
    return std::clamp(raw + c / 128, -VALUE_KNOWN_WIN + 1, VALUE_KNOWN_WIN - 1);
}

void Worker::update_correction(Value diff, Depth depth) {
    const Position& p = *pos;
    Color us = p.side_to_move();
    int bonus = std::clamp(diff * 32 * depth / 8, -History::CORRECTION_LIMIT / 4, History::CORRECTION_LIMIT / 4);
    history_.pawn_correction[us][pawn_slot(p)].update(bonus);
    history_.hand_correction[us][hand_slot(p)].update(bonus);
}

void Worker::update_quiet_stats(Stack* ss, Move m, int bonus, const Move* quiets, int quiet_count) {
    Color us = pos->side_to_move();
    if (ss->killers[0] != m) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = m;
    }
    history_.main[us][from_index(m)][m.to()].update(bonus);
    update_continuation(ss, m.piece_after(), m.to(), bonus);
    for (int i = 0; i < quiet_count; ++i) {
        history_.main[us][from_index(quiets[i])][quiets[i].to()].update(-bonus);
        update_continuation(ss, quiets[i].piece_after(), quiets[i].to(), -bonus);
    }
    Move prev = (ss - 1)->current_move;
    if (prev.is_ok())
        history_.counter[prev.piece_after()][prev.to()] = m;
}

void Worker::update_continuation(Stack* ss, Piece pc, Square to, int bonus) {
    for (int i : {1, 2, 4})
        if ((ss - i)->current_move.is_ok())
            (*(ss - i)->cont_hist)[pc][to].update(bonus);
}

void Worker::report(int depth, Value alpha, Value beta) {
    if (!pool_.on_info)
        return;
    int elapsed = std::max(1, pool_.time.elapsed());
    std::uint64_t n = pool_.nodes_searched();
    int multipv = std::min<int>(pool_.options.multipv, int(root_moves.size()));
    for (int i = 0; i < multipv; ++i) {
        const RootMove& rm = root_moves[i];
        bool updated = rm.score != -VALUE_INFINITE;
        if (!updated && depth == 1)
            continue;
        SearchInfo info;
        info.depth = updated ? depth : std::max(1, depth - 1);
        info.seldepth = rm.seldepth;
        info.multipv = i + 1;
        info.score = updated ? rm.score : rm.previous_score;
        info.lowerbound = i == pv_index_ && info.score >= beta;
        info.upperbound = i == pv_index_ && info.score <= alpha;
        info.nodes = n;
        info.time_ms = elapsed;
        info.nps = n * 1000 / std::uint64_t(elapsed);
        info.hashfull = pool_.tt.hashfull();
        info.pv = rm.pv;
        pool_.on_info(info);
    }
}

// --- ThreadPool

std::uint64_t skill_nodes(int skill) { return std::uint64_t(100.0 * std::pow(1.65, std::clamp(skill, 0, 19))); }

ThreadPool::ThreadPool() : evaluator(make_default_evaluator()) { set_threads(1); }

ThreadPool::~ThreadPool() {
    stop_ = true;
    pondering_ = false;
    wait();
}

void ThreadPool::set_threads(int n) {
    wait();
    n = std::clamp(n, 1, 256);
    workers_.clear();
    for (int i = 0; i < n; ++i)
        workers_.push_back(std::make_unique<Worker>(*this, i));
}

void ThreadPool::clear() {
    wait();
    tt.clear();
    for (auto& w : workers_)
        w->clear_history();
}

std::uint64_t ThreadPool::nodes_searched() const {
    std::uint64_t n = 0;
    for (const auto& w : workers_)
        n += w->nodes.load(std::memory_order_relaxed);
    return n;
}

void ThreadPool::start(const Position& pos, const Limits& l, const SearchOptions& opts, TimePoint start_time,
                       std::vector<Move> search_moves) {
    wait();
    limits = l;
    options = opts;
    stop_ = false;
    pondering_ = l.ponder;
    root_color = pos.side_to_move();
    time.init(l, root_color, pos.game_ply(), start_time, network_delay, minimum_thinking, network_delay2);
    tt.new_search();
    if (options.skill < 20) {
        options.multipv = std::max(options.multipv, 4);
        limits.nodes = limits.nodes ? std::min(limits.nodes, skill_nodes(options.skill)) : skill_nodes(options.skill);
    }
    std::vector<RootMove> roots;
    for (const ScoredMove& sm : MoveList<LEGAL>(pos))
        if (search_moves.empty() || std::find(search_moves.begin(), search_moves.end(), sm.move) != search_moves.end())
            roots.emplace_back().move = sm.move;
    for (auto& w : workers_) {
        w->pos = pos.clone();
        w->root_moves = roots;
        w->nodes = 0;
    }
    searching_ = true;
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
    run();  // a build without threads (the browser's): the search runs on the caller's thread
#else
    main_ = std::thread([this] { run(); });
#endif
}

void ThreadPool::ponderhit() {
    time.restart(Clock::now());
    pondering_ = false;
}

void ThreadPool::wait() {
    if (main_.joinable())
        main_.join();
}

void ThreadPool::run() {
    Worker& main = *workers_[0];
    bool declare = options.declaration_rule && check_declaration(*main.pos).ok();
    if (book_move && !declare) {
        while (!stop_ && (pondering_ || limits.infinite))
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        SearchResult r{book_move, Move::none(), 0, 0, 0};
        searching_ = false;
        // Announced as a line of its own, so that GUIs show the move and a score for it.
        if (on_info) {
            SearchInfo info;
            info.depth = 1;
            info.pv = {book_move};
            on_info(info);
        }
        if (on_bestmove)
            on_bestmove(r);
        return;
    }
    SearchResult mate;
    if (!main.root_moves.empty() && !declare && root_mate(mate)) {
        while (!stop_ && (pondering_ || limits.infinite))
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        searching_ = false;
        if (on_bestmove)
            on_bestmove(mate);
        return;
    }
    if (!main.root_moves.empty() && !declare) {
        std::vector<std::thread> helpers;
        for (std::size_t i = 1; i < workers_.size(); ++i)
            helpers.emplace_back([w = workers_[i].get()] { w->start_search(); });
        main.start_search();
        // In ponder and infinite mode the best move waits for stop (or a ponder hit).
        while (!stop_ && (pondering_ || limits.infinite))
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        stop_ = true;
        for (auto& h : helpers)
            h.join();
    } else {
        while (!stop_ && (pondering_ || limits.infinite))
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    SearchResult r = declare ? SearchResult{Move::win(), Move::none(), VALUE_MATE, 0, 0} : result();
    searching_ = false;
    if (on_bestmove)
        on_bestmove(r);
}

bool ThreadPool::root_mate(SearchResult& out) {
    // At full strength only. A timed move gives the solver a share of its time. With
    // MateSearchNodes (fixed depths and node counts too: the solver stops at a node count, so
    // the search stays deterministic) a root where a mate is plausible gets four times the
    // interior budget, counted as the search's nodes: the mates the interior searches saw one
    // move earlier are proved here, not left to alpha-beta's horizon.
    Worker& main = *workers_[0];
    bool timed = options.mate_search_share > 0 && time.limited() && !limits.nodes && !limits.depth && !limits.infinite;
    bool budgeted = !timed && options.interior_mate_nodes > 0 && !limits.infinite && mate_plausible(*main.pos);
    if (options.skill < 20 || !(timed || budgeted))
        return false;
    int budget_ms = timed ? time.optimum() * options.mate_search_share / 100 : 0;
    if (timed && budget_ms < 2)
        return false;
    if (!mate_solver_)
        mate_solver_ = std::make_unique<tsume::Solver>();
    tsume::Limits l;
    l.time_limit_s = budget_ms / 1000.0;
    l.max_nodes = budgeted ? 4 * std::uint64_t(options.interior_mate_nodes) : 0;
    l.memory_mb = 16;
    // The shortest mate: each move played from it shortens the mate, so a sequence of solver
    // moves always ends in mate. Any mate found first (the first proof, not proven shortest)
    // is played only if it makes progress over the last one.
    l.shortest = true;
    l.stop = &stop_;
    tsume::Result r = mate_solver_->solve(*main.pos, l);
    if (budgeted)
        main.nodes.fetch_add(r.nodes, std::memory_order_relaxed);
    if (r.pv.empty() || !main.pos->legal(r.pv[0]))
        return false;
    int ply = main.pos->game_ply();
    bool progress = ply != last_mate_ply_ + 2 || r.length < last_mate_length_ - 1;
    if (!(r.status == tsume::Status::Mate && r.exact) && !(r.status == tsume::Status::Timeout && progress))
        return false;
    // The solver does not see the game's history: a line through a fourth repetition (lost by
    // the side that checks all along) is left to alpha-beta, which knows the history.
    auto line = main.pos->clone();
    for (Move m : r.pv) {
        line->play(m);
        if (judge_repetition(*line) != Repetition::None)
            return false;
    }
    last_mate_ply_ = ply;
    last_mate_length_ = r.length;
    out = SearchResult{r.pv[0], r.pv.size() > 1 ? r.pv[1] : Move::none(), mate_in(r.length), 0, r.nodes};
    if (on_info) {
        SearchInfo info;
        info.depth = info.seldepth = r.length;
        info.score = out.score;
        info.nodes = r.nodes;
        info.time_ms = std::max(1, time.elapsed());
        info.nps = r.nodes * 1000 / std::uint64_t(info.time_ms);
        info.hashfull = tt.hashfull();
        info.pv = r.pv;
        on_info(info);
    }
    return true;
}

SearchResult ThreadPool::result() const {
    const Worker& main = *workers_[0];
    SearchResult r;
    r.nodes = nodes_searched();
    if (main.root_moves.empty())
        return r;  // no legal move: the caller resigns
    // Prefer the deepest finished thread when it agrees on a better score.
    const Worker* best = &main;
    for (const auto& w : workers_)
        if (w->completed_depth > best->completed_depth && w->root_moves[0].score > best->root_moves[0].score
            && !w->root_moves[0].pv.empty())
            best = w.get();
    const RootMove* chosen = &best->root_moves[0];
    // Below full strength, pick among the best few lines, the weaker the more freely: a
    // softmax over the score loss with a temperature that grows as the level falls.
    if (options.skill < 20 && main.root_moves.size() > 1 && main.completed_depth > 0) {
        int n = std::min<int>(options.multipv, int(main.root_moves.size()));
        double temperature = 10.0 + 12.0 * (20 - options.skill);
        Value top = main.root_moves[0].score;
        std::vector<double> w;
        for (int i = 0; i < n; ++i) {
            Value sc = main.root_moves[i].score == -VALUE_INFINITE ? main.root_moves[i].previous_score
                                                                   : main.root_moves[i].score;
            w.push_back(is_mate_score(top) || sc == -VALUE_INFINITE ? (i == 0 ? 1.0 : 0.0)
                                                                    : std::exp((sc - top) / temperature));
        }
        std::mt19937_64 rng(std::random_device{}());
        std::discrete_distribution<int> pick(w.begin(), w.end());
        chosen = &main.root_moves[pick(rng)];
    }
    const RootMove& rm = *chosen;
    r.best = rm.move;
    r.ponder = rm.pv.size() > 1 ? rm.pv[1] : Move::none();
    r.score = rm.score == -VALUE_INFINITE ? rm.previous_score : rm.score;
    r.depth = best->completed_depth;
    return r;
}

template Value Worker::search<Worker::ROOT>(Stack*, Value, Value, Depth, bool);

}  // namespace hisha::engine
