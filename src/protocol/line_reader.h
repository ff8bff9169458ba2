// Lines from a pipe or a socket as they come: the one poll()-based reader of the engine pipes
// (ChildProcess) and the CSA client's connection.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace hisha::protocol {

class LineReader {
public:
    enum class Read { Line, Timeout, Eof, Wake };
    struct Limits {
        std::size_t max_line = 0;       // a longer line without its LF ends the stream (0: no limit)
        bool last_line_at_eof = false;  // text after the last LF is a line when the stream ends
    };
    LineReader() = default;
    explicit LineReader(Limits limits) : limits_(limits) {}

    /// One line of `fd` (the LF, and a CR before it, dropped) by `deadline`; Wake when `wake_fd`
    /// (if not -1) becomes readable first; Eof once the stream has ended (or failed).
    Read read_line(int fd, std::string& line, std::chrono::steady_clock::time_point deadline, int wake_fd = -1);
    bool at_eof() const { return eof_; }
    /// Ends the stream here (its writing side failed): the next read gives Eof.
    void end() { eof_ = true; }
    /// Forgets what was read (a new stream follows).
    void reset() {
        buffer_.clear();
        eof_ = false;
    }

private:
    /// Waits for and reads what `fd` has: false on a timeout (`woken` when `wake_fd` came first).
    bool fill(int fd, std::chrono::steady_clock::time_point deadline, int wake_fd, bool& woken);

    Limits limits_;
    std::string buffer_;
    bool eof_ = false;
};

}  // namespace hisha::protocol
