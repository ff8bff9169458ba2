// main() of `hisha`: dispatch to a subcommand, or GNU Shogi's command line without one.
#include <cstdio>
#include <cstring>

#include <iostream>
#include <string>
#include <vector>

#include "bench_command.h"
#include "book_command.h"
#include "cli.h"
#include "cli_help.h"
#include "convert_command.h"
#include "csa_command.h"
#include "gnushogi_args.h"
#include "match_command.h"
#include "nnue_command.h"
#include "openings_command.h"
#include "perft_command.h"
#include "protocol/usi_engine.h"
#include "puzzles_command.h"
#include "tsume_command.h"
#include "tune_command.h"

namespace {

constexpr const char* USAGE =
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
    "       hisha puzzles [--max-plies N] RECORD|DIR...  tsume puzzles from played games (unique short mates)\n"
    "       hisha csa --host H --port P --user U --password P [--engine CMD] [--games N]   play on a CSA server "
    "(--help)\n"
    "       hisha --version                              the version\n"
    "       hisha help                                   this text\n"
    "  every subcommand takes --help (its options and an example) and --version\n"
    "  example: hisha -R 30 5:00     (GNU Shogi's raw display, 30 moves in 5 minutes)\n";

constexpr const char* USI_USAGE =
    "usage: hisha usi\n"
    "  runs as a USI engine on standard input and output (the USI command `help` lists the rest);\n"
    "  `hisha` alone does too when the first line it reads is `usi`\n"
    "  example: printf 'usi\\nisready\\ngo depth 8\\nquit\\n' | hisha usi\n";

int usi_command(int argc, char** argv) {
    hisha::app::Cli cli("hisha usi", USI_USAGE);
    if (int status = cli.parse(argc, argv); status >= 0)
        return status;
    hisha::protocol::UsiEngine usi(std::cin, std::cout);
    return usi.run();
}

// `hisha`, `hisha help`, `hisha --help`, `hisha --version` and what is no subcommand.
int top_level(int argc, char** argv) {
    hisha::app::Cli cli("hisha", USAGE);
    cli.set_unknown_word("unknown option");
    bool help = false;
    cli.app().add_subcommand("help", "this text")->callback([&help] { help = true; });
    int status = cli.parse(argc - 1, argv + 1);
    if (status < 0 || help) {
        std::fputs(USAGE, stdout);
        return 0;
    }
    return status;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace hisha::app;
    const Subcommand USI = {"usi", usi_command, USI_USAGE};
    const Subcommand subcommands[] = {USI,   PERFT, CONVERT, SELFPLAY, TUNE,  GENSFEN, NNUE,
                                      TSUME, BENCH, CSA,     BOOK,     MATCH, OPENINGS, PUZZLES};
    for (const Subcommand& c : subcommands)
        if (argc >= 2 && std::strcmp(argv[1], c.name) == 0)
            return c.run(argc - 2, argv + 2);
    // GNU Shogi's own syntax (`hisha -R 30 5:00`, `-C`, `-X`, `a`, `-b book`, bare time
    // arguments) is read by gnushogi_args.cpp, not CLI11: its single-dash flags, a word `a` or
    // `h` as a flag and positional time arguments whose meaning depends on how many there are
    // are not what CLI11 expresses cleanly, and scripts depend on its exact behaviour.
    if (is_gnushogi_invocation(std::vector<std::string>(argv + 1, argv + argc)))
        return gnushogi_command(argc, argv);
    return top_level(argc, argv);
}
