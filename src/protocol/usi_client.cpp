// USI engines as child processes.
#include "usi_client.h"

#include <charconv>
#include <cstdlib>
#include <optional>
#include <sstream>

namespace hisha::protocol {

namespace {

bool starts_with_word(const std::string& line, const std::string& word) {
    return line.compare(0, word.size(), word) == 0 && (line.size() == word.size() || line[word.size()] == ' ');
}

}  // namespace

std::string usi_position_command(const core::Game& game) {
    std::string s = game.start_sfen() == core::START_SFEN || game.position().history_length() < 0
                      ? "position startpos"
                      : "position sfen " + game.start_sfen();
    if (!game.moves().empty()) {
        s += " moves";
        for (core::Move m : game.moves())
            s += " " + core::to_usi(m);
    }
    return s;
}

std::string usi_go_command(const engine::Limits& l) {
    if (l.depth > 0)
        return "go depth " + std::to_string(l.depth);
    if (l.nodes > 0)
        return "go nodes " + std::to_string(l.nodes);
    if (l.movetime > 0)
        return "go movetime " + std::to_string(l.movetime);
    std::string s = "go btime " + std::to_string(l.time[core::BLACK]) + " wtime " + std::to_string(l.time[core::WHITE]);
    if (l.byoyomi > 0)
        s += " byoyomi " + std::to_string(l.byoyomi);
    else if (l.inc[core::BLACK] > 0 || l.inc[core::WHITE] > 0)
        s += " binc " + std::to_string(l.inc[core::BLACK]) + " winc " + std::to_string(l.inc[core::WHITE]);
    if (l.moves_to_go > 0)
        s += " movestogo " + std::to_string(l.moves_to_go);
    return s;
}

bool parse_bestmove(const std::string& line, MoveReply& reply) {
    std::istringstream in(line);
    std::string word, move;
    if (!(in >> word >> move) || word != "bestmove")
        return false;
    reply.text = move;
    if (move == "resign")
        reply.kind = MoveReply::Kind::Resign;
    else if (move == "win")
        reply.kind = MoveReply::Kind::Win;
    else
        reply.kind = MoveReply::Kind::Move;
    return true;
}

UsiClient::UsiClient(EngineSpec spec) : ChildEnginePlayer(std::move(spec), 1000) {}

bool UsiClient::wait_for(const std::string& word, int timeout_ms, std::string& failure) {
    auto deadline = SteadyClock::now() + std::chrono::milliseconds(timeout_ms);
    std::string line;
    for (;;) {
        switch (child_.read_line(line, deadline)) {
        case ChildProcess::Read::Wake:  // (it is given no wake descriptor)
        case ChildProcess::Read::Timeout:
            failure = "no '" + word + "' within " + std::to_string(timeout_ms) + " ms";
            return false;
        case ChildProcess::Read::Eof:
            failure = "the engine exited (" + child_.exit_description() + ") before '" + word + "'";
            return false;
        case ChildProcess::Read::Line: break;
        }
        log_received(line);
        if (starts_with_word(line, "id name"))
            identity_ = line.size() > 8 ? line.substr(8) : "";
        else if (starts_with_word(line, "option")) {
            std::istringstream in(line);
            std::string w, n;
            if (in >> w >> w >> n)
                declared_.push_back(n);
        }
        if (starts_with_word(line, word))
            return true;
    }
}

core::Result<void, std::string> UsiClient::start() {
    if (child_.running())
        return {};
    declared_.clear();
    if (auto r = child_.spawn(command_, false); !r)
        return core::unexpected(spec_.name + ": " + r.error());
    std::string failure;
    send("usi");  // a failed write shows up as end of output below, with the exit status
    if (!wait_for("usiok", spec_.startup_timeout_ms, failure)) {
        child_.terminate(0);
        return core::unexpected(spec_.name + " (" + command_ + "): " + failure);
    }
    auto declared = [&](const std::string& n) {
        for (const auto& d : declared_)
            if (d == n)
                return true;
        return false;
    };
    if (declared("USI_Ponder"))
        send("setoption name USI_Ponder value false");
    for (const auto& [key, value] : spec_.options)
        send("setoption name " + key + (value.empty() ? "" : " value " + value));
    return {};
}

core::Result<void, std::string> UsiClient::new_game(const GameSetup&) {
    if (auto r = start(); !r)
        return r;
    std::string failure;
    send("isready");
    if (!wait_for("readyok", spec_.startup_timeout_ms, failure)) {
        child_.terminate(0);
        return core::unexpected(spec_.name + ": " + failure);
    }
    send("usinewgame");
    return {};
}

void UsiClient::note_info(const std::string& line, MoveReply& reply) const {
    std::istringstream in(line);
    std::string w;
    auto number = [](const std::string& t) -> std::optional<int> {
        int v = 0;
        const char* b = t.data() + (t.size() > 1 && t[0] == '+' ? 1 : 0);
        auto [end, ec] = std::from_chars(b, t.data() + t.size(), v);
        return ec == std::errc() && end == t.data() + t.size() ? std::optional<int>(v) : std::nullopt;
    };
    while (in >> w) {
        if (w == "depth") {
            if (in >> w && number(w))
                reply.depth = *number(w);
        } else if (w == "multipv") {
            if (in >> w && number(w) && *number(w) != 1)
                return;  // another line than the best: its score and moves are not the engine's choice
        } else if (w == "score") {
            std::string kind, value;
            in >> kind >> value;
            if (kind == "cp" && number(value)) {
                reply.score = *number(value);
            } else if (kind == "mate" && !value.empty()) {
                // `mate N` counts plies (negative: being mated); `mate +` / `mate -` have no length
                bool losing = value[0] == '-';
                int plies = number(value) ? std::abs(*number(value)) : 0;
                reply.score = losing ? -MATE_SCORE + plies : MATE_SCORE - plies;
            }
        } else if (w == "pv") {
            reply.pv.clear();
            while (in >> w)
                reply.pv.push_back(w);
            return;
        } else if (w == "string") {
            return;
        }
    }
}

MoveReply UsiClient::crashed(SteadyClock::time_point t0, const std::string& when) {
    MoveReply reply;
    reply.kind = MoveReply::Kind::Crash;
    reply.elapsed_ms = elapsed_ms_since(t0);
    child_.terminate(200);
    reply.detail = "the engine exited " + when + " (" + child_.exit_description() + ")";
    return reply;
}

MoveReply UsiClient::think(const core::Game& game, const MoveRequest& request) {
    auto t0 = SteadyClock::now();
    if (!child_.running())
        return crashed(t0, "before its move");
    if (!send(usi_position_command(game)) || !send(usi_go_command(request.limits)))
        return crashed(t0, "before its move");
    t0 = SteadyClock::now();
    return read_bestmove(t0, request);
}

MoveReply UsiClient::read_bestmove(SteadyClock::time_point t0, const MoveRequest& request) {
    MoveReply reply;
    auto deadline = t0 + std::chrono::milliseconds(request.deadline_ms);
    std::string line;
    for (;;) {
        switch (child_.read_line(line, deadline)) {
        case ChildProcess::Read::Wake:  // (it is given no wake descriptor)
        case ChildProcess::Read::Timeout: return after_deadline(t0, request, reply);
        case ChildProcess::Read::Eof: return crashed(t0, "while thinking");
        case ChildProcess::Read::Line: break;
        }
        log_received(line);
        if (starts_with_word(line, "info")) {
            note_info(line, reply);
        } else if (starts_with_word(line, "bestmove")) {
            reply.elapsed_ms = elapsed_ms_since(t0);
            if (!parse_bestmove(line, reply)) {
                reply.kind = MoveReply::Kind::Move;
                reply.text = line;  // the referee refuses it as an unreadable move
            }
            return reply;
        }
    }
}

// The deadline passed: ask the engine to stop, then take a late answer or give up on it.
MoveReply UsiClient::after_deadline(SteadyClock::time_point t0, const MoveRequest& request, MoveReply reply) {
    send("stop");
    auto grace = SteadyClock::now() + std::chrono::milliseconds(request.grace_ms);
    std::string line;
    for (;;) {
        switch (child_.read_line(line, grace)) {
        case ChildProcess::Read::Wake:  // (it is given no wake descriptor)
        case ChildProcess::Read::Timeout:
            reply.kind = MoveReply::Kind::Hang;
            reply.elapsed_ms = elapsed_ms_since(t0);
            reply.detail = "no bestmove, even " + std::to_string(request.grace_ms) + " ms after stop";
            child_.terminate(0);
            return reply;
        case ChildProcess::Read::Eof: return crashed(t0, "while thinking");
        case ChildProcess::Read::Line: break;
        }
        log_received(line);
        if (starts_with_word(line, "bestmove")) {
            reply.elapsed_ms = elapsed_ms_since(t0);
            parse_bestmove(line, reply);
            reply.kind = MoveReply::Kind::Late;
            reply.detail = "bestmove came after " + std::to_string(reply.elapsed_ms) + " ms";
            return reply;
        }
    }
}

void UsiClient::game_over(const core::GameResult& result, core::Color me) {
    if (!child_.running())
        return;
    const char* word = result.winner == core::Winner::Draw  ? "draw"
                     : result.winner == core::winner_of(me) ? "win"
                     : result.winner == core::Winner::None  ? nullptr
                                                            : "lose";
    if (word)
        send(std::string("gameover ") + word);
}

}  // namespace hisha::protocol
