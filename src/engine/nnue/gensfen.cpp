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

Result<GensfenStats, std::string> gensfen(const GensfenOptions& opts, std::function<void(const GensfenStats&)> progress) {
    auto fail = [](const std::string& why) { return core::unexpected(why); };
    // Openings, checked up front.
    std::vector<std::vector<Move>> openings;
    for (std::size_t i = 0; i < opts.openings.size(); ++i) {
        auto rec = notation::parse_usi_position(opts.openings[i], int(i + 1));
        if (!rec)
            return fail("opening " + std::to_string(i + 1) + ": " + rec.error().to_string());
        if (rec->start_sfen != START_SFEN)
            return fail("opening " + std::to_string(i + 1) + ": openings start from startpos");
        std::vector<Move> moves;
        for (const auto& m : rec->moves)
            moves.push_back(m.move);
        openings.push_back(std::move(moves));
    }
    if (openings.empty())
        openings.emplace_back();

    GensfenStats stats;
    // The file: whole records only; a tail cut short by a crash is dropped.
    std::error_code ec;
    std::uint64_t size = std::filesystem::exists(opts.out, ec) ? std::filesystem::file_size(opts.out, ec) : 0;
    if (ec)
        return fail(opts.out + ": " + ec.message());
    if (size % RECORD_BYTES) {
        stats.dropped_bytes = size % RECORD_BYTES;
        size -= stats.dropped_bytes;
        std::filesystem::resize_file(opts.out, size, ec);
        if (ec)
            return fail(opts.out + ": cannot drop the last partial record: " + ec.message());
    }
    stats.in_file = size / RECORD_BYTES;
    std::FILE* out = std::fopen(opts.out.c_str(), "ab");
    if (!out)
        return fail(opts.out + ": cannot open for appending");
    std::string state_path = opts.out + ".state";
    StateFile state = read_state(state_path);
    if (state.seed != opts.seed || stats.in_file == 0)
        state = {opts.seed, 0};
    stats.first_game = state.next_game;

    // Engines are made (and the net loaded) before any thread starts.
    int threads = std::max(1, opts.threads);
    std::vector<std::unique_ptr<Engine>> engines;
    for (int t = 0; t < threads; ++t) {
        auto e = std::make_unique<Engine>();
        e->set_option("USI_Hash", std::to_string(opts.hash_mb));
        e->set_option("OwnBook", "false");
        e->set_option("Threads", "1");
        if (!opts.eval_file.empty()) {
            if (auto err = e->set_option("EvalFile", opts.eval_file); !err.empty()) {
                std::fclose(out);
                return fail(err);
            }
            e->set_option("Evaluation", "NNUE");
        }
        engines.push_back(std::move(e));
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
            std::mt19937_64 rng(mix(opts.seed ^ mix(g)));
            Game game(GameRules{ImpasseRule::Csa27, 0, false});
            const auto& opening = openings[rng() % openings.size()];
            for (Move m : opening)
                if (!game.play(m))
                    break;
            // Plies (after the opening) where a random move is played.
            std::vector<int> random_plies;
            for (int i = 0; i < opts.random_moves && opts.random_max_ply > 0; ++i)
                random_plies.push_back(int(rng() % std::uint64_t(opts.random_max_ply)));
            int last_random = random_plies.empty() ? -1 : *std::max_element(random_plies.begin(), random_plies.end());
            e.new_game();
            std::vector<TrainingRecord> records;
            std::vector<Color> movers;
            GensfenStats local;
            Winner winner = Winner::None;
            int lopsided = 0;
            for (int ply = 0; !game.over() && !stop; ++ply) {
                const Position& pos = game.position();
                if (int(game.moves().size()) >= opts.max_plies) {
                    winner = Winner::Draw;
                    break;
                }
                if (std::find(random_plies.begin(), random_plies.end(), ply) != random_plies.end()) {
                    MoveList<LEGAL> moves(pos);
                    if (moves.size() == 0)
                        break;  // judged below
                    (void)game.play(moves.begin()[rng() % moves.size()].move);
                    ++local.skipped_random;
                    continue;
                }
                bool prelude = ply < last_random;  // not written: a cheaper search (gensfen_limits)
                Limits l = gensfen_limits(opts, prelude);
                SearchResult r = e.search(pos, l);
                ++local.searched;
                Color us = pos.side_to_move();
                if (r.best == Move::win()) {
                    winner = winner_of(us);
                    break;
                }
                if (!r.best) {
                    winner = winner_of(~us);
                    break;
                }
                bool mate = is_mate_score(r.score);
                lopsided = std::abs(r.score) >= opts.eval_limit ? lopsided + 1 : 0;
                if (prelude)
                    ++local.skipped_random;
                else if (pos.in_check())
                    ++local.skipped_check;
                else if (mate)
                    ++local.skipped_mate;
                else if ((!r.best.is_drop() && pos.piece_on(r.best.to()) != NO_PIECE) || capture_pending(pos))
                    ++local.skipped_capture;
                else {
                    TrainingRecord rec;
                    if (pack(pos, rec.position)) {
                        rec.score = std::int16_t(std::clamp(r.score, -32767, 32767));
                        rec.move = r.best.to_move16().raw();
                        rec.ply = std::uint16_t(std::min(pos.game_ply(), 65535));
                        records.push_back(rec);
                        movers.push_back(us);
                    }
                }
                if (mate || lopsided >= 4) {
                    winner = winner_of(r.score > 0 ? us : ~us);
                    break;
                }
                if (!game.play(r.best))
                    break;
            }
            if (stop && winner == Winner::None && !game.over())
                return;  // an unfinished game has no result
            if (winner == Winner::None) {
                const GameResult& res = game.result();
                winner = res.over() ? res.winner : Winner::Draw;
                if (!res.over()) {  // a random move left no legal reply
                    MoveList<LEGAL> moves(game.position());
                    if (moves.size() == 0)
                        winner = winner_of(~game.position().side_to_move());
                }
            }
            std::string bytes;
            for (std::size_t i = 0; i < records.size(); ++i) {
                TrainingRecord& rec = records[i];
                rec.result = winner == Winner::Draw || winner == Winner::None ? 0
                           : winner == winner_of(movers[i])                   ? 1
                                                                              : -1;
                auto b = rec.encode();
                bytes.append(reinterpret_cast<const char*>(b.data()), b.size());
            }
            std::lock_guard<std::mutex> lock(mutex);
            if (stop && done())
                return;  // the target was reached by another thread meanwhile
            if (!bytes.empty() && (std::fwrite(bytes.data(), 1, bytes.size(), out) != bytes.size() || std::fflush(out))) {
                write_error = opts.out + ": write failed";
                stop = true;
                return;
            }
            stats.games++;
            stats.written += records.size();
            stats.in_file += records.size();
            stats.searched += local.searched;
            stats.skipped_check += local.skipped_check;
            stats.skipped_mate += local.skipped_mate;
            stats.skipped_capture += local.skipped_capture;
            stats.skipped_random += local.skipped_random;
            (winner == Winner::Black ? stats.wins_black : winner == Winner::White ? stats.wins_white : stats.draws)++;
            write_state(state_path, {opts.seed, next_game.load()});
            if (done())
                stop = true;
        }
    };

    std::atomic<int> running{threads};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            worker(*engines[std::size_t(t)]);
            --running;
        });
    auto last = std::chrono::steady_clock::now();
    while (true) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        bool finished;
        {
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
        if (finished)
            break;
    }
    stop = true;
    for (auto& t : pool)
        t.join();
    std::fclose(out);
    stats.seconds = elapsed();
    stats.cpu_seconds = process_cpu_seconds() - cpu_start;
    if (!write_error.empty())
        return fail(write_error);
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
