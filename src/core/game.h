// Game: a start position, the moves played, and how the game ended. Every move is checked by
// the rules; mate, no legal move, sennichite, perpetual check and the move limit are detected
// after each move; resignation, declaration, impasse count, time-up, illegal move, abort and
// a lost connection are recorded when a front end reports them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "handicap.h"
#include "position.h"
#include "rules.h"

namespace hisha::core {

enum class Winner : std::uint8_t { None, Black, White, Draw };

enum class EndReason : std::uint8_t {
    None,
    Checkmate,
    NoLegalMoves,  // not in check but no legal move: a loss
    Resignation,
    Sennichite,      // fourfold repetition: a draw
    PerpetualCheck,  // fourfold repetition with one side checking throughout: that side loses
    Declaration,     // entering-king declaration (CSA 27-point rule) that holds
    ImpasseCount,    // the 24-point count (agreement or forced jishogi)
    TimeUp,
    IllegalMove,
    MoveLimit,  // the optional ply limit, a draw
    Abort,
    SealedMove,  // adjourned with a sealed move (records of two-day games)
    Disconnect,  // a player's connection was lost (and not back in time): that player loses
    Adjudication,  // ended by a server's administrator, who gave the result
};

const char* describe(EndReason r);

struct GameResult {
    Winner winner = Winner::None;
    EndReason reason = EndReason::None;
    std::string detail;  // e.g. the illegal move and why, or the impasse points
    bool over() const { return reason != EndReason::None; }
};

/// Which entering-king rule the game uses.
enum class ImpasseRule : std::uint8_t {
    Csa27,    // declare() wins when the CSA 27-point conditions hold
    Count24,  // declare() with both kings entered counts 24 points (draw, or the side below loses)
};

struct GameRules {
    ImpasseRule impasse = ImpasseRule::Csa27;
    int max_plies = 0;                  // 0: no limit; otherwise the game ends after this many plies
    bool limit_counts_impasse = false;  // at the limit: 24-point count instead of a draw
};

class Game {
public:
    explicit Game(GameRules rules = {});
    /// Starts over from an SFEN position or a handicap.
    Result<void, ParseError> reset(std::string_view sfen = START_SFEN);
    void reset(Handicap h);

    // --- state
    const Position& position() const { return *pos_; }
    const std::string& start_sfen() const { return start_sfen_; }
    std::optional<Handicap> handicap() const { return handicap_; }
    const std::vector<Move>& moves() const { return moves_; }
    const GameResult& result() const { return result_; }
    bool over() const { return result_.over(); }
    const GameRules& rules() const { return rules_; }
    /// Points credited to White in impasse counts (the pieces removed by the handicap).
    int white_credit() const;

    // --- moves
    /// Plays a move if it is legal and the game is not over; then judges the position.
    Result<void, IllegalMove> play(Move m);
    /// Takes back the last move (and any result that move produced). False if none.
    bool undo();

    // --- results reported by front ends
    void resign(Color c);
    /// The side to move declares; on failure nothing changes and the reason is returned
    /// (protocols that punish a wrong declaration call lose_by_illegal_move()).
    Result<void, DeclarationFailure> declare();
    /// Both players agree to count (or an arbiter decides): the 24-point count decides.
    void count_impasse_now();
    void time_up(Color c);
    void lose_by_illegal_move(Color c, std::string detail);
    void abort(std::string detail = {});

private:
    void judge_after_move();
    void finish(Winner w, EndReason r, std::string detail = {});
    void finish_by_count(EndReason r);

    GameRules rules_;
    std::unique_ptr<Position> pos_;
    std::string start_sfen_;
    std::optional<Handicap> handicap_;
    std::vector<Move> moves_;
    std::vector<Key> keys_;  // the position's key at each ply, the start included
    GameResult result_;
};

constexpr Winner winner_of(Color c) { return c == BLACK ? Winner::Black : Winner::White; }

}  // namespace hisha::core
