// Every problem of tests/data/vectors/tsume.tsv up to 13 plies, and every no-mate row, is
// solved with exactly its stated (shortest) length and a line the core accepts. The longer
// problems take minutes each: bench/tsume/run.sh solves, verifies and times them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>

#include "tsume/solver.h"
#include "tsume_test_util.h"

namespace hisha::tsume::test {
namespace {

std::vector<Problem> problems_up_to(int max_len) {
    std::vector<Problem> out;
    for (const Problem& p : load_problems())
        if (p.length <= max_len)
            out.push_back(p);
    return out;
}

class ProblemTest : public ::testing::TestWithParam<Problem> {
protected:
    // One table for every problem of the process (a table costs more than a short problem).
    static Solver& solver() {
        static Solver s;
        return s;
    }
};

TEST_P(ProblemTest, ShortestLengthAndLine) {
    const Problem& p = GetParam();
    core::Position pos;
    ASSERT_TRUE(pos.set(p.sfen, core::SfenRules::Relaxed)) << p.sfen;
    Limits limits;
    limits.memory_mb = 64;
    limits.max_nodes = 20'000'000;
    limits.time_limit_s = 120;  // a safety net; the node budget decides
    limits.cpu_time = true;     // the solver's own CPU time: a shared machine may give it a small share
    Result r = solver().solve(pos, limits);
    if (p.length < 0) {
        EXPECT_EQ(r.status, Status::NoMate) << p.id << ": " << format_result(r, Convention::Ordinary);
        return;
    }
    ASSERT_EQ(r.status, Status::Mate) << p.id << ": " << format_result(r, Convention::Ordinary);
    EXPECT_TRUE(r.exact);
    EXPECT_EQ(r.length, p.length) << p.id;
    EXPECT_EQ(replay_error(p.sfen, r.pv, r.length), "") << p.id << ": " << format_result(r, Convention::Ordinary);
}

std::string name_of(const ::testing::TestParamInfo<Problem>& info) {
    std::string s = info.param.id;
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)))
            c = '_';
    return s;
}

INSTANTIATE_TEST_SUITE_P(Tsv, ProblemTest, ::testing::ValuesIn(problems_up_to(13)), name_of);

// The problem list is there and whole: a missing or cut file would leave the tests above with
// nothing to check (440 rows: 429 mates of 1 to 1525 plies, 11 positions without a mate).
TEST(ProblemList, IsPresentAndWhole) {
    auto problems = load_problems();
    ASSERT_GE(problems.size(), 440u) << "tests/data/vectors/tsume.tsv is missing or incomplete";
    EXPECT_GE(problems_up_to(13).size(), 350u);
    EXPECT_EQ(std::count_if(problems.begin(), problems.end(), [](const Problem& p) { return p.length < 0; }), 11);
}

}  // namespace
}  // namespace hisha::tsume::test
