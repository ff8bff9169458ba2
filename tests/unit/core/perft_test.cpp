// Perft against the published counts of tests/data/vectors/perft.tsv (one test per row and
// depth, up to 60M leaves: about a minute of CPU in all under the sanitizers), and
// a divide check: the per-move subtotals of the start position add up to the total.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"

using namespace hisha::core;

namespace {

constexpr std::uint64_t MAX_NODES = 60'000'000;

struct PerftRow {
    std::string name;
    std::string sfen;
    int depth = 0;
    std::uint64_t nodes = 0;
};

// Shown by GoogleTest and CTest instead of a byte dump.
void PrintTo(const PerftRow& row, std::ostream* os) { *os << row.name << " depth " << row.depth; }

std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    for (std::string col; std::getline(ss, col, '\t');)
        cols.push_back(col);
    return cols;
}

// Rows of perft.tsv with at most MAX_NODES leaves. A missing or malformed file yields one
// row that fails with a clear message instead of silently testing nothing.
std::vector<PerftRow> load_rows() {
    const std::string path = HISHA_TESTDATA_DIR "/perft.tsv";
    std::ifstream in(path);
    std::vector<PerftRow> rows;
    std::string line;
    if (!in || !std::getline(in, line) || line.rfind("name\tsfen\tdepth\tnodes", 0) != 0)
        return {PerftRow{"missing_or_bad_header", path, 0, 0}};
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty())
            continue;
        auto cols = split_tabs(line);
        if (cols.size() < 4)
            return {PerftRow{"malformed_row", line, 0, 0}};
        PerftRow row{cols[0], cols[1], std::stoi(cols[2]), std::stoull(cols[3])};
        if (row.nodes <= MAX_NODES)
            rows.push_back(row);
    }
    return rows;
}

class PerftTsv : public testing::TestWithParam<PerftRow> {};

}  // namespace

TEST_P(PerftTsv, MatchesPublishedCount) {
    const PerftRow& row = GetParam();
    ASSERT_GT(row.depth, 0) << "could not read perft.tsv: " << row.name << " " << row.sfen;
    Position pos;
    // Relaxed: one row holds three bishops and three rooks.
    auto r = pos.set(row.sfen, SfenRules::Relaxed);
    ASSERT_TRUE(r.has_value()) << row.sfen << ": " << r.error().to_string();
    const std::string before = pos.sfen();
    EXPECT_EQ(perft(pos, row.depth), row.nodes) << row.name << " depth " << row.depth << ": " << row.sfen;
    EXPECT_EQ(pos.sfen(), before) << "perft did not restore the position";
}

INSTANTIATE_TEST_SUITE_P(Published, PerftTsv, testing::ValuesIn(load_rows()),
                         [](const testing::TestParamInfo<PerftRow>& row) {
                             std::string id = row.param.name + "_d" + std::to_string(row.param.depth);
                             for (char& ch : id)
                                 if (!std::isalnum(static_cast<unsigned char>(ch)))
                                     ch = '_';
                             return id;
                         });

TEST(Perft, TsvHasTheExpectedRows) {
    // The suite must not shrink silently (a renamed column, a moved file).
    auto rows = load_rows();
    ASSERT_GE(rows.size(), 25u);
    bool start5 = false, matsuri3 = false;
    for (const auto& row : rows) {
        start5 = start5 || (row.name == "startpos" && row.depth == 5 && row.nodes == 19861490);
        matsuri3 = matsuri3 || (row.name == "matsuri" && row.depth == 3 && row.nodes == 4809015);
    }
    EXPECT_TRUE(start5);
    EXPECT_TRUE(matsuri3);
}

TEST(Perft, DivideOfStartPositionSumsToTotal) {
    Position pos;
    MoveList<LEGAL, true> moves(pos);
    ASSERT_EQ(moves.size(), 30u);
    std::uint64_t sum = 0;
    for (const ScoredMove& sm : moves) {
        StateInfo st;
        pos.do_move(sm.move, st);
        std::uint64_t n = perft(pos, 2);
        pos.undo_move(sm.move);
        EXPECT_GT(n, 0u) << to_usi(sm.move);
        sum += n;
    }
    EXPECT_EQ(sum, 25470u);
    EXPECT_EQ(sum, perft(pos, 3));
    EXPECT_EQ(pos.sfen(), std::string(START_SFEN));
}

TEST(Perft, DepthZeroAndOne) {
    Position pos;
    EXPECT_EQ(perft(pos, 0), 1u);
    EXPECT_EQ(perft(pos, 1), 30u);
}
