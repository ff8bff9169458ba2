// Load benchmark of hisha-server (issue 8): N concurrent real-time CSA games played by
// scripted clients over 127.0.0.1. Prints moves per second and the median/p99 latency from
// a move sent to the opponent receiving it. Bounded: 10 plies per game, 120 s at most.
//   server_load_bench [--server PATH] [--games N] [--plies P] [--sync full|normal]
#include <boost/asio.hpp>
#include <boost/asio/as_tuple.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;
constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

namespace {

const char* LINE[] = {"+7776FU", "-3334FU", "+2726FU", "-8384FU", "+2625FU", "-8485FU", "+6978KI", "-4132KI",
                      "+3948GI", "-7162GI", "+5968OU", "-5142OU", "+4958KI", "-6152KI", "+1716FU", "-9394FU"};

struct Game {
    Clock::time_point sent[32];
    int done_plies = 0;
};

std::vector<double> latencies_ms;
int moves_done = 0;
int errors = 0;
Clock::time_point first_move, last_move;
bool started = false;

asio::awaitable<std::string> read_line(tcp::socket& s, asio::streambuf& buf) {
    auto [ec, n] = co_await asio::async_read_until(s, buf, '\n', use_tuple);
    if (ec)
        co_return std::string("!") + ec.message();
    std::string line(asio::buffers_begin(buf.data()), asio::buffers_begin(buf.data()) + std::ptrdiff_t(n) - 1);
    buf.consume(n);
    co_return line;
}

asio::awaitable<void> player(asio::io_context& ioc, int port, int id, bool black, Game& g, int plies) {
    tcp::socket s(ioc);
    auto [cec] =
        co_await s.async_connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), std::uint16_t(port)), use_tuple);
    if (cec) {
        ++errors;
        co_return;
    }
    s.set_option(tcp::no_delay(true));
    asio::streambuf buf;
    auto send = [&](std::string line) -> asio::awaitable<bool> {
        line += "\n";
        auto [ec, n] = co_await asio::async_write(s, asio::buffer(line), use_tuple);
        co_return !ec;
    };
    std::string name = std::string(black ? "b" : "w") + std::to_string(id);
    co_await send("LOGIN " + name + " load" + std::to_string(id) + "-600-0" + (black ? "-B" : "-W") + ",secret");
    for (;;) {
        std::string l = co_await read_line(s, buf);
        if (l.starts_with("!") || l == "LOGIN:incorrect") {
            ++errors;
            co_return;
        }
        if (l == "END Game_Summary")
            break;
    }
    co_await send("AGREE");
    for (;;) {
        std::string l = co_await read_line(s, buf);
        if (l.starts_with("!")) {
            ++errors;
            co_return;
        }
        if (l.starts_with("START:"))
            break;
    }
    int my_parity = black ? 0 : 1;
    for (int ply = 0; ply < plies; ++ply) {
        if (ply % 2 == my_parity) {
            g.sent[ply] = Clock::now();
            if (!started) {
                started = true;
                first_move = g.sent[ply];
            }
            co_await send(LINE[ply]);
        }
        std::string l = co_await read_line(s, buf);  // the echo of this ply
        if (l.starts_with("!") || !l.starts_with(LINE[ply])) {
            ++errors;
            co_return;
        }
        if (ply % 2 != my_parity) {  // the opponent's move reached us
            auto now = Clock::now();
            latencies_ms.push_back(std::chrono::duration<double, std::milli>(now - g.sent[ply]).count());
            ++moves_done;
            last_move = now;
        }
    }
    if (black)
        co_await send("%TORYO");
    for (int i = 0; i < 4; ++i) {
        std::string l = co_await read_line(s, buf);
        if (l.starts_with("#WIN") || l.starts_with("#LOSE") || l.starts_with("!"))
            break;
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::string server = (std::filesystem::path(argv[0]).parent_path() / "hisha-server").string();
    int games = 200, plies = 10;
    std::string sync = "full";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--server"))
            server = argv[i + 1];
        else if (!std::strcmp(argv[i], "--games"))
            games = std::max(1, std::atoi(argv[i + 1]));
        else if (!std::strcmp(argv[i], "--sync"))
            sync = argv[i + 1];
        else if (!std::strcmp(argv[i], "--plies"))
            plies = std::clamp(std::atoi(argv[i + 1]), 2, 16);
    }
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
              "-1", "--password-cost", "min", "--max-per-address", "1000", "--log", "off", "--bots", "",
              static_cast<char*>(nullptr));
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

    asio::io_context ioc(1);
    std::vector<Game> g(static_cast<std::size_t>(games));
    for (int i = 0; i < games; ++i) {
        asio::co_spawn(ioc, player(ioc, port, i, true, g[std::size_t(i)], plies), asio::detached);
        asio::co_spawn(ioc, player(ioc, port, i, false, g[std::size_t(i)], plies), asio::detached);
    }
    ioc.run_for(std::chrono::seconds(120));
    kill(pid, SIGTERM);
    rusage ru{};
    wait4(pid, nullptr, 0, &ru);
    // The server's CPU time over its whole life (start, 2N logins, the games): on a busy machine
    // moves per CPU second says more about the server than moves per wall-clock second.
    double cpu_s =
        double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    std::filesystem::remove_all(dir);

    std::sort(latencies_ms.begin(), latencies_ms.end());
    double secs = std::chrono::duration<double>(last_move - first_move).count();
    auto pct = [&](double p) {
        return latencies_ms.empty()
                 ? 0.0
                 : latencies_ms[std::min(latencies_ms.size() - 1, std::size_t(p * double(latencies_ms.size())))];
    };
    std::printf("sync=%s games=%d plies=%d moves=%d errors=%d seconds=%.2f moves_per_s=%.0f median_ms=%.2f p99_ms=%.2f "
                "server_cpu_s=%.2f moves_per_server_cpu_s=%.0f\n",
                sync.c_str(), games, plies, moves_done, errors, secs, secs > 0 ? moves_done / secs : 0.0, pct(0.5),
                pct(0.99), cpu_s, cpu_s > 0 ? moves_done / cpu_s : 0.0);
    return errors == 0 && moves_done == games * plies ? 0 : 1;
}
