// JobQueue: admission (per-account quota, bounded queue), the retry estimate of a refusal from
// the running jobs' deadlines, and starting waiting jobs in order as workers come free.
#include "server/net/job_queue.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include "server/service/log.h"

namespace hisha::server::net {

JobQueue::JobQueue(Options options, Clock now) : options_(options), clock_(std::move(now)) {
    options_.workers = std::max(1, options_.workers);
    options_.per_account = std::max<std::size_t>(1, options_.per_account);
}

std::int64_t JobQueue::now() const {
    if (clock_)
        return clock_();
    using namespace std::chrono;
    return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

std::int64_t JobQueue::first_free_ms(std::int64_t t) const {
    if (int(running_.size()) < options_.workers)
        return 0;
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    for (auto& [id, r] : running_)
        first = std::min(first, r.deadline - t);
    return std::max<std::int64_t>(0, first);
}

JobQueue::Admission JobQueue::submit(const std::string& account, std::string_view kind, std::string_view peer,
                                     std::int64_t max_ms, std::function<void()> start) {
    Admission a;
    std::int64_t t = now();
    std::size_t mine = 0;
    std::int64_t mine_done_ms = 0;  // when the account's own job (the first of them) is over
    for (auto& [id, r] : running_)
        if (r.account == account && mine++ == 0)
            mine_done_ms = r.deadline - t;
    for (std::size_t i = 0; i < waiting_.size(); ++i)
        if (waiting_[i].account == account && mine++ == 0)
            mine_done_ms = first_free_ms(t) + waiting_[i].max_ms;  // (roughly: it may wait for more)
    if (mine >= options_.per_account) {
        a.refusal = Refusal::Account;
        ++counters_.refused_account;
    } else if (int(running_.size()) >= options_.workers && waiting_.size() >= options_.queue) {
        a.refusal = Refusal::Busy;
        ++counters_.refused_busy;
    }
    if (a.refusal != Refusal::None) {
        std::int64_t wait = a.refusal == Refusal::Account ? mine_done_ms : first_free_ms(t);
        a.retry_after_s = int(std::max<std::int64_t>(1, (wait + 999) / 1000));
        std::string in = std::to_string(a.retry_after_s);
        a.error = a.refusal == Refusal::Account
                    ? "you have " + std::string(options_.per_account == 1 ? "a job" : "as many jobs as allowed")
                          + " running already (a tsume or an analysis): retry in " + in + " s"
                    : "server busy, retry in " + in + " s";
        bool quota = a.refusal == Refusal::Account;
        std::string refused = std::to_string(quota ? counters_.refused_account : counters_.refused_busy);
        log_event("limited", {{"limit", quota ? "jobs_per_account" : "job_queue"},
                              {"kind", kind},
                              {"peer", peer},
                              {"name", account},
                              {"retry_after_s", in},
                              {"refused", refused}});
        return a;
    }
    a.id = next_id_++;
    waiting_.push_back({a.id, account, max_ms, std::move(start)});
    start_waiting();
    return a;
}

void JobQueue::start_waiting() {
    if (starting_)
        return;  // the outer call goes on with the queue
    starting_ = true;
    while (!stopped_ && int(running_.size()) < options_.workers && !waiting_.empty()) {
        Waiting w = std::move(waiting_.front());
        waiting_.pop_front();
        running_[w.id] = {w.account, now() + w.max_ms};
        ++counters_.started;
        w.start();  // may finish() this job (or another) at once
    }
    starting_ = false;
}

void JobQueue::finish(std::uint64_t id) {
    if (running_.erase(id) == 0)
        std::erase_if(waiting_, [id](const Waiting& w) { return w.id == id; });
    start_waiting();
}

void JobQueue::restart(std::uint64_t id, std::int64_t max_ms) {
    if (auto it = running_.find(id); it != running_.end())
        it->second.deadline = now() + max_ms;
}

}  // namespace hisha::server::net
