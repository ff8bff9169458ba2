// Protocols: builds the handler of each port over the one service (text shell, CSA server,
// HTTP/WebSocket API), so that server.cpp only binds and accepts.
#pragma once

#include "server/net/line_session.h"
#include "server/net/server.h"

namespace hisha::server::net {

class Protocols {
public:
    Protocols(service::Service& svc, asio::io_context& ioc, const ServerOptions& opt);
    ~Protocols();
    LineSession::Factory text_factory();
    LineSession::Factory csa_factory();
    bool has_http() const;
    void start_http(tcp::acceptor& acceptor);
    void stop();

private:
    service::Service& svc_;
    asio::io_context& ioc_;
    const ServerOptions& opt_;
    struct Http;
    std::unique_ptr<Http> http_;
};

}  // namespace hisha::server::net
