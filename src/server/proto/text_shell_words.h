// Small text helpers of the text protocol's shell, shared by its source files.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/text.h"
#include "server/service/utc_text.h"

namespace hisha::server::proto::text_words {

using text::upper;

/// The words of a command line, split at blanks. Unlike text::words a tab is part of a word:
/// the shell counts words by blanks alone (rest_of(), the message text after them).
inline std::vector<std::string> split(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ')
            ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ')
            ++j;
        if (j > i)
            out.emplace_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

inline std::optional<std::int64_t> to_int(std::string_view s) {
    std::int64_t v = 0;
    if (!s.empty() && s[0] == '#')
        s.remove_prefix(1);
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v <= 0)
        return std::nullopt;
    return v;
}

inline std::string time_text(service::Millis ms) { return service::utc_text(ms, "%Y-%m-%d %H:%M"); }

/// A column of a listing: `s` padded to `n` characters, and never run into the next column
/// (a longer value gets one space after it).
inline std::string pad(std::string s, std::size_t n) {
    s.append(s.size() < n ? n - s.size() : 1, ' ');
    return s;
}

}  // namespace hisha::server::proto::text_words
