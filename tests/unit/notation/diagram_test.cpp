// Board diagrams: the SHOGI-L e-mail diagram (the seed's own diagram read verbatim, written in
// its layout, round trips to the same SFEN, every error with line and column) and xshogi's
// position file (golden output, gnushogi's header variant, round trips, errors).
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "core/movegen.h"
#include "notation/diagram.h"
#include "test_files.h"
#include "test_positions.h"

using namespace hisha;
using namespace hisha::notation;

namespace {
using hisha::testing::parsed;
using hisha::testing::pos_of;
using hisha::testing::slurp;

const char* MATSURI = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";

// Positions with promoted pieces, full hands and both sides to move, from the perft table
// and along random games.
std::vector<std::string> sample_sfens() {
    std::vector<std::string> out = hisha::testing::VARIED_SFENS;
    out.push_back("4k4/9/9/9/9/9/9/9/4K4 w 2r2b4g4s4n4l18p 120");
    hisha::testing::random_games(2, 10, 160, [&](const core::Position& pos, int played) {
        if (played > 0 && played % 20 == 0)
            out.push_back(pos.sfen());
    });
    return out;
}

// A text a reader refuses, and its error.
struct ReadError {
    std::string text;
    core::ParseErrorCode code;
    int line;
    int column;
    std::string message;
};

// Each text of `errors` is refused by `read` (read_diagram, read_xshogi_position) with its error.
template <class Read>
void expect_read_errors(Read read, std::initializer_list<ReadError> errors) {
    for (const ReadError& e : errors) {
        auto r = read(e.text);
        EXPECT_FALSE(r) << e.text;
        if (r)
            continue;
        EXPECT_EQ(r.error().code, e.code) << e.text << r.error().to_string();
        EXPECT_EQ(r.error().line, e.line) << e.text << r.error().to_string();
        EXPECT_EQ(r.error().column, e.column) << e.text << r.error().to_string();
        EXPECT_EQ(r.error().message, e.message) << e.text;
    }
}

// Replaces the first occurrence of `from` in `s` (which must hold it).
std::string replaced(std::string s, const std::string& from, const std::string& to) {
    auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

}  // namespace

TEST(Diagram, TheSeedsDiagramReadsAsTheStartPosition) {
    EXPECT_EQ(parsed(read_diagram, slurp(hisha::testing::notation_data("western/email_board_seed.txt")),
                     "the seed's diagram"),
              core::START_SFEN);
}

TEST(Diagram, WritesTheSeedsLayout) {
    // The seed's diagram, with the '+' its fourth border lacks, and our side-to-move line.
    std::istringstream seed(slurp(hisha::testing::notation_data("western/email_board_seed.txt")));
    std::string expected, line;
    for (int i = 0; i < 20 && std::getline(seed, line); ++i)
        expected += (line == std::string("+") + std::string(44, '-') ? line + "+" : line) + "\n";
    expected += "Black to move (move 1)\n";
    core::Position start;
    EXPECT_EQ(write_diagram(start), expected);
    EXPECT_EQ(write_diagram(*pos_of(MATSURI)), slurp(hisha::testing::notation_data("western/email_board_matsuri.txt")));
    EXPECT_EQ(write_diagram(*pos_of("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1")),
              slurp(hisha::testing::notation_data("western/email_board_full_hands.txt")));
}

TEST(Diagram, RoundTripsToTheSameSfen) {
    for (const auto& sfen : sample_sfens()) {
        auto pos = pos_of(sfen);
        std::string text = write_diagram(*pos);
        EXPECT_EQ(parsed(read_diagram, text, sfen + "\n" + text), pos->sfen());
        // Moves listed above the board (as e-mail games send them) and CRLF change nothing.
        std::string crlf;
        for (char c : "1. P-7f P-3d 2. P-2f\n\n" + text)
            crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        EXPECT_EQ(parsed(read_diagram, crlf, "the CRLF diagram of " + sfen), pos->sfen());
    }
}

TEST(Diagram, ReadsHandAndCellVariants) {
    std::string text = write_diagram(*pos_of("4k4/9/9/9/9/9/9/9/4K4 b - 1"));
    // Hands written other ways: "P5", "Px2", "bS", commas, "-".
    std::string hands = replaced(text, "|                  |\n|    |", "| P5, Px2 bS w2G   |\n|    |");
    hands = replaced(hands, "|                  |\n|    |", "| -                |\n|    |");
    EXPECT_EQ(parsed(read_diagram, hands, "the hand variants"), "4k4/9/9/9/9/9/9/9/4K4 b 2gs7p 1");
    // A promoted piece as "w+P", indentation, and no side-to-move line (Black, move 1).
    std::string cells = replaced(text, "|    |    |    |    | wK |", "|    |    |    | w+P| wK |");
    cells = cells.substr(0, cells.find("Black to move"));
    std::string indented;
    std::istringstream in(cells);
    for (std::string l; std::getline(in, l);)
        indented += "    " + l + "\n";
    EXPECT_EQ(parsed(read_diagram, "Some e-mail text.\n\n" + indented + "\nMy move: P-7f\n", "the indented diagram"),
              "3+pk4/9/9/9/9/9/9/9/4K4 b - 1");
    EXPECT_EQ(parsed(read_diagram, replaced(text, "Black to move (move 1)", "White to play, move 37"),
                     "White to play, move 37"),
              "4k4/9/9/9/9/9/9/9/4K4 w - 37");
}

TEST(Diagram, ErrorsNameLineAndColumn) {
    using C = core::ParseErrorCode;
    const std::string start = write_diagram(core::Position());
    std::string cut = start.substr(0, start.find("| bP"));
    expect_read_errors(
        read_diagram,
        {
            {"no board here\n", C::BadBoard, 2, 1, "no board: expected a line starting with +---"},
            {replaced(start, "| wR |", "| xR |"), C::BadBoard, 5, 7,
             "bad cell 'xR': expected wX or bX (X one of P L N S G B R K), '+' if promoted"},
            {replaced(start, "| wR |", "| wQ |"), C::BadBoard, 5, 7,
             "bad cell 'wQ': expected wX or bX (X one of P L N S G B R K), '+' if promoted"},
            {replaced(start, "| wK |", "|+wK |"), C::BadBoard, 3, 22,
             "bad cell '+wK': expected wX or bX (X one of P L N S G B R K), '+' if promoted"},
            {replaced(start, "| bP |  g", "| bP  g"), C::BadBoard, 15, 48, "rank g has 8 cells, expected 9"},
            {replaced(start, "|  c\n", "|  d\n"), C::BadBoard, 7, 49, "rank 'd' where rank 'c' was expected"},
            {replaced(start, "|  c\n", "|  c  what?\n"), C::BadBoard, 7, 52, "unexpected text right of the board"},
            {replaced(replaced(start, "       White in hand:", ""), "|                  |\n|    | wR",
                      "| P                |\n|    | wR"),
             C::BadHand, 4, 55, "a hand box without 'White in hand:' or 'Black in hand:' above it"},
            {replaced(start, "|                  |\n| bL | bN", "| Q                |\n| bL | bN"), C::BadHand, 18, 55,
             "bad piece in hand 'Q'"},
            {replaced(start, "|                  |\n| bL | bN", "| K                |\n| bL | bN"), C::BadHand, 18, 55,
             "bad piece in hand 'K'"},
            // A board cut short, and a position the rules refuse (reported at the cell).
            {cut, C::BadBoard, 15, 1, "expected rank g of the board"},
            {cut.substr(0, cut.size() - 1), C::BadBoard, 14, 1, "the board has 6 ranks, expected 9"},
            {replaced(start, "| wN | wL |  a", "| wN | bP |  a"), C::IllegalPosition, 3, 42,
             "Black pawn on 1a could never move"},
            {replaced(start, "|    | wR |", "|    | wK |"), C::IllegalPosition, 5, 7, "two White kings"},
            {replaced(start, "|                  |\n| bL | bN", "| R 40P            |\n| bL | bN"), C::BadHand, 18, 57,
             "hand: 40 P is more than the 31 that exist"},
        });
}

TEST(XshogiPosition, WritesGoldenFiles) {
    EXPECT_EQ(write_xshogi_position(core::Position()), slurp(hisha::testing::notation_data("psn/position_start.txt")));
    EXPECT_EQ(write_xshogi_position(*pos_of(MATSURI)),
              slurp(hisha::testing::notation_data("psn/position_matsuri.txt")));
    EXPECT_EQ(parsed(read_xshogi_position, slurp(hisha::testing::notation_data("psn/position_matsuri.txt")),
                     "position_matsuri.txt"),
              pos_of(MATSURI)->sfen());
}

TEST(XshogiPosition, RoundTripsWithMoveNumberOne) {
    for (const auto& sfen : sample_sfens()) {
        auto pos = pos_of(sfen);
        EXPECT_EQ(parsed(read_xshogi_position, write_xshogi_position(*pos), sfen), pos->sfen(false) + " 1");
    }
}

TEST(XshogiPosition, GnushogiHeaderReadsBack) {
    auto pos = pos_of(MATSURI);
    std::string text = write_xshogi_position(*pos, "", PositionFileHeader::Gnushogi);
    EXPECT_EQ(text.rfind("# xshogi position file -- \n\n\n l6nl\n", 0), std::string::npos);
    EXPECT_EQ(text.rfind("# xshogi position file -- \n\n\n l . .", 0), 0u);
    EXPECT_EQ(parsed(read_xshogi_position, text, "the gnushogi header"), pos->sfen());
}

TEST(XshogiPosition, ReadsGnushogisHeaderAndLooseSpacing) {
    // gnushogi's xsave writes three header lines; rows may lose their trailing spaces.
    std::string text = "# xshogi position file -- \n\n\n"
                       "l n s g k g s n l\n . r . . . . . b .\np p p p p p p p p\n. . . . . . . . .\n"
                       " . . . . . . . . .\n . . . . . . . . .\n P P P P P P P P P\n . B . . . . . R .\n"
                       " L N S G K G S N L\n0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0\nwhite to play\n";
    EXPECT_EQ(parsed(read_xshogi_position, text, "the loose spacing"),
              "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");
}

TEST(XshogiPosition, ErrorsNameLineAndColumn) {
    using C = core::ParseErrorCode;
    const std::string start = write_xshogi_position(core::Position());
    expect_read_errors(
        read_xshogi_position,
        {
            {"", C::BadBoard, 1, 1, "expected 9 board rows"},
            {replaced(start, " . r . .", " . q . ."), C::BadBoard, 4, 4, "unknown piece 'q'"},
            {replaced(start, " . r . .", " . r ."), C::BadBoard, 4, 17, "a row has 8 squares, expected 9"},
            {replaced(start, " . r . .", " . r . . ."), C::BadBoard, 4, 20, "more than 9 squares in a row"},
            {replaced(start, " . r . .", " . + . ."), C::BadBoard, 4, 4, "'+' not followed by a piece"},
            {replaced(start, "0 0 0 0 0 0 0 0\n0", "0 0 x 0 0 0 0 0\n0"), C::BadHand, 12, 5,
             "hand: expected the count of N"},
            {replaced(start, "0 0 0 0 0 0 0 0\n0", "0 0 0 0 0 0 0 1\n0"), C::BadHand, 12, 15,
             "hand: a king cannot be held"},
            {replaced(start, "0 0 0 0 0 0 0 0\n0", "0 0 0 0 0 0 0 0 7\n0"), C::BadHand, 12, 17,
             "hand: unexpected text"},
            {start.substr(0, start.find("0 0 0 0 0 0 0 0\nblack")), C::BadHand, 13, 1, "expected two hand lines"},
            {replaced(start, "black to play\n", ""), C::BadSideToMove, 14, 1,
             "expected 'black to play' or 'white to play'"},
            {replaced(start, "black to play", "nobody"), C::BadSideToMove, 14, 1,
             "expected 'black to play' or 'white to play'"},
            {replaced(start, " l n s", " P n s"), C::IllegalPosition, 3, 2, "Black pawn on 9a could never move"},
            {replaced(start, "0 0 0 0 0 0 0 0\n0", "40 0 0 0 0 0 0 0\n0"), C::BadHand, 12, 1,
             "hand: 40 P is more than the 31 that exist"},
        });
}
