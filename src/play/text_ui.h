// The two line-oriented displays, both LineUis. RawUi is GNU Shogi's -R for dumb terminals and scripts:
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
/// The lines of a message, split at LF (a final LF leaves an empty last line).
std::vector<std::string> message_lines(std::string_view text);

/// A display that writes whole lines to a stream. Messages, the board and post mode's search
/// reports are informational lines, which each display writes its own way (note); the result
/// is a line of its own.
class LineUi : public Ui {
public:
    void message(std::string_view text) override;
    void show_board(const Session& s) override;
    void game_over(const Session& s, const core::GameResult& r) override;
    void thinking(const Session& s, const engine::SearchInfo& info, bool post) override;

protected:
    explicit LineUi(std::ostream& out) : out_(out) {}
    /// Writes `l` and a newline, flushed.
    void line(std::string_view l);
    /// Writes an informational line.
    virtual void note(std::string_view l) = 0;

    std::ostream& out_;
};

class RawUi : public LineUi {
public:
    RawUi(std::ostream& out, bool terminal) : LineUi(out), terminal_(terminal) {}
    DisplayMode mode() const override { return DisplayMode::Raw; }
    void start(const Session&) override;
    void show_board(const Session& s) override;  // with a blank line above
    void move_made(const Session& s, const MoveReport& m) override;
    void illegal(std::string_view input, std::string_view reason) override;
    void hint(std::string_view move_text, core::Move m) override;
    void clocks_set(int, int) override {}
    void time_set(bool opponent, int centiseconds, int moves) override;
    void prompt(const Session& s, std::string_view question) override;
    void beep() override;

private:
    void note(std::string_view l) override { line(l); }
    bool terminal_;
};

class XshogiUi : public LineUi {
public:
    /// `banner`: start() writes the banner (false when it was written before the first line was read).
    XshogiUi(std::ostream& out, bool banner = true) : LineUi(out), banner_(banner) {}
    DisplayMode mode() const override { return DisplayMode::Xshogi; }
    void start(const Session&) override;
    void move_made(const Session& s, const MoveReport& m) override;
    void illegal(std::string_view input, std::string_view reason) override;
    void hint(std::string_view move_text, core::Move m) override;
    void clocks_set(int black_ms, int white_ms) override;
    void time_set(bool opponent, int centiseconds, int moves) override;
    void prompt(const Session&, std::string_view) override {}
    void beep() override {}

private:
    /// Made harmless: xshogi acts on nothing in it.
    void note(std::string_view l) override;
    bool banner_;
};

}  // namespace hisha::play
