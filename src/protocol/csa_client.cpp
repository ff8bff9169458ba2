// CsaClient: the Game_Summary reader, the clocks, the socket, and the game loop. The engine
// thinks on its own thread while this one keeps reading the server (end messages, chat) and
// sends keep-alives; the only thing shared with the thinker is the game, which nothing changes
// while it thinks (the opponent cannot move during our turn).
#include "csa_client.h"
#include "line_reader.h"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <deque>
#include <thread>

#include "notation/csa.h"
#include "notation/usi.h"

namespace hisha::protocol {

namespace {

std::optional<long long> to_number(std::string_view s) {
    long long v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < 0)
        return std::nullopt;
    return v;
}

// "1sec", "1min", "100msec", "sec" -> milliseconds.
std::optional<int> time_unit_ms(std::string_view s) {
    std::size_t digits = 0;
    while (digits < s.size() && std::isdigit(static_cast<unsigned char>(s[digits])))
        ++digits;
    long long n = 1;
    if (digits > 0) {
        auto v = to_number(s.substr(0, digits));
        if (!v || *v == 0 || *v > 3600)
            return std::nullopt;
        n = *v;
    }
    std::string_view unit = s.substr(digits);
    if (unit == "sec")
        return int(n * 1000);
    if (unit == "min")
        return int(n * 60000);
    if (unit == "msec")
        return int(n);
    return std::nullopt;
}

bool is_csa_move_line(std::string_view s) {
    if (s.size() < 7 || (s[0] != '+' && s[0] != '-'))
        return false;
    for (int i = 1; i <= 4; ++i)
        if (!std::isdigit(static_cast<unsigned char>(s[std::size_t(i)])))
            return false;
    return std::isupper(static_cast<unsigned char>(s[5])) && std::isupper(static_cast<unsigned char>(s[6]))
        && (s.size() == 7 || s[7] == ',');
}

// The T<n> of "+7776FU,T12" (0 when absent or malformed).
long long move_time_units(std::string_view line) {
    auto at = line.find(",T");
    if (at == std::string_view::npos)
        return 0;
    std::string_view t = line.substr(at + 2);
    t = t.substr(0, t.find(','));
    return to_number(t).value_or(0);
}

bool time_key(CsaTime& t, std::string_view key, std::string_view value, std::string& error) {
    if (key == "Time_Unit") {
        auto ms = time_unit_ms(value);
        if (!ms)
            return error = "bad Time_Unit '" + std::string(value) + "'", false;
        t.unit_ms = *ms;
        return true;
    }
    if (key == "Time_Roundup") {
        t.roundup = value == "YES";
        return true;
    }
    long long* field = key == "Total_Time"          ? &t.total
                     : key == "Byoyomi"             ? &t.byoyomi
                     : key == "Increment"           ? &t.increment
                     : key == "Least_Time_Per_Move" ? &t.least
                                                    : nullptr;
    if (!field)
        return true;  // Delay and keys yet to come are ignored
    auto v = to_number(value);
    if (!v || *v > 100'000'000)
        return error = "bad " + std::string(key) + " '" + std::string(value) + "'", false;
    *field = *v;
    return true;
}

}  // namespace

// --- Game_Summary

core::Result<CsaSummary, std::string> parse_game_summary(const std::vector<std::string>& lines) {
    CsaSummary s;
    std::string error;
    enum class Block { None, Time, TimeBlack, TimeWhite, Position } block = Block::None;
    bool have_id = false, have_turn = false, have_position = false, shared_time = false, side_time[2] = {};
    std::string position = "V2.2\n";
    auto fail = [&](std::size_t i, const std::string& what) {
        return core::unexpected("Game_Summary line " + std::to_string(i + 1) + ": " + what);
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string_view line = lines[i];
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (block == Block::Position) {
            if (line == "END Position") {
                block = Block::None;
                have_position = true;
            } else {
                position += std::string(line) + "\n";
            }
            continue;
        }
        if (line == "BEGIN Position") {
            block = Block::Position;
            continue;
        }
        if (line == "BEGIN Time" || line == "BEGIN Time+" || line == "BEGIN Time-") {
            block = line == "BEGIN Time" ? Block::Time : line == "BEGIN Time+" ? Block::TimeBlack : Block::TimeWhite;
            (block == Block::Time ? shared_time : side_time[block == Block::TimeBlack ? 0 : 1]) = true;
            continue;
        }
        if (line.starts_with("END Time")) {
            block = Block::None;
            continue;
        }
        auto colon = line.find(':');
        if (colon == std::string_view::npos)
            continue;  // unknown lines are ignored, as unknown keys are
        std::string_view key = line.substr(0, colon), value = line.substr(colon + 1);
        if (block != Block::None) {
            bool ok = true;
            if (block == Block::Time || block == Block::TimeBlack)
                ok = time_key(s.time[core::BLACK], key, value, error);
            if (ok && (block == Block::Time || block == Block::TimeWhite))
                ok = time_key(s.time[core::WHITE], key, value, error);
            if (!ok)
                return fail(i, error);
            continue;
        }
        if (key == "Game_ID") {
            if (value.empty() || value.find(' ') != std::string_view::npos)
                return fail(i, "bad Game_ID '" + std::string(value) + "'");
            s.game_id = value;
            have_id = true;
        } else if (key == "Name+") {
            s.names[core::BLACK] = value;
        } else if (key == "Name-") {
            s.names[core::WHITE] = value;
        } else if (key == "Your_Turn") {
            if (value != "+" && value != "-")
                return fail(i, "bad Your_Turn '" + std::string(value) + "'");
            s.me = value == "+" ? core::BLACK : core::WHITE;
            have_turn = true;
        } else if (key == "Max_Moves") {
            auto v = to_number(value);
            if (!v || *v > 100000)
                return fail(i, "bad Max_Moves '" + std::string(value) + "'");
            s.max_moves = int(*v);
        } else if (key == "Protocol_Version" && !value.starts_with("1.")) {
            return fail(i, "unsupported Protocol_Version " + std::string(value));
        }
    }
    if (block != Block::None)
        return core::unexpected(std::string("Game_Summary: a BEGIN block is not closed"));
    if (!have_id || !have_turn || !have_position)
        return core::unexpected(std::string("Game_Summary without ")
                                + (!have_id     ? "Game_ID"
                                   : !have_turn ? "Your_Turn"
                                                : "Position"));
    if (!shared_time && (side_time[0] != side_time[1]))
        return core::unexpected(std::string("Game_Summary: a Time+ block without Time- or the other way round"));
    auto rec = notation::read_csa(position);
    if (!rec)
        return core::unexpected("Game_Summary Position, line " + std::to_string(rec.error().line - 1) + ": "
                                + rec.error().message);
    s.start_sfen = rec->start_sfen;
    for (auto& m : rec->moves) {
        s.played.push_back(m.move);
        s.played_units.push_back(m.time_ms ? *m.time_ms / 1000 : 0);  // read_csa counts T<n> as seconds
    }
    return s;
}

// --- clocks

void CsaClocks::reset(const CsaTime (&time)[core::COLOR_NB]) {
    for (core::Color c : {core::BLACK, core::WHITE}) {
        time_[c] = time[c];
        remaining_[c] = time[c].total * time[c].unit_ms;
    }
}

void CsaClocks::charge(core::Color c, long long units) {
    const CsaTime& t = time_[c];
    long long used = std::max(units, t.least) * t.unit_ms;
    remaining_[c] = std::max(0LL, remaining_[c] + t.increment * t.unit_ms - used);
}

long long CsaClocks::allowance_ms(core::Color c) const {
    const CsaTime& t = time_[c];
    // The server truncates the time used to whole units: anything short of the next unit is free.
    long long slack = t.roundup ? 0 : t.unit_ms - 1;
    return remaining_[c] + (t.byoyomi + t.increment) * t.unit_ms + slack;
}

engine::Limits CsaClocks::limits(int margin_ms) const {
    engine::Limits l;
    for (core::Color c : {core::BLACK, core::WHITE}) {
        l.time[c] = int(std::min<long long>(remaining_[c], 1LL << 30));
        l.inc[c] = int(time_[c].increment * time_[c].unit_ms);
    }
    // Byoyomi is shared by the mover only; USI has one byoyomi figure.
    long long byo = std::max(time_[core::BLACK].byoyomi * time_[core::BLACK].unit_ms,
                             time_[core::WHITE].byoyomi * time_[core::WHITE].unit_ms);
    l.byoyomi = int(std::min<long long>(byo, 1LL << 30));
    // The margin comes off the byoyomi when there is one, else off the main time.
    if (l.byoyomi > 0) {
        l.byoyomi = std::max(0, l.byoyomi - margin_ms);
    } else {
        for (core::Color c : {core::BLACK, core::WHITE})
            l.time[c] = std::max(0, l.time[c] - margin_ms);
    }
    if (!l.use_time())
        l.movetime = std::max(1, 100 - margin_ms / 10);  // nothing left: answer at once
    return l;
}

// --- the connection

class CsaClient::Connection {
public:
    ~Connection() { close(); }

    bool open(const std::string& host, int port, std::string& error) {
        addrinfo hints{};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        addrinfo* res = nullptr;
        int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
        if (rc != 0) {
            error = "cannot resolve " + host + ": " + ::gai_strerror(rc);
            return false;
        }
        error = "cannot connect to " + host + ":" + std::to_string(port);
        for (addrinfo* a = res; a; a = a->ai_next) {
            int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
            if (fd < 0)
                continue;
            if (::connect(fd, a->ai_addr, a->ai_addrlen) == 0) {
                int one = 1;
                ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                ::setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
                fd_ = fd;
                break;
            }
            error += std::string(": ") + std::strerror(errno);
            ::close(fd);
        }
        ::freeaddrinfo(res);
        return fd_ >= 0;
    }

    void close() {
        if (fd_ >= 0)
            ::close(fd_);
        fd_ = -1;
    }

    bool write_line(const std::string& line) {
        if (fd_ < 0)
            return false;
        std::string data = line + "\n";
        std::size_t off = 0;
        while (off < data.size()) {
            ssize_t n = ::send(fd_, data.data() + off, data.size() - off, MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                reader_.end();
                return false;
            }
            off += std::size_t(n);
        }
        last_write_ = SteadyClock::now();
        return true;
    }

    using Read = LineReader::Read;
    /// One line (LF, a CR before it dropped) until `deadline`; Wake when `wake_fd` is readable.
    Read read_line(std::string& line, SteadyClock::time_point deadline, int wake_fd = -1) {
        return reader_.read_line(fd_, line, deadline, wake_fd);
    }

    SteadyClock::time_point last_write() const { return last_write_; }

private:
    int fd_ = -1;
    LineReader reader_{{.max_line = 1 << 20}};  // a server that never ends its line is not a CSA server
    SteadyClock::time_point last_write_ = SteadyClock::now();
};

// --- the client

std::string floodgate_comment(const core::Position& before, core::Move played, const MoveReply& reply) {
    if (!reply.score)
        return {};
    int score = before.side_to_move() == core::BLACK ? *reply.score : -*reply.score;
    std::string out = "'* " + std::to_string(score);
    if (reply.pv.empty() || reply.pv[0] != core::to_usi(played) || !before.is_legal(played))
        return out;  // no line, or one for another move than the one played
    auto pos = before.clone();
    pos->play(played);
    for (std::size_t i = 1; i < reply.pv.size() && i <= 32; ++i) {
        auto m = notation::parse_usi_move(*pos, reply.pv[i]);
        if (!m || !pos->is_legal(*m))
            break;
        out += " " + notation::format_csa_move(*m);
        pos->play(*m);
    }
    return out;
}

CsaClient::CsaClient(CsaClientOptions options, EnginePlayer& engine) : options_(std::move(options)), engine_(engine) {}

void CsaClient::note(const std::string& line) const {
    if (options_.log)
        options_.log(line);
}

core::Result<void, std::string> CsaClient::run() {
    int failures = 0;
    while (options_.games == 0 || int(outcomes_.size()) < options_.games) {
        std::string error;
        Step step = play_one(error);
        if (step == Step::Fatal)
            return core::unexpected(error);
        if (step == Step::Done) {
            failures = 0;
            continue;
        }
        if (++failures > options_.reconnects)
            return core::unexpected(error + " (gave up after " + std::to_string(options_.reconnects) + " reconnects)");
        note("# " + error + "; reconnecting in " + std::to_string(options_.reconnect_delay_ms) + " ms");
        std::this_thread::sleep_for(std::chrono::milliseconds(options_.reconnect_delay_ms));
    }
    return {};
}

CsaClient::Step CsaClient::play_one(std::string& error) {
    Connection conn;
    if (!conn.open(options_.host, options_.port, error))
        return Step::Retry;
    note("# connected to " + options_.host + ":" + std::to_string(options_.port));
    std::string secret_free = options_.password;
    if (auto comma = secret_free.find(','); comma != std::string::npos)
        secret_free = secret_free.substr(0, comma) + ",***";
    else
        secret_free = "***";
    note("> LOGIN " + options_.user + " " + secret_free);
    if (!conn.write_line("LOGIN " + options_.user + " " + options_.password))
        return error = "connection closed before LOGIN", Step::Retry;
    std::string line;
    auto deadline = SteadyClock::now() + std::chrono::seconds(60);
    for (;;) {
        auto r = conn.read_line(line, deadline);
        if (r == Connection::Read::Eof)
            return error = "connection closed during LOGIN", Step::Retry;
        if (r == Connection::Read::Timeout)
            return error = "no answer to LOGIN", Step::Retry;
        note("< " + line);
        if (line == "LOGIN:incorrect")
            return error = "LOGIN:incorrect (wrong name or password, or a bad game name)", Step::Fatal;
        if (line.starts_with("LOGIN:") && line.ends_with(" OK"))
            break;
    }
    for (;;) {
        CsaSummary summary;
        if (Step s = wait_for_game(conn, summary, error); s != Step::Done)
            return s;
        GameSetup setup;
        setup.start_sfen = summary.start_sfen;
        setup.color = summary.me;
        CsaClocks clocks;
        clocks.reset(summary.time);
        setup.limits = clocks.limits(options_.margin_ms);
        if (auto r = engine_.new_game(setup); !r) {
            note("> REJECT " + summary.game_id);
            conn.write_line("REJECT " + summary.game_id);
            return error = "the engine cannot play: " + r.error(), Step::Fatal;
        }
        note("> AGREE " + summary.game_id);
        if (!conn.write_line("AGREE " + summary.game_id))
            return error = "connection closed after the Game_Summary", Step::Retry;
        bool started = false;
        while (!started) {
            auto r = conn.read_line(line, SteadyClock::now() + std::chrono::seconds(options_.keepalive_s));
            if (r == Connection::Read::Eof)
                return error = "connection closed before START", Step::Retry;
            if (r == Connection::Read::Timeout) {
                conn.write_line("");
                continue;
            }
            if (!line.empty())
                note("< " + line);
            if (line.starts_with("START:"))
                started = true;
            else if (line.starts_with("REJECT:"))
                break;  // the opponent rejected: wait for the next offer
        }
        if (!started)
            continue;
        Step s = play_game(conn, summary, error);
        if (s == Step::Done) {
            note("> LOGOUT");
            conn.write_line("LOGOUT");
            auto until = SteadyClock::now() + std::chrono::seconds(2);
            while (conn.read_line(line, until) == Connection::Read::Line)
                if (line == "LOGOUT:completed")
                    break;
        }
        return s;
    }
}

CsaClient::Step CsaClient::wait_for_game(Connection& conn, CsaSummary& summary, std::string& error) {
    std::string line;
    std::vector<std::string> lines;
    bool inside = false;
    for (;;) {
        auto r = conn.read_line(line, conn.last_write() + std::chrono::seconds(options_.keepalive_s));
        if (r == Connection::Read::Eof)
            return error = "connection closed while waiting for a game", Step::Retry;
        if (r == Connection::Read::Timeout) {
            conn.write_line("");  // keep-alive
            continue;
        }
        if (!line.empty())
            note("< " + line);
        if (line == "BEGIN Game_Summary") {
            inside = true;
            lines.clear();
        } else if (line == "END Game_Summary" && inside) {
            auto s = parse_game_summary(lines);
            if (s) {
                summary = std::move(*s);
                return Step::Done;
            }
            note("# " + s.error());
            std::string id;
            for (auto& l : lines)
                if (l.starts_with("Game_ID:"))
                    id = l.substr(8);
            conn.write_line("REJECT" + (id.empty() ? "" : " " + id));  // a game we cannot read
            inside = false;
        } else if (inside) {
            if (lines.size() > 10000)
                return error = "Game_Summary too long", Step::Retry;
            lines.push_back(line);
        }
    }
}

// One game from its Game_Summary to its end. The engine thinks on its own thread; meanwhile
// the loop reads the server (lines that arrive then are held and handled after the answer, so
// that the game is not changed under the thinker) and sends keep-alives.
class CsaClient::GameLoop {
public:
    GameLoop(CsaClient& client, Connection& conn, const CsaSummary& summary)
        : client_(client), conn_(conn), summary_(summary) {}
    ~GameLoop() {
        if (thinker_.joinable())
            thinker_.join();
        for (int fd : wake_)
            if (fd >= 0)
                ::close(fd);
    }

    Step run(std::string& error) {
        if (auto r = game_.reset(summary_.start_sfen); !r)
            return error = "bad start position: " + r.error().message, Step::Fatal;
        clocks_.reset(summary_.time);
        for (std::size_t i = 0; i < summary_.played.size(); ++i) {
            core::Color mover = game_.position().side_to_move();
            (void)game_.play(summary_.played[i]);
            clocks_.charge(mover, summary_.played_units[i]);
        }
        outcome_.game_id = summary_.game_id;
        outcome_.me = summary_.me;
        outcome_.plies = int(summary_.played.size());
        if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0)
            return error = std::string("pipe: ") + std::strerror(errno), Step::Fatal;
        if (!loop())
            // A server with a reconnect grace offers the game again at the next login (the
            // Game_Summary lists the moves so far); otherwise the game is lost and not counted.
            return error = "connection lost during game " + summary_.game_id, Step::Retry;
        finish();
        return Step::Done;
    }

private:
    // Reads the server until the game ends (true) or the connection drops (false).
    bool loop() {
        std::string line;
        while (!ended_) {
            if (!thinking_ && !thinker_.joinable() && !awaiting_echo_ && game_.position().side_to_move() == summary_.me)
                start_thinking();
            auto keepalive_at = conn_.last_write() + std::chrono::seconds(client_.options_.keepalive_s);
            auto r = conn_.read_line(line, keepalive_at, thinker_.joinable() ? wake_[0] : -1);
            if (r == Connection::Read::Wake || (thinker_.joinable() && !thinking_)) {
                answer();
                while (!held_.empty() && !ended_) {
                    handle(held_.front());
                    held_.pop_front();
                }
                if (r == Connection::Read::Wake)
                    continue;
            }
            if (r == Connection::Read::Timeout) {
                conn_.write_line("");  // keep-alive (also while the engine thinks)
                continue;
            }
            if (r == Connection::Read::Eof)
                return false;
            if (r == Connection::Read::Line) {
                if (thinker_.joinable())
                    held_.push_back(line);
                else
                    handle(line);
            }
        }
        return true;
    }

    bool send(const std::string& text) {
        client_.note("> " + text);
        return conn_.write_line(text);
    }
    void resign(const std::string& why) {
        client_.note("# " + why + ": resigning");
        send("%TORYO");
        awaiting_echo_ = true;
    }

    // The engine thinks on its own thread within the clock (or to a fixed depth or node count).
    void start_thinking() {
        const CsaClientOptions& o = client_.options_;
        MoveRequest req;
        req.limits = clocks_.limits(o.margin_ms);
        if (o.depth > 0 || o.nodes > 0) {
            req.limits = engine::Limits{};
            req.limits.depth = o.depth;
            req.limits.nodes = std::uint64_t(o.nodes);
        }
        long long allowed = clocks_.allowance_ms(summary_.me) - o.margin_ms;
        req.deadline_ms = int(std::clamp<long long>(allowed, 50, 1LL << 30));
        req.grace_ms = 500;
        thinking_ = true;
        thinker_ = std::thread([this, req] {
            reply_ = client_.engine_.think(game_, req);
            thinking_ = false;
            char one = 1;
            (void)!::write(wake_[1], &one, 1);
        });
    }

    // The engine has answered: its move (with Floodgate's comment), a declaration, or a resignation.
    void answer() {
        thinker_.join();
        char drain[16];
        while (::read(wake_[0], drain, sizeof drain) > 0) {}
        if (ended_)
            return;
        switch (reply_.kind) {
        case MoveReply::Kind::Move:
        case MoveReply::Kind::Late: {
            auto m = notation::parse_usi_move(game_.position(), reply_.text);
            if (!m)
                return resign("the engine played an illegal move '" + reply_.text + "': " + m.error().message);
            if (reply_.kind == MoveReply::Kind::Late)
                client_.note("# the engine " + reply_.detail);
            std::string comment = client_.options_.comments ? floodgate_comment(game_.position(), *m, reply_) : "";
            send(notation::format_csa_move(*m) + (comment.empty() ? "" : "," + comment));
            awaiting_echo_ = true;
            return;
        }
        case MoveReply::Kind::Resign: return resign("the engine resigned");
        case MoveReply::Kind::Win:
            send("%KACHI");
            awaiting_echo_ = true;
            return;
        default: return resign("the engine failed (" + reply_.detail + ")");
        }
    }

    // A line from the server: a move (either side's, ours echoed), the end of the game, or its reason.
    void handle(const std::string& line) {
        if (line.empty() || ended_)
            return;
        client_.note("< " + line);
        if (is_csa_move_line(line))
            return handle_move(line);
        if (line == "#WIN" || line == "#LOSE" || line == "#DRAW" || line == "#CENSORED" || line == "#CHUDAN") {
            std::string r = line.substr(1);
            std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return char(std::tolower(c)); });
            outcome_.result = r;
            outcome_.reason = line == "#CHUDAN" ? "CHUDAN" : reason_;
            ended_ = true;
            return;
        }
        if (line.starts_with("#"))
            reason_ = line.substr(1);
    }
    void handle_move(const std::string& line) {
        core::Color mover = line[0] == '+' ? core::BLACK : core::WHITE;
        if (mover != game_.position().side_to_move()) {
            client_.note("# a move for the side not to move: " + line);
            return;
        }
        auto m = notation::parse_csa_move(game_.position(), std::string_view(line).substr(0, 7));
        if (!m) {
            // The server accepted a move this side cannot read: the games have parted.
            if (mover != summary_.me)
                resign("cannot follow the server's move " + line + ": " + m.error().message);
            return;
        }
        (void)game_.play(*m);
        clocks_.charge(mover, move_time_units(line));
        if (mover == summary_.me)
            awaiting_echo_ = false;
        ++outcome_.plies;
    }

    // The result to the engine and the client's list.
    void finish() {
        core::GameResult result;
        result.winner = outcome_.result == "win"    ? core::winner_of(summary_.me)
                      : outcome_.result == "lose"   ? core::winner_of(~summary_.me)
                      : outcome_.result == "chudan" ? core::Winner::None
                                                    : core::Winner::Draw;
        result.reason = outcome_.result == "chudan" ? core::EndReason::Abort : core::EndReason::None;
        client_.engine_.game_over(result, summary_.me);
        client_.outcomes_.push_back(outcome_);
        client_.note("# game " + outcome_.game_id + " over: " + outcome_.result + " (" + outcome_.reason + ") after "
                     + std::to_string(outcome_.plies) + " moves");
    }

    CsaClient& client_;
    Connection& conn_;
    const CsaSummary& summary_;
    core::Game game_;
    CsaClocks clocks_;
    CsaOutcome outcome_;
    int wake_[2] = {-1, -1};
    std::thread thinker_;
    std::atomic<bool> thinking_ = false;
    MoveReply reply_;
    bool awaiting_echo_ = false, ended_ = false;
    std::string reason_;
    std::deque<std::string> held_;  // lines read while the engine thinks, handled after
};

CsaClient::Step CsaClient::play_game(Connection& conn, const CsaSummary& summary, std::string& error) {
    GameLoop game(*this, conn, summary);
    return game.run(error);
}

}  // namespace hisha::protocol
