// Hisha as a USI engine: reads GUI commands from a stream, drives the Engine, writes replies.
// The commands are a data table (name, handler, help) that also drives `help`.
#pragma once

#include <atomic>
#include <iosfwd>
#include <thread>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/position.h"
#include "engine/engine.h"

namespace hisha::protocol {

class UsiEngine {
public:
    UsiEngine(std::istream& in, std::ostream& out);
    ~UsiEngine();
    /// Reads commands until `quit` or end of input; returns the process exit code.
    int run();
    /// Handles one command line (exposed for tests).
    bool handle(const std::string& line);
    /// Stops a running search or mate search and waits until it has answered (tests, fuzzing:
    /// no thread of the engine writes after it returns).
    void finish_search();

private:
    struct Command {
        const char* name;
        void (UsiEngine::*handler)(std::istringstream& args);
        const char* help;
    };
    static const Command COMMANDS[];

    void cmd_usi(std::istringstream&);
    void cmd_isready(std::istringstream&);
    void cmd_setoption(std::istringstream&);
    void cmd_usinewgame(std::istringstream&);
    void cmd_position(std::istringstream&);
    void cmd_go(std::istringstream&);
    void cmd_stop(std::istringstream&);
    void cmd_ponderhit(std::istringstream&);
    void cmd_gameover(std::istringstream&);
    void cmd_quit(std::istringstream&);
    void cmd_display(std::istringstream&);
    void cmd_perft(std::istringstream&);
    void cmd_bench(std::istringstream&);
    void cmd_eval(std::istringstream&);
    void cmd_help(std::istringstream&);

    void send(const std::string& line);
    void start_mate_search(const std::string& limit);
    void stop_mate_search();
    std::string info_line(const engine::SearchInfo& info) const;

    std::istream& in_;
    std::ostream& out_;
    std::mutex out_mutex_;
    engine::Engine engine_;
    std::unique_ptr<core::Position> pos_;
    bool quit_ = false;
    std::thread mate_thread_;          // a running `go mate` (the df-pn solver)
    std::atomic<bool> mate_stop_{false};
};

}  // namespace hisha::protocol
