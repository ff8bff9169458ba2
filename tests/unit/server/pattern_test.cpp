// 003 PATTERNS: every operator, as the help file states it.
#include <gtest/gtest.h>

#include "server/service/pattern.h"

using hisha::server::service::pattern_is_literal;
using hisha::server::service::pattern_matches;
using hisha::server::service::pattern_valid;

TEST(Pattern, PlainTextMatchesOnlyEqualNamesCaseInsensitively) {
    EXPECT_TRUE(pattern_matches("FOO.BAR", "FOO.BAR"));
    EXPECT_TRUE(pattern_matches("FOO.BAR", "foo.bar"));
    EXPECT_FALSE(pattern_matches("FOO.BAR", "FOO.BARX"));
    EXPECT_FALSE(pattern_matches("FOO.BAR", "FU.BAR"));
    EXPECT_TRUE(pattern_is_literal("FOO.BAR"));
    EXPECT_FALSE(pattern_is_literal("*.BAR"));
}

TEST(Pattern, StarMatchesAnyRun) {
    EXPECT_TRUE(pattern_matches("*", ""));
    EXPECT_TRUE(pattern_matches("*", "ANYONE"));
    EXPECT_TRUE(pattern_matches("*.BAR", "FOO.BAR"));
    EXPECT_TRUE(pattern_matches("*.BAR", "FU.BAR"));
    EXPECT_TRUE(pattern_matches("*NEN", "ANTTI.KARTTUNEN"));
    EXPECT_FALSE(pattern_matches("*NEN", "ANTTI.KARTTUNENX"));
    EXPECT_TRUE(pattern_matches("A*B*C", "AxxBCyyC"));
}

TEST(Pattern, QuestionMatchesExactlyOne) {
    EXPECT_TRUE(pattern_matches("F?O", "FOO"));
    EXPECT_FALSE(pattern_matches("F?O", "FO"));
    EXPECT_FALSE(pattern_matches("F?O", "FOOO"));
}

TEST(Pattern, NegationOnlyAsFirstCharacter) {
    EXPECT_FALSE(pattern_matches("!NILKKI.NUISANCE", "NILKKI.NUISANCE"));
    EXPECT_TRUE(pattern_matches("!NILKKI.NUISANCE", "ERKKI.EXPERT"));
    EXPECT_TRUE(pattern_matches("!FOO.BAR", "foo.baz"));
    EXPECT_FALSE(pattern_matches("!*", "ANYONE"));
    EXPECT_TRUE(pattern_matches("A!B", "A!B"));  // not first: a literal
}

TEST(Pattern, Groups) {
    EXPECT_TRUE(pattern_matches("<ABC>", "B"));
    EXPECT_FALSE(pattern_matches("<ABC>", "D"));
    EXPECT_TRUE(pattern_matches("<abc>", "C"));  // case-insensitive members
    EXPECT_TRUE(pattern_matches("P<0123456789>", "P7"));
    EXPECT_FALSE(pattern_matches("P<0123456789>", "PX"));
    EXPECT_TRUE(pattern_matches("<^0123456789>", "X"));
    EXPECT_FALSE(pattern_matches("<^0123456789>", "5"));
    EXPECT_TRUE(pattern_matches("<>>", ">"));
    EXPECT_FALSE(pattern_matches("<>>", "A"));
    EXPECT_TRUE(pattern_matches("<^>>", "A"));
    EXPECT_FALSE(pattern_matches("<^>>", ">"));
    EXPECT_FALSE(pattern_valid("<ABC"));
    EXPECT_FALSE(pattern_matches("<ABC", "A"));
}

TEST(Pattern, BackReferenceToQuestionOrGroup) {
    EXPECT_TRUE(pattern_matches("?*@", "ABBA"));
    EXPECT_TRUE(pattern_matches("?*@", "anna"));
    EXPECT_FALSE(pattern_matches("?*@", "ABC"));
    EXPECT_TRUE(pattern_matches("?*@", "AA"));
    EXPECT_FALSE(pattern_matches("?*@", "A"));
    EXPECT_TRUE(pattern_matches("<XY>@", "XX"));
    EXPECT_FALSE(pattern_matches("<XY>@", "XY"));
    EXPECT_FALSE(pattern_matches("@", "A"));     // nothing matched yet
    EXPECT_TRUE(pattern_matches("??@", "ABB"));  // the last one matched
    EXPECT_FALSE(pattern_matches("??@", "ABA"));
}
