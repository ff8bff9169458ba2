// The curses display.
#include "curses_ui.h"

#include <clocale>
#include <curses.h>

#include "board_view.h"
#include "core/version.h"
#include "kanji.h"
#include "session.h"
#include "text_ui.h"

namespace hisha::play {

using namespace hisha::core;

namespace {

constexpr int BOARD_LEFT = 1;
constexpr int MOVES_LEFT = 53;

}  // namespace

CursesUi::~CursesUi() { finish(); }

void CursesUi::start(const Session& s) {
    session_ = &s;
    std::setlocale(LC_ALL, "");
    initscr();
    cbreak();
    noecho();
    keypad(stdscr, TRUE);
    active_ = true;
    note(std::string("Hisha ") + version()
         + " (GNU Shogi compatible). help: commands, rules: the rules. Moves: 7g7f P-7f P*5e 2d2c+");
    redraw();
}

void CursesUi::finish() {
    if (active_) {
        endwin();
        active_ = false;
    }
}

void CursesUi::put(int row, int col, std::string_view text, int max_width) {
    std::string out;
    int width = 0;
    while (!text.empty()) {
        std::string_view ch = kanji::first_char(text);
        std::string_view rest = text.substr(ch.size());
        int w = kanji::columns(ch);
        if (width + w > max_width)
            break;
        out += ch;
        width += w;
        text = rest;
    }
    mvaddstr(row, col, out.c_str());
}

void CursesUi::note(std::string text) {
    for (auto& l : message_lines(text))
        messages_.push_back(std::move(l));
    while (messages_.size() > 50)
        messages_.pop_front();
}

void CursesUi::draw_header(int width) {
    put(0, 0, std::string("Hisha ") + version() + " (GNU Shogi compatible)", width);
    if (!session_ || !session_->clocks().enabled())
        return;
    const GameClocks& c = session_->clocks();
    auto running = c.running_side();
    std::string clocks = std::string(running == BLACK ? "*" : " ") + "Black " + format_clock(c.remaining(BLACK)) + "  "
                       + (running == WHITE ? "*" : " ") + "White " + format_clock(c.remaining(WHITE));
    int col = std::max(34, width - int(clocks.size()) - 1);
    put(0, col, clocks, width - col);
}

void CursesUi::draw_board(int top) {
    if (!overlay_.empty()) {
        int rows = LINES - top - 8;
        for (int i = 0; i < rows && overlay_top_ + i < int(overlay_.size()); ++i)
            put(top + i, 0, overlay_[std::size_t(overlay_top_ + i)], COLS - 1);
        if (int(overlay_.size()) > rows)
            put(top + rows, 0, "-- PgUp/PgDn or space to scroll, Enter to go back --", COLS - 1);
        return;
    }
    BoardStyle style = session_->options().board;
    style.compact = true;
    auto lines = board_lines(session_->position(), style);
    for (std::size_t i = 0; i < lines.size(); ++i)
        put(top + int(i), BOARD_LEFT, lines[i], MOVES_LEFT - BOARD_LEFT - 1);
}

void CursesUi::draw_moves(int top, int left, int height) {
    if (!overlay_.empty() || COLS < left + 10)
        return;
    const Session& s = *session_;
    put(top, left, "Moves", COLS - left - 1);
    int n = s.ply_count();
    int rows_needed = (n + 1) / 2;
    int first_row = std::max(0, rows_needed - (height - 1));
    for (int r = first_row; r < rows_needed; ++r) {
        std::string line = std::to_string(r + 1) + ". " + s.move_text_at(2 * r);
        if (2 * r + 1 < n)
            line += std::string(std::max<std::size_t>(1, 14 - line.size()), ' ') + s.move_text_at(2 * r + 1);
        put(top + 1 + r - first_row, left, line, COLS - left - 1);
    }
}

// Below the board: the status line, the principal variation, as many recent messages as
// fit, and the prompt on the last line.
void CursesUi::draw_footer(int top, int height, int width) {
    const Session& s = *session_;
    const Game& g = s.game();
    const Options& o = s.options();
    std::string status = g.over() ? "Game over: " + result_text(g.result())
                                  : std::string(s.side_to_move() == BLACK ? "Black" : "White") + " to move (move "
                                        + std::to_string(s.ply_count() + 1) + ")";
    status += o.force ? "   force mode"
            : o.both  ? "   Hisha plays both"
                      : std::string("   Hisha plays ") + (o.computer == BLACK ? "Black" : "White");
    top = std::min(top, height - 7);
    put(top, 0, status, width - 1);
    put(top + 1, 0, pv_, width - 1);
    int rows = std::max(1, height - 1 - (top + 2));
    int first = std::max(0, int(messages_.size()) - rows);
    for (int i = first; i < int(messages_.size()); ++i)
        put(top + 2 + (i - first), 0, messages_[std::size_t(i)], width - 1);
    std::string line = prompt_ + input_;
    put(height - 1, 0, line, width - 1);
    move(height - 1, std::min(width - 1, kanji::columns(line)));
}

void CursesUi::redraw() {
    if (!active_ || !session_)
        return;
    erase();
    draw_header(COLS);
    draw_board(2);
    draw_moves(2, MOVES_LEFT, LINES - 10);
    draw_footer(overlay_.empty() ? 2 + 15 : LINES - 7, LINES, COLS);
    refresh();
}

void CursesUi::message(std::string_view text) {
    auto lines = message_lines(text);
    if (lines.size() > 3) {
        overlay_ = std::move(lines);
        overlay_top_ = 0;
    } else {
        for (auto& l : lines)
            note(l);
    }
    redraw();
}

void CursesUi::show_board(const Session& s) {
    session_ = &s;
    overlay_.clear();
    redraw();
}

void CursesUi::move_made(const Session&, const MoveReport& m) {
    if (m.by_engine) {
        note("My move is: " + m.text);
        pv_.clear();
    }
    redraw();
}

void CursesUi::illegal(std::string_view input, std::string_view reason) {
    note("Illegal move (" + std::string(reason) + ") " + std::string(input));
    redraw();
}

void CursesUi::game_over(const Session&, const GameResult& r) {
    note(result_text(r));
    redraw();
}

void CursesUi::hint(std::string_view move_text, Move m) {
    note(m.is_ok() ? "Hint: " + std::string(move_text) : std::string("I have no idea."));
    redraw();
}

void CursesUi::thinking(const Session& s, const engine::SearchInfo& info, bool) {
    pv_ = "Thinking:" + post_line(s, info);
    redraw();
}

void CursesUi::prompt(const Session&, std::string_view question) {
    prompt_ = question.empty() ? "Your move: " : std::string(question);
    redraw();
}

void CursesUi::beep() {
    if (active_)
        ::beep();
}

void CursesUi::tick(const Session& s) {
    session_ = &s;
    auto running = s.clocks().running_side();
    int second = running ? s.clocks().remaining(*running) / 1000 : -1;
    if (second != last_clock_second_) {
        last_clock_second_ = second;
        redraw();
    }
}

void CursesUi::poll(EventQueue& queue, std::chrono::milliseconds timeout) {
    if (!active_)
        return;
    wtimeout(stdscr, int(timeout.count()));
    int ch = wgetch(stdscr);
    if (ch == ERR)
        return;
    int page = std::max(1, LINES - 12);
    if (ch == '\n' || ch == '\r' || ch == KEY_ENTER) {
        Event e;
        e.line = input_;
        input_.clear();
        overlay_.clear();
        note(prompt_ + e.line);
        queue.push(std::move(e));
    } else if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
        while (!input_.empty() && (static_cast<unsigned char>(input_.back()) & 0xC0) == 0x80)
            input_.pop_back();
        if (!input_.empty())
            input_.pop_back();
    } else if (ch == 4 && input_.empty()) {
        Event e;
        e.kind = Event::Kind::Eof;
        queue.push(std::move(e));
    } else if (!overlay_.empty() && (ch == KEY_NPAGE || (ch == ' ' && input_.empty()))) {
        overlay_top_ = std::min(overlay_top_ + page, std::max(0, int(overlay_.size()) - page));
    } else if (!overlay_.empty() && ch == KEY_PPAGE) {
        overlay_top_ = std::max(0, overlay_top_ - page);
    } else if (ch >= 32 && ch < 256) {
        input_ += char(ch);
    }
    redraw();
}

}  // namespace hisha::play
