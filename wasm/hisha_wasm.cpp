// The engine and the tsume solver for the browser (WebAssembly, emscripten): a USI-like line
// interface. JavaScript calls hisha_command(line); every answer is a line on stdout, which the
// glue hands to Module.print (the Web Worker posts each to the page). One thread: `go` searches
// on the caller's thread and returns when the search ends, so it takes a depth, a movetime or
// a node count (never `infinite`: nothing could stop it; the worker steps depths instead).
//
//   usi | isready | usinewgame | setoption name N [value V] | position startpos|sfen ... [moves ...]
//   go [depth D] [movetime MS] [nodes N] [multipv K]      info ... lines, then bestmove
//   notation on|off        after each info line with a pv: "info string western ..." and "info string ja ..."
//   tsume [time_ms MS] [convention ordinary|tsume] sfen SFEN
//                          "tsume <result>" (tsume::format_result) after "info string tsume nodes N time_ms T exact 0|1"
//   bench [DEPTH]          nodes=N time_ms=T nps=X (the positions and settings of `hisha bench`)
//   board                  the position set, as the server's /api/position tells it (the page's
//                          offline fallback): "board sfen S", "board check 0|1", "board legal
//                          USI...", "board move USI WESTERN KI2 KIF" for each move from the start,
//                          "board end"
//
// A bad command or argument answers "info string error: ..." and changes nothing. Nothing here
// throws across the boundary: every number is read with std::from_chars.
#include <emscripten/emscripten.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/engine.h"
#include "notation/japanese.h"
#include "notation/usi.h"
#include "notation/western.h"
#include "tsume/solver.h"

namespace {

using namespace hisha;

struct State {
    engine::Engine engine;
    std::unique_ptr<core::Position> pos = std::make_unique<core::Position>();
    std::string start_sfen{core::START_SFEN};  // the position command's start and moves
    std::vector<core::Move> moves;
    bool notation = false;
    std::unique_ptr<tsume::Solver> solver;
};

State& state() {
    static State s;
    return s;
}

void send(const std::string& line) {
    std::fputs(line.c_str(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

void error(const std::string& why) { send("info string error: " + why); }

template <class T>
bool number(const std::string& s, T& out, T lo, T hi) {
    T v{};
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
        return false;
    out = v;
    return true;
}

/// The western and Japanese (KI2) texts of a line played from `from`.
void send_notation(const core::Position& from, const std::vector<core::Move>& pv) {
    auto p = from.clone();
    std::string western = "info string western", ja = "info string ja";
    core::Move previous = core::Move::none();
    for (core::Move m : pv) {
        if (!p->is_legal(m))
            break;
        western += ' ' + notation::write_western(*p, m);
        ja += ' ' + notation::ki2_move_text(*p, m, previous, true);
        p->play(m);
        previous = m;
    }
    send(western);
    send(ja);
}

std::string info_line(const engine::SearchInfo& info) {
    std::ostringstream s;
    s << "info depth " << info.depth << " seldepth " << info.seldepth << " multipv " << info.multipv << " score ";
    if (engine::is_mate_score(info.score))
        s << "mate " << (info.score > 0 ? engine::VALUE_MATE - info.score : -(engine::VALUE_MATE + info.score));
    else
        s << "cp " << info.score;
    if (info.lowerbound)
        s << " lowerbound";
    else if (info.upperbound)
        s << " upperbound";
    s << " nodes " << info.nodes << " nps " << info.nps << " time " << info.time_ms << " hashfull " << info.hashfull;
    if (!info.pv.empty()) {
        s << " pv";
        for (core::Move m : info.pv)
            s << ' ' << core::to_usi(m);
    }
    return s.str();
}

void cmd_usi() {
    send("id name Hisha (WebAssembly)");
    send("id author the Hisha authors");
    for (const auto& o : state().engine.options())
        send("option name " + o.name + " default " + (o.default_value.empty() ? "<empty>" : o.default_value));
    send("usiok");
}

void cmd_setoption(std::istringstream& in) {
    std::string word, name, value;
    in >> word;
    if (word != "name")
        return error("setoption name N [value V]");
    while (in >> word && word != "value")
        name += (name.empty() ? "" : " ") + word;
    std::getline(in >> std::ws, value);
    if (name == "Threads" && value != "1")
        return error("one thread in the browser");
    if (std::string err = state().engine.set_option(name, value); !err.empty())
        error(err);
}

void cmd_position(std::istringstream& in) {
    std::string rest;
    std::getline(in >> std::ws, rest);
    auto rec = notation::parse_usi_position(rest);
    if (!rec)
        return error("bad position: " + rec.error().to_string());
    auto pos = std::make_unique<core::Position>();
    if (auto r = pos->set(rec->start_sfen, core::SfenRules::Relaxed); !r)
        return error("bad position: " + r.error().to_string());
    std::vector<core::Move> moves;
    for (const auto& m : rec->moves) {
        pos->play(m.move);
        moves.push_back(m.move);
    }
    State& s = state();
    s.pos = std::move(pos);
    s.start_sfen = rec->start_sfen;
    s.moves = std::move(moves);
}

void cmd_board() {
    State& s = state();
    send("board sfen " + s.pos->sfen());
    send(std::string("board check ") + (s.pos->in_check() ? "1" : "0"));
    std::string legal = "board legal";
    for (const auto& sm : core::MoveList<core::LEGAL, true>(*s.pos))
        legal += ' ' + core::to_usi(sm.move);
    send(legal);
    core::Position p;
    if (p.set(s.start_sfen, core::SfenRules::Relaxed)) {
        core::Move previous = core::Move::none();
        for (core::Move m : s.moves) {
            send("board move " + core::to_usi(m) + ' ' + notation::write_western(p, m) + ' '
                 + notation::ki2_move_text(p, m, previous, true) + ' ' + notation::kif_move_text(p, m, previous));
            p.play(m);
            previous = m;
        }
    }
    send("board end");
}

void cmd_go(std::istringstream& in) {
    engine::Limits l;
    std::string word, arg;
    int multipv = 0;
    while (in >> word) {
        bool ok = in >> arg
               && (word == "depth"      ? number(arg, l.depth, 1, 99)
                   : word == "movetime" ? number(arg, l.movetime, 1, 3600000)
                   : word == "nodes"    ? number(arg, l.nodes, std::uint64_t(1), std::uint64_t(1) << 40)
                   : word == "multipv"  ? number(arg, multipv, 1, 20)
                                        : false);
        if (!ok)
            return error("go takes depth D, movetime MS, nodes N, multipv K (not '" + word + "')");
    }
    if (!l.depth && !l.movetime && !l.nodes)
        return error("go needs a limit: depth, movetime or nodes");
    State& s = state();
    if (multipv)
        s.engine.set_option("MultiPV", std::to_string(multipv));
    const core::Position& root = *s.pos;
    engine::SearchResult r = s.engine.search(root, l, [&root, &s](const engine::SearchInfo& info) {
        send(info_line(info));
        if (s.notation && !info.pv.empty())
            send_notation(root, info.pv);
    });
    send(r.best ? "bestmove " + core::to_usi(r.best) : std::string("bestmove resign"));
}

void cmd_tsume(std::istringstream& in) {
    tsume::Limits l;
    l.time_limit_s = 10;
    l.memory_mb = 32;
    std::string word, arg;
    while (in >> word && word != "sfen") {
        int ms = 0;
        if (!(in >> arg))
            return error("tsume [time_ms MS] [convention ordinary|tsume] sfen SFEN");
        if (word == "time_ms" && number(arg, ms, 1, 600000))
            l.time_limit_s = ms / 1000.0;
        else if (word == "convention" && (arg == "ordinary" || arg == "tsume"))
            l.convention = arg == "tsume" ? tsume::Convention::Tsume : tsume::Convention::Ordinary;
        else
            return error("tsume: bad '" + word + " " + arg + "'");
    }
    std::string sfen;
    std::getline(in >> std::ws, sfen);
    core::Position pos;
    if (auto r = pos.set(sfen, core::SfenRules::Relaxed); !r)
        return error("bad position: " + r.error().to_string());
    if (l.convention == tsume::Convention::Tsume)
        tsume::complete_defender_hand(pos);
    State& s = state();
    if (!s.solver)
        s.solver = std::make_unique<tsume::Solver>();
    tsume::Result r = s.solver->solve(pos, l);
    send("info string tsume nodes " + std::to_string(r.nodes) + " time_ms " + std::to_string(int(r.time_s * 1000))
         + " exact " + (r.exact ? "1" : "0"));
    if (s.notation && !r.pv.empty())
        send_notation(pos, r.pv);
    send("tsume " + tsume::format_result(r, l.convention));
}

void cmd_bench(std::istringstream& in) {
    int depth = 9;
    std::string arg;
    if (in >> arg && !number(arg, depth, 1, 30))
        return error("bench [DEPTH 1..30]");
    int ms = 0;
    std::uint64_t nodes = state().engine.bench(depth, &ms);
    send("nodes=" + std::to_string(nodes) + " time_ms=" + std::to_string(ms)
         + " nps=" + std::to_string(ms > 0 ? nodes * 1000 / std::uint64_t(ms) : 0));
}

void run(const std::string& line) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    State& s = state();
    if (cmd.empty() || cmd == "stop" || cmd == "quit")
        return;  // (a search has ended by the time a command is read)
    if (cmd == "usi")
        cmd_usi();
    else if (cmd == "isready")
        send("readyok");
    else if (cmd == "usinewgame")
        s.engine.new_game();
    else if (cmd == "setoption")
        cmd_setoption(in);
    else if (cmd == "position")
        cmd_position(in);
    else if (cmd == "go")
        cmd_go(in);
    else if (cmd == "notation") {
        std::string v;
        in >> v;
        s.notation = v == "on";
    } else if (cmd == "tsume")
        cmd_tsume(in);
    else if (cmd == "bench")
        cmd_bench(in);
    else if (cmd == "board")
        cmd_board();
    else
        error("unknown command: " + cmd);
}

}  // namespace

extern "C" {

/// Runs one command line; its answers go to stdout, a line each.
EMSCRIPTEN_KEEPALIVE void hisha_command(const char* line) { run(line ? line : ""); }

/// The engine for analysis: no book, no time kept in reserve, a 32 MB table.
EMSCRIPTEN_KEEPALIVE void hisha_init() {
    engine::Engine& e = state().engine;
    e.set_option("OwnBook", "false");
    e.set_option("NetworkDelay", "0");
    e.set_option("NetworkDelay2", "0");
    e.set_option("MinimumThinkingTime", "0");
    e.set_option("USI_Hash", "32");
}
}
