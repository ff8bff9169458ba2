// Position: the board, both hands and the side to move, with do/undo over a chain of
// StateInfo records (Stockfish's split: a block copied on each move, the rest recomputed).
// SFEN in and out, Zobrist keys (board and hand kept apart), checkers and pins.
#pragma once

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <string_view>

#include "attacks.h"
#include "bitboard.h"
#include "hand.h"
#include "move.h"
#include "parse_error.h"
#include "result.h"
#include "types.h"

namespace hisha::core {

inline constexpr std::string_view START_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// Why a move was refused (try_play, is_legal).
enum class IllegalMove {
    NotAMove,       // malformed: bad squares, sentinel, inconsistent encoding
    NotYourPiece,   // the from square holds no piece of the side to move
    NotInHand,      // a drop of a piece the side does not hold
    Occupied,       // a drop onto an occupied square, or a move onto one's own piece
    CannotReach,    // the piece does not move that way, or the path is blocked
    CannotPromote,  // promotion asked for a piece or a move that cannot promote
    DeadPiece,      // a piece left (or dropped) where it could never move again
    TwoPawns,       // an unpromoted pawn dropped on a file that already holds one
    DropPawnMate,   // a pawn drop that gives immediate checkmate
    IgnoredCheck,   // the king stays in check
    SelfCheck,      // the move exposes the own king to attack
    GameOver,       // the game has already ended
};

/// A short English description of a refusal ("two pawns on the file").
const char* describe(IllegalMove reason);

/// The board field of an SFEN: rank a first, each rank from file 9 to file 1 ("lnsgkgsnl/1r5b1/...").
std::string board_sfen(const Piece (&board)[SQ_NB]);
/// The hands field of an SFEN: Black's pieces then White's, each in HAND_ORDER ("2Pb"); "-" for none.
std::string hands_sfen(const Hand (&hands)[COLOR_NB]);

/// Per-ply state. Fields up to `checkers` are copied by do_move; the rest are recomputed.
struct StateInfo {
    // --- copied
    Key board_key;  // pieces on squares, and the side to move in bit 0
    Key hand_key;   // additive over hand counts
    int plies_from_null;
    int continuous_check[COLOR_NB];  // consecutive moves of each color that gave check
    // --- recomputed
    Bitboard checkers;
    Bitboard blockers_for_king[COLOR_NB];  // sole blockers (either color) of a slider's line to the king
    Bitboard pinners[COLOR_NB];            // sliders of ~c pinning a piece to c's king
    Piece captured;
    Move move;  // the move that led here (none at the root)
    StateInfo* previous;

    Key key() const { return board_key ^ hand_key; }
};

/// How strictly set() checks an SFEN. Strict refuses more pieces of a kind than a shogi set
/// holds; Relaxed allows them (composed test positions) as long as a hand can store them.
enum class SfenRules { Strict, Relaxed };

/// Outcome of looking back along the history for the current position.
struct RepetitionInfo {
    int count = 0;           // earlier occurrences (same board, hands, side to move)
    int first_distance = 0;  // plies back to the earliest of them
    int last_distance = 0;   // plies back to the latest of them
};

class Position {
public:
    Position();
    /// Tag for a position whose fields the caller fills in (set(), clone()).
    struct Uninitialised {};
    explicit Position(Uninitialised) : st_(&root_) {}
    Position(const Position&) = delete;
    Position& operator=(const Position&) = delete;
    /// An independent copy with the same history (for threads and analysis).
    std::unique_ptr<Position> clone() const;

    // --- setting up
    /// Sets the position from an SFEN ("startpos" is accepted too); on error *this is unchanged.
    Result<void, ParseError> set(std::string_view sfen, SfenRules rules = SfenRules::Strict);
    void set_startpos();
    std::string sfen(bool with_ply = true) const;

    // --- board access
    Piece piece_on(Square s) const { return board_[s]; }
    Bitboard pieces() const { return by_color_[BLACK] | by_color_[WHITE]; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
    Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
    Bitboard golds(Color c) const;  // gold and the promoted minors
    Bitboard bishops_horses(Color c) const { return pieces(c) & (by_type_[BISHOP] | by_type_[HORSE]); }
    Bitboard rooks_dragons(Color c) const { return pieces(c) & (by_type_[ROOK] | by_type_[DRAGON]); }
    Hand hand(Color c) const { return hand_[c]; }
    Square king_square(Color c) const { return king_sq_[c]; }  // SQ_NONE when c has no king
    Color side_to_move() const { return side_; }
    int game_ply() const { return game_ply_; }  // the SFEN move number

    // --- state
    Key key() const { return st_->key(); }
    Key board_key() const { return st_->board_key; }
    Key hand_key() const { return st_->hand_key; }
    Bitboard checkers() const { return st_->checkers; }
    bool in_check() const { return st_->checkers.any(); }
    Bitboard blockers_for_king(Color c) const { return st_->blockers_for_king[c]; }
    Bitboard pinned(Color c) const { return st_->blockers_for_king[c] & pieces(c); }
    Piece captured_piece() const { return st_->captured; }
    Move last_move() const { return st_->move; }
    const StateInfo* state() const { return st_; }
    /// Plies played since set(): the length of the history chain.
    int history_length() const;

    // --- attacks
    /// Pieces of color c that attack s, with occupancy occ.
    Bitboard attackers_to(Color c, Square s, const Bitboard& occ) const;
    Bitboard attackers_to(Color c, Square s) const { return attackers_to(c, s, pieces()); }
    bool attacked_by(Color c, Square s) const { return is_attacked(c, s, pieces()); }
    /// True when a piece of color c attacks s with occupancy occ (early exit, cheaper than
    /// attackers_to).
    bool is_attacked(Color c, Square s, const Bitboard& occ) const;

    // --- moves
    /// Builds a board move from squares (fills in the piece); no legality check.
    Move make_move(Square from, Square to, bool promote) const;
    Move make_drop(PieceType pt, Square to) const { return Move::make_drop(pt, to, side_); }
    /// The full move for a compact one in this position (none if it cannot be one here).
    Move to_move(Move16 m) const;
    /// Checks a generated (pseudo-legal) move for the own king's safety and drop-pawn mate.
    bool legal(Move m) const;
    /// Full check of any move, including ones that were never generated.
    bool is_legal(Move m) const { return check_move(m).has_value(); }
    /// Why m cannot be played here, or nothing when it can.
    Result<void, IllegalMove> check_move(Move m) const;
    /// True when the move is pseudo-legal (a piece moves by its rules, no dead piece, no two
    /// pawns); used for moves from the transposition table.
    bool pseudo_legal(Move m) const;
    bool gives_check(Move m) const;
    /// True when dropping a pawn of the side to move on `to` would checkmate.
    bool pawn_drop_mates(Square to) const;

    // --- do/undo
    /// Engine interface: the caller owns the new state (one per search ply); unchecked.
    void do_move(Move m, StateInfo& new_st);
    void undo_move(Move m);
    void do_null_move(StateInfo& new_st);
    void undo_null_move();
    /// Game interface: the position owns the state; checked and unchecked forms.
    Result<void, IllegalMove> try_play(Move m);
    void play(Move m);
    void unplay();

    // --- rules helpers
    RepetitionInfo repetition_info(int max_back = 1 << 30) const;
    bool is_consistent() const;  // full check of every redundant field (debug, tests)

private:
    void clear();
    void put_piece(Piece pc, Square s);
    void remove_piece(Piece pc, Square s);
    void update_blockers(Color c);
    Key compute_board_key() const;
    Key compute_hand_key() const;
    Result<void, ParseError> validate(SfenRules rules) const;

    Piece board_[SQ_NB];
    Bitboard by_color_[COLOR_NB];
    Bitboard by_type_[PIECE_TYPE_NB];
    Hand hand_[COLOR_NB];
    Square king_sq_[COLOR_NB];
    Color side_;
    int game_ply_;
    StateInfo root_{};
    StateInfo* st_;
    std::deque<StateInfo> history_;  // states of moves made with play()
};

inline Bitboard Position::golds(Color c) const {
    return pieces(c)
         & (by_type_[GOLD] | by_type_[PRO_PAWN] | by_type_[PRO_LANCE] | by_type_[PRO_KNIGHT] | by_type_[PRO_SILVER]);
}

inline Bitboard Position::attackers_to(Color c, Square s, const Bitboard& occ) const {
    Color t = ~c;  // look from s with the opposite color's steps
    Bitboard hdk = by_type_[HORSE] | by_type_[DRAGON] | by_type_[KING];
    Bitboard b = (PAWN_ATTACKS[t][s] & by_type_[PAWN]) | (KNIGHT_ATTACKS[t][s] & by_type_[KNIGHT])
               | (SILVER_ATTACKS[t][s] & (by_type_[SILVER] | hdk))
               | (GOLD_ATTACKS[t][s]
                  & (by_type_[GOLD] | by_type_[PRO_PAWN] | by_type_[PRO_LANCE] | by_type_[PRO_KNIGHT]
                     | by_type_[PRO_SILVER] | hdk))
               | (lance_attacks(t, s, occ) & by_type_[LANCE])
               | (bishop_attacks(s, occ) & (by_type_[BISHOP] | by_type_[HORSE]))
               | (rook_attacks(s, occ) & (by_type_[ROOK] | by_type_[DRAGON]));
    return b & by_color_[c];
}

inline bool Position::is_attacked(Color c, Square s, const Bitboard& occ) const {
    Color t = ~c;
    Bitboard own = by_color_[c];
    Bitboard hdk = by_type_[HORSE] | by_type_[DRAGON] | by_type_[KING];
    Bitboard steps = (PAWN_ATTACKS[t][s] & by_type_[PAWN]) | (KNIGHT_ATTACKS[t][s] & by_type_[KNIGHT])
                   | (SILVER_ATTACKS[t][s] & (by_type_[SILVER] | hdk))
                   | (GOLD_ATTACKS[t][s]
                      & (by_type_[GOLD] | by_type_[PRO_PAWN] | by_type_[PRO_LANCE] | by_type_[PRO_KNIGHT]
                         | by_type_[PRO_SILVER] | hdk));
    if ((steps & own).any())
        return true;
    Bitboard rd = own & (by_type_[ROOK] | by_type_[DRAGON]);
    if ((rd & ROOK_PSEUDO[s]).any() && (rook_attacks(s, occ) & rd).any())
        return true;
    Bitboard bh = own & (by_type_[BISHOP] | by_type_[HORSE]);
    if ((bh & BISHOP_PSEUDO[s]).any() && (bishop_attacks(s, occ) & bh).any())
        return true;
    Bitboard l = own & by_type_[LANCE];
    return (l & lance_pseudo(t, s)).any() && (lance_attacks(t, s, occ) & l).any();
}

}  // namespace hisha::core
