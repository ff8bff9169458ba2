// Shell: what the protocols' shells (TextShell, CsaShell) share. Each is the line handler of
// one connection and a listener of the service; it writes through the session's output
// function and ends the connection through `close`.
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "server/proto/line_handler.h"
#include "server/service/service.h"

namespace hisha::server::proto {

class Shell : public service::Listener, public LineHandler {
public:
    using Output = std::function<void(std::string)>;
    Shell(service::Service& svc, Output out, std::function<void()> close)
        : svc_(svc), out_(std::move(out)), close_(std::move(close)) {}

    void start() override {}  // nothing to say before the client does
    /// The server ends the session: the client is told why (farewell()), nothing more is read
    /// or sent, and the connection closes once that is written.
    void end_session(const std::string& why) final {
        if (closed_)
            return;
        farewell(why);
        closed_ = true;
        close_();
    }

protected:
    /// How the protocol tells its client why the server ends the session.
    virtual void farewell(const std::string& why) = 0;

    service::Service& svc_;
    Output out_;
    std::function<void()> close_;
    bool closed_ = false;
};

}  // namespace hisha::server::proto
