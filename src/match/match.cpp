// Match scheduling, workers, results and files.
#include "match.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <thread>

#include "notation/csa.h"
#include "notation/kif.h"

namespace hisha::match {

namespace fs = std::filesystem;

std::vector<std::pair<int, int>> pairings(int engines, Tournament t) {
    std::vector<std::pair<int, int>> out;
    if (t == Tournament::Gauntlet) {
        for (int i = 1; i < engines; ++i)
            out.emplace_back(0, i);
        return out;
    }
    for (int i = 0; i < engines; ++i)
        for (int j = i + 1; j < engines; ++j)
            out.emplace_back(i, j);
    return out;
}

std::vector<GameTask> schedule(const MatchConfig& config) {
    auto pairs = pairings(int(config.engines.size()), config.tournament);
    std::vector<GameTask> tasks;
    int openings = int(config.openings.size());
    for (int g = 0; g < config.games; ++g)
        for (int p = 0; p < int(pairs.size()); ++p) {
            GameTask t;
            t.number = int(tasks.size()) + 1;
            t.pair = p;
            bool swapped = g % 2 == 1;
            t.black = swapped ? pairs[std::size_t(p)].second : pairs[std::size_t(p)].first;
            t.white = swapped ? pairs[std::size_t(p)].first : pairs[std::size_t(p)].second;
            t.opening = openings > 0 ? (g / 2) % openings : -1;
            t.round = g;
            tasks.push_back(t);
        }
    return tasks;
}

Match::Match(MatchConfig config, std::ostream& out) : config_(std::move(config)), out_(out) {
    tasks_ = schedule(config_);
    for (auto [a, b] : pairings(int(config_.engines.size()), config_.tournament))
        result_.pairs.push_back(PairResult{a, b, {}, {}, {}, 0, {}});
}

core::Result<void, std::string> Match::check() {
    std::string errors;
    for (const auto& e : config_.engines) {
        auto player = protocol::make_player(e.spec);
        GameClock clock(e.tc, e.tc);
        auto r = player->new_game(protocol::GameSetup{std::string(core::START_SFEN), core::BLACK, clock.limits(core::BLACK)});
        if (!r)
            errors += (errors.empty() ? "" : "\n") + r.error();
        player->quit();
    }
    if (!errors.empty())
        return core::unexpected(errors);
    return {};
}

MatchResult Match::run() {
    int k = std::max(1, std::min(config_.concurrency, int(tasks_.size())));
    std::vector<std::thread> threads;
    for (int i = 0; i < k; ++i)
        threads.emplace_back([this] { worker(); });
    for (auto& t : threads)
        t.join();
    std::lock_guard lock(mutex_);
    result_.stopped_early = result_.stopped_early || cancel_;
    return result_;
}

void Match::worker() {
    std::map<int, std::unique_ptr<protocol::EnginePlayer>> players;
    auto player = [&](int i) -> protocol::EnginePlayer& {
        auto& p = players[i];
        if (!p)
            p = protocol::make_player(config_.engines[std::size_t(i)].spec);
        return *p;
    };
    for (;;) {
        std::size_t i = next_++;
        if (cancel_ || i >= tasks_.size())
            break;
        {
            std::lock_guard lock(mutex_);
            if (result_.stopped_early)
                break;
        }
        const GameTask& task = tasks_[i];
        GameSettings s = config_.settings;
        s.tc[core::BLACK] = config_.engines[std::size_t(task.black)].tc;
        s.tc[core::WHITE] = config_.engines[std::size_t(task.white)].tc;
        s.margin_ms[core::BLACK] = config_.engines[std::size_t(task.black)].margin_ms;
        s.margin_ms[core::WHITE] = config_.engines[std::size_t(task.white)].margin_ms;
        s.cancel = &cancel_;
        Opening opening = task.opening >= 0 ? config_.openings[std::size_t(task.opening)] : startpos_opening();
        GameOutcome outcome = play_game(player(task.black), player(task.white), opening, s);
        record(task, outcome);
    }
    for (auto& [i, p] : players)
        p->quit();
}

namespace {

std::string sanitize(const std::string& s) {
    std::string out;
    for (char c : s)
        out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' ? c : '_';
    return out;
}

std::string percent(double x) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100 * x);
    return buf;
}

std::string ending_name(const GameOutcome& o) {
    std::string s = o.failure != Failure::None ? describe(o.failure) : core::describe(o.reason);
    return o.adjudicated ? s + " (adjudicated)" : s;
}

std::string score_line(const PairResult& p, const MatchConfig& config) {
    const auto& a = config.engines[std::size_t(p.first)].spec.name;
    const auto& b = config.engines[std::size_t(p.second)].spec.name;
    EloEstimate e = estimate_elo(p.score);
    std::ostringstream s;
    s << a << " vs " << b << ": " << p.score.wins << "-" << p.score.losses << "-" << p.score.draws << " (W-L-D)"
      << ", score " << percent(p.score.ratio()) << ", Elo " << format_elo(e.elo) << " [" << format_elo(e.lower) << ", "
      << format_elo(e.upper) << "]";
    if (p.aborted)
        s << ", " << p.aborted << " aborted";
    return s.str();
}

}  // namespace

std::string Match::write_files(const GameTask& task, const GameOutcome& outcome) {
    if (config_.out_dir.empty())
        return {};
    std::error_code ec;
    fs::create_directories(config_.out_dir, ec);
    char num[16];
    std::snprintf(num, sizeof num, "%04d", task.number);
    std::string base = std::string(num) + "-" + sanitize(config_.engines[std::size_t(task.black)].spec.name) + "-vs-"
                     + sanitize(config_.engines[std::size_t(task.white)].spec.name);
    fs::path dir(config_.out_dir);
    std::ofstream(dir / (base + ".kif"), std::ios::binary) << notation::write_kif(outcome.record);
    std::ofstream(dir / (base + ".csa"), std::ios::binary) << notation::write_csa(outcome.record);
    std::ofstream(dir / "games.txt", std::ios::app)
        << task.number << '\t' << config_.engines[std::size_t(task.black)].spec.name << '\t'
        << config_.engines[std::size_t(task.white)].spec.name << '\t' << outcome.result_text() << '\t'
        << outcome.plies << '\t' << base << ".kif\t" << outcome.detail << '\n';
    return (dir / (base + ".kif")).string();
}

void Match::progress_line(const GameTask& task, const GameOutcome& outcome) {
    const auto& black = config_.engines[std::size_t(task.black)].spec.name;
    const auto& white = config_.engines[std::size_t(task.white)].spec.name;
    out_ << "Game " << task.number << "/" << tasks_.size() << " " << black << " (Black) vs " << white
         << " (White): " << outcome.result_text() << " " << ending_name(outcome) << ", " << outcome.plies << " plies";
    if (outcome.failure != Failure::None || outcome.adjudicated)
        out_ << " {" << outcome.detail << "}";
    out_ << "\n  " << score_line(result_.pairs[std::size_t(task.pair)], config_) << std::endl;
}

void Match::record(const GameTask& task, GameOutcome& outcome) {
    std::lock_guard lock(mutex_);
    PairResult& p = result_.pairs[std::size_t(task.pair)];
    bool first_black = task.black == p.first;
    switch (outcome.winner) {
    case core::Winner::None: ++p.aborted; break;
    case core::Winner::Draw: ++p.score.draws; break;
    case core::Winner::Black: ++(first_black ? p.score.wins : p.score.losses); break;
    case core::Winner::White: ++(first_black ? p.score.losses : p.score.wins); break;
    }
    // A pair of games (one opening, each colour once) counts once both are in; a pair with an
    // aborted game never does (-1 marks it).
    int half = outcome.winner == core::Winner::None                   ? -1
             : outcome.winner == core::Winner::Draw                   ? 1
             : (outcome.winner == core::Winner::Black) == first_black ? 2
                                                                      : 0;
    auto [it, first_of_pair] = p.half_points.emplace(task.round / 2, half);
    if (!first_of_pair) {
        if (it->second >= 0 && half >= 0)
            ++p.pairs.n[it->second + half];
        p.half_points.erase(it);
    }
    ++p.endings[ending_name(outcome)];
    GameSummary g{task, outcome.result_text(), outcome.detail, outcome.plies, outcome.failure, {}};
    g.file = write_files(task, outcome);
    result_.games.push_back(std::move(g));
    if (config_.sprt && task.pair == 0) {
        result_.sprt = sprt(p.pairs, *config_.sprt);
        if (result_.sprt->decision != SprtStatus::Decision::Continue)
            result_.stopped_early = true;
    }
    if (config_.verbose)
        progress_line(task, outcome);
}

namespace {

std::string pad(const std::string& s, std::size_t w, bool right = false) {
    if (s.size() >= w)
        return s;
    return right ? std::string(w - s.size(), ' ') + s : s + std::string(w - s.size(), ' ');
}

std::string sprt_text(const SprtStatus& st, const SprtParams& p) {
    char buf[200];
    const char* verdict = st.decision == SprtStatus::Decision::AcceptH1   ? "H1 accepted"
                        : st.decision == SprtStatus::Decision::AcceptH0 ? "H0 accepted"
                                                                          : "no decision yet";
    std::snprintf(buf, sizeof buf, "SPRT (elo0=%g elo1=%g alpha=%g beta=%g): LLR %.3f [%.3f, %.3f], %s\n", p.elo0,
                  p.elo1, p.alpha, p.beta, st.llr, st.lower, st.upper, verdict);
    return buf;
}

}  // namespace

std::string format_results(const MatchResult& result, const MatchConfig& config) {
    std::size_t w = 10;
    auto label = [&](const PairResult& p) {
        return config.engines[std::size_t(p.first)].spec.name + " vs " + config.engines[std::size_t(p.second)].spec.name;
    };
    for (const auto& p : result.pairs)
        w = std::max(w, label(p).size() + 2);
    std::ostringstream s;
    s << pad("Pair", w) << pad("Games", 6, true) << pad("W", 6, true) << pad("L", 6, true) << pad("D", 6, true)
      << pad("Score", 9, true) << pad("Elo", 9, true) << "  " << pad("95% interval", 18) << pad("LOS", 7, true) << "\n";
    for (const auto& p : result.pairs) {
        EloEstimate e = estimate_elo(p.score);
        s << pad(label(p), w) << pad(std::to_string(p.score.games()), 6, true) << pad(std::to_string(p.score.wins), 6, true)
          << pad(std::to_string(p.score.losses), 6, true) << pad(std::to_string(p.score.draws), 6, true)
          << pad(percent(p.score.ratio()), 9, true) << pad(format_elo(e.elo), 9, true) << "  "
          << pad("[" + format_elo(e.lower) + ", " + format_elo(e.upper) + "]", 18)
          << pad(percent(likelihood_of_superiority(p.score)), 7, true) << "\n";
    }
    for (const auto& p : result.pairs) {
        EloEstimate e = estimate_elo(p.pairs);
        s << label(p) << " game pairs " << p.pairs.to_string() << " (pair scores 0, 1/4, 1/2, 3/4, 1): Elo "
          << format_elo(e.elo) << " [" << format_elo(e.lower) << ", " << format_elo(e.upper) << "] over "
          << p.pairs.pairs() << " pairs\n";
    }
    for (const auto& p : result.pairs) {
        s << label(p) << " endings:";
        const char* sep = " ";
        for (const auto& [name, n] : p.endings) {
            s << sep << name << " " << n;
            sep = ", ";
        }
        if (p.aborted)
            s << " (" << p.aborted << " aborted, not scored)";
        s << "\n";
    }
    if (result.sprt && config.sprt)
        s << sprt_text(*result.sprt, *config.sprt);
    if (result.stopped_early)
        s << "The match stopped early (" << result.games.size() << " games played).\n";
    if (!result.pairs.empty()) {
        const PairResult& p = result.pairs[0];
        EloEstimate e = estimate_elo(p.pairs);
        char buf[512];
        std::snprintf(buf, sizeof buf,
                      "summary: games=%d wins=%d losses=%d draws=%d aborted=%d penta=%d,%d,%d,%d,%d elo=%.1f "
                      "elo_lower=%.1f elo_upper=%.1f",
                      p.score.games(), p.score.wins, p.score.losses, p.score.draws, p.aborted, p.pairs.n[0],
                      p.pairs.n[1], p.pairs.n[2], p.pairs.n[3], p.pairs.n[4], e.elo + 0.0, e.lower + 0.0,
                      e.upper + 0.0);  // + 0.0: no "-0.0"
        s << buf;
        if (result.sprt && config.sprt) {
            const SprtStatus& st = *result.sprt;
            std::snprintf(buf, sizeof buf, " llr=%.3f llr_lower=%.3f llr_upper=%.3f verdict=%s", st.llr, st.lower,
                          st.upper,
                          st.decision == SprtStatus::Decision::AcceptH1   ? "H1"
                          : st.decision == SprtStatus::Decision::AcceptH0 ? "H0"
                                                                          : "none");
            s << buf;
        }
        s << "\n";
    }
    return s.str();
}

}  // namespace hisha::match
