// Attack tables and slider attacks against a naive reference that walks a 9x9 grid square by
// square: sliders for every square over random and edge-case occupancies, the step tables of
// both colors, between_bb/aligned over all square pairs and triples, and pawn_files<C>().
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/attacks.h"
#include "core/bitboard.h"

using namespace hisha::core;

namespace {

// Reference board geometry: file 0..8 (file 1..9), rank 0..8 (a..i); Black's forward is rank - 1.
bool on_board(int f, int r) { return f >= 0 && f < 9 && r >= 0 && r < 9; }
Square sq_of(int f, int r) { return Square(f * 9 + r); }

// Squares reached from s stepping (df, dr) until the edge or the first occupied square (included).
Bitboard naive_ray(Square s, int df, int dr, const Bitboard& occ) {
    Bitboard b;
    for (int f = file_of(s) + df, r = rank_of(s) + dr; on_board(f, r); f += df, r += dr) {
        b |= sq_of(f, r);
        if (occ.test(sq_of(f, r)))
            break;
    }
    return b;
}

// One step per (df, dr) offset given for Black; White's offsets are mirrored in rank.
Bitboard naive_steps(Square s, Color c, std::initializer_list<std::pair<int, int>> steps) {
    Bitboard b;
    for (auto [df, dr] : steps) {
        int f = file_of(s) + df, r = rank_of(s) + (c == BLACK ? dr : -dr);
        if (on_board(f, r))
            b |= sq_of(f, r);
    }
    return b;
}

Bitboard naive_king(Square s) {
    return naive_steps(s, BLACK, {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}});
}
Bitboard naive_gold(Square s, Color c) {
    return naive_steps(s, c, {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {0, 1}});
}
Bitboard naive_silver(Square s, Color c) { return naive_steps(s, c, {{-1, -1}, {0, -1}, {1, -1}, {-1, 1}, {1, 1}}); }
Bitboard naive_knight(Square s, Color c) { return naive_steps(s, c, {{-1, -2}, {1, -2}}); }
Bitboard naive_pawn(Square s, Color c) { return naive_steps(s, c, {{0, -1}}); }

Bitboard naive_lance(Square s, Color c, const Bitboard& occ) { return naive_ray(s, 0, c == BLACK ? -1 : 1, occ); }
Bitboard naive_rook(Square s, const Bitboard& occ) {
    return naive_ray(s, 0, -1, occ) | naive_ray(s, 0, 1, occ) | naive_ray(s, -1, 0, occ) | naive_ray(s, 1, 0, occ);
}
Bitboard naive_bishop(Square s, const Bitboard& occ) {
    return naive_ray(s, -1, -1, occ) | naive_ray(s, 1, 1, occ) | naive_ray(s, -1, 1, occ) | naive_ray(s, 1, -1, occ);
}

// A random subset of the 81 squares where each square is set with probability `density`.
Bitboard random_occupancy(std::mt19937_64& rng, double density) {
    std::bernoulli_distribution bit(density);
    Bitboard b;
    for (Square s = SQ_11; s < SQ_NB; ++s)
        if (bit(rng))
            b |= s;
    return b;
}

// Occupancies: empty, full, every single square, every single file/rank, both 63/18 word
// boundaries, and 2000 random sets of varying density (fixed seed).
std::vector<Bitboard> occupancies() {
    std::vector<Bitboard> v{Bitboard(), Bitboard::all(), Bitboard(Bitboard::MASK0, 0), Bitboard(0, Bitboard::MASK1)};
    for (Square s = SQ_11; s < SQ_NB; ++s)
        v.push_back(square_bb(s));
    for (int i = 0; i < 9; ++i) {
        v.push_back(FILE_BB[i]);
        v.push_back(RANK_BB[i]);
    }
    std::mt19937_64 rng(20240601);
    const double densities[] = {0.02, 0.1, 0.25, 0.5, 0.75, 0.95};
    for (int i = 0; i < 2000; ++i)
        v.push_back(random_occupancy(rng, densities[i % 6]));
    return v;
}

std::string where(Square s, const Bitboard& occ) {
    return "square " + square_to_usi(s) + ", occupancy:\n" + occ.pretty();
}

}  // namespace

TEST(Attacks, NaiveReferenceSelfCheck) {
    // Guards the reference itself: a rook on 5e of an empty board sees 16 squares, a bishop 16,
    // a Black lance on 5e 4 squares up to 5a; a blocker on 5c stops the rook and lance there.
    EXPECT_EQ(naive_rook(SQ_55, Bitboard()).popcount(), 16);
    EXPECT_EQ(naive_bishop(SQ_55, Bitboard()).popcount(), 16);
    EXPECT_EQ(naive_lance(SQ_55, BLACK, Bitboard()), square_bb(SQ_51) | SQ_52 | SQ_53 | SQ_54);
    EXPECT_EQ(naive_lance(SQ_55, BLACK, square_bb(SQ_53)), square_bb(SQ_53) | SQ_54);
    EXPECT_EQ(naive_knight(SQ_55, BLACK), square_bb(SQ_43) | SQ_63);
    EXPECT_EQ(naive_knight(SQ_55, WHITE), square_bb(SQ_47) | SQ_67);
}

TEST(Attacks, SlidersMatchNaiveForEverySquareAndOccupancy) {
    for (const Bitboard& occ : occupancies())
        for (Square s = SQ_11; s < SQ_NB; ++s) {
            ASSERT_EQ(lance_attacks(BLACK, s, occ), naive_lance(s, BLACK, occ)) << "black lance, " << where(s, occ);
            ASSERT_EQ(lance_attacks(WHITE, s, occ), naive_lance(s, WHITE, occ)) << "white lance, " << where(s, occ);
            Bitboard rook = naive_rook(s, occ), bishop = naive_bishop(s, occ);
            ASSERT_EQ(rook_attacks(s, occ), rook) << "rook, " << where(s, occ);
            ASSERT_EQ(rook_file_attacks(s, occ), naive_ray(s, 0, -1, occ) | naive_ray(s, 0, 1, occ))
                << "rook file, " << where(s, occ);
            ASSERT_EQ(bishop_attacks(s, occ), bishop) << "bishop, " << where(s, occ);
            ASSERT_EQ(horse_attacks(s, occ), bishop | naive_king(s)) << "horse, " << where(s, occ);
            ASSERT_EQ(dragon_attacks(s, occ), rook | naive_king(s)) << "dragon, " << where(s, occ);
        }
}

TEST(Attacks, EmptyBoardPseudoAttacksMatchNaive) {
    for (Square s = SQ_11; s < SQ_NB; ++s) {
        EXPECT_EQ(ROOK_PSEUDO[s], naive_rook(s, Bitboard())) << square_to_usi(s);
        EXPECT_EQ(BISHOP_PSEUDO[s], naive_bishop(s, Bitboard())) << square_to_usi(s);
        EXPECT_EQ(lance_pseudo(BLACK, s), naive_lance(s, BLACK, Bitboard())) << square_to_usi(s);
        EXPECT_EQ(lance_pseudo(WHITE, s), naive_lance(s, WHITE, Bitboard())) << square_to_usi(s);
    }
}

TEST(Attacks, StepTablesMatchNaiveForBothColors) {
    for (Square s = SQ_11; s < SQ_NB; ++s) {
        EXPECT_EQ(KING_ATTACKS[s], naive_king(s)) << square_to_usi(s);
        for (Color c : {BLACK, WHITE}) {
            EXPECT_EQ(PAWN_ATTACKS[c][s], naive_pawn(s, c)) << square_to_usi(s) << " color " << int(c);
            EXPECT_EQ(KNIGHT_ATTACKS[c][s], naive_knight(s, c)) << square_to_usi(s) << " color " << int(c);
            EXPECT_EQ(SILVER_ATTACKS[c][s], naive_silver(s, c)) << square_to_usi(s) << " color " << int(c);
            EXPECT_EQ(GOLD_ATTACKS[c][s], naive_gold(s, c)) << square_to_usi(s) << " color " << int(c);
        }
    }
}

TEST(Attacks, AttacksOfEveryPieceMatchNaive) {
    std::mt19937_64 rng(7);
    for (int i = 0; i < 50; ++i) {
        Bitboard occ = random_occupancy(rng, 0.3);
        for (Square s = SQ_11; s < SQ_NB; ++s)
            for (Color c : {BLACK, WHITE}) {
                auto at = [&](PieceType pt) { return attacks_of(make_piece(c, pt), s, occ); };
                ASSERT_EQ(at(PAWN), naive_pawn(s, c));
                ASSERT_EQ(at(LANCE), naive_lance(s, c, occ));
                ASSERT_EQ(at(KNIGHT), naive_knight(s, c));
                ASSERT_EQ(at(SILVER), naive_silver(s, c));
                ASSERT_EQ(at(BISHOP), naive_bishop(s, occ));
                ASSERT_EQ(at(ROOK), naive_rook(s, occ));
                ASSERT_EQ(at(KING), naive_king(s));
                for (PieceType pt : {GOLD, PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER})
                    ASSERT_EQ(at(pt), naive_gold(s, c)) << int(pt);
                ASSERT_EQ(at(HORSE), naive_bishop(s, occ) | naive_king(s));
                ASSERT_EQ(at(DRAGON), naive_rook(s, occ) | naive_king(s));
            }
    }
}

TEST(Attacks, BetweenMatchesNaiveForAllPairs) {
    for (Square a = SQ_11; a < SQ_NB; ++a)
        for (Square b = SQ_11; b < SQ_NB; ++b) {
            int df = file_of(b) - file_of(a), dr = rank_of(b) - rank_of(a);
            Bitboard expected;
            bool line = a != b && (df == 0 || dr == 0 || df == dr || df == -dr);
            if (line) {
                int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
                for (int f = file_of(a) + sf, r = rank_of(a) + sr; sq_of(f, r) != b; f += sf, r += sr)
                    expected |= sq_of(f, r);
            }
            ASSERT_EQ(between_bb(a, b), expected) << square_to_usi(a) << "-" << square_to_usi(b);
            ASSERT_EQ(between_bb(a, b), between_bb(b, a));
            Direction d = DIRECTION[a][b];
            ASSERT_EQ(d != DIR_NONE, line) << square_to_usi(a) << "-" << square_to_usi(b);
            if (line) {
                ASSERT_TRUE(RAY[d][a].test(b));
            }
        }
}

TEST(Attacks, AlignedMatchesNaiveForDistinctTriples) {
    // aligned(a, b, c): c lies on one rank, file or diagonal together with a and b. Callers
    // always pass c distinct from a and b (c is the king, a and b the from/to squares).
    auto collinear = [](Square p, Square q, Square r) {
        int x1 = file_of(q) - file_of(p), y1 = rank_of(q) - rank_of(p);
        int x2 = file_of(r) - file_of(p), y2 = rank_of(r) - rank_of(p);
        auto queen_line = [](int x, int y) { return x == 0 || y == 0 || x == y || x == -y; };
        return x1 * y2 - x2 * y1 == 0 && queen_line(x1, y1) && queen_line(x2, y2);
    };
    int count = 0;
    for (Square a = SQ_11; a < SQ_NB; ++a)
        for (Square b = SQ_11; b < SQ_NB; ++b)
            for (Square c = SQ_11; c < SQ_NB; ++c) {
                if (c == a || c == b)
                    continue;
                bool expected = collinear(c, a, b);
                count += expected;
                ASSERT_EQ(aligned(a, b, c), expected)
                    << square_to_usi(a) << " " << square_to_usi(b) << " " << square_to_usi(c);
            }
    EXPECT_GT(count, 1000);  // the reference is not trivially false
}

TEST(Attacks, PawnFilesMatchPerFileLoop) {
    std::mt19937_64 rng(99);
    for (int i = 0; i < 5000; ++i) {
        Bitboard black, white, black_files, white_files;
        for (int f = 0; f < 9; ++f) {
            // Every file empty or holding one pawn; the edge cases (no pawn, pawns on all
            // files, pawns on the extreme allowed ranks) come up with the first iterations.
            bool has_black = i == 1 || (i > 1 && rng() % 2), has_white = i == 1 || (i > 1 && rng() % 2);
            if (has_black) {
                int r = i == 1 ? (f % 2 ? 1 : 8) : 1 + int(rng() % 8);  // ranks b..i
                black |= sq_of(f, r);
                black_files |= FILE_BB[f];
            }
            if (has_white) {
                int r = i == 1 ? (f % 2 ? 7 : 0) : int(rng() % 8);  // ranks a..h
                white |= sq_of(f, r);
                white_files |= FILE_BB[f];
            }
        }
        ASSERT_EQ(pawn_files<BLACK>(black), black_files) << black.pretty();
        ASSERT_EQ(pawn_files<WHITE>(white), white_files) << white.pretty();
    }
}
