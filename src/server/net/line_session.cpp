// LineSession: the read loop, line cutting and the write queue.
#include "server/net/line_session.h"
#include "server/service/log.h"

#include <boost/asio/as_tuple.hpp>

#include "server/net/output_gate.h"
#include "server/net/sender.h"

namespace hisha::server::net {

namespace {
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);
}

LineSession::LineSession(tcp::socket socket, LineLimits limits)
    : socket_(std::move(socket)), limits_(limits), open_(limits_.protocol), idle_timer_(socket_.get_executor()),
      wake_(socket_.get_executor()), bucket_(limits.lines_per_second, limits.burst) {
    boost::system::error_code ec;
    peer_ = socket_.remote_endpoint(ec).address().to_string();
    bucket_.describe(limits_.protocol, peer_);
}

void LineSession::start(const Factory& make_handler) {
    auto self = shared_from_this();
    std::weak_ptr<LineSession> weak = self;
    handler_ = make_handler(
        [weak](std::string text) {
            if (auto s = weak.lock())
                s->send(std::move(text));
        },
        [weak] {
            if (auto s = weak.lock())
                s->close();
        });
    handler_->set_flow({[weak] {
                            if (auto s = weak.lock())
                                s->pause();
                        },
                        [weak] {
                            if (auto s = weak.lock())
                                s->resume();
                        },
                        peer_});
    asio::co_spawn(
        socket_.get_executor(), [self] { return self->read_loop(); }, asio::detached);
    asio::co_spawn(
        socket_.get_executor(), [self] { return self->watchdog(); }, asio::detached);
    handler_->start();
}

// Reads only when every line read before has been handled: a client that types faster than
// it is served fills its socket buffers and waits, and loses nothing.
asio::awaitable<void> LineSession::read_loop() {
    char buf[4096];
    last_line_ = std::chrono::steady_clock::now();
    while (!closed_) {
        co_await handle_lines();
        if (closed_)
            break;
        if (overflow_) {  // the lines before it were handled: said, and closed once written
            send("Line too long: closing.\r\n");
            close();
            co_return;
        }
        arm_timer();
        auto [ec, n] = co_await socket_.async_read_some(asio::buffer(buf), use_tuple);
        if (ec)
            break;
        cut_lines(buf, n);
    }
    shutdown();
}

// Bytes are not enough to keep a connection: a complete line is (a slow client that dribbles a
// byte every few seconds, or telnet commands alone, would otherwise hold it forever).
void LineSession::arm_timer() {
    auto deadline = last_line_ + limits_.idle;
    line_deadline_ = false;
    if (line_started_ != std::chrono::steady_clock::time_point{} && limits_.line_timeout.count() > 0
        && line_started_ + limits_.line_timeout < deadline) {
        deadline = line_started_ + limits_.line_timeout;
        line_deadline_ = true;
    }
    idle_timer_.expires_at(deadline);
}

asio::awaitable<void> LineSession::handle_lines() {
    int in_a_row = 0;
    while (!closed_ && !lines_.empty()) {
        if (paused_) {
            co_await sleep(std::chrono::steady_clock::duration::max());
            continue;
        }
        if (auto wait = bucket_.wait(); wait.count() > 0) {
            co_await sleep(wait);
            continue;
        }
        if (++in_a_row % 16 == 0)  // a long paste: let the other connections have their turn
            co_await asio::post(socket_.get_executor(), use_tuple);
        if (closed_ || paused_ || lines_.empty())
            continue;
        Input in = std::move(lines_.front());
        lines_.pop_front();
        bucket_.take();
        deliver(in);
    }
}

// Until `d` has passed, resume() or shutdown() (wake_ cancelled).
asio::awaitable<void> LineSession::sleep(std::chrono::steady_clock::duration d) {
    if (d == std::chrono::steady_clock::duration::max())
        wake_.expires_at(std::chrono::steady_clock::time_point::max());
    else
        wake_.expires_after(d);
    co_await wake_.async_wait(use_tuple);
}

void LineSession::deliver(const Input& in) {
    last_line_ = std::chrono::steady_clock::now();  // a client served slowly is not idle
    arm_timer();
    auto h = handler_;  // the handler may close the session while it runs
    if (!h)
        return;
    if (in.too_long)
        h->on_line_too_long();
    else
        h->on_line(in.text);
}

void LineSession::pause() { paused_ = true; }

void LineSession::resume() {
    paused_ = false;
    wake_.cancel();
}

asio::awaitable<void> LineSession::watchdog() {
    while (!closed_) {
        auto [ec] = co_await idle_timer_.async_wait(use_tuple);
        if (closed_)
            break;
        if (!ec || idle_timer_.expiry() <= std::chrono::steady_clock::now()) {
            if (idle_timer_.expiry() <= std::chrono::steady_clock::now()) {
                send(line_deadline_
                         ? "Line not finished in " + std::to_string(limits_.line_timeout.count()) + " s: closing.\r\n"
                         : std::string("Idle too long: closing.\r\n"));
                close();
                break;
            }
        }
    }
}

// Telnet: IAC (255) starts a command; WILL/WONT/DO/DONT take one option byte; SB runs to IAC SE.
bool LineSession::telnet_byte(unsigned char c) {
    switch (telnet_state_) {
    case 1:
        telnet_state_ = (c >= 251 && c <= 254) ? 2 : c == 250 ? 3 : 0;  // 255 255: an escaped byte, dropped
        return true;
    case 2: telnet_state_ = 0; return true;
    case 3:
        if (c == 255)
            telnet_state_ = 4;
        return true;
    case 4: telnet_state_ = c == 240 ? 0 : 3; return true;
    default:
        if (c != 255)
            return false;
        telnet_state_ = 1;
        return true;
    }
}

void LineSession::cut_lines(const char* data, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        unsigned char c = static_cast<unsigned char>(data[i]);
        if (limits_.telnet && telnet_byte(c))
            continue;
        if (c == '\n') {
            end_line();
            continue;
        }
        if (line_started_ == std::chrono::steady_clock::time_point{})
            line_started_ = std::chrono::steady_clock::now();
        if (discarding_) {
            if (++discarded_ > limits_.max_discard) {
                overflow_ = true;  // not read further: what came before it is handled, then closed
                return;
            }
            continue;
        }
        partial_ += char(c);
        if (partial_.size() > limits_.max_line) {
            partial_.clear();
            discarding_ = true;
            discarded_ = 0;
            lines_.push_back({{}, true});
        }
    }
}

void LineSession::end_line() {
    line_started_ = {};
    last_line_ = std::chrono::steady_clock::now();
    if (discarding_) {  // the end of a line too long (already reported)
        discarding_ = false;
        partial_.clear();
        return;
    }
    if (!partial_.empty() && partial_.back() == '\r')
        partial_.pop_back();
    lines_.push_back({std::move(partial_), false});
    partial_.clear();
}

void LineSession::send(std::string text) {
    if (closed_ || closing_ || text.empty())
        return;
    queued_bytes_ += text.size();
    if (queued_bytes_ > limits_.max_queued) {  // the client does not read: drop it
        abort();
        return;
    }
    auto ticket = output_gate().ticket();
    if (!queue_.empty() && queue_.back().ticket == ticket)
        queue_.back().text += text;  // one write for the lines of one batch
    else
        queue_.push_back({std::move(text), ticket});
    pump();
}

void LineSession::pump() {
    if (writing_ || closed_)
        return;
    // Everything at the front whose batch is durable goes out in one write.
    while (!queue_.empty() && output_gate().durable(queue_.front().ticket)) {
        if (out_.empty())
            out_ = std::move(queue_.front().text);
        else
            out_ += queue_.front().text;
        queue_.pop_front();
    }
    if (out_.empty()) {
        if (queue_.empty()) {
            if (closing_)
                shutdown();
            return;
        }
        if (!parked_) {  // not durable yet: wait for the sync
            parked_ = true;
            auto self = shared_from_this();
            output_gate().hold(queue_.front().ticket, [self] {
                self->parked_ = false;
                self->pump();
            });
        }
        return;
    }
    if (Sender* w = sender()) {  // the write thread sends it; the loop goes on
        writing_ = in_sender_ = true;
        queued_bytes_ -= std::min(queued_bytes_, out_.size());
        w->submit(int(socket_.native_handle()), std::move(out_),
                  [self = shared_from_this()](std::size_t n, int error, std::string text) {
                      self->written(n, error, std::move(text));
                  });
        out_.clear();
        return;
    }
    // Most writes fit the socket buffer: a non-blocking send, no handler to run later.
    boost::system::error_code ec;
    if (!socket_.non_blocking())
        socket_.non_blocking(true, ec);
    std::size_t n = socket_.write_some(asio::buffer(out_), ec);
    if (ec && ec != asio::error::would_block && ec != asio::error::try_again) {
        // Not here: send() may run inside the service's event delivery.
        asio::post(socket_.get_executor(), [self = shared_from_this()] { self->shutdown(); });
        return;
    }
    queued_bytes_ -= std::min(queued_bytes_, n);
    out_.erase(0, n);
    if (out_.empty()) {
        if (!queue_.empty() || closing_)
            pump();
        return;
    }
    write_rest();
}

// The part of out_ that the socket did not take, written when it has room.
void LineSession::write_rest() {
    writing_ = true;
    auto self = shared_from_this();
    asio::async_write(socket_, asio::buffer(out_), [self](boost::system::error_code error, std::size_t n) {
        self->writing_ = false;
        if (error) {
            self->shutdown();
            return;
        }
        self->queued_bytes_ -= std::min(self->queued_bytes_, n);
        self->out_.clear();
        self->pump();
    });
}

// Back from the write thread (on the loop): `n` bytes of `text` were sent.
void LineSession::written(std::size_t n, int error, std::string text) {
    writing_ = in_sender_ = false;
    if (closed_) {  // shutdown() left the socket open for this write; it is back
        boost::system::error_code ec;
        socket_.close(ec);
        return;
    }
    if (error && error != EAGAIN && error != EWOULDBLOCK) {
        shutdown();
        return;
    }
    if (n < text.size()) {  // the socket was full: Asio writes the rest when it drains
        out_ = text.substr(n);
        queued_bytes_ += out_.size();
        write_rest();
        return;
    }
    pump();
}

void LineSession::close() {
    if (closed_)
        return;
    closing_ = true;
    if (queue_.empty() && out_.empty() && !writing_)
        shutdown();
}

void LineSession::abort() { shutdown(); }

void LineSession::shutdown() {
    if (closed_)
        return;
    closed_ = true;
    log_event("disconnect", {{"peer", peer_}});
    if (handler_) {
        auto h = std::move(handler_);
        h->on_disconnect();
    }
    boost::system::error_code ec;
    socket_.shutdown(tcp::socket::shutdown_both, ec);
    if (!in_sender_)  // else closed when the write thread gives the write back
        socket_.close(ec);
    else
        socket_.cancel(ec);  // ends the read loop
    idle_timer_.cancel();
    wake_.cancel();
    lines_.clear();
    queue_.clear();
    out_.clear();
}

}  // namespace hisha::server::net
