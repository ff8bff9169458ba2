// Loopback test helpers: start hisha-server as a child process on ephemeral ports of
// 127.0.0.1 (read back from its "listening" lines), and a line client with bounded waits.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "../../support/exec.h"

namespace hisha::server::test {

/// Whether `text` (a server's answer) contains `what`.
inline bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

/// Forks the program args[0] with `args`, its standard output into a pipe and its standard error
/// appended to the file `stderr_path` (inherited when empty): the child's process id, with the
/// read end of the pipe in `out`.
inline pid_t spawn_with_stdout_pipe(const std::vector<std::string>& args, int& out,
                                    const std::string& stderr_path = {}) {
    int fds[2];
    if (pipe(fds) != 0)
        throw std::runtime_error("pipe");
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        if (!stderr_path.empty()) {
            int log = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
            if (log >= 0) {
                dup2(log, 2);
                close(log);
            }
        }
        close(fds[0]);
        close(fds[1]);
        hisha::testing::exec_args(args);
    }
    close(fds[1]);
    out = fds[0];
    return pid;
}

/// The arguments of a server with Floodgate's open registration (a CSA LOGIN of an unknown name
/// creates it: --csa-auto-register on), for tests of CSA games between fresh names.
inline std::vector<std::string> open_csa(std::vector<std::string> extra = {}) {
    extra.insert(extra.begin(), {"--csa-auto-register", "on"});
    return extra;
}

/// Runs `BINARY ARGS` to its end (standard error with standard output): what it printed and its
/// exit status (-1 when it did not exit normally).
inline std::pair<std::string, int> run_cli(const std::string& binary, const std::string& args) {
    std::string command = binary + " " + args + " 2>&1";
    FILE* p = popen(command.c_str(), "r");
    std::string out;
    char buf[4096];
    while (p && std::fgets(buf, sizeof buf, p))
        out += buf;
    int status = p ? pclose(p) : -1;
    return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

/// `hisha-server ARGS` run by run_cli().
inline std::pair<std::string, int> run_server_cli(const std::string& args) {
    return run_cli(HISHA_SERVER_BINARY, args);
}

class ServerProcess {
public:
    std::map<std::string, int> ports;        // "text", "csa", "http"
    std::string log_path = next_log_path();  // the server's stderr (structured log)

    static std::string next_log_path() {
        static int n = 0;
        return "/tmp/hisha_server_log_" + std::to_string(getpid()) + "_" + std::to_string(++n) + ".log";
    }
    std::string log_text() const {
        std::string out;
        int fd = open(log_path.c_str(), O_RDONLY);
        char buf[4096];
        for (ssize_t n; fd >= 0 && (n = read(fd, buf, sizeof buf)) > 0;)
            out.append(buf, std::size_t(n));
        if (fd >= 0)
            close(fd);
        return out;
    }

    explicit ServerProcess(std::string db, std::vector<std::string> extra = {})
        : db_(std::move(db)), extra_(std::move(extra)) {
        start();
    }
    ~ServerProcess() {
        stop();
        unlink(log_path.c_str());
    }
    ServerProcess(const ServerProcess&) = delete;  // one owner stops the process
    ServerProcess& operator=(const ServerProcess&) = delete;

    void start() {
        std::vector<std::string> args = {
            HISHA_SERVER_BINARY, "--db", db_, "--text-port", "0", "--csa-port", "0", "--http-port", "0",
            "--password-cost",   "min"};
        args.insert(args.end(), extra_.begin(), extra_.end());
        pid_ = spawn_with_stdout_pipe(args, out_, log_path);  // standard error: the JSON log
        ports.clear();
        std::string buf;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (buf.find("ready") == std::string::npos) {
            if (std::chrono::steady_clock::now() > deadline)
                throw std::runtime_error("server did not start: " + buf);
            pollfd p{out_, POLLIN, 0};
            if (poll(&p, 1, 200) <= 0)
                continue;
            char tmp[512];
            ssize_t n = read(out_, tmp, sizeof tmp);
            if (n <= 0)
                throw std::runtime_error("server exited: " + buf);
            buf.append(tmp, std::size_t(n));
        }
        std::size_t pos = 0;
        while ((pos = buf.find("listening ", pos)) != std::string::npos) {
            std::size_t sp = buf.find(' ', pos + 10);
            std::size_t colon = buf.find(':', sp);
            ports[buf.substr(pos + 10, sp - pos - 10)] = std::stoi(buf.substr(colon + 1));
            pos = colon;
        }
    }

    /// SIGTERM and wait (graceful); returns the exit status.
    int stop(int sig = SIGTERM) {
        if (pid_ <= 0)
            return -1;
        kill(pid_, sig);
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
        close(out_);
        return status;
    }
    void restart() {
        stop();
        start();
    }
    pid_t pid() const { return pid_; }

private:
    std::string db_;
    std::vector<std::string> extra_;
    pid_t pid_ = -1;
    int out_ = -1;
};

class LineClient {
public:
    explicit LineClient(int port) {
        fd_ = socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<std::uint16_t>(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0)
            throw std::runtime_error("connect");
        int one = 1;
        setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    }
    ~LineClient() { close(fd_); }
    LineClient(const LineClient&) = delete;

    void send_raw(const std::string& s) {
        std::size_t off = 0;
        while (off < s.size()) {
            ssize_t n = ::send(fd_, s.data() + off, s.size() - off, MSG_NOSIGNAL);
            if (n <= 0)
                throw std::runtime_error("send");
            off += std::size_t(n);
        }
    }
    void send_line(const std::string& s, const char* eol = "\r\n") { send_raw(s + eol); }

    /// Reads until `marker` appears in the unread input (bounded); returns the text up to and
    /// including it, or throws on timeout or close.
    std::string read_until(const std::string& marker, int timeout_ms = 5000) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        for (;;) {
            auto at = buf_.find(marker);
            if (at != std::string::npos) {
                std::string out = buf_.substr(0, at + marker.size());
                buf_.erase(0, at + marker.size());
                return out;
            }
            auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                throw std::runtime_error("timeout waiting for '" + marker + "', got: " + buf_);
            pollfd p{fd_, POLLIN, 0};
            if (poll(&p, 1, int(left.count())) <= 0)
                continue;
            char tmp[8192];
            ssize_t n = recv(fd_, tmp, sizeof tmp, 0);
            if (n <= 0) {
                closed_ = true;
                throw std::runtime_error("connection closed, got: " + buf_);
            }
            buf_.append(tmp, std::size_t(n));
        }
    }
    /// A command line and its reply up to the next prompt.
    std::string cmd(const std::string& line, const std::string& prompt = "hisha> ") {
        send_line(line);
        return read_until(prompt);
    }
    bool closed_by_peer(int timeout_ms = 2000) {
        pollfd p{fd_, POLLIN, 0};
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (std::chrono::steady_clock::now() < deadline) {
            if (poll(&p, 1, 100) > 0) {
                char tmp[4096];
                ssize_t n = recv(fd_, tmp, sizeof tmp, 0);
                if (n <= 0)
                    return true;
                buf_.append(tmp, std::size_t(n));
            }
        }
        return false;
    }
    std::string& pending() { return buf_; }
    /// Reads until the connection has been quiet for `quiet_ms` and returns (and drops)
    /// everything unread: events that arrive on their own.
    std::string drain(int quiet_ms = 150) {
        for (;;) {
            pollfd p{fd_, POLLIN, 0};
            if (poll(&p, 1, quiet_ms) <= 0)
                break;
            char tmp[8192];
            ssize_t n = recv(fd_, tmp, sizeof tmp, 0);
            if (n <= 0)
                break;
            buf_.append(tmp, std::size_t(n));
        }
        return std::exchange(buf_, {});
    }

private:
    int fd_ = -1;
    std::string buf_;
    bool closed_ = false;
};

/// Starts a CSA game between two clients of one game name `game` (the `-B` / `-W` suffixes
/// added): each logs in (password "secret"), reads its Game_Summary, agrees, and sees START.
/// Returns the two summaries, Black's then White's.
inline std::pair<std::string, std::string> start_csa_game(LineClient& black, const std::string& black_name,
                                                          LineClient& white, const std::string& white_name,
                                                          const std::string& game) {
    black.send_line("LOGIN " + black_name + " " + game + "-B,secret", "\n");
    black.read_until("OK\n");
    white.send_line("LOGIN " + white_name + " " + game + "-W,secret", "\n");
    white.read_until("OK\n");
    std::string sb = black.read_until("END Game_Summary\n");
    std::string sw = white.read_until("END Game_Summary\n");
    black.send_line("AGREE", "\n");
    white.send_line("AGREE", "\n");
    black.read_until("START:");
    white.read_until("START:");
    return {sb, sw};
}

/// Plays CSA moves in a started game, Black first: each is sent by the side to move and read
/// back (with its time) by the other.
inline void csa_plies(LineClient& black, LineClient& white, std::initializer_list<const char*> moves) {
    bool black_moves = true;
    for (const char* m : moves) {
        (black_moves ? black : white).send_line(m, "\n");
        (black_moves ? white : black).read_until(std::string(m) + ",T");
        black_moves = !black_moves;
    }
}

/// The CSA moves of the kill -9 tests: ten plies that every game plays.
inline constexpr const char* KILL_NINE_LINE[] = {"+7776FU", "-3334FU", "+2726FU", "-8384FU", "+2625FU",
                                                 "-8485FU", "+6978KI", "-4132KI", "+3948GI", "-7162GI"};

/// The kill -9 scenario (SQLite and PostgreSQL alike): `games` CSA games start on `srv`, each
/// plays KILL_NINE_LINE with the plies interleaved across games (every echo a client reads is
/// an acknowledgement), Black sends one more move in every game, and the server is killed with
/// SIGKILL while those are in flight. Games are numbered 1..games; each must then hold the ten
/// acknowledged plies, and may hold the eleventh.
inline void play_then_kill_nine(ServerProcess& srv, int games) {
    std::vector<std::unique_ptr<LineClient>> black, white;
    for (int i = 0; i < games; ++i) {
        black.push_back(std::make_unique<LineClient>(srv.ports.at("csa")));
        white.push_back(std::make_unique<LineClient>(srv.ports.at("csa")));
        start_csa_game(*black.back(), "b" + std::to_string(i), *white.back(), "w" + std::to_string(i), "k9-600-0");
    }
    for (int ply = 0; ply < 10; ++ply)
        for (int i = 0; i < games; ++i) {
            auto& mover = ply % 2 == 0 ? black[std::size_t(i)] : white[std::size_t(i)];
            mover->send_line(KILL_NINE_LINE[ply], "\n");
            mover->read_until(std::string(KILL_NINE_LINE[ply]) + ",T");
        }
    for (int i = 0; i < games; ++i)  // in flight when the server dies: may or may not be kept
        black[std::size_t(i)]->send_line("+5968OU", "\n");
    srv.stop(SIGKILL);
}

/// Game `game` as `user` (password "secret") sees it on the text protocol: the answer to B.
inline std::string board_seen_by(const ServerProcess& srv, const std::string& user, int game = 1) {
    LineClient t(srv.ports.at("text"));
    t.read_until("hisha> ");
    t.cmd("LOGIN " + user + " secret");
    return t.cmd("B " + std::to_string(game));
}

}  // namespace hisha::server::test
