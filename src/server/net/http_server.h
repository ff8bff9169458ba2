// HttpServer: the HTTP + WebSocket port. Each connection is a coroutine over a Beast stream
// with header/body limits and timeouts; /api/* goes to the JSON API, /api/ws upgrades to a
// WebSocket session that receives live events, other paths serve static files.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "server/net/job_queue.h"
#include "server/net/net.h"
#include "server/service/service.h"

namespace hisha::server::net {

class HttpServer {
public:
    /// `requests_per_second`: how fast one connection's requests are read (bursts of 3 s; 0: no limit);
    /// `jobs`: the workers, queue and per-account quota of tsume solves and analyses;
    /// `public_origins`: the origins of the web page (https://shogi.example.org) when a proxy
    /// does not pass the Host on (none: the request's Host is the server's origin);
    /// `trusted_proxies`: the addresses of reverse proxies whose X-Forwarded-For names the client;
    /// `max_per_address`: the connections one address may have open (WebSockets included).
    HttpServer(service::Service& svc, asio::io_context& ioc, std::string static_dir, double requests_per_second,
               JobQueue::Options jobs = {}, std::vector<std::string> public_origins = {},
               std::vector<std::string> trusted_proxies = {}, std::size_t max_per_address = 64);
    ~HttpServer();
    void start(tcp::acceptor& acceptor);
    void stop();

    struct Impl;

private:
    std::shared_ptr<Impl> impl_;
};

}  // namespace hisha::server::net
