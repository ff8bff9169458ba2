// The two line-oriented displays. RawUi is GNU Shogi's -R for dumb terminals and scripts:
// prompts, "My move is: ...", and the board after the computer's moves and on `bd`.
// XshogiUi speaks the protocol xshogi reads (src/protocol/xshogi): no prompts, no board
// unless asked, every informational line made harmless.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "ui.h"

namespace hisha::play {

/// The status line, the board with both hands, and whose move it is.
std::vector<std::string> board_text(const Session& s);
/// A search report as GNU Shogi's post mode prints it: depth, score, seconds, nodes, line.
std::string post_line(const Session& s, const engine::SearchInfo& info);
/// How the game ended, in the words xshogi and GNU Shogi use ("Black mates!", ...).
std::string result_text(const core::GameResult& r);

class RawUi : public Ui {
public:
    RawUi(std::ostream& out, bool terminal) : out_(out), terminal_(terminal) {}
    DisplayMode mode() const override { return DisplayMode::Raw; }
    void start(const Session&) override;
    void message(std::string_view text) override;
    void show_board(const Session& s) override;
    void move_made(const Session& s, const MoveReport& m) override;
    void illegal(std::string_view input, std::string_view reason) override;
    void game_over(const Session& s, const core::GameResult& r) override;
    void hint(std::string_view move_text, core::Move m) override;
    void clocks_set(int, int) override {}
    void time_set(bool opponent, int centiseconds, int moves) override;
    void thinking(const Session& s, const engine::SearchInfo& info, bool post) override;
    void prompt(const Session& s, std::string_view question) override;
    void beep() override;

private:
    std::ostream& out_;
    bool terminal_;
};

class XshogiUi : public Ui {
public:
    /// `banner`: start() writes the banner (false when it was written before the first line was read).
    XshogiUi(std::ostream& out, bool banner = true) : out_(out), banner_(banner) {}
    DisplayMode mode() const override { return DisplayMode::Xshogi; }
    void start(const Session&) override;
    void message(std::string_view text) override;
    void show_board(const Session& s) override;
    void move_made(const Session& s, const MoveReport& m) override;
    void illegal(std::string_view input, std::string_view reason) override;
    void game_over(const Session& s, const core::GameResult& r) override;
    void hint(std::string_view move_text, core::Move m) override;
    void clocks_set(int black_ms, int white_ms) override;
    void time_set(bool opponent, int centiseconds, int moves) override;
    void thinking(const Session& s, const engine::SearchInfo& info, bool post) override;
    void prompt(const Session&, std::string_view) override {}
    void beep() override {}

private:
    void line(const std::string& l);
    void noise(std::string_view text);
    std::ostream& out_;
    bool banner_;
};

}  // namespace hisha::play
