// Encoding detection and decoding of record files: Shift_JIS and UTF-8 files are told apart,
// and a byte that does not decode is reported at its own line and column, also when one line
// of a UTF-8 file was written in Shift_JIS.
#include <gtest/gtest.h>

#include <string>

#include "notation/encoding.h"
#include "notation/kif.h"

namespace hisha::notation {
namespace {

// 「先手：羽生」 and a move line, in UTF-8, then the same text in Shift_JIS (CP932) bytes.
const std::string UTF8_HEADER = "\xE5\x85\x88\xE6\x89\x8B\xEF\xBC\x9A\xE7\xBE\xBD\xE7\x94\x9F";
const std::string SJIS_HEADER = "\x90\xE6\x8E\xE8\x81\x46\x89\x48\x90\xB6";

TEST(Encoding, DetectsShiftJisAndUtf8) {
    EXPECT_EQ(detect_encoding(SJIS_HEADER + "\n"), Encoding::ShiftJis);
    EXPECT_EQ(detect_encoding(UTF8_HEADER + "\n"), Encoding::Utf8);
    EXPECT_EQ(detect_encoding("plain ascii\n"), Encoding::Utf8);
    Decoded d = to_utf8(SJIS_HEADER, Encoding::ShiftJis);
    EXPECT_EQ(d.text, UTF8_HEADER);
    EXPECT_EQ(d.bad_line, 0);
}

TEST(Encoding, AShiftJisLineInAUtf8FileIsReportedWhereItIs) {
    std::string bytes;
    for (int i = 1; i <= 22; ++i)
        bytes += UTF8_HEADER + "\n";
    bytes += "*" + SJIS_HEADER + "\n";  // line 23
    bytes += UTF8_HEADER + "\n";
    EXPECT_EQ(detect_encoding(bytes), Encoding::Utf8);
    Decoded d = to_utf8(bytes, Encoding::Utf8);
    EXPECT_EQ(d.bad_line, 23);
    EXPECT_EQ(d.bad_column, 2);
}

TEST(Encoding, AShiftJisFileWithABadByteIsReportedWhereItIs) {
    std::string bytes = SJIS_HEADER + "\n" + SJIS_HEADER + "\n" + "\x81\x20" + "\n";
    EXPECT_EQ(detect_encoding(bytes), Encoding::ShiftJis);
    Decoded d = to_utf8(bytes, Encoding::ShiftJis);
    EXPECT_EQ(d.bad_line, 3);
    EXPECT_EQ(d.bad_column, 1);
}

TEST(Encoding, AKifReaderNamesTheLineOfTheBadBytes) {
    std::string bytes = "#KIF version=2.0\n";
    for (int i = 2; i <= 22; ++i)
        bytes += UTF8_HEADER + "\n";
    bytes += "*" + SJIS_HEADER + "\n";
    auto r = read_kif(bytes);
    ASSERT_FALSE(r.has_value());
    EXPECT_EQ(r.error().line, 23) << r.error().to_string();
    EXPECT_EQ(r.error().column, 2) << r.error().to_string();
    EXPECT_NE(r.error().to_string().find("utf-8"), std::string::npos) << r.error().to_string();
}

}  // namespace
}  // namespace hisha::notation
