// Commands that show things: the board, help, the rules, evaluations and speed tests.
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>

#include "board_editor.h"
#include "commands.h"
#include "controller.h"
#include "core/movegen.h"
#include "core/version.h"
#include "notation/coordinate.h"
#include "rules_text.h"

namespace hisha::play {

using namespace hisha::core;

namespace {

const char* on_off(bool b) { return b ? "on" : "off"; }

std::string pad(std::string s, std::size_t width) {
    if (s.size() < width)
        s.resize(width, ' ');
    return s;
}

// The evaluation of a position from Black's view, or nothing when the SFEN is no position.
std::optional<int> black_eval(Session& s, const std::string& sfen) {
    Position p;
    if (!p.set(sfen, SfenRules::Relaxed))
        return std::nullopt;
    int v = s.engine().pool().evaluator->evaluate(p);
    return p.side_to_move() == BLACK ? v : -v;
}

// A 9x9 grid of values (files 9..1, ranks a..i); `value` returns nothing for a blank cell.
std::vector<std::string> grid(const std::function<std::optional<int>(Square)>& value) {
    std::vector<std::string> lines{"      9     8     7     6     5     4     3     2     1"};
    for (int r = RANK_1; r <= RANK_9; ++r) {
        std::string line = std::string(1, char('a' + r)) + " ";
        for (int f = FILE_9; f >= FILE_1; --f) {
            auto v = value(make_square(File(f), Rank(r)));
            char cell[16];
            std::snprintf(cell, sizeof cell, "%6s", v ? std::to_string(*v).c_str() : "-");
            line += cell;
        }
        lines.push_back(line);
    }
    return lines;
}

void show_lines(Controller& c, const std::vector<std::string>& lines) {
    std::string text;
    for (const auto& l : lines)
        text += (text.empty() ? "" : "\n") + l;
    c.ui().message(text);
}

}  // namespace

std::vector<std::string> help_lines(const Controller& c) {
    std::vector<std::string> lines{std::string("Hisha ") + version()
                                   + " commands (GNU Shogi's, and more); moves: 7g7f P7f P-7f P*5e 2d2c+"};
    for (const Command& cmd : commands()) {
        std::string head(cmd.name);
        if (!cmd.args.empty())
            head += " " + std::string(cmd.args);
        lines.push_back(pad(head, 30) + " " + std::string(cmd.summary));
    }
    const Session& s = c.session();
    const Options& o = s.options();
    auto color = [](Color x) { return x == BLACK ? "Black" : "White"; };
    lines.push_back("Computer: " + std::string(o.both ? "both sides" : color(o.computer))
                    + "   Opponent: " + (o.both ? "none" : color(~o.computer))
                    + "   Depth: " + (o.depth ? std::to_string(o.depth) : std::string("no limit")));
    lines.push_back("Time control: " + s.clocks().control().describe() + (o.gamein ? " (game in)" : ""));
    lines.push_back(std::string("Random: ") + on_off(o.random) + "   Easy: " + on_off(o.easy)
                    + "   Beep: " + on_off(o.beep) + "   Book: " + on_off(o.book) + "   Hash: " + on_off(o.use_hash)
                    + "   Tsume: " + on_off(o.tsume) + "   Force: " + on_off(o.force) + "   Post: " + on_off(o.post));
    auto pair = [](const int* w) { return "W " + std::to_string(w[WHITE]) + " B " + std::to_string(w[BLACK]); };
    lines.push_back("Contempt: " + std::to_string(o.contempt) + "   Awindow: " + pair(o.awindow)
                    + "   Bwindow: " + pair(o.bwindow) + "   xwndw: " + std::to_string(o.xwndw)
                    + "   hashdepth: " + std::to_string(o.hash_min_depth) + " " + std::to_string(o.hash_moves));
    lines.push_back(std::string("Notation: ") + notation_name(o.notation) + "   Pieces: "
                    + piece_style_name(o.board.pieces) + "   Coordinates: " + on_off(o.board.coords) + "   Reverse: "
                    + on_off(o.board.reverse) + "   Material: " + on_off(o.material) + "   rcptr: " + on_off(o.rcptr));
    return lines;
}

void cmd_bd(Controller& c, const CommandArgs&) { c.ui().show_board(c.session()); }

void cmd_help(Controller& c, const CommandArgs& a) {
    if (a.words.empty()) {
        show_lines(c, help_lines(c));
        return;
    }
    const Command* cmd = find_command(a.words[0]);
    if (!cmd)
        cmd = find_command_folded(a.words[0]);
    if (!cmd) {
        c.ui().message("No command '" + a.words[0] + "' (help lists them all).");
        return;
    }
    std::string head(cmd->name);
    if (!cmd->args.empty())
        head += " " + std::string(cmd->args);
    c.ui().message(head + ": " + std::string(cmd->summary) + "\n" + std::string(cmd->details));
}

void cmd_rules(Controller& c, const CommandArgs& a) {
    if (a.words.empty()) {
        c.ui().message(all_rules_text());
        return;
    }
    if (auto t = rules_text(a.words[0])) {
        c.ui().message(*t);
        return;
    }
    std::string names;
    for (const auto& t : rules_topics())
        names += " " + std::string(t.name);
    c.ui().message("No rules topic '" + a.words[0] + "'; topics:" + names);
}

void cmd_p(Controller& c, const CommandArgs&) {
    Session& s = c.session();
    const Position& pos = s.position();
    auto full = black_eval(s, pos.sfen());
    auto lines = grid([&](Square sq) -> std::optional<int> {
        Piece pc = pos.piece_on(sq);
        if (pc == NO_PIECE || type_of(pc) == KING || !full)
            return std::nullopt;
        BoardEditor ed(pos);
        ed.set(sq, NO_PIECE);
        auto without = black_eval(s, ed.sfen(pos.side_to_move()));
        if (!without)
            return std::nullopt;
        int v = *full - *without;
        return color_of(pc) == BLACK ? v : -v;
    });
    lines.insert(lines.begin(), "Value of each piece (what its side's score loses without it):");
    lines.push_back("Score: " + (full ? std::to_string(*full) : std::string("?")) + " (Black's view; 100 = one pawn)");
    show_lines(c, lines);
}

void cmd_debug(Controller& c, const CommandArgs& a) {
    std::string spec = a.words.empty() ? "" : a.words[0];
    if (spec.empty()) {
        auto answer = c.ask("Enter piece (color and letter, e.g. bP, wN, b+R): ");
        if (!answer)
            return;
        spec = *answer;
    }
    bool ok = spec.size() >= 2 && (spec[0] == 'b' || spec[0] == 'w');
    bool promoted = ok && spec[1] == '+';
    PieceType pt = ok ? notation::piece_from_letter(char(std::toupper(spec[promoted ? 2 : 1]))) : NO_PIECE_TYPE;
    if (!ok || pt == NO_PIECE_TYPE || (promoted && !can_promote(pt))) {
        c.ui().message("debug: a piece as color and letter: bP, wN, b+R");
        return;
    }
    Piece pc = make_piece(spec[0] == 'b' ? BLACK : WHITE, promoted ? promote(pt) : pt);
    Session& s = c.session();
    const Position& pos = s.position();
    // The piece alone with the two kings, so that any piece fits on any square: its value
    // there is the evaluation with it less the evaluation of the kings alone.
    BoardEditor kings(pos);
    for (Square sq = SQ_11; sq < SQ_NB; ++sq)
        if (type_of(pos.piece_on(sq)) != KING)
            kings.set(sq, NO_PIECE);
    std::string bare = kings.sfen(pos.side_to_move());
    bare = bare.substr(0, bare.find(' ')) + (pos.side_to_move() == BLACK ? " b - 1" : " w - 1");
    auto base = black_eval(s, bare);
    auto lines = grid([&](Square sq) -> std::optional<int> {
        if (pos.piece_on(sq) != NO_PIECE || !base)
            return std::nullopt;
        Position p;
        if (!p.set(bare, SfenRules::Relaxed))
            return std::nullopt;
        BoardEditor ed(p);
        ed.set(sq, pc);
        auto v = black_eval(s, ed.sfen(pos.side_to_move()));
        return v ? std::optional<int>(*v - *base) : std::nullopt;
    });
    lines.insert(lines.begin(), "Value (Black's view) of " + spec + " on each empty square, beside the two kings:");
    show_lines(c, lines);
}

void cmd_test(Controller& c, const CommandArgs& a) {
    Session& s = c.session();
    const Position& pos = s.position();
    int rounds = a.name == "moves" ? 1 : 20000;
    using Clock = std::chrono::steady_clock;
    auto rate = [](std::uint64_t n, Clock::time_point t0) {
        double secs = std::chrono::duration<double>(Clock::now() - t0).count();
        return secs > 0 ? std::uint64_t(double(n) / secs) : n;
    };
    std::uint64_t n = 0;
    auto t0 = Clock::now();
    for (int i = 0; i < rounds; ++i)
        n += MoveList<LEGAL, true>(pos).size();
    c.ui().message("Legal moves: " + std::to_string(n) + " generated, " + std::to_string(rate(n, t0)) + " per second");
    n = 0;
    t0 = Clock::now();
    for (int i = 0; i < rounds; ++i)
        n += MoveList<CAPTURES>(pos).size();
    c.ui().message("Captures: " + std::to_string(n) + " generated, " + std::to_string(rate(n, t0)) + " per second");
    t0 = Clock::now();
    long long sum = 0;
    for (int i = 0; i < rounds; ++i)
        sum += s.engine().pool().evaluator->evaluate(pos);
    c.ui().message("Evaluations: " + std::to_string(rounds) + ", " + std::to_string(rate(std::uint64_t(rounds), t0))
                   + " per second (score " + std::to_string(sum / rounds) + ")");
}

}  // namespace hisha::play
