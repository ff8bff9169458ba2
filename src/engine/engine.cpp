// Engine options and the search facade.
#include "engine.h"

#include <algorithm>
#include <future>
#include <stdexcept>

#include "core/text.h"
#include "nnue/builtin_net.h"
#include "nnue/evaluator.h"

namespace hisha::engine {

using core::Move;

const std::vector<const char*>& bench_positions() {
    static const std::vector<const char*> positions = {
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "lnsgk1snl/1r4gb1/p1pppp1pp/6p2/1p7/2P6/PP1PPPPPP/1BG4R1/LN1SKGSNL b - 9",
        "ln1g1g1nl/1r1s2k2/p1pp1p1pp/4p1p2/1p5P1/2P1P4/PPSP1PP1P/1BK1GS1R1/LN1G3NL b Bs 27",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        "l7l/3s5/prnp2kp1/2p1Gppnp/1P7/PnPP1P3/3BP2PP/1S1G5/LN1K1G1+rL b SBG3ps 91",
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        "ln3k1nl/1r3g3/p1ppps1pp/1s3pp2/1p7/2P1P1P2/PPSP1P1PP/2G1K1SR1/LN3G1NL b Bbg 31",
        "lr5nl/3g1kg2/2n1ppsp1/p1ps1bp1p/1p7/P1P1P1P1P/1PSPBP3/2G1G1S2/LNK3RNL w 2P 45",
        "3g1k1nl/1r3sg2/p2pp1bpp/2p2pp2/1p3P3/2PPP1PP1/PPS1S3P/1KG4R1/LN1G3NL b BSNL 61",
        "4k4/9/4P4/9/9/9/9/9/4K4 b GS2r2b3g3s4n4l17p 1",
    };
    return positions;
}

// The built-in opening book (book/default_book.sfen, compiled in).
extern const char DEFAULT_BOOK_TEXT[];

namespace {

// The kinds of option, each with the fields it uses.
EngineOption spin(std::string name, int def, int min, int max, std::string help) {
    return {std::move(name), EngineOption::Type::Spin, std::to_string(def), min, max, {}, "", std::move(help)};
}
EngineOption check(std::string name, bool def, std::string help) {
    return {std::move(name), EngineOption::Type::Check, def ? "true" : "false", 0, 0, {}, "", std::move(help)};
}
EngineOption combo(std::string name, std::string def, std::vector<std::string> choices, std::string help) {
    return {std::move(name), EngineOption::Type::Combo, std::move(def), 0, 0, std::move(choices), "", std::move(help)};
}
EngineOption file(std::string name, std::string help) {
    return {std::move(name), EngineOption::Type::Filename, "", 0, 0, {}, "", std::move(help)};
}

// The search and its clock: hash, threads, lines shown, pondering, time kept in reserve.
std::vector<EngineOption> search_options() {
    return {
        spin("USI_Hash", 64, 1, 65536, "transposition table size in MB"),
        spin("Threads", 1, 1, 256, "search threads (Lazy SMP)"),
        spin("MultiPV", 1, 1, 600, "number of best lines to show"),
        check("USI_Ponder", false, "think on the opponent's time"),
        spin("NetworkDelay", 120, 0, 10000, "ms kept in reserve on every move"),
        spin("NetworkDelay2", 120, 0, 10000,
             "ms kept in reserve when a move thinks to the end of its time (the end of a byoyomi)"),
        spin("MinimumThinkingTime", 20, 0, 10000, "least ms spent on a move"),
    };
}

// Rules and results: the entering-king rule, what a draw is worth, the move limit, resigning.
std::vector<EngineOption> rule_options() {
    return {
        combo("EnteringKingRule", "CSARule27", {"NoEnteringKing", "CSARule27"},
              "whether an entering-king declaration wins (bestmove win)"),
        spin("Contempt", 0, -1000, 1000, "centipawns by which a draw counts as a loss for the engine"),
        spin("DrawValueBlack", 0, -30000, 30000,
             "centipawns a draw by repetition is worth to the engine playing Black (YaneuraOu's option)"),
        spin("DrawValueWhite", 0, -30000, 30000,
             "centipawns a draw by repetition is worth to the engine playing White"),
        spin("MaxMovesToDraw", 0, 0, 100000,
             "the game is drawn once this many moves are played, as the GUI or server rules (0: no limit)"),
        spin("ResignValue", 99999, 0, 99999,
             "resign (bestmove resign) when the search's score is this many centipawns or more below even (99999: "
             "never before mate)"),
    };
}

// How it plays: the evaluation, the book, the strength levels, the mate searches.
std::vector<EngineOption> play_options() {
    return {
        // NNUE is the default where the build has a net: it beat Classic in an SPRT (NETS.md).
        combo("Evaluation", nnue::builtin_net() ? "NNUE" : "Classic", {"Classic", "Material", "NNUE"},
              "evaluation module: NNUE (the network of EvalFile, or the built-in one; the default), Classic "
              "(material, placement, king safety: the default of a build without a net) or Material (material only)"),
        file("EvalFile",
             "the network file of Evaluation NNUE (docs/nnue.md); empty: the built-in net; a missing or corrupt file "
             "is reported and the built-in net (Classic in a build without one) evaluates instead"),
        check("OwnBook", true, "play from the opening book when it has the position"),
        file("BookFile", "opening book: GNU Shogi text book or SFEN book (empty: the built-in book)"),
        spin("Skill", 20, 0, 20,
             "playing strength: 0 = 15 kyu ... 14 = 1 kyu, 15 = 1 dan ... 19 = 5 dan, 20 = full strength"),
        check("USI_LimitStrength", false, "play at USI_Strength instead of full strength"),
        spin("USI_Strength", -15, -15, 5, "grade when limited: -15..-1 kyu, 1..5 dan"),
        spin("MateSearchShare", 10, 0, 50,
             "% of a timed move's time first spent by the df-pn mate solver on the position (0 = off)"),
        spin("MateSearchNodes", 0, 0, 1000000,
             "df-pn nodes per mate search at PV nodes where a mate is plausible, four times that at such a root "
             "(0 = off)"),
    };
}

// Every option as `usi` declares it, with its default.
std::vector<EngineOption> declared_options() {
    std::vector<EngineOption> all;
    for (auto group : {search_options, rule_options, play_options})
        for (EngineOption& o : group())
            all.push_back(std::move(o));
    return all;
}

}  // namespace

Engine::Engine() : options_(declared_options()) {
    for (auto& o : options_) {
        o.value = o.default_value;
        apply(o);
    }
}

Engine::~Engine() {
    pool_.stop();
    pool_.pondering_ = false;
    pool_.wait();
}

std::string Engine::set_option(const std::string& name, const std::string& value) {
    for (auto& o : options_) {
        if (!text::iequals(o.name, name))
            continue;
        switch (o.type) {
        case EngineOption::Type::Spin: {
            char* end = nullptr;
            long v = std::strtol(value.c_str(), &end, 10);
            if (value.empty() || *end)
                return "option " + o.name + ": '" + value + "' is not an integer";
            if (v < o.min || v > o.max)
                return "option " + o.name + ": " + value + " is outside " + std::to_string(o.min) + ".."
                     + std::to_string(o.max);
            o.value = std::to_string(v);
            break;
        }
        case EngineOption::Type::Check: {
            std::string v = text::lower(value);
            if (v != "true" && v != "false")
                return "option " + o.name + ": expected true or false";
            o.value = v;
            break;
        }
        case EngineOption::Type::Combo: {
            auto it = std::find_if(o.vars.begin(), o.vars.end(),
                                   [&](const std::string& s) { return text::iequals(s, value); });
            if (it == o.vars.end())
                return "option " + o.name + ": '" + value + "' is not one of its choices";
            o.value = *it;
            break;
        }
        default: o.value = value == "<empty>" ? "" : value;
        }
        apply_error_.clear();
        apply(o);
        return apply_error_;
    }
    return "no such option: " + name;
}

std::string Engine::option(const std::string& name) const {
    for (const auto& o : options_)
        if (text::iequals(o.name, name))
            return o.value;
    return "";
}

void Engine::apply(const EngineOption& o) {
    if (o.name == "USI_Hash")
        pool_.tt.resize(std::size_t(std::stoul(o.value)));
    else if (o.name == "Threads")
        pool_.set_threads(std::stoi(o.value));
    else if (o.name == "NetworkDelay")
        pool_.network_delay = std::stoi(o.value);
    else if (o.name == "NetworkDelay2")
        pool_.network_delay2 = std::stoi(o.value);
    else if (o.name == "MinimumThinkingTime")
        pool_.minimum_thinking = std::stoi(o.value);
    else if (o.name == "Evaluation")
        select_evaluator();
    else if (o.name == "EvalFile") {
        net_ = nnue::builtin_net();
        if (!o.value.empty()) {
            if (auto r = nnue::Network::load(o.value))
                net_ = std::make_shared<const nnue::Network>(std::move(r.value()));
            else
                apply_error_ = "EvalFile " + r.error() + (net_ ? "; the built-in net evaluates instead" : "");
        }
        select_evaluator();
    } else if (o.name == "BookFile") {
        book_.clear();
        if (o.value.empty()) {
            if (auto r = book_.load(DEFAULT_BOOK_TEXT); !r)
                apply_error_ = "built-in book: " + r.error().to_string();
        } else if (auto r = book_.load_file(o.value); !r)
            apply_error_ = r.error().to_string();
    }
}

void Engine::select_evaluator() {
    std::string mode = option("Evaluation");
    std::shared_ptr<const Evaluator> e;
    if (mode == "Material")
        e = std::make_shared<MaterialEvaluator>();
    else if (mode == "NNUE" && net_)
        e = std::make_shared<nnue::NnueEvaluator>(net_);
    else {
        if (mode == "NNUE") {
            std::string why = option("EvalFile").empty() ? "no EvalFile is set and this build has no built-in net"
                                                         : "no net is loaded";
            apply_error_ +=
                std::string(apply_error_.empty() ? "" : "; ") + "Evaluation NNUE: " + why + ", evaluating with Classic";
        }
        e = make_default_evaluator();
    }
    if (pool_.evaluator && e->name() == pool_.evaluator->name() && e->network() == pool_.evaluator->network())
        return;
    pool_.wait();
    pool_.evaluator = std::move(e);
    pool_.clear();  // stored evaluations and bounds belong to the old module
}

int Engine::skill() const {
    if (option("USI_LimitStrength") == "true") {
        int s = std::stoi(option("USI_Strength"));
        return s < 0 ? 15 + std::max(s, -15) : std::min(14 + std::max(s, 1), 19);
    }
    return std::stoi(option("Skill"));
}

std::string Engine::grade(int skill) {
    if (skill >= 20)
        return "full strength";
    return skill < 15 ? std::to_string(15 - skill) + " kyu" : std::to_string(skill - 14) + " dan";
}

SearchOptions Engine::search_options(core::Color root) const {
    SearchOptions s;
    s.multipv = std::stoi(option("MultiPV"));
    s.threads = std::stoi(option("Threads"));
    s.declaration_rule = option("EnteringKingRule") == "CSARule27";
    // A draw's worth to the engine: -Contempt, plus what DrawValueBlack/White says for its side;
    // kept below the known-win scores so that a draw never reads as a mate.
    int draw_value = std::stoi(option(root == core::BLACK ? "DrawValueBlack" : "DrawValueWhite"));
    s.contempt = std::clamp(std::stoi(option("Contempt")) - draw_value, -(VALUE_KNOWN_WIN - 1), VALUE_KNOWN_WIN - 1);
    s.skill = skill();
    s.mate_search_share = std::stoi(option("MateSearchShare"));
    s.max_moves_to_draw = std::stoi(option("MaxMovesToDraw"));
    s.interior_mate_nodes = std::stoi(option("MateSearchNodes"));
    return s;
}

void Engine::go(const core::Position& pos, const Limits& limits, std::function<void(const SearchInfo&)> on_info,
                std::function<void(const SearchResult&)> on_bestmove, std::vector<core::Move> search_moves,
                TimePoint start) {
    pool_.wait();
    pool_.on_info = std::move(on_info);
    pool_.on_bestmove = std::move(on_bestmove);
    pool_.book_move = Move::none();
    // The book serves timed moves of games; analysis (infinite, ponder) and fixed-depth or node
    // searches (tests, bench, strength levels) think from the first move.
    bool game_move = limits.use_time() && !limits.infinite && !limits.ponder;
    if (game_move && option("OwnBook") == "true" && !book_.empty()) {
        Move m = book_.probe(pos, rng_);
        if (m && (search_moves.empty() || std::find(search_moves.begin(), search_moves.end(), m) != search_moves.end()))
            pool_.book_move = m;
    }
    pool_.start(pos, limits, search_options(pos.side_to_move()), start, std::move(search_moves));
}

void Engine::stop() { pool_.stop(); }
void Engine::ponderhit() { pool_.ponderhit(); }
void Engine::wait() { pool_.wait(); }
void Engine::new_game() { pool_.clear(); }

SearchResult Engine::search(const core::Position& pos, const Limits& limits,
                            std::function<void(const SearchInfo&)> on_info) {
    std::promise<SearchResult> done;
    go(pos, limits, std::move(on_info), [&](const SearchResult& r) { done.set_value(r); });
    SearchResult r = done.get_future().get();
    pool_.wait();
    return r;
}

std::uint64_t Engine::bench(int depth, int* time_ms) {
    std::string threads = option("Threads"), hash = option("USI_Hash"), book = option("OwnBook"),
                skill = option("Skill"), limit = option("USI_LimitStrength");
    set_option("Threads", "1");
    set_option("USI_Hash", "16");
    set_option("OwnBook", "false");
    set_option("Skill", "20");
    set_option("USI_LimitStrength", "false");
    new_game();
    std::uint64_t total = 0;
    auto t0 = Clock::now();
    for (const char* sfen : bench_positions()) {
        core::Position pos;
        if (!pos.set(sfen, core::SfenRules::Relaxed))  // (a bench that skipped one would not say so)
            throw std::logic_error(std::string("bench position does not parse: ") + sfen);
        Limits l;
        l.depth = depth;
        total += search(pos, l).nodes;
    }
    if (time_ms)
        *time_ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0).count());
    set_option("Threads", threads);
    set_option("USI_Hash", hash);
    set_option("OwnBook", book);
    set_option("Skill", skill);
    set_option("USI_LimitStrength", limit);
    return total;
}

}  // namespace hisha::engine
