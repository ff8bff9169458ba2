// EnginePlayer: what the match referee needs from an engine, whatever its protocol: start
// it, begin a game, ask for a move under limits with a deadline, tell it the result, stop it.
// The drivers are UsiClient (any USI engine), XshogiClient (GNU Shogi's own protocol) and
// InternalPlayer (Hisha's engine in this process). The first two derive from ChildEnginePlayer,
// whose ChildProcess runs an engine program on pipes and reads its lines with deadlines.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/game.h"
#include "core/result.h"
#include "engine/timeman.h"
#include "line_reader.h"

namespace hisha::protocol {

using SteadyClock = std::chrono::steady_clock;

/// Receives every line exchanged with an engine ("name > usi", "name < usiok") for a log.
using TrafficLog = std::function<void(const std::string& line)>;

/// How an engine is started and configured.
struct EngineSpec {
    std::string name;                                          // the label of the engine in the match
    std::string command;                                       // see driver_of()
    std::vector<std::pair<std::string, std::string>> options;  // USI setoption / driver options
    int startup_timeout_ms = 10000;                            // for the handshake (usiok, readyok, the banner)
    TrafficLog log;                                            // may be empty
};

enum class DriverKind { Internal, Usi, Xshogi };
/// The driver a command asks for: `hisha` or `internal` is Hisha's engine in this process;
/// `usi:CMD` and `xshogi:CMD` force a protocol; a command whose program is named gnushogi
/// speaks GNU Shogi's protocol; anything else is a USI engine.
DriverKind driver_of(const std::string& command);
/// The command without a `usi:` / `xshogi:` prefix.
std::string strip_driver_prefix(const std::string& command);

/// The start of a game as one engine sees it.
struct GameSetup {
    std::string start_sfen;
    core::Color color = core::BLACK;  // the side the engine plays
    engine::Limits limits;            // its limits for its first move (says what kind of control)
};

/// One move asked of an engine.
struct MoveRequest {
    engine::Limits limits;  // sent with `go` (clocks as they stand)
    int deadline_ms = 0;    // stop waiting after this long: `stop` is sent, then...
    int grace_ms = 1000;    // ...a late answer is still taken this long before the engine is killed
};

/// What came back.
struct MoveReply {
    enum class Kind {
        Move,  // `text` holds the move as written (USI / GNU coordinate form)
        Resign,
        Win,      // entering-king declaration
        Late,     // answered, but only after the deadline (the engine stays usable)
        Hang,     // no answer even after `stop` and the grace: the engine was killed
        Crash,    // the process exited or closed its output
        Refused,  // the driver could not pass on the game (the engine rejected a legal move...)
        Claim,    // the engine declared the game over by its own rules and stopped playing
    };
    Kind kind = Kind::Crash;
    std::string text;
    int elapsed_ms = 0;
    std::optional<int> score;  // centipawns from the mover's view; mates as +-(100000 - plies)
    int depth = 0;
    std::string detail;           // what went wrong, for failures
    std::vector<std::string> pv;  // the engine's expected line (USI moves, its move first), if given
};

class EnginePlayer {
public:
    virtual ~EnginePlayer() = default;
    /// The label the match gives the engine.
    virtual const std::string& name() const = 0;
    /// What the engine calls itself (`id name`, the banner) once started.
    virtual std::string identity() const = 0;
    /// Starts the engine if it is not running; the error says why it could not.
    virtual core::Result<void, std::string> start() = 0;
    virtual bool running() const = 0;
    /// Prepares a new game, restarting the engine if it died in the last one.
    virtual core::Result<void, std::string> new_game(const GameSetup& setup) = 0;
    /// Asks for a move in the game's current position (the game holds the start and moves).
    virtual MoveReply think(const core::Game& game, const MoveRequest& request) = 0;
    /// Tells the engine how the game ended (`me` is its side).
    virtual void game_over(const core::GameResult& result, core::Color me) = 0;
    /// Stops the engine (quit, then kill).
    virtual void quit() = 0;
};

/// Creates the driver for a spec (nothing is started yet).
std::unique_ptr<EnginePlayer> make_player(const EngineSpec& spec);

/// A mate or centipawn score as MoveReply holds it.
constexpr int MATE_SCORE = 100000;

/// An engine program on pipes. The child runs in its own process group (so that killing it
/// also kills anything it started), with SIGPIPE ignored in this process so that a dead
/// engine shows up as a failed write rather than killing the match.
class ChildProcess {
public:
    ChildProcess() = default;
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;
    ~ChildProcess() { terminate(0); }

    /// Runs `command` through /bin/sh (so quoting and PATH work; /usr/games is added to the
    /// PATH, where Debian puts gnushogi). stderr goes to stdout when `merge_stderr`, else away.
    core::Result<void, std::string> spawn(const std::string& command, bool merge_stderr);
    bool running();
    /// Writes one line; false when the engine is gone.
    bool write_line(const std::string& line);

    using Read = LineReader::Read;
    /// Reads one line (CR LF accepted) until `deadline`; the text after the last LF is a line
    /// when the engine's output ends.
    Read read_line(std::string& line, SteadyClock::time_point deadline);
    /// Ends the process: closes its input, waits up to `grace_ms` for it to exit, then kills its
    /// group. Safe to call twice.
    void terminate(int grace_ms);
    /// "exit code 1", "killed by signal 9", or "still running".
    std::string exit_description();
    pid_t pid() const { return pid_; }

    /// Kills every engine process still running (async-signal-safe, for SIGINT handlers).
    static void kill_all();

private:
    bool reap(bool block);

    pid_t pid_ = -1;
    int in_fd_ = -1, out_fd_ = -1;
    std::optional<int> status_;
    LineReader reader_{{.last_line_at_eof = true}};
};

/// What the drivers of engine programs (UsiClient, XshogiClient) share: the program as a child
/// process, its spec and command (without the driver prefix), what it calls itself, the lines
/// exchanged with it (logged), and quit: `quit`, then the process ends after a grace period.
class ChildEnginePlayer : public EnginePlayer {
public:
    ~ChildEnginePlayer() override { quit(); }

    const std::string& name() const override { return spec_.name; }
    std::string identity() const override { return identity_.empty() ? spec_.name : identity_; }
    bool running() const override { return child_.running(); }
    void quit() final;

protected:
    ChildEnginePlayer(EngineSpec spec, int quit_grace_ms);
    /// Writes a line to the engine (logged); false when it is gone.
    bool send(const std::string& line);
    /// Logs a line the engine wrote.
    void log_received(const std::string& line) const;

    EngineSpec spec_;
    std::string command_;
    mutable ChildProcess child_;
    std::string identity_;  // what the engine calls itself (`id name`, the banner) once started

private:
    int quit_grace_ms_;
};

/// Milliseconds since `t0`.
inline int elapsed_ms_since(SteadyClock::time_point t0) {
    return int(std::chrono::duration_cast<std::chrono::milliseconds>(SteadyClock::now() - t0).count());
}

}  // namespace hisha::protocol
