// `hisha book build [--plies N] [--min-weight W] --out FILE RECORD|DIR...`: an SFEN opening
// book from the first plies of game records (KIF, KI2, CSA, PSN ...; directories are read
// recursively), each move weighted by how often it was played (the winner's moves twice).
// `hisha book show BOOK [SFEN|startpos]`: the book's moves of a position with their weights.
#include "book_command.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli.h"
#include "engine/book.h"
#include "notation/formats.h"
#include "notation/usi.h"
#include "read_file.h"

namespace hisha::app {

const char* const BOOK_USAGE =
    "usage: hisha book build [--plies N] [--min-weight W] --out FILE RECORD|DIR...\n"
    "       hisha book show BOOK [SFEN|startpos]\n"
    "  build: an SFEN book from the first N plies (default 30) of each record's main line; moves\n"
    "  played fewer than W times (default 1; a winner's move counts 2) are left out.\n"
    "  show: the book moves of a position (default: the start position) with their weights.\n"
    "  example: hisha book build --plies 30 --out my.sfen games/\n";

namespace {

bool is_record(const std::filesystem::path& p) { return notation::format_from_extension(p.string()).has_value(); }

struct BuildArgs {
    int plies = 30, min_weight = 1;
    std::string out;
    std::vector<std::string> inputs;
};

int build(const BuildArgs& args) {
    if (args.out.empty() || args.inputs.empty()) {
        std::fprintf(stderr, "%s", BOOK_USAGE);
        return 2;
    }
    const int plies = args.plies, min_weight = args.min_weight;
    const std::string& out = args.out;
    const std::vector<std::filesystem::path> inputs(args.inputs.begin(), args.inputs.end());
    std::vector<std::filesystem::path> files;
    for (const auto& in : inputs) {
        std::error_code ec;
        if (std::filesystem::is_directory(in, ec)) {
            for (const auto& e : std::filesystem::recursive_directory_iterator(in, ec))
                if (e.is_regular_file() && is_record(e.path()))
                    files.push_back(e.path());
        } else
            files.push_back(in);
    }
    std::sort(files.begin(), files.end());
    engine::Book book;
    int used = 0, failed = 0;
    for (const auto& f : files) {
        std::string bytes;
        if (!read_file(f, bytes)) {
            std::fprintf(stderr, "hisha book build: cannot read %s\n", f.string().c_str());
            ++failed;
            continue;
        }
        auto rec = notation::read_record(bytes, f.string());
        if (!rec) {
            std::fprintf(stderr, "hisha book build: %s: %s\n", f.string().c_str(), rec.error().to_string().c_str());
            ++failed;
            continue;
        }
        book.add_record(*rec, plies);
        ++used;
    }
    book.prune(min_weight);
    std::ofstream o(out, std::ios::binary);
    o << book.to_text();
    if (!o.flush()) {
        std::fprintf(stderr, "hisha book build: cannot write %s\n", out.c_str());
        return 1;
    }
    std::printf("records=%d skipped=%d positions=%zu\n", used, failed, book.positions());
    return used > 0 ? 0 : 1;
}

int show(const std::vector<std::string>& args) {
    if (args.empty() || args.size() > 2) {
        std::fprintf(stderr, "%s", BOOK_USAGE);
        return 2;
    }
    engine::Book book;
    if (auto r = book.load_file(args[0]); !r) {
        std::fprintf(stderr, "hisha book show: %s: %s\n", args[0].c_str(), r.error().to_string().c_str());
        return 1;
    }
    core::Position pos;
    std::string sfen = args.size() == 2 ? args[1] : "startpos";
    if (sfen == "startpos")
        pos.set_startpos();
    else if (!pos.set(sfen)) {
        std::fprintf(stderr, "hisha book show: not a valid SFEN: %s\n", sfen.c_str());
        return 2;
    }
    auto moves = book.moves(pos);
    if (moves.empty()) {
        std::printf("not in book\n");
        return 0;
    }
    for (const auto& e : moves)
        std::printf("%s %d\n", notation::write_usi_move(pos.to_move(e.move)).c_str(), e.weight);
    return 0;
}

}  // namespace

int book_command(int argc, char** argv) {
    Cli cli("hisha book", BOOK_USAGE);
    BuildArgs b;
    CLI::App* build_cmd = cli.subcommand("build");
    const char* range = "needs a number from 1 to 1000";
    cli.whole("--plies", b.plies, 1, 1000, range, build_cmd);
    cli.whole("--min-weight", b.min_weight, 1, 1000, range, build_cmd);
    cli.text("--out", b.out, build_cmd);
    cli.positionals("RECORDS", b.inputs, build_cmd);
    std::vector<std::string> show_args;
    CLI::App* show_cmd = cli.subcommand("show");
    cli.positionals("BOOK", show_args, show_cmd);
    if (argc < 1 || (std::string(argv[0]) != "build" && std::string(argv[0]) != "show" && argv[0][0] != '-')) {
        std::fprintf(stderr, "%s", BOOK_USAGE);
        return 2;
    }
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    if (build_cmd->parsed())
        return build(b);
    if (show_cmd->parsed())
        return show(show_args);
    std::fprintf(stderr, "%s", BOOK_USAGE);
    return 2;
}

const Subcommand BOOK = {"book", book_command, BOOK_USAGE};

}  // namespace hisha::app
