// Commands that set options, levels and clocks.
#include <charconv>
#include <optional>
#include <utility>

#include "commands.h"
#include "controller.h"
#include "core/text.h"

namespace hisha::play {

using namespace hisha::core;

namespace {

bool xshogi(const Controller& c) { return c.mode() == DisplayMode::Xshogi; }

void say(Controller& c, const std::string& text) {
    if (!xshogi(c))
        c.ui().message(text);
}

std::optional<int> to_int(std::string_view s) {
    int v = 0;
    if (!s.empty() && s[0] == '+')
        s.remove_prefix(1);
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size())
        return std::nullopt;
    return v;
}

// The numbers of a command, or the next line when none were given (GNU asks).
std::vector<std::string> args_or_ask(Controller& c, const CommandArgs& a, std::string_view question) {
    if (!a.words.empty())
        return a.words;
    auto line = c.ask(xshogi(c) ? std::string_view() : question);
    return line ? text::words(*line) : std::vector<std::string>{};
}

// The numbers of a command that GNU Shogi reads with scanf after asking `questions` in turn:
// those given after the command's name (a Hisha extension), or else the next lines, where one
// line may answer several questions. A line that holds anything but numbers answers none: it
// is put back as the next command (as scanf leaves it) and the numbers read so far are returned.
// nullopt: a word after the name is no number.
std::optional<std::vector<int>> numbers_or_ask(Controller& c, const CommandArgs& a,
                                               std::initializer_list<std::string_view> questions) {
    std::vector<int> out;
    for (const auto& w : a.words) {
        auto v = to_int(w);
        if (!v)
            return std::nullopt;
        out.push_back(*v);
    }
    if (!a.words.empty())
        return out;
    std::vector<std::string_view> asked(questions);
    while (out.size() < asked.size()) {
        auto line = c.ask(xshogi(c) ? std::string_view() : asked[out.size()]);
        if (!line || line->empty())
            break;
        std::vector<int> got;
        for (const auto& w : text::words(*line))
            if (auto v = to_int(w))
                got.push_back(*v);
        if (got.size() != text::words(*line).size()) {
            c.unread(*line);
            break;
        }
        out.insert(out.end(), got.begin(), got.end());
    }
    return out;
}

// The flag a toggle command switches.
bool* flag_of(Options& o, std::string_view name) {
    const std::pair<std::string_view, bool*> flags[] = {
        {"gamein", &o.gamein},       {"hash", &o.use_hash},         {"book", &o.book},
        {"easy", &o.easy},           {"tsume", &o.tsume},           {"post", &o.post},
        {"beep", &o.beep},           {"material", &o.material},     {"rcptr", &o.rcptr},
        {"coords", &o.board.coords}, {"reverse", &o.board.reverse}, {"rv", &o.board.reverse},
    };
    for (const auto& [flag_name, flag] : flags)
        if (name == flag_name)
            return flag;
    return nullptr;
}

}  // namespace

void cmd_toggle(Controller& c, const CommandArgs& a) {
    Session& s = c.session();
    const Command* cmd = find_command_folded(a.name);
    std::string name(cmd ? cmd->name : a.name);
    bool* flag = flag_of(s.options(), name);
    if (!flag)
        return;
    if (!a.words.empty() && (a.words[0] == "on" || a.words[0] == "off"))
        *flag = a.words[0] == "on";
    else
        *flag = !*flag;
    if (name == "gamein")
        s.set_time_control(s.clocks().control());
    if (name == "hash" && *flag && !s.experience().is_open()) {
        std::string path = s.settings().hash_path.empty() ? Experience::default_path() : s.settings().hash_path;
        (void)s.experience().open(path);
        if (!s.experience().is_open())
            say(c, "No experience file at " + path + " (create one with hisha -c 16).");
    }
    if (name == "coords" || name == "reverse" || name == "rv") {
        if (!xshogi(c))
            c.ui().show_board(s);
        return;
    }
    say(c, name + (*flag ? " on" : " off"));
}

void cmd_random(Controller& c, const CommandArgs& a) {
    bool on = a.words.empty() || a.words[0] != "off";
    c.session().options().random = on;
    say(c, on ? "random on" : "random off");
}

void cmd_hard(Controller& c, const CommandArgs&) {
    c.session().options().easy = false;
    say(c, "easy off: I think on your time.");
}

void cmd_level(Controller& c, const CommandArgs& a) {
    auto words = args_or_ask(c, a, "Enter #moves #minutes (or seconds per move): ");
    auto tc = parse_level(words);
    if (!tc || tc->kind == TimeControl::Kind::None) {
        c.ui().message("level: " + (tc ? std::string("no time control given") : tc.error()));
        return;
    }
    Session& s = c.session();
    s.set_time_control(*tc);
    if (!xshogi(c))
        c.ui().message("Time control: " + s.clocks().control().describe());
    c.ui().clocks_set(s.clocks().remaining(BLACK), s.clocks().remaining(WHITE));
}

void cmd_time(Controller& c, const CommandArgs& a) {
    bool opponent = a.name == "otime";
    Session& s = c.session();
    std::optional<int> cs = a.words.empty() ? std::nullopt : to_int(a.words[0].substr(0, a.words[0].find(':')));
    std::optional<int> moves = a.words.size() > 1 ? to_int(a.words[1]) : std::nullopt;
    if (!cs || *cs < 0) {
        c.ui().message(a.name + " CENTISECONDS [MOVES]");
        return;
    }
    Color side = opponent ? ~s.options().computer : s.options().computer;
    if (s.clocks().enabled())
        s.clocks().set_remaining(side, *cs * 10, moves);
    c.ui().time_set(opponent, *cs, moves.value_or(0));
}

void cmd_depth(Controller& c, const CommandArgs& a) {
    auto v = numbers_or_ask(c, a, {"depth = "});
    if (!v || v->empty() || (*v)[0] < 0 || (*v)[0] > 99) {
        c.ui().message("depth: a number of plies 1..99, or 0 for no limit");
        return;
    }
    int d = (*v)[0];
    c.session().options().depth = d;
    say(c, d ? "Depth: " + std::to_string(d) + (d == 1 ? " ply" : " plies") : std::string("Depth: no limit"));
}

// GNU Shogi asks for the minimum depth, then for the number of moves (its MoveLimit).
void cmd_hashdepth(Controller& c, const CommandArgs& a) {
    auto v = numbers_or_ask(c, a, {"hashdepth = ", "MoveLimit = "});
    Options& o = c.session().options();
    if (!v || v->empty() || (*v)[0] < 0 || (v->size() > 1 && (*v)[1] < 0)) {
        c.ui().message("hashdepth: a minimum depth and a number of moves (0 or more)");
        return;
    }
    o.hash_min_depth = (*v)[0];
    if (v->size() > 1)
        o.hash_moves = (*v)[1];
    say(c, "Experience file used from depth " + std::to_string(o.hash_min_depth) + " during the first "
               + std::to_string(o.hash_moves) + " moves.");
}

// Awindow and Bwindow hold a value for each side (GNU Shogi asks White's, then Black's; one
// value given sets both); xwndw holds one.
void cmd_window(Controller& c, const CommandArgs& a) {
    Options& o = c.session().options();
    bool xw = a.name == "xwndw";
    std::string n = a.name.substr(0, 1);
    auto v =
        xw ? numbers_or_ask(c, a, {"xwndw = "}) : numbers_or_ask(c, a, {"W" + n + "window: ", "B" + n + "window: "});
    if (!v || v->empty()) {
        c.ui().message(a.name + (xw ? " CENTIPAWNS" : " WHITE [BLACK] (centipawns)"));
        return;
    }
    const char* kept = " (kept for GNU Shogi scripts; Hisha's search sizes its windows itself)";
    if (xw) {
        o.xwndw = (*v)[0];
        say(c, "xwndw = " + std::to_string(o.xwndw) + kept);
        return;
    }
    int* w = a.name == "Awindow" ? o.awindow : o.bwindow;
    w[WHITE] = (*v)[0];
    w[BLACK] = v->size() > 1 ? (*v)[1] : (*v)[0];
    say(c, a.name + ": White " + std::to_string(w[WHITE]) + ", Black " + std::to_string(w[BLACK]) + kept);
}

void cmd_contempt(Controller& c, const CommandArgs& a) {
    auto v = numbers_or_ask(c, a, {"contempt = "});
    if (!v || v->empty() || (*v)[0] < -1000 || (*v)[0] > 1000) {
        c.ui().message("contempt: centipawns -1000..1000");
        return;
    }
    c.session().options().contempt = (*v)[0];
    say(c, "Contempt: " + std::to_string((*v)[0]));
}

void cmd_debuglevel(Controller& c, const CommandArgs& a) {
    auto v = numbers_or_ask(c, a, {"debuglevel = "});
    if (!v || v->empty()) {
        c.ui().message("debuglevel N");
        return;
    }
    c.session().options().debuglevel = (*v)[0];
    say(c, "Debug level: " + std::to_string((*v)[0]));
}

void cmd_notation(Controller& c, const CommandArgs& a) {
    Options& o = c.session().options();
    std::string w = a.words.empty() ? "" : a.words[0];
    if (auto n = notation_named(w))
        o.notation = *n;
    else if (!w.empty()) {
        c.ui().message("notation gnu|western|usi|kif");
        return;
    }
    c.ui().message(std::string("Notation: ") + notation_name(o.notation));
}

void cmd_pieces(Controller& c, const CommandArgs& a) {
    Options& o = c.session().options();
    std::string w = a.words.empty() ? "" : a.words[0];
    if (auto style = piece_style_named(w))
        o.board.pieces = *style;
    else if (!w.empty()) {
        c.ui().message("pieces ascii|letters|kanji");
        return;
    }
    if (w.empty() || xshogi(c))
        c.ui().message(std::string("Pieces: ") + piece_style_name(o.board.pieces));
    else
        c.ui().show_board(c.session());
}

void cmd_alg(Controller& c, const CommandArgs&) {
    say(c, "Algebraic input is always on: 7g7f, P7f, P-7f, P*5e, 2d2c+ and ▲７六歩 are all accepted.");
}

}  // namespace hisha::play
