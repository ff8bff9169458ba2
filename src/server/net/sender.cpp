// Sender: the write thread of line sessions.
#include "server/net/sender.h"

#include <pthread.h>
#include <sys/socket.h>

#include <cerrno>

namespace hisha::server::net {

namespace {
Sender* the_sender = nullptr;
}

Sender* sender() { return the_sender; }
void set_sender(Sender* s) { the_sender = s; }

Sender::Sender(asio::io_context& ioc)
    : ioc_(ioc), thread_([this] {
          pthread_setname_np(pthread_self(), "sender");
          run();
      }) {}

Sender::~Sender() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    cv_.notify_one();
    thread_.join();
}

void Sender::submit(int fd, std::string text, Done done) {
    bool wake;
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back({fd, std::move(text), std::move(done)});
        wake = idle_;
        idle_ = false;
    }
    if (wake)
        cv_.notify_one();
}

void Sender::run() {
    std::vector<Job> batch;
    std::unique_lock lock(mutex_);
    for (;;) {
        if (jobs_.empty()) {
            idle_ = true;
            cv_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
        }
        if (stop_)
            return;
        batch.swap(jobs_);
        lock.unlock();
        for (Job& j : batch) {
            while (j.written < j.text.size()) {
                ssize_t n =
                    ::send(j.fd, j.text.data() + j.written, j.text.size() - j.written, MSG_NOSIGNAL | MSG_DONTWAIT);
                if (n > 0) {
                    j.written += std::size_t(n);
                } else if (n < 0 && errno == EINTR) {
                    continue;
                } else {
                    j.error = n < 0 ? errno : EPIPE;
                    break;
                }
            }
        }
        // One handler on the loop for the whole batch.
        asio::post(ioc_, [done = std::move(batch)]() mutable {
            for (Job& j : done)
                j.done(j.written, j.error, std::move(j.text));
        });
        batch = {};
        lock.lock();
    }
}

}  // namespace hisha::server::net
