// LineSession's write path over a real loopback socket, with the write thread (Sender) and
// without it: output to a client that reads late arrives whole and in order (the socket fills,
// the rest of a write goes out when it drains), and a client that vanishes in the middle of
// a long answer leaves the server serving others.
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "server/net/line_session.h"
#include "server/net/sender.h"

namespace net = hisha::server::net;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

// Answers a line holding a number N with N numbered lines of 1 KB.
class Flood final : public hisha::server::proto::LineHandler {
public:
    explicit Flood(net::LineSession::Output out) : out_(std::move(out)) {}
    void start() override {}
    void on_line(std::string_view line) override {
        int n = std::stoi(std::string(line));
        for (int i = 0; i < n; ++i)
            out_(std::to_string(i) + " " + std::string(1000, char('a' + i % 26)) + "\n");
    }
    void on_line_too_long() override {}
    void on_disconnect() override {}

private:
    net::LineSession::Output out_;
};

// A server of Flood sessions on 127.0.0.1 with its loop on a thread; with or without a Sender.
class FloodServer {
public:
    explicit FloodServer(bool with_sender) : acceptor_(ioc_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {
        if (with_sender) {
            sender_.emplace(ioc_);
            net::set_sender(&*sender_);
        }
        accept();
        thread_ = std::thread([this] { ioc_.run(); });
    }
    ~FloodServer() {
        asio::post(ioc_, [this] { ioc_.stop(); });
        thread_.join();
        net::set_sender(nullptr);
    }
    int port() const { return acceptor_.local_endpoint().port(); }

private:
    void accept() {
        acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket s) {
            if (ec)
                return;
            net::LineLimits limits;
            limits.lines_per_second = 0;
            limits.max_queued = 64u << 20;
            auto session = std::make_shared<net::LineSession>(std::move(s), limits);
            session->start([](net::LineSession::Output out, std::function<void()>) {
                return std::make_shared<Flood>(std::move(out));
            });
            accept();
        });
    }
    asio::io_context ioc_{1};
    std::optional<net::Sender> sender_;
    tcp::acceptor acceptor_;
    std::thread thread_;
};

int connect_to(int port, int rcvbuf) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (rcvbuf > 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);  // before connect: a small window
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

// Reads until `lines` lines have come (or 10 s); the text read.
std::string read_lines(int fd, int lines) {
    std::string in;
    int seen = 0;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (seen < lines && std::chrono::steady_clock::now() < deadline) {
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0)
            continue;
        char buf[65536];
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            break;
        for (ssize_t i = 0; i < n; ++i)
            seen += buf[i] == '\n';
        in.append(buf, std::size_t(n));
    }
    return in;
}

// Every line is there, once, in order, with its own text.
void expect_whole_and_in_order(const std::string& in, int lines) {
    std::size_t at = 0;
    for (int i = 0; i < lines; ++i) {
        std::string want = std::to_string(i) + " " + std::string(1000, char('a' + i % 26)) + "\n";
        ASSERT_EQ(in.compare(at, want.size(), want), 0) << "line " << i << " at byte " << at;
        at += want.size();
    }
    EXPECT_EQ(at, in.size());
}

void late_reader(bool with_sender) {
    FloodServer srv(with_sender);
    int fd = connect_to(srv.port(), 4096);
    ASSERT_GE(fd, 0);
    const int lines = 3000;  // 3 MB: far more than the socket buffers hold while nobody reads
    std::string ask = std::to_string(lines) + "\n";
    ASSERT_EQ(send(fd, ask.data(), ask.size(), MSG_NOSIGNAL), ssize_t(ask.size()));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the socket fills up
    expect_whole_and_in_order(read_lines(fd, lines), lines);
    close(fd);
}

void vanishing_reader(bool with_sender) {
    FloodServer srv(with_sender);
    for (int round = 0; round < 5; ++round) {  // each leaves a write in flight behind it
        int fd = connect_to(srv.port(), 4096);
        ASSERT_GE(fd, 0);
        std::string ask = "3000\n";
        ASSERT_EQ(send(fd, ask.data(), ask.size(), MSG_NOSIGNAL), ssize_t(ask.size()));
        char buf[5000];
        ASSERT_GT(recv(fd, buf, sizeof buf, 0), 0);
        linger off{1, 0};  // a reset, not an orderly close
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &off, sizeof off);
        close(fd);
    }
    int fd = connect_to(srv.port(), 0);  // the server still serves
    ASSERT_GE(fd, 0);
    std::string ask = "50\n";
    ASSERT_EQ(send(fd, ask.data(), ask.size(), MSG_NOSIGNAL), ssize_t(ask.size()));
    expect_whole_and_in_order(read_lines(fd, 50), 50);
    close(fd);
}

}  // namespace

TEST(LineSession, OutputToALateReaderArrivesWholeAndInOrderThroughTheWriteThread) { late_reader(true); }
TEST(LineSession, OutputToALateReaderArrivesWholeAndInOrderFromTheLoop) { late_reader(false); }
TEST(LineSession, AReaderThatVanishesMidAnswerLeavesTheWriteThreadServing) { vanishing_reader(true); }
TEST(LineSession, AReaderThatVanishesMidAnswerLeavesTheLoopServing) { vanishing_reader(false); }
