// Relay benchmark of hisha-server (issue 22): the server's CPU per move it checks, stores and
// relays, at a given ply of the game and with a given number of watchers.
//
// Setup (not measured): the bench starts hisha-server on a temporary SQLite database, registers
// two players per game and the watchers over HTTP, creates G real-time games (/api/games) and
// plays the first S plies of a random legal game in each (/api/games/N/move, one request at a
// time on one keep-alive connection). Then the watchers connect, WebSocket (/api/ws, a "watch"
// message per game) or text protocol (LOGIN, WATCH per game), and watch every game.
// Measured: the next W plies of every game, round robin, each move sent once the last one was
// answered; the window closes when every watcher has received every move. The figure is the
// CPU time of the server's threads over the window (from /proc/PID/task/*/schedstat, in
// nanoseconds) divided by the moves played: the loop's and the whole process's.
//   relay_bench [--server PATH] [--games G] [--start-ply S] [--window W] [--watchers N]
//               [--watcher-kind ws|text] [--seed X]
// Prints one line: start_ply= window= watchers= kind= moves= deliveries= cpu_us_per_move=
// loop_us_per_move= (and per thread). Not a pass/fail test: it fails only when a move is
// refused or a watcher misses one.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
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
#include <string>
#include <vector>

#include "random_game.h"
#include "server_child.h"

using Clock = std::chrono::steady_clock;

namespace {

[[noreturn]] void die(const std::string& why) {
    std::cerr << "relay_bench: " << why << "\n";
    std::exit(1);
}

int connect_to(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        die("socket");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(std::uint16_t(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
        die(std::string("connect: ") + std::strerror(errno));
    return fd;
}

void send_all(int fd, const std::string& s) {
    std::size_t done = 0;
    while (done < s.size()) {
        ssize_t n = ::send(fd, s.data() + done, s.size() - done, MSG_NOSIGNAL);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            pollfd p{fd, POLLOUT, 0};
            poll(&p, 1, 1000);
            continue;
        }
        if (n <= 0)
            die(std::string("send: ") + std::strerror(errno));
        done += std::size_t(n);
    }
}

// Reads what is there (blocking until something is when `wait`); false at the end of the stream.
bool read_some(int fd, std::string& in, bool wait) {
    char buf[65536];
    for (;;) {
        ssize_t n = ::recv(fd, buf, sizeof buf, wait ? 0 : MSG_DONTWAIT);
        if (n > 0) {
            in.append(buf, std::size_t(n));
            return true;
        }
        if (n == 0)
            return false;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            return true;
        return false;
    }
}

// One HTTP/1.1 request on a keep-alive connection; the body of a 200 reply (dies otherwise).
std::string http(int fd, const std::string& method, const std::string& target, const std::string& token,
                 const std::string& body) {
    std::string req = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    if (!token.empty())
        req += "Authorization: Bearer " + token + "\r\n";
    req += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    send_all(fd, req);
    std::string in;
    std::size_t head_end;
    while ((head_end = in.find("\r\n\r\n")) == std::string::npos)
        if (!read_some(fd, in, true))
            die("HTTP: the server closed the connection");
    std::string head = in.substr(0, head_end);
    std::size_t length = 0;
    for (const char* key : {"Content-Length: ", "content-length: "})
        if (auto at = head.find(key); at != std::string::npos)
            length = std::stoul(head.substr(at + std::strlen(key)));
    while (in.size() < head_end + 4 + length)
        if (!read_some(fd, in, true))
            die("HTTP: the server closed the connection");
    std::string reply = in.substr(head_end + 4, length);
    if (!head.starts_with("HTTP/1.1 200"))
        die(method + " " + target + ": " + head.substr(0, head.find('\r')) + " " + reply);
    return reply;
}

std::string json_string(const std::string& json, const std::string& key) {
    auto at = json.find("\"" + key + "\":\"");
    if (at == std::string::npos)
        return {};
    at += key.size() + 4;
    return json.substr(at, json.find('"', at) - at);
}

long long json_int(const std::string& json, const std::string& key) {
    auto at = json.find("\"" + key + "\":");
    return at == std::string::npos ? -1 : std::atoll(json.c_str() + at + key.size() + 3);
}

// CPU nanoseconds of each thread of a process, summed by thread name; the main thread, the
// server's event loop, is "loop".
std::map<std::string, double> thread_cpu_ns(pid_t pid) {
    std::map<std::string, double> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
        std::ifstream comm(e.path() / "comm"), stat(e.path() / "schedstat");
        std::string name;
        double ns = 0;
        if (std::getline(comm, name) && (stat >> ns))
            out[e.path().filename() == std::to_string(pid) ? "loop" : name] += ns;
    }
    return out;
}

// A watcher: a WebSocket or a text-protocol connection that counts the moves it is told of.
struct Watcher {
    int fd = -1;
    bool ws = true;
    std::string in;
    long moves = 0, oks = 0;

    // Takes the complete messages (WebSocket frames, text lines) out of `in`.
    void take() {
        if (!ws) {
            std::size_t start = 0, nl;
            while ((nl = in.find('\n', start)) != std::string::npos) {
                std::string_view l(in.data() + start, nl - start);
                if (l.find(" played ") != std::string_view::npos)
                    ++moves;
                else if (l.find("Watching game ") != std::string_view::npos)  // (after a prompt)
                    ++oks;
                start = nl + 1;
            }
            in.erase(0, start);
            return;
        }
        std::size_t at = 0;
        for (;;) {
            if (in.size() - at < 2)
                break;
            auto b0 = static_cast<unsigned char>(in[at]), b1 = static_cast<unsigned char>(in[at + 1]);
            std::size_t len = b1 & 0x7f, head = 2;
            if (len == 126) {
                if (in.size() - at < 4)
                    break;
                len =
                    (std::size_t(static_cast<unsigned char>(in[at + 2])) << 8) | static_cast<unsigned char>(in[at + 3]);
                head = 4;
            } else if (len == 127) {
                if (in.size() - at < 10)
                    break;
                len = 0;
                for (int i = 0; i < 8; ++i)
                    len = (len << 8) | static_cast<unsigned char>(in[at + 2 + std::size_t(i)]);
                head = 10;
            }
            if (in.size() - at < head + len)
                break;
            std::string_view payload(in.data() + at + head, len);
            if ((b0 & 0x0f) == 1 || (b0 & 0x0f) == 0) {  // text (or a continuation: its start counted)
                if (payload.find("\"type\":\"move\"") != std::string_view::npos)
                    ++moves;
                else if (payload.find("\"type\":\"ok\"") != std::string_view::npos)
                    ++oks;
            }
            at += head + len;
        }
        in.erase(0, at);
    }
    void send_ws(const std::string& text) {  // a masked text frame (mask 0: the payload as it is)
        std::string f;
        f += char(0x81);
        if (text.size() < 126) {
            f += char(0x80 | text.size());
        } else {
            f += char(0x80 | 126);
            f += char(text.size() >> 8);
            f += char(text.size() & 0xff);
        }
        f += std::string(4, '\0');
        send_all(fd, f + text);
    }
};

// Reads whatever the watchers have, for up to `ms` milliseconds of waiting (0: only what is there).
void drain(std::vector<Watcher>& ws, int ms) {
    std::vector<pollfd> p;
    for (auto& w : ws)
        p.push_back({w.fd, POLLIN, 0});
    if (poll(p.data(), p.size(), ms) <= 0)
        return;
    for (std::size_t i = 0; i < ws.size(); ++i)
        if (p[i].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (!read_some(ws[i].fd, ws[i].in, false))
                die("a watcher's connection was closed");
            ws[i].take();
        }
}

void wait_until(std::vector<Watcher>& ws, auto done, const char* what) {
    auto deadline = Clock::now() + std::chrono::seconds(120);
    while (!done()) {
        if (Clock::now() > deadline)
            die(std::string("timed out waiting for ") + what);
        drain(ws, 100);
    }
}

// The command line.
struct Options {
    std::string server;
    int games = 20, start_ply = 0, window = 20, watchers = 1;
    std::string kind = "ws";
    std::uint64_t seed = 1;
};

Options read_options(int argc, char** argv) {
    Options o;
    o.server = (std::filesystem::path(argv[0]).parent_path() / "hisha-server").string();
    for (int i = 1; i < argc; i += 2) {
        std::string a = argv[i];
        if (i + 1 >= argc)
            die(a + " needs a value");
        std::string v = argv[i + 1];
        if (a == "--server")
            o.server = v;
        else if (a == "--games")
            o.games = std::clamp(std::atoi(v.c_str()), 1, 500);
        else if (a == "--start-ply")
            o.start_ply = std::clamp(std::atoi(v.c_str()), 0, 1000);
        else if (a == "--window")
            o.window = std::clamp(std::atoi(v.c_str()), 1, 1000);
        else if (a == "--watchers")
            o.watchers = std::clamp(std::atoi(v.c_str()), 0, 500);
        else if (a == "--watcher-kind" && (v == "ws" || v == "text"))
            o.kind = v;
        else if (a == "--seed")
            o.seed = std::strtoull(v.c_str(), nullptr, 10);
        else
            die("usage: relay_bench [--server PATH] [--games G] [--start-ply S] [--window W] [--watchers N] "
                "[--watcher-kind ws|text] [--seed X]");
    }
    return o;
}

// Starts hisha-server on the database `db` (no limits, text and HTTP on ports of the system's
// choice) and waits until it is ready: its process id; `http_port` and `text_port` are set.
pid_t start_server(const Options& o, const std::string& db, int& http_port, int& text_port) {
    std::map<std::string, int> ports;
    std::string error;
    pid_t pid = start_server_child({o.server, "--db",
                                    db,       "--csa-port",
                                    "-1",     "--text-port",
                                    "0",      "--http-port",
                                    "0",      "--password-cost",
                                    "min",    "--max-per-address",
                                    "10000",  "--max-commands-per-second",
                                    "0",      "--login-per-address",
                                    "0",      "--login-per-account",
                                    "0",      "--register-per-address",
                                    "0",      "--log",
                                    "off",    "--bots",
                                    ""},
                                   true, ports, error);  // (its notes, such as the web UI's files not found, dropped)
    if (pid < 0)
        die(error);
    for (auto [proto, port] : {std::pair{"http", &http_port}, std::pair{"text", &text_port}}) {
        if (!ports.count(proto))
            die(std::string("no ") + proto + " port");
        *port = ports[proto];
    }
    return pid;
}

// A watcher of every game in `ids`: over a WebSocket (a "watch" message per game) or the text
// protocol (LOGIN, then WATCH per game).
void connect_watcher(Watcher& w, bool websocket, const std::string& name, const std::string& token, int http_port,
                     int text_port, const std::vector<long long>& ids) {
    w.ws = websocket;
    if (w.ws) {
        w.fd = connect_to(http_port);
        send_all(w.fd, "GET /api/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + token
                           + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
        std::size_t end;
        while ((end = w.in.find("\r\n\r\n")) == std::string::npos)
            if (!read_some(w.fd, w.in, true))
                die("WebSocket handshake");
        if (!w.in.starts_with("HTTP/1.1 101"))
            die("WebSocket handshake: " + w.in.substr(0, w.in.find('\r')));
        w.in.erase(0, end + 4);
        for (long long id : ids)
            w.send_ws(R"({"type":"watch","game":)" + std::to_string(id) + "}");
    } else {
        w.fd = connect_to(text_port);
        send_all(w.fd, "LOGIN " + name + " secret\r\n");
        while (w.in.find("Welcome,") == std::string::npos)
            if (!read_some(w.fd, w.in, true))
                die("text LOGIN");
        w.in.clear();
        for (long long id : ids)
            send_all(w.fd, "WATCH " + std::to_string(id) + "\r\n");
    }
}

// The figures: the server's CPU per move relayed (all threads, and the event loop's), per
// delivery, and by thread.
void report(const Options& o, long expected, double secs, std::map<std::string, double>& cpu0,
            std::map<std::string, double>& cpu1) {
    double total = 0;
    std::string per_thread;
    for (auto& [name, ns] : cpu1) {
        double d = ns - (cpu0.count(name) ? cpu0[name] : 0.0);
        total += d;
        if (d > 0)
            per_thread += " " + name + "=" + std::to_string(int(d / 1e3 / double(expected) + 0.5));
    }
    double loop = cpu1["loop"] - cpu0["loop"];
    std::printf("start_ply=%d window=%d games=%d watchers=%d kind=%s moves=%ld deliveries=%ld seconds=%.2f "
                "cpu_us_per_move=%.1f loop_us_per_move=%.1f cpu_us_per_delivery=%.2f threads_us:%s\n",
                o.start_ply, o.window, o.games, o.watchers, o.kind.c_str(), expected, expected * o.watchers, secs,
                total / 1e3 / double(expected), loop / 1e3 / double(expected),
                o.watchers ? total / 1e3 / double(expected * o.watchers) : 0.0, per_thread.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    Options o = read_options(argc, argv);
    signal(SIGPIPE, SIG_IGN);
    int games = o.games, plies = o.start_ply + o.window;
    std::vector<std::vector<std::string>> moves;
    for (int g = 0; g < games; ++g)
        moves.push_back(bench::random_game(plies, o.seed * 1000003 + std::uint64_t(g) + 1));

    auto dir = std::filesystem::temp_directory_path() / ("hisha_relay_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::string db = "sqlite:" + (dir / "relay.db").string() + "?sync=normal";
    int http_port = 0, text_port = 0;
    pid_t pid = start_server(o, db, http_port, text_port);

    // Setup: players, games, the first plies.
    int api = connect_to(http_port);
    auto reg = [&](const std::string& name) {
        return json_string(http(api, "POST", "/api/register", "", R"({"name":")" + name + R"(","password":"secret"})"),
                           "token");
    };
    std::vector<std::string> tokens;  // black, white of each game
    std::vector<long long> ids;
    for (int g = 0; g < games; ++g) {
        tokens.push_back(reg("b" + std::to_string(g)));
        tokens.push_back(reg("w" + std::to_string(g)));
        auto reply = http(api, "POST", "/api/games", tokens[std::size_t(2 * g)],
                          R"({"opponent":"w)" + std::to_string(g) + R"(","color":"black","time_control":"36000-10"})");
        ids.push_back(json_int(reply, "id"));
    }
    auto play = [&](int g, int ply) {
        http(api, "POST", "/api/games/" + std::to_string(ids[std::size_t(g)]) + "/move",
             tokens[std::size_t(2 * g + ply % 2)], R"({"move":")" + moves[std::size_t(g)][std::size_t(ply)] + "\"}");
    };
    for (int ply = 0; ply < o.start_ply; ++ply)
        for (int g = 0; g < games; ++g)
            play(g, ply);

    std::vector<Watcher> ws(static_cast<std::size_t>(o.watchers));
    for (int i = 0; i < o.watchers; ++i) {
        std::string name = "watcher" + std::to_string(i);
        connect_watcher(ws[std::size_t(i)], o.kind == "ws", name, reg(name), http_port, text_port, ids);
    }
    wait_until(
        ws, [&] { return std::all_of(ws.begin(), ws.end(), [&](auto& w) { return w.oks >= games; }); },
        "the watchers' WATCH replies");

    // Measured: the window.
    auto cpu0 = thread_cpu_ns(pid);
    auto t0 = Clock::now();
    for (int ply = o.start_ply; ply < plies; ++ply)
        for (int g = 0; g < games; ++g) {
            play(g, ply);
            drain(ws, 0);
        }
    long expected = long(games) * o.window;
    wait_until(
        ws, [&] { return std::all_of(ws.begin(), ws.end(), [&](auto& w) { return w.moves >= expected; }); },
        "the watchers' moves");
    auto cpu1 = thread_cpu_ns(pid);
    double secs = std::chrono::duration<double>(Clock::now() - t0).count();

    kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
    std::filesystem::remove_all(dir);
    report(o, expected, secs, cpu0, cpu1);
    return 0;
}
