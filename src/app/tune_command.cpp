// `hisha selfplay --games N [--nodes K] [--threads T] [--seed S] --out FILE`: positions with
// results from games of the engine against itself.
// `hisha tune DATA... [--epochs N] [--rate R] [--out PARAMS] [--emit-header PATH]`: fits the
// evaluation to them (Texel tuning) and reports the loss before and after.
#include "tune_command.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/tune.h"

namespace hisha::app {

namespace {
bool read_file(const std::string& path, std::string& out) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        return false;
    std::stringstream ss;
    ss << f.rdbuf();
    out = ss.str();
    return true;
}
}  // namespace

int selfplay_command(int argc, char** argv) {
    engine::SelfPlayOptions o;
    std::string out;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--games") o.games = std::stoi(next());
        else if (a == "--nodes") o.nodes = std::stoull(next());
        else if (a == "--threads") o.threads = std::stoi(next());
        else if (a == "--seed") o.seed = std::stoull(next());
        else if (a == "--random-plies") o.random_plies = std::stoi(next());
        else if (a == "--out") out = next();
        else {
            std::fprintf(stderr, "usage: hisha selfplay --games N [--nodes K] [--threads T] [--seed S] --out FILE\n");
            return 2;
        }
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

int tune_command(int argc, char** argv) {
    engine::TuneOptions o;
    std::vector<std::string> inputs;
    std::string out, header;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (a == "--epochs") o.epochs = std::stoi(next());
        else if (a == "--rate") o.learning_rate = std::stod(next());
        else if (a == "--out") out = next();
        else if (a == "--emit-header") header = next();
        else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "usage: hisha tune DATA... [--epochs N] [--rate R] [--out PARAMS] [--emit-header PATH]\n");
            return 2;
        } else
            inputs.push_back(a);
    }
    engine::ClassicEvaluator eval;
    std::vector<engine::TuneSample> samples;
    for (const auto& path : inputs) {
        std::string text;
        if (!read_file(path, text)) {
            std::fprintf(stderr, "hisha tune: cannot read %s\n", path.c_str());
            return 1;
        }
        int bad = 0;
        auto s = engine::load_samples(text, eval, &bad);
        if (bad)
            std::fprintf(stderr, "hisha tune: %s: %d lines skipped (not 'sfen<TAB>result')\n", path.c_str(), bad);
        samples.insert(samples.end(), std::make_move_iterator(s.begin()), std::make_move_iterator(s.end()));
    }
    if (samples.empty()) {
        std::fprintf(stderr, "hisha tune: no samples\n");
        return 1;
    }
    engine::EvalParams p = eval.params();
    double scale = engine::fit_scale(samples, p);
    double before = engine::tune_loss(samples, p, scale);
    o.scale = scale;
    o.progress = [](int e, double l) {
        if (e % 25 == 0)
            std::fprintf(stderr, "tune: epoch %d loss %.6f\n", e, l);
    };
    double after = engine::tune(samples, p, o);
    std::printf("samples=%zu scale=%.0f loss_before=%.6f loss_after=%.6f\n", samples.size(), scale, before, after);
    if (!out.empty()) {
        std::ofstream f(out);
        f << p.to_text();
    }
    if (!header.empty()) {
        std::ofstream f(header);
        f << "// Evaluation parameters fitted by `hisha tune` (Texel tuning on self-play positions); written\n"
             "// by `hisha tune --emit-header`. Applied on top of the hand-set defaults when the parameter\n"
             "// layout still has TUNED_SIZE entries.\n"
             "#pragma once\n\n#include <utility>\n\nnamespace hisha::engine {\n"
          << "inline constexpr int TUNED_SIZE = " << engine::EvalParams::size() << ";\n"
          << "// " << samples.size() << " positions, loss " << before << " -> " << after << "\n"
          << "inline constexpr std::pair<int, int> TUNED_PARAMS[] = {\n";
        const int* d = p.data();
        engine::EvalParams defaults = engine::EvalParams::defaults();
        int n = 0;
        for (int i = 0; i < engine::EvalParams::size(); ++i)
            if (d[i] != defaults.data()[i])
                f << (n++ % 6 == 0 ? "    " : " ") << "{" << i << ", " << d[i] << "}," << (n % 6 == 0 ? "\n" : "");
        f << (n % 6 ? "\n" : "") << "};\n}  // namespace hisha::engine\n";
    }
    return 0;
}

}  // namespace hisha::app
