#pragma once
// Whole numbers read from text. Header only.
#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace hisha::core {

/// `s` as a number of type T when all of it is one (digits, a '-' only for a negative one: no
/// '+', no spaces) that fits T and is at least `least`; none otherwise.
template <class T>
std::optional<T> to_number(std::string_view s, T least = 0) {
    T v{};
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < least)
        return std::nullopt;
    return v;
}

}  // namespace hisha::core
