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

// `enemy_attacks`: every square an enemy piece attacks (through the board's occupancy), so
// that a square is in it exactly when Position::is_attacked says so.
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

template <typename Sink>
void accumulate(const EvalParams& p, const Position& pos, Sink& sink) {
    Square ksq[COLOR_NB] = {pos.king_square(BLACK), pos.king_square(WHITE)};
    const Bitboard occ = pos.pieces();
    Bitboard attacks_by[COLOR_NB];  // every square each side attacks, for king_zone
    pos.pieces().for_each([&](Square s) {
        Piece pc = pos.piece_on(s);
        PieceType pt = type_of(pc);
        Color c = color_of(pc);
        int sign = c == BLACK ? 1 : -1;
        if (pt == KING) {
            attacks_by[c] |= KING_ATTACKS[s];
            sink.add(p.king_rank[relative_rank(c, rank_of(s))], sign);  // 0 = the far rank
            return;
        }
        sink.add(p.board[pt], sign);
        if (int si = slider_index(pt); si >= 0) {
            Bitboard attacks = slider_reach(pt, c, s, occ);
            attacks_by[c] |= attacks;
            int reach = attacks.andnot(pos.pieces(c)).popcount();
            sink.add(p.mobility[si][std::min(reach, 20)], sign);
        } else
            attacks_by[c] |= attacks_of(pc, s, occ);
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
        if (ksq[c] == SQ_NONE)
            continue;
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

Value ClassicEvaluator::evaluate(const Position& pos) const {
    int v = black_score(pos);
    if (pos.side_to_move() == WHITE)
        v = -v;
    return std::clamp(v + p_.tempo, -VALUE_KNOWN_WIN + 1, VALUE_KNOWN_WIN - 1);
}

int ClassicEvaluator::black_score(const Position& pos) const {
    SumSink sink{p_.data()};
    accumulate(p_, pos, sink);
    return sink.total;
}

void ClassicEvaluator::features(const Position& pos, std::vector<std::pair<int, int>>& out) const {
    FeatureSink sink{p_.data(), &out};
    accumulate(p_, pos, sink);
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
