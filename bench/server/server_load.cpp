// Load benchmark of hisha-server (issue 8): N concurrent real-time CSA games played by
// scripted clients over 127.0.0.1.
//
// Setup (not timed): the bench starts hisha-server, plays out one random legal game of P plies
// per pair with the rules core (a different game per pair; no move ends the game), and logs the
// 2N clients in (LOGIN, Game_Summary, AGREE, START). When every game has started, all games
// begin at once and the bench times the moves phase: every move is a real legal move that the
// server checks, stores durably and relays; each client sends its next move as soon as the
// opponent's move reaches it. Latency is from a move sent to the opponent receiving it.
// After the last ply Black resigns and both wait for the end.
//
// The clients are one thread over epoll with non-blocking sockets (one write per move, one
// read per readable socket), so that they take as little of the machine as possible; the
// bench prints their CPU time and the server's over the moves phase.
//   server_load_bench [--server PATH] [--games N] [--plies P] [--sync full|normal] [--seed S]
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
#include <string>
#include <vector>

#include "core/game.h"
#include "core/movegen.h"
#include "notation/csa.h"

using Clock = std::chrono::steady_clock;

namespace {

// One random legal game of `plies` plies in CSA notation; no move of it ends the game (mate,
// fourfold repetition, perpetual check), so the server must accept every one of them.
std::vector<std::string> random_game(int plies, std::uint64_t seed) {
    auto next = [&seed] {  // xorshift64*
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        return seed * 2685821657736338717ULL;
    };
    for (;;) {
        hisha::core::Game g;
        std::vector<std::string> out;
        while (int(out.size()) < plies) {
            hisha::core::MoveList<hisha::core::LEGAL, true> list(g.position());
            std::vector<hisha::core::Move> moves;
            for (const auto& sm : list)
                moves.push_back(sm.move);
            bool played = false;
            while (!moves.empty() && !played) {
                std::size_t i = next() % moves.size();
                hisha::core::Move m = moves[i];
                moves.erase(moves.begin() + std::ptrdiff_t(i));
                if (!g.play(m))
                    continue;
                if (g.over()) {
                    g.undo();
                    continue;
                }
                out.push_back(hisha::notation::format_csa_move(m));
                played = true;
            }
            if (!played)
                break;  // a dead end: start over with the generator where it is
        }
        if (int(out.size()) == plies)
            return out;
    }
}

double cpu_seconds_of(pid_t pid) {  // user + system time of a process, from /proc
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    auto rp = s.rfind(')');
    if (rp == std::string::npos)
        return 0;
    std::vector<std::string> fields;
    std::size_t i = rp + 2;
    while (i < s.size()) {
        auto sp = s.find(' ', i);
        if (sp == std::string::npos)
            sp = s.size();
        fields.push_back(s.substr(i, sp - i));
        i = sp + 1;
    }
    // fields[0] is field 3 (state); utime and stime are fields 14 and 15.
    if (fields.size() < 13)
        return 0;
    return double(std::stoll(fields[11]) + std::stoll(fields[12])) / double(sysconf(_SC_CLK_TCK));
}

double self_cpu_seconds() {
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

enum class Phase { Login, Agree, Ready, Playing, Ending, Done, Failed };

struct Pair;

struct Conn {
    int fd = -1;
    Pair* pair = nullptr;
    bool black = false;
    Phase phase = Phase::Login;
    std::string in, out;  // unread input; output the socket did not take yet
    int ply = 0;          // the next ply this client expects to see echoed
};

struct Pair {
    std::vector<std::string> moves;
    Clock::time_point sent;  // when the move in flight was sent
    Conn* conn[2] = {nullptr, nullptr};
};

struct Bench {
    int ep = -1;
    int plies = 0;
    int ready = 0, done = 0, failed = 0, moves = 0;
    bool timing = false;
    std::vector<double> latencies_ms;
    Clock::time_point first_sent, last_seen;
    std::string first_error;

    void fail(Conn& c, const std::string& why) {
        if (first_error.empty())
            first_error = why;
        if (c.phase != Phase::Failed && c.phase != Phase::Done)
            ++failed;
        c.phase = Phase::Failed;
    }

    void send(Conn& c, const std::string& line) {
        c.out += line;
        c.out += '\n';
        flush(c);
    }
    void flush(Conn& c) {
        while (!c.out.empty()) {
            ssize_t n = ::send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EAGAIN || errno == EWOULDBLOCK) {
                    epoll_event ev{EPOLLIN | EPOLLOUT, {.ptr = &c}};
                    epoll_ctl(ep, EPOLL_CTL_MOD, c.fd, &ev);
                    return;
                }
                return fail(c, std::string("send: ") + std::strerror(errno));
            }
            c.out.erase(0, std::size_t(n));
        }
    }

    // The client's next move, if it is its turn.
    void move_if_mine(Conn& c) {
        Pair& p = *c.pair;
        if (c.ply < plies && (c.ply % 2 == 0) == c.black) {
            p.sent = Clock::now();
            send(c, p.moves[std::size_t(c.ply)]);
        }
    }

    void start_all(std::vector<Conn>& conns) {
        timing = true;
        first_sent = Clock::now();
        for (auto& c : conns) {
            c.phase = Phase::Playing;
            move_if_mine(c);
        }
    }

    void on_line(Conn& c, std::string_view l, std::vector<Conn>& conns) {
        switch (c.phase) {
        case Phase::Login:
            if (l == "LOGIN:incorrect" || l.starts_with("##[ERROR]"))
                return fail(c, std::string(l));
            if (l == "END Game_Summary") {
                c.phase = Phase::Agree;
                send(c, "AGREE");
            }
            return;
        case Phase::Agree:
            if (l.starts_with("REJECT") || l.starts_with("##[ERROR]"))
                return fail(c, std::string(l));
            if (l.starts_with("START:")) {
                c.phase = Phase::Ready;
                if (++ready == int(conns.size()))
                    start_all(conns);
            }
            return;
        case Phase::Playing: {
            Pair& p = *c.pair;
            const std::string& expected = p.moves[std::size_t(c.ply)];
            if (!l.starts_with(expected) || l.size() <= expected.size() || l[expected.size()] != ',')
                return fail(c, "ply " + std::to_string(c.ply) + ": expected " + expected + ", got " + std::string(l));
            bool mine = (c.ply % 2 == 0) == c.black;
            if (!mine) {  // the opponent's move reached us
                auto now = Clock::now();
                latencies_ms.push_back(std::chrono::duration<double, std::milli>(now - p.sent).count());
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

}  // namespace

int main(int argc, char** argv) {
    std::string server = (std::filesystem::path(argv[0]).parent_path() / "hisha-server").string();
    int games = 200, plies = 100;
    std::uint64_t seed = 1;
    std::string sync = "full";
    for (int i = 1; i < argc; i += 2) {
        std::string a = argv[i];
        if (i + 1 >= argc) {
            std::cerr << "server_load_bench: " << a << " needs a value\n";
            return 2;
        }
        if (a == "--server")
            server = argv[i + 1];
        else if (a == "--games")
            games = std::clamp(std::atoi(argv[i + 1]), 1, 2000);
        else if (a == "--sync")
            sync = argv[i + 1];
        else if (a == "--plies")
            plies = std::clamp(std::atoi(argv[i + 1]), 2, 250);
        else if (a == "--seed")
            seed = std::strtoull(argv[i + 1], nullptr, 10);
        else {
            std::cerr << "usage: server_load_bench [--server PATH] [--games N] [--plies P] [--sync full|normal] "
                         "[--seed S]\n";
            return 2;
        }
    }
    if (sync != "full" && sync != "normal") {
        std::cerr << "server_load_bench: --sync is full or normal\n";
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    rlimit nofile{};
    if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
        nofile.rlim_cur = nofile.rlim_max;
        setrlimit(RLIMIT_NOFILE, &nofile);
    }

    std::vector<Pair> pairs(static_cast<std::size_t>(games));
    for (int i = 0; i < games; ++i)
        pairs[std::size_t(i)].moves = random_game(plies, seed * 1000003 + std::uint64_t(i) + 1);

    auto dir = std::filesystem::temp_directory_path() / ("hisha_load_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::string db = "sqlite:" + (dir / "load.db").string() + "?sync=" + sync;

    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        execl(server.c_str(), server.c_str(), "--db", db.c_str(), "--csa-port", "0", "--text-port", "-1", "--http-port",
              "-1", "--password-cost", "min", "--max-per-address", "10000", "--max-commands-per-second", "0", "--log",
              "off", "--bots", "", static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    std::string out;
    char tmp[256];
    while (out.find("ready") == std::string::npos) {
        ssize_t n = read(fds[0], tmp, sizeof tmp);
        if (n <= 0) {
            std::cerr << "server did not start: " << out << "\n";
            return 1;
        }
        out.append(tmp, std::size_t(n));
    }
    int port = std::stoi(out.substr(out.find(':', out.find("listening csa")) + 1));

    Bench b;
    b.plies = plies;
    b.ep = epoll_create1(0);
    std::vector<Conn> conns(static_cast<std::size_t>(2 * games));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; i < 2 * games; ++i) {
        Conn& c = conns[std::size_t(i)];
        Pair& p = pairs[std::size_t(i / 2)];
        c.pair = &p;
        c.black = i % 2 == 0;
        p.conn[i % 2] = &c;
        c.fd = socket(AF_INET, SOCK_STREAM, 0);
        int one = 1;
        setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (c.fd < 0 || connect(c.fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            b.fail(c, std::string("connect: ") + std::strerror(errno));
            continue;
        }
        fcntl(c.fd, F_SETFL, fcntl(c.fd, F_GETFL) | O_NONBLOCK);
        epoll_event ev{EPOLLIN, {.ptr = &c}};
        epoll_ctl(b.ep, EPOLL_CTL_ADD, c.fd, &ev);
        int g = i / 2;
        b.send(c, "LOGIN " + std::string(c.black ? "b" : "w") + std::to_string(g) + " load" + std::to_string(g)
                      + "-600-0" + (c.black ? "-B" : "-W") + ",secret");
    }

    double server_cpu0 = 0, client_cpu0 = 0, server_cpu1 = 0, client_cpu1 = 0;
    auto deadline = Clock::now() + std::chrono::seconds(180);
    std::vector<epoll_event> events(1024);
    bool measured = false;
    while (b.done + b.failed < 2 * games && Clock::now() < deadline) {
        int n = epoll_wait(b.ep, events.data(), int(events.size()), 1000);
        for (int i = 0; i < n; ++i) {
            Conn& c = *static_cast<Conn*>(events[std::size_t(i)].data.ptr);
            if (c.phase == Phase::Failed)
                continue;
            if (events[std::size_t(i)].events & EPOLLOUT) {
                epoll_event ev{EPOLLIN, {.ptr = &c}};
                epoll_ctl(b.ep, EPOLL_CTL_MOD, c.fd, &ev);
                b.flush(c);
            }
            bool was_timing = b.timing;
            if (events[std::size_t(i)].events & (EPOLLIN | EPOLLHUP | EPOLLERR))
                b.readable(c, conns);
            if (!was_timing && b.timing) {
                server_cpu0 = cpu_seconds_of(pid);
                client_cpu0 = self_cpu_seconds();
            }
        }
        if (b.timing && !measured && b.moves == games * plies) {
            server_cpu1 = cpu_seconds_of(pid);
            client_cpu1 = self_cpu_seconds();
            measured = true;
        }
    }
    if (!measured) {
        server_cpu1 = cpu_seconds_of(pid);
        client_cpu1 = self_cpu_seconds();
    }
    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
    for (auto& c : conns)
        if (c.fd >= 0)
            close(c.fd);
    std::filesystem::remove_all(dir);

    std::sort(b.latencies_ms.begin(), b.latencies_ms.end());
    double secs = std::chrono::duration<double>(b.last_seen - b.first_sent).count();
    auto pct = [&](double p) {
        return b.latencies_ms.empty()
                 ? 0.0
                 : b.latencies_ms[std::min(b.latencies_ms.size() - 1, std::size_t(p * double(b.latencies_ms.size())))];
    };
    double server_cpu = server_cpu1 - server_cpu0, client_cpu = client_cpu1 - client_cpu0;
    std::printf("sync=%s games=%d plies=%d moves=%d errors=%d seconds=%.2f moves_per_s=%.0f median_ms=%.2f p99_ms=%.2f "
                "server_cpu_s=%.2f client_cpu_s=%.2f moves_per_server_cpu_s=%.0f\n",
                sync.c_str(), games, plies, b.moves, b.failed, secs, secs > 0 ? b.moves / secs : 0.0, pct(0.5),
                pct(0.99), server_cpu, client_cpu, server_cpu > 0 ? b.moves / server_cpu : 0.0);
    if (!b.first_error.empty())
        std::fprintf(stderr, "server_load_bench: first error: %s\n", b.first_error.c_str());
    return b.failed == 0 && b.moves == games * plies ? 0 : 1;
}
