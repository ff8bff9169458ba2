// `hisha selfplay --games N [--nodes K] [--threads T] [--seed S] --out FILE`: positions with
// results from games of the engine against itself.
// `hisha tune DATA... [--epochs N] [--rate R] [--min-count N] [--l2 L] [--lambda L] [--validation F] [--out PARAMS]
// [--emit-header PATH]`: fits the
// evaluation to them (Texel tuning) and reports the loss before and after.
#include "tune_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli.h"
#include "engine/tune.h"
#include "read_file.h"

namespace hisha::app {

const char* const SELFPLAY_USAGE =
    "usage: hisha selfplay --games N [--nodes K] [--threads T] [--seed S] [--random-plies P] --out FILE\n"
    "  plays the engine against itself and appends quiet positions with the game's result and the\n"
    "  search's score to FILE (for hisha tune)\n"
    "  example: hisha selfplay --games 100 --nodes 20000 --out data.txt\n";

const char* const TUNE_USAGE =
    "usage: hisha tune DATA... [--epochs N] [--rate R] [--min-count N] [--l2 L] "
    "[--lambda L] [--validation FRACTION] [--out PARAMS] [--emit-header PATH]\n"
    "  fits the evaluation's parameters to the results in DATA (hisha selfplay) and reports\n"
    "  the loss before and after on held-out games\n"
    "  example: hisha tune data.txt --emit-header src/engine/tuned_params.h\n";


int selfplay_command(int argc, char** argv) {
    engine::SelfPlayOptions o;
    std::string out;
    Cli cli("hisha selfplay", SELFPLAY_USAGE);
    const char* whole = "wants a whole number";
    cli.text("--out", out);
    cli.whole("--games", o.games, 0, 1'000'000, whole);
    cli.whole("--nodes", o.nodes, 0, ~0ULL, whole);
    cli.whole("--threads", o.threads, 0, 1'000'000, whole);
    cli.whole("--seed", o.seed, 0, ~0ULL, whole);
    cli.whole("--random-plies", o.random_plies, 0, 1'000'000, whole);
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    if (out.empty()) {
        std::fprintf(stderr, "hisha selfplay: --out FILE is required\n");
        return 2;
    }
    o.progress = [](int d, int t) {
        if (d % 10 == 0 || d == t)
            std::fprintf(stderr, "selfplay: %d/%d games\n", d, t);
    };
    std::ofstream f(out, std::ios::binary | std::ios::app);
    if (!f) {
        std::fprintf(stderr, "hisha selfplay: cannot write %s\n", out.c_str());
        return 1;
    }
    std::size_t positions = 0;
    bool ok = true;
    o.sink = [&](const std::string& lines) {  // each game as soon as it ends
        positions += std::size_t(std::count(lines.begin(), lines.end(), '\n'));
        ok = ok && bool(f << lines << std::flush);
    };
    engine::self_play(o);
    if (!ok) {
        std::fprintf(stderr, "hisha selfplay: cannot write %s\n", out.c_str());
        return 1;
    }
    std::printf("positions=%zu\n", positions);
    return 0;
}

namespace {


struct TuneArgs {
    engine::TuneOptions options;
    std::vector<std::string> inputs;
    std::string out, header;
    double validation = 0.1;
    double lambda = 1;
};

// The command line of `hisha tune`, or the exit status of a bad one (its message printed).
std::optional<int> parse_tune_args(int argc, char** argv, TuneArgs& t) {
    Cli cli("hisha tune", TUNE_USAGE);
    auto number = [&cli](const std::string& name, double lo, double hi, auto set) {
        cli.option(name, [=](const std::string& v) {
            auto x = number_in(v, lo, hi);
            if (!x)
                return refusal(name, fmt::format("needs a number from {:g} to {:g}", lo, hi), v);
            set(*x);
            return std::string();
        });
    };
    number("--epochs", 1, 1e6, [&t](double v) { t.options.epochs = int(v); });
    number("--rate", 1e-6, 1e4, [&t](double v) { t.options.learning_rate = v; });
    number("--min-count", 1, 1e9, [&t](double v) { t.options.min_count = int(v); });
    number("--l2", 0, 1, [&t](double v) { t.options.l2 = v; });
    number("--lambda", 0, 1, [&t](double v) { t.lambda = v; });
    number("--validation", 0, 0.5, [&t](double v) { t.validation = v; });
    cli.text("--out", t.out);
    cli.text("--emit-header", t.header);
    cli.positionals("DATA", t.inputs);
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    return std::nullopt;
}

// The samples of every DATA file, or the exit status when one cannot be read or none is left.
std::optional<int> load_tune_samples(const std::vector<std::string>& inputs, const engine::ClassicEvaluator& eval,
                                     std::vector<engine::TuneSample>& samples) {
    for (const auto& path : inputs) {
        std::string text;
        if (!read_file(path, text)) {
            std::fprintf(stderr, "hisha tune: cannot read %s\n", path.c_str());
            return 1;
        }
        int bad = 0;
        auto s = engine::load_samples(text, eval, &bad);
        if (bad)
            std::fprintf(stderr, "hisha tune: %s: %d lines skipped (not 'sfen<TAB>result[<TAB>score]')\n", path.c_str(),
                         bad);
        samples.insert(samples.end(), std::make_move_iterator(s.begin()), std::make_move_iterator(s.end()));
    }
    if (samples.empty()) {
        std::fprintf(stderr, "hisha tune: no samples\n");
        return 1;
    }
    return std::nullopt;
}

// Every k-th block of 64 samples is held out to show whether the fit generalises (over-fitting
// shows as a validation loss that rises while the training loss falls).
std::vector<engine::TuneSample> hold_out(std::vector<engine::TuneSample>& samples, double validation) {
    std::vector<engine::TuneSample> held;
    if (validation <= 0)
        return held;
    int k = std::max(2, int(1 / validation + 0.5));
    std::vector<engine::TuneSample> train;
    for (std::size_t i = 0; i < samples.size(); ++i)
        (i / 64 % std::size_t(k) == 0 ? held : train).push_back(std::move(samples[i]));  // ~a game a block
    samples = std::move(train);
    return held;
}

// tuned_params.h: the parameters that differ from the hand-set defaults.
void write_tuned_header(const std::string& path, const engine::EvalParams& p, std::size_t samples, double before,
                        double after) {
    std::ofstream f(path);
    f << "// Evaluation parameters fitted by `hisha tune` (Texel tuning on self-play positions); written\n"
         "// by `hisha tune --emit-header`. Applied on top of the hand-set defaults when the parameter\n"
         "// layout still has TUNED_SIZE entries.\n"
         "#pragma once\n\n#include <utility>\n\nnamespace hisha::engine {\n"
      << "inline constexpr int TUNED_SIZE = " << engine::EvalParams::size() << ";\n"
      << "// " << samples << " positions, loss " << before << " -> " << after << "\n"
      << "inline constexpr std::pair<int, int> TUNED_PARAMS[] = {\n";
    const int* d = p.data();
    engine::EvalParams defaults = engine::EvalParams::defaults();
    int n = 0;
    for (int i = 0; i < engine::EvalParams::size(); ++i)
        if (d[i] != defaults.data()[i]) {
            f << (n % 6 == 0 ? "    " : " ") << "{" << i << ", " << d[i] << "},";
            if (++n % 6 == 0)
                f << "\n";
        }
    f << (n % 6 ? "\n" : "") << "};\n}  // namespace hisha::engine\n";
}

}  // namespace

int tune_command(int argc, char** argv) {
    TuneArgs t;
    if (auto status = parse_tune_args(argc, argv, t))
        return *status;
    engine::ClassicEvaluator eval;
    std::vector<engine::TuneSample> samples;
    if (auto status = load_tune_samples(t.inputs, eval, samples))
        return *status;
    std::vector<engine::TuneSample> held = hold_out(samples, t.validation);
    if (samples.empty()) {
        std::fprintf(stderr,
                     "hisha tune: all %zu samples were held out for validation (blocks of 64); give more data or "
                     "--validation 0\n",
                     held.size());
        return 1;
    }
    engine::EvalParams p = eval.params();
    double scale = engine::fit_scale(samples, p);
    if (t.lambda < 1) {  // the scale is fitted to the results, then the targets take in the scores
        engine::blend_targets(samples, t.lambda, scale);
        engine::blend_targets(held, t.lambda, scale);
    }
    double before = engine::tune_loss(samples, p, scale);
    double held_before = held.empty() ? 0 : engine::tune_loss(held, p, scale);
    t.options.scale = scale;
    t.options.progress = [](int e, double l) {
        if (e % 25 == 0)
            std::fprintf(stderr, "tune: epoch %d loss %.6f\n", e, l);
    };
    double after = engine::tune(samples, p, t.options);
    std::printf("samples=%zu scale=%.0f loss_before=%.6f loss_after=%.6f\n", samples.size(), scale, before, after);
    if (!held.empty())
        std::printf("validation=%zu loss_before=%.6f loss_after=%.6f\n", held.size(), held_before,
                    engine::tune_loss(held, p, scale));
    if (!t.out.empty()) {
        std::ofstream f(t.out);
        f << p.to_text();
    }
    if (!t.header.empty())
        write_tuned_header(t.header, p, samples.size(), before, after);
    return 0;
}

const Subcommand SELFPLAY = {"selfplay", selfplay_command, SELFPLAY_USAGE};
const Subcommand TUNE = {"tune", tune_command, TUNE_USAGE};

}  // namespace hisha::app
