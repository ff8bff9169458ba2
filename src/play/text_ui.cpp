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

std::vector<std::string> message_lines(std::string_view text) {
    std::vector<std::string> out;
    while (true) {
        std::size_t nl = text.find('\n');
        out.emplace_back(text.substr(0, nl));
        if (nl == std::string_view::npos)
            return out;
        text.remove_prefix(nl + 1);
    }
}

// --- LineUi

void LineUi::line(std::string_view l) { out_ << l << "\n" << std::flush; }

void LineUi::message(std::string_view text) {
    for (const auto& l : message_lines(text))
        note(l);
}

void LineUi::show_board(const Session& s) {
    for (const auto& l : board_text(s))
        note(l);
}

void LineUi::game_over(const Session&, const GameResult& r) { line(result_text(r)); }

void LineUi::thinking(const Session& s, const engine::SearchInfo& info, bool post) {
    if (post)
        note(post_line(s, info));
}

// --- RawUi

void RawUi::start(const Session&) { line(xs::banner() + " -- help: commands, rules: the rules of shogi"); }

void RawUi::show_board(const Session& s) {
    line("");
    LineUi::show_board(s);
}

void RawUi::move_made(const Session& s, const MoveReport& m) {
    if (!m.by_engine)
        return;
    line("My move is: " + m.text);
    show_board(s);
}

void RawUi::illegal(std::string_view input, std::string_view reason) {
    line("Illegal move (" + std::string(reason) + ") " + std::string(input));
}

void RawUi::hint(std::string_view move_text, Move m) {
    line(m.is_ok() ? "Hint: " + std::string(move_text) : std::string("I have no idea."));
}

void RawUi::time_set(bool opponent, int centiseconds, int moves) {
    line((opponent ? "Opponent's clock: " : "Computer's clock: ") + format_clock(centiseconds * 10)
         + (moves ? " for " + std::to_string(moves) + " moves" : ""));
}

void RawUi::prompt(const Session&, std::string_view question) {
    out_ << (question.empty() ? std::string_view("Your move is? ") : question) << std::flush;
}

void RawUi::beep() {
    if (terminal_)
        out_ << '\a' << std::flush;
}

// --- XshogiUi

void XshogiUi::note(std::string_view l) { line(xs::noise(l)); }

void XshogiUi::start(const Session&) {
    if (banner_)
        line(xs::banner());
}

void XshogiUi::move_made(const Session&, const MoveReport& m) {
    if (m.by_engine)
        line(xs::engine_move_line(m.counter, m.move, m.clock_ms));
    else
        line(xs::user_move_line(m.counter, m.typed, m.clock_ms));
}

void XshogiUi::illegal(std::string_view input, std::string_view reason) { line(xs::illegal_move_line(reason, input)); }

void XshogiUi::hint(std::string_view, Move m) { line(xs::hint_line(m)); }

void XshogiUi::clocks_set(int black_ms, int white_ms) { line(xs::clocks_line(black_ms, white_ms)); }

void XshogiUi::time_set(bool opponent, int centiseconds, int moves) {
    line(xs::time_ack(opponent, centiseconds, moves));
}

}  // namespace hisha::play
