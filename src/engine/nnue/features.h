// The input features of Hisha's network: feature set KB9 (id 1).
//
// Each of the two perspectives (Black's and White's) sees the position from its own side: the
// board turned round for White, own and enemy pieces instead of colours. Its features are
//   - every piece on the board, kings included: (own or enemy, 14 kinds, 81 squares), and
//   - every piece in hand, counted: the n-th pawn (silver ...) of a side in hand is a feature of
//     its own, so a network learns what a second or a fifth pawn in hand is worth,
// repeated for 9 buckets of the perspective's own king square. The board is mirrored left to
// right when that king stands on files 6-9 (shogi's rules are symmetric; the starting position
// is not, but mirroring keeps every distinction), so 5 files remain, grouped as edge (1-2),
// castle (3-4) and centre (5); ranks as the back rank, the second and the rest. A bucket tells
// the network where its king lives (Anaguma, Mino, Yagura, an open king) without the 81-fold
// cost of HalfKP-style (king square x piece x square) features: each bucket's weights are
// trained by 1/9 of the data, not 1/81, so a net learns from the few million positions that two
// cores produce in hours. The exact square of each king is still a board feature.
//
// Every one of the 40 pieces is exactly one feature (on the board or in hand), so at most 40
// features are active per perspective; a move changes at most three board features and one hand
// feature. When a king's move changes its own frame (bucket or mirror), that perspective is
// computed afresh. Files 6-9 of the king decide the mirror; the 5th file never mirrors.
#pragma once

#include <cstdint>

#include "core/position.h"

namespace hisha::engine::nnue {

inline constexpr std::uint32_t FEATURE_SET_ID = 1;  // KB9, as written in net files
inline constexpr const char* FEATURE_SET_NAME = "KB9";
inline constexpr int KING_BUCKETS = 9;
inline constexpr int PIECE_KINDS = 14;  // PAWN .. DRAGON (PieceType - 1), king included
inline constexpr int BOARD_FEATURES = 2 * PIECE_KINDS * core::SQ_NB;  // own/enemy x kind x square: 2268
inline constexpr int HAND_SLOTS = 38;                                 // 18 P, 4 L, 4 N, 4 S, 2 B, 2 R, 4 G
inline constexpr int FEATURES_PER_BUCKET = BOARD_FEATURES + 2 * HAND_SLOTS;  // 2344
inline constexpr int FEATURES = KING_BUCKETS * FEATURES_PER_BUCKET;          // 21096
/// Active features of one perspective: one per piece (positions of other piece mixes may have
/// more pieces in hand than slots; the ones beyond are not features).
inline constexpr int MAX_ACTIVE = 48;

// Offset of each hand piece type's slots (PieceType order: P L N S B R G) and their number.
inline constexpr int HAND_BASE[core::HAND_TYPE_NB] = {0, 0, 18, 22, 26, 30, 32, 34};
inline constexpr int HAND_MAX[core::HAND_TYPE_NB] = {0, 18, 4, 4, 4, 2, 2, 4};

/// How one perspective sees the board: its king bucket and whether the board is mirrored.
struct Frame {
    std::uint8_t bucket = 0;
    bool mirror = false;
    constexpr bool operator==(const Frame&) const = default;
};

/// The square as perspective `persp` sees it (turned round for White, then mirrored).
constexpr int orient(core::Color persp, bool mirror, core::Square s) {
    int x = persp == core::BLACK ? int(s) : 80 - int(s);
    return mirror ? (8 - x / 9) * 9 + x % 9 : x;
}

/// The frame of perspective `persp` whose king stands on `king` (SQ_NONE: bucket 0, no mirror).
constexpr Frame frame_of(core::Color persp, core::Square king) {
    if (king == core::SQ_NONE)
        return {};
    int s = orient(persp, false, king);
    int file = s / 9, rank = s % 9;  // rank 8 is the perspective's own back rank
    bool mirror = file > 4;
    if (mirror)
        file = 8 - file;
    int file_group = file <= 1 ? 0 : file <= 3 ? 1 : 2;
    int rank_group = rank == 8 ? 0 : rank == 7 ? 1 : 2;
    return {std::uint8_t(rank_group * 3 + file_group), mirror};
}

inline Frame frame_of(const core::Position& pos, core::Color persp) {
    return frame_of(persp, pos.king_square(persp));
}

/// The feature of piece `pc` on `s`.
constexpr int board_feature(core::Color persp, Frame f, core::Piece pc, core::Square s) {
    int side = core::color_of(pc) == persp ? 0 : 1;
    return f.bucket * FEATURES_PER_BUCKET + (side * PIECE_KINDS + int(core::type_of(pc)) - 1) * core::SQ_NB
         + orient(persp, f.mirror, s);
}

/// The feature of the `index`-th (0-based) piece of type pt in the hand of `owner`, or -1 when
/// there is no slot for it.
constexpr int hand_feature(core::Color persp, Frame f, core::Color owner, core::PieceType pt, int index) {
    if (index < 0 || index >= HAND_MAX[pt])
        return -1;
    int side = owner == persp ? 0 : 1;
    return f.bucket * FEATURES_PER_BUCKET + BOARD_FEATURES + side * HAND_SLOTS + HAND_BASE[pt] + index;
}

/// Writes the active features of `persp` (at most MAX_ACTIVE) and returns how many.
int active_features(const core::Position& pos, core::Color persp, std::uint16_t* out);

/// The features that moves change, for one perspective in a fixed frame: at most three removed
/// and two added by each move (a capture: the piece leaves its square, the captured piece its
/// square, the piece arrives, the captured one enters the hand).
struct FeatureDelta {
    static constexpr int CAPACITY = 48;  // enough for MAX_STEPS moves
    static constexpr int MAX_STEPS = 12;
    std::uint16_t added[CAPACITY];
    std::uint16_t removed[CAPACITY];
    int n_added = 0, n_removed = 0;
    void add(int f) {
        if (f >= 0)
            added[n_added++] = std::uint16_t(f);
    }
    void remove(int f) {
        if (f >= 0)
            removed[n_removed++] = std::uint16_t(f);
    }
};

/// Adds to d[c] (for each perspective c with want[c]) the changes of the move that led to state
/// `st` (its move and captured piece) seen in frames[c]. `hands` are the hands after that move;
/// they are set back to the hands before it, so that a caller can walk a chain of states
/// backwards. A null move changes nothing.
void move_delta(const core::StateInfo& st, const Frame frames[core::COLOR_NB], const bool want[core::COLOR_NB],
                core::Hand hands[core::COLOR_NB], FeatureDelta d[core::COLOR_NB]);

}  // namespace hisha::engine::nnue
