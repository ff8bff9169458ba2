// Static evaluation. The Evaluator interface lets a trained network (nnue/, Evaluation=NNUE)
// replace the default hand-built evaluation; the search calls evaluate(), or, for a network,
// evaluates through its own incremental accumulators (nnue/accumulator.h). The default evaluation is
// linear in its parameters (material on the board and in hand, piece placement relative to
// both kings, king safety), so the tuner can fit it to game results (Texel tuning).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/position.h"
#include "value.h"

namespace hisha::engine {

namespace nnue {
struct Network;
}

/// Anything that scores a position for the side to move.
class Evaluator {
public:
    virtual ~Evaluator() = default;
    virtual Value evaluate(const core::Position& pos) const = 0;
    virtual std::string name() const = 0;
    /// The network of an NNUE evaluator (the search then keeps accumulators), else null.
    virtual std::shared_ptr<const nnue::Network> network() const { return nullptr; }
};

/// Relative placement of a piece to a king: |file difference| (0..8) and rank difference
/// (-8..8) seen from the piece's owner, so tables are left-right symmetric.
constexpr int REL_NB = 9 * 17;
constexpr int relative_index(core::Color owner, core::Square piece, core::Square king) {
    int df = int(core::file_of(piece)) - int(core::file_of(king));
    int dr = int(core::rank_of(piece)) - int(core::rank_of(king));
    if (owner == core::WHITE)
        dr = -dr;
    return (df < 0 ? -df : df) * 17 + (dr + 8);
}

/// The parameters of the default evaluation (all in centipawns, from Black's view of a
/// Black piece; White uses the mirror).
struct EvalParams {
    std::array<int, core::PIECE_TYPE_NB> board{};                // material on the board
    std::array<std::array<int, 19>, core::HAND_TYPE_NB> hand{};  // value of the n-th piece in hand (cumulative)
    std::array<std::array<int, REL_NB>, core::PIECE_TYPE_NB> own_king{};    // placement near one's own king
    std::array<std::array<int, REL_NB>, core::PIECE_TYPE_NB> enemy_king{};  // placement near the enemy king
    std::array<int, 9> king_rank{};           // the king's rank from its owner's side (0 = far)
    std::array<int, 9> attacked_near_king{};  // by the number of enemy-attacked squares next to the king
    int hand_threat = 0;                      // per attacked empty square next to the king, if the enemy holds pieces
    int tempo = 0;
    /// Sliders by the number of squares they reach (empty or enemy): lance, bishop, rook, horse, dragon.
    std::array<std::array<int, 21>, 5> mobility{};
    std::array<int, 9> king_escape{};  // squares next to the king it may step to safely
    std::array<int, core::HAND_TYPE_NB>
        hand_threat_by{};  // per attacked empty square next to the king, per kind the enemy holds
    /// By the enemy's pressure on the king: its pieces within two squares plus its pieces in hand
    /// other than pawns (0..15).
    std::array<int, 16> king_pressure{};

    /// Hand-set starting values (material from long engine practice, placement by distance).
    static EvalParams defaults();
    /// Text form: one `name index value` line per parameter (for the tuner and files).
    std::string to_text() const;
    bool from_text(const std::string& text, std::string* error);
    /// Flat view for the tuner: every parameter in declaration order (the struct holds ints only).
    int* data() { return reinterpret_cast<int*>(this); }
    const int* data() const { return reinterpret_cast<const int*>(this); }
    static constexpr int size() { return int(sizeof(EvalParams) / sizeof(int)); }
};

/// The default evaluation.
class ClassicEvaluator final : public Evaluator {
public:
    explicit ClassicEvaluator(EvalParams p = EvalParams::defaults()) : p_(std::move(p)) {}
    Value evaluate(const core::Position& pos) const override;
    std::string name() const override { return "classic"; }
    const EvalParams& params() const { return p_; }

    /// The Black-view score as a sparse linear form: (parameter index into all(), coefficient)
    /// pairs whose weighted sum is the score (the tuner fits the parameters to game results).
    void features(const core::Position& pos, std::vector<std::pair<int, int>>& out) const;
    /// The Black-view score (evaluate() is this, from the side to move's view, plus tempo):
    /// placement() + dynamic_score().
    int black_score(const core::Position& pos) const;
    /// evaluate() from a Black-view score.
    Value finish(const core::Position& pos, int black) const;

    /// The part of the Black-view score that each piece other than a king makes by its square
    /// and the two kings' squares (material, placement) and the hands: with the kings where they
    /// are, a move changes it by placement_delta() (the search keeps it incrementally).
    int placement(const core::Position& pos) const;
    /// The rest of the Black-view score: the kings' ranks, mobility, the kings' surroundings.
    int dynamic_score(const core::Position& pos) const;
    /// The change of placement() made by the move that led to state `st`, both measured with
    /// the kings on `ksq`. `hands` are the hands after that move; they are set back to the hands
    /// before it (so that a caller can walk a chain of states backwards). Summed over a line of
    /// moves whose two ends have their kings on `ksq`, the changes add up to the change of
    /// placement() (a king's own square is not part of it).
    int placement_delta(const core::StateInfo& st, const core::Square ksq[core::COLOR_NB],
                        core::Hand hands[core::COLOR_NB]) const;

private:
    int placement_term(core::Piece pc, core::Square s, const core::Square ksq[core::COLOR_NB]) const;
    EvalParams p_;
};

/// Material only (board and hand), for tests and comparison.
class MaterialEvaluator final : public Evaluator {
public:
    Value evaluate(const core::Position& pos) const override;
    std::string name() const override { return "material"; }
};

std::unique_ptr<Evaluator> make_default_evaluator();

}  // namespace hisha::engine
