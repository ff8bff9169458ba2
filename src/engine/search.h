// Search: iterative deepening with aspiration windows over a principal variation search with
// a transposition table, quiescence over captures and promotions, check and singular
// extensions (with multi-cut), null-move pruning, late-move reductions, futility pruning and
// razoring, killer/history/counter-move ordering, SEE, and a static evaluation corrected by
// what earlier searches of similar positions found (correction history). Shogi rules enter through the core: a repeated position is a draw unless
// one side checked all the way (that side loses), a valid entering-king declaration wins,
// and a side with no legal move has lost. Several threads search the same tree (Lazy SMP).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "classic_stack.h"
#include "core/position.h"
#include "evaluate.h"
#include "history.h"
#include "nnue/accumulator.h"
#include "timeman.h"
#include "tt.h"
#include "value.h"

namespace hisha::engine {

/// One line of search output ("info" in USI terms).
struct SearchInfo {
    int depth = 0;
    int seldepth = 0;
    int multipv = 1;
    Value score = 0;
    bool lowerbound = false, upperbound = false;
    std::uint64_t nodes = 0;
    std::uint64_t nps = 0;
    int time_ms = 0;
    int hashfull = 0;
    std::vector<core::Move> pv;
};

struct SearchResult {
    core::Move best;  // none when there is no legal move; Move::win() for a declaration
    core::Move ponder;
    Value score = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
};

struct RootMove {
    core::Move move;
    Value score = -VALUE_INFINITE, previous_score = -VALUE_INFINITE, average = -VALUE_INFINITE;
    int seldepth = 0;
    std::vector<core::Move> pv;
    bool operator<(const RootMove& o) const {
        return score != o.score ? score > o.score : previous_score > o.previous_score;
    }
};

struct SearchOptions {
    int multipv = 1;
    int threads = 1;
    bool declaration_rule = true;  // CSA 27-point rule
    int contempt = 0;              // draw score from the engine's view (positive avoids draws)
    int skill = 20;                // 0 (15 kyu) .. 19 (5 dan), 20 = full strength
    int mate_search_share = 10;    // % of a timed move's optimum spent on a df-pn mate search first
    int interior_mate_nodes = 0;   // df-pn nodes per mate search at promising interior nodes (0 = off)
    int max_moves_to_draw = 0;     // a game is drawn once this many moves are played (0 = no limit)
};

/// Nodes a search may spend at a skill level below 20 (weaker levels see less).
std::uint64_t skill_nodes(int skill);

class ThreadPool;

}  // namespace hisha::engine
namespace hisha::tsume {
class Solver;
}
namespace hisha::engine {

/// The state of one search thread.
class Worker {
public:
    Worker(ThreadPool& pool, int index);
    ~Worker();
    void start_search();
    void clear_history() { history_.clear(); }

    std::unique_ptr<core::Position> pos;
    std::vector<RootMove> root_moves;
    std::atomic<std::uint64_t> nodes{0};
    /// Counts nodes searched by this worker's own thread (the only one that writes `nodes` during
    /// its search; others read it relaxed): a plain load and store, where fetch_add's locked
    /// instruction would wait at every node for all the stores of the move just made.
    void count_nodes(std::uint64_t n) {
        nodes.store(nodes.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
    }
    int completed_depth = 0;
    int sel_depth = 0;
    int index;

private:
    struct Stack {
        core::Move* pv;
        core::Move current_move;
        core::Move killers[2];
        core::Move excluded_move;   // the move a singular-extension search leaves out
        PieceToHistory* cont_hist;  // the continuation table of current_move
        Value static_eval;
        int ply;
        int move_count;
        bool in_check;
        core::StateInfo st;
    };
    enum NodeType { NON_PV, PV, ROOT };

    void iterative_deepening();
    template <NodeType NT>
    Value search(Stack* ss, Value alpha, Value beta, Depth depth, bool cut_node);
    template <NodeType NT>
    Value qsearch(Stack* ss, Value alpha, Value beta, Depth depth = 0);
    Value repetition_value(int ply) const;
    /// What a node is worth before it is searched: a draw when the search stops (its static
    /// value at the ply limit, out of check), a repetition, the move limit, a won declaration;
    /// VALUE_NONE when it must be searched. Reads the clock first on the main thread.
    Value early_value(const core::Position& p, Stack* ss);
    /// The draw score when the game has reached MaxMovesToDraw and the side to move is not in
    /// check (a check may still be mate), else VALUE_NONE.
    Value move_limit_value(const core::Position& p, bool in_check) const;
    void update_quiet_stats(Stack* ss, core::Move m, int bonus, const core::Move* quiets, int quiet_count);
    void update_continuation(Stack* ss, core::Piece pc, core::Square to, int bonus);
    /// The static evaluation corrected by what searches of similar positions found.
    Value corrected_eval(Value raw) const;
    void update_correction(Value diff, Depth depth);
    void check_time();
    void report(int depth, Value alpha, Value beta);
    int interior_mate(Stack* ss, Depth depth, bool pv_node, core::Move& first);
    /// The static evaluation of the position at ss: the evaluator's, or with a network the
    /// thread's incremental accumulators (made ready for each search by prepare_evaluation).
    Value evaluate(const Stack* ss);
    void prepare_evaluation();

    // Results of the interior df-pn searches by position (direct-mapped): the mate's first
    // move and length in plies, or length 0 when none was found within the budget.
    struct MateMemo {
        core::Key key = 0;
        core::Move16 first;
        int length = 0;
    };

    // Static evaluations by position (direct-mapped), so that a position met again after its TT
    // entry was replaced is not evaluated twice; only for an evaluator without accumulators.
    struct EvalMemo {
        core::Key key = 0;
        Value value = VALUE_NONE;
    };
    static constexpr std::size_t EVAL_MEMO_SIZE = std::size_t(1) << 16;

    ThreadPool& pool_;
    History history_;
    std::vector<EvalMemo> eval_memo_ = std::vector<EvalMemo>(EVAL_MEMO_SIZE);
    // The evaluator whose values eval_memo_ holds (kept, so that its address is not reused).
    std::shared_ptr<const Evaluator> eval_memo_of_;
    int root_depth_ = 0;
    int pv_index_ = 0;
    int calls_ = 0;
    std::vector<Stack> stack_;
    std::unique_ptr<tsume::Solver> mate_solver_;
    std::vector<MateMemo> mate_memo_;
    std::unique_ptr<nnue::AccumulatorStack> nnue_;   // kept while the network stays the same
    nnue::AccumulatorStack* nnue_active_ = nullptr;  // null unless evaluating with a network
    std::unique_ptr<ClassicStack> classic_;          // kept while the evaluator stays the same
    ClassicStack* classic_active_ = nullptr;         // null unless evaluating with the Classic evaluation
};

/// Starts, stops and waits for searches; owns the workers, the TT and the evaluator. Each
/// search runs on its own threads (one per worker), started by start() and joined by wait().
class ThreadPool {
public:
    ThreadPool();
    ~ThreadPool();
    void set_threads(int n);
    int thread_count() const { return int(workers_.size()); }
    /// Forgets what was learned (new game).
    void clear();

    /// Starts a search of pos (cloned, with its history) in the background. `start_time` is
    /// when the request arrived (time limits count from it).
    void start(const core::Position& pos, const Limits& limits, const SearchOptions& opts, TimePoint start_time,
               std::vector<core::Move> search_moves = {});
    void stop() { stop_ = true; }
    void ponderhit();
    /// Blocks until the current search (if any) has reported its best move.
    void wait();
    bool searching() const { return searching_; }

    TranspositionTable tt;
    std::shared_ptr<const Evaluator> evaluator;
    std::function<void(const SearchInfo&)> on_info;
    std::function<void(const SearchResult&)> on_bestmove;

    // --- shared search state (read by the workers)
    std::atomic<bool> stop_{false};
    std::atomic<bool> pondering_{false};
    Limits limits;
    SearchOptions options;
    TimeManager time;
    std::uint64_t nodes_searched() const;
    core::Move book_move;  // when set, start() reports it without searching
    core::Color root_color = core::BLACK;
    int network_delay = 120;    // ms kept in reserve on every move
    int network_delay2 = 120;   // ms kept in reserve when a move thinks to the end of its time
    int minimum_thinking = 20;  // ms

private:
    friend class Worker;
    void run();
    SearchResult result() const;
    /// A df-pn mate search of the root within a share of the move's time: the mate, or none.
    bool root_mate(SearchResult& out);
    std::unique_ptr<tsume::Solver> mate_solver_;
    // The last mate played from the solver: the game ply it was found at and its length. A
    // mate that is not proven shortest is played only if it is shorter than that one two
    // plies on, so that the solver's mates cannot lead round a cycle (perpetual check loses).
    int last_mate_ply_ = -1000;
    int last_mate_length_ = 0;

    std::vector<std::unique_ptr<Worker>> workers_;
    std::thread main_;
    std::atomic<bool> searching_{false};
};

inline Value Worker::evaluate(const Stack* ss) {
    if (nnue_active_)
        return nnue_active_->evaluate(*pos, ss->ply);
    core::Key k = pos->key();
    EvalMemo& e = eval_memo_[k & (EVAL_MEMO_SIZE - 1)];
    if (e.key != k || e.value == VALUE_NONE) {
        e.key = k;
        e.value = classic_active_ ? classic_active_->evaluate(*pos, ss->ply) : pool_.evaluator->evaluate(*pos);
    }
    return e.value;
}

inline void Worker::prepare_evaluation() {
    if (eval_memo_of_ != pool_.evaluator) {
        std::fill(eval_memo_.begin(), eval_memo_.end(), EvalMemo{});
        eval_memo_of_ = pool_.evaluator;
    }
    std::shared_ptr<const nnue::Network> net = pool_.evaluator->network();
    if (!net) {
        nnue_active_ = nullptr;
        classic_active_ = nullptr;
        if (auto classic = std::dynamic_pointer_cast<const ClassicEvaluator>(pool_.evaluator)) {
            if (!classic_ || classic_->evaluator() != classic)
                classic_ = std::make_unique<ClassicStack>(classic, MAX_PLY + 10);
            classic_->clear();
            classic_active_ = classic_.get();
        }
        return;
    }
    classic_active_ = nullptr;
    if (!nnue_ || nnue_->network() != net)
        nnue_ = std::make_unique<nnue::AccumulatorStack>(net, MAX_PLY + 8);
    nnue_->clear();
    nnue_active_ = nnue_.get();
}

}  // namespace hisha::engine
