#include "protocol/line_reader.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace hisha::protocol {

LineReader::Read LineReader::read_line(int fd, std::string& line, std::chrono::steady_clock::time_point deadline,
                                       int wake_fd) {
    for (;;) {
        if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
            line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            return Read::Line;
        }
        if (limits_.max_line && buffer_.size() > limits_.max_line)
            eof_ = true;  // a peer that never ends its line is not speaking the protocol
        if (eof_ || fd < 0) {
            if (!limits_.last_line_at_eof || buffer_.empty())
                return Read::Eof;
            line = std::move(buffer_);
            buffer_.clear();
            return Read::Line;
        }
        bool woken = false;
        if (!fill(fd, deadline, wake_fd, woken))
            return woken ? Read::Wake : Read::Timeout;
    }
}

bool LineReader::fill(int fd, std::chrono::steady_clock::time_point deadline, int wake_fd, bool& woken) {
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd p[2] = {{fd, POLLIN, 0}, {wake_fd, POLLIN, 0}};
        int rc = ::poll(p, wake_fd >= 0 ? 2 : 1, int(std::clamp<long long>(left.count(), 0, 1 << 30)));
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc == 0)
            return false;
        if (rc > 0 && wake_fd >= 0 && (p[1].revents & POLLIN) && !(p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            woken = true;
            return false;
        }
        char chunk[4096];
        ssize_t n = rc < 0 ? -1 : ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            eof_ = true;
        else
            buffer_.append(chunk, std::size_t(n));
        return true;
    }
}

}  // namespace hisha::protocol
