#include "core/text.h"

#include <gtest/gtest.h>

namespace hisha::text {
namespace {

TEST(Text, TrimTakesWhiteSpaceFromBothEndsOnly) {
    EXPECT_EQ(trim(" \t a b \r\n"), "a b");
    EXPECT_EQ(trim_view("\v\fx\f"), "x");
    EXPECT_EQ(trim("   "), "");
    EXPECT_EQ(trim(""), "");
    EXPECT_EQ(trim("\xe3\x80\x80x"), "\xe3\x80\x80x");  // U+3000 is not ASCII white space
}

TEST(Text, CaseChangesOnlyAsciiLetters) {
    EXPECT_EQ(lower("P-7f Resign"), "p-7f resign");
    EXPECT_EQ(upper("p*8f ok"), "P*8F OK");
    EXPECT_EQ(lower("\xe9\xa3\x9b"), "\xe9\xa3\x9b");
    EXPECT_TRUE(iequals("LOGIN", "login"));
    EXPECT_FALSE(iequals("login", "logins"));
    EXPECT_FALSE(iequals("a", "b"));
    EXPECT_TRUE(starts_with_ci("Shift_JIS", "shift_"));
    EXPECT_FALSE(starts_with_ci("sh", "shift"));
}

TEST(Text, WordsSplitAtRunsOfWhiteSpace) {
    EXPECT_EQ(words("  level 40  5 \n"), (std::vector<std::string>{"level", "40", "5"}));
    EXPECT_TRUE(words(" \t ").empty());
    EXPECT_EQ(words("one"), (std::vector<std::string>{"one"}));
}

TEST(Text, LinesSplitAtLfAndDropCr) {
    EXPECT_EQ(lines("a\r\nb\n\nc"), (std::vector<std::string_view>{"a", "b", "", "c"}));
    EXPECT_EQ(lines("a\n"), (std::vector<std::string_view>{"a"}));
    EXPECT_TRUE(lines("").empty());
}

}  // namespace
}  // namespace hisha::text
