// Name patterns exactly as Shoogi Server's HELP PATTERNS defines them: `!` (first character:
// negation), `?` (any one character), `*` (any run, also empty), `<group>` and `<^group>`
// (a `>` right after `<` or `^` is a member), `@` (the character last matched by `?` or a
// group), everything else literal. Names compare case-insensitively (FOO.BAR = foo.bar).
#pragma once

#include <string_view>

namespace hisha::server::service {

/// True when `name` matches `pattern`. A malformed pattern (an unclosed group) matches nothing.
bool pattern_matches(std::string_view pattern, std::string_view name);

/// True when the pattern is well formed (every group closed).
bool pattern_valid(std::string_view pattern);

/// True when the pattern has no special character: it then names exactly one player.
bool pattern_is_literal(std::string_view pattern);

}  // namespace hisha::server::service
