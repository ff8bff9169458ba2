// Shoogi Server patterns: a backtracking matcher over the pattern and the name, carrying the
// character that `@` refers to along each path (so `?*@` is "same first and last character").
#include "server/service/pattern.h"

#include "core/text.h"

namespace hisha::server::service {
namespace {

// Parses the group starting at pattern[i] == '<'. Returns the index after '>' or npos.
// `negated`, `begin`, `end` describe the member characters pattern[begin, end).
std::size_t parse_group(std::string_view p, std::size_t i, bool& negated, std::size_t& begin, std::size_t& end) {
    std::size_t j = i + 1;
    negated = j < p.size() && p[j] == '^';
    if (negated)
        ++j;
    begin = j;
    if (j < p.size() && p[j] == '>')  // a '>' first is a member, not the end
        ++j;
    while (j < p.size() && p[j] != '>')
        ++j;
    if (j >= p.size())
        return std::string_view::npos;
    end = j;
    return j + 1;
}

bool group_has(std::string_view p, std::size_t begin, std::size_t end, char c) {
    for (std::size_t k = begin; k < end; ++k)
        if (text::to_upper(p[k]) == text::to_upper(c))
            return true;
    return false;
}

// last: the character last matched by '?' or a group on this path (0: none yet).
bool match(std::string_view p, std::size_t pi, std::string_view s, std::size_t si, char last, int depth) {
    if (depth > 4096)
        return false;
    while (pi < p.size()) {
        char pc = p[pi];
        if (pc == '*') {
            while (pi < p.size() && p[pi] == '*')
                ++pi;
            if (pi == p.size())
                return true;
            for (std::size_t k = si; k <= s.size(); ++k)
                if (match(p, pi, s, k, last, depth + 1))
                    return true;
            return false;
        }
        if (si >= s.size())
            return false;
        char sc = s[si];
        if (pc == '?') {
            last = sc;
            ++pi;
        } else if (pc == '<') {
            bool negated;
            std::size_t b, e;
            std::size_t next = parse_group(p, pi, negated, b, e);
            if (next == std::string_view::npos)
                return false;
            if (group_has(p, b, e, sc) == negated)
                return false;
            last = sc;
            pi = next;
        } else if (pc == '@') {
            if (last == 0 || text::to_upper(last) != text::to_upper(sc))
                return false;
            ++pi;
        } else {
            if (text::to_upper(pc) != text::to_upper(sc))
                return false;
            ++pi;
        }
        ++si;
    }
    return si == s.size();
}

}  // namespace

bool pattern_valid(std::string_view p) {
    std::size_t start = !p.empty() && p[0] == '!' ? 1 : 0;
    for (std::size_t i = start; i < p.size(); ++i) {
        if (p[i] != '<')
            continue;
        bool negated;
        std::size_t b, e;
        std::size_t next = parse_group(p, i, negated, b, e);
        if (next == std::string_view::npos)
            return false;
        i = next - 1;
    }
    return true;
}

bool pattern_matches(std::string_view p, std::string_view name) {
    if (!pattern_valid(p))
        return false;
    if (!p.empty() && p[0] == '!')
        return !match(p, 1, name, 0, 0, 0);
    return match(p, 0, name, 0, 0, 0);
}

bool pattern_is_literal(std::string_view p) {
    for (char c : p)
        if (c == '!' || c == '*' || c == '?' || c == '<' || c == '@')
            return false;
    return true;
}

}  // namespace hisha::server::service
