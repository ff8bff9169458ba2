// Sender: writes line sessions' output on a thread of its own. On loopback or a fast network
// a send costs the event loop more than handling the move it carries (the kernel runs the
// TCP stack, and on 127.0.0.1 the receiver's side too, in the sender's time), so the loop
// hands each ready write to this thread and goes on; the thread sends without blocking and
// posts what was written back to the loop, which carries on with the session (the rest of a
// partial write goes out through Asio). A session has at most one write here, so its output
// keeps its order; its socket is closed only after that write is back (the descriptor must
// not be reused under the thread).
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/net/net.h"

namespace hisha::server::net {

class Sender {
public:
    /// What became of a write: `written` bytes of `text` went out; `error` is errno (0 when
    /// none; EAGAIN when the socket was full and the rest is to be written later).
    using Done = std::function<void(std::size_t written, int error, std::string text)>;

    explicit Sender(asio::io_context& ioc);
    ~Sender();  // stops the thread; writes not yet made are dropped (the loop has stopped)
    Sender(const Sender&) = delete;
    Sender& operator=(const Sender&) = delete;

    /// From the loop: write `text` to `fd`, then run `done` on the loop.
    void submit(int fd, std::string text, Done done);

private:
    struct Job {
        int fd;
        std::string text;
        Done done;
        std::size_t written = 0;
        int error = 0;
    };
    void run();

    asio::io_context& ioc_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<Job> jobs_;
    bool idle_ = false, stop_ = false;
    std::thread thread_;
};

/// The process's sender while a server runs (null otherwise: sessions write on the loop).
Sender* sender();
void set_sender(Sender* s);

}  // namespace hisha::server::net
