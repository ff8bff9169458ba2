// Load benchmark of hisha-server (issue 8): N concurrent real-time CSA games played by
// scripted clients over 127.0.0.1.
//
// Setup (not timed): the bench starts hisha-server, plays out one random legal game of P plies
// per pair with the rules core (a different game per pair; no move ends the game), and logs the
// 2N clients in (LOGIN x1, %%GAME, Game_Summary, AGREE, START). When every game has started,
// all games begin at once and the bench times the moves phase: every move is a real legal move
// that the server checks, stores durably and relays; each client sends its next move as soon as
// the opponent's move reaches it. Latency is from a move sent to the opponent receiving it.
// After the last ply Black resigns and both wait for the end; with --rounds R each pair then
// asks for its next game (%%GAME again) and plays it at once, R games in all, every move timed
// (games of Floodgate's length, a moves phase as long as wanted).
//
// The clients are one thread over epoll with non-blocking sockets (one write per move, one
// read per readable socket), so that they take as little of the machine as possible; the
// bench prints their CPU time and the server's over the moves phase.
//
// Two ways to load the server:
// - closed loop (the default, --rate 0): each client answers at once, so every game always has
//   a move in flight. This measures the most moves per second the server can take; latency
//   is then about games / throughput by Little's law, whatever the server does.
// - paced (--rate R): the games together offer R moves per second, as players with clocks
//   do. Each game has a slot every games/R seconds (the games' slots are spread evenly over
//   that interval); a client sends its move at its slot, or at once if the opponent's move
//   came after it. This measures latency at a given load (Floodgate's figure, median 16 ms
//   at 900 moves/s with 200 games, is of this kind). The bench prints the rate achieved.
//
// Attack mode (--attack N): while the games are played, N hostile clients on 127.0.0.1 flood
// the server with logins of a real account with wrong passwords (text, CSA, HTTP), with
// registrations (text, HTTP) and with tsume problems without a login; --tsume-accounts K more
// flood it with tsume problems logged in (two connections for each of K accounts); --slow S
// connections on each of the text, CSA and HTTP ports dribble a byte every --drip seconds
// (default 3) and never finish a line or a header; --probes 1 sends oversized and garbage input
// on every port (an endless line, a 1 MiB header, a 100 MiB body, WebSocket frames too big, of
// a bad opcode, unmasked; random bytes). See attackers.h, probes.h and attack.h: they run on a
// thread of their own, and every answer is counted by what the server did. The honest clients
// each come from an address of their own (127.1.x.y), as players do, and retry a login refused
// for a limit or a full queue when told to (setup, not timed). --password-cost interactive gives
// the real argon2id cost to the attackers' passwords; the honest players' accounts (and the
// tsume accounts) are then made first by a server at the minimum cost on the same database, so
// that their 2N logins (setup) take seconds, not minutes. The server's RSS (VmRSS) is reported
// when the attack starts, at its peak (sampled every 100 ms) and 3 s after it stops. Every
// honest client checks that each move it receives is the next of its game: a move missing or
// out of order is counted (lost, misordered).
//
// Kill mode (--kill-after S, with --attack): S seconds into the timed moves, the server is
// killed with SIGKILL while the attack runs; the bench notes, for every game, the moves its
// clients saw acknowledged (a move is acknowledged to its mover by its echo and to the opponent
// by its relay), starts the server again on the same database and reads every game's record
// back (GET /api/games/N/record?format=csa): each acknowledged move must be there, in order.
//
// Flood mode (--flood N): while the games are played, N logged-in text-protocol users each
// paste --flood-block commands (default 500: WHO, GAMES, HELP -n PROHIBITED, B 1, M -n 1, ...)
// in one write, and the next paste as soon as every command of the last one is answered, as a
// user who pastes a script again and again. The bench reports the commands answered (all of
// them must be: a limit slows a client down, it never drops what it typed) and their rate; the
// games' latency is the figure of how much one connection's flood delays the others' moves.
//   server_load_bench [--server PATH] [--games N] [--plies P] [--rounds R] [--sync full|normal] [--seed S]
//                     [--rate MOVES_PER_S] [--trace FILE] [--db-dir DIR] [--attack N]
//                     [--flood N] [--flood-block COMMANDS]
//                     [--password-cost min|interactive] [--commands-per-second N]
//                     [--tsume-accounts K] [--slow S] [--drip SECONDS] [--probes 0|1]
//                     [--kill-after SECONDS]
//                     [--server-arg ARG]...   (ARG passed on to hisha-server; repeatable)
//   server_load_bench --fsync-probe N   (the disk's fdatasync latency, N samples)
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "attack.h"
#include "core/text.h"
#include "random_game.h"
#include "server_child.h"

using Clock = std::chrono::steady_clock;

namespace {

double cpu_seconds_of(pid_t pid) {  // user + system time of a process, from /proc
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    auto rp = s.rfind(')');
    if (rp == std::string::npos)
        return 0;
    auto fields = hisha::text::words(std::string_view(s).substr(rp + 1));
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    if (fields.size() < 13)
        return 0;
    return double(std::stoll(fields[11]) + std::stoll(fields[12])) / double(sysconf(_SC_CLK_TCK));
}

// CPU seconds of each of a process's threads, summed by thread name (the server names its
// threads: hisha-server is the event loop, then sender, sync, checkpoint).
std::map<std::string, double> thread_cpu_seconds(pid_t pid) {
    std::map<std::string, double> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
        std::ifstream f(e.path() / "stat");
        std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        auto lp = s.find('('), rp = s.rfind(')');
        if (lp == std::string::npos || rp == std::string::npos)
            continue;
        std::string name = s.substr(lp + 1, rp - lp - 1);
        std::istringstream rest(s.substr(rp + 2));
        std::string field;
        long long utime = 0, stime = 0;
        for (int i = 3; i <= 15 && rest >> field; ++i) {
            if (i == 14)
                utime = std::stoll(field);
            if (i == 15)
                stime = std::stoll(field);
        }
        out[name] += double(utime + stime) / double(sysconf(_SC_CLK_TCK));
    }
    return out;
}

double self_cpu_seconds() {  // of the honest clients' thread (the attack has a thread of its own)
    rusage ru{};
    getrusage(RUSAGE_THREAD, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

enum class Phase { Login, Agree, Ready, Playing, Ending, Done, Failed };

// The server's resident memory in kB (VmRSS), 0 when it cannot be read.
long rss_kb(pid_t pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(f, line);)
        if (line.starts_with("VmRSS:"))
            return std::atol(line.c_str() + 6);
    return 0;
}

// What epoll's pointer points at: each kind of connection starts with its tag.
enum class Tag : std::uint8_t { Player, Flood };

struct Pair;

/// Sends what `c.out` holds as far as the socket takes it now; the rest waits for EPOLLOUT
/// (asked of `ep`). The error of a failed send, or "".
template <class C>
std::string send_pending(int ep, C& c) {
    while (!c.out.empty()) {
        ssize_t n = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
        if (n < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                return std::strerror(errno);
            epoll_event ev{EPOLLIN | EPOLLOUT, {.ptr = &c}};
            epoll_ctl(ep, EPOLL_CTL_MOD, c.fd, &ev);
            return "";
        }
        c.out.erase(0, std::size_t(n));
    }
    return "";
}

struct Conn {
    Tag tag = Tag::Player;
    int fd = -1;
    int login_refusals = 0;  // a LOGIN refused for a limit or a full queue, tried again
    std::string login;
    Pair* pair = nullptr;
    bool black = false;
    Phase phase = Phase::Login;
    std::string in, out;  // unread input; output the socket did not take yet
    int ply = 0;          // the next ply this client expects to see echoed
    int round = 0;        // the game of the pair this client plays (--rounds)
};

struct Pair {
    std::vector<std::string> moves;
    Clock::time_point sent;  // when the move in flight was sent
    Clock::time_point slot;  // paced mode: the earliest time of the next move
    Conn* conn[2] = {nullptr, nullptr};
    int index = 0;
    std::vector<long> ids;  // the server's game numbers, one a round (from START:hisha-<id>+...)
};

struct Bench {
    int ep = -1;
    std::vector<std::pair<Clock::time_point, Conn*>> relogin;  // logins to try again, when
    int plies = 0, rounds = 1;
    int ready = 0, done = 0, failed = 0, moves = 0;
    long misordered = 0;  // a move received that was not the next of its game
    bool killed = false;  // kill mode: the server is gone, the clients' errors are expected
    bool timing = false;
    double rate = 0;                                       // moves per second offered by all games; 0: closed loop
    Clock::duration interval{};                            // paced mode: a game's time between two slots
    std::vector<std::pair<Clock::time_point, Conn*>> due;  // paced mode: a min-heap of waiting moves
    std::vector<double> latencies_ms;
    std::vector<double> sent_at_ms;  // for --trace: when each measured move was sent
    Clock::time_point first_sent, last_seen;
    std::string first_error;

    void fail(Conn& c, const std::string& why) {
        if (killed)
            return;
        if (first_error.empty())
            first_error = why;
        if (c.phase != Phase::Failed && c.phase != Phase::Done)
            ++failed;
        c.phase = Phase::Failed;
        if (c.fd >= 0)
            epoll_ctl(ep, EPOLL_CTL_DEL, c.fd, nullptr);  // (its unread input would wake the loop forever)
    }

    void send(Conn& c, const std::string& line) {
        c.out += line;
        c.out += '\n';
        flush(c);
    }
    void flush(Conn& c) {
        if (std::string error = send_pending(ep, c); !error.empty())
            fail(c, "send: " + error);
    }

    // The client's next move, if it is its turn: now, or at the game's next slot when paced.
    void move_if_mine(Conn& c) {
        Pair& p = *c.pair;
        if (c.ply >= plies || (c.ply % 2 == 0) != c.black)
            return;
        auto now = Clock::now();
        if (rate > 0 && now < p.slot) {
            due.emplace_back(p.slot, &c);
            std::push_heap(due.begin(), due.end(), later);
            return;
        }
        send_move(c, now);
    }
    void send_move(Conn& c, Clock::time_point now) {
        Pair& p = *c.pair;
        p.sent = now;
        if (rate > 0)
            p.slot = std::max(p.slot + interval, now);  // never a burst to catch up
        send(c, p.moves[std::size_t(c.ply)]);
    }
    static bool later(const std::pair<Clock::time_point, Conn*>& a, const std::pair<Clock::time_point, Conn*>& b) {
        return a.first > b.first;
    }
    // Paced mode: sends the moves whose slots have come; returns the time to the next one in ms
    // (-1: none waits).
    int send_due() {
        auto now = Clock::now();
        while (!due.empty() && due.front().first <= now) {
            std::pop_heap(due.begin(), due.end(), later);
            Conn* c = due.back().second;
            due.pop_back();
            if (c->phase == Phase::Playing)
                send_move(*c, now);
        }
        if (due.empty())
            return -1;
        auto wait = std::chrono::duration_cast<std::chrono::microseconds>(due.front().first - now).count();
        return int((wait + 999) / 1000);
    }

    // Logins refused for a limit or a full queue, sent again once their wait is over.
    void send_relogins() {
        auto now = Clock::now();
        for (std::size_t i = 0; i < relogin.size();) {
            if (relogin[i].first <= now) {
                send(*relogin[i].second, relogin[i].second->login);
                relogin.erase(relogin.begin() + std::ptrdiff_t(i));
            } else {
                ++i;
            }
        }
    }

    void start_all(std::vector<Conn>& conns) {
        timing = true;
        first_sent = Clock::now();
        if (rate > 0) {
            int games = int(conns.size() / 2);
            interval = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(games / rate));
            for (int g = 0; g < games; ++g)  // the games' slots spread over one interval
                conns[std::size_t(2 * g)].pair->slot = first_sent + interval * g / games;
        }
        for (auto& c : conns) {
            c.phase = Phase::Playing;
            move_if_mine(c);
        }
    }

    void on_line(Conn& c, std::string_view l, std::vector<Conn>& conns) {
        switch (c.phase) {
        case Phase::Login:
            if (l == "LOGIN:incorrect") {  // a limit or a full queue (the password is right): again
                if (++c.login_refusals > 100)
                    return fail(c, "login refused 100 times");
                relogin.emplace_back(Clock::now() + std::chrono::seconds(1), &c);
                return;
            }
            if (l.starts_with("##[ERROR]")) {  // why the LOGIN or %%GAME before was refused: when to try again
                auto at = l.find("retry in ");
                if (at == std::string_view::npos)
                    return fail(c, std::string(l));
                auto when = Clock::now() + std::chrono::seconds(std::atoi(l.data() + at + 9));
                auto it = std::find_if(relogin.begin(), relogin.end(), [&](const auto& r) { return r.second == &c; });
                if (it == relogin.end())
                    relogin.emplace_back(when, &c);  // a %%GAME refused (new games of an account)
                else
                    it->first = when;
                return;
            }
            if (l == "##[LOGIN] +OK x1") {  // logged in: the pair's game (x1: one a round, --rounds)
                c.login = "%%GAME load" + std::to_string(c.pair->index) + "-600-0 " + (c.black ? "+" : "-");
                send(c, c.login);
                return;
            }
            if (l == "END Game_Summary") {
                c.phase = Phase::Agree;
                send(c, "AGREE");
            }
            return;
        case Phase::Agree:
            if (l.starts_with("REJECT") || l.starts_with("##[ERROR]"))
                return fail(c, std::string(l));
            if (l.starts_with("START:")) {
                if (c.black)
                    c.pair->ids.push_back(l.starts_with("START:hisha-") ? std::atol(l.data() + 12) : 0);
                if (c.round > 0) {  // the next game of the pair: at once
                    c.phase = Phase::Playing;
                    return move_if_mine(c);
                }
                c.phase = Phase::Ready;
                if (++ready == int(conns.size()))
                    start_all(conns);
            }
            return;
        case Phase::Playing: {
            if (l.starts_with("##"))
                return;  // (x1 news)
            Pair& p = *c.pair;
            const std::string& expected = p.moves[std::size_t(c.ply)];
            if (!l.starts_with(expected) || l.size() <= expected.size() || l[expected.size()] != ',') {
                if ((l.starts_with("+") || l.starts_with("-")) && l.size() > 7 && l[7] == ',')
                    ++misordered;  // a move, not the next one
                return fail(c, "ply " + std::to_string(c.ply) + ": expected " + expected + ", got " + std::string(l));
            }
            bool mine = (c.ply % 2 == 0) == c.black;
            if (!mine) {  // the opponent's move reached us
                auto now = Clock::now();
                latencies_ms.push_back(std::chrono::duration<double, std::milli>(now - p.sent).count());
                sent_at_ms.push_back(std::chrono::duration<double, std::milli>(p.sent - first_sent).count());
                ++moves;
                last_seen = now;
            }
            ++c.ply;
            if (c.ply == plies) {
                c.phase = Phase::Ending;
                if (c.black)
                    send(c, "%TORYO");
                return;
            }
            if (!mine)
                move_if_mine(c);
            return;
        }
        case Phase::Ending:
            if (l.starts_with("#WIN") || l.starts_with("#LOSE")) {
                if (++c.round < rounds) {  // the pair's next game
                    c.ply = 0;
                    c.phase = Phase::Login;
                    return send(c, c.login);
                }
                c.phase = Phase::Done;
                ++done;
            }
            return;
        default: return;
        }
    }

    void readable(Conn& c, std::vector<Conn>& conns) {
        char buf[8192];
        ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
        if (n == 0)
            return fail(c, "the server closed the connection");
        if (n < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                fail(c, std::string("recv: ") + std::strerror(errno));
            return;
        }
        c.in.append(buf, std::size_t(n));
        std::size_t start = 0;
        for (;;) {
            auto nl = c.in.find('\n', start);
            if (nl == std::string::npos)
                break;
            std::string_view l(c.in.data() + start, nl - start);
            if (!l.empty() && l.back() == '\r')
                l.remove_suffix(1);
            on_line(c, l, conns);
            start = nl + 1;
            if (c.phase == Phase::Failed)
                break;
        }
        c.in.erase(0, start);
    }
};

// The disk's own fdatasync latency where the bench puts its database: `n` rounds of
// rewriting a 4 KB block of a preallocated file (as a reused write-ahead log is written)
// and syncing it. A move relayed only once durable waits for at least one of these.
int fsync_probe(int n) {
    auto path = std::filesystem::temp_directory_path() / ("hisha_fsync_" + std::to_string(getpid()));
    int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_TRUNC, 0600);
    if (fd < 0) {
        std::perror("fsync probe");
        return 1;
    }
    std::vector<char> block(4096, 'x');
    for (int i = 0; i < 64; ++i)
        if (::write(fd, block.data(), block.size()) < 0)
            break;
    ::fsync(fd);
    std::vector<double> ms;
    for (int i = 0; i < n; ++i) {
        if (::pwrite(fd, block.data(), block.size(), off_t(i % 64) * 4096) < 0)
            break;
        auto t0 = Clock::now();
        ::fdatasync(fd);
        ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
    ::close(fd);
    std::filesystem::remove(path);
    if (ms.empty())
        return 1;
    std::sort(ms.begin(), ms.end());
    auto at = [&](double q) { return ms[std::min(ms.size() - 1, std::size_t(q * double(ms.size())))]; };
    std::printf("fsync_probe: n=%zu median_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f\n", ms.size(), at(0.5), at(0.9),
                at(0.99), ms.back());
    return 0;
}

// A text-protocol connection logged in as `name` (registered on the way), blocking, before the
// games; -1 when that fails. Made non-blocking and watched by `ep` with `tag` afterwards.
int logged_in_text_conn(int ep, int port, const std::string& name, void* tag) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    std::string in, req = "REGISTER " + name + " flood-secret\r\n";
    bool sent = false;
    char buf[4096];
    // The greeting's prompt, then REGISTER's answer and its prompt.
    auto registered = [&] {  // REGISTER's answer and the prompt after it
        auto created = in.find("created"), prompt = in.rfind("hisha> ");
        return sent && created != std::string::npos && prompt != std::string::npos && prompt > created;
    };
    while (!registered()) {
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0 || in.find("Error:") != std::string::npos) {
            std::cerr << "server_load_bench: flooder " << name << " not logged in: " << in << "\n";
            close(fd);
            return -1;
        }
        in.append(buf, std::size_t(n));
        if (!sent && in.find("hisha> ") != std::string::npos) {
            sent = ::send(fd, req.data(), req.size(), MSG_NOSIGNAL) == ssize_t(req.size());
            in.clear();
        }
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    epoll_event ev{EPOLLIN, {.ptr = tag}};
    epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
    return fd;
}

struct FloodConn {
    Tag tag = Tag::Flood;
    int fd = -1;
    std::string in, out;
    long sent = 0, answered = 0;  // commands, over the run
    long block_left = 0;          // answers still due for the paste in flight
    Clock::time_point pasted;     // when the paste in flight was sent
};

// The flood: each connection pastes `block` commands at once, and again once all are answered.
struct Flood {
    int ep = -1;
    int block = 500;
    std::vector<std::unique_ptr<FloodConn>> conns;
    std::vector<double> paste_ms;  // from a paste sent to its last answer
    bool running = false;
    std::string first_error;

    static constexpr const char* COMMANDS[] = {"WHO",  "GAMES", "HELP -n PROHIBITED", "B 1", "M -n 1",
                                               "STAT", "N",     "USER flood*"};

    bool open(int n, int port) {
        for (int i = 0; i < n; ++i) {
            auto c = std::make_unique<FloodConn>();
            c->fd = logged_in_text_conn(ep, port, "flood" + std::to_string(i), c.get());
            if (c->fd < 0)
                return false;
            conns.push_back(std::move(c));
        }
        return true;
    }
    void start() {
        running = true;
        for (auto& c : conns)
            paste(*c);
    }
    void paste(FloodConn& c) {
        std::string text;
        for (int i = 0; i < block; ++i)
            text += std::string(COMMANDS[std::size_t(i) % std::size(COMMANDS)]) + "\r\n";
        c.sent += block;
        c.block_left = block;
        c.pasted = Clock::now();
        c.out += text;
        flush(c);
    }
    void flush(FloodConn& c) {
        if (std::string error = send_pending(ep, c); !error.empty()) {
            first_error = "flood send: " + error;
            return;
        }
        if (c.out.empty()) {  // all sent: no more EPOLLOUT
            epoll_event ev{EPOLLIN, {.ptr = &c}};
            epoll_ctl(ep, EPOLL_CTL_MOD, c.fd, &ev);
        }
    }
    // Every answer ends with the prompt; an answer is counted when its prompt has come.
    void readable(FloodConn& c, std::uint32_t events) {
        if (events & EPOLLOUT)
            flush(c);
        char buf[65536];
        ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
        if (n <= 0) {
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            if (first_error.empty())
                first_error = "the server closed a flooder's connection";
            epoll_ctl(ep, EPOLL_CTL_DEL, c.fd, nullptr);
            return;
        }
        c.in.append(buf, std::size_t(n));
        if (c.in.find("Error: too many") != std::string::npos && first_error.empty())
            first_error = "a flooded command was refused: " + c.in.substr(c.in.find("Error: too many"), 80);
        std::size_t at = 0, end = 0;
        while ((at = c.in.find("hisha> ", at)) != std::string::npos) {
            at += 7;
            end = at;
            ++c.answered;
            if (--c.block_left == 0) {
                paste_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - c.pasted).count());
                if (running)
                    paste(c);
            }
        }
        c.in.erase(0, end > 0 ? end : (c.in.size() > 6 ? c.in.size() - 6 : 0));  // a prompt may be cut
    }
    bool all_answered() const {
        for (auto& c : conns)
            if (c->answered < c->sent)
                return false;
        return true;
    }
    void report(double seconds) const {
        long sent = 0, answered = 0;
        for (auto& c : conns) {
            sent += c->sent;
            answered += c->answered;
        }
        std::vector<double> ms = paste_ms;
        std::sort(ms.begin(), ms.end());
        std::printf("  flood: clients=%zu block=%d commands_sent=%ld answered=%ld lost=%ld commands_per_s=%.0f "
                    "pastes=%zu paste_median_ms=%.1f\n",
                    conns.size(), block, sent, answered, sent - answered,
                    seconds > 0 ? double(answered) / seconds : 0.0, ms.size(), ms.empty() ? 0.0 : ms[ms.size() / 2]);
    }
};

// The command line.
struct Options {
    std::string server;
    int games = 200, plies = 100, rounds = 1;
    std::uint64_t seed = 1;
    std::string sync = "full";
    double rate = 0;
    std::string trace, db_dir, password_cost = "min", commands_per_second = "0";
    int attack = 0, flood = 0, flood_block = 500;
    int tsume_accounts = 0, slow = 0;
    bool probes = false;
    double drip_s = 3, kill_after_s = 0;
    std::vector<std::string> server_args;
};

constexpr const char* USAGE =
    "usage: server_load_bench [--server PATH] [--games N] [--plies P] [--rounds R] [--sync full|normal] "
    "[--seed S] [--rate MOVES_PER_S] [--trace FILE] [--db-dir DIR] [--attack N] "
    "[--flood N] [--flood-block COMMANDS] [--password-cost min|interactive] [--commands-per-second N] "
    "[--tsume-accounts K] [--slow S] [--drip SECONDS] [--probes 0|1] [--kill-after SECONDS] "
    "[--server-arg ARG]...\n";

// One option and its value into o: false when the option is unknown.
bool read_option(const std::string& a, const char* v, Options& o) {
    if (a == "--server")
        o.server = v;
    else if (a == "--games")
        o.games = std::clamp(std::atoi(v), 1, 2000);
    else if (a == "--sync")
        o.sync = v;
    else if (a == "--plies")
        o.plies = std::clamp(std::atoi(v), 2, 250);
    else if (a == "--rounds")  // games each pair plays in turn (x1 %%GAME), all timed
        o.rounds = std::clamp(std::atoi(v), 1, 10000);
    else if (a == "--seed")
        o.seed = std::strtoull(v, nullptr, 10);
    else if (a == "--trace")
        o.trace = v;
    else if (a == "--db-dir")
        o.db_dir = v;
    else if (a == "--rate")
        o.rate = std::clamp(std::atof(v), 0.0, 1e7);
    else if (a == "--attack")
        o.attack = std::clamp(std::atoi(v), 0, 1000);
    else if (a == "--flood")
        o.flood = std::clamp(std::atoi(v), 0, 100);
    else if (a == "--flood-block")
        o.flood_block = std::clamp(std::atoi(v), 1, 100000);
    else if (a == "--password-cost")
        o.password_cost = v;
    else if (a == "--commands-per-second")  // the server's --max-commands-per-second (0: none)
        o.commands_per_second = v;
    else if (a == "--tsume-accounts")
        o.tsume_accounts = std::clamp(std::atoi(v), 0, 100);
    else if (a == "--slow")
        o.slow = std::clamp(std::atoi(v), 0, 2000);
    else if (a == "--drip")
        o.drip_s = std::clamp(std::atof(v), 0.1, 60.0);
    else if (a == "--probes")
        o.probes = std::atoi(v) != 0;
    else if (a == "--kill-after")
        o.kill_after_s = std::clamp(std::atof(v), 0.0, 3600.0);
    else if (a == "--server-arg")  // one more argument for hisha-server (repeatable)
        o.server_args.emplace_back(v);
    else
        return false;
    return true;
}

// The arguments into o: -1 to go on, else the exit status (2: refused, with the usage).
int read_options(int argc, char** argv, Options& o) {
    for (int i = 1; i < argc; i += 2) {
        std::string a = argv[i];
        if (i + 1 >= argc) {
            std::cerr << "server_load_bench: " << a << " needs a value\n";
            return 2;
        }
        if (!read_option(a, argv[i + 1], o)) {
            std::cerr << USAGE;
            return 2;
        }
    }
    if (o.sync != "full" && o.sync != "normal") {
        std::cerr << "server_load_bench: --sync is full or normal\n";
        return 2;
    }
    if (o.kill_after_s > 0 && o.attack == 0) {
        std::cerr << "server_load_bench: --kill-after goes with --attack\n";
        return 2;
    }
    return -1;
}

// Starts hisha-server on the database `db` and waits for it to be ready: its process id and the
// port of each protocol it listens on, or -1 when it did not start. The attack mode keeps the
// server's default limit of connections from one address (the attackers share 127.0.0.1).
pid_t start_server(const Options& o, const std::string& db, std::map<std::string, int>& ports) {
    const char* other_ports = o.attack > 0 || o.flood > 0 ? "0" : "-1";  // the attackers' and flooders' ports
    std::vector<std::string> args = {o.server,
                                     "--db",
                                     db,
                                     "--csa-port",
                                     "0",
                                     "--text-port",
                                     other_ports,
                                     "--http-port",
                                     other_ports,
                                     "--password-cost",
                                     o.password_cost,
                                     "--max-commands-per-second",
                                     o.commands_per_second,
                                     "--log",
                                     "off",
                                     "--bots",
                                     "",
                                     "--csa-auto-register",
                                     "on"};  // the players are fresh names
    if (o.attack == 0) {
        args.emplace_back("--max-per-address");
        args.emplace_back("10000");
    }
    args.insert(args.end(), o.server_args.begin(), o.server_args.end());
    std::string error;
    pid_t pid = start_server_child(args, false, ports, error);
    if (pid < 0)
        std::cerr << error << "\n";
    return pid;
}

void stop_server(pid_t pid) {
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
}

// Player i: its name and the address it comes from (127.1.x.y; the attackers are on 127.0.0.1).
std::string player_name(std::size_t i) { return std::string(i % 2 == 0 ? "b" : "w") + std::to_string(i / 2); }
std::uint32_t player_address(std::size_t i) {
    return (127u << 24) | (1u << 16) | (std::uint32_t(i / 250) << 8) | std::uint32_t(1 + i % 250);
}

// Connects both players of every game, each from an address of its own, and sends their logins.
void connect_players(Bench& b, std::vector<Conn>& conns, std::vector<Pair>& pairs, int port) {
    for (std::size_t i = 0; i < conns.size(); ++i) {
        Conn& c = conns[i];
        Pair& p = pairs[i / 2];
        c.pair = &p;
        c.black = i % 2 == 0;
        p.conn[i % 2] = &c;
        c.fd = bench::open_conn(b.ep, port, player_address(i), &c);
        if (c.fd < 0) {
            b.fail(c, std::string("connect: ") + std::strerror(errno));
            continue;
        }
        p.index = int(i / 2);
        c.login = "LOGIN " + player_name(i) + " secret x1";  // then %%GAME load<game>-600-0 +|-
        b.send(c, c.login);
    }
}

// With the real password cost: the honest players' accounts (and the logged-in tsume
// attackers') are made first by a server at the minimum cost on the same database (a password
// is checked at the cost it was hashed with), so that their logins take seconds. Sequential.
bool prepare_accounts(const Options& o, const std::string& db) {
    Options pre = o;
    pre.password_cost = "min";
    std::map<std::string, int> ports;
    pid_t pid = start_server(pre, db, ports);
    if (pid < 0)
        return false;
    bool ok = true;
    for (std::size_t i = 0; ok && i < std::size_t(2 * o.games); ++i) {
        std::string in = bench::blocking_exchange(
            ports["csa"], "LOGIN " + player_name(i) + " secret x1\n",
            [](const std::string& s) {
                return s.find("+OK x1") != std::string::npos || s.find("incorrect") != std::string::npos;
            },
            player_address(i));
        ok = in.find("+OK x1") != std::string::npos;
        if (!ok)
            std::cerr << "server_load_bench: account " << player_name(i) << " not made: " << in << "\n";
    }
    for (int k = 0; ok && k < o.tsume_accounts; ++k)
        ok = bench::text_register(ports["text"], "tsume" + std::to_string(k), "tsume-secret");
    stop_server(pid);
    return ok;
}

// The attack's setup on the server under test: the victim (at the real cost), and a session
// for each tsume account (the WebSocket probes use the first).
bool prepare_attack(const Options& o, bench::Attack& att, bench::AttackConfig& config) {
    if (!bench::text_register(att.ports["text"], "victim", "victim-secret")) {
        std::cerr << "server_load_bench: cannot register the attackers' victim\n";
        return false;
    }
    for (int k = 0; k < o.tsume_accounts; ++k) {
        std::string answer;
        int status =
            bench::http_exchange(att.ports["http"], "POST", "/api/login",
                                 R"({"name":"tsume)" + std::to_string(k) + R"(","password":"tsume-secret"})", answer);
        auto at = answer.find("\"token\":\"");
        if (status != 200 || at == std::string::npos) {
            std::cerr << "server_load_bench: tsume" << k << " not logged in: " << status << " " << answer << "\n";
            return false;
        }
        config.tsume_tokens.push_back(answer.substr(at + 9, answer.find('"', at + 9) - at - 9));
    }
    config.floods = o.attack;
    config.slow = o.slow;
    config.probes = o.probes;
    config.drip_s = o.drip_s;
    if (!config.tsume_tokens.empty())
        config.ws_token = config.tsume_tokens.front();
    return true;
}

// CPU seconds of the server (in all and by thread) and of this client.
struct CpuSample {
    double server = 0, client = 0;
    std::map<std::string, double> threads;
    static CpuSample take(pid_t pid) { return {cpu_seconds_of(pid), self_cpu_seconds(), thread_cpu_seconds(pid)}; }
};

// The attack's figures: the server's RSS, and in kill mode the moves each game's clients saw
// acknowledged when the server was killed.
struct AttackRun {
    bench::Attack att;
    long rss_start = 0, rss_peak = 0, rss_after = 0;  // kB
    Clock::time_point stopped{}, next_sample{};
    std::vector<std::pair<long, int>> acknowledged;  // kill mode: (game number, moves acknowledged), every game
    bool started = false;

    // The timed moves begin: the RSS is sampled from now on (quiet runs too), and the attack
    // starts when there is one.
    void start(pid_t pid, const bench::AttackConfig* config) {
        rss_start = rss_peak = rss_kb(pid);
        if (config)
            att.start(*config);
        started = true;
    }
    void sample(pid_t pid) {
        if (!started || stopped != Clock::time_point{} || Clock::now() < next_sample)
            return;
        next_sample = Clock::now() + std::chrono::milliseconds(100);
        rss_peak = std::max(rss_peak, rss_kb(pid));
    }
    void stop() {
        if (started && stopped == Clock::time_point{}) {
            att.stop();
            stopped = Clock::now();
        }
    }
    // Kill mode: SIGKILL now; the moves each game's clients saw (echoed to the mover, relayed
    // to the opponent) are noted first.
    void kill_server(pid_t pid, Bench& b, std::vector<Pair>& pairs) {
        for (auto& p : pairs)
            for (std::size_t r = 0; r < p.ids.size(); ++r) {  // a client past round r saw all of game r
                int seen = 0;
                for (Conn* c : p.conn)
                    seen = std::max(seen, c->round > int(r) ? b.plies : c->round == int(r) ? c->ply : 0);
                acknowledged.emplace_back(p.ids[r], seen);
            }
        b.killed = true;
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        stop();
    }
};

// Everything the clients do until every game is over: the players' moves, and the attackers
// and flooders while the moves are timed (the setup may take 300 s; the moves 180 s, or ten
// times what the rate asks for). `start` and `end` get the CPU at the start and end of the
// timed part; false when it did not end (the caller samples `end` later).
bool run_games(const Options& o, pid_t pid, Bench& b, std::vector<Conn>& conns, std::vector<Pair>& pairs, AttackRun& ar,
               const bench::AttackConfig& config, Flood& fl, CpuSample& start, CpuSample& end) {
    double moves_s = o.rate > 0 ? 10.0 * o.games * o.plies * o.rounds / o.rate : 0;
    auto deadline = Clock::now() + std::chrono::seconds(300);
    std::vector<epoll_event> events(1024);
    bool measured = false;
    int total = 2 * o.games;
    while (b.done + b.failed < total && Clock::now() < deadline && !b.killed) {
        int wait = b.send_due();
        if (!b.relogin.empty() || ar.started)
            wait = wait < 0 ? 50 : std::min(wait, 50);
        int n = epoll_wait(b.ep, events.data(), int(events.size()), wait < 0 ? 1000 : wait);
        b.send_relogins();
        ar.sample(pid);
        for (int i = 0; i < n; ++i) {
            epoll_event& e = events[std::size_t(i)];
            if (*static_cast<Tag*>(e.data.ptr) == Tag::Flood) {
                fl.readable(*static_cast<FloodConn*>(e.data.ptr), e.events);
                continue;
            }
            Conn& c = *static_cast<Conn*>(e.data.ptr);
            if (c.phase == Phase::Failed)
                continue;
            if (e.events & EPOLLOUT) {
                epoll_event ev{EPOLLIN, {.ptr = &c}};
                epoll_ctl(b.ep, EPOLL_CTL_MOD, c.fd, &ev);
                b.flush(c);
            }
            bool was_timing = b.timing;
            if (e.events & (EPOLLIN | EPOLLHUP | EPOLLERR))
                b.readable(c, conns);
            if (!was_timing && b.timing) {
                start = CpuSample::take(pid);
                deadline = Clock::now() + std::chrono::seconds(std::max(180, int(moves_s)));
                ar.start(pid, o.attack > 0 ? &config : nullptr);
                if (o.flood > 0)
                    fl.start();
            }
        }
        if (b.timing && o.kill_after_s > 0 && !b.killed
            && Clock::now() - b.first_sent >= std::chrono::duration<double>(o.kill_after_s)) {
            ar.kill_server(pid, b, pairs);
            return false;
        }
        if (b.timing && !measured && b.moves == o.games * o.plies * o.rounds) {
            end = CpuSample::take(pid);
            measured = true;
            ar.stop();
            fl.running = false;
        }
    }
    ar.stop();
    fl.running = false;
    return measured;
}

// Kill mode, the server started again on the same database: every game's stored moves (its
// CSA record) against the moves its clients saw acknowledged. Prints the counts; false when an
// acknowledged move is missing or differs.
bool check_survivors(const Options& o, const std::string& db, std::vector<Pair>& pairs, const AttackRun& ar) {
    std::map<std::string, int> ports;
    Options again = o;
    auto t0 = Clock::now();
    pid_t pid = start_server(again, db, ports);
    if (pid < 0)
        return false;
    double restart_s = std::chrono::duration<double>(Clock::now() - t0).count();
    long acknowledged = 0, stored = 0, missing = 0, differing = 0, unread = 0, limited = 0;
    std::map<long, const Pair*> pair_of;
    for (auto& p : pairs)
        for (long id : p.ids)
            pair_of[id] = &p;
    for (auto [id, acked] : ar.acknowledged) {
        acknowledged += acked;
        std::string body;
        int status = 0;
        for (int attempt = 0; id > 0 && attempt < 120; ++attempt) {  // the server's request limits: wait
            status = bench::http_exchange(ports["http"], "GET",
                                          "/api/games/" + std::to_string(id) + "/record?format=csa", "", body);
            if (status != 429 && status != 503)
                break;
            ++limited;
            std::this_thread::sleep_for(std::chrono::seconds(1));
        }
        if (status != 200) {
            ++unread;
            missing += acked;
            continue;
        }
        std::vector<std::string> moves;
        std::istringstream lines(body);
        for (std::string l; std::getline(lines, l);) {
            if (!l.empty() && l.back() == '\r')
                l.pop_back();
            if (l.size() == 7 && (l[0] == '+' || l[0] == '-') && std::isdigit(static_cast<unsigned char>(l[1])))
                moves.push_back(l);
        }
        stored += long(moves.size());
        for (int i = 0; i < acked; ++i)
            if (std::size_t(i) >= moves.size())
                ++missing;
            else if (moves[std::size_t(i)] != pair_of[id]->moves[std::size_t(i)])
                ++differing;
    }
    stop_server(pid);
    std::printf("  kill: after_s=%.1f games=%zu acknowledged=%ld stored=%ld acknowledged_missing=%ld "
                "differing=%ld games_unread=%ld restart_s=%.2f reads_limited=%ld\n",
                o.kill_after_s, ar.acknowledged.size(), acknowledged, stored, missing, differing, unread, restart_s,
                limited);
    return missing == 0 && differing == 0 && unread == 0;
}

// The pastes still in flight are answered whole (a slow client waits, loses nothing): the
// seconds from the first move sent until the last answer.
double drain_flood(const Options& o, Bench& b, Flood& fl) {
    std::vector<epoll_event> events(1024);
    double flood_seconds = std::chrono::duration<double>(Clock::now() - b.first_sent).count();
    for (auto drain_until = Clock::now() + std::chrono::seconds(120);
         o.flood > 0 && !fl.all_answered() && fl.first_error.empty() && Clock::now() < drain_until;) {
        int n = epoll_wait(b.ep, events.data(), int(events.size()), 200);
        for (int i = 0; i < n; ++i)
            if (*static_cast<Tag*>(events[std::size_t(i)].data.ptr) == Tag::Flood)
                fl.readable(*static_cast<FloodConn*>(events[std::size_t(i)].data.ptr), events[std::size_t(i)].events);
        flood_seconds = std::chrono::duration<double>(Clock::now() - b.first_sent).count();
    }
    return flood_seconds;
}

// The summary line, and where the server's time went, in microseconds of CPU per move (the
// event loop's figure bounds the throughput: one thread runs the service).
void report(const Options& o, Bench& b, const CpuSample& start, const CpuSample& end) {
    if (!o.trace.empty()) {  // one line per move: ms since the start when sent, latency in ms
        std::ofstream t(o.trace);
        for (std::size_t i = 0; i < b.latencies_ms.size(); ++i)
            t << b.sent_at_ms[i] << ' ' << b.latencies_ms[i] << '\n';
    }
    std::sort(b.latencies_ms.begin(), b.latencies_ms.end());
    double secs = std::chrono::duration<double>(b.last_seen - b.first_sent).count();
    auto pct = [&](double p) {
        return b.latencies_ms.empty()
                 ? 0.0
                 : b.latencies_ms[std::min(b.latencies_ms.size() - 1, std::size_t(p * double(b.latencies_ms.size())))];
    };
    double server_cpu = end.server - start.server, client_cpu = end.client - start.client;
    std::printf(
        "sync=%s rate=%.0f games=%d plies=%d rounds=%d moves=%d errors=%d seconds=%.2f moves_per_s=%.0f median_ms=%.2f "
        "p99_ms=%.2f "
        "server_cpu_s=%.2f client_cpu_s=%.2f moves_per_server_cpu_s=%.0f lost=%d misordered=%ld\n",
        o.sync.c_str(), o.rate, o.games, o.plies, o.rounds, b.moves, b.failed, secs, secs > 0 ? b.moves / secs : 0.0,
        pct(0.5), pct(0.99), server_cpu, client_cpu, server_cpu > 0 ? b.moves / server_cpu : 0.0,
        b.killed ? 0 : o.games * o.plies * o.rounds - b.moves, b.misordered);
    std::printf("  cpu_us_per_move:");
    for (auto& [name, t] : end.threads) {
        auto before = start.threads.find(name);
        double d = t - (before != start.threads.end() ? before->second : 0.0);
        if (d > 0 && b.moves > 0)
            std::printf(" %s=%.1f", name == "hisha-server" ? "loop" : name.c_str(), d * 1e6 / b.moves);
    }
    std::printf(" client=%.1f\n", b.moves > 0 ? client_cpu * 1e6 / b.moves : 0.0);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--fsync-probe")
        return fsync_probe(std::clamp(std::atoi(argv[2]), 1, 100000));
    Options o;
    o.server = (std::filesystem::path(argv[0]).parent_path() / "hisha-server").string();
    if (int status = read_options(argc, argv, o); status >= 0)
        return status;
    signal(SIGPIPE, SIG_IGN);
    rlimit nofile{};
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
        nofile.rlim_cur = nofile.rlim_max;
        setrlimit(RLIMIT_NOFILE, &nofile);
    }

    std::vector<Pair> pairs(static_cast<std::size_t>(o.games));
    for (int i = 0; i < o.games; ++i)
        pairs[std::size_t(i)].moves = bench::random_game(o.plies, o.seed * 1000003 + std::uint64_t(i) + 1);

    // The database: in a directory of its own, removed at the end; or in DIR, kept for the next
    // run (a server's database as it is after serving a while: its write-ahead log at size).
    auto dir = o.db_dir.empty() ? std::filesystem::temp_directory_path() / ("hisha_load_" + std::to_string(getpid()))
                                : std::filesystem::path(o.db_dir);
    std::filesystem::create_directories(dir);
    std::string db = "sqlite:" + (dir / "load.db").string() + "?sync=" + o.sync;

    if (o.password_cost == "interactive" && !prepare_accounts(o, db))
        return 1;
    AttackRun ar;
    bench::AttackConfig config;
    pid_t pid = start_server(o, db, ar.att.ports);
    if (pid < 0)
        return 1;
    if (o.attack > 0 && !prepare_attack(o, ar.att, config)) {
        stop_server(pid);
        return 1;
    }
    Bench b;
    b.plies = o.plies;
    b.rounds = o.rounds;
    b.rate = o.rate;
    b.ep = epoll_create1(0);
    Flood fl;
    fl.ep = b.ep;
    fl.block = o.flood_block;
    if (o.flood > 0 && !fl.open(o.flood, ar.att.ports["text"])) {
        stop_server(pid);
        return 1;
    }
    std::vector<Conn> conns(static_cast<std::size_t>(2 * o.games));
    connect_players(b, conns, pairs, ar.att.ports["csa"]);
    CpuSample start, end;
    bool measured = run_games(o, pid, b, conns, pairs, ar, config, fl, start, end);
    double flood_seconds = drain_flood(o, b, fl);
    if (!measured && !b.killed)
        end = CpuSample::take(pid);
    if (ar.started && !b.killed) {  // the server's memory 3 s after the attack stopped
        std::this_thread::sleep_until(ar.stopped + std::chrono::seconds(3));
        ar.rss_after = rss_kb(pid);
    }
    if (!b.killed)
        stop_server(pid);
    for (auto& c : conns)
        if (c.fd >= 0)
            close(c.fd);
    bool survived = !b.killed || check_survivors(o, db, pairs, ar);
    if (o.db_dir.empty())
        std::filesystem::remove_all(dir);

    if (b.killed)
        end = start;  // (the server's CPU is gone with it)
    report(o, b, start, end);
    if (o.attack > 0)
        ar.att.report();
    if (!b.killed)  // (before: when the timed moves begin; after: 3 s after they end)
        std::printf("  rss_kb: before=%ld peak=%ld after=%ld\n", ar.rss_start, ar.rss_peak, ar.rss_after);
    if (o.flood > 0)
        fl.report(flood_seconds);
    if (!b.first_error.empty())
        std::fprintf(stderr, "server_load_bench: first error: %s\n", b.first_error.c_str());
    if (!fl.first_error.empty())
        std::fprintf(stderr, "server_load_bench: flood: %s\n", fl.first_error.c_str());
    bool flood_ok = o.flood == 0 || (fl.all_answered() && fl.first_error.empty());
    if (b.killed)
        return survived && b.misordered == 0 ? 0 : 1;
    return b.failed == 0 && b.moves == o.games * o.plies * o.rounds && flood_ok ? 0 : 1;
}
