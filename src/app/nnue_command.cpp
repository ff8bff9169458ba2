// `hisha gensfen ...`: self-play training data (engine/nnue/gensfen.h), and its validation.
// `hisha nnue features|eval|info ...`: the data as feature indices for the trainer, a net's
// values on a data file's positions, a net file's header.
#include "nnue_command.h"

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "cli.h"
#include "engine/nnue/features.h"
#include "engine/nnue/gensfen.h"
#include "engine/nnue/network.h"
#include "engine/nnue/training_data.h"

namespace hisha::app {

const char* const GENSFEN_USAGE =
    "usage: hisha gensfen --out FILE [--positions N] [--games N] [--time SECONDS] [--depth D | --nodes N]\n"
    "                     [--threads T] [--random-moves K] [--random-max-ply P] [--max-plies N]\n"
    "                     [--eval-limit CP] [--seed S] [--openings FILE] [--hash MB] [--eval-file NET]\n"
    "       hisha gensfen --validate FILE\n"
    "  plays the engine against itself (depth 6 by default) from the openings (lines 'startpos moves ...',\n"
    "  e.g. bench/strength/openings-balanced.txt; default the start position), K random moves (3) among the\n"
    "  first P plies (16) after it, and appends each quiet position after them with the search's score,\n"
    "  best move and the game's result to FILE (48-byte records, docs/nnue.md); stops at N records in the\n"
    "  file, N games or after SECONDS, whichever comes first. A run with the same FILE and --seed resumes\n"
    "  (FILE.state) without repeating a game. --validate reads FILE back and reports every bad record.\n"
    "  example: hisha gensfen --out data.bin --positions 1000000 --depth 6 --threads 2 \\\n"
    "             --openings bench/strength/openings-balanced.txt\n";

const char* const NNUE_USAGE =
    "usage: hisha nnue features DATA OUT    the records of DATA as feature indices for the trainer\n"
    "       hisha nnue eval NET DATA        the net's value (side to move, cp) of each record's position\n"
    "       hisha nnue info NET             a net file's header\n"
    "  formats in docs/nnue.md; the trainer is tools/nnue/train.py\n"
    "  example: hisha nnue features data.bin data.ftr\n";

namespace {


std::string clock_text(double seconds) {
    long s = std::lround(std::max(0.0, seconds));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

int validate(const std::string& path) {
    auto r = engine::nnue::validate_file(path);
    if (!r) {
        std::fprintf(stderr, "hisha gensfen: %s\n", r.error().c_str());
        return 1;
    }
    for (const auto& e : r->errors)
        std::fprintf(stderr, "%s: %s\n", path.c_str(), e.c_str());
    if (r->bad > r->errors.size())
        std::fprintf(stderr, "%s: ... %llu more bad records\n", path.c_str(),
                     (unsigned long long)(r->bad - r->errors.size()));
    std::printf("records=%llu bad=%llu wins=%llu draws=%llu losses=%llu mean_abs_score=%.1f plies=%d..%d\n",
                (unsigned long long)r->records, (unsigned long long)r->bad, (unsigned long long)r->wins,
                (unsigned long long)r->draws, (unsigned long long)r->losses, r->mean_abs_score, r->min_ply, r->max_ply);
    return r->bad ? 1 : 0;
}

// The options that take a whole number: name, bounds, and where the value goes.
struct Spin {
    const char* name;
    unsigned long long lo, hi;
    void (*set)(engine::nnue::GensfenOptions& o, unsigned long long v);
};
using Opts = engine::nnue::GensfenOptions;
const Spin GENSFEN_SPINS[] = {
    {"--positions", 1, 1ULL << 40, [](Opts& o, unsigned long long v) { o.positions = v; }},
    {"--games", 1, 1ULL << 40, [](Opts& o, unsigned long long v) { o.games = v; }},
    {"--depth", 1, 30, [](Opts& o, unsigned long long v) { o.depth = int(v); }},
    {"--nodes", 1, 1ULL << 40, [](Opts& o, unsigned long long v) { o.nodes = v; }},
    {"--threads", 1, 256, [](Opts& o, unsigned long long v) { o.threads = int(v); }},
    {"--random-moves", 0, 64, [](Opts& o, unsigned long long v) { o.random_moves = int(v); }},
    {"--random-max-ply", 0, 256, [](Opts& o, unsigned long long v) { o.random_max_ply = int(v); }},
    {"--max-plies", 1, 10000, [](Opts& o, unsigned long long v) { o.max_plies = int(v); }},
    {"--eval-limit", 100, 30000, [](Opts& o, unsigned long long v) { o.eval_limit = int(v); }},
    {"--seed", 0, ~0ULL, [](Opts& o, unsigned long long v) { o.seed = v; }},
    {"--hash", 1, 65536, [](Opts& o, unsigned long long v) { o.hash_mb = int(v); }},
};

// A line of progress on stderr: records, games, rates, the share of a core, the time left.
void report_progress(const engine::nnue::GensfenOptions& o, const engine::nnue::GensfenStats& s) {
    double rate = s.seconds > 0 ? double(s.written) / s.seconds : 0;
    double eta = -1;
    if (o.positions && rate > 0)
        eta = double(o.positions - std::min(o.positions, s.in_file)) / rate;
    if (o.games && s.games > 0)
        eta = std::max(eta, double(o.games - std::min(o.games, s.games)) * s.seconds / double(s.games));
    if (o.seconds > 0)
        eta = eta < 0 ? o.seconds - s.seconds : std::min(eta, o.seconds - s.seconds);
    std::fprintf(stderr,
                 "gensfen: %llu records in the file (+%llu), %llu games, %.1f positions/s, %.1f searched/s, "
                 "%.1f positions per CPU second, %.0f%% of a core, elapsed %s, ETA %s\n",
                 (unsigned long long)s.in_file, (unsigned long long)s.written, (unsigned long long)s.games, rate,
                 s.seconds > 0 ? double(s.searched) / s.seconds : 0.0,
                 s.cpu_seconds > 0 ? double(s.written) / s.cpu_seconds : 0.0,
                 s.seconds > 0 ? 100 * s.cpu_seconds / s.seconds : 0.0, clock_text(s.seconds).c_str(),
                 eta < 0 ? "unknown" : clock_text(eta).c_str());
}

}  // namespace

int gensfen_command(int argc, char** argv) {
    engine::nnue::GensfenOptions o;
    std::string openings_file, validate_file;
    Cli cli("hisha gensfen", GENSFEN_USAGE);
    cli.text("--validate", validate_file);
    cli.text("--out", o.out);
    cli.text("--openings", openings_file);
    cli.text("--eval-file", o.eval_file);
    cli.option("--time", [&o](const std::string& v) {
        auto x = number_in(v, 1e-9, 1e12);
        o.seconds = x.value_or(0);
        return x ? std::string() : refusal("--time", "wants seconds above 0", v);
    });
    for (const Spin& spin : GENSFEN_SPINS)
        cli.option(spin.name, [&o, &spin](const std::string& v) {
            auto n = whole_in(v, spin.lo, spin.hi);
            if (!n)
                return refusal(spin.name, fmt::format("wants a whole number from {} to {}", spin.lo, spin.hi), v);
            spin.set(o, *n);
            return std::string();
        });
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    if (!validate_file.empty())
        return validate(validate_file);
    if (o.out.empty()) {
        std::fprintf(stderr, "hisha gensfen: --out FILE is required\n%s", GENSFEN_USAGE);
        return 2;
    }
    if (!openings_file.empty()) {
        std::ifstream f(openings_file);
        if (!f) {
            std::fprintf(stderr, "hisha gensfen: cannot read %s\n", openings_file.c_str());
            return 1;
        }
        for (std::string line; std::getline(f, line);)
            if (!line.empty() && line[0] != '#')
                o.openings.push_back(line);
    }
    auto report = [&o](const engine::nnue::GensfenStats& s) { report_progress(o, s); };
    auto r = engine::nnue::gensfen(o, report);
    if (!r) {
        std::fprintf(stderr, "hisha gensfen: %s\n", r.error().c_str());
        return 1;
    }
    if (r->dropped_bytes)
        std::fprintf(stderr, "gensfen: dropped %llu bytes of a record cut short at the end of %s\n",
                     (unsigned long long)r->dropped_bytes, o.out.c_str());
    std::printf("records=%llu written=%llu games=%llu first_game=%llu black_wins=%llu white_wins=%llu draws=%llu "
                "skipped_check=%llu skipped_capture=%llu skipped_mate=%llu skipped_random=%llu searched=%llu "
                "seconds=%.1f cpu_seconds=%.1f\n",
                (unsigned long long)r->in_file, (unsigned long long)r->written, (unsigned long long)r->games,
                (unsigned long long)r->first_game, (unsigned long long)r->wins_black, (unsigned long long)r->wins_white,
                (unsigned long long)r->draws, (unsigned long long)r->skipped_check,
                (unsigned long long)r->skipped_capture, (unsigned long long)r->skipped_mate,
                (unsigned long long)r->skipped_random, (unsigned long long)r->searched, r->seconds, r->cpu_seconds);
    return 0;
}

namespace {

// The feature file (docs/nnue.md): a 32-byte header, then per record int16 score, int8 result,
// uint8 0, uint16 features[2][40] (the side to move's perspective first, 0xFFFF after the last).
constexpr int FEATURE_SLOTS = 40;

template <typename T>
void put(std::string& out, T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i)
        out.push_back(char((std::uint64_t(std::make_unsigned_t<T>(v)) >> (8 * i)) & 0xff));
}

int features(const std::string& data, const std::string& out_path) {
    using namespace engine::nnue;
    std::ifstream in(data, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "hisha nnue features: cannot open %s\n", data.c_str());
        return 1;
    }
    std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
    if (!out) {
        std::fprintf(stderr, "hisha nnue features: cannot write %s\n", out_path.c_str());
        return 1;
    }
    std::string header(8, '\0');
    std::memcpy(header.data(), "HISHAFTR", 8);
    put(header, std::uint32_t(1));
    put(header, FEATURE_SET_ID);
    put(header, std::uint32_t(FEATURES_PER_BUCKET));
    put(header, std::uint32_t(FEATURES));
    put(header, std::uint32_t(FEATURE_SLOTS));
    put(header, std::uint32_t(0));  // the record count, written at the end
    out.write(header.data(), std::streamsize(header.size()));
    std::uint8_t buf[RECORD_BYTES];
    std::uint64_t n = 0, written = 0, bad = 0;
    std::string chunk;
    for (;; ++n) {
        in.read(reinterpret_cast<char*>(buf), RECORD_BYTES);
        if (in.gcount() == 0)
            break;
        auto fail = [&](const std::string& why) {
            std::fprintf(stderr, "hisha nnue features: %s: record %llu (offset %llu): %s\n", data.c_str(),
                         (unsigned long long)n, (unsigned long long)(n * RECORD_BYTES), why.c_str());
            ++bad;
        };
        if (in.gcount() < RECORD_BYTES) {
            fail("cut short");
            break;
        }
        auto rec = TrainingRecord::decode(buf);
        if (!rec) {
            fail(rec.error());
            continue;
        }
        auto sfen = unpack_sfen(rec->position);
        core::Position pos;
        if (!sfen || !pos.set(*sfen, core::SfenRules::Relaxed)) {
            fail(sfen ? "not a legal position: " + *sfen : sfen.error());
            continue;
        }
        std::uint16_t f[2][MAX_ACTIVE];
        core::Color us = pos.side_to_move();
        int k0 = active_features(pos, us, f[0]), k1 = active_features(pos, ~us, f[1]);
        if (k0 > FEATURE_SLOTS || k1 > FEATURE_SLOTS) {
            fail("more than " + std::to_string(FEATURE_SLOTS) + " pieces");
            continue;
        }
        put(chunk, rec->score);
        put(chunk, rec->result);
        put(chunk, std::uint8_t(0));
        for (int p = 0; p < 2; ++p)
            for (int i = 0; i < FEATURE_SLOTS; ++i)
                put(chunk, std::uint16_t(i < (p ? k1 : k0) ? f[p][i] : 0xFFFF));
        ++written;
        if (chunk.size() > (1 << 20)) {
            out.write(chunk.data(), std::streamsize(chunk.size()));
            chunk.clear();
        }
    }
    out.write(chunk.data(), std::streamsize(chunk.size()));
    std::string count;
    put(count, std::uint32_t(written));
    out.seekp(28);
    out.write(count.data(), 4);
    if (!out) {
        std::fprintf(stderr, "hisha nnue features: cannot write %s\n", out_path.c_str());
        return 1;
    }
    std::printf("records=%llu written=%llu bad=%llu\n", (unsigned long long)n, (unsigned long long)written,
                (unsigned long long)bad);
    return bad ? 1 : 0;
}

int eval(const std::string& net_path, const std::string& data) {
    using namespace engine::nnue;
    auto net = Network::load(net_path);
    if (!net) {
        std::fprintf(stderr, "hisha nnue eval: %s\n", net.error().c_str());
        return 1;
    }
    std::ifstream in(data, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "hisha nnue eval: cannot open %s\n", data.c_str());
        return 1;
    }
    std::uint8_t buf[RECORD_BYTES];
    for (std::uint64_t n = 0;; ++n) {
        in.read(reinterpret_cast<char*>(buf), RECORD_BYTES);
        if (in.gcount() == 0)
            break;
        auto rec = in.gcount() == RECORD_BYTES
                     ? TrainingRecord::decode(buf)
                     : core::Result<TrainingRecord, std::string>(core::unexpected(std::string("cut short")));
        auto sfen =
            rec ? unpack_sfen(rec->position) : core::Result<std::string, std::string>(core::unexpected(rec.error()));
        core::Position pos;
        if (!sfen || !pos.set(*sfen, core::SfenRules::Relaxed)) {
            std::fprintf(stderr, "hisha nnue eval: %s: record %llu (offset %llu): %s\n", data.c_str(),
                         (unsigned long long)n, (unsigned long long)(n * RECORD_BYTES),
                         sfen ? "not a legal position" : sfen.error().c_str());
            return 1;
        }
        std::printf("%d\n", net->evaluate(pos));
    }
    return 0;
}

int info(const std::string& net_path) {
    auto net = engine::nnue::Network::load(net_path);
    if (!net) {
        std::fprintf(stderr, "hisha nnue info: %s\n", net.error().c_str());
        return 1;
    }
    std::printf("feature_set=%s features=%d layers=%dx2-%d-%d-1 eval_scale=%d simd=%s\ndescription=%s\n",
                engine::nnue::FEATURE_SET_NAME, engine::nnue::FEATURES, net->l1, net->l2, net->l3, net->eval_scale,
                engine::nnue::cpu_has_avx2() ? "avx2" : "scalar", net->description.c_str());
    return 0;
}

}  // namespace

int nnue_command(int argc, char** argv) {
    Cli cli("hisha nnue", NNUE_USAGE);
    std::vector<std::string> args[3];
    const char* names[3] = {"features", "eval", "info"};
    for (int k = 0; k < 3; ++k)
        cli.positionals(k == 2 ? "NET" : "FILES", args[k], cli.subcommand(names[k]));
    cli.app().require_subcommand(0, 1);
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    std::string sub = cli.app().get_subcommands().empty() ? "" : cli.app().get_subcommands()[0]->get_name();
    const auto& a = sub == "features" ? args[0] : sub == "eval" ? args[1] : args[2];
    if (sub == "features" && a.size() == 2)
        return features(a[0], a[1]);
    if (sub == "eval" && a.size() == 2)
        return eval(a[0], a[1]);
    if (sub == "info" && a.size() == 1)
        return info(a[0]);
    std::fprintf(stderr, "hisha nnue: expected features DATA OUT, eval NET DATA or info NET\n%s", NNUE_USAGE);
    return 2;
}

const Subcommand GENSFEN = {"gensfen", gensfen_command, GENSFEN_USAGE};
const Subcommand NNUE = {"nnue", nnue_command, NNUE_USAGE};

}  // namespace hisha::app
