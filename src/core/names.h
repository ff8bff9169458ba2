#pragma once
// An enum's values and their names in one table that serves both ways: the name a value is
// written with, and the value a name (or one of its aliases) is read as. Header only.
#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace hisha::core {

template <class E>
struct EnumName {
    E value;
    const char* name;                           // as written (and read)
    std::array<std::string_view, 3> aliases{};  // also read
};

/// The name of `value` in `table`, `unknown` when it has none.
template <class E, std::size_t N>
constexpr const char* name_of(const EnumName<E> (&table)[N], E value, const char* unknown = "") {
    for (const auto& entry : table)
        if (entry.value == value)
            return entry.name;
    return unknown;
}

/// The value `name` (exactly as written) stands for, by its name or an alias.
template <class E, std::size_t N>
constexpr std::optional<E> value_named(const EnumName<E> (&table)[N], std::string_view name) {
    for (const auto& entry : table) {
        if (name == entry.name)
            return entry.value;
        for (std::string_view alias : entry.aliases)
            if (!alias.empty() && name == alias)
                return entry.value;
    }
    return std::nullopt;
}

}  // namespace hisha::core
