// Opening book: GNU Shogi's text format, the SFEN format, forbidden moves, transpositions,
// weighted choice, building from records, errors with line and column; Skill levels.
#include <gtest/gtest.h>

#include <future>
#include <set>

#include "core/movegen.h"
#include "engine/book.h"
#include "engine/engine.h"
#include "notation/usi.h"
#include "test_files.h"

using namespace hisha::core;
using namespace hisha::engine;

namespace {
std::unique_ptr<Position> after(const std::string& moves) {
    auto rec = hisha::notation::parse_usi_position("position startpos moves " + moves);
    EXPECT_TRUE(rec.has_value()) << moves;
    auto p = std::make_unique<Position>();
    for (const auto& m : rec->moves)
        p->play(m.move);
    return p;
}
std::set<std::string> book_moves(const Book& b, const Position& p) {
    std::set<std::string> s;
    for (const auto& e : b.moves(p))
        s.insert(to_usi(p.to_move(e.move)));
    return s;
}
// Whether a Book reader read its text (the error when it did not).
::testing::AssertionResult loaded(const Result<void, ParseError>& r) {
    if (r)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << r.error().to_string();
}
}  // namespace

TEST(Book, ReadsGnuShogiTextBook) {
    Book b;
    // Two openings; the second transposes into the first after four moves; 2g2f? is forbidden
    // after 7g7f 3c3d.
    ASSERT_TRUE(loaded(b.load_gnu("# Static rook\n7g7f 3c3d 2g2f 8c8d\n# Transposition\n2g2f 8c8d 7g7f 3c3d 2f2e\n"
                                  "#\n7g7f 3c3d 2g2f? \n")));
    Position start;
    EXPECT_EQ(book_moves(b, start), (std::set<std::string>{"7g7f", "2g2f"}));
    auto p = after("7g7f 3c3d");
    EXPECT_EQ(book_moves(b, *p), std::set<std::string>{});  // 2g2f is forbidden here
    auto t = after("7g7f 3c3d 2g2f 8c8d");
    EXPECT_EQ(book_moves(b, *t), std::set<std::string>{"2f2e"});  // learned through the transposition
}

TEST(Book, SfenBookWithWeightsAndWeightedChoice) {
    Book b;
    ASSERT_TRUE(
        loaded(b.load_sfen("#HISHA-BOOK 1\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
                           "7g7f 30\n2g2f 10\n5g5f 0\n")));
    Position start;
    auto v = b.moves(start);
    ASSERT_EQ(v.size(), 2u);  // weight 0 is never played
    EXPECT_EQ(to_usi(start.to_move(v[0].move)), "7g7f");
    std::mt19937_64 rng(7);
    int seven = 0;
    for (int i = 0; i < 1000; ++i)
        seven += to_usi(b.probe(start, rng)) == "7g7f";
    EXPECT_GT(seven, 650);  // 3 to 1
    EXPECT_LT(seven, 850);
    // Written back and read again: the same moves and weights.
    Book c;
    ASSERT_TRUE(loaded(c.load(b.to_text())));
    EXPECT_EQ(c.to_text(), b.to_text());
}

TEST(Book, YaneuraOuStyleLinesReadTheCountFromTheLastField) {
    Book b;
    ASSERT_TRUE(
        loaded(b.load("#YANEURAOU-DB2016 1.00\nsfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n"
                      "7g7f 3c3d 0 32 5\n")));
    Position start;
    ASSERT_EQ(b.moves(start).size(), 1u);
    EXPECT_EQ(b.moves(start)[0].weight, 5);
}

TEST(Book, ErrorsNameLineAndColumn) {
    Book b;
    auto r = b.load_gnu("# opening\n7g7f 3c3d\n2g2f 7g7e\n");
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().line, 3);
    EXPECT_EQ(r.error().column, 6);
    Book c;
    auto s = c.load_sfen("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n7g7f many\n");
    ASSERT_FALSE(s.has_value());
    EXPECT_EQ(s.error().line, 2);
    Book d;
    auto t = d.load_sfen("7g7f 3\n");
    ASSERT_FALSE(t.has_value());
    EXPECT_NE(t.error().message.find("before any sfen"), std::string::npos);
}

TEST(Book, BuiltFromRecordsCountsTheWinnersMovesTwice) {
    auto rec = hisha::notation::parse_usi_position("position startpos moves 7g7f 3c3d 2g2f");
    ASSERT_TRUE(rec.has_value());
    rec->result.winner = Winner::White;
    Book b;
    b.add_record(*rec, 2);
    b.add_record(*rec, 2);
    Position start;
    ASSERT_EQ(b.moves(start).size(), 1u);
    EXPECT_EQ(b.moves(start)[0].weight, 2);  // Black lost: 1 per game
    auto p = after("7g7f");
    EXPECT_EQ(b.moves(*p)[0].weight, 4);                // White won: 2 per game
    EXPECT_TRUE(b.moves(*after("7g7f 3c3d")).empty());  // beyond 2 plies
    b.prune(3);
    EXPECT_TRUE(b.moves(start).empty());
}

TEST(Engine, PlaysFromItsBookAndNotWhenOff) {
    Engine e;
    std::string path = testing::TempDir() + "hisha_book_test.txt";
    ASSERT_TRUE(hisha::testing::write_file(path, "# one line\n9g9f\n"));
    EXPECT_EQ(e.set_option("BookFile", path), "");
    Position start;
    Limits l;
    l.movetime = 200;
    // A book move is played without a search (no nodes); a search may find 9g9f too (a short
    // one on a busy machine does), so what tells them apart is whether it searched.
    SearchResult booked = e.search(start, l);
    EXPECT_EQ(to_usi(booked.best), "9g9f");
    EXPECT_EQ(booked.nodes, 0u);
    Limits depth;  // fixed-depth searches think from the first move
    depth.depth = 3;
    SearchResult searched = e.search(start, depth);
    EXPECT_GT(searched.nodes, 0u);
    EXPECT_EQ(searched.depth, 3);
    e.set_option("OwnBook", "false");
    EXPECT_GT(e.search(start, l).nodes, 0u);
    EXPECT_NE(e.set_option("BookFile", "/nonexistent/book.txt"), "");
}

TEST(Skill, GradesAndNodeBudgets) {
    EXPECT_EQ(Engine::grade(0), "15 kyu");
    EXPECT_EQ(Engine::grade(14), "1 kyu");
    EXPECT_EQ(Engine::grade(15), "1 dan");
    EXPECT_EQ(Engine::grade(19), "5 dan");
    EXPECT_EQ(Engine::grade(20), "full strength");
    for (int s = 1; s < 20; ++s)
        EXPECT_GT(skill_nodes(s), skill_nodes(s - 1));
    Engine e;
    e.set_option("USI_LimitStrength", "true");
    e.set_option("USI_Strength", "-10");
    EXPECT_EQ(e.skill(), 5);
    e.set_option("USI_Strength", "3");
    EXPECT_EQ(e.skill(), 17);
}

TEST(Skill, WeakLevelsStaySmallAndChooseAmongGoodMoves) {
    Engine e;
    e.set_option("Skill", "0");
    Position start;
    Limits l;
    SearchResult r = e.search(start, l);
    EXPECT_TRUE(r.best.is_ok());
    EXPECT_LE(r.nodes, skill_nodes(0) + 2000);  // stops within a check interval
    // A mate in one is never missed, even at the lowest level.
    Position mate;
    ASSERT_TRUE(mate.set("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").has_value());
    EXPECT_EQ(to_usi(e.search(mate, l).best), "G*5b");
}

TEST(Engine, HasABuiltInBookWhenNoBookFileIsSet) {
    Engine e;
    Position start;
    auto moves = e.book().moves(start);
    ASSERT_FALSE(moves.empty()) << "the built-in book (src/engine/book/default_book.sfen) has no start position";
    Limits l;
    l.movetime = 200;
    std::string best = to_usi(e.search(start, l).best);
    bool from_book = false;
    for (const auto& m : moves)
        from_book |= to_usi(start.to_move(m.move)) == best;
    EXPECT_TRUE(from_book) << best;
    // A BookFile replaces it; setting the option back to empty brings it back.
    std::string path = testing::TempDir() + "hisha_book_test2.txt";
    ASSERT_TRUE(hisha::testing::write_file(path, "1g1f\n"));
    EXPECT_EQ(e.set_option("BookFile", path), "");
    EXPECT_EQ(e.book().moves(start).size(), 1u);
    EXPECT_EQ(e.set_option("BookFile", ""), "");
    EXPECT_EQ(e.book().moves(start).size(), moves.size());
}
