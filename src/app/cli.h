// The command lines of `hisha`'s subcommands and of `hisha-server`, read by CLI11: each program
// or subcommand is a Cli whose --help prints its usage (with an example) on standard output and
// exits 0, whose --version prints the version and exits 0, and which refuses a bad argument
// with one line on standard error naming the option and the value, and exit status 2.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hisha::app {

/// A value an option's own check refused; the message names the option and the value.
class BadValue : public CLI::ParseError {
public:
    explicit BadValue(std::string message) : CLI::ParseError("BadValue", std::move(message), 2) {}
};

/// "NAME COMPLAINT, not 'VALUE'": the usual line refusing an option's value.
std::string refusal(std::string_view name, std::string_view complaint, std::string_view value);

/// A whole number in [lo, hi] (decimal digits only), or nothing.
std::optional<std::uint64_t> whole_in(std::string_view text, std::uint64_t lo, std::uint64_t hi);
/// A number (strtod's syntax, the whole text) in [lo, hi], or nothing.
std::optional<double> number_in(std::string_view text, double lo, double hi);

class Cli {
public:
    /// `name` starts every message ("hisha selfplay"); `usage` is the --help text.
    Cli(std::string name, std::string usage);

    CLI::App& app() { return app_; }
    /// A subcommand (book build, hisha-server admin ...): CLI11's, sharing the usage text.
    CLI::App* subcommand(const std::string& name);

    /// An option taking a value each time it is given (in order): `take` stores it and returns
    /// "" or the message refusing it. `in` is where it goes (default: the program itself).
    CLI::Option* option(const std::string& names, std::function<std::string(const std::string&)> take,
                        CLI::App* in = nullptr);
    CLI::Option* text(const std::string& names, std::string& out, CLI::App* in = nullptr);
    /// A whole number in [lo, hi]; a refused value reads "NAME COMPLAINT, not 'VALUE'".
    template <typename T>
    CLI::Option* whole(const std::string& names, T& out, std::uint64_t lo, std::uint64_t hi,
                       const std::string& complaint, CLI::App* in = nullptr) {
        std::string name = last_name(names);
        return option(
            names,
            [&out, lo, hi, complaint, name](const std::string& v) {
                auto n = whole_in(v, lo, hi);
                if (!n)
                    return refusal(name, complaint, v);
                out = T(*n);
                return std::string();
            },
            in);
    }
    CLI::Option* flag(const std::string& names, std::function<void()> set, CLI::App* in = nullptr);
    CLI::Option* positionals(const std::string& name, std::vector<std::string>& out, CLI::App* in = nullptr);
    /// What an argument nobody takes is called in its message: "unknown option" by default.
    void set_unknown_word(std::string word) { unknown_ = std::move(word); }

    /// Reads `argc` arguments at `argv` (those after the program's or subcommand's name): -1 to
    /// go on, else the exit status (0 after --help or --version, 2 after a refused argument).
    int parse(int argc, char** argv);
    int parse(std::vector<std::string> args);

private:
    static std::string last_name(const std::string& names);
    std::string name_;
    std::string unknown_ = "unknown option";
    CLI::App app_;
};

}  // namespace hisha::app
