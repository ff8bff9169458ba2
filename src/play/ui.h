// The display side of the interactive program. The controller decides what happened; a Ui
// shows it: RawUi (prompts and an ASCII board, GNU's -R), CursesUi (a full-screen board, -C)
// and XshogiUi (the protocol xshogi reads, -X). Every call comes from the main thread.
#pragma once

#include <chrono>
#include <ostream>
#include <string>
#include <string_view>

#include "core/game.h"
#include "engine/search.h"
#include "events.h"
#include "settings.h"

namespace hisha::play {

class Session;

/// A move that was just made, as the displays need it.
struct MoveReport {
    core::Move move;
    std::string text;   // in the chosen notation
    std::string typed;  // as the player typed it
    bool by_engine = false;
    int ply = 0;        // 1-based ply of the move in the game
    int counter = 0;    // xshogi's running count of player or engine moves
    int clock_ms = 0;   // the mover's clock after the move
    engine::SearchResult search;
};

class Ui {
public:
    virtual ~Ui() = default;
    virtual DisplayMode mode() const = 0;

    /// The program starts (banner, screen set-up) and ends.
    virtual void start(const Session&) {}
    virtual void finish() {}

    virtual void message(std::string_view text) = 0;   // informational, may span lines
    virtual void show_board(const Session& s) = 0;      // bd, reverse, new ...
    virtual void move_made(const Session& s, const MoveReport& m) = 0;
    virtual void illegal(std::string_view input, std::string_view reason) = 0;
    virtual void game_over(const Session& s, const core::GameResult& r) = 0;
    virtual void hint(std::string_view move_text, core::Move m) = 0;
    virtual void clocks_set(int black_ms, int white_ms) = 0;
    virtual void time_set(bool opponent, int centiseconds, int moves) = 0;
    /// A search report (post mode, analysis, the curses PV line).
    virtual void thinking(const Session& s, const engine::SearchInfo& info, bool post) = 0;
    /// Ready for input; `question` replaces the usual prompt.
    virtual void prompt(const Session& s, std::string_view question = {}) = 0;
    virtual void beep() = 0;

    /// Displays that read the keyboard themselves (curses) push lines into the queue here.
    virtual bool polls_input() const { return false; }
    virtual void poll(EventQueue&, std::chrono::milliseconds) {}
    /// Called a few times a second (running clocks).
    virtual void tick(const Session&) {}
};

}  // namespace hisha::play
