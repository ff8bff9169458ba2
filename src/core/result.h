// Result<T, E>: a value or an error, with the API of C++23's std::expected (value(), error(),
// has_value(), operator bool, operator*, operator->), so it can be swapped for it later.
// The core, the engine and the solver report errors with it instead of throwing.
#pragma once

#include <cassert>
#include <utility>
#include <variant>

namespace hisha::core {

template <typename E>
struct Unexpected {
    E error;
};

template <typename E>
Unexpected<std::decay_t<E>> unexpected(E&& e) {
    return {std::forward<E>(e)};
}

template <typename T, typename E>
class [[nodiscard]] Result {
public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}
    template <typename G>
    Result(Unexpected<G> u) : v_(std::in_place_index<1>, E(std::move(u.error))) {}

    bool has_value() const { return v_.index() == 0; }
    explicit operator bool() const { return has_value(); }
    T& value() & { assert(has_value()); return std::get<0>(v_); }
    const T& value() const& { assert(has_value()); return std::get<0>(v_); }
    T&& value() && { assert(has_value()); return std::get<0>(std::move(v_)); }
    const E& error() const { assert(!has_value()); return std::get<1>(v_); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    template <typename U>
    T value_or(U&& fallback) const& { return has_value() ? value() : T(std::forward<U>(fallback)); }

private:
    std::variant<T, E> v_;
};

// Result<void, E>: success carries nothing.
template <typename E>
class [[nodiscard]] Result<void, E> {
public:
    Result() = default;
    template <typename G>
    Result(Unexpected<G> u) : error_(E(std::move(u.error))), ok_(false) {}

    bool has_value() const { return ok_; }
    explicit operator bool() const { return ok_; }
    const E& error() const { assert(!ok_); return error_; }

private:
    E error_{};
    bool ok_ = true;
};

}  // namespace hisha::core
