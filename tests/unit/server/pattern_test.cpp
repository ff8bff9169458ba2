// 003 PATTERNS: every operator, as the help file states it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include "server/service/pattern.h"

using hisha::server::service::pattern_is_literal;
using hisha::server::service::pattern_matches;
using hisha::server::service::pattern_valid;

namespace {

// The pattern matches each of the names in `yes` and none of those in `no` (separated by spaces).
void check(const char* pattern, std::string_view yes, std::string_view no) {
    for (auto [names, expected] : {std::pair{yes, true}, std::pair{no, false}})
        for (std::size_t at = 0; at <= names.size() && !names.empty();) {
            std::size_t end = std::min(names.find(' ', at), names.size());
            std::string name(names.substr(at, end - at));
            EXPECT_EQ(pattern_matches(pattern, name), expected) << "pattern " << pattern << ", name '" << name << "'";
            at = end + 1;
        }
}

}  // namespace

TEST(Pattern, PlainTextMatchesOnlyEqualNamesCaseInsensitively) {
    check("FOO.BAR", "FOO.BAR foo.bar", "FOO.BARX FU.BAR");
    EXPECT_TRUE(pattern_is_literal("FOO.BAR"));
    EXPECT_FALSE(pattern_is_literal("*.BAR"));
}

TEST(Pattern, StarMatchesAnyRun) {
    check("*", " ANYONE", "");  // the empty name too
    check("*.BAR", "FOO.BAR FU.BAR", "");
    check("*NEN", "ANTTI.KARTTUNEN", "ANTTI.KARTTUNENX");
    check("A*B*C", "AxxBCyyC", "");
}

TEST(Pattern, QuestionMatchesExactlyOne) { check("F?O", "FOO", "FO FOOO"); }

TEST(Pattern, NegationOnlyAsFirstCharacter) {
    check("!NILKKI.NUISANCE", "ERKKI.EXPERT", "NILKKI.NUISANCE");
    check("!FOO.BAR", "foo.baz", "");
    check("!*", "", "ANYONE");
    check("A!B", "A!B", "");  // not first: a literal
}

TEST(Pattern, Groups) {
    check("<ABC>", "B", "D");
    check("<abc>", "C", "");  // case-insensitive members
    check("P<0123456789>", "P7", "PX");
    check("<^0123456789>", "X", "5");
    check("<>>", ">", "A");
    check("<^>>", "A", ">");
    EXPECT_FALSE(pattern_valid("<ABC"));
    check("<ABC", "", "A");
}

TEST(Pattern, BackReferenceToQuestionOrGroup) {
    check("?*@", "ABBA anna AA", "ABC A");
    check("<XY>@", "XX", "XY");
    check("@", "", "A");         // nothing matched yet
    check("??@", "ABB", "ABA");  // the last one matched
}
