// OutputGate: group commit's half on the network side. While the service has writes in an
// open batch, no session may write to its socket (a reply is an acknowledgement); sessions
// park a callback here and the commit releases them. Single-threaded, like the event loop.
#pragma once

#include <functional>
#include <vector>

#include "server/service/service.h"

namespace hisha::server::net {

class OutputGate {
public:
    void attach(service::Service* svc) { svc_ = svc; }
    bool closed() const { return svc_ && svc_->batch_open(); }
    void hold(std::function<void()> f) { held_.push_back(std::move(f)); }
    void release() {
        auto held = std::move(held_);
        held_.clear();
        for (auto& f : held)
            f();
    }

private:
    service::Service* svc_ = nullptr;
    std::vector<std::function<void()>> held_;
};

/// The process's gate (one server per process).
OutputGate& output_gate();

}  // namespace hisha::server::net
