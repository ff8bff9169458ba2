// JobQueue: the expensive work a client may ask for (a tsume solve, an engine analysis) runs on
// a bounded number of workers, one job each; a job that finds them all busy waits in a bounded
// queue, and an account has at most a few jobs running or waiting. A request beyond either
// bound is refused at once with the time after which a retry may succeed (it never waits in an
// unbounded line). Bookkeeping only, on the event loop's thread: a job is started by calling
// the function it was submitted with, and whoever runs it calls finish() when it is done.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace hisha::server::net {

class JobQueue {
public:
    struct Options {
        int workers = 1;              // jobs running at once
        std::size_t queue = 8;        // jobs waiting for a worker at most
        std::size_t per_account = 1;  // jobs of one account running or waiting at most
    };
    enum class Refusal { None, Account, Busy };
    struct Admission {
        std::uint64_t id = 0;  // of the job (0 when refused)
        Refusal refusal = Refusal::None;
        int retry_after_s = 0;  // refused: when a retry may be admitted
        std::string error;      // refused: what to tell the client ("server busy, retry in N s")
        explicit operator bool() const { return refusal == Refusal::None; }
    };
    struct Counters {
        std::uint64_t started = 0, refused_account = 0, refused_busy = 0;
    };
    using Clock = std::function<std::int64_t()>;  // milliseconds, monotonic

    explicit JobQueue(Options options, Clock now = {});

    /// A job of `account` (a name key) from `peer` that runs at most `max_ms`: `start` is called
    /// now when a worker is free, else once one is (from finish()). Refused at once when the
    /// account has per_account jobs already or the queue is full; each refusal is counted and
    /// logged (a `limited` event naming `kind`).
    Admission submit(const std::string& account, std::string_view kind, std::string_view peer, std::int64_t max_ms,
                     std::function<void()> start);
    /// The job is over, or given up before it started: its worker takes the next waiting job.
    void finish(std::uint64_t id);
    /// A running job starts over and now runs at most `max_ms` from now (a new analysis).
    void restart(std::uint64_t id, std::int64_t max_ms);
    /// No job starts any more (the server is stopping).
    void stop() { stopped_ = true; }

    bool running(std::uint64_t id) const { return running_.count(id) != 0; }
    std::size_t running() const { return running_.size(); }
    std::size_t waiting() const { return waiting_.size(); }
    const Counters& counters() const { return counters_; }
    const Options& options() const { return options_; }

private:
    struct Running {
        std::string account;
        std::int64_t deadline = 0;
    };
    struct Waiting {
        std::uint64_t id;
        std::string account;
        std::int64_t max_ms;
        std::function<void()> start;
    };
    void start_waiting();
    std::int64_t first_free_ms(std::int64_t now) const;  // until a worker is free (estimate)
    std::int64_t now() const;

    Options options_;
    Clock clock_;
    std::map<std::uint64_t, Running> running_;
    std::deque<Waiting> waiting_;
    std::uint64_t next_id_ = 1;
    Counters counters_;
    bool stopped_ = false;
    bool starting_ = false;  // inside start_waiting (a start may finish its job at once)
};

}  // namespace hisha::server::net
