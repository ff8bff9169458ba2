// Protocols: the text and CSA factories (the HTTP side lives in http_server.cpp).
#include "server/net/protocols.h"

#include "server/net/http_server.h"
#include "server/proto/csa_shell.h"
#include "server/proto/text_shell.h"

namespace hisha::server::net {

struct Protocols::Http {
    HttpServer server;
};

Protocols::Protocols(service::Service& svc, asio::io_context& ioc, const ServerOptions& opt)
    : svc_(svc), ioc_(ioc), opt_(opt) {}

Protocols::~Protocols() = default;

LineSession::Factory Protocols::text_factory() {
    return [this](LineSession::Output out, std::function<void()> close) -> std::shared_ptr<proto::LineHandler> {
        return std::make_shared<proto::TextShell>(svc_, std::move(out), std::move(close));
    };
}

LineSession::Factory Protocols::csa_factory() {
    return [this](LineSession::Output out, std::function<void()> close) -> std::shared_ptr<proto::LineHandler> {
        return std::make_shared<proto::CsaShell>(svc_, std::move(out), std::move(close));
    };
}

bool Protocols::has_http() const { return true; }

void Protocols::start_http(tcp::acceptor& acceptor) {
    http_ = std::make_unique<Http>(
        Http{HttpServer(svc_, ioc_, opt_.static_dir, opt_.commands_per_second, opt_.jobs, opt_.public_origins,
                        opt_.trusted_proxies, opt_.max_connections_per_address)});
    http_->server.start(acceptor);
}

void Protocols::stop() {
    if (http_)
        http_->server.stop();
}

}  // namespace hisha::server::net
