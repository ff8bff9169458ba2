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

bool parse_int(const char* text, int lo, int hi, int& v) {
    char* end = nullptr;
    long x = std::strtol(text, &end, 10);
    if (!*text || *end || x < lo || x > hi)
        return false;
    v = int(x);
    return true;
}

bool is_record(const std::filesystem::path& p) { return notation::format_from_extension(p.string()).has_value(); }

int build(int argc, char** argv) {
    int plies = 30, min_weight = 1;
    std::string out;
    std::vector<std::filesystem::path> inputs;
    for (int i = 0; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--plies" || a == "--min-weight") {
            int& v = a == "--plies" ? plies : min_weight;
            if (i + 1 >= argc || !parse_int(argv[i + 1], 1, 1000, v)) {
                std::fprintf(stderr, "hisha book build: %s needs a number from 1 to 1000\n", a.c_str());
                return 2;
            }
            ++i;
        } else if (a == "--out") {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "hisha book build: --out needs a file\n");
                return 2;
            }
            out = argv[++i];
        } else if (!a.empty() && a[0] == '-') {
            std::fprintf(stderr, "hisha book build: unknown option %s\n%s", a.c_str(), BOOK_USAGE);
            return 2;
        } else
            inputs.emplace_back(a);
    }
    if (out.empty() || inputs.empty()) {
        std::fprintf(stderr, "%s", BOOK_USAGE);
        return 2;
    }
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

int show(int argc, char** argv) {
    if (argc < 1 || argc > 2) {
        std::fprintf(stderr, "%s", BOOK_USAGE);
        return 2;
    }
    engine::Book book;
    if (auto r = book.load_file(argv[0]); !r) {
        std::fprintf(stderr, "hisha book show: %s: %s\n", argv[0], r.error().to_string().c_str());
        return 1;
    }
    core::Position pos;
    std::string sfen = argc == 2 ? argv[1] : "startpos";
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
    if (argc >= 1 && std::string(argv[0]) == "build")
        return build(argc - 1, argv + 1);
    if (argc >= 1 && std::string(argv[0]) == "show")
        return show(argc - 1, argv + 1);
    std::fprintf(stderr, "%s", BOOK_USAGE);
    return 2;
}

const Subcommand BOOK = {"book", book_command, BOOK_USAGE};

}  // namespace hisha::app
