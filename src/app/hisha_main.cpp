// main() of `hisha`: dispatch to a subcommand.
#include <cstdio>
#include <cstring>

#include <iostream>
#include <string>
#include <vector>

#include "bench_command.h"
#include "book_command.h"
#include "cli_help.h"
#include "convert_command.h"
#include "core/version.h"
#include "csa_command.h"
#include "gnushogi_args.h"
#include "match_command.h"
#include "nnue_command.h"
#include "openings_command.h"
#include "perft_command.h"
#include "protocol/usi_engine.h"
#include "tsume_command.h"
#include "tune_command.h"

namespace {
void usage() {
    std::printf("Hisha %s, a shogi system (GNU Shogi compatible)\n", hisha::version());
    std::puts(
        "usage: hisha [GNU Shogi options] [TIME...]         play: -R raw, -C curses, -X xshogi (GNU Shogi's options)\n"
        "       hisha usi                                    run as a USI engine\n"
        "       hisha bench [DEPTH]                          fixed-depth search bench (last line nodes=N ...)\n"
        "       hisha perft DEPTH [--sfen SFEN] [--divide]   count the legal move tree\n"
        "       hisha match --engine N=CMD --engine N=CMD --tc TC [...]   engine matches (--help)\n"
        "       hisha openings --out FILE [--count N]        balanced match openings (6-16 plies, checked by search)\n"
        "       hisha selfplay --games N --out FILE          positions with results for tuning\n"
        "       hisha tune DATA... [--emit-header PATH]      fit the evaluation to game results\n"
        "       hisha gensfen --out FILE [--positions N]     training data for the network (also --validate FILE)\n"
        "       hisha nnue features|eval|info ...            the network's tools (feature files, values, header)\n"
        "       hisha convert [--to FORMAT] IN [OUT]         convert a game record (kif ki2 csa psn western sfen usi)\n"
        "       hisha book build --out FILE RECORDS...      an opening book from game records (also: book show)\n"
        "       hisha tsume [--time-limit S] [FILE|-]        solve mating problems (shortest mate; --help)\n"
        "       hisha csa --host H --port P --user U --password P [--engine CMD] [--games N]   play on a CSA server "
        "(--help)\n"
        "       hisha --version                              the version\n"
        "       hisha help                                   this text");
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
        std::printf("hisha %s\n", hisha::version());
        return 0;
    }
    using namespace hisha::app;
    const Subcommand subcommands[] = {PERFT, CONVERT, SELFPLAY, TUNE, GENSFEN, NNUE,
                                      TSUME, BENCH,   CSA,      BOOK, MATCH,   OPENINGS};
    for (const Subcommand& c : subcommands)
        if (argc >= 2 && std::strcmp(argv[1], c.name) == 0)
            return c.usage && asks_help(argc - 2, argv + 2) ? print_help(c.usage) : c.run(argc - 2, argv + 2);
    if (argc >= 2 && std::strcmp(argv[1], "usi") == 0) {
        hisha::protocol::UsiEngine usi(std::cin, std::cout);
        return usi.run();
    }
    if (hisha::app::is_gnushogi_invocation(std::vector<std::string>(argv + 1, argv + argc)))
        return hisha::app::gnushogi_command(argc, argv);
    usage();
    bool asked = argc >= 2 && (std::strcmp(argv[1], "help") == 0 || std::strcmp(argv[1], "--help") == 0);
    return argc < 2 || asked ? 0 : 2;
}
