// Every command of the interactive program driven through the raw display (-R) and compared
// with the expected output in tests/data/play/raw_commands.txt. Each case there is
//   === NAME [| hisha arguments]       (default: -R 30)
//   input lines
//   ---
//   expected lines: exact, "~ REGEX" (a whole line), or "~~~" (any lines up to the next match)
// Prompts ("Your move is? ") are removed and the output starts after the first board.
// @TMP@ stands for a scratch directory.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "play/commands.h"
#include "play_driver.h"

namespace hisha::play {
namespace {

using testing::lines_of;
using testing::run_script;

struct Case {
    std::string name;
    std::vector<std::string> args{"-R", "30"};
    std::string input;
    std::vector<std::string> expected;
    int line = 0;
};

// Test listings name a case by its title rather than by its bytes.
void PrintTo(const Case& c, std::ostream* os) { *os << "'" << c.name << "' (raw_commands.txt:" << c.line << ")"; }

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
    for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

std::vector<Case> load_cases(const std::string& path) {
    std::ifstream in(path);
    std::vector<Case> cases;
    bool in_expected = false;
    int n = 0;
    std::string tmp = testing::temp_dir();
    for (std::string line; std::getline(in, line);) {
        ++n;
        line = replace_all(line, "@TMP@", tmp);
        if (line.rfind("=== ", 0) == 0) {
            Case c;
            c.line = n;
            std::string head = line.substr(4);
            std::size_t bar = head.find('|');
            c.name = head.substr(0, bar == std::string::npos ? head.size() : bar);
            while (!c.name.empty() && c.name.back() == ' ')
                c.name.pop_back();
            if (bar != std::string::npos)
                c.args = lines_of(replace_all(head.substr(bar + 1), " ", "\n"));
            std::erase(c.args, std::string());
            cases.push_back(std::move(c));
            in_expected = false;
        } else if (cases.empty() || (line.rfind("#", 0) == 0 && !in_expected)) {
            continue;
        } else if (line == "---" && !in_expected) {
            in_expected = true;
        } else if (in_expected) {
            cases.back().expected.push_back(line);
        } else {
            cases.back().input += line + "\n";
        }
    }
    return cases;
}

std::vector<std::string> visible_output(const std::string& raw) {
    std::vector<std::string> all = lines_of(replace_all(raw, "Your move is? ", ""));
    std::size_t start = 0;
    for (std::size_t i = 0; i < all.size(); ++i)
        if (all[i].find("to move (move ") != std::string::npos || all[i].rfind("Game over", 0) == 0) {
            start = i + 1;
            break;
        }
    return std::vector<std::string>(all.begin() + long(start), all.end());
}

bool line_matches(const std::string& pattern, const std::string& actual) {
    if (pattern.rfind("~ ", 0) == 0) {
        try {
            return std::regex_match(actual, std::regex(pattern.substr(2)));
        } catch (const std::regex_error& e) {
            ADD_FAILURE() << "bad pattern [" << pattern << "]: " << e.what();
            return false;
        }
    }
    return pattern == actual;
}

// Matches with "~~~" as a lazy skip; returns "" or a description of the first difference.
std::string compare(const std::vector<std::string>& expected, const std::vector<std::string>& actual) {
    std::size_t a = 0;
    for (std::size_t e = 0; e < expected.size(); ++e) {
        if (expected[e] == "~~~") {
            if (e + 1 == expected.size())
                return "";
            while (a < actual.size() && !line_matches(expected[e + 1], actual[a]))
                ++a;
            continue;
        }
        if (a >= actual.size())
            return "output ended; expected: " + expected[e];
        if (!line_matches(expected[e], actual[a]))
            return "line " + std::to_string(a + 1) + ": expected [" + expected[e] + "] got [" + actual[a] + "]";
        ++a;
    }
    return a == actual.size() ? "" : "extra output at line " + std::to_string(a + 1) + ": [" + actual[a] + "]";
}

class RawCommands : public ::testing::TestWithParam<Case> {};

TEST_P(RawCommands, OutputIsAsExpected) {
    const Case& c = GetParam();
    std::string raw = run_script(c.input, c.args);
    std::vector<std::string> actual = visible_output(raw);
    std::string diff = compare(c.expected, actual);
    if (!diff.empty()) {
        std::string shown;
        for (const auto& l : actual)
            shown += l + "\n";
        FAIL() << "case '" << c.name << "' (raw_commands.txt:" << c.line << "): " << diff << "\n--- output:\n" << shown;
    }
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
    std::string n;
    for (char ch : info.param.name)
        n += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
    return n + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Play, RawCommands,
                         ::testing::ValuesIn(load_cases(std::string(HISHA_TEST_DATA_LOCAL) + "/play/raw_commands.txt")),
                         case_name);

TEST(RawCommandsFile, CoversEveryCommand) {
    auto cases = load_cases(std::string(HISHA_TEST_DATA_LOCAL) + "/play/raw_commands.txt");
    std::string all_input;
    for (const auto& c : cases)
        all_input += c.input;
    for (const Command& cmd : commands()) {
        bool used = false;
        for (const auto& l : lines_of(all_input))
            used |= l == cmd.name || l.rfind(std::string(cmd.name) + " ", 0) == 0;
        EXPECT_TRUE(used) << "no raw test uses the command " << cmd.name;
    }
}

}  // namespace
}  // namespace hisha::play
