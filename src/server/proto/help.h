// The HELP text: Shoogi Server's help file (rules, commands, patterns), adapted where Hisha
// differs (accounts, no shell), split into its dash-marked topics.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace hisha::server::proto {

struct HelpTopic {
    int level = 0;                    // number of leading dashes
    std::vector<std::string> names;   // "BOARD", "REFRESH"
    std::size_t begin = 0, end = 0;   // byte range of the whole section in the text
};

/// The whole help text.
std::string_view help_text();
const std::vector<HelpTopic>& help_topics();
/// The sections for a query: exact topic names first, else every topic whose name contains
/// the query (case-insensitive); nested matches are folded into their parent.
std::vector<const HelpTopic*> find_help(std::string_view query);
/// "HELP *": every topic name, indented by level.
std::vector<std::string> help_index();

}  // namespace hisha::server::proto
