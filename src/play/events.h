// The interactive program's event queue: input lines (from a reader thread or the curses
// keyboard), search reports from the engine's thread, and signals. The main loop is the only
// consumer, so every state change and every output happens on one thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>

#include "engine/search.h"

namespace hisha::play {

struct Event {
    enum class Kind { Line, Eof, Info, Done };
    Kind kind = Kind::Line;
    std::string line;
    engine::SearchInfo info;
    engine::SearchResult result;
    int search_id = 0;
};

class EventQueue {
public:
    void push(Event e) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            events_.push_back(std::move(e));
        }
        ready_.notify_one();
    }
    /// The next event, waiting at most `timeout`.
    std::optional<Event> pop(std::chrono::milliseconds timeout) {
        std::unique_lock<std::mutex> lock(mutex_);
        if (!ready_.wait_for(lock, timeout, [this] { return !events_.empty(); }))
            return std::nullopt;
        Event e = std::move(events_.front());
        events_.pop_front();
        return e;
    }

private:
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<Event> events_;
};

}  // namespace hisha::play
