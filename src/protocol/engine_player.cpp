// The common engine interface: driver choice, child processes, and Hisha in-process.
#include "engine_player.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>

#include "core/text.h"
#include "engine/engine.h"
#include "engine/value.h"
#include "usi_client.h"
#include "xshogi_client.h"

extern char** environ;

namespace hisha::protocol {

namespace {

// Process groups of running engines, for kill_all() from a signal handler.
constexpr int MAX_CHILDREN = 512;
std::atomic<pid_t> g_children[MAX_CHILDREN];

void register_child(pid_t pid) {
    for (auto& slot : g_children) {
        pid_t expected = 0;
        if (slot.compare_exchange_strong(expected, pid))
            return;
    }
}

void unregister_child(pid_t pid) {
    for (auto& slot : g_children) {
        pid_t expected = pid;
        if (slot.compare_exchange_strong(expected, 0))
            return;
    }
}

// The environment with /usr/games on the PATH (Debian installs gnushogi there).
std::vector<std::string> child_environment() {
    std::vector<std::string> env;
    bool has_path = false;
    for (char** e = environ; e && *e; ++e) {
        std::string v = *e;
        if (v.rfind("PATH=", 0) == 0) {
            has_path = true;
            if (v.find("/usr/games") == std::string::npos)
                v += ":/usr/games";
        }
        env.push_back(std::move(v));
    }
    if (!has_path)
        env.push_back("PATH=/usr/local/bin:/usr/bin:/bin:/usr/games");
    return env;
}

}  // namespace

// --- driver choice

DriverKind driver_of(const std::string& command) {
    std::string c = text::trim(command);
    if (c == "hisha" || c == "internal")
        return DriverKind::Internal;
    if (c.starts_with("usi:"))
        return DriverKind::Usi;
    if (c.starts_with("xshogi:"))
        return DriverKind::Xshogi;
    std::string program = c.substr(0, c.find_first_of(" \t"));
    std::string base = program.substr(program.find_last_of('/') + 1);
    return base.starts_with("gnushogi") ? DriverKind::Xshogi : DriverKind::Usi;
}

std::string strip_driver_prefix(const std::string& command) {
    std::string c = text::trim(command);
    for (const char* prefix : {"usi:", "xshogi:"})
        if (c.starts_with(prefix))
            return text::trim(c.substr(std::strlen(prefix)));
    return c;
}

// --- ChildProcess

namespace {

// posix_spawn of /bin/sh -c `shell_command` with stdin/stdout on the given pipe ends, in a
// new process group, with the signals this process ignores restored to their defaults.
int spawn_shell(const std::string& shell_command, int stdin_fd, int stdout_fd, bool merge_stderr, pid_t& pid) {
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, stdin_fd, 0);
    posix_spawn_file_actions_adddup2(&fa, stdout_fd, 1);
    if (merge_stderr)
        posix_spawn_file_actions_adddup2(&fa, stdout_fd, 2);
    else
        posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t defaults, empty;
    sigemptyset(&defaults);
    for (int sig : {SIGPIPE, SIGINT, SIGTERM})
        sigaddset(&defaults, sig);
    sigemptyset(&empty);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setsigmask(&attr, &empty);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    const char* argv[] = {"/bin/sh", "-c", shell_command.c_str(), nullptr};
    std::vector<std::string> env = child_environment();
    std::vector<char*> envp;
    for (auto& e : env)
        envp.push_back(e.data());
    envp.push_back(nullptr);
    int rc = posix_spawn(&pid, "/bin/sh", &fa, &attr, const_cast<char* const*>(argv), envp.data());
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    return rc;
}

}  // namespace

core::Result<void, std::string> ChildProcess::spawn(const std::string& command, bool merge_stderr) {
    static std::once_flag ignore_sigpipe;
    std::call_once(ignore_sigpipe, [] { ::signal(SIGPIPE, SIG_IGN); });
    terminate(0);
    int to_child[2], from_child[2];
    if (::pipe2(to_child, O_CLOEXEC) != 0)
        return core::unexpected(std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(from_child, O_CLOEXEC) != 0) {
        ::close(to_child[0]);
        ::close(to_child[1]);
        return core::unexpected(std::string("pipe: ") + std::strerror(errno));
    }
    // `exec` makes the engine itself the child (its exit status is ours to read); a compound
    // command (`cd dir && ./engine`) runs as it is, its group killed as one.
    bool simple = command.find_first_of(";&|()`\n") == std::string::npos;
    pid_t pid = -1;
    int rc = spawn_shell(simple ? "exec " + command : command, to_child[0], from_child[1], merge_stderr, pid);
    ::close(to_child[0]);
    ::close(from_child[1]);
    if (rc != 0) {
        ::close(to_child[1]);
        ::close(from_child[0]);
        return core::unexpected("cannot start '" + command + "': " + std::strerror(rc));
    }
    pid_ = pid;
    register_child(pid);
    in_fd_ = to_child[1];
    out_fd_ = from_child[0];
    status_.reset();
    reader_.reset();
    return {};
}

bool ChildProcess::reap(bool block) {
    if (pid_ <= 0)
        return true;
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
    if (r == pid_ || (r < 0 && errno == ECHILD)) {
        status_ = r == pid_ ? status : 0;
        unregister_child(pid_);
        pid_ = -1;
        return true;
    }
    return false;
}

bool ChildProcess::running() { return pid_ > 0 && !reap(false); }

bool ChildProcess::write_line(const std::string& line) {
    if (in_fd_ < 0)
        return false;
    std::string data = line + "\n";
    const char* p = data.data();
    std::size_t left = data.size();
    while (left > 0) {
        ssize_t n = ::write(in_fd_, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        left -= std::size_t(n);
    }
    return true;
}

ChildProcess::Read ChildProcess::read_line(std::string& line, SteadyClock::time_point deadline) {
    return reader_.read_line(out_fd_, line, deadline);
}

void ChildProcess::terminate(int grace_ms) {
    if (in_fd_ >= 0)
        ::close(in_fd_);
    in_fd_ = -1;
    if (pid_ > 0) {
        auto until = SteadyClock::now() + std::chrono::milliseconds(grace_ms);
        while (!reap(false) && SteadyClock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        if (pid_ > 0) {
            ::kill(-pid_, SIGKILL);
            ::kill(pid_, SIGKILL);
            reap(true);
        }
    }
    if (out_fd_ >= 0)
        ::close(out_fd_);
    out_fd_ = -1;
}

std::string ChildProcess::exit_description() {
    if (running())
        return "still running";
    if (!status_)
        return "not started";
    int s = *status_;
    if (WIFEXITED(s))
        return "exit code " + std::to_string(WEXITSTATUS(s));
    if (WIFSIGNALED(s))
        return std::string("killed by signal ") + std::to_string(WTERMSIG(s)) + " (" + ::strsignal(WTERMSIG(s)) + ")";
    return "ended";
}

void ChildProcess::kill_all() {
    for (auto& slot : g_children) {
        pid_t pid = slot.load();
        if (pid > 0) {
            ::kill(-pid, SIGKILL);
            ::kill(pid, SIGKILL);
        }
    }
}

// --- Hisha's engine in this process

namespace {

/// The engine runs on its own threads; think() waits for its answer with the same deadline
/// and grace as a process gets, so the referee treats every driver alike.
class InternalPlayer final : public EnginePlayer {
public:
    explicit InternalPlayer(EngineSpec spec) : spec_(std::move(spec)) {}

    const std::string& name() const override { return spec_.name; }
    std::string identity() const override { return "Hisha (in-process)"; }
    bool running() const override { return engine_ != nullptr; }

    core::Result<void, std::string> start() override {
        if (engine_)
            return {};
        auto e = std::make_unique<engine::Engine>();
        for (const auto& [key, value] : spec_.options)
            if (std::string err = e->set_option(key, value); !err.empty())
                return core::unexpected(spec_.name + ": option " + key + ": " + err);
        engine_ = std::move(e);
        return {};
    }

    core::Result<void, std::string> new_game(const GameSetup&) override {
        if (auto r = start(); !r)
            return r;
        engine_->new_game();
        return {};
    }

    MoveReply think(const core::Game& game, const MoveRequest& request) override;
    void game_over(const core::GameResult&, core::Color) override {}
    void quit() override { engine_.reset(); }

private:
    struct Pending {
        std::mutex mutex;
        std::condition_variable done;
        std::optional<engine::SearchResult> result;
        std::optional<int> score;
        int depth = 0;
        std::vector<core::Move> pv;
    };
    static MoveReply reply_of(const engine::SearchResult& r, const Pending& p);

    EngineSpec spec_;
    std::unique_ptr<engine::Engine> engine_;
};

int reply_score(engine::Value v) {
    if (engine::is_mate_score(v))
        return v > 0 ? MATE_SCORE - (engine::VALUE_MATE - v) : -MATE_SCORE + (engine::VALUE_MATE + v);
    return v;
}

MoveReply InternalPlayer::reply_of(const engine::SearchResult& r, const Pending& p) {
    MoveReply reply;
    reply.score = p.score;
    reply.depth = p.depth;
    for (core::Move m : p.pv)
        reply.pv.push_back(core::to_usi(m));
    if (!r.best) {
        reply.kind = MoveReply::Kind::Resign;
        reply.text = "resign";
    } else if (r.best == core::Move::win()) {
        reply.kind = MoveReply::Kind::Win;
        reply.text = "win";
    } else {
        reply.kind = MoveReply::Kind::Move;
        reply.text = core::to_usi(r.best);
    }
    return reply;
}

MoveReply InternalPlayer::think(const core::Game& game, const MoveRequest& request) {
    if (auto r = start(); !r)
        return MoveReply{MoveReply::Kind::Crash, "", 0, {}, 0, r.error(), {}};
    auto pending = std::make_shared<Pending>();
    auto t0 = SteadyClock::now();
    engine_->go(
        game.position(), request.limits,
        [pending](const engine::SearchInfo& info) {
            std::lock_guard lock(pending->mutex);
            if (info.multipv == 1) {
                pending->score = reply_score(info.score);
                pending->depth = info.depth;
                pending->pv = info.pv;
            }
        },
        [pending](const engine::SearchResult& r) {
            std::lock_guard lock(pending->mutex);
            pending->result = r;
            pending->done.notify_all();
        },
        {}, t0);
    std::unique_lock lock(pending->mutex);
    bool in_time = pending->done.wait_until(lock, t0 + std::chrono::milliseconds(request.deadline_ms),
                                            [&] { return pending->result.has_value(); });
    if (!in_time) {
        engine_->stop();
        pending->done.wait_for(lock, std::chrono::milliseconds(request.grace_ms),
                               [&] { return pending->result.has_value(); });
    }
    int elapsed = elapsed_ms_since(t0);
    std::optional<engine::SearchResult> result = pending->result;
    MoveReply reply = result ? reply_of(*result, *pending) : MoveReply{};
    lock.unlock();
    if (!result) {
        engine_->stop();
        engine_->wait();  // an in-process search cannot be killed; it answers `stop` soon
        reply.kind = MoveReply::Kind::Hang;
        reply.detail = "no answer after stop";
    } else {
        engine_->wait();
        if (!in_time) {
            reply.detail = "answered after " + std::to_string(elapsed) + " ms";
            reply.kind = MoveReply::Kind::Late;
        }
    }
    reply.elapsed_ms = elapsed;
    return reply;
}

}  // namespace

// --- ChildEnginePlayer

ChildEnginePlayer::ChildEnginePlayer(EngineSpec spec, int quit_grace_ms)
    : spec_(std::move(spec)), command_(strip_driver_prefix(spec_.command)), quit_grace_ms_(quit_grace_ms) {}

bool ChildEnginePlayer::send(const std::string& line) {
    if (spec_.log)
        spec_.log(spec_.name + " > " + line);
    return child_.write_line(line);
}

void ChildEnginePlayer::log_received(const std::string& line) const {
    if (spec_.log)
        spec_.log(spec_.name + " < " + line);
}

void ChildEnginePlayer::quit() {
    if (child_.running())
        send("quit");
    child_.terminate(quit_grace_ms_);
}

std::unique_ptr<EnginePlayer> make_player(const EngineSpec& spec) {
    switch (driver_of(spec.command)) {
    case DriverKind::Internal: return std::make_unique<InternalPlayer>(spec);
    case DriverKind::Usi: return std::make_unique<UsiClient>(spec);
    case DriverKind::Xshogi: return std::make_unique<XshogiClient>(spec);
    }
    return nullptr;
}

}  // namespace hisha::protocol
