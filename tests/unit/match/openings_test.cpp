// Openings: position lines, handicap names, records of any format, directories.
#include "match/openings.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/handicap.h"
#include "notation/csa.h"
#include "notation/kif.h"

using namespace hisha;
using namespace hisha::match;
namespace fs = std::filesystem;

namespace {

constexpr const char* CSA_GAME = "V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n%TORYO\n";

fs::path temp_dir(const std::string& name) {
    fs::path d = fs::temp_directory_path() / ("hisha_openings_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

void write(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace

TEST(Openings, PositionLines) {
    auto a = parse_opening_line("startpos moves 7g7f 3c3d", "x:1");
    ASSERT_TRUE(a.has_value()) << a.error();
    ASSERT_EQ(a->size(), 1u);
    EXPECT_EQ((*a)[0].start_sfen, core::START_SFEN);
    ASSERT_EQ((*a)[0].moves.size(), 2u);
    EXPECT_EQ(core::to_usi((*a)[0].moves[1]), "3c3d");
    EXPECT_EQ((*a)[0].name, "x:1");

    auto b = parse_opening_line("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2 moves 8c8d",
                                "x:2");
    ASSERT_TRUE(b.has_value()) << b.error();
    EXPECT_EQ((*b)[0].moves.size(), 1u);

    auto bare = parse_opening_line("  lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2  ", "x:3");
    ASSERT_TRUE(bare.has_value()) << bare.error();
    EXPECT_TRUE((*bare)[0].moves.empty());

    EXPECT_TRUE(parse_opening_line("# a comment", "x")->empty());
    EXPECT_TRUE(parse_opening_line("   ", "x")->empty());
}

TEST(Openings, HandicapNames) {
    for (const char* line : {"2-piece", "handicap 2-piece", "二枚落ち"}) {
        auto h = parse_opening_line(line, "h");
        ASSERT_TRUE(h.has_value()) << line;
        EXPECT_EQ((*h)[0].start_sfen, core::handicap_info(core::Handicap::TwoPiece).sfen) << line;
    }
}

TEST(Openings, BadLinesSayWhere) {
    auto r = parse_opening_line("startpos moves 7g7f 7g7f", "book.txt:4");
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().find("book.txt:4"), std::string::npos);
    EXPECT_FALSE(parse_opening_line("not a position", "x").has_value());
}

TEST(Openings, TextFileWithPlyLimit) {
    fs::path d = temp_dir("text");
    write(d / "book.txt", "# openings\nstartpos moves 7g7f 3c3d 2g2f\n\nstartpos moves 2g2f 8c8d\nlance\n");
    auto r = load_openings((d / "book.txt").string(), 2);
    ASSERT_TRUE(r.has_value()) << r.error();
    ASSERT_EQ(r->size(), 3u);
    EXPECT_EQ((*r)[0].moves.size(), 2u);  // cut to two plies
    EXPECT_EQ((*r)[0].name, "book.txt:2");
    EXPECT_EQ((*r)[2].start_sfen, core::handicap_info(core::Handicap::Lance).sfen);
    fs::remove_all(d);
}

TEST(Openings, RecordsByExtensionAndContent) {
    fs::path d = temp_dir("records");
    write(d / "a.csa", CSA_GAME);
    auto rec = notation::read_csa(CSA_GAME);
    ASSERT_TRUE(rec.has_value());
    write(d / "b.kif", notation::write_kif(*rec));
    write(d / "c.txt", CSA_GAME);  // no telling extension: recognised by its content
    for (const char* f : {"a.csa", "b.kif", "c.txt"}) {
        auto r = load_openings((d / f).string());
        ASSERT_TRUE(r.has_value()) << f << ": " << r.error();
        ASSERT_EQ(r->size(), 1u) << f;
        ASSERT_EQ((*r)[0].moves.size(), 3u) << f;
        EXPECT_EQ(core::to_usi((*r)[0].moves[2]), "8h2b+") << f;
    }
    auto all = load_openings(d.string());
    ASSERT_TRUE(all.has_value()) << all.error();
    EXPECT_EQ(all->size(), 3u);  // the directory: every file, in name order
    EXPECT_EQ((*all)[1].name, "b.kif");
    fs::remove_all(d);
}

TEST(Openings, MissingOrEmpty) {
    EXPECT_FALSE(load_openings("/nonexistent/openings.txt").has_value());
    fs::path d = temp_dir("empty");
    write(d / "empty.txt", "# nothing\n");
    EXPECT_FALSE(load_openings((d / "empty.txt").string()).has_value());
    fs::remove_all(d);
}
