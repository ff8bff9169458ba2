// MovePicker: hands out the moves of a node one at a time, best guesses first, generating
// each stage only when the previous one is exhausted (a cutoff on the TT move generates
// nothing). Stages: TT move, good captures (and promotions), killers and counter-move,
// quiet moves by history, bad captures; evasions when in check; captures only in qsearch.
#pragma once

#include "core/movegen.h"
#include "core/position.h"
#include "history.h"
#include "value.h"

namespace hisha::engine {

class MovePicker {
public:
    /// Main search.
    /// `cont` holds the continuation tables of the moves one, two and four plies back.
    MovePicker(const core::Position& pos, core::Move tt_move, const History& h, const core::Move* killers,
               core::Move counter, const PieceToHistory* const* cont);
    /// Quiescence search: captures and promotions (evasions when in check), then, with
    /// `checks`, quiet moves and drops that give check.
    MovePicker(const core::Position& pos, core::Move tt_move, const History& h, bool checks = false);

    /// The next pseudo-legal move, or none. With skip_quiets, quiet moves are left out.
    core::Move next_move(bool skip_quiets = false);

private:
    enum Stage {
        MAIN_TT,
        CAPTURE_INIT,
        GOOD_CAPTURE,
        REFUTATION,
        QUIET_INIT,
        QUIET,
        BAD_CAPTURE,
        EVASION_TT,
        EVASION_INIT,
        EVASION,
        QSEARCH_TT,
        QCAPTURE_INIT,
        QCAPTURE,
        QCHECK_INIT,
        QCHECK,
    };

    void score_captures();
    void score_quiets();
    void score_evasions();
    core::Move pick_best();    // selection sort step over [cur_, end_)
    core::Move best_but_tt();  // pick_best() skipping the TT move; none when [cur_, end_) is spent
    bool is_refutation(core::Move m) const;

    const core::Position& pos_;
    const History& h_;
    const PieceToHistory* const* cont_ = nullptr;
    core::Move tt_move_;
    core::Move refutations_[3];
    int refutation_count_ = 0, refutation_index_ = 0;
    int stage_;
    bool checks_ = false;
    core::ScoredMove* cur_;
    core::ScoredMove* end_;
    core::ScoredMove* end_bad_;
    union {
        core::ScoredMove moves_[core::MAX_MOVES];
    };
};

}  // namespace hisha::engine
