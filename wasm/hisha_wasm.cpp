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
//   record PATH            reads the record in the file PATH (any format hisha reads: KIF, KI2, CSA,
//                          PSN, SFEN ...; the worker writes the pasted text there) and sets its start
//                          and main line as the position: "record start SFEN", "record header
//                          KEY<tab>VALUE" each, "record comment PLY TEXT" each (ply 0: before the
//                          first move), "record result WINNER REASON" (a game that ended;
//                          WINNER black, white, draw or none, REASON the core's words), then
//                          "record end"; the moves' texts come from `board` after it (offline load)
//
// A bad command or argument answers "info string error: ..." and changes nothing. Nothing here
// throws across the boundary: every number is read with std::from_chars.
#include <emscripten/emscripten.h>

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/engine.h"
#include "notation/formats.h"
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

/// A comment's text on one line (the page splits its answer into lines).
std::string one_line(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r')
            c = ' ';
    return text;
}

void cmd_record(std::istringstream& in) {
    std::string path;
    std::getline(in >> std::ws, path);
    std::ifstream file(path, std::ios::binary);
    if (path.empty() || !file)
        return error("record PATH: no file " + path);
    std::string bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    auto rec = notation::read_record(bytes, path);
    if (!rec)
        return error("cannot read the record: " + rec.error().to_string());
    auto end = notation::final_position(*rec);
    if (!end)
        return error("cannot read the record: " + end.error().to_string());
    State& s = state();
    s.pos = std::move(*end);
    s.start_sfen = notation::start_position(*rec)->sfen();
    s.moves = rec->main_line();
    send("record start " + s.start_sfen);
    for (const auto& h : rec->headers)
        send("record header " + one_line(h.key) + '\t' + one_line(h.value));
    for (const auto& c : rec->start_comments)
        send("record comment 0 " + one_line(c));
    for (std::size_t i = 0; i < rec->moves.size(); ++i)
        for (const auto& c : rec->moves[i].comments)
            send("record comment " + std::to_string(i + 1) + ' ' + one_line(c));
    if (rec->result.reason != core::EndReason::None) {
        core::Winner w = rec->result.winner;
        const char* winner = w == core::Winner::Black ? "black"
                           : w == core::Winner::White ? "white"
                           : w == core::Winner::Draw  ? "draw"
                                                      : "none";
        send(std::string("record result ") + winner + ' ' + core::describe(rec->result.reason));
    }
    send("record end");
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
    else if (cmd == "record")
        cmd_record(in);
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
