// Server: the process around the service. One io_context on one thread runs every session,
// the service and its timers (no locks, Redis-style); listeners for the text, CSA and HTTP
// ports; SIGINT/SIGTERM stop it gracefully (listeners close, sessions are told, the store is
// left consistent: every acknowledged move was already committed).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "server/net/job_queue.h"
#include "server/service/mail.h"
#include "server/service/service.h"

namespace hisha::server::net {

struct ServerOptions {
    std::string db = "sqlite:var/hisha.db";
    std::string bind = "127.0.0.1";
    int text_port = 5000;  // -1: off; 0: any free port
    int csa_port = 4081;
    int http_port = 8080;
    std::string static_dir;  // files served over HTTP (web/dist)
    std::string puzzles;     // --puzzles FILE: tsume puzzles (`hisha puzzles` lines), "" none
    service::Config config;
    std::size_t max_connections_per_address = 64;
    int idle_timeout_s = 3600;        // text and CSA connections without a complete line this long are closed
    int line_timeout_s = 60;          // ... and those that take longer to finish a line they began (0: no limit)
    double commands_per_second = 20;  // per text/CSA connection and HTTP connection, bursts of 3 s (0: none)
    JobQueue::Options jobs;           // tsume solves and analyses: workers, queue, per account
    std::string bots = "hisha-10kyu=5,hisha-1dan=15,hisha-max=20";  // name=Skill,...; "" none
    std::vector<std::string> public_origins;   // the web page's origins behind a proxy (none: the Host's)
    std::vector<std::string> trusted_proxies;  // reverse proxies whose X-Forwarded-For names the client
    service::MailConfig mail;                  // --smtp-*: mail notifications (no host: none)
};

/// Runs the server until a signal (or stop()); prints "listening <proto> <addr>:<port>" lines.
/// Returns the process exit code.
int run_server(const ServerOptions& options);

}  // namespace hisha::server::net
