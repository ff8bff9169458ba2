// The default evaluation: material (board, and hand with diminishing returns), piece placement
// relative to both kings, the king's rank, and attacked squares next to each king.
#include "evaluate.h"

#include <algorithm>
#include <sstream>

#include "tuned_params.h"

namespace hisha::engine {

using namespace core;

namespace {
// Sinks for accumulate(): one sums the score, the other records the features.
struct SumSink {
    const int* base;
    int total = 0;
    void add(const int& param, int coef) { total += param * coef; }
};
struct FeatureSink {
    const int* base;
    std::vector<std::pair<int, int>>* out;
    void add(const int& param, int coef) { out->emplace_back(int(&param - base), coef); }
};

// The squares within two steps of each square (a 5x5 box clipped at the edges).
struct Zone2 {
    Bitboard bb[SQ_NB];
    Zone2() {
        for (int s = 0; s < SQ_NB; ++s) {
            Bitboard z = KING_ATTACKS[s];
            KING_ATTACKS[s].for_each([&](Square t) { z |= KING_ATTACKS[t]; });
            bb[s] = z;
        }
    }
};
const Zone2 ZONE2;

struct KingZone {
    int attacked = 0;        // squares next to the king attacked by the enemy
    int empty_attacked = 0;  // ... of which empty
    int escapes = 0;         // squares next to the king, not ours, not attacked
    int pressure = 0;        // enemy pieces within two squares + enemy non-pawn pieces in hand
};

// `enemy_attacks`: the squares an enemy piece attacks (through the board's occupancy), at least
// those next to c's king, so that a square next to the king is in it exactly when
// Position::is_attacked says so.
KingZone king_zone(const Position& pos, Color c, const Bitboard& enemy_attacks) {
    KingZone z;
    Square k = pos.king_square(c);
    if (k == SQ_NONE)
        return z;
    Bitboard around = KING_ATTACKS[k];
    Bitboard attacked = around & enemy_attacks;
    z.attacked = attacked.popcount();
    z.empty_attacked = attacked.andnot(pos.pieces()).popcount();
    z.escapes = around.andnot(enemy_attacks).andnot(pos.pieces(c)).popcount();
    Hand h = pos.hand(~c);
    int in_hand = 0;
    for (int pt = LANCE; pt <= GOLD; ++pt)
        in_hand += h.count(PieceType(pt));
    z.pressure = std::min(15, (pos.pieces(~c) & ZONE2.bb[k]).popcount() + in_hand);
    return z;
}

// relative_index() of every (owner, piece square, king square).
struct RelativeIndex {
    std::uint8_t idx[COLOR_NB][SQ_NB][SQ_NB];
    RelativeIndex() {
        for (Color c : {BLACK, WHITE})
            for (int s = 0; s < SQ_NB; ++s)
                for (int k = 0; k < SQ_NB; ++k)
                    idx[c][s][k] = std::uint8_t(relative_index(c, Square(s), Square(k)));
    }
};
const RelativeIndex REL;

// Index into EvalParams::mobility for a slider, or -1.
constexpr int slider_index(PieceType pt) {
    return pt == LANCE ? 0 : pt == BISHOP ? 1 : pt == ROOK ? 2 : pt == HORSE ? 3 : pt == DRAGON ? 4 : -1;
}

[[gnu::always_inline]] inline Bitboard slider_reach(PieceType pt, Color c, Square s, const Bitboard& occ) {
    switch (pt) {
    case LANCE: return lance_attacks(c, s, occ);
    case BISHOP: return bishop_attacks(s, occ);
    case ROOK: return rook_attacks(s, occ);
    case HORSE: return horse_attacks(s, occ);
    default: return dragon_attacks(s, occ);
    }
}

// The squares from which a piece that moves one step (or a knight) may attack a square next to
// a king on s: two files either side, three ranks either side.
struct NearKing {
    Bitboard bb[SQ_NB];
    NearKing() {
        for (int s = 0; s < SQ_NB; ++s)
            for (int t = 0; t < SQ_NB; ++t)
                if (std::abs(t / 9 - s / 9) <= 2 && std::abs(t % 9 - s % 9) <= 3)
                    bb[s] |= square_bb(Square(t));
    }
};
const NearKing NEAR_KING;

// The value of holding n pieces of a kind (0 for none).
inline int hand_value(const EvalParams& p, int pt, int n) { return n ? p.hand[pt][std::min(n, 18)] : 0; }

// (Inlined, so that the sums stay in registers rather than in the sink's memory.)
// The placement part: each piece other than a king by its own square and the two kings'
// squares (material and placement), and the hands. It changes with a move only where the move
// changes a square or a hand, as long as the kings stay: the search keeps it incrementally.
template <typename Sink>
[[gnu::always_inline]] inline void accumulate_placement(const EvalParams& p, const Position& pos, Sink& sink) {
    Square ksq[COLOR_NB] = {pos.king_square(BLACK), pos.king_square(WHITE)};
    pos.pieces().andnot(pos.pieces(KING)).for_each([&](Square s) {
        Piece pc = pos.piece_on(s);
        PieceType pt = type_of(pc);
        Color c = color_of(pc);
        int sign = c == BLACK ? 1 : -1;
        sink.add(p.board[pt], sign);
        if (ksq[c] != SQ_NONE)
            sink.add(p.own_king[pt][REL.idx[c][s][ksq[c]]], sign);
        if (ksq[~c] != SQ_NONE)
            sink.add(p.enemy_king[pt][REL.idx[c][s][ksq[~c]]], sign);
    });
    for (Color c : {BLACK, WHITE}) {
        int sign = c == BLACK ? 1 : -1;
        Hand h = pos.hand(c);
        for (int pt = PAWN; pt <= GOLD; ++pt)
            if (int n = h.count(PieceType(pt)))
                sink.add(p.hand[pt][std::min(n, 18)], sign);
    }
}

// The rest, which depends on how the pieces see each other: the kings' ranks, the sliders'
// mobility and the safety of the squares next to each king.
template <typename Sink>
[[gnu::always_inline]] inline void accumulate_dynamic(const EvalParams& p, const Position& pos, Sink& sink) {
    Square ksq[COLOR_NB] = {pos.king_square(BLACK), pos.king_square(WHITE)};
    const Bitboard occ = pos.pieces();
    // Every square each side attacks next to the other's king (for king_zone): all the
    // sliders' attacks (they are computed for the mobility anyway) and those of the other
    // pieces near enough to reach a square next to that king.
    Bitboard attacks_by[COLOR_NB];
    const Bitboard sliders = pos.pieces(LANCE) | pos.pieces(BISHOP) | pos.pieces(ROOK) | pos.pieces(HORSE)
                           | pos.pieces(DRAGON);
    (occ & sliders).for_each([&](Square s) {
        Piece pc = pos.piece_on(s);
        PieceType pt = type_of(pc);
        Color c = color_of(pc);
        Bitboard attacks = slider_reach(pt, c, s, occ);
        attacks_by[c] |= attacks;
        int reach = attacks.andnot(pos.pieces(c)).popcount();
        sink.add(p.mobility[slider_index(pt)][std::min(reach, 20)], c == BLACK ? 1 : -1);
    });
    for (Color c : {BLACK, WHITE}) {
        if (ksq[~c] != SQ_NONE)
            (pos.pieces(c).andnot(sliders) & NEAR_KING.bb[ksq[~c]]).for_each([&](Square s) {
                attacks_by[c] |= attacks_of(pos.piece_on(s), s, occ);
            });
    }
    for (Color c : {BLACK, WHITE}) {
        int sign = c == BLACK ? 1 : -1;
        if (ksq[c] == SQ_NONE)
            continue;
        sink.add(p.king_rank[relative_rank(c, rank_of(ksq[c]))], sign);  // 0 = the far rank
        KingZone z = king_zone(pos, c, attacks_by[~c]);
        sink.add(p.attacked_near_king[z.attacked], sign);
        sink.add(p.king_escape[z.escapes], sign);
        sink.add(p.king_pressure[z.pressure], sign);
        Hand enemy = pos.hand(~c);
        if (!enemy.empty() && z.empty_attacked) {
            sink.add(p.hand_threat, sign * z.empty_attacked);
            for (int pt = PAWN; pt <= GOLD; ++pt)
                if (enemy.count(PieceType(pt)))
                    sink.add(p.hand_threat_by[pt], sign * z.empty_attacked);
        }
    }
}
}  // namespace

EvalParams EvalParams::defaults() {
    EvalParams p;
    const int board[PIECE_TYPE_NB] = {0, 90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395};
    std::copy(std::begin(board), std::end(board), p.board.begin());
    const int hand[HAND_TYPE_NB] = {0, 99, 346, 445, 544, 940, 1089, 594};
    for (int pt = PAWN; pt <= GOLD; ++pt)
        for (int n = 1; n <= 18; ++n)  // each further piece of a kind is worth a little less
            p.hand[pt][n] = p.hand[pt][n - 1] + hand[pt] * std::max(70, 100 - 6 * (n - 1)) / 100;
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt) {
        if (pt == KING)
            continue;
        bool gold_like = moves_like_gold(PieceType(pt)) || pt == SILVER;
        bool major = pt == BISHOP || pt == ROOK || pt == HORSE || pt == DRAGON;
        for (int df = 0; df < 9; ++df)
            for (int dr = -8; dr <= 8; ++dr) {
                int d = std::max(df, std::abs(dr));
                int idx = df * 17 + dr + 8;
                // Defenders: golds and silvers beside their king, a little behind it is fine.
                if (gold_like && !is_promoted(PieceType(pt)))
                    p.own_king[pt][idx] = d == 1 ? 35 : d == 2 ? 15 : 0;
                // Attackers: close to the enemy king, most for the short-range ones.
                int near = d == 1 ? 50 : d == 2 ? 30 : d == 3 ? 12 : 0;
                p.enemy_king[pt][idx] = gold_like ? near : major ? near / 3 : pt == KNIGHT ? near / 2 : near / 5;
            }
    }
    const int king_rank[9] = {-40, -50, -45, -40, -30, -15, 5, 20, 30};
    std::copy(std::begin(king_rank), std::end(king_rank), p.king_rank.begin());
    const int attacked[9] = {0, -10, -25, -45, -70, -100, -130, -160, -190};
    std::copy(std::begin(attacked), std::end(attacked), p.attacked_near_king.begin());
    p.hand_threat = -15;
    p.tempo = 20;
    // Mobility: a little for each square a slider reaches, centred on a typical count.
    const int typical[5] = {3, 7, 9, 9, 11}, per_square[5] = {2, 4, 3, 4, 3};
    for (int si = 0; si < 5; ++si)
        for (int n = 0; n <= 20; ++n)
            p.mobility[si][n] = per_square[si] * (n - typical[si]);
    for (int n = 0; n < 9; ++n)
        p.king_escape[n] = n == 0 ? -30 : n == 1 ? -12 : 0;
    for (int n = 0; n < 16; ++n)
        p.king_pressure[n] = -std::max(0, n - 3) * std::max(0, n - 3) * 4;
    if (TUNED_SIZE == size())
        for (auto [i, v] : TUNED_PARAMS)
            p.data()[i] = v;
    return p;
}

std::string EvalParams::to_text() const {
    std::ostringstream out;
    const int* d = data();
    for (int i = 0; i < size(); ++i)
        if (d[i])
            out << i << ' ' << d[i] << '\n';
    return out.str();
}

bool EvalParams::from_text(const std::string& text, std::string* error) {
    EvalParams tmp{};
    std::istringstream in(text);
    std::string line;
    int lineno = 0;
    while (std::getline(in, line)) {
        ++lineno;
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream ls(line);
        int idx, value;
        if (!(ls >> idx >> value) || idx < 0 || idx >= size()) {
            if (error)
                *error = "line " + std::to_string(lineno) + ": expected 'index value' with index below "
                       + std::to_string(size());
            return false;
        }
        tmp.data()[idx] = value;
    }
    *this = tmp;
    return true;
}

Value ClassicEvaluator::evaluate(const Position& pos) const { return finish(pos, black_score(pos)); }

Value ClassicEvaluator::finish(const Position& pos, int black) const {
    int v = pos.side_to_move() == WHITE ? -black : black;
    return std::clamp(v + p_.tempo, -VALUE_KNOWN_WIN + 1, VALUE_KNOWN_WIN - 1);
}

int ClassicEvaluator::black_score(const Position& pos) const { return placement(pos) + dynamic_score(pos); }

int ClassicEvaluator::placement(const Position& pos) const {
    SumSink sink{p_.data()};
    accumulate_placement(p_, pos, sink);
    return sink.total;
}

int ClassicEvaluator::dynamic_score(const Position& pos) const {
    SumSink sink{p_.data()};
    accumulate_dynamic(p_, pos, sink);
    return sink.total;
}

int ClassicEvaluator::placement_term(Piece pc, Square s, const Square ksq[COLOR_NB]) const {
    PieceType pt = type_of(pc);
    if (pt == KING)
        return 0;
    Color c = color_of(pc);
    int v = p_.board[pt];
    if (ksq[c] != SQ_NONE)
        v += p_.own_king[pt][REL.idx[c][s][ksq[c]]];
    if (ksq[~c] != SQ_NONE)
        v += p_.enemy_king[pt][REL.idx[c][s][ksq[~c]]];
    return c == BLACK ? v : -v;
}

int ClassicEvaluator::placement_delta(const StateInfo& st, const Square ksq[COLOR_NB], Hand hands[COLOR_NB]) const {
    Move m = st.move;
    if (!m.is_ok())
        return 0;  // a null move (or the root's "none")
    Piece after = m.piece_after();
    Color mover = color_of(after);
    int sign = mover == BLACK ? 1 : -1;
    Square to = m.to();
    if (m.is_drop()) {
        int pt = m.dropped_piece();
        int held = hands[mover].count(PieceType(pt));  // after the drop
        hands[mover].add(PieceType(pt));
        return placement_term(after, to, ksq) + sign * (hand_value(p_, pt, held) - hand_value(p_, pt, held + 1));
    }
    Piece before = m.is_promotion() ? demote(after) : after;
    int d = placement_term(after, to, ksq) - placement_term(before, m.from(), ksq);
    if (st.captured != NO_PIECE) {
        int pt = unpromote(type_of(st.captured));
        int held = hands[mover].count(PieceType(pt));  // after the capture
        hands[mover].remove(PieceType(pt));
        d += -placement_term(st.captured, to, ksq) + sign * (hand_value(p_, pt, held) - hand_value(p_, pt, held - 1));
    }
    return d;
}

void ClassicEvaluator::features(const Position& pos, std::vector<std::pair<int, int>>& out) const {
    FeatureSink sink{p_.data(), &out};
    accumulate_placement(p_, pos, sink);
    accumulate_dynamic(p_, pos, sink);
}

Value MaterialEvaluator::evaluate(const Position& pos) const {
    static const EvalParams p = EvalParams::defaults();
    int v = 0;
    pos.pieces().for_each([&](Square s) {
        Piece pc = pos.piece_on(s);
        v += (color_of(pc) == BLACK ? 1 : -1) * p.board[type_of(pc)];
    });
    for (Color c : {BLACK, WHITE})
        for (int pt = PAWN; pt <= GOLD; ++pt)
            v += (c == BLACK ? 1 : -1) * p.hand[pt][std::min(pos.hand(c).count(PieceType(pt)), 18)];
    return pos.side_to_move() == BLACK ? v : -v;
}

std::unique_ptr<Evaluator> make_default_evaluator() { return std::make_unique<ClassicEvaluator>(); }

}  // namespace hisha::engine
