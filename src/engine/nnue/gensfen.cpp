// Self-play data generation and validation (gensfen.h).
#include "gensfen.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include <time.h>

#include "core/game.h"
#include "core/movegen.h"
#include "engine/engine.h"
#include "engine/see.h"
#include "notation/usi.h"
#include "training_data.h"

namespace hisha::engine::nnue {

using namespace core;

namespace {

std::uint64_t mix(std::uint64_t x) {  // SplitMix64's finaliser
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// True when the side to move can win material by a capture (static exchange above zero).
bool capture_pending(const Position& pos) {
    for (const ScoredMove& sm : MoveList<CAPTURES>(pos))
        if (pos.piece_on(sm.move.to()) != NO_PIECE && pos.legal(sm.move) && see_ge(pos, sm.move, 1))
            return true;
    return false;
}

// CPU time used by the whole process (all threads), in seconds.
double process_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct StateFile {
    std::uint64_t seed = 0, next_game = 0;
};

StateFile read_state(const std::string& path) {
    StateFile s;
    std::ifstream f(path);
    std::string key;
    std::uint64_t v;
    while (f >> key >> v) {
        if (key == "seed")
            s.seed = v;
        else if (key == "next_game")
            s.next_game = v;
    }
    return s;
}

void write_state(const std::string& path, const StateFile& s) {
    std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::trunc);
        f << "seed " << s.seed << "\nnext_game " << s.next_game << "\n";
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
}

}  // namespace

Limits gensfen_limits(const GensfenOptions& opts, bool prelude) {
    Limits l;
    if (opts.nodes)
        l.nodes = prelude ? std::max<std::uint64_t>(opts.nodes / 8, 1) : opts.nodes;
    else
        l.depth = prelude ? std::max((opts.depth + 1) / 2, 1) : std::max(opts.depth, 1);
    return l;
}

namespace {

using Openings = std::vector<std::vector<Move>>;

// The openings as move lists, each checked; none gives one empty opening (the start position).
Result<Openings, std::string> read_openings(const std::vector<std::string>& lines) {
    Openings openings;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        auto rec = notation::parse_usi_position(lines[i], int(i + 1));
        if (!rec)
            return core::unexpected("opening " + std::to_string(i + 1) + ": " + rec.error().to_string());
        if (rec->start_sfen != START_SFEN)
            return core::unexpected("opening " + std::to_string(i + 1) + ": openings start from startpos");
        std::vector<Move> moves;
        for (const auto& m : rec->moves)
            moves.push_back(m.move);
        openings.push_back(std::move(moves));
    }
    if (openings.empty())
        openings.emplace_back();
    return openings;
}

// Opens the data file for appending, whole records only: a tail cut short by a crash is dropped
// (counted in stats.dropped_bytes); stats.in_file is the number of records kept.
Result<std::FILE*, std::string> open_data_file(const std::string& path, GensfenStats& stats) {
    std::error_code ec;
    std::uint64_t size = std::filesystem::exists(path, ec) ? std::filesystem::file_size(path, ec) : 0;
    if (ec)
        return core::unexpected(path + ": " + ec.message());
    if (size % RECORD_BYTES) {
        stats.dropped_bytes = size % RECORD_BYTES;
        size -= stats.dropped_bytes;
        std::filesystem::resize_file(path, size, ec);
        if (ec)
            return core::unexpected(path + ": cannot drop the last partial record: " + ec.message());
    }
    stats.in_file = size / RECORD_BYTES;
    std::FILE* out = std::fopen(path.c_str(), "ab");
    if (!out)
        return core::unexpected(path + ": cannot open for appending");
    return out;
}

// One engine per thread, made (and the net loaded) before any thread starts.
Result<std::vector<std::unique_ptr<Engine>>, std::string> make_engines(const GensfenOptions& opts, int threads) {
    std::vector<std::unique_ptr<Engine>> engines;
    for (int t = 0; t < threads; ++t) {
        auto e = std::make_unique<Engine>();
        e->set_option("USI_Hash", std::to_string(opts.hash_mb));
        e->set_option("OwnBook", "false");
        e->set_option("Threads", "1");
        if (!opts.eval_file.empty()) {
            if (auto err = e->set_option("EvalFile", opts.eval_file); !err.empty())
                return core::unexpected(err);
            e->set_option("Evaluation", "NNUE");
        } else
            e->set_option("Evaluation", "Classic");  // without --eval-file the games are Classic's
        engines.push_back(std::move(e));
    }
    return engines;
}

// One game's kept positions, before its result is known, and what it searched and skipped.
struct PlayedGame {
    std::vector<TrainingRecord> records;
    std::vector<Color> movers;  // the side to move of each record
    GensfenStats counts;        // searched and skipped_* only
    Winner winner = Winner::None;
    bool unfinished = false;  // stopped before the end: it has no result and is not written
};

// Why a searched position is not written, or nullptr when it is kept.
std::uint64_t* skip_counter(GensfenStats& c, const Position& pos, const SearchResult& r, bool prelude) {
    if (prelude)
        return &c.skipped_random;
    if (pos.in_check())
        return &c.skipped_check;
    if (is_mate_score(r.score))
        return &c.skipped_mate;
    if ((!r.best.is_drop() && pos.piece_on(r.best.to()) != NO_PIECE) || capture_pending(pos))
        return &c.skipped_capture;
    return nullptr;
}

// The result of a game that ended on the board (or whose random move left no legal reply).
Winner final_winner(const Game& game) {
    const GameResult& res = game.result();
    if (res.over())
        return res.winner;
    MoveList<LEGAL> moves(game.position());
    return moves.size() == 0 ? winner_of(~game.position().side_to_move()) : Winner::Draw;
}

// Game number g: an opening and the random plies drawn from seed (seed, g), then the engine's
// moves, each position searched at gensfen_limits and kept when quiet (see gensfen.h).
PlayedGame play_game(Engine& e, const GensfenOptions& opts, const Openings& openings, std::uint64_t g,
                     const std::atomic<bool>& stop) {
    PlayedGame out;
    std::mt19937_64 rng(mix(opts.seed ^ mix(g)));
    Game game(GameRules{ImpasseRule::Csa27, 0, false});
    for (Move m : openings[rng() % openings.size()])
        if (!game.play(m))
            break;
    // Plies (after the opening) where a random move is played.
    std::vector<int> random_plies;
    for (int i = 0; i < opts.random_moves && opts.random_max_ply > 0; ++i)
        random_plies.push_back(int(rng() % std::uint64_t(opts.random_max_ply)));
    int last_random = random_plies.empty() ? -1 : *std::max_element(random_plies.begin(), random_plies.end());
    e.new_game();
    int lopsided = 0;
    for (int ply = 0; !game.over() && !stop; ++ply) {
        const Position& pos = game.position();
        if (int(game.moves().size()) >= opts.max_plies) {
            out.winner = Winner::Draw;
            break;
        }
        if (std::find(random_plies.begin(), random_plies.end(), ply) != random_plies.end()) {
            MoveList<LEGAL> moves(pos);
            if (moves.size() == 0)
                break;  // judged by final_winner
            (void)game.play(moves.begin()[rng() % moves.size()].move);
            ++out.counts.skipped_random;
            continue;
        }
        bool prelude = ply < last_random;  // not written: a cheaper search (gensfen_limits)
        SearchResult r = e.search(pos, gensfen_limits(opts, prelude));
        ++out.counts.searched;
        Color us = pos.side_to_move();
        if (r.best == Move::win() || !r.best) {
            out.winner = winner_of(r.best == Move::win() ? us : ~us);
            break;
        }
        lopsided = std::abs(r.score) >= opts.eval_limit ? lopsided + 1 : 0;
        if (std::uint64_t* skipped = skip_counter(out.counts, pos, r, prelude))
            ++*skipped;
        else if (TrainingRecord rec; pack(pos, rec.position)) {
            rec.score = std::int16_t(std::clamp(r.score, -32767, 32767));
            rec.move = r.best.to_move16().raw();
            rec.ply = std::uint16_t(std::min(pos.game_ply(), 65535));
            out.records.push_back(rec);
            out.movers.push_back(us);
        }
        if (is_mate_score(r.score) || lopsided >= 4) {
            out.winner = winner_of(r.score > 0 ? us : ~us);
            break;
        }
        if (!game.play(r.best))
            break;
    }
    if (out.winner == Winner::None) {
        out.unfinished = stop && !game.over();
        if (!out.unfinished)
            out.winner = final_winner(game);
    }
    return out;
}

// The game's records with its result from each mover's side, encoded back to back.
std::string encode_game(PlayedGame& g) {
    std::string bytes;
    for (std::size_t i = 0; i < g.records.size(); ++i) {
        TrainingRecord& rec = g.records[i];
        rec.result = g.winner == Winner::Draw || g.winner == Winner::None ? 0
                   : g.winner == winner_of(g.movers[i])                   ? 1
                                                                          : -1;
        auto b = rec.encode();
        bytes.append(reinterpret_cast<const char*>(b.data()), b.size());
    }
    return bytes;
}

void add_game(GensfenStats& stats, const PlayedGame& g) {
    stats.games++;
    stats.written += g.records.size();
    stats.in_file += g.records.size();
    stats.searched += g.counts.searched;
    stats.skipped_check += g.counts.skipped_check;
    stats.skipped_mate += g.counts.skipped_mate;
    stats.skipped_capture += g.counts.skipped_capture;
    stats.skipped_random += g.counts.skipped_random;
    (g.winner == Winner::Black ? stats.wins_black : g.winner == Winner::White ? stats.wins_white : stats.draws)++;
}

}  // namespace

Result<GensfenStats, std::string> gensfen(const GensfenOptions& opts,
                                          std::function<void(const GensfenStats&)> progress) {
    auto openings = read_openings(opts.openings);
    if (!openings)
        return core::unexpected(openings.error());
    GensfenStats stats;
    auto opened = open_data_file(opts.out, stats);
    if (!opened)
        return core::unexpected(opened.error());
    std::FILE* out = *opened;
    std::string state_path = opts.out + ".state";
    StateFile state = read_state(state_path);
    if (state.seed != opts.seed || stats.in_file == 0)
        state = {opts.seed, 0};
    stats.first_game = state.next_game;
    int threads = std::max(1, opts.threads);
    auto engines = make_engines(opts, threads);
    if (!engines) {
        std::fclose(out);
        return core::unexpected(engines.error());
    }

    std::mutex mutex;  // guards stats, the file and the state file
    std::atomic<std::uint64_t> next_game{state.next_game};
    std::atomic<bool> stop{false};
    std::string write_error;
    auto start = std::chrono::steady_clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    double cpu_start = process_cpu_seconds();
    auto done = [&] {
        return (opts.positions && stats.in_file >= opts.positions) || (opts.games && stats.games >= opts.games)
            || (opts.seconds > 0 && elapsed() >= opts.seconds);
    };

    auto worker = [&](Engine& e) {
        while (!stop) {
            std::uint64_t g = next_game++;
            if (opts.games && g - stats.first_game >= opts.games)
                return;
            PlayedGame played = play_game(e, opts, *openings, g, stop);
            if (played.unfinished)
                return;  // an unfinished game has no result
            std::string bytes = encode_game(played);
            std::lock_guard<std::mutex> lock(mutex);
            if (stop && done())
                return;  // the target was reached by another thread meanwhile
            if (!bytes.empty()
                && (std::fwrite(bytes.data(), 1, bytes.size(), out) != bytes.size() || std::fflush(out))) {
                write_error = opts.out + ": write failed";
                stop = true;
                return;
            }
            add_game(stats, played);
            write_state(state_path, {opts.seed, next_game.load()});
            if (done())
                stop = true;
        }
    };

    std::atomic<int> running{threads};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            worker(*(*engines)[std::size_t(t)]);
            --running;
        });
    auto last = std::chrono::steady_clock::now();
    for (bool finished = false; !finished;) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        std::lock_guard<std::mutex> lock(mutex);
        if (done())
            stop = true;
        finished = stop || running == 0;
        stats.seconds = elapsed();
        stats.cpu_seconds = process_cpu_seconds() - cpu_start;
        if (progress && std::chrono::steady_clock::now() - last >= std::chrono::seconds(2)) {
            last = std::chrono::steady_clock::now();
            progress(stats);
        }
    }
    stop = true;
    for (auto& t : pool)
        t.join();
    std::fclose(out);
    stats.seconds = elapsed();
    stats.cpu_seconds = process_cpu_seconds() - cpu_start;
    if (!write_error.empty())
        return core::unexpected(write_error);
    if (progress)
        progress(stats);
    return stats;
}

Result<ValidateReport, std::string> validate_file(const std::string& path, int max_errors) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return core::unexpected(path + ": cannot open");
    ValidateReport rep;
    std::uint8_t buf[RECORD_BYTES];
    double abs_sum = 0;
    auto error = [&](std::uint64_t n, const std::string& why) {
        ++rep.bad;
        if (int(rep.errors.size()) < max_errors)
            rep.errors.push_back("record " + std::to_string(n) + " (offset " + std::to_string(n * RECORD_BYTES)
                                 + "): " + why);
    };
    while (true) {
        f.read(reinterpret_cast<char*>(buf), RECORD_BYTES);
        std::streamsize got = f.gcount();
        if (got == 0)
            break;
        std::uint64_t n = rep.records;
        if (got < RECORD_BYTES) {
            error(n, "cut short: " + std::to_string(got) + " of " + std::to_string(RECORD_BYTES) + " bytes");
            break;
        }
        ++rep.records;
        auto rec = TrainingRecord::decode(buf);
        if (!rec) {
            error(n, rec.error());
            continue;
        }
        auto d = decode_position(*rec);
        if (!d) {
            error(n, d.error());
            continue;
        }
        (rec->result > 0 ? rep.wins : rec->result < 0 ? rep.losses : rep.draws)++;
        abs_sum += std::abs(int(rec->score));
        int ply = rec->ply;
        rep.min_ply = rep.records - rep.bad == 1 ? ply : std::min(rep.min_ply, ply);
        rep.max_ply = std::max(rep.max_ply, ply);
    }
    std::uint64_t good = rep.records - std::min(rep.records, rep.bad);
    rep.mean_abs_score = good ? abs_sum / double(good) : 0;
    return rep;
}

}  // namespace hisha::engine::nnue
