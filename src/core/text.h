#pragma once
// The string helpers every layer uses, once: ASCII case, white space and words. Bytes over 127
// (UTF-8, Shift_JIS) are left as they are; Japanese spacing (U+3000) is the notation layer's business.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace hisha::text {

constexpr bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
constexpr char to_lower(char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; }
constexpr char to_upper(char c) { return c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c; }

// `s` without white space at either end (a view into `s`).
constexpr std::string_view trim_view(std::string_view s) {
    while (!s.empty() && is_space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && is_space(s.back()))
        s.remove_suffix(1);
    return s;
}
inline std::string trim(std::string_view s) { return std::string(trim_view(s)); }

inline std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = to_lower(c);
    return out;
}
inline std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = to_upper(c);
    return out;
}

// Equal but for ASCII case.
constexpr bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (to_lower(a[i]) != to_lower(b[i]))
            return false;
    return true;
}
constexpr bool starts_with_ci(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

// The words of `s`, split at runs of white space (none for a blank line).
inline std::vector<std::string> words(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && is_space(s[i]))
            ++i;
        std::size_t start = i;
        while (i < s.size() && !is_space(s[i]))
            ++i;
        if (i > start)
            out.emplace_back(s.substr(start, i - start));
    }
    return out;
}

// The lines of `text` split at LF, each without its CR; a final LF does not start another line.
inline std::vector<std::string_view> lines(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t nl = text.find('\n', start);
        std::size_t end = nl == std::string_view::npos ? text.size() : nl;
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        out.push_back(line);
        if (nl == std::string_view::npos)
            break;
        start = nl + 1;
    }
    return out;
}

// A word of a line and the column where it starts (1-based, in bytes).
struct Word {
    std::string_view text;
    int column;
};

// The words of `s` split at runs of any of the `separators`, each with its column.
inline std::vector<Word> words_with_columns(std::string_view s, std::string_view separators) {
    std::vector<Word> out;
    std::size_t i = 0;
    while (i < s.size()) {
        i = std::min(s.find_first_not_of(separators, i), s.size());
        std::size_t end = std::min(s.find_first_of(separators, i), s.size());
        if (end > i)
            out.push_back({s.substr(i, end - i), int(i) + 1});
        i = end;
    }
    return out;
}

}  // namespace hisha::text
