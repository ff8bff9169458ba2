// Metrics in Prometheus' text exposition format (version 0.0.4): one HELP and TYPE line per
// family, then its samples.
#include "server/net/metrics.h"

#include <cstdio>

#include "server/net/job_queue.h"
#include "server/service/service.h"

namespace hisha::server::net {

namespace {

std::string number(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

void family(std::string& out, std::string_view name, std::string_view type, std::string_view help) {
    out.append("# HELP ").append(name).append(" ").append(help).append("\n");
    out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

void sample(std::string& out, std::string_view name, std::string_view labels, double v) {
    out.append(name);
    if (!labels.empty())
        out.append("{").append(labels).append("}");
    out.append(" ").append(number(v)).append("\n");
}

// The scheduled tournaments: rounds run and games paired since the start, players waiting now
// (a pattern has no quote or backslash: it needs no escaping as a label).
void tournament_metrics(std::string& out, service::Service& svc) {
    auto tournaments = svc.tournaments();
    if (tournaments.empty())
        return;
    family(out, "hisha_tournament_rounds_total", "counter", "Rounds of each scheduled tournament since the start.");
    for (auto& t : tournaments)
        sample(out, "hisha_tournament_rounds_total", "tournament=\"" + t.spec.pattern + "\"", double(t.rounds));
    family(out, "hisha_tournament_games_total", "counter", "Games paired by each tournament's rounds since the start.");
    for (auto& t : tournaments)
        sample(out, "hisha_tournament_games_total", "tournament=\"" + t.spec.pattern + "\"", double(t.games));
    family(out, "hisha_tournament_waiting", "gauge", "Players waiting for each tournament's next round.");
    for (auto& t : tournaments)
        sample(out, "hisha_tournament_waiting", "tournament=\"" + t.spec.pattern + "\"", double(t.waiting.size()));
}

}  // namespace

Metrics& metrics() {
    static Metrics m;
    return m;
}

void Histogram::observe(double value, std::uint64_t times) {
    std::size_t i = 0;
    while (i < bounds_.size() && value > bounds_[i])
        ++i;
    counts_[i] += times;
    sum_ += value * double(times);
    count_ += times;
}

void Histogram::write(std::string& out, std::string_view name, std::string_view help) const {
    family(out, name, "histogram", help);
    std::string bucket = std::string(name) + "_bucket";
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < bounds_.size(); ++i) {
        cumulative += counts_[i];
        sample(out, bucket, "le=\"" + number(bounds_[i]) + "\"", double(cumulative));
    }
    sample(out, bucket, "le=\"+Inf\"", double(count_));
    sample(out, std::string(name) + "_sum", "", sum_);
    sample(out, std::string(name) + "_count", "", double(count_));
}

std::string metrics_text(service::Service& svc, const JobQueue& jobs) {
    std::string out;
    const Metrics& m = metrics();
    family(out, "hisha_connections", "gauge", "Connections open, by protocol.");
    for (auto& [protocol, n] : m.connections)
        sample(out, "hisha_connections", "protocol=\"" + protocol + "\"", double(n));
    family(out, "hisha_players_online", "gauge", "Players logged in on this server.");
    sample(out, "hisha_players_online", "", double(svc.who("*").size()));
    family(out, "hisha_games_in_progress", "gauge", "Games being played on this server.");
    sample(out, "hisha_games_in_progress", "", double(svc.games_in_progress()));
    family(out, "hisha_moves_total", "counter", "Moves played on this server since it started.");
    sample(out, "hisha_moves_total", "", double(svc.moves_played()));
    tournament_metrics(out, svc);
    m.move_seconds.write(out, "hisha_move_latency_seconds",
                         "From a move's group-commit batch taking its first write to the batch on disk.");
    m.relay_seconds.write(out, "hisha_move_relay_seconds",
                          "From a move given to the server's service (its line, request or WebSocket message read "
                          "and parsed) to its relay handed to the opponent's connection, the group commit included.");
    m.commit_seconds.write(out, "hisha_db_commit_seconds", "A group-commit batch's commit and sync.");
    family(out, "hisha_hash_queue_depth", "gauge", "Password hashes and checks waiting or running.");
    sample(out, "hisha_hash_queue_depth", "", double(svc.hashes_pending()));
    family(out, "hisha_solver_jobs", "gauge", "Tsume solves and analyses, running or waiting for a thread.");
    sample(out, "hisha_solver_jobs", "state=\"running\"", double(jobs.running()));
    sample(out, "hisha_solver_jobs", "state=\"waiting\"", double(jobs.waiting()));
    family(out, "hisha_limited_total", "counter", "Requests refused by each limit since the start.");
    const service::AttemptCounters& a = svc.attempt_counters();
    for (service::Limit l :
         {service::Limit::LoginAddress, service::Limit::LoginAccount, service::Limit::RegisterAddress,
          service::Limit::LoginBackoffAddress, service::Limit::LoginBackoffAccount, service::Limit::NewGameAccount,
          service::Limit::RequestAddress, service::Limit::RequestAccount})
        sample(out, "hisha_limited_total", std::string("limit=\"") + service::limit_name(l) + "\"", double(a.count(l)));
    sample(out, "hisha_limited_total", "limit=\"hash_queue\"", double(a.busy));
    sample(out, "hisha_limited_total", "limit=\"jobs_per_account\"", double(jobs.counters().refused_account));
    sample(out, "hisha_limited_total", "limit=\"job_queue\"", double(jobs.counters().refused_busy));
    for (auto& [limit, n] : m.limited)
        sample(out, "hisha_limited_total", "limit=\"" + limit + "\"", double(n));
    return out;
}

}  // namespace hisha::server::net
