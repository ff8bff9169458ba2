// The attack of the load benchmark's attack mode: the request floods of attackers.h and the
// slow, oversized and garbage connections of probes.h, all from 127.0.0.1, run by a thread of
// their own (their own epoll) so that the honest clients' loop measures the server, not the
// attackers' work. Bounded: a fixed number of connections of each kind, for as long as the
// games' timed moves last; a connection the server closes is opened again (after a second
// for the probes, so that a refused one does not become a connect flood).
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "attackers.h"
#include "probes.h"

namespace bench {

using AttackClock = std::chrono::steady_clock;

// A TCP connection to 127.0.0.1:`port` from `from` (0: any address), made non-blocking and
// watched by `ep` (when >= 0) with `tag` as its pointer; -1 on failure.
inline int open_conn(int ep, int port, std::uint32_t from, void* tag) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    if (from) {
        addr.sin_addr.s_addr = htonl(from);
        if (bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            close(fd);
            return -1;
        }
    }
    addr.sin_port = htons(std::uint16_t(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    if (ep >= 0) {
        epoll_event ev{EPOLLIN, {.ptr = tag}};
        epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    }
    return fd;
}

// A blocking exchange over a connection of its own (`request` sent whole, the answer read
// until `done` says it is complete or the server closes; 30 s at most): the answer.
template <class Done>
std::string blocking_exchange(int port, const std::string& request, Done done, std::uint32_t from = 0) {
    int fd = open_conn(-1, port, from, nullptr);
    if (fd < 0)
        return {};
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    timeval tv{30, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::string in;
    bool sent = request.empty();
    char buf[16384];
    for (;;) {
        if (!sent)
            sent = ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == ssize_t(request.size());
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            break;
        in.append(buf, std::size_t(n));
        if (done(in))
            break;
    }
    close(fd);
    return in;
}

// An HTTP request with Connection: close: the status (0: no answer) and the body.
inline int http_exchange(int port, const std::string& method, const std::string& path, const std::string& body,
                         std::string& answer) {
    std::string req = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                    + (body.empty() ? "" : "Content-Type: application/json\r\n")
                    + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    std::string in = blocking_exchange(port, req, [](const std::string&) { return false; });
    auto head_end = in.find("\r\n\r\n");
    if (!in.starts_with("HTTP/1.1 ") || head_end == std::string::npos)
        return 0;
    answer = in.substr(head_end + 4);
    return std::atoi(in.c_str() + 9);
}

// Registers `name` over the text port (blocking, before the games): true when it was created.
inline bool text_register(int port, const std::string& name, const std::string& password) {
    std::string req = "REGISTER " + name + " " + password + "\r\n";
    int fd = open_conn(-1, port, 0, nullptr);
    if (fd < 0)
        return false;
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    timeval tv{60, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    std::string in;
    bool sent = false;
    char buf[4096];
    while (in.find("created") == std::string::npos && in.find("Error") == std::string::npos) {
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            break;
        in.append(buf, std::size_t(n));
        if (!sent && in.find("hisha> ") != std::string::npos) {
            sent = ::send(fd, req.data(), req.size(), MSG_NOSIGNAL) == ssize_t(req.size());
            in.clear();
        }
    }
    close(fd);
    return in.find("created") != std::string::npos;
}

struct FloodSlot {
    bool is_probe = false;
    Hostile h;
};

struct ProbeSlot {
    bool is_probe = true;
    ProbeKind kind = ProbeKind::SlowText;
    int fd = -1;
    AttackClock::time_point opened, next_at, last_read;  // next_at: the next drip, or the reopening
    long dripped = 0;
    std::uint64_t streamed = 0;  // bytes of an endless input sent
    bool framed = false;         // a WebSocket kind sent its frame
    std::string out;
    ProbeAnswer answer;
};

struct AttackConfig {
    int floods = 20;      // request flooders, the kinds of attackers.h in turn (tsume_no_login included)
    int slow = 0;         // slow connections of each slow kind
    bool probes = false;  // one connection of each oversized and garbage kind
    double drip_s = 3;    // a slow connection's byte every this long
    std::vector<std::string> tsume_tokens;    // logged-in tsume flooders: two connections each
    std::string ws_token;                     // the WebSocket probes' login
    std::uint64_t stream_limit = 256u << 20;  // bytes an endless input sends at most
};

class Attack {
public:
    std::map<std::string, int> ports;   // text, csa, http
    std::map<std::string, long> tally;  // "<kind> <outcome>" -> answers (floods); "<kind> <said>/<end>" (probes)
    std::map<std::string, std::vector<double>> held_s;  // slow kinds: how long each connection was held
    long answers = 0;

    void start(const AttackConfig& config);
    /// Stops the thread and counts the connections still open.
    void stop();
    void report() const;

private:
    void run();
    void tick(AttackClock::time_point now);
    void open_flood(FloodSlot& c);
    void next(FloodSlot& c);
    void flood_readable(FloodSlot& c);
    void close_fd(int& fd);
    void open_probe(ProbeSlot& p, AttackClock::time_point now);
    void probe_event(ProbeSlot& p, std::uint32_t events, AttackClock::time_point now);
    void pump(ProbeSlot& p);
    void end_probe(ProbeSlot& p, const char* how, AttackClock::time_point now);

    AttackConfig config_;
    int ep_ = -1;
    std::atomic<bool> running_{false};
    std::thread thread_;
    std::vector<std::unique_ptr<FloodSlot>> floods_;
    std::vector<std::unique_ptr<ProbeSlot>> probes_;
    std::uint64_t seed_ = 88172645463325252ULL;
};

inline void Attack::start(const AttackConfig& config) {
    config_ = config;
    ep_ = epoll_create1(0);
    running_ = true;
    static constexpr AttackKind KINDS[] = {AttackKind::TextLogin,    AttackKind::CsaLogin,     AttackKind::HttpLogin,
                                           AttackKind::TextRegister, AttackKind::HttpRegister, AttackKind::TsumeAnon};
    for (int i = 0; i < config.floods; ++i) {
        auto c = std::make_unique<FloodSlot>();
        c->h.kind = KINDS[i % std::size(KINDS)];
        c->h.id = i;
        floods_.push_back(std::move(c));
    }
    for (std::size_t i = 0; i < 2 * config.tsume_tokens.size(); ++i) {
        auto c = std::make_unique<FloodSlot>();
        c->h.kind = AttackKind::TsumeUser;
        c->h.id = int(floods_.size());
        c->h.token = config.tsume_tokens[i / 2];
        floods_.push_back(std::move(c));
    }
    auto now = AttackClock::now();
    for (int k = 0; k < PROBE_KINDS; ++k) {
        auto kind = ProbeKind(k);
        int n = probe_slow(kind) ? config.slow : config.probes && (!probe_ws(kind) || !config.ws_token.empty()) ? 1 : 0;
        for (int i = 0; i < n; ++i) {
            auto p = std::make_unique<ProbeSlot>();
            p->kind = kind;
            p->next_at = now + std::chrono::milliseconds(i * 10);  // opened over the first seconds
            probes_.push_back(std::move(p));
        }
    }
    for (auto& c : floods_)
        open_flood(*c);
    thread_ = std::thread([this] { run(); });
}

inline void Attack::run() {
    std::vector<epoll_event> events(512);
    while (running_) {
        tick(AttackClock::now());
        int n = epoll_wait(ep_, events.data(), int(events.size()), 20);
        auto now = AttackClock::now();
        for (int i = 0; i < n; ++i) {
            void* ptr = events[std::size_t(i)].data.ptr;
            if (*static_cast<bool*>(ptr))
                probe_event(*static_cast<ProbeSlot*>(ptr), events[std::size_t(i)].events, now);
            else if (static_cast<FloodSlot*>(ptr)->h.fd >= 0)
                flood_readable(*static_cast<FloodSlot*>(ptr));
        }
    }
}

inline void Attack::stop() {
    if (!thread_.joinable())
        return;
    running_ = false;
    thread_.join();
    auto now = AttackClock::now();
    for (auto& c : floods_)
        close_fd(c->h.fd);
    for (auto& p : probes_)
        if (p->fd >= 0)
            end_probe(*p, "open_at_end", now);
    close(ep_);
}

inline void Attack::close_fd(int& fd) {
    if (fd >= 0) {
        epoll_ctl(ep_, EPOLL_CTL_DEL, fd, nullptr);
        close(fd);
    }
    fd = -1;
}

// --- the floods: each sends its next attempt as soon as the last is answered

inline void Attack::open_flood(FloodSlot& c) {
    auto k = c.h.kind;
    bool text = k == AttackKind::TextLogin || k == AttackKind::TextRegister;
    const char* port = k == AttackKind::CsaLogin ? "csa" : text ? "text" : "http";
    c.h.fd = open_conn(ep_, ports[port], 0, &c);
    c.h.in.clear();
    c.h.greeted = c.h.waiting = c.h.reconnect = false;
    if (c.h.fd >= 0 && !text)
        next(c);
}

inline void Attack::next(FloodSlot& c) {
    std::string req = c.h.next_request("victim");
    c.h.waiting = ::send(c.h.fd, req.data(), req.size(), MSG_NOSIGNAL) == ssize_t(req.size());
}

inline void Attack::flood_readable(FloodSlot& c) {
    char buf[8192];
    ssize_t n = ::recv(c.h.fd, buf, sizeof buf, 0);
    if (n <= 0) {
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            return;
        close_fd(c.h.fd);
        ++tally[std::string(attack_name(c.h.kind)) + " closed_by_server"];
        if (running_)
            open_flood(c);  // the server closed it: a new one
        return;
    }
    c.h.in.append(buf, std::size_t(n));
    if (c.h.in.find("too many connections") != std::string::npos) {
        ++tally[std::string(attack_name(c.h.kind)) + " refused:connections_per_address"];
        c.h.in.clear();
    }
    int got = c.h.take_answers(tally);
    answers += got;
    if (got > 0)
        c.h.waiting = false;
    if (c.h.reconnect) {
        close_fd(c.h.fd);
        return open_flood(c);
    }
    bool text = c.h.kind == AttackKind::TextLogin || c.h.kind == AttackKind::TextRegister;
    if (!c.h.waiting && (!text || c.h.greeted))
        next(c);
}

// --- the probes

inline void Attack::tick(AttackClock::time_point now) {
    for (auto& c : floods_)  // a flooder whose connection could not be made tries again
        if (c->h.fd < 0 && running_)
            open_flood(*c);
    for (auto& p : probes_) {
        if (now < p->next_at)
            continue;
        if (p->fd < 0) {
            open_probe(*p, now);
        } else if (probe_slow(p->kind)) {  // the next byte, a few seconds on
            char b = probe_drip(p->kind, p->dripped++);
            if (::send(p->fd, &b, 1, MSG_NOSIGNAL) != 1)
                end_probe(*p, "closed", now);
            else
                p->next_at =
                    now
                    + std::chrono::milliseconds(long(config_.drip_s * 1000 * (0.75 + 0.5 * (p->dripped % 7) / 6.0)));
        } else if (now - p->last_read > std::chrono::seconds(5) && p->out.empty()
                   && (!probe_streams(p->kind) || p->streamed >= config_.stream_limit)) {
            end_probe(*p, "given_up", now);  // the server has nothing more to say
        } else {
            p->next_at = now + std::chrono::seconds(1);
        }
    }
}

inline void Attack::open_probe(ProbeSlot& p, AttackClock::time_point now) {
    p.fd = open_conn(ep_, ports[probe_port(p.kind)], 0, &p);
    p.opened = p.last_read = now;
    p.answer = ProbeAnswer{};
    p.dripped = 0;
    p.streamed = 0;
    p.framed = false;
    if (p.fd < 0) {
        ++tally[std::string(probe_name(p.kind)) + " connect_failed"];
        p.next_at = now + std::chrono::seconds(1);
        return;
    }
    p.out = probe_opening(p.kind, config_.ws_token, seed_);
    p.next_at = now
              + (probe_slow(p.kind) ? std::chrono::milliseconds(long(config_.drip_s * 1000))
                                    : std::chrono::milliseconds(1000));
    pump(p);
}

// Sends what is pending, and an endless input's next chunks, as far as the socket takes them.
inline void Attack::pump(ProbeSlot& p) {
    static const std::string CHUNK(65536, 'A');
    bool endless = probe_streams(p.kind) && (!probe_ws(p.kind) || p.framed);
    for (;;) {
        if (p.out.empty() && endless && p.streamed < config_.stream_limit) {
            p.out = CHUNK;
            p.streamed += CHUNK.size();
        }
        if (p.out.empty())
            break;
        ssize_t n = ::send(p.fd, p.out.data(), p.out.size(), MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                epoll_event ev{EPOLLIN | EPOLLOUT, {.ptr = &p}};
                epoll_ctl(ep_, EPOLL_CTL_MOD, p.fd, &ev);
                return;
            }
            return end_probe(p, "closed", AttackClock::now());  // reset by the server
        }
        p.out.erase(0, std::size_t(n));
    }
    epoll_event ev{EPOLLIN, {.ptr = &p}};
    epoll_ctl(ep_, EPOLL_CTL_MOD, p.fd, &ev);
}

inline void Attack::probe_event(ProbeSlot& p, std::uint32_t events, AttackClock::time_point now) {
    if (p.fd < 0)
        return;
    if (events & EPOLLIN) {
        char buf[65536];
        ssize_t n = ::recv(p.fd, buf, sizeof buf, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
            return end_probe(p, "closed", now);
        if (n > 0) {
            p.last_read = now;
            p.answer.read(std::string_view(buf, std::size_t(n)));
            if (probe_ws(p.kind) && p.answer.upgraded && !p.framed) {
                p.framed = true;
                p.out += probe_frame(p.kind);
            }
        }
    } else if (events & (EPOLLHUP | EPOLLERR)) {
        return end_probe(p, "closed", now);
    }
    pump(p);
}

inline void Attack::end_probe(ProbeSlot& p, const char* how, AttackClock::time_point now) {
    std::string said = p.answer.said.empty() ? "nothing" : p.answer.said;
    ++tally[std::string(probe_name(p.kind)) + " " + said + "/" + how];
    if (probe_slow(p.kind))
        held_s[probe_name(p.kind)].push_back(std::chrono::duration<double>(now - p.opened).count());
    close_fd(p.fd);
    p.out.clear();
    p.next_at = now + std::chrono::seconds(1);
}

inline void Attack::report() const {
    std::map<std::string, long> by_outcome;
    for (auto& [key, n] : tally)
        if (key.find('/') == std::string::npos && key.find("connect_failed") == std::string::npos)
            by_outcome[key.substr(key.find(' ') + 1)] += n;
    std::printf("  attack: clients=%zu probes=%zu answered=%ld", floods_.size(), probes_.size(), answers);
    for (auto& [o, n] : by_outcome)
        std::printf(" %s=%ld", o.c_str(), n);
    std::printf("\n  attack_by_kind:");
    for (auto& [key, n] : tally)
        if (n)
            std::printf(" %s=%ld", std::string(key).replace(key.find(' '), 1, ":").c_str(), n);
    std::printf("\n  slow_held_s:");
    for (auto [kind, v] : held_s) {
        std::sort(v.begin(), v.end());
        std::printf(" %s:n=%zu,median=%.1f,max=%.1f", kind.c_str(), v.size(), v[v.size() / 2], v.back());
    }
    std::printf("\n");
}

}  // namespace bench
