// The rules of shogi in Hisha's own words, by topic, for the `rules` command.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hisha::play {

struct RulesTopic {
    std::string_view name;     // "pieces", "promotion", ...
    std::string_view title;    // "The pieces and how they move"
    std::string_view aliases;  // other words that find the topic, space separated
};

/// Every topic in reading order.
const std::vector<RulesTopic>& rules_topics();
/// The text of a topic (several lines, no trailing newline); nullopt for an unknown name.
std::optional<std::string> rules_text(std::string_view topic);
/// All topics one after the other.
std::string all_rules_text();

}  // namespace hisha::play
