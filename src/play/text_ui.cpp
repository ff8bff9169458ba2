// The raw and xshogi displays.
#include "text_ui.h"

#include <cstdio>

#include "board_view.h"
#include "engine/value.h"
#include "protocol/xshogi.h"
#include "session.h"

namespace hisha::play {

using namespace hisha::core;
namespace xs = protocol::xshogi;

namespace {

void for_each_line(std::string_view text, const std::function<void(std::string_view)>& f) {
    while (true) {
        std::size_t nl = text.find('\n');
        f(text.substr(0, nl));
        if (nl == std::string_view::npos)
            return;
        text.remove_prefix(nl + 1);
    }
}

std::string score_text(int v) {
    if (engine::is_mate_score(v))
        return v > 0 ? "mate" + std::to_string(engine::VALUE_MATE - v)
                     : "-mate" + std::to_string(engine::VALUE_MATE + v);
    return (v > 0 ? "+" : "") + std::to_string(v);
}

}  // namespace

std::vector<std::string> board_text(const Session& s) {
    std::vector<std::string> lines;
    const GameClocks& c = s.clocks();
    if (c.enabled())
        lines.push_back("Black " + format_clock(c.remaining(BLACK)) + "  White " + format_clock(c.remaining(WHITE)));
    for (auto& l : board_lines(s.position(), s.options().board))
        lines.push_back(std::move(l));
    const Game& g = s.game();
    if (g.over())
        lines.push_back("Game over: " + result_text(g.result()));
    else
        lines.push_back(std::string(s.side_to_move() == BLACK ? "Black" : "White") + " to move (move "
                        + std::to_string(s.ply_count() + 1) + ")");
    return lines;
}

std::string post_line(const Session& s, const engine::SearchInfo& info) {
    char head[64];
    std::snprintf(head, sizeof head, "%3d %7s %6.2f %10llu ", info.depth, score_text(info.score).c_str(),
                  info.time_ms / 1000.0, (unsigned long long)info.nodes);
    std::string line = head;
    auto p = s.position().clone();
    for (Move m : info.pv) {
        if (!p->is_legal(m))
            break;
        line += " " + s.move_text(*p, m);
        p->play(m);
    }
    return line;
}

std::string result_text(const GameResult& r) { return xs::result_line(r); }

// --- RawUi

void RawUi::start(const Session&) {
    out_ << xs::banner() << " -- help: commands, rules: the rules of shogi\n" << std::flush;
}

void RawUi::message(std::string_view text) { out_ << text << "\n" << std::flush; }

void RawUi::show_board(const Session& s) {
    out_ << "\n";
    for (const auto& l : board_text(s))
        out_ << l << "\n";
    out_ << std::flush;
}

void RawUi::move_made(const Session& s, const MoveReport& m) {
    if (!m.by_engine)
        return;
    out_ << "My move is: " << m.text << "\n";
    show_board(s);
}

void RawUi::illegal(std::string_view input, std::string_view reason) {
    out_ << "Illegal move (" << reason << ") " << input << "\n" << std::flush;
}

void RawUi::game_over(const Session&, const GameResult& r) { out_ << result_text(r) << "\n" << std::flush; }

void RawUi::hint(std::string_view move_text, Move m) {
    out_ << (m.is_ok() ? "Hint: " + std::string(move_text) : std::string("I have no idea.")) << "\n" << std::flush;
}

void RawUi::time_set(bool opponent, int centiseconds, int moves) {
    out_ << (opponent ? "Opponent's clock: " : "Computer's clock: ") << format_clock(centiseconds * 10)
         << (moves ? " for " + std::to_string(moves) + " moves" : "") << "\n"
         << std::flush;
}

void RawUi::thinking(const Session& s, const engine::SearchInfo& info, bool post) {
    if (post)
        out_ << post_line(s, info) << "\n" << std::flush;
}

void RawUi::prompt(const Session&, std::string_view question) {
    out_ << (question.empty() ? std::string_view("Your move is? ") : question) << std::flush;
}

void RawUi::beep() {
    if (terminal_)
        out_ << '\a' << std::flush;
}

// --- XshogiUi

void XshogiUi::line(const std::string& l) { out_ << l << "\n" << std::flush; }

void XshogiUi::noise(std::string_view text) {
    for_each_line(text, [this](std::string_view l) { line(xs::noise(l)); });
}

void XshogiUi::start(const Session&) {
    if (banner_)
        line(xs::banner());
}

void XshogiUi::message(std::string_view text) { noise(text); }

void XshogiUi::show_board(const Session& s) {
    for (const auto& l : board_text(s))
        line(xs::noise(l));
}

void XshogiUi::move_made(const Session&, const MoveReport& m) {
    if (m.by_engine)
        line(xs::engine_move_line(m.counter, m.move, m.clock_ms));
    else
        line(xs::user_move_line(m.counter, m.typed, m.clock_ms));
}

void XshogiUi::illegal(std::string_view input, std::string_view reason) { line(xs::illegal_move_line(reason, input)); }

void XshogiUi::game_over(const Session&, const GameResult& r) { line(xs::result_line(r)); }

void XshogiUi::hint(std::string_view, Move m) { line(xs::hint_line(m)); }

void XshogiUi::clocks_set(int black_ms, int white_ms) { line(xs::clocks_line(black_ms, white_ms)); }

void XshogiUi::time_set(bool opponent, int centiseconds, int moves) {
    line(xs::time_ack(opponent, centiseconds, moves));
}

void XshogiUi::thinking(const Session& s, const engine::SearchInfo& info, bool post) {
    if (post)
        line(xs::noise(post_line(s, info)));
}

}  // namespace hisha::play
