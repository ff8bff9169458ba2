// OutputGate: group commit's half on the network side. A reply is an acknowledgement, so no
// output made while a batch of writes is open, or committed but not yet on disk, may reach a
// socket before that batch is durable. Batches are numbered; output is tagged with ticket()
// when it is made (the batch it may depend on) and written once durable(ticket) holds;
// sessions park a callback with hold() and the gate runs it when that batch is on disk.
// Batches are pipelined: batch N is synced while batch N+1 collects, and output of batch N
// goes out as soon as N is durable. Single-threaded, like the event loop.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <utility>

#include "server/service/service.h"

namespace hisha::server::net {

class OutputGate {
public:
    using Ticket = std::uint64_t;
    void attach(service::Service* svc) { svc_ = svc; }
    /// The batch that output made now depends on: the open one, else the last committed one.
    Ticket ticket() const { return svc_ && svc_->batch_open() ? committed_ + 1 : committed_; }
    bool durable(Ticket t) const { return t <= durable_; }
    /// True when output made now would have to wait.
    bool closed() const { return !durable(ticket()); }
    /// Runs `f` once batch `t` is durable (at once if it is).
    void hold(Ticket t, std::function<void()> f) {
        if (durable(t))
            return f();
        held_.emplace(t, std::move(f));  // after those of the same batch held before
    }
    /// The open batch was committed (its number is the new committed count).
    Ticket committed() { return ++committed_; }
    /// Batches up to `t` are durable: their output is released, in order.
    void made_durable(Ticket t) {
        if (t > durable_)
            durable_ = t;
        while (!held_.empty() && held_.begin()->first <= durable_) {
            auto f = std::move(held_.begin()->second);
            held_.erase(held_.begin());
            f();
        }
    }

    /// At the end of a server's run, while its io_context still exists: drops the output
    /// still held (it can no longer be written; the sessions it holds close their sockets
    /// now, not after the io_context is gone) and forgets the service.
    void reset() {
        held_.clear();
        committed_ = durable_ = 0;
        svc_ = nullptr;
    }

private:
    service::Service* svc_ = nullptr;
    Ticket committed_ = 0, durable_ = 0;
    std::multimap<Ticket, std::function<void()>> held_;
};

/// The process's gate (one server per process).
OutputGate& output_gate();

}  // namespace hisha::server::net
