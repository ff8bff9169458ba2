// The command-line reader of hisha's subcommands and hisha-server (cli.h), over CLI11.
#include "cli.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "core/version.h"

namespace hisha::app {

namespace {

// --help prints the program's own usage text (written for readers, with an example) rather
// than CLI11's generated list, so that the manual pages and the guide, checked against it, and
// the text stay one.
class UsageFormatter : public CLI::Formatter {
public:
    explicit UsageFormatter(std::string usage) : usage_(std::move(usage)) {
        if (!usage_.empty() && usage_.back() != '\n')
            usage_ += '\n';
    }
    std::string make_help(const CLI::App*, std::string, CLI::AppFormatMode) const override { return usage_; }

private:
    std::string usage_;
};

}  // namespace

std::string refusal(std::string_view name, std::string_view complaint, std::string_view value) {
    return fmt::format("{} {}, not '{}'", name, complaint, value);
}

std::optional<std::uint64_t> whole_in(std::string_view text, std::uint64_t lo, std::uint64_t hi) {
    if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    std::string s(text);
    errno = 0;
    unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
    if (errno || v < lo || v > hi)
        return std::nullopt;
    return v;
}

std::optional<double> number_in(std::string_view text, double lo, double hi) {
    std::string s(text);
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end || !(v >= lo && v <= hi))
        return std::nullopt;
    return v;
}

Cli::Cli(std::string name, std::string usage) : name_(std::move(name)), app_(std::string(), name_) {
    app_.formatter(std::make_shared<UsageFormatter>(std::move(usage)));
    app_.set_help_flag("-h,--help", "this text");
    std::string program = name_.substr(0, name_.find(' '));
    app_.set_version_flag("--version", program + " " + hisha::version(), "the version");
    app_.allow_extras();
}

CLI::App* Cli::subcommand(const std::string& name) {
    CLI::App* sub = app_.add_subcommand(name);
    sub->allow_extras();
    return sub;
}

std::string Cli::last_name(const std::string& names) { return names.substr(names.rfind(',') + 1); }

CLI::Option* Cli::option(const std::string& names, std::function<std::string(const std::string&)> take, CLI::App* in) {
    std::string name = last_name(names);
    CLI::App& app = in ? *in : app_;
    // Each value is taken as it is read (trigger_on_parse), so options act in command-line order
    // (the last of --gauntlet and --round-robin wins) and the first refused value stops the reading.
    CLI::Option* o = app.add_option(names)->type_size(1)->expected(1)->take_all()->trigger_on_parse();
    o->each([take = std::move(take)](const std::string& v) {
        if (std::string why = take(v); !why.empty())
            throw BadValue(why);
    });
    o->type_name(name.substr(name.find_first_not_of('-')));
    return o;
}

CLI::Option* Cli::text(const std::string& names, std::string& out, CLI::App* in) {
    return option(
        names,
        [&out](const std::string& v) {
            out = v;
            return std::string();
        },
        in);
}

CLI::Option* Cli::flag(const std::string& names, std::function<void()> set, CLI::App* in) {
    CLI::App& app = in ? *in : app_;
    return app.add_flag_callback(names, std::move(set))->trigger_on_parse();
}

CLI::Option* Cli::positionals(const std::string& name, std::vector<std::string>& out, CLI::App* in) {
    CLI::App& app = in ? *in : app_;
    return app.add_option(name, out);
}

int Cli::parse(int argc, char** argv) { return parse(std::vector<std::string>(argv, argv + argc)); }

int Cli::parse(std::vector<std::string> args) {
    std::reverse(args.begin(), args.end());  // CLI11 reads a vector from its end
    try {
        app_.parse(args);
    } catch (const CLI::CallForHelp&) {
        std::fputs(app_.help().c_str(), stdout);
        return 0;
    } catch (const CLI::CallForVersion& e) {
        std::puts(e.what());
        return 0;
    } catch (const CLI::ArgumentMismatch& e) {
        std::string what = e.what();  // "--db: 1 required TEXT missing" when the value is missing
        if (auto colon = what.find(": "); colon != std::string::npos && what.ends_with(" missing"))
            what = what.substr(0, colon) + " needs a value";
        fmt::print(stderr, "{}: {}\n", name_, what);
        return 2;
    } catch (const CLI::ParseError& e) {
        fmt::print(stderr, "{}: {}\n", name_, e.what());
        return 2;
    }
    std::vector<std::string> rest = app_.remaining(true);
    if (rest.empty())
        return -1;
    const std::string& a = rest.front();
    if (a.size() > 1 && a[0] == '-')
        fmt::print(stderr, "{}: {} {} ({} --help)\n", name_, unknown_, a, name_);
    else
        fmt::print(stderr, "{}: unexpected argument '{}' ({} --help)\n", name_, a, name_);
    return 2;
}

}  // namespace hisha::app
