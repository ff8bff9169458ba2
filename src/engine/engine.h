// Engine: the public API of the search that every front end (USI, the xshogi protocol, the
// interactive program, matches, server bots) uses: set a position, go with limits and an
// info sink, stop, ponder hit; options by name (USI_Hash, Threads, MultiPV, Skill ...).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "book.h"
#include "core/position.h"
#include "search.h"

namespace hisha::engine {

/// An engine option as USI declares it.
struct EngineOption {
    enum class Type { Spin, Check, Combo, String, Button, Filename };
    std::string name;
    Type type;
    std::string default_value;
    int min = 0, max = 0;
    std::vector<std::string> vars;  // combo choices
    std::string value;              // current value
    std::string help;
};

/// The positions of `hisha bench` (SFEN): the start, openings, middlegames with pieces in hand,
/// endgames. Also the starts of the evaluation's micro-benchmark.
const std::vector<const char*>& bench_positions();

class Engine {
public:
    Engine();
    ~Engine();

    // --- options
    const std::vector<EngineOption>& options() const { return options_; }
    /// Sets an option (name case-insensitive); returns an error message or "".
    std::string set_option(const std::string& name, const std::string& value);
    std::string option(const std::string& name) const;

    // --- searching
    /// Starts searching `pos` (cloned with its history). Callbacks run on the search thread.
    void go(const core::Position& pos, const Limits& limits, std::function<void(const SearchInfo&)> on_info,
            std::function<void(const SearchResult&)> on_bestmove, std::vector<core::Move> search_moves = {},
            TimePoint start = Clock::now());
    void stop();
    void ponderhit();
    void wait();
    bool searching() const { return pool_.searching(); }
    /// Searches synchronously and returns the result (tests, bench, matches).
    SearchResult search(const core::Position& pos, const Limits& limits,
                        std::function<void(const SearchInfo&)> on_info = {});
    void new_game();

    /// Nodes of the fixed bench: positions searched one by one at `depth`, one thread; the
    /// node count is the search's signature.
    std::uint64_t bench(int depth, int* time_ms);

    ThreadPool& pool() { return pool_; }
    Book& book() { return book_; }
    /// The evaluation the search uses now: "classic", "material" or "nnue".
    std::string evaluation() const { return pool_.evaluator->name(); }
    /// The kyu/dan grade a skill level stands for ("15 kyu" .. "5 dan", "full strength").
    static std::string grade(int skill);
    int skill() const;

private:
    void apply(const EngineOption& o);
    SearchOptions search_options(core::Color root) const;
    ThreadPool pool_;
    Book book_;
    /// Sets the evaluator from the Evaluation option and the loaded net (NNUE without a net
    /// falls back to Classic, saying so in apply_error_).
    void select_evaluator();
    std::string apply_error_;  // why the last option did not take effect (BookFile, EvalFile, Evaluation)
    std::shared_ptr<const nnue::Network> net_;  // the net EvalFile loaded, if any
    std::mt19937_64 rng_{std::random_device{}()};
    std::vector<EngineOption> options_;
};

}  // namespace hisha::engine
