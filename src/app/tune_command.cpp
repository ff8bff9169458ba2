// `hisha selfplay --games N [--nodes K] [--threads T] [--seed S] --out FILE`: positions with
// results from games of the engine against itself.
// `hisha tune DATA... [--epochs N] [--rate R] [--min-count N] [--l2 L] [--lambda L] [--validation F] [--out PARAMS]
// [--emit-header PATH]`: fits the
// evaluation to them (Texel tuning) and reports the loss before and after.
#include "tune_command.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli_help.h"
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
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--out") {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "hisha selfplay: --out needs a file\n%s", SELFPLAY_USAGE);
                return 2;
            }
            out = argv[++i];
            continue;
        }
        if (a != "--games" && a != "--nodes" && a != "--threads" && a != "--seed" && a != "--random-plies") {
            std::fprintf(stderr, "hisha selfplay: unknown option %s\n%s", a.c_str(), SELFPLAY_USAGE);
            return 2;
        }
        const char* text = i + 1 < argc ? argv[++i] : nullptr;
        auto v = whole_number(text);
        bool small = a == "--seed" || a == "--nodes" || (v && *v <= 1'000'000);
        if (!v || !small) {
            std::fprintf(stderr, "hisha selfplay: %s wants a whole number, not '%s'\n", a.c_str(), text ? text : "");
            return 2;
        }
        if (a == "--games")
            o.games = int(*v);
        else if (a == "--nodes")
            o.nodes = *v;
        else if (a == "--threads")
            o.threads = int(*v);
        else if (a == "--seed")
            o.seed = *v;
        else
            o.random_plies = int(*v);
    }
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
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        auto number = [&](double lo, double hi, double& v) {
            const char* text = i + 1 < argc ? argv[++i] : "";
            char* end = nullptr;
            v = std::strtod(text, &end);
            if (!*text || *end || !(v >= lo && v <= hi)) {
                std::fprintf(stderr, "hisha tune: %s needs a number from %g to %g, got '%s'\n", a.c_str(), lo, hi,
                             text);
                return false;
            }
            return true;
        };
        double v = 0;
        bool ok = true;
        if (a == "--epochs") {
            ok = number(1, 1e6, v);
            t.options.epochs = int(v);
        } else if (a == "--rate") {
            ok = number(1e-6, 1e4, t.options.learning_rate);
        } else if (a == "--min-count") {
            ok = number(1, 1e9, v);
            t.options.min_count = int(v);
        } else if (a == "--l2") {
            ok = number(0, 1, t.options.l2);
        } else if (a == "--lambda") {
            ok = number(0, 1, t.lambda);
        } else if (a == "--validation") {
            ok = number(0, 0.5, t.validation);
        } else if (a == "--out" || a == "--emit-header") {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "hisha tune: %s needs a path\n%s", a.c_str(), TUNE_USAGE);
                return 2;
            }
            (a == "--out" ? t.out : t.header) = argv[++i];
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "hisha tune: unknown option %s\n%s", a.c_str(), TUNE_USAGE);
            return 2;
        } else
            t.inputs.push_back(a);
        if (!ok)
            return 2;
    }
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
