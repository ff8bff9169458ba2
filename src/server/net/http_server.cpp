// HTTP sessions, WebSocket sessions and static files (the one translation unit that includes
// Beast).
#include "server/net/http_server.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>

#include "core/text.h"
#include "core/version.h"
#include "engine/engine.h"
#include "engine/value.h"
#include "server/net/below_loop.h"
#include "server/net/http_request.h"
#include "server/net/job_queue.h"
#include "server/net/metrics.h"
#include "server/net/output_gate.h"
#include "server/net/static_files.h"
#include "server/net/token_bucket.h"
#include "server/net/tsume_explain_json.h"
#include "server/proto/json_api.h"
#include "server/proto/json_text.h"
#include "server/service/log.h"
#include "tsume/solver.h"

namespace hisha::server::net {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using proto::json_text;

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

}  // namespace

// A WebSocket connection of a logged-in user: JSON messages in, replies and events out, one
// write in flight.
class WsSession : public service::Listener, public std::enable_shared_from_this<WsSession> {
public:
    WsSession(tcp::socket socket, HttpServer::Impl& server, std::string user, std::string peer, std::string token,
              std::shared_ptr<void> slot);
    void start(http::request<http::string_body> req);
    void deliver(const service::Event& e) override;
    ~WsSession() override {
        stop_analysis();
        end_job();
        if (engine_)
            --*engines_;
    }
    void send(std::string text);
    // The session ended on the server's side (log out, a ban, a kick): the client is told
    // {"type":"session_ended","reason":...}, then the socket closes with code 4401.
    void end_session(const std::string& why) override;
    // The server stops (SIGTERM): the client is told {"type":"shutdown","message":...}, then the
    // socket closes with code 1001 (going away); the session stays good for the restart.
    void shut_down();
    void close() {
        boost::system::error_code ec;
        beast::get_lowest_layer(ws_).socket().close(ec);
    }

private:
    asio::awaitable<void> run(http::request<http::string_body> req);
    void pump();
    // Analysis: the engine searches a position sent by the client; its lines stream back as
    // {"type":"analysis"} messages, the end as {"type":"analysis_done"}. Each analysis is a job
    // of the server's JobQueue (shared with the tsume solver): it waits for a worker, and a new
    // position sent meanwhile replaces the one waiting or the one being searched.
    void analyze(const nlohmann::json& in);
    void search();  // the job's worker is ours: search the latest position asked for
    void stop_analysis() {
        if (engine_) {
            engine_->stop();
            engine_->wait();
        }
    }
    void end_job() {  // the job is over (or given up while it waited): the worker goes on
        if (job_)
            jobs_->finish(std::exchange(job_, 0));
    }
    void on_info(int id, const engine::SearchInfo& info);
    void on_done(int id, const engine::SearchResult& r);
    nlohmann::json line_json(const std::vector<core::Move>& pv) const;

    std::unique_ptr<engine::Engine> engine_;
    std::shared_ptr<int> engines_;  // the server's count of analysis engines (shared: outlives either side)
    std::string analysis_sfen_;
    int analysis_id_ = 0;
    nlohmann::json analysis_tag_;
    std::shared_ptr<JobQueue> jobs_;  // the server's (shared: outlives either side)
    std::uint64_t job_ = 0;           // the analysis job, waiting or running (0: none)
    bool searching_ = false;          // the engine searches for the job
    int search_id_ = 0;               // the analysis_id_ of that search
    std::string peer_;                // the client's address
    std::string token_;               // the session token that opened it, until connect()
    std::string pending_sfen_;        // what the job searches when it starts
    int pending_multipv_ = 1, pending_ms_ = 10000;

    OpenConnection counted_{"websocket"};  // in /metrics while it lives
    websocket::stream<beast::tcp_stream> ws_;
    HttpServer::Impl& server_;
    std::string user_;
    std::deque<std::pair<std::shared_ptr<const std::string>, std::uint64_t>> queue_;  // text, OutputGate ticket
    bool open_ = false, writing_ = false, parked_ = false, ending_ = false;
    websocket::close_reason farewell_{websocket::close_code(4401), "session ended"};  // sent once ending_
    TokenBucket bucket_;          // the client's messages, as fast as an HTTP connection's requests
    std::shared_ptr<void> slot_;  // its address's count of connections, while it lives
};

// Waits until the gate opens (the writes of the open batch are durable).
asio::awaitable<void> gate_open() {
    auto ticket = output_gate().ticket();
    if (output_gate().durable(ticket))
        co_return;
    auto ex = co_await asio::this_coro::executor;
    auto timer = std::make_shared<asio::steady_timer>(ex, asio::steady_timer::time_point::max());
    output_gate().hold(ticket, [timer] { timer->cancel(); });
    co_await timer->async_wait(use_tuple);
}

struct HttpServer::Impl {
    service::Service& svc;
    asio::io_context& ioc;
    std::string static_dir;
    StaticFiles files;  // static_dir's, read once
    proto::JsonApi api;
    tcp::acceptor* acceptor = nullptr;
    std::set<std::weak_ptr<WsSession>, std::owner_less<std::weak_ptr<WsSession>>> sockets;
    bool stopping = false;
    // Analysis engines (one per WebSocket session that asked for one), at most MAX_ANALYSIS.
    static constexpr int MAX_ANALYSIS = 8;
    std::shared_ptr<int> analysis_engines = std::make_shared<int>(0);
    // Tsume solves and analyses: a job each, on jobs->options().workers workers at once. A
    // solve runs on a thread of solver_pool (one per worker, each with its own solver), an
    // analysis on its session's engine thread.
    std::shared_ptr<JobQueue> jobs;
    asio::thread_pool solver_pool;
    std::atomic<bool> stop_solver{false};

    double requests_per_second;        // per connection (0: no limit)
    std::vector<std::string> origins;  // --public-origin: the page's origins (none: the Host's)
    std::vector<std::string> proxies;  // --trusted-proxy: whose X-Forwarded-For names the client
    std::size_t max_per_address;       // --max-per-address: open connections (WebSockets too)
    std::shared_ptr<std::map<std::string, std::size_t>> per_address =
        std::make_shared<std::map<std::string, std::size_t>>();

    Impl(service::Service& s, asio::io_context& i, std::string dir, double rate, JobQueue::Options job_options,
         std::vector<std::string> public_origins, std::vector<std::string> trusted_proxies, std::size_t max_conns)
        : svc(s), ioc(i), static_dir(std::move(dir)), files(static_dir), api(s),
          jobs(std::make_shared<JobQueue>(job_options)), solver_pool(std::size_t(jobs->options().workers)),
          requests_per_second(rate), origins(std::move(public_origins)), proxies(std::move(trusted_proxies)),
          max_per_address(max_conns) {}

    // A refusal before the request is served (401, 403), closing the connection when `close`.
    static http::response<http::string_body> refusal(const http::request<http::string_body>& req, http::status status,
                                                     const std::string& why, bool close) {
        http::response<http::string_body> res{status, req.version()};
        res.set(http::field::server, std::string("hisha-server/") + version());
        res.set(http::field::content_type, "application/json");
        res.body() = json_text(nlohmann::json{{"error", why}});
        res.keep_alive(!close && req.keep_alive());
        res.prepare_payload();
        return res;
    }

    // CSRF: a request authenticated by the session cookie that may change something (anything
    // but GET and HEAD) needs the page's own header, which another site's page cannot send, and
    // an Origin (when the browser sends one) of this server. Bearer tokens are never sent by a
    // browser on its own: they need neither. The reason when refused, else "".
    std::string cross_site(const http::request<http::string_body>& req, const Credential& cred) const {
        if (!cred.from_cookie || req.method() == http::verb::get || req.method() == http::verb::head)
            return {};
        if (req[std::string(proto::CSRF_HEADER)].empty())
            return "cross-site request refused: a request with the session cookie needs the header "
                 + std::string(proto::CSRF_HEADER) + ": 1";
        if (!same_origin(req, origins, true))
            return "cross-site request refused: Origin " + std::string(req[http::field::origin])
                 + " is not this server's";
        return {};
    }
    ~Impl() {
        jobs->stop();
        stop_solver = true;
        solver_pool.join();
    }

    // A job of the solver's queue (one per account, a bounded queue): admitted now or refused
    // (the Admission says why); an admitted job's turn is awaited (a worker is free for it).
    asio::awaitable<JobQueue::Admission> solver_turn(std::string account, std::string kind, std::string peer,
                                                     std::int64_t max_ms) {
        auto ex = co_await asio::this_coro::executor;
        auto turn = std::make_shared<asio::steady_timer>(ex, asio::steady_timer::time_point::max());
        auto started = std::make_shared<bool>(false);
        JobQueue::Admission job = jobs->submit(account, kind, peer, max_ms, [turn, started] {
            *started = true;
            turn->cancel();
        });
        if (job && !*started)
            co_await turn->async_wait(use_tuple);
        co_return job;
    }

    // POST /api/tsume {sfen, moves, convention: tsume|ordinary, time_limit_s, explain}, with a login:
    // {status: mate|nomate|timeout|error, length, exact, moves, nodes, time_ms, unique, error},
    // and with "explain": true the other defences and the yozume report (tsume_explain_json.h),
    // each question bounded by 200,000 nodes and all of them by time_limit_s more;
    // 401 without a login, 429 when the account has a job already, 503 when the queue is full.
    asio::awaitable<http::response<http::string_body>> tsume(const http::request<http::string_body>& req,
                                                             const std::string& peer) {
        using nlohmann::json;
        http::response<http::string_body> res;
        res.version(req.version());
        res.keep_alive(req.keep_alive());
        res.set(http::field::server, std::string("hisha-server/") + version());
        res.set(http::field::content_type, "application/json");
        auto user = svc.token_user(credential(req).token);
        if (!user) {
            res.result(http::status::unauthorized);
            res.body() =
                json_text(json{{"error", "log in first (Authorization: Bearer <token>, or the session cookie)"}});
            res.prepare_payload();
            co_return res;
        }
        json in = json::parse(req.body(), nullptr, false);
        std::string err;
        std::shared_ptr<core::Position> pos;
        if (in.is_discarded() || !in.is_object())
            err = "the body is not a JSON object";
        else if (in.contains("explain") && !in["explain"].is_boolean())
            err = "explain is true or false";
        else
            pos = proto::JsonApi::read_position(in, err);
        if (!pos) {
            res.result(http::status::bad_request);
            res.body() = json_text(json{{"error", err}});
            res.prepare_payload();
            co_return res;
        }
        tsume::Limits limits;
        auto t_it = in.find("time_limit_s");
        double t = t_it != in.end() && t_it->is_number() ? t_it->get<double>() : 10.0;
        limits.time_limit_s = std::clamp(std::isfinite(t) ? t : 10.0, 0.1, 60.0);
        limits.memory_mb = 64;
        auto conv = in.find("convention");
        limits.convention = conv != in.end() && conv->is_string() && *conv == "ordinary" ? tsume::Convention::Ordinary
                                                                                         : tsume::Convention::Tsume;
        limits.stop = &stop_solver;
        if (limits.convention == tsume::Convention::Tsume)
            tsume::complete_defender_hand(*pos);
        auto ex_it = in.find("explain");
        const bool explain = ex_it != in.end() && ex_it->is_boolean() && ex_it->get<bool>();
        const tsume::ExplainBudget budget{200'000, 0, explain ? limits.time_limit_s : 0};
        // A worker of its own, now or once one is free.
        // (named locals: GCC 12 destroys temporaries of a co_await expression twice)
        auto turn = solver_turn(service::name_key(*user), "tsume", peer,
                                std::llround(limits.time_limit_s * (explain ? 2000 : 1000)) + 1000);
        JobQueue::Admission job = co_await std::move(turn);
        if (!job) {
            bool busy = job.refusal == JobQueue::Refusal::Busy;
            res.result(busy ? http::status::service_unavailable : http::status::too_many_requests);
            res.set(http::field::retry_after, std::to_string(job.retry_after_s));
            res.body() = json_text(json{{"error", job.error}, {"retry_after_s", job.retry_after_s}});
            res.prepare_payload();
            co_return res;
        }
        // The work and the awaitable are named locals: GCC 12 destroys temporaries of a co_await
        // expression twice, which freed the position under the solver.
        core::Position* problem = pos.get();
        auto work = [problem, limits, explain, budget]() -> asio::awaitable<tsume::Explanation> {
            run_below_the_loop("solver");       // a flood of problems takes what the loop leaves
            thread_local tsume::Solver solver;  // one per worker thread, its table kept
            tsume::Explanation e;
            if (explain)
                e = tsume::explain(*problem, limits, budget, solver);
            else
                e.main = solver.solve(*problem, limits);
            co_return e;
        };
        auto solving = asio::co_spawn(solver_pool, std::move(work), asio::use_awaitable);
        tsume::Explanation explanation = co_await std::move(solving);
        jobs->finish(job.id);
        json j = tsume_api_json(*pos, explanation, explain);
        res.body() = json_text(j);
        res.prepare_payload();
        co_return res;
    }

    static http::response<http::string_body> response_to(const http::request<http::string_body>& req) {
        http::response<http::string_body> res;
        res.version(req.version());
        res.keep_alive(req.keep_alive());
        res.set(http::field::server, std::string("hisha-server/") + version());
        return res;
    }

    static http::response<http::string_body> api_response(const http::request<http::string_body>& req,
                                                          proto::HttpReply r) {
        auto res = response_to(req);
        res.result(r.status);
        res.set(http::field::content_type, r.content_type);
        if (!r.set_cookie.empty())
            res.set(http::field::set_cookie, r.set_cookie + (over_https(req) ? "; Secure" : ""));
        if (!r.filename.empty())
            res.set(http::field::content_disposition, "attachment; filename=\"" + r.filename + "\"");
        if (r.retry_after_s > 0)
            res.set(http::field::retry_after, std::to_string(r.retry_after_s));
        res.body() = std::move(r.body);
        res.prepare_payload();
        return res;
    }

    // GET /healthz: 200 {"ok":true,"database":true} while the database answers, else 503 with
    // {"ok":false,"database":false,"error":...}.
    http::response<http::string_body> health(const http::request<http::string_body>& req) {
        auto res = response_to(req);
        bool db = svc.store_reachable();
        nlohmann::json j{{"ok", db}, {"database", db}, {"version", version()}};
        if (!db)
            j["error"] = svc.store_error();
        res.result(db ? http::status::ok : http::status::service_unavailable);
        res.set(http::field::content_type, "application/json");
        res.set(http::field::cache_control, "no-store");
        res.body() = json_text(j);
        return res;
    }

    // A reply that needs the solver (HttpReply::deferred: a puzzle's attempt or hint): a job of
    // the solver's queue like POST /api/tsume (one per account, 429/503 past the queue's limits),
    // its work on a solver thread below the loop's priority, its reply made back on the loop.
    asio::awaitable<http::response<http::string_body>> run_deferred(const http::request<http::string_body>& req,
                                                                    const std::string& peer,
                                                                    std::shared_ptr<proto::HttpReply::Deferred> d) {
        auto turn = solver_turn(service::name_key(d->account), d->kind, peer, d->max_ms);
        JobQueue::Admission job = co_await std::move(turn);
        if (!job) {
            proto::HttpReply r;
            r.status = job.refusal == JobQueue::Refusal::Busy ? 503 : 429;
            r.body = json_text(nlohmann::json{{"error", job.error}, {"retry_after_s", job.retry_after_s}});
            r.retry_after_s = job.retry_after_s;
            co_return api_response(req, std::move(r));
        }
        auto work = [d]() -> asio::awaitable<void> {
            run_below_the_loop("solver");
            thread_local tsume::Solver solver;  // one per worker thread, its table kept
            d->work(solver);
            co_return;
        };
        auto running = asio::co_spawn(solver_pool, std::move(work), asio::use_awaitable);
        co_await std::move(running);
        jobs->finish(job.id);
        co_return api_response(req, d->then());
    }

    http::response<http::string_body> respond(const http::request<http::string_body>& req, const std::string& peer,
                                              std::shared_ptr<proto::HttpReply::Deferred>* deferred = nullptr) {
        std::string target(req.target());
        std::string path = target.substr(0, target.find('?'));
        if (path == "/healthz" || path == "/metrics") {
            auto res = response_to(req);
            if (req.method() != http::verb::get && req.method() != http::verb::head) {
                res.result(http::status::method_not_allowed);
                res.set(http::field::allow, "GET, HEAD");
            } else if (path == "/healthz") {
                res = health(req);
            } else {
                res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
                res.set(http::field::cache_control, "no-store");
                res.body() = metrics_text(svc, *jobs);
            }
            if (req.method() == http::verb::head)
                res.body().clear();
            res.prepare_payload();
            return res;
        }
        if (target.starts_with("/api/")) {
            proto::HttpReply r;
            try {
                r = api.handle(std::string(req.method_string()), target, req.body(), credential(req).token, peer);
                if (r.deferred && deferred) {  // the caller runs it (run_deferred)
                    *deferred = std::move(r.deferred);
                    return {};
                }
                if (r.deferred) {  // (no caller that runs it: refused, never run on the loop)
                    r.deferred.reset();
                    r.status = 503;
                    r.body = json_text(nlohmann::json{{"error", "the solver's queue is not reachable here"}});
                }
            } catch (const std::exception& e) {  // a field of the wrong JSON type
                r = {400,
                     json_text(nlohmann::json{{"error", std::string("bad request: ") + e.what()}}),
                     "application/json",
                     {}};
            }
            return api_response(req, std::move(r));
        }
        auto res = response_to(req);
        serve_file(req, res, target);
        res.prepare_payload();
        return res;
    }

    // A request answered when a password check is back (login, register), or else at once.
    asio::awaitable<http::response<http::string_body>> answer(const http::request<http::string_body>& req,
                                                              const std::string& peer) {
        auto ex = co_await asio::this_coro::executor;
        auto timer = std::make_shared<asio::steady_timer>(ex, asio::steady_timer::time_point::max());
        auto answered = std::make_shared<std::optional<proto::HttpReply>>();
        bool waits = false;
        try {
            waits = api.account(std::string(req.method_string()), std::string(req.target()), req.body(), peer,
                                credential(req).token, [timer, answered](proto::HttpReply r) {
                                    *answered = std::move(r);
                                    timer->cancel();
                                });
        } catch (const std::exception& e) {  // a field of the wrong JSON type
            *answered = proto::HttpReply{400,
                                         json_text(nlohmann::json{{"error", std::string("bad request: ") + e.what()}}),
                                         "application/json",
                                         {}};
            waits = true;
        }
        if (!waits) {
            std::shared_ptr<proto::HttpReply::Deferred> deferred;
            auto res = respond(req, peer, &deferred);
            if (!deferred)
                co_return res;
            co_return co_await run_deferred(req, peer, std::move(deferred));
        }
        if (!*answered)
            co_await timer->async_wait(use_tuple);
        co_return api_response(req, std::move(**answered));
    }

    void serve_file(const http::request<http::string_body>& req, http::response<http::string_body>& res,
                    std::string target) {
        target = target.substr(0, target.find('?'));
        if (req.method() != http::verb::get && req.method() != http::verb::head) {
            res.result(http::status::method_not_allowed);
            res.body() = "method not allowed\n";
            return;
        }
        if (static_dir.empty()) {  // started without the web UI's files: say so, and how to fix it
            res.result(http::status::not_found);
            res.set(http::field::content_type, "text/plain; charset=utf-8");
            res.body() = "This hisha-server serves only its API (/api/): the web UI's files were not found when it "
                         "started. Install Hisha (cmake --install) or start the server with --static DIR "
                         "(`make web` writes web/dist).\n";
            return;
        }
        const StaticFiles::File* f = files.find(target);
        if (!f) {
            res.result(http::status::not_found);
            res.set(http::field::content_type, "text/plain; charset=utf-8");
            res.body() = "not found\n";
            return;
        }
        res.set(http::field::etag, f->etag);
        res.set(http::field::cache_control, f->cache_control);
        if (StaticFiles::matches(req[http::field::if_none_match], f->etag)) {
            res.result(http::status::not_modified);
            return;
        }
        res.set(http::field::content_type, f->content_type);
        if (req.method() == http::verb::get)
            res.body() = f->body;
    }

    // An open connection of an address (a WebSocket's for as long as it lives), counted against
    // --max-per-address; a trusted proxy's connections are not counted.
    struct AddressSlot {
        std::shared_ptr<std::map<std::string, std::size_t>> counts;  // (shared: outlives either side)
        std::string address;
        ~AddressSlot() {
            if (counts && --(*counts)[address] == 0)
                counts->erase(address);
        }
    };

    // A new connection of `peer`: its slot, or null when it was refused (403 to a banned address,
    // 503 past --max-per-address; said and closed before anything is read).
    asio::awaitable<std::shared_ptr<AddressSlot>> admit(tcp::socket& socket, const std::string& peer, bool via_proxy) {
        auto slot = std::make_shared<AddressSlot>();
        if (via_proxy)  // (banned clients are refused request by request)
            co_return slot;
        const BanRow* ban = svc.ban_of_address(peer);
        if (!ban && (*per_address)[peer] < max_per_address) {
            ++(*per_address)[peer];
            slot->counts = per_address;
            slot->address = peer;
            co_return slot;
        }
        if (ban)
            log_event("refused", {{"peer", peer}, {"reason", "banned address"}, {"ban", ban->target}});
        else {
            log_event("refused", {{"peer", peer}, {"reason", "too many connections from this address"}});
            ++metrics().limited["connections_per_address"];
        }
        std::string body =
            ban ? R"({"error":"your address is banned"})" : R"({"error":"too many connections from your address"})";
        std::string refused = std::string(ban ? "HTTP/1.1 403 Forbidden" : "HTTP/1.1 503 Service Unavailable")
                            + "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size())
                            + "\r\nConnection: close\r\n\r\n" + body;
        co_await asio::async_write(socket, asio::buffer(refused), use_tuple);
        boost::system::error_code ec;
        socket.shutdown(tcp::socket::shutdown_both, ec);
        co_return nullptr;
    }

    asio::awaitable<void> session(tcp::socket socket) {
        auto open = std::make_unique<OpenConnection>("http");  // (a WebSocket counts as such instead)
        boost::system::error_code pec;
        std::string peer = socket.remote_endpoint(pec).address().to_string();
        const bool via_proxy = std::find(proxies.begin(), proxies.end(), peer) != proxies.end();
        std::shared_ptr<AddressSlot> slot = co_await admit(socket, peer, via_proxy);
        if (!slot)
            co_return;
        beast::tcp_stream stream(std::move(socket));
        beast::flat_buffer buffer;
        TokenBucket bucket(requests_per_second, std::max(10.0, requests_per_second * 3));
        bucket.describe("http", peer);
        for (;;) {
            if (auto wait = bucket.wait(); wait.count() > 0) {  // too fast: the next request waits
                asio::steady_timer pause(stream.get_executor(), wait);
                co_await pause.async_wait(use_tuple);
            }
            bucket.take();
            http::request_parser<http::string_body> parser;
            parser.header_limit(16 * 1024);
            parser.body_limit(64 * 1024);
            stream.expires_after(std::chrono::seconds(60));
            auto [ec, n] = co_await http::async_read(stream, buffer, parser, use_tuple);
            if (ec == http::error::end_of_stream || ec == asio::error::eof || ec == beast::error::timeout
                || ec == asio::error::connection_reset || ec == asio::error::operation_aborted)
                break;
            if (ec) {  // malformed: answer 400 and close (Redis: protocol error, then close)
                http::response<http::string_body> res{http::status::bad_request, 11};
                res.set(http::field::content_type, "application/json");
                res.body() = R"({"error":"bad request: )" + ec.message() + "\"}";
                res.keep_alive(false);
                res.prepare_payload();
                secure(res);
                co_await http::async_write(stream, res, use_tuple);
                break;
            }
            http::request<http::string_body> req = parser.release();
            // The client's address: for bans, limits, the log and the admin's list of connections.
            const std::string client = via_proxy ? forwarded_client(req, peer) : peer;
            if (const BanRow* b = via_proxy ? svc.ban_of_address(client) : nullptr) {
                log_event("refused", {{"peer", client}, {"reason", "banned address"}, {"ban", b->target}});
                auto res = refusal(req, http::status::forbidden, "your address is banned", true);
                secure(res);
                co_await http::async_write(stream, res, use_tuple);
                break;
            }
            Credential cred = credential(req);
            if (websocket::is_upgrade(req)) {
                // The web page's socket carries the session cookie: its Origin must be this server
                // (a WebSocket is not held to the same-origin policy, so a page of another site
                // could open one with the visitor's cookie otherwise). A script sends a Bearer token.
                std::string target(req.target());
                target = target.substr(0, target.find('?'));
                std::optional<std::string> user;
                http::response<http::string_body> res;
                if (target != "/api/ws")
                    res = refusal(req, http::status::not_found, "WebSocket only at /api/ws", true);
                else if (cred.from_cookie && !same_origin(req, origins, false))
                    res = refusal(req, http::status::forbidden,
                                  "cross-site WebSocket refused: Origin " + std::string(req[http::field::origin])
                                      + " is not this server's",
                                  true);
                else if (!(user = svc.token_user(cred.token)))
                    res = refusal(req, http::status::unauthorized,
                                  cred.token.empty() ? "the WebSocket needs a login: the session cookie (log in with "
                                                       "\"cookie\": true) or Authorization: Bearer <token>"
                                                     : "the session is expired, revoked or unknown: log in again",
                                  true);
                if (user) {
                    open.reset();
                    stream.expires_never();
                    auto ws =
                        std::make_shared<WsSession>(stream.release_socket(), *this, *user, client, cred.token, slot);
                    sockets.insert(ws);
                    ws->start(std::move(req));
                    co_return;
                }
                secure(res);
                co_await http::async_write(stream, res, use_tuple);
                break;
            }
            http::response<http::string_body> res;
            if (std::string why = cross_site(req, cred); !why.empty())
                res = refusal(req, http::status::forbidden, why, false);
            else if (req.method() == http::verb::post && req.target() == "/api/tsume")
                res = co_await tsume(req, client);  // (not in a ?: expression: GCC miscompiles co_await there)
            else
                res = co_await answer(req, client);
            bool keep = res.keep_alive();
            secure(res, req.method() == http::verb::get && framable(req.target()));
            co_await gate_open();
            auto [wec, wn] = co_await http::async_write(stream, res, use_tuple);
            if (wec || !keep)
                break;
        }
        boost::system::error_code ec;
        stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    }

    asio::awaitable<void> accept_loop(tcp::acceptor& a) {
        for (;;) {
            auto [ec, socket] = co_await a.async_accept(use_tuple);
            if (ec) {
                if (ec == asio::error::operation_aborted || !a.is_open())
                    co_return;
                continue;
            }
            asio::co_spawn(ioc, session(std::move(socket)), asio::detached);
        }
    }
};

WsSession::WsSession(tcp::socket socket, HttpServer::Impl& server, std::string user, std::string peer,
                     std::string token, std::shared_ptr<void> slot)
    : jobs_(server.jobs), peer_(std::move(peer)), token_(std::move(token)), ws_(std::move(socket)), server_(server),
      user_(std::move(user)), bucket_(server.requests_per_second, std::max(10.0, server.requests_per_second * 3)),
      slot_(std::move(slot)) {
    bucket_.describe("websocket", peer_);
}

void WsSession::start(http::request<http::string_body> req) {
    auto self = shared_from_this();
    asio::co_spawn(
        ws_.get_executor(), [self, req = std::move(req)]() mutable { return self->run(std::move(req)); },
        asio::detached);
}

asio::awaitable<void> WsSession::run(http::request<http::string_body> req) {
    auto self = shared_from_this();
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(64 * 1024);
    auto [ec] = co_await ws_.async_accept(req, use_tuple);
    if (ec)
        co_return;
    open_ = true;
    // hello first: connecting may send events already (the spectators count of a game watched).
    send(json_text(nlohmann::json{{"type", "hello"}, {"user", user_}}));
    server_.svc.connect(user_, self, "web", peer_, token_);
    token_.clear();  // (the service keeps its hash)
    beast::flat_buffer buf;
    for (;;) {
        if (auto wait = bucket_.wait(); wait.count() > 0) {  // too fast: the next message waits
            asio::steady_timer pause(ws_.get_executor(), wait);
            co_await pause.async_wait(use_tuple);
        }
        bucket_.take();
        auto [rec, n] = co_await ws_.async_read(buf, use_tuple);
        if (rec)
            break;
        std::string text = beast::buffers_to_string(buf.data());
        buf.consume(buf.size());
        auto in = nlohmann::json::parse(text, nullptr, false);
        auto type_it = in.is_object() ? in.find("type") : in.end();
        std::string type =
            in.is_object() && type_it != in.end() && type_it->is_string() ? type_it->get<std::string>() : "";
        if (ending_)
            continue;  // the session is over: nothing more is done for it
        try {
            if (type == "analyze")
                analyze(in);
            else if (type == "analyze_stop" && searching_)
                engine_->stop();  // (the job ends with the search: on_done)
            else if (type == "analyze_stop")
                end_job();  // still waiting: given up
            else
                send(json_text(server_.api.on_ws_message(user_, text)));
        } catch (const std::exception& e) {  // a field of the wrong JSON type
            send(json_text(nlohmann::json{{"type", "error"}, {"message", std::string("bad message: ") + e.what()}}));
        }
    }
    open_ = false;
    stop_analysis();
    end_job();
    server_.svc.disconnect(self);
}

void WsSession::analyze(const nlohmann::json& in) {
    using nlohmann::json;
    std::string err;
    auto pos = proto::JsonApi::read_position(in, err);
    ++analysis_id_;
    analysis_tag_ = in.contains("tag") ? in["tag"] : json();
    if (!pos) {
        send(json_text(json{{"type", "error"}, {"message", err}, {"tag", analysis_tag_}}));
        return;
    }
    if (!engine_ && *server_.analysis_engines >= HttpServer::Impl::MAX_ANALYSIS) {
        send(json_text(json{{"type", "error"},
                            {"message", "the server is analysing for too many people; try again later"},
                            {"tag", analysis_tag_}}));
        return;
    }
    auto number = [&](const char* key, int fallback) {
        auto it = in.find(key);
        return it != in.end() && it->is_number() ? int(std::clamp(it->get<double>(), -1e9, 1e9)) : fallback;
    };
    pending_sfen_ = pos->sfen();
    pending_multipv_ = std::clamp(number("multipv", 1), 1, 5);
    pending_ms_ = std::clamp(number("movetime_ms", 10000), 100, 60000);
    if (searching_) {  // the job goes on with the new position
        stop_analysis();
        jobs_->restart(job_, pending_ms_ + 1000);
        search();
        return;
    }
    if (job_)  // waiting: it will search the new position
        return;
    std::weak_ptr<WsSession> weak = shared_from_this();
    auto job = jobs_->submit(service::name_key(user_), "analysis", peer_, pending_ms_ + 1000, [weak] {
        if (auto s = weak.lock())
            s->search();
    });
    if (!job) {
        send(json_text(json{
            {"type", "error"}, {"message", job.error}, {"retry_after_s", job.retry_after_s}, {"tag", analysis_tag_}}));
        return;
    }
    job_ = job.id;  // (after search() when a worker was free)
}

void WsSession::search() {
    using nlohmann::json;
    if (!open_) {  // gone while waiting
        end_job();
        return;
    }
    if (!engine_) {
        engines_ = server_.analysis_engines;
        ++*engines_;
        engine_ = std::make_unique<engine::Engine>();
        engine_->set_option("USI_Hash", "32");
        engine_->set_option("Threads", "1");
        engine_->set_option("OwnBook", "false");  // analysis shows the engine's own lines, never book moves
    }
    searching_ = true;
    core::Position pos;
    if (!pos.set(pending_sfen_, core::SfenRules::Relaxed)) {  // (read once already: cannot fail)
        end_job();
        return;
    }
    engine_->set_option("MultiPV", std::to_string(pending_multipv_));
    engine::Limits limits;
    limits.movetime = pending_ms_;
    analysis_sfen_ = pending_sfen_;
    int id = search_id_ = analysis_id_;
    std::weak_ptr<WsSession> weak = shared_from_this();
    auto ex = ws_.get_executor();
    engine_->go(
        pos, limits,
        [weak, ex, id](const engine::SearchInfo& info) {
            asio::post(ex, [weak, id, info] {
                if (auto s = weak.lock())
                    s->on_info(id, info);
            });
        },
        [weak, ex, id](const engine::SearchResult& r) {
            asio::post(ex, [weak, id, r] {
                if (auto s = weak.lock())
                    s->on_done(id, r);
            });
        });
}

nlohmann::json WsSession::line_json(const std::vector<core::Move>& pv) const {
    nlohmann::json moves = nlohmann::json::array();
    core::Position pos;
    if (!pos.set(analysis_sfen_, core::SfenRules::Relaxed))
        return moves;
    core::Move previous = core::Move::none();
    for (core::Move m : pv) {
        if (!pos.is_legal(m))
            break;
        moves.push_back(proto::JsonApi::move_json(pos, m, previous));
        pos.play(m);
        previous = m;
    }
    return moves;
}

void WsSession::on_info(int id, const engine::SearchInfo& info) {
    if (id != analysis_id_ || info.pv.empty())
        return;
    core::Position pos;
    bool black = pos.set(analysis_sfen_, core::SfenRules::Relaxed) && pos.side_to_move() == core::BLACK;
    nlohmann::json j{{"type", "analysis"},      {"tag", analysis_tag_},    {"depth", info.depth},
                     {"multipv", info.multipv}, {"nodes", info.nodes},     {"nps", info.nps},
                     {"time_ms", info.time_ms}, {"pv", line_json(info.pv)}};
    // Scores from Black's side (the graph and the bar read them so).
    int sign = black ? 1 : -1;
    if (engine::is_mate_score(info.score)) {
        int plies = engine::VALUE_MATE - std::abs(info.score);
        j["mate"] = sign * (info.score > 0 ? plies : -plies);
    } else {
        j["cp"] = sign * int(info.score);
    }
    send(json_text(j));
}

void WsSession::on_done(int id, const engine::SearchResult& r) {
    if (searching_ && id == search_id_) {  // (a search stopped for a newer one leaves the job to it)
        searching_ = false;
        end_job();
    }
    if (id != analysis_id_)
        return;
    send(json_text(nlohmann::json{{"type", "analysis_done"},
                                  {"tag", analysis_tag_},
                                  {"best", r.best ? core::to_usi(r.best) : ""},
                                  {"depth", r.depth},
                                  {"nodes", r.nodes}}));
}

void WsSession::deliver(const service::Event& e) {
    if (!open_)
        return;
    send(server_.api.event_text(e));
    if (e.kind == service::EventKind::Move && e.game_id) {
        const service::LiveGame* g = server_.svc.game(e.game_id);
        if (g && g->color_of(user_))
            server_.svc.mark_seen(user_, e.game_id);  // a web client shows every move at once
    }
}

void WsSession::end_session(const std::string& why) {
    if (!open_ || ending_)
        return;
    send(json_text(nlohmann::json{{"type", "session_ended"}, {"reason", why}}));
    ending_ = true;  // nothing more is sent; pump() closes once the queue is written
    pump();
}

void WsSession::shut_down() {
    if (!open_ || ending_) {
        close();
        return;
    }
    send(json_text(nlohmann::json{{"type", "shutdown"}, {"message", "Server shutting down."}}));
    farewell_ = websocket::close_reason(websocket::close_code::going_away, "server shutting down");
    ending_ = true;  // pump() closes once the queue is written
    pump();
}

void WsSession::send(std::string text) {
    if (!open_ || ending_)
        return;
    if (queue_.size() > 1000) {  // a client that does not read
        close();
        return;
    }
    queue_.emplace_back(std::make_shared<const std::string>(std::move(text)), output_gate().ticket());
    pump();
}

void WsSession::pump() {
    auto self = shared_from_this();
    if (!writing_ && queue_.empty() && ending_ && open_) {
        open_ = false;
        writing_ = true;
        ws_.async_close(farewell_, [self](boost::system::error_code) { self->close(); });
        return;
    }
    if (writing_ || queue_.empty())
        return;
    if (!output_gate().durable(queue_.front().second)) {
        if (!parked_) {
            parked_ = true;
            output_gate().hold(queue_.front().second, [self] {
                self->parked_ = false;
                self->pump();
            });
        }
        return;
    }
    writing_ = true;
    ws_.text(true);
    ws_.async_write(asio::buffer(*queue_.front().first), [self](boost::system::error_code ec, std::size_t) {
        self->writing_ = false;
        if (ec) {
            self->queue_.clear();
            self->close();
            return;
        }
        self->queue_.pop_front();
        self->pump();
    });
}

HttpServer::HttpServer(service::Service& svc, asio::io_context& ioc, std::string static_dir, double requests_per_second,
                       JobQueue::Options jobs, std::vector<std::string> public_origins,
                       std::vector<std::string> trusted_proxies, std::size_t max_per_address)
    : impl_(std::make_shared<Impl>(svc, ioc, std::move(static_dir), requests_per_second, jobs,
                                   std::move(public_origins), std::move(trusted_proxies), max_per_address)) {}

HttpServer::~HttpServer() = default;

void HttpServer::start(tcp::acceptor& acceptor) {
    impl_->acceptor = &acceptor;
    impl_->svc.add_status_source([jobs = impl_->jobs](std::vector<std::pair<std::string, std::string>>& out) {
        out.emplace_back("solver_jobs_running",
                         std::to_string(jobs->running()) + " of " + std::to_string(jobs->options().workers));
        out.emplace_back("solver_jobs_waiting",
                         std::to_string(jobs->waiting()) + " of " + std::to_string(jobs->options().queue));
    });
    asio::co_spawn(impl_->ioc, impl_->accept_loop(acceptor), asio::detached);
}

void HttpServer::stop() {
    impl_->stopping = true;
    impl_->jobs->stop();
    impl_->stop_solver = true;
    for (auto& w : impl_->sockets)
        if (auto s = w.lock())
            s->shut_down();
}

}  // namespace hisha::server::net
