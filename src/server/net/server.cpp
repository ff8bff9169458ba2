// run_server: opens the store, starts the service, binds the listeners and runs the loop.
#include "server/net/server.h"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/thread_pool.hpp>

#include <pthread.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "server/net/below_loop.h"
#include "server/net/bots.h"
#include "server/net/line_session.h"
#include "server/net/mail_sender.h"
#include "server/net/metrics.h"
#include "server/net/net.h"
#include "server/net/output_gate.h"
#include "server/net/protocols.h"
#include "server/net/sender.h"
#include "server/service/log.h"
#include "server/store/store.h"

namespace hisha::server::net {

OutputGate& output_gate() {
    static OutputGate gate;  // emptied by run_server before its io_context goes (reset())
    return gate;
}

namespace {

constexpr auto use_tuple = asio::as_tuple(asio::use_awaitable);

// Environment over Asio: wall-clock time, one steady timer per game, the sync thread of group
// commit and the threads that hash passwords.
class AsioEnvironment final : public service::Environment {
public:
    AsioEnvironment(asio::io_context& ioc, store::Store& store, int hash_threads)
        : ioc_(ioc), hash_threads_(std::max(1, hash_threads)), store_(store) {}
    void set_service(service::Service* s) { svc_ = s; }

    service::Millis now() override {
        using namespace std::chrono;
        return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    }
    void schedule(std::int64_t id, service::Millis at) override {
        auto& t = timers_[id];
        if (!t)
            t = std::make_unique<asio::steady_timer>(ioc_);
        t->expires_after(std::chrono::milliseconds(std::max<service::Millis>(0, at - now())));
        t->async_wait([this, id](boost::system::error_code ec) {
            if (!ec && svc_)
                svc_->on_timer(id);
        });
    }
    void cancel(std::int64_t id) override {
        auto it = timers_.find(id);
        if (it != timers_.end()) {
            it->second->cancel();
            // Destroyed later: cancel() may run inside this timer's own handler.
            retired_.push_back(std::move(it->second));
            timers_.erase(it);
            if (retired_.size() > 64)
                asio::post(ioc_, [this] { retired_.clear(); });
        }
    }
    // Pipelined group commit. The batch collected by the handlers queued so far is committed
    // to the database (no disk wait) and handed to the sync thread, whose fdatasync makes it
    // durable; meanwhile the loop serves the next batch, which stays open until that sync is
    // back and then goes the same way. Replies of a batch leave (OutputGate) once it is durable.
    void request_commit() override {
        if (batch_opened_ == Clock::time_point{})
            batch_opened_ = Clock::now();
        if (commit_posted_)
            return;
        commit_posted_ = true;
        // After the handlers already queued: every move they carry joins this batch.
        asio::post(ioc_, [this] {
            commit_posted_ = false;
            if (!syncing_)
                write_batch();
        });
    }
    // Password hashes run on their own threads at a lower priority than the loop's (on a busy
    // machine moves go first); their answers come back to the loop.
    void offload(std::function<void()> work, std::function<void()> done) override {
        if (!hash_pool_)
            hash_pool_ = std::make_unique<asio::thread_pool>(hash_threads_);
        asio::post(*hash_pool_, [this, work = std::move(work), done = std::move(done)]() mutable {
            run_below_the_loop("hash");
            work();
            asio::post(ioc_, std::move(done));
        });
    }
    // A move's relay leaves with its batch (synced()), or at once without group commit.
    void move_played(std::chrono::steady_clock::time_point received) override {
        if (svc_ && svc_->batch_open())
            batch_received_.push_back(received);
        else
            metrics().relay_seconds.observe(std::chrono::duration<double>(Clock::now() - received).count());
    }
    /// Drops the hashes not started and waits for those running (the loop has stopped: their
    /// answers are never delivered).
    void stop_hashing() {
        if (hash_pool_) {
            hash_pool_->stop();
            hash_pool_->join();
        }
    }
    ~AsioEnvironment() override {
        stop_hashing();
        stop_syncing();
    }
    /// Lets the sync thread finish the sync it is making and joins it.
    void stop_syncing() {
        if (syncer_.joinable()) {
            {
                std::lock_guard lock(sync_mutex_);
                sync_stop_ = true;
            }
            sync_cv_.notify_one();
            syncer_.join();
        }
    }
    std::function<void()> after_commit;  // e.g. reading other servers' events
    void cancel_all() {
        for (auto& [id, t] : timers_)
            t->cancel();
    }

private:
    asio::io_context& ioc_;
    int hash_threads_;
    std::unique_ptr<asio::thread_pool> hash_pool_;
    service::Service* svc_ = nullptr;
    std::map<std::int64_t, std::unique_ptr<asio::steady_timer>> timers_;
    std::vector<std::unique_ptr<asio::steady_timer>> retired_;
    bool commit_posted_ = false;
    // For /metrics: when the open batch took its first write, and the batch being synced.
    using Clock = std::chrono::steady_clock;
    Clock::time_point batch_opened_{};
    struct InFlight {
        Clock::time_point opened{}, started{};
        std::uint64_t moves = 0;
        std::vector<Clock::time_point> received;  // its moves', for hisha_move_relay_seconds
    } in_flight_;
    std::vector<Clock::time_point> batch_received_;  // the open batch's moves
    std::uint64_t moves_counted_ = 0;                // moves_played() at the last batch

    [[noreturn]] static void commit_failed(const std::string& why) {
        // Nothing of the batch was acknowledged (the replies are still held): stop, so that
        // a restart serves exactly what is durable.
        std::cerr << "hisha-server: commit failed (" << why << "); stopping" << std::endl;
        log_event("commit_failed", {{"action", "stopping"}, {"error", why}});
        std::exit(3);
    }
    void write_batch() {
        if (!svc_ || !svc_->batch_open())
            return;
        in_flight_ = {std::exchange(batch_opened_, Clock::time_point{}), Clock::now(),
                      svc_->moves_played() - moves_counted_, std::exchange(batch_received_, {})};
        moves_counted_ = svc_->moves_played();
        if (!svc_->commit(false))
            commit_failed(store_.last_error());
        OutputGate::Ticket t = output_gate().committed();
        if (after_commit)
            after_commit();
        if (!syncer_.joinable())
            syncer_ = std::thread([this] {
                pthread_setname_np(pthread_self(), "sync");
                sync_loop();
            });
        syncing_ = true;
        {
            std::lock_guard lock(sync_mutex_);
            sync_target_ = t;
        }
        sync_cv_.notify_one();
    }
    void synced(OutputGate::Ticket t) {
        syncing_ = false;
        auto now = Clock::now();
        metrics().commit_seconds.observe(std::chrono::duration<double>(now - in_flight_.started).count());
        if (in_flight_.moves > 0 && in_flight_.opened != Clock::time_point{})
            metrics().move_seconds.observe(std::chrono::duration<double>(now - in_flight_.opened).count(),
                                           in_flight_.moves);
        output_gate().made_durable(t);  // the batch's replies and relays handed to their sockets
        auto handed = Clock::now();
        for (Clock::time_point received : in_flight_.received)
            metrics().relay_seconds.observe(std::chrono::duration<double>(handed - received).count());
        write_batch();  // the batch that collected during the sync, if any
    }
    void sync_loop() {
        std::unique_lock lock(sync_mutex_);
        OutputGate::Ticket done = 0;
        for (;;) {
            sync_cv_.wait(lock, [&] { return sync_stop_ || sync_target_ > done; });
            if (sync_stop_)
                return;
            OutputGate::Ticket t = sync_target_;
            lock.unlock();
            if (!store_.sync())
                asio::post(ioc_, [this] { commit_failed(store_.sync_error()); });
            else
                asio::post(ioc_, [this, t] { synced(t); });
            done = t;
            lock.lock();
        }
    }
    store::Store& store_;
    bool syncing_ = false;  // a batch is being synced (by the sync thread)
    std::thread syncer_;
    std::mutex sync_mutex_;
    std::condition_variable sync_cv_;
    OutputGate::Ticket sync_target_ = 0;
    bool sync_stop_ = false;
};

// Live events from other servers on the same database: read when the store's connection
// becomes readable, after each commit (libpq may have queued some while running our own
// statements, which leaves the socket quiet), and every 200 ms as a last resort.
class RemoteEvents {
public:
    RemoteEvents(asio::io_context& ioc, store::Store& store, service::Service& svc)
        : store_(store), svc_(svc), timer_(ioc) {
        int fd = store.notification_fd();
        if (fd < 0)
            return;
        int copy = ::dup(fd);  // Asio closes its descriptor; libpq keeps its own
        if (copy < 0)
            return;
        socket_ = std::make_unique<asio::posix::stream_descriptor>(ioc, copy);
        wait();
        tick();
    }
    void drain() {
        if (!socket_)
            return;
        for (auto& payload : store_.take_notifications())
            svc_.on_remote(payload);
    }
    void stop() {
        boost::system::error_code ec;
        timer_.cancel();
        if (socket_)
            socket_->cancel(ec);
        socket_.reset();
    }

private:
    void wait() {
        socket_->async_wait(asio::posix::stream_descriptor::wait_read, [this](boost::system::error_code ec) {
            if (ec || !socket_)
                return;
            drain();
            wait();
        });
    }
    void tick() {
        timer_.expires_after(std::chrono::milliseconds(200));
        timer_.async_wait([this](boost::system::error_code ec) {
            if (ec || !socket_)
                return;
            drain();
            tick();
        });
    }

    store::Store& store_;
    service::Service& svc_;
    asio::steady_timer timer_;
    std::unique_ptr<asio::posix::stream_descriptor> socket_;
};

struct Registry {
    std::set<std::weak_ptr<LineSession>, std::owner_less<std::weak_ptr<LineSession>>> sessions;
    std::map<std::string, std::size_t> per_address;
    // Forgets the sessions that have ended, and counts the open ones of each address again.
    void recount() {
        std::erase_if(sessions, [](const std::weak_ptr<LineSession>& w) { return w.expired(); });
        per_address.clear();
        for (auto& w : sessions)
            if (auto s = w.lock())
                ++per_address[s->peer()];
    }
};

asio::awaitable<void> accept_loop(tcp::acceptor& acceptor, LineLimits limits, LineSession::Factory factory,
                                  Registry& reg, std::size_t max_per_address, service::Service& svc) {
    for (;;) {
        auto [ec, socket] = co_await acceptor.async_accept(use_tuple);
        if (ec) {
            if (ec == asio::error::operation_aborted || !acceptor.is_open())
                co_return;
            continue;  // e.g. too many open files: keep serving the others
        }
        boost::system::error_code aec;
        std::string addr = socket.remote_endpoint(aec).address().to_string();
        if (const BanRow* ban = svc.ban_of_address(addr)) {  // refused before anything is read
            log_event("refused", {{"peer", addr}, {"reason", "banned address"}, {"ban", ban->target}});
            asio::write(socket,
                        asio::buffer(std::string(limits.protocol == "csa" ? "##[ERROR] your address is banned\n"
                                                                          : "Error: your address is banned\r\n")),
                        aec);
            continue;
        }
        reg.recount();  // (before the check: an address refused once must get in when one closes)
        if (reg.per_address[addr] >= max_per_address) {
            log_event("refused", {{"peer", addr}, {"reason", "too many connections from this address"}});
            ++metrics().limited["connections_per_address"];
            asio::write(socket, asio::buffer(std::string("Error: too many connections from your address\r\n")), aec);
            continue;
        }
        ++reg.per_address[addr];
        log_event("connect", {{"peer", addr}, {"port", std::to_string(acceptor.local_endpoint().port())}});
        socket.set_option(tcp::no_delay(true), aec);
        auto session = std::make_shared<LineSession>(std::move(socket), limits);
        reg.sessions.insert(session);
        session->start(factory);
    }
}

// Binds and listens on opt.bind:port (nothing when port < 0); says so on stdout and in the log.
// Null, with the reason on stderr, when the address or the port cannot be had.
std::unique_ptr<tcp::acceptor> make_listener(asio::io_context& ioc, const std::string& bind, int port,
                                             const char* proto) {
    boost::system::error_code ec;
    auto a = std::make_unique<tcp::acceptor>(ioc);
    tcp::endpoint ep(asio::ip::make_address(bind, ec), static_cast<unsigned short>(port));
    if (ec) {
        log_failure("listen_failed", "bad address " + bind, {{"protocol", proto}, {"address", bind}});
        return nullptr;
    }
    a->open(ep.protocol(), ec);
    a->set_option(asio::socket_base::reuse_address(true), ec);
    a->bind(ep, ec);
    if (!ec)
        a->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        std::string where = bind + ":" + std::to_string(port);
        log_failure("listen_failed", "cannot listen on " + where + " (" + proto + "): " + ec.message(),
                    {{"protocol", proto}, {"address", where}, {"error", ec.message()}});
        return nullptr;
    }
    std::cout << "listening " << proto << " " << bind << ":" << a->local_endpoint().port() << std::endl;
    log_event("listening", {{"protocol", proto}, {"address", bind + ":" + std::to_string(a->local_endpoint().port())}});
    return a;
}

// The three listeners, each serving its protocol; false when one that was asked for could not
// listen. The acceptors are kept in `acceptors` (closed at shutdown).
bool start_listeners(const ServerOptions& opt, asio::io_context& ioc, Protocols& protocols, Registry& reg,
                     service::Service& svc, std::vector<std::unique_ptr<tcp::acceptor>>& acceptors) {
    auto listen = [&](int port, const char* proto) -> tcp::acceptor* {
        auto a = make_listener(ioc, opt.bind, port, proto);
        if (!a)
            return nullptr;
        acceptors.push_back(std::move(a));
        return acceptors.back().get();
    };
    bool ok = true;
    // A line protocol (text, CSA) on `port`, its sessions made by `factory`.
    auto serve_lines = [&](int port, const LineLimits& limits, LineSession::Factory factory) {
        if (auto* a = listen(port, limits.protocol.c_str()))
            asio::co_spawn(ioc, accept_loop(*a, limits, std::move(factory), reg, opt.max_connections_per_address, svc),
                           asio::detached);
        else
            ok = false;
    };
    LineLimits text_limits;
    text_limits.idle = std::chrono::seconds(opt.idle_timeout_s);
    text_limits.line_timeout = std::chrono::seconds(opt.line_timeout_s);
    text_limits.lines_per_second = opt.commands_per_second;
    text_limits.burst = std::max(10.0, opt.commands_per_second * 3);
    if (opt.text_port >= 0)
        serve_lines(opt.text_port, text_limits, protocols.text_factory());
    if (opt.csa_port >= 0 && protocols.csa_factory()) {
        LineLimits csa_limits = text_limits;
        csa_limits.telnet = false;
        csa_limits.protocol = "csa";
        csa_limits.max_line = 1024;
        serve_lines(opt.csa_port, csa_limits, protocols.csa_factory());
    }
    if (opt.http_port >= 0 && protocols.has_http()) {
        if (auto* a = listen(opt.http_port, "http"))
            protocols.start_http(*a);
        else
            ok = false;
    }
    return ok;
}

// The engine bots of --bots. Each runs on one server at a time: on a database shared by several
// servers, the one that claimed it; the others ask again every second and take it over when
// that server stops. The bot's server also looks at its games and challenges every second:
// those made on another server may have been announced before it ran, or in a way that only
// names the game.
class BotRunner {
public:
    BotRunner(service::Service& svc, asio::io_context& ioc, const std::string& spec, bool shared_store)
        : svc_(svc), timer_(ioc), shared_store_(shared_store) {
        for (auto& [name, skill] : parse_bots(spec)) {
            auto made = svc.ensure_bot(name, "skill " + std::to_string(skill));
            if (!made)  // another server starting at the same moment made the account first?
                made = svc.ensure_bot(name, "skill " + std::to_string(skill));
            if (!made) {
                log_failure("bot_failed", "bot " + name + ": " + made.error(),
                            {{"bot", name}, {"error", made.error()}});
                continue;
            }
            bots_.push_back({name, std::make_shared<Bot>(svc, ioc, name, skill)});
        }
    }
    void start() {
        run();
        arm();
    }
    void stop() {
        timer_.cancel();
        for (auto& b : bots_)
            b.bot->stop();
    }

private:
    struct Slot {
        std::string name;
        std::shared_ptr<Bot> bot;
        bool running = false;
    };
    void run() {
        for (auto& b : bots_) {
            if (b.running) {
                if (shared_store_)
                    b.bot->poll();
            } else if (svc_.claim("bot " + service::name_key(b.name))) {
                b.running = true;
                log_event("bot_started", {{"bot", b.name}});
                b.bot->start();
            }
        }
    }
    void arm() {
        if (!shared_store_ || bots_.empty())
            return;
        timer_.expires_after(std::chrono::seconds(1));
        timer_.async_wait([this](boost::system::error_code ec) {
            if (ec)
                return;
            run();
            arm();
        });
    }

    service::Service& svc_;
    asio::steady_timer timer_;
    bool shared_store_;
    std::vector<Slot> bots_;
};

}  // namespace

int run_server(const ServerOptions& opt) {
    std::string err;
    auto store = store::open_store(opt.db, err);
    if (!store) {
        log_failure("open_failed", "cannot open " + opt.db + ": " + err, {{"db", opt.db}, {"error", err}});
        return 1;
    }
    asio::io_context ioc(1);
    // Sessions write through this thread while the loop runs (see sender.h).
    struct SenderScope {
        Sender sender;
        explicit SenderScope(asio::io_context& ioc) : sender(ioc) { set_sender(&sender); }
        ~SenderScope() { set_sender(nullptr); }
    } sender_scope(ioc);
    AsioEnvironment env(ioc, *store, opt.config.hash_threads);
    service::Service svc(*store, env, opt.config);
    env.set_service(&svc);
    output_gate().attach(&svc);
    // On every way out, while the io_context exists: replies of a batch whose sync was in
    // flight when the loop stopped are still held, and their sessions own sockets of it.
    struct GateReset {
        ~GateReset() { output_gate().reset(); }
    } gate_reset;
    if (auto r = svc.start(); !r) {
        log_failure("start_failed", r.error(), {{"error", r.error()}});
        return 1;
    }
    if (std::string why; !opt.puzzles.empty() && !svc.load_puzzles(opt.puzzles, why)) {
        log_failure("puzzles_failed", why, {{"puzzles", opt.puzzles}, {"error", why}});
        return 1;
    }
    // Mail notifications, where the operator configured SMTP (service/mail.h).
    std::unique_ptr<service::Mail> mail;
    std::unique_ptr<MailSender> mail_sender;
    if (opt.mail.enabled()) {
        mail = std::make_unique<service::Mail>(svc, *store, env, opt.mail);
        svc.set_mail(mail.get());
        mail_sender = std::make_unique<MailSender>(ioc, *mail);
        mail_sender->start();
        svc.add_status_source([&mail](std::vector<std::pair<std::string, std::string>>& out) {
            auto n = mail->counts();
            out.emplace_back("mail_queued", std::to_string(n[0]));
            out.emplace_back("mail_sent", std::to_string(n[1]));
            out.emplace_back("mail_failed", std::to_string(n[2]));
        });
    }
    RemoteEvents remote(ioc, *store, svc);
    env.after_commit = [&remote] { remote.drain(); };
    svc.add_status_source([](std::vector<std::pair<std::string, std::string>>& out) {
        for (auto& [protocol, n] : metrics().connections)
            out.emplace_back("connections_" + protocol, std::to_string(n));
    });
    Registry reg;
    std::vector<std::unique_ptr<tcp::acceptor>> acceptors;
    Protocols protocols(svc, ioc, opt);
    if (!start_listeners(opt, ioc, protocols, reg, svc, acceptors))
        return 1;
    BotRunner bots(svc, ioc, opt.bots, store->shared());
    bots.start();

    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](boost::system::error_code, int sig) {
        std::cout << "hisha-server: signal " << sig << ", shutting down" << std::endl;
        log_event("shutdown", {{"signal", std::to_string(sig)}});
        svc.begin_shutdown();  // the sessions closed below are not players leaving their games
        boost::system::error_code ec;
        for (auto& a : acceptors)
            a->close(ec);
        for (auto& w : reg.sessions)
            if (auto s = w.lock()) {
                s->send("Server shutting down.\r\n");
                s->close();
            }
        protocols.stop();
        remote.stop();
        if (mail_sender)
            mail_sender->stop();
        bots.stop();
        env.cancel_all();
        // Give the sessions a moment to flush, then stop the loop.
        auto t = std::make_shared<asio::steady_timer>(ioc, std::chrono::milliseconds(200));
        t->async_wait([&ioc, t](boost::system::error_code) { ioc.stop(); });
    });
    std::cout << "hisha-server: ready (database " << opt.db << ")" << std::endl;
    ioc.run();
    // Replies of a batch whose sync was in flight when the loop stopped are still held; their
    // sessions must go while the io_context that owns their sockets exists.
    env.stop_hashing();
    env.stop_syncing();
    std::cout << "hisha-server: stopped" << std::endl;
    return 0;
}

}  // namespace hisha::server::net
