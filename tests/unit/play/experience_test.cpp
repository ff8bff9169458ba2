// The experience file: creation, learning, the file round trip, the capacity, and seeding
// the engine's transposition table.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "core/movegen.h"
#include "engine/tt.h"
#include "play/experience.h"
#include "play_driver.h"

namespace hisha::play {
namespace {

std::string temp_path(const char* name) {
    return (std::filesystem::temp_directory_path() / (std::string("hisha_play_") + name + ".hsh")).string();
}

// Each test's own experience file (named after the test, removed at its end), the experience
// and the start position.
class ExperienceFile : public ::testing::Test {
protected:
    ExperienceFile() { start.set_startpos(); }
    ~ExperienceFile() override { std::remove(path.c_str()); }

    std::string path = temp_path(::testing::UnitTest::GetInstance()->current_test_info()->name());
    Experience e;
    core::Position start;
};

TEST_F(ExperienceFile, MissingFileStaysClosed) {
    EXPECT_TRUE(e.open(path).has_value());
    EXPECT_FALSE(e.is_open());
}

TEST_F(ExperienceFile, LearnsSavesAndReloads) {
    ASSERT_TRUE(e.create(path, 4));
    core::Move m = start.make_move(core::SQ_77, core::SQ_76, false);
    e.record(start, m, 35, 9);
    e.record(start, m, 20, 5);  // shallower: the deeper entry stays
    ASSERT_TRUE(e.save());
    Experience f;
    ASSERT_TRUE(f.open(path));
    ASSERT_TRUE(f.is_open());
    auto entry = f.find(start.key());
    ASSERT_TRUE(entry);
    EXPECT_EQ(entry->move, m.to_move16());
    EXPECT_EQ(entry->score, 35);
    EXPECT_EQ(entry->depth, 9);
    EXPECT_EQ(entry->seen, 2);
    EXPECT_NE(f.statistics().find("Entries: 1 of 16"), std::string::npos) << f.statistics();
}

TEST_F(ExperienceFile, CapacityEvictsTheShallowest) {
    ASSERT_TRUE(e.create(path, 1));  // two entries
    int depth = 1;
    for (const auto& sm : core::MoveList<core::LEGAL>(start)) {
        auto q = start.clone();
        q->play(sm.move);
        e.record(*q, core::MoveList<core::LEGAL>(*q).begin()->move, 0, depth++);
        if (depth > 4)
            break;
    }
    EXPECT_EQ(e.size(), 2u);
}

TEST_F(ExperienceFile, SeedsTheTranspositionTable) {
    ASSERT_TRUE(e.create(path, 8));
    core::Move m1 = start.make_move(core::SQ_77, core::SQ_76, false);
    e.record(start, m1, 40, 12);
    auto q = start.clone();
    q->play(m1);
    q->play(q->make_move(core::SQ_33, core::SQ_34, false));
    core::Move m3 = q->make_move(core::SQ_27, core::SQ_26, false);
    e.record(*q, m3, 15, 10);
    engine::TranspositionTable tt;
    EXPECT_EQ(e.seed(tt, start, 4), 2);
    engine::TTData data;
    engine::TranspositionTable::Entry* slot;
    ASSERT_TRUE(tt.probe(q->key(), data, slot));
    EXPECT_EQ(data.move, m3.to_move16());
    EXPECT_EQ(data.value, 15);
    EXPECT_EQ(data.depth, 10);
    EXPECT_EQ(e.seed(tt, start, 11), 1);  // only the deeper entry passes the minimum depth
}

TEST_F(ExperienceFile, RefusesOtherFiles) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    std::fputs("not an experience file at all", f);
    std::fclose(f);
    EXPECT_FALSE(e.open(path));
    EXPECT_FALSE(e.is_open());
}

}  // namespace
}  // namespace hisha::play

namespace hisha::play {
namespace {

// The hashfile as GNU Shogi's options drive it: -c creates it, the program learns from its
// searches and saves on exit, the next run reads it back, -h leaves it alone, `hash` toggles.
TEST(ExperienceFlow, CreateLearnAndReuse) {
    std::string path = temp_path("flow");
    std::remove(path.c_str());
    // `book` first: a move from the opening book is no search and teaches nothing.
    std::string out = testing::run_script("book\ndepth 3\ngo\nquit\n", {"-R", "30", "-c", "10"}, path);
    EXPECT_NE(out.find("Created the experience file"), std::string::npos) << out;
    Experience e;
    ASSERT_TRUE(e.open(path));
    ASSERT_TRUE(e.is_open());
    EXPECT_EQ(e.size(), 1u);
    EXPECT_EQ(e.capacity(), 1024u);
    core::Position start;
    start.set_startpos();
    auto entry = e.find(start.key());
    ASSERT_TRUE(entry);
    EXPECT_EQ(entry->depth, 3);
    // A second game learns more; with -h the file is not touched.
    testing::run_script("book\ndepth 2\nforce\n7g7f\ngo\nquit\n", {"-R", "30"}, path);
    ASSERT_TRUE(e.open(path));
    EXPECT_EQ(e.size(), 2u);
    testing::run_script("book\ndepth 2\nforce\n2g2f\ngo\nquit\n", {"-R", "30", "-h"}, path);
    ASSERT_TRUE(e.open(path));
    EXPECT_EQ(e.size(), 2u);
    std::string off = testing::run_script("hash\nhash\n", {"-R", "30"}, path);
    EXPECT_NE(off.find("hash off"), std::string::npos);
    EXPECT_NE(off.find("hash on"), std::string::npos);
    std::remove(path.c_str());
}

}  // namespace
}  // namespace hisha::play
