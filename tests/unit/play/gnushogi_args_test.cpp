// GNU Shogi's command line (src/app/gnushogi_args).
#include <gtest/gtest.h>

#include "app/gnushogi_args.h"

namespace hisha::app {
namespace {

using play::DisplayMode;
using Kind = play::TimeControl::Kind;

GnuInvocation parse(std::vector<std::string> args, bool terminal = false) {
    auto r = parse_gnushogi_args(args, terminal);
    EXPECT_TRUE(r.has_value()) << (r ? "" : r.error());
    return r ? *r : GnuInvocation{};
}

TEST(GnuShogiArgs, WhichInvocationsAreGnuShogis) {
    EXPECT_TRUE(is_gnushogi_invocation({}));
    for (const char* a : {"-R", "-C", "-X", "30", "5:00", ":30", "a", "h", "-a", "-h", "-b", "-T", "-v", "-c"})
        EXPECT_TRUE(is_gnushogi_invocation({a})) << a;
    for (const char* a : {"usi", "bench", "help", "--help", "convert", "-q", "x"})
        EXPECT_FALSE(is_gnushogi_invocation({a})) << a;
}

TEST(GnuShogiArgs, DisplayModes) {
    EXPECT_EQ(parse({}, false).settings.mode, DisplayMode::Xshogi);
    EXPECT_EQ(parse({}, true).settings.mode, DisplayMode::Raw);
    EXPECT_EQ(parse({"-R"}).settings.mode, DisplayMode::Raw);
    EXPECT_EQ(parse({"-C"}).settings.mode, DisplayMode::Curses);
    EXPECT_EQ(parse({"-X"}, true).settings.mode, DisplayMode::Xshogi);
}

// Only the xshogi mode chosen because the input is no terminal looks for a USI GUI's `usi`.
TEST(GnuShogiArgs, TerminalInputAndProtocolDetection) {
    EXPECT_TRUE(parse({}, false).settings.detect_usi);
    EXPECT_TRUE(parse({"40", "5"}, false).settings.detect_usi);
    EXPECT_FALSE(parse({"-X"}, false).settings.detect_usi);
    EXPECT_FALSE(parse({"-R"}, false).settings.detect_usi);
    EXPECT_FALSE(parse({}, true).settings.detect_usi);
    EXPECT_TRUE(parse({"-R"}, true).settings.input_terminal);
    EXPECT_FALSE(parse({"-R"}, false).settings.input_terminal);
}

TEST(GnuShogiArgs, TimeArguments) {
    EXPECT_EQ(parse({}).settings.time.kind, Kind::None);
    EXPECT_EQ(parse({"30"}).settings.time.per_move_ms, 30000);
    EXPECT_EQ(parse({"5:00"}).settings.time.per_move_ms, 300000);
    auto t = parse({"-R", "30", "5", "1", ":30"}).settings.time;
    ASSERT_EQ(t.periods.size(), 2u);
    EXPECT_EQ(t.periods[0].moves, 30);
    EXPECT_EQ(t.periods[1].ms, 30000);
    EXPECT_EQ(parse({"60", "5"}).settings.time.periods[0].ms, 300000);
    EXPECT_FALSE(parse_gnushogi_args({"60", "5", "1"}, false));
}

TEST(GnuShogiArgs, OptionsWithValues) {
    auto inv = parse({"-b", "book.tbk", "-l", "in.gam", "-s", "out.gam", "-T", "20", "-x", "120", "a", "-h"});
    EXPECT_EQ(inv.settings.book_file, "book.tbk");
    EXPECT_EQ(inv.settings.load_path, "in.gam");
    EXPECT_EQ(inv.settings.save_path, "out.gam");
    EXPECT_GT(inv.settings.tt_mb, 0);
    EXPECT_EQ(inv.settings.xwndw, 120);
    EXPECT_EQ(inv.settings.ponder, true);
    EXPECT_FALSE(inv.settings.use_hash);
    EXPECT_EQ(parse({"-a"}).settings.ponder, false);
    EXPECT_EQ(parse({"-c", "16"}).settings.create_hash, 16);
    EXPECT_TRUE(parse({"-t"}).settings.hash_stats);
    EXPECT_TRUE(parse({"-v"}).version);
}

TEST(GnuShogiArgs, OldOptionsSayWhatTheyDoNow) {
    auto inv = parse({"-B", "gnushogi.bbk", "-S", "8000", "-L", "eng", "-r", "3", "-P", "10"});
    EXPECT_EQ(inv.settings.notes.size(), 5u);
    for (const auto& n : inv.settings.notes)
        EXPECT_FALSE(n.empty());
}

TEST(GnuShogiArgs, Errors) {
    EXPECT_FALSE(parse_gnushogi_args({"-b"}, false));
    EXPECT_FALSE(parse_gnushogi_args({"-c", "99"}, false));
    EXPECT_FALSE(parse_gnushogi_args({"-R", "usi"}, false));
}

}  // namespace
}  // namespace hisha::app
