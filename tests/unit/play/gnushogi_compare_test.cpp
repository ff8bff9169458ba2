// The same raw-mode scripts through Debian's `gnushogi -R` and `hisha -R` (real processes,
// stdin and stdout redirected), compared on what both programs are meant to agree on: which
// inputs are refused ("Illegal move (...) INPUT" from both, in the same order), the position
// `bd` shows at each checkpoint, and how many moves the program made. A checkpoint is a line
// `markN` after `bd`: both refuse it, and the last board shown before that refusal is the one
// compared. Both programs start without time arguments (neither asks for a time control) and
// search at a fixed depth where they move. Skipped when gnushogi is not installed.
//
// Where Hisha deliberately differs, the scripts stay off the difference:
// - the board: Hisha draws the manual's diagram (bP/wP cells, hands by name), GNU Shogi 1.4.2
//   a bare letter grid (lower case Black); both are read back into one position here;
// - the reasons in "Illegal move (REASON) INPUT": GNU says "no match", Hisha says why;
// - `remove` with one ply to take back: GNU refuses it as a move, Hisha takes back that ply;
// - `depth 4` on one line: GNU asks "depth = " and reads the next line, Hisha takes the 4
//   (the scripts give the number on the next line, which both read);
// - `save` to a name with an extension Hisha knows (.kif, .csa, .psn ...) writes that format;
//   other names get GNU Shogi's own save file, which both programs read;
// - the moves the engine chooses (another engine): only that each made one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "play_driver.h"

namespace hisha::play {
namespace {

constexpr const char* GNUSHOGI = "/usr/games/gnushogi";

struct Transcript {
    std::vector<std::string> refused;          // inputs answered "Illegal move", marks excluded
    std::map<std::string, std::string> marks;  // mark -> the position shown before it
    int engine_moves = 0;                      // "My move is: ..."
    std::string text;                          // everything, for failure messages
};

// Runs `command` in a directory of its own with `script` as its standard input.
std::string run_program(const std::string& name, const std::string& command, const std::string& script) {
    static int n = 0;
    auto dir = std::filesystem::path(testing::temp_dir()) / (name + std::to_string(++n));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "in") << script;
    std::string sh = "cd '" + dir.string() + "' && env HISHA_HASHFILE=/nonexistent/compare.hsh timeout 120 " + command
                   + " <in >out 2>&1";
    int rc = std::system(sh.c_str());
    std::ifstream in(dir / "out");
    std::stringstream out;
    out << in.rdbuf();
    EXPECT_EQ(rc, 0) << command << " failed; output:\n" << out.str();
    return out.str();
}

// A cell as SFEN writes it: Black upper case, White lower case, '+' promoted, "." empty.
std::string sfen_cell(char piece, bool black, bool promoted) {
    char c = char(black ? std::toupper(piece) : std::tolower(piece));
    return (promoted ? "+" : "") + std::string(1, c);
}

// GNU Shogi's raw board row: nine cells of ' ' or '+' then a letter (lower case Black) or '-'.
std::optional<std::vector<std::string>> gnu_row(const std::string& l) {
    if (l.size() != 18)
        return std::nullopt;
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < 18; i += 2) {
        char p = l[i + 1];
        if ((l[i] != ' ' && l[i] != '+') || !(std::isalpha(static_cast<unsigned char>(p)) || p == '-'))
            return std::nullopt;
        cells.push_back(p == '-' ? "." : sfen_cell(p, std::islower(static_cast<unsigned char>(p)), l[i] == '+'));
    }
    return cells;
}

// Hisha's diagram row: "| wL |    | +bR | ... |  a".
std::optional<std::vector<std::string>> hisha_row(const std::string& l) {
    if (l.size() < 4 || l[0] != '|' || l.substr(l.size() - 3, 2) != "  ")
        return std::nullopt;
    std::vector<std::string> cells;
    std::stringstream in(l.substr(1, l.rfind('|') - 1));
    for (std::string cell; std::getline(in, cell, '|');) {
        cell.erase(0, cell.find_first_not_of(' '));
        cell.erase(cell.find_last_not_of(' ') + 1);
        bool promoted = !cell.empty() && cell[0] == '+';
        std::string body = cell.substr(promoted ? 1 : 0);
        if (!cell.empty() && (body.size() != 2 || (body[0] != 'b' && body[0] != 'w')))
            return std::nullopt;
        cells.push_back(cell.empty() ? "." : sfen_cell(body[1], body[0] == 'b', promoted));
    }
    if (cells.size() != 9)
        return std::nullopt;
    return cells;
}

// "1B 2P" (GNU) or "B L 28P" (Hisha) as sorted "letter count" pairs.
std::string hand_of(const std::string& text) {
    std::map<char, int> count;
    std::stringstream in(text);
    for (std::string w; in >> w;) {
        if (w == "-")
            continue;
        char letter = char(std::toupper(static_cast<unsigned char>(w.back())));
        count[letter] += w.size() > 1 ? std::atoi(w.c_str()) : 1;
    }
    std::string out;
    for (auto [letter, n] : count)
        out += std::string(1, letter) + std::to_string(n) + " ";
    return out;
}

std::string strip_prompts(std::string l) {
    for (const std::string p : {"Your move is? ", "Enter file name: "})
        for (std::size_t at; (at = l.find(p)) != std::string::npos;)
            l.erase(at, p.size());
    return l;
}

// Reads a transcript of either program: boards (9 rows in a row, with the hands around them),
// refusals, checkpoints and the program's moves.
Transcript read_transcript(const std::string& text, bool gnu) {
    Transcript t;
    t.text = text;
    int rows = 0;
    std::string board, last_board, black_hand, white_hand;  // the hands shown last (around the board)
    std::stringstream in(text);
    for (std::string raw; std::getline(in, raw);) {
        std::string l = strip_prompts(raw);
        if (auto row = gnu ? gnu_row(l) : hisha_row(l)) {
            for (auto& c : *row)
                board += c;
            board += "/";
            if (++rows == 9)
                last_board = board;
            continue;
        }
        if (!gnu && l.starts_with("+---"))
            continue;  // the diagram's lines between ranks
        if (rows != 0 && rows != 9)
            ADD_FAILURE() << "a board of " << rows << " rows in:\n" << text;
        rows = 0;
        board.clear();
        if (l.starts_with(gnu ? "black " : "Black in hand: "))
            black_hand = hand_of(l.substr(gnu ? 6 : 15));
        if (l.starts_with(gnu ? "white " : "White in hand: "))
            white_hand = hand_of(l.substr(gnu ? 6 : 15));
        if (l.starts_with("My move is: "))
            ++t.engine_moves;
        if (l.find("Illegal move (") != std::string::npos) {
            std::string input = l.substr(l.rfind(") ") + 2);
            if (input.starts_with("mark"))
                t.marks[input] = last_board + " b:" + black_hand + " w:" + white_hand;
            else
                t.refused.push_back(input);
        }
    }
    return t;
}

// The script through both programs; each must agree on refusals, checkpoints and moves.
// Returns GNU Shogi's transcript.
Transcript compare(const std::string& name, const std::string& script, std::size_t expected_marks) {
    std::string hisha_cmd = std::string(HISHA_BINARY) + " -R";
    Transcript gnu = read_transcript(run_program(name + "_gnu", std::string(GNUSHOGI) + " -R", script), true);
    Transcript hisha = read_transcript(run_program(name + "_hisha", hisha_cmd, script), false);
    EXPECT_EQ(gnu.marks.size(), expected_marks) << "gnushogi:\n" << gnu.text;
    EXPECT_EQ(hisha.marks.size(), expected_marks) << "hisha:\n" << hisha.text;
    EXPECT_EQ(hisha.refused, gnu.refused) << "gnushogi:\n" << gnu.text << "\nhisha:\n" << hisha.text;
    for (const auto& [mark, position] : gnu.marks) {
        EXPECT_EQ(std::count(position.begin(), position.end(), '/'), 9) << mark << ": no board read before it";
        EXPECT_EQ(hisha.marks[mark], position) << mark << "\ngnushogi:\n" << gnu.text << "\nhisha:\n" << hisha.text;
    }
    EXPECT_EQ(hisha.engine_moves, gnu.engine_moves) << "gnushogi:\n" << gnu.text << "\nhisha:\n" << hisha.text;
    return gnu;
}

class GnuShogiCompare : public ::testing::Test {
protected:
    void SetUp() override {
        if (!std::filesystem::exists(GNUSHOGI))
            GTEST_SKIP() << GNUSHOGI << " is not installed";
    }
};

TEST_F(GnuShogiCompare, MovesAcceptedAndRefused) {
    // 7g7e (too far), a word that is no command, 2b3a (White to move), P*5e (no pawn in
    // hand), 2g2f on White's turn; 8h2b promotes in neither; then a capture and a drop.
    Transcript gnu =
        compare("moves",
                "force\n7g7e\nbogus\n7g7f\n3c3d\n8h2b\n2b3a\nP*5e\nbd\nmark1\n3a2b\nB*5e\n2g2f\nbd\nmark2\n"
                "8c8d\n5e1a+\nbd\nmark3\nquit\n",
                3);
    EXPECT_EQ(gnu.refused, (std::vector<std::string>{"7g7e", "bogus", "2b3a", "P*5e", "2g2f", "5e1a+"}));
}

TEST_F(GnuShogiCompare, PromotionSuffixAndIllegalDrops) {
    // 8h2b+ promotes; two pawns on a file and a move into check are refused by both.
    compare("promotion",
            "force\n7g7f\n3c3d\n8h2b+\n3a2b\nbd\nmark1\nB*3c\n4a3b\nP*7e\n7c7d\nP*7c\n2g2f\nbd\nmark2\nquit\n", 2);
}

TEST_F(GnuShogiCompare, UndoAndRemove) {
    // (With nothing to take back GNU refuses undo as a move, Hisha says "Nothing to undo.")
    compare("undo", "force\n7g7f\n3c3d\n2g2f\nundo\nbd\nmark1\n8c8d\nremove\nbd\nmark2\n2g2f\nundo\nbd\nmark3\nquit\n",
            3);
}

TEST_F(GnuShogiCompare, SaveAndGetOwnFiles) {
    // Each program reads back the file it wrote (the formats differ: see above); the name is
    // read from the next line, whatever follows it.
    compare("save", "force\n7g7f\n3c3d\n2g2f\nsave\ngame.sav\nnew\nbd\nmark1\nget\ngame.sav\nbd\nmark2\nquit\n", 2);
}

TEST_F(GnuShogiCompare, SaveFilesReadBothWays) {
    // The same game saved by each program; each file read by both: the same position, and
    // undo takes back the same moves (a drop, then a capture of a promoted piece).
    std::string dir = testing::temp_dir();
    std::string game = "force\n7g7f\n3c3d\n8h2b+\n3a2b\nB*4e\nsave\n";
    run_program("write_hisha", std::string(HISHA_BINARY) + " -R", game + dir + "/by_hisha.sav\nquit\n");
    run_program("write_gnu", std::string(GNUSHOGI) + " -R", game + dir + "/by_gnu.sav\nquit\n");
    for (const char* file : {"/by_hisha.sav", "/by_gnu.sav"}) {
        SCOPED_TRACE(file);
        Transcript gnu =
            compare("read", "get\n" + dir + file + "\nbd\nmark1\nundo\nbd\nmark2\nundo\nbd\nmark3\nquit\n", 3);
        EXPECT_EQ(gnu.marks["mark1"].substr(gnu.marks["mark1"].find(" b:")), " b: w:B1 ");  // the file's game
        EXPECT_EQ(gnu.marks["mark2"].substr(gnu.marks["mark2"].find(" b:")), " b:B1  w:B1 ");
    }
}

TEST_F(GnuShogiCompare, DepthAndTheProgramsMove) {
    // One move each at depth 2; taking both plies back leaves the start position.
    compare("depth", "depth\n2\n7g7f\nundo\nundo\nbd\nmark1\nquit\n", 1);
}

TEST_F(GnuShogiCompare, HashdepthAndWindowsReadTwoNumbers) {
    // Each reads its two numbers, on two lines or one, and nothing more: the next lines are
    // moves and the checkpoint for both.
    compare("numbers", "force\nhashdepth\n5\n12\nAwindow\n100\n110\nBwindow\n80 90\nxwndw\n50\n7g7f\nbd\nmark1\nquit\n",
            1);
}

TEST_F(GnuShogiCompare, LevelAndSetup) {
    // level takes its numbers on its line in both; setup reads nine rows (GNU Shogi 1.4.2
    // drops the line after `setup`, Hisha skips an empty one there, so the script has one)
    // and starts a new game: force mode ends, so each program answers 8h2b.
    compare("setup",
            "force\nlevel 40 5\nsetup\n\nLNSGKGSNL\n.R.....B.\nPPPPPP.PP\n......P..\n.........\n..p......\n"
            "pp.pppppp\n.b.....r.\nlnsgkgsnl\nbd\nmark1\ndepth\n1\n8h2b\nundo\nbd\nmark2\nquit\n",
            2);
}

}  // namespace
}  // namespace hisha::play
