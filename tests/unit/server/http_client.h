// HTTP and WebSocket clients of the loopback tests (Beast, synchronous, every wait bounded).
#pragma once

#include <gtest/gtest.h>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hisha::server::test {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using nlohmann::json;

// Synchronous Beast calls ignore the stream's expiry: bound them at the socket.
inline void bound(tcp::socket& s, int seconds = 5) {
    timeval tv{seconds, 0};
    setsockopt(s.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(s.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
}

/// Headers by name (X-Hisha-Request, Cookie, Origin ...).
using Headers = std::vector<std::pair<std::string, std::string>>;

/// Connects `s` to 127.0.0.1:port, from the address `source` when given (any of 127.0.0.0/8:
/// a client of another address, for bans).
inline void connect_from(tcp::socket& s, int port, const std::string& source) {
    if (!source.empty()) {
        s.open(tcp::v4());
        s.bind(tcp::endpoint(asio::ip::make_address(source), 0));
    }
    s.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), std::uint16_t(port)));
}

/// The value of a response's Set-Cookie header ("" when none).
template <class Res>
std::string set_cookie(const Res& res) {
    return std::string(res[http::field::set_cookie]);
}
/// "hisha_session=VALUE" of a Set-Cookie value: what a browser sends back as its Cookie.
inline std::string cookie_pair(const std::string& set_cookie_value) {
    return set_cookie_value.substr(0, set_cookie_value.find(';'));
}

struct Http {
    asio::io_context ioc;
    beast::tcp_stream stream{ioc};
    int port = 0;
    explicit Http(int port_, int timeout_s = 5, const std::string& source = {}) : port(port_) {
        connect_from(stream.socket(), port, source);
        bound(stream.socket(), timeout_s);
    }
    /// A request with headers by name (Host is 127.0.0.1:port, as a browser sends it).
    http::response<http::string_body> call(http::verb verb, const std::string& target, const std::string& body,
                                           const Headers& headers) {
        write_request(verb, target, body, "127.0.0.1:" + std::to_string(port), {}, headers);
        return receive();
    }

    /// A request and its whole response (status, headers, body).
    http::response<http::string_body>
    exchange(http::verb verb, const std::string& target, const std::string& body = {}, const std::string& token = {},
             std::initializer_list<std::pair<http::field, std::string>> headers = {}) {
        send(verb, target, body, token, headers);
        return receive();
    }
    /// The request alone (its response read later with receive()).
    void send(http::verb verb, const std::string& target, const std::string& body = {}, const std::string& token = {},
              std::initializer_list<std::pair<http::field, std::string>> headers = {}) {
        write_request(verb, target, body, "127.0.0.1", token, headers);
    }
    /// Writes a request: its Host, the bearer token when given, `headers` (by name or by field)
    /// and a JSON body when given.
    template <typename HeaderList>
    void write_request(http::verb verb, const std::string& target, const std::string& body, const std::string& host,
                       const std::string& token, const HeaderList& headers) {
        http::request<http::string_body> req{verb, target, 11};
        req.set(http::field::host, host);
        if (!token.empty())
            req.set(http::field::authorization, "Bearer " + token);
        for (auto& [name, value] : headers)
            req.set(name, value);
        if (!body.empty()) {
            req.set(http::field::content_type, "application/json");
            req.body() = body;
        }
        req.prepare_payload();
        http::write(stream, req);
    }
    http::response<http::string_body> receive() {
        beast::flat_buffer buf;
        http::response<http::string_body> res;
        http::read(stream, buf, res);
        return res;
    }
    std::pair<int, std::string> request(http::verb verb, const std::string& target, const std::string& body = {},
                                        const std::string& token = {}) {
        auto res = exchange(verb, target, body, token);
        return {res.result_int(), res.body()};
    }
    json post(const std::string& target, const json& body, const std::string& token = {}, int expect = 200) {
        auto [status, text] = request(http::verb::post, target, body.dump(), token);
        EXPECT_EQ(status, expect) << target << ": " << text;
        return json::parse(text, nullptr, false);
    }
    json get(const std::string& target, const std::string& token = {}) {
        auto [status, text] = request(http::verb::get, target, {}, token);
        EXPECT_EQ(status, 200) << target << ": " << text;
        return json::parse(text, nullptr, false);
    }
};

struct Ws {
    asio::io_context ioc;
    websocket::stream<beast::tcp_stream> ws{ioc};
    int status = 0;  // the handshake's answer: 101 when open
    /// A script's socket: the token as `Authorization: Bearer`.
    Ws(int port, const std::string& token) {
        open(port, {{"Authorization", "Bearer " + token}}, "/api/ws");
        EXPECT_EQ(status, 101);
        EXPECT_EQ(read()["type"], "hello");
    }
    /// A socket with the given headers (a browser's: Cookie and Origin), open or refused (status).
    Ws(int port, const Headers& headers, const std::string& target = "/api/ws", const std::string& source = {}) {
        open(port, headers, target, source);
    }
    void open(int port, const Headers& headers, const std::string& target, const std::string& source = {}) {
        connect_from(beast::get_lowest_layer(ws).socket(), port, source);
        bound(beast::get_lowest_layer(ws).socket());
        beast::get_lowest_layer(ws).expires_after(std::chrono::seconds(5));
        ws.set_option(websocket::stream_base::decorator([headers](websocket::request_type& req) {
            for (auto& [name, value] : headers)
                req.set(name, value);
        }));
        websocket::response_type res;
        boost::system::error_code ec;
        ws.handshake(res, "127.0.0.1:" + std::to_string(port), target, ec);
        status = res.result_int();
        if (!ec)
            status = 101;
    }
    /// The close code the server sent (after a read failed with the close).
    int close_code() { return int(ws.reason().code); }
    void send(const json& j) { ws.write(asio::buffer(j.dump())); }
    // Bounded: an async read run for at most `seconds`.
    json read(int seconds = 5) {
        beast::flat_buffer buf;
        boost::system::error_code ec = asio::error::would_block;
        beast::get_lowest_layer(ws).expires_after(std::chrono::seconds(seconds + 1));  // (the run_for below ends first)
        ws.async_read(buf, [&](boost::system::error_code e, std::size_t) { ec = e; });
        ioc.restart();
        ioc.run_for(std::chrono::seconds(seconds));
        if (ec == asio::error::would_block) {
            beast::get_lowest_layer(ws).cancel();
            ioc.restart();
            ioc.run();
            throw std::runtime_error("no WebSocket message within " + std::to_string(seconds) + " s");
        }
        if (ec)
            throw std::runtime_error("WebSocket read: " + ec.message());
        return json::parse(beast::buffers_to_string(buf.data()));
    }
    /// Reads messages until the move event of `usi` arrives (a player hears their own moves too).
    json read_move(const std::string& usi, int seconds = 5) {
        for (int i = 0; i < 200; ++i) {
            json j = read_type("move", seconds);
            if (j.value("usi", "") == usi)
                return j;
        }
        return {};
    }
    /// Reads messages until one of the given type arrives.
    json read_type(const std::string& type, int seconds = 5) {
        for (int i = 0; i < 200; ++i) {
            json j = read(seconds);
            if (std::getenv("HISHA_TEST_VERBOSE"))
                std::fprintf(stderr, "ws: %s\n", j.dump().c_str());
            if (j["type"] == type)
                return j;
        }
        return {};
    }
};

}  // namespace hisha::server::test
