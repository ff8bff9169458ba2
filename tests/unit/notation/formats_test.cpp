// Every shared record reads, and round-trips through every format: read -> write -> read
// gives the same start and moves (and, where the format holds it, the same result).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "notation/formats.h"
#include "test_files.h"

using namespace hisha::notation;
namespace fs = std::filesystem;

namespace {
using hisha::testing::files_in;
using hisha::testing::slurp;

std::vector<fs::path> shared_records() {
    std::vector<fs::path> v;
    for (const auto& dir : {"csa", "kif", "ki2", "western"})
        for (const auto& f : files_in(fs::path(HISHA_TESTDATA_DIR) / "records" / dir))
            v.push_back(f);
    std::sort(v.begin(), v.end());
    return v;
}
const char* ext(Format f) {
    switch (f) {
    case Format::Kif: return ".kif";
    case Format::Ki2: return ".ki2";
    case Format::Csa:
    case Format::Csa22: return ".csa";
    case Format::Psn:
    case Format::Western:
    case Format::Xshogi: return ".psn";
    case Format::Sfen: return ".sfen";
    case Format::Usi: return ".usi";
    }
    return "";
}
}  // namespace

TEST(Formats, EverySharedRecordRoundTripsThroughEveryFormat) {
    const Format formats[] = {Format::Kif,     Format::Ki2,    Format::Csa,  Format::Csa22, Format::Psn,
                              Format::Western, Format::Xshogi, Format::Sfen, Format::Usi};
    auto files = shared_records();
    ASSERT_GE(files.size(), 20u);
    for (const auto& path : files) {
        auto rec = read_record(slurp(path), path.string());
        ASSERT_TRUE(rec.has_value()) << path << ": " << rec.error().to_string();
        ASSERT_TRUE(final_position(*rec).has_value()) << path;
        for (Format f : formats) {
            for (Encoding enc : {Encoding::Utf8, Encoding::ShiftJis}) {
                if (enc == Encoding::ShiftJis && f != Format::Kif && f != Format::Ki2) {
                    continue;
                }
                std::string text = write_record(*rec, f, enc);
                auto back = read_record(text, std::string("x") + ext(f));
                ASSERT_TRUE(back.has_value())
                    << path << " -> " << format_name(f) << ": " << back.error().to_string() << "\n"
                    << text.substr(0, 400);
                EXPECT_EQ(back->start_sfen, rec->start_sfen) << path << " -> " << format_name(f);
                EXPECT_EQ(back->main_line(), rec->main_line()) << path << " -> " << format_name(f);
                if (f == Format::Kif || f == Format::Ki2 || f == Format::Csa) {
                    EXPECT_EQ(int(back->result.winner), int(rec->result.winner)) << path << " -> " << format_name(f);
                }
            }
        }
    }
}

TEST(Formats, DetectsFormatsFromContent) {
    const std::string start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n";
    for (const auto& [text, format] : std::initializer_list<std::pair<std::string, Format>>{
             {"position startpos moves 7g7f\n", Format::Usi},
             {"sfen " + start, Format::Sfen},
             {start, Format::Sfen},
             {"V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n", Format::Csa},
             {"手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n", Format::Kif},
             {"▲７六歩 △３四歩\n", Format::Ki2},
             {"[Sente \"a\"]\n1. P-7f 2. P-3d\n", Format::Psn}})
        EXPECT_EQ(detect_format(text), format) << text;
    EXPECT_EQ(format_from_extension("game.KIFU"), Format::Kif);
    EXPECT_EQ(format_from_extension("dir.v2/game"), std::nullopt);
    EXPECT_EQ(format_from_name("csa2.2"), Format::Csa22);
    EXPECT_FALSE(format_from_name("docx").has_value());
}

TEST(Formats, ErrorsKeepLineAndColumn) {
    auto r = read_record("position startpos moves 7g7f 3c3d 7f7d\n", "x.usi");
    ASSERT_FALSE(r.has_value());
    EXPECT_NE(r.error().to_string().find("col"), std::string::npos);
    auto k = read_record("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７四歩(76)\n", "x.kifu");
    ASSERT_FALSE(k.has_value());
    EXPECT_EQ(k.error().line, 4);
    EXPECT_GT(k.error().column, 0);
}
