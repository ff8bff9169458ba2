// Bots: Hisha's engine at a chosen Skill level as an account people can challenge. Each bot
// is a Listener connected as its account; when it is to move it searches on the engine's
// thread and posts the move back to the event loop. A challenge naming a bot is accepted.
// Servers sharing a database run each bot on one of them at a time (store::Store::claim).
#pragma once

#include <deque>
#include <memory>
#include <set>
#include <string>

#include "server/net/net.h"
#include "server/service/service.h"

namespace hisha::engine {
class Engine;
}

namespace hisha::server::net {

class Bot : public service::Listener, public std::enable_shared_from_this<Bot> {
public:
    Bot(service::Service& svc, asio::io_context& ioc, std::string name, int skill);
    ~Bot() override;
    void start();  // connects and looks at the games already waiting for it
    /// Looks at its games and the challenges naming it (on a database shared by several
    /// servers, those of every server: the events of games made elsewhere may not reach it).
    void poll();
    void deliver(const service::Event& e) override;
    void stop();

private:
    void consider(std::int64_t game_id);
    void think_next();

    service::Service& svc_;
    asio::io_context& ioc_;
    std::string name_;
    std::unique_ptr<engine::Engine> engine_;
    std::deque<std::int64_t> queue_;
    std::int64_t thinking_ = 0;
    bool stopped_ = false;
};

/// "name=skill,name=skill": the bots of a server ("" for none).
std::vector<std::pair<std::string, int>> parse_bots(const std::string& spec);

}  // namespace hisha::server::net
