// `hisha openings`: a balanced opening set for engine matches. Each candidate is a line of
// 6-16 plies from the start, its moves drawn from an opening book (the built-in one, made from
// varied games, by default) in proportion to their weights, with now and then a random legal
// move that loses no material by exchange (always when the book has none), so that the lines
// leave the book's paths. Lines whose final position was already kept (by position) are
// skipped, and a fixed-depth search (one thread, cleared hash: the same result on every run)
// keeps those whose score is within the window. Everything is drawn from one seeded
// generator, so the same build and arguments give the same file.
#include "openings_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "app/read_file.h"
#include "cli.h"
#include "core/movegen.h"
#include "engine/engine.h"
#include "engine/see.h"
#include "notation/formats.h"

namespace hisha::app {

namespace {

constexpr const char* USAGE = R"(usage: hisha openings --out FILE [options] [RECORDS...]
Writes balanced starting positions as `startpos moves ...` lines (for hisha match --openings).
  --count N         positions to keep (default 1000)
  --min-plies N     shortest line (default 6)
  --max-plies N     longest line (default 16)
  --depth D         search depth of the balance check (default 8)
  --window CP       keep |score| <= CP centipawns (default 120)
  --random P        share of plies (percent) played at random off the book (default 15)
  --seed S          random seed (default 1)
  --book FILE       opening book to draw moves from (default: the built-in one)
  RECORDS           game records whose first 24 plies are added to the book (weight 1 a game)
  --version         the version
example: hisha openings --out openings.txt --count 200 --depth 6
)";

struct Args {
    std::string out;
    int count = 1000, min_plies = 6, max_plies = 16, depth = 8, window = 120, random_pct = 15;
    std::uint64_t seed = 1;
    std::string book;
    std::vector<std::string> records;
};

// The command line: -1 to go on, else the exit status (its message printed).
int parse(int argc, char** argv, Args& a) {
    Cli cli("hisha openings", USAGE);
    auto value = [&cli](const char* name, auto& out, long lo, long hi) {
        cli.option(name, [&out, name, lo, hi](const std::string& v) {
            auto n = whole_in(v, std::uint64_t(lo), std::uint64_t(hi));
            if (!n)
                return fmt::format("{}: bad value '{}' ({}..{})", name, v, lo, hi);
            out = std::remove_reference_t<decltype(out)>(*n);
            return std::string();
        });
    };
    cli.text("--out", a.out);
    cli.text("--book", a.book);
    value("--count", a.count, 1, 1000000);
    value("--min-plies", a.min_plies, 0, 200);
    value("--max-plies", a.max_plies, 0, 200);
    value("--depth", a.depth, 1, 30);
    value("--window", a.window, 0, 30000);
    value("--random", a.random_pct, 0, 100);
    value("--seed", a.seed, 0, 1L << 62);
    cli.positionals("RECORDS", a.records);
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    std::string error;
    if (a.out.empty())
        error = "--out FILE is required";
    else if (a.min_plies > a.max_plies)
        error = "--min-plies is above --max-plies";
    if (error.empty())
        return -1;
    std::cerr << "hisha openings: " << error << "\n" << USAGE;
    return 2;
}

// A random legal move that does not lose material by exchange (any legal move if all do).
core::Move random_move(const core::Position& pos, std::mt19937_64& rng) {
    std::vector<core::Move> safe, all;
    for (const core::ScoredMove& sm : core::MoveList<core::LEGAL>(pos)) {
        all.push_back(sm.move);
        if (engine::see_ge(pos, sm.move, 0))
            safe.push_back(sm.move);
    }
    const auto& from = safe.empty() ? all : safe;
    if (from.empty())
        return core::Move::none();
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
}

}  // namespace

int openings_command(int argc, char** argv) {
    Args a;
    if (int status = parse(argc, argv, a); status >= 0)
        return status;
    engine::Engine e;
    e.set_option("USI_Hash", "16");
    e.set_option("Threads", "1");
    e.set_option("OwnBook", "false");
    if (!a.book.empty()) {
        if (std::string err = e.set_option("BookFile", a.book); !err.empty()) {
            std::cerr << "hisha openings: " << a.book << ": " << err << "\n";
            return 1;
        }
    }
    engine::Book& book = e.book();
    for (const auto& path : a.records) {
        std::string text;
        if (!read_file(path, text)) {
            std::cerr << "hisha openings: cannot read " << path << "\n";
            return 1;
        }
        auto rec = notation::read_record(text, path);
        if (!rec) {
            std::cerr << "hisha openings: " << path << ": " << rec.error().to_string() << "\n";
            return 1;
        }
        book.add_record(*rec, 24);
    }

    std::ofstream out(a.out, std::ios::binary);
    if (!out) {
        std::cerr << "hisha openings: cannot write " << a.out << "\n";
        return 1;
    }
    out << "# Balanced openings: hisha openings --count " << a.count << " --min-plies " << a.min_plies
        << " --max-plies " << a.max_plies << " --depth " << a.depth << " --window " << a.window << " --random "
        << a.random_pct << " --seed " << a.seed << (a.book.empty() ? "" : " --book " + a.book)
        << (a.records.empty() ? "" : " (+" + std::to_string(a.records.size()) + " records)") << "\n"
        << "# Each line: moves from the start whose final position a depth-" << a.depth << " search scores within "
        << a.window << " cp (side to move's view).\n";

    std::mt19937_64 rng(a.seed);
    std::set<core::Key> seen;
    int kept = 0, tried = 0, unbalanced = 0, duplicates = 0;
    while (kept < a.count) {
        if (tried > 50 * a.count + 1000) {
            std::cerr << "hisha openings: gave up after " << tried << " candidates (" << kept << " kept)\n";
            return 1;
        }
        ++tried;
        core::Position pos;
        pos.set_startpos();
        int plies = std::uniform_int_distribution<int>(a.min_plies, a.max_plies)(rng);
        std::vector<core::Move> moves;
        for (int i = 0; i < plies; ++i) {
            core::Move m = core::Move::none();
            if (std::uniform_int_distribution<int>(0, 99)(rng) >= a.random_pct)
                m = book.probe(pos, rng);
            if (!m)
                m = random_move(pos, rng);
            if (!m)
                break;
            pos.play(m);
            moves.push_back(m);
        }
        if (int(moves.size()) != plies || pos.in_check() || !core::has_legal_move(pos))
            continue;
        if (!seen.insert(pos.key()).second) {
            ++duplicates;
            continue;
        }
        e.new_game();
        engine::Limits l;
        l.depth = a.depth;
        engine::SearchResult r = e.search(pos, l);
        if (std::abs(r.score) > a.window) {
            ++unbalanced;
            continue;
        }
        out << "startpos moves";
        for (core::Move m : moves)
            out << ' ' << core::to_usi(m);
        out << '\n';
        ++kept;
        if (kept % 50 == 0)
            std::cerr << "openings: " << kept << " kept of " << tried << " tried (" << unbalanced << " unbalanced, "
                      << duplicates << " duplicates)\n";
    }
    std::cerr << "openings: " << kept << " written to " << a.out << " from " << tried << " candidates (" << unbalanced
              << " outside the window, " << duplicates << " duplicate positions)\n";
    return 0;
}

const Subcommand OPENINGS = {"openings", openings_command, nullptr};

}  // namespace hisha::app
