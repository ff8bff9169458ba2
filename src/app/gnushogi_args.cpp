// GNU Shogi's command line.
#include "gnushogi_args.h"

#include <cctype>
#include <cstdio>
#include <iostream>
#include <unistd.h>

#include "core/version.h"
#include "engine/book.h"
#include "play/experience.h"
#include "play/interactive.h"

namespace hisha::app {

using core::unexpected;

namespace {

constexpr const char* USAGE =
    "usage: hisha [[-]a] [-b bookfile] [-B binbookfile] [-C] [-h] [h] [-l pathname] [-L lang] [-r length]\n"
    "             [-R] [-s pathname] [-S size] [-t] [-c size] [-T size] [-v] [-x value] [-X] [arg1 arg2 ...]\n"
    "  time: 30 = 30 s a move, 5:00 = 5 min a move, 60 5 = 60 moves in 5 min, 30 5 1 :30 = then 30 s a move\n"
    "  -R raw display, -C curses display, -X xshogi protocol (default when stdin is no terminal)";

bool is_time_arg(const std::string& a) {
    if (a.empty() || !(std::isdigit(static_cast<unsigned char>(a[0])) || a[0] == ':'))
        return false;
    for (char c : a)
        if (!std::isdigit(static_cast<unsigned char>(c)) && c != ':')
            return false;
    return true;
}

bool takes_value(char flag) { return std::string_view("bBlLrsSTcxP").find(flag) != std::string_view::npos; }
bool is_flag(const std::string& a) {
    return a.size() == 2 && a[0] == '-' && std::string_view("abBChlLrRsStcTvxXP").find(a[1]) != std::string_view::npos;
}

std::optional<int> number(const std::string& s) {
    if (s.empty() || s.size() > 9)
        return std::nullopt;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return std::nullopt;
    return std::stoi(s);
}

// Applies one flag with its value; returns an error message or "".
std::string apply_flag(char f, const std::string& v, GnuInvocation& inv) {
    play::Settings& s = inv.settings;
    auto n = number(v);
    switch (f) {
    case 'a': s.ponder = false; break;
    case 'b': s.book_file = v; break;
    case 'B': s.notes.push_back("-B " + v + ": GNU's binary book is not used; Hisha reads text books (-b)."); break;
    case 'S': s.notes.push_back("-S " + v + ": no binary book is built (Hisha books are text, see bsave)."); break;
    case 'P': s.notes.push_back("-P " + v + ": no binary book is built (Hisha books are text, see bsave)."); break;
    case 'L':
        s.notes.push_back("-L " + v
                          + ": messages are in English; Japanese moves and boards via notation kif, pieces kanji.");
        break;
    case 'r': s.notes.push_back("-r " + v + ": Hisha's transposition table has no rehash length; ignored."); break;
    case 'C':
        s.mode = play::DisplayMode::Curses;
        inv.explicit_mode = true;
        break;
    case 'R':
        s.mode = play::DisplayMode::Raw;
        inv.explicit_mode = true;
        break;
    case 'X':
        s.mode = play::DisplayMode::Xshogi;
        inv.explicit_mode = true;
        break;
    case 'h': s.use_hash = false; break;
    case 'l': s.load_path = v; break;
    case 's': s.save_path = v; break;
    case 't': s.hash_stats = true; break;
    case 'v': inv.version = true; break;
    case 'c':
        if (!n || *n < 1 || *n > 26)
            return "-c wants a size 1..26 (2^size entries)";
        s.create_hash = *n;
        break;
    case 'T': {
        if (!n || *n < 10 || *n > 32)
            return "-T wants a size 10..32 (2^size entries)";
        long long mb = std::max(1LL, ((1LL << *n) * 32 / 3) >> 20);
        s.tt_mb = int(std::min(mb, 65536LL));
        s.notes.push_back("-T " + v + ": transposition table of " + std::to_string(s.tt_mb) + " MB.");
        break;
    }
    case 'x':
        if (!n)
            return "-x wants a number";
        s.xwndw = *n;
        s.notes.push_back("-x " + v + ": kept as xwndw; Hisha always scores positions fully.");
        break;
    default: return std::string("unknown option -") + f;
    }
    return "";
}

}  // namespace

bool is_gnushogi_invocation(const std::vector<std::string>& args) {
    if (args.empty())
        return true;
    const std::string& a = args[0];
    return a == "a" || a == "h" || is_flag(a) || is_time_arg(a);
}

core::Result<GnuInvocation, std::string> parse_gnushogi_args(const std::vector<std::string>& args,
                                                             bool stdin_is_terminal) {
    GnuInvocation inv;
    inv.settings.mode = stdin_is_terminal ? play::DisplayMode::Raw : play::DisplayMode::Xshogi;
    std::vector<std::string> times;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "a") {
            inv.settings.ponder = true;
        } else if (a == "h") {
            inv.settings.use_hash = true;
        } else if (is_flag(a)) {
            std::string value;
            if (takes_value(a[1])) {
                if (i + 1 >= args.size())
                    return unexpected(a + " needs a value");
                value = args[++i];
            }
            if (std::string err = apply_flag(a[1], value, inv); !err.empty())
                return unexpected(err);
        } else if (is_time_arg(a)) {
            times.push_back(a);
        } else {
            return unexpected("unknown argument '" + a + "'");
        }
    }
    auto tc = play::parse_time_args(times);
    if (!tc)
        return unexpected(tc.error());
    inv.settings.time = *tc;
    inv.settings.input_terminal = stdin_is_terminal;
    inv.settings.detect_usi = inv.settings.mode == play::DisplayMode::Xshogi && !inv.explicit_mode;
    return inv;
}

int gnushogi_command(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    auto inv = parse_gnushogi_args(args, isatty(STDIN_FILENO) != 0);
    if (!inv) {
        std::fprintf(stderr, "hisha: %s\n%s\n", inv.error().c_str(), USAGE);
        return 2;
    }
    play::Settings& s = inv->settings;
    if (inv->version) {
        std::printf("hisha version %s (GNU Shogi compatible)\n", version());
        return 0;
    }
    if (!s.book_file.empty()) {
        engine::Book book;
        if (auto r = book.load_file(s.book_file); !r)
            s.notes.push_back("-b " + s.book_file + ": " + r.error().to_string());
    }
    // -c and -t alone are utilities, as in GNU Shogi: create the file or show its statistics.
    bool utility_only =
        (s.create_hash || s.hash_stats) && !inv->explicit_mode && s.time.kind == play::TimeControl::Kind::None;
    if (utility_only) {
        play::Experience exp;
        std::string path = s.hash_path.empty() ? play::Experience::default_path() : s.hash_path;
        if (s.create_hash) {
            auto r = exp.create(path, *s.create_hash);
            std::printf("%s\n", r ? ("Created the experience file " + path + " (2^" + std::to_string(*s.create_hash)
                                     + " entries)")
                                        .c_str()
                                  : ("Cannot create " + path + ": " + r.error()).c_str());
            if (!r)
                return 1;
        } else if (auto r = exp.open(path); !r) {
            std::printf("%s\n", r.error().c_str());
        }
        if (s.hash_stats)
            std::printf("%s", exp.statistics().c_str());
        return 0;
    }
    return play::run_interactive(s);
}

}  // namespace hisha::app
