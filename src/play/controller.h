// Controller: the interactive program's main loop. It reads lines, runs commands from the
// command table, reads moves, starts and finishes the engine's searches (its own moves,
// thinking on the opponent's time, analysis), and tells the Ui what happened. Every line of
// input, typed or piped, goes through one buffer in arrival order: the command loop and every
// question a command asks (a file name, a depth, Promote?) take the next line from it, so a
// line typed ahead is never lost nor read out of order. Lines that arrive while the program
// thinks about its own move wait there until the move is made (so piped input is
// deterministic), except `?` which makes it move at once; SIGINT does the same.
#pragma once

#include <atomic>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

#include "events.h"
#include "session.h"
#include "ui.h"

namespace hisha::play {

class Controller {
public:
    Controller(Session& session, Ui& ui, EventQueue& queue);

    /// Runs until `quit` or the end of input; returns the exit code.
    int run();

    // --- for the command handlers
    Session& session() { return session_; }
    const Session& session() const { return session_; }
    Ui& ui() { return ui_; }
    DisplayMode mode() const { return ui_.mode(); }
    /// Shows `question` and reads the next line (nullopt at the end of input).
    std::optional<std::string> ask(std::string_view question);
    /// Puts a line back in front of the input (an answer that was no answer: a command).
    void unread(std::string line) { lines_.push_front(std::move(line)); }
    /// The player's input is a terminal (questions such as Promote? are asked only there).
    bool input_is_terminal() const;
    /// A player's move in any notation.
    void user_move(std::string_view text);
    /// The program thinks about the side to move and plays its move.
    void start_thinking();
    /// Stops any search now (the program's own search then plays its best move so far).
    void interrupt();
    /// Analyses the position with `limits`, reporting lines, until done or interrupted.
    void start_analysis(const engine::Limits& limits);
    /// A quick search for the side to move (hint); none when there is no legal move.
    core::Move predicted_move();
    bool searching() const { return search_ != Search::None; }
    void request_quit() { quit_ = true; }
    /// Reports the result if the game is over (and learns from it).
    void announce_result();
    /// Plays `m` for the side to move as if the player had typed `typed`.
    bool play_user_move(core::Move m, std::string_view typed);
    int& user_counter() { return user_counter_; }
    int& engine_counter() { return engine_counter_; }

    /// SIGINT (move now) and SIGTERM (quit) handlers set these.
    static std::atomic<int> interrupt_signals;
    static std::atomic<bool> terminate_signal;

private:
    enum class Search { None, Move, Ponder, Analysis };

    std::optional<Event> next_event();
    void pump();
    void receive_line(std::string line);
    std::optional<std::string> next_line();
    void dispatch(Event& e);
    void handle_line(const std::string& line);
    void run_command_line(const std::string& line);
    void on_search_done(const Event& e);
    void finish_own_move(const engine::SearchResult& r);
    core::Move choose_move(const engine::SearchResult& r) const;
    void start_pondering();
    void stop_pondering();
    void start_search(Search kind, const engine::Limits& limits, std::vector<core::Move> search_moves = {});
    void after_move();
    void check_signals();
    void startup();

    Session& session_;
    Ui& ui_;
    EventQueue& queue_;
    Search search_ = Search::None;
    int search_id_ = 0;
    std::deque<std::string> lines_;            // input not yet read by the loop or a question, in order
    std::vector<engine::SearchInfo> multipv_;  // the latest line of each PV (random mode)
    engine::SearchInfo last_info_;
    bool quit_ = false;
    bool eof_ = false;  // the end of input was seen (lines_ may still hold lines)
    bool prompted_ = false;
    int user_counter_ = 0;
    int engine_counter_ = 0;
};

}  // namespace hisha::play
