// The curses display (GNU Shogi's -C): a full-screen board with both hands, the clocks, the
// move list, the principal variation while the computer thinks, a message area and the
// prompt with a line editor. Long texts (help, rules) replace the board until the next
// line is entered; PgUp/PgDn or space scroll them.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "ui.h"

namespace hisha::play {

class CursesUi : public Ui {
public:
    CursesUi() = default;
    ~CursesUi() override;
    DisplayMode mode() const override { return DisplayMode::Curses; }

    void start(const Session& s) override;
    void finish() override;
    void message(std::string_view text) override;
    void show_board(const Session& s) override;
    void move_made(const Session& s, const MoveReport& m) override;
    void illegal(std::string_view input, std::string_view reason) override;
    void game_over(const Session& s, const core::GameResult& r) override;
    void hint(std::string_view move_text, core::Move m) override;
    void clocks_set(int, int) override { redraw(); }
    void time_set(bool, int, int) override { redraw(); }
    void thinking(const Session& s, const engine::SearchInfo& info, bool post) override;
    void prompt(const Session& s, std::string_view question) override;
    void beep() override;

    bool polls_input() const override { return true; }
    void poll(EventQueue& queue, std::chrono::milliseconds timeout) override;
    void tick(const Session& s) override;

private:
    void redraw();
    void draw_header(int width);
    void draw_board(int top);
    void draw_moves(int top, int left, int height);
    void draw_footer(int top, int height, int width);
    void put(int row, int col, std::string_view text, int max_width);
    void note(std::string text);

    const Session* session_ = nullptr;
    bool active_ = false;
    std::vector<std::string> overlay_;  // a long text shown instead of the board
    int overlay_top_ = 0;
    std::deque<std::string> messages_;
    std::string pv_;
    std::string prompt_ = "Your move: ";
    std::string input_;
    int last_clock_second_ = -1;
};

}  // namespace hisha::play
