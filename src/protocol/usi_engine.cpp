// USI command handling.
#include "usi_engine.h"

#include <cstdint>
#include <iostream>
#include <map>
#include <sstream>
#include <string_view>
#include <variant>

#include "core/movegen.h"
#include "core/version.h"
#include "engine/bench_signature.h"
#include "notation/usi.h"
#include "tsume/solver.h"

namespace hisha::protocol {

using namespace core;

const UsiEngine::Command UsiEngine::COMMANDS[] = {
    {"usi", &UsiEngine::cmd_usi, "identify the engine and list its options"},
    {"isready", &UsiEngine::cmd_isready, "answer readyok when ready"},
    {"setoption", &UsiEngine::cmd_setoption, "setoption name <id> [value <x>]"},
    {"usinewgame", &UsiEngine::cmd_usinewgame, "a new game starts"},
    {"position", &UsiEngine::cmd_position, "position startpos|sfen <sfen> [moves <m>...]"},
    {"go", &UsiEngine::cmd_go,
     "go [btime t] [wtime t] [byoyomi t] [binc t] [winc t] [movestogo n] [movetime t] [depth d] [nodes n] "
     "[infinite] [ponder] [mate t|infinite] [searchmoves m...]"},
    {"stop", &UsiEngine::cmd_stop, "stop thinking and answer bestmove"},
    {"ponderhit", &UsiEngine::cmd_ponderhit, "the pondered move was played"},
    {"gameover", &UsiEngine::cmd_gameover, "gameover win|lose|draw"},
    {"quit", &UsiEngine::cmd_quit, "exit"},
    {"d", &UsiEngine::cmd_display, "show the position as an SFEN with its legal moves"},
    {"perft", &UsiEngine::cmd_perft, "perft <depth>: count the legal move tree"},
    {"bench", &UsiEngine::cmd_bench, "bench [depth]: fixed-depth search of the bench positions"},
    {"eval", &UsiEngine::cmd_eval, "static evaluation of the position"},
    {"help", &UsiEngine::cmd_help, "list the commands"},
};

UsiEngine::UsiEngine(std::istream& in, std::ostream& out) : in_(in), out_(out), pos_(std::make_unique<Position>()) {}

UsiEngine::~UsiEngine() {
    stop_mate_search();
    engine_.stop();
    engine_.pool().pondering_ = false;
    engine_.wait();
}

void UsiEngine::send(const std::string& line) {
    std::lock_guard<std::mutex> lock(out_mutex_);
    out_ << line << '\n' << std::flush;
}

int UsiEngine::run() {
    std::string line;
    while (!quit_ && std::getline(in_, line))
        handle(line);
    // At the end of input a bounded search (depth, nodes, time) may finish and report, so
    // that `echo "position ...\ngo depth 10" | hisha usi` works; an unbounded one stops.
    const auto& l = engine_.pool().limits;
    if (quit_ || l.infinite || engine_.pool().pondering_) {
        engine_.pool().pondering_ = false;
        engine_.stop();
    }
    engine_.wait();
    if (mate_thread_.joinable())
        mate_thread_.join();  // a bounded mate search reports before the end
    return 0;
}

bool UsiEngine::handle(const std::string& raw) {
    std::string line = raw;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
        line.pop_back();
    std::istringstream args(line);
    std::string name;
    if (!(args >> name))
        return true;
    for (const Command& c : COMMANDS)
        if (name == c.name) {
            (this->*c.handler)(args);
            return true;
        }
    send("info string unknown command: " + name);
    return false;
}

void UsiEngine::cmd_usi(std::istringstream&) {
    send(std::string("id name Hisha ") + version());
    send("id author the Hisha developers");
    for (const auto& o : engine_.options()) {
        std::string line = "option name " + o.name + " type ";
        switch (o.type) {
        case engine::EngineOption::Type::Spin:
            line +=
                "spin default " + o.default_value + " min " + std::to_string(o.min) + " max " + std::to_string(o.max);
            break;
        case engine::EngineOption::Type::Check: line += "check default " + o.default_value; break;
        case engine::EngineOption::Type::Combo:
            line += "combo default " + o.default_value;
            for (const auto& v : o.vars)
                line += " var " + v;
            break;
        case engine::EngineOption::Type::Button: line += "button"; break;
        case engine::EngineOption::Type::String:
            line += "string default " + (o.default_value.empty() ? std::string("<empty>") : o.default_value);
            break;
        case engine::EngineOption::Type::Filename:
            line += "filename default " + (o.default_value.empty() ? std::string("<empty>") : o.default_value);
            break;
        }
        send(line);
    }
    send("usiok");
}

void UsiEngine::cmd_isready(std::istringstream&) { send("readyok"); }

void UsiEngine::cmd_setoption(std::istringstream& args) {
    std::string token, name, value;
    bool in_value = false;
    args >> token;  // "name"
    while (args >> token) {
        if (!in_value && token == "value") {
            in_value = true;
            continue;
        }
        std::string& target = in_value ? value : name;
        target += (target.empty() ? "" : " ") + token;
    }
    if (engine_.searching()) {
        send("info string setoption ignored while searching");
        return;
    }
    std::string err = engine_.set_option(name, value);
    if (!err.empty())
        send("info string " + err);
}

void UsiEngine::cmd_usinewgame(std::istringstream&) {
    if (!engine_.searching())
        engine_.new_game();
}

void UsiEngine::cmd_position(std::istringstream& args) {
    std::string rest;
    std::getline(args, rest);
    auto rec = notation::parse_usi_position(rest);
    if (!rec) {
        send("info string bad position: " + rec.error().to_string());
        return;
    }
    auto pos = std::make_unique<Position>();
    if (auto r = pos->set(rec->start_sfen, SfenRules::Relaxed); !r) {
        send("info string bad position: " + r.error().to_string());
        return;
    }
    for (const auto& m : rec->moves)
        pos->play(m.move);
    pos_ = std::move(pos);
}

void UsiEngine::finish_search() {
    stop_mate_search();
    engine_.pool().pondering_ = false;
    engine_.stop();
    engine_.wait();
}

void UsiEngine::cmd_go(std::istringstream& args) {
    auto start = engine::Clock::now();
    // A go while a search runs (from a GUI that sent no stop): the running search ends first,
    // with its bestmove, as at a stop. Waiting for it instead would hang: an infinite search
    // ends only at a stop, and this thread, the one that reads it, would be waiting.
    finish_search();
    engine::Limits l;
    std::vector<Move> search_moves;
    std::string token;
    bool mate = false;
    std::string mate_limit = "infinite";
    // The numeric arguments, each read into its limit (a negative number as 0).
    const std::map<std::string_view, std::variant<int*, std::uint64_t*>> numbers = {
        {"btime", &l.time[BLACK]}, {"wtime", &l.time[WHITE]}, {"byoyomi", &l.byoyomi},
        {"binc", &l.inc[BLACK]},   {"winc", &l.inc[WHITE]},   {"movestogo", &l.moves_to_go},
        {"movetime", &l.movetime}, {"depth", &l.depth},       {"nodes", &l.nodes},
    };
    auto read_number = [&](auto* target) {
        long long v = 0;
        if (args >> v)
            *target = std::remove_pointer_t<decltype(target)>(std::max(0LL, v));
    };
    while (args >> token) {
        if (auto n = numbers.find(token); n != numbers.end())
            std::visit(read_number, n->second);
        else if (token == "infinite")
            l.infinite = true;
        else if (token == "ponder")
            l.ponder = true;
        else if (token == "mate") {
            mate = true;
            args >> mate_limit;
        } else if (token == "searchmoves") {
            while (args >> token) {
                auto m = notation::parse_usi_move(*pos_, token);
                if (m)
                    search_moves.push_back(*m);
            }
        }
    }
    if (mate) {
        start_mate_search(mate_limit);
        return;
    }
    // ResignValue: a game's move whose score is that far below even resigns instead (never an
    // analysis, which has no game to end).
    int resign_below = std::stoi(engine_.option("ResignValue"));
    bool may_resign = resign_below < 99999 && !l.infinite && !l.ponder;
    engine_.go(
        *pos_, l, [this](const engine::SearchInfo& info) { send(info_line(info)); },
        [this, may_resign, resign_below](const engine::SearchResult& r) {
            if (!r.best || (may_resign && r.best != core::Move::win() && r.score <= -resign_below))
                send("bestmove resign");
            else if (r.ponder)
                send("bestmove " + to_usi(r.best) + " ponder " + to_usi(r.ponder));
            else
                send("bestmove " + to_usi(r.best));
        },
        search_moves, start);
}

std::string UsiEngine::info_line(const engine::SearchInfo& info) const {
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
        for (Move m : info.pv)
            s << ' ' << to_usi(m);
    }
    return s.str();
}

// `go mate <ms>|infinite`: the df-pn solver proves the shortest mate; the answer is
// `checkmate <moves>`, `checkmate nomate` (proved) or `checkmate timeout` (never a guess).
void UsiEngine::start_mate_search(const std::string& limit) {
    stop_mate_search();
    mate_stop_ = false;
    tsume::Limits lim;
    lim.stop = &mate_stop_;
    if (limit != "infinite") {
        char* end = nullptr;
        long ms = std::strtol(limit.c_str(), &end, 10);
        lim.time_limit_s = (*end || ms <= 0) ? 0 : double(ms) / 1000.0;
    }
    auto pos = pos_->clone();
    mate_thread_ = std::thread([this, pos = std::move(pos), lim] {
        tsume::Result r = tsume::solve(*pos, lim);
        if (r.status == tsume::Status::Mate && !r.pv.empty()) {
            std::string line = "checkmate";
            for (Move m : r.pv)
                line += ' ' + to_usi(m);
            send(line);
        } else
            send(r.status == tsume::Status::NoMate ? "checkmate nomate" : "checkmate timeout");
    });
}

void UsiEngine::stop_mate_search() {
    mate_stop_ = true;
    if (mate_thread_.joinable())
        mate_thread_.join();
}

void UsiEngine::cmd_stop(std::istringstream&) {
    if (mate_thread_.joinable()) {
        stop_mate_search();
        return;
    }
    engine_.pool().pondering_ = false;
    engine_.stop();
}

void UsiEngine::cmd_ponderhit(std::istringstream&) { engine_.ponderhit(); }

void UsiEngine::cmd_gameover(std::istringstream&) {
    engine_.pool().pondering_ = false;
    engine_.stop();
}

void UsiEngine::cmd_quit(std::istringstream&) {
    quit_ = true;
    stop_mate_search();
    engine_.pool().pondering_ = false;
    engine_.stop();
}

void UsiEngine::cmd_display(std::istringstream&) {
    send("info string sfen " + pos_->sfen());
    std::string moves = "info string moves";
    for (const auto& sm : MoveList<LEGAL, true>(*pos_))
        moves += ' ' + to_usi(sm.move);
    send(moves);
}

void UsiEngine::cmd_perft(std::istringstream& args) {
    int depth = 1;
    args >> depth;
    auto p = pos_->clone();
    auto t0 = engine::Clock::now();
    std::uint64_t n = perft(*p, std::clamp(depth, 0, 10));
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(engine::Clock::now() - t0).count();
    send("info string perft " + std::to_string(depth) + " nodes " + std::to_string(n) + " time " + std::to_string(ms));
}

void UsiEngine::cmd_bench(std::istringstream& args) {
    int depth = engine::BENCH_DEPTH;
    args >> depth;
    int ms = 0;
    std::uint64_t n = engine_.bench(std::clamp(depth, 1, 30), &ms);
    send("info string bench nodes " + std::to_string(n) + " time " + std::to_string(ms));
}

void UsiEngine::cmd_eval(std::istringstream&) {
    send("info string eval " + std::to_string(engine_.pool().evaluator->evaluate(*pos_)) + " (side to move)");
}

void UsiEngine::cmd_help(std::istringstream&) {
    for (const Command& c : COMMANDS)
        send(std::string("info string ") + c.name + ": " + c.help);
}

}  // namespace hisha::protocol
