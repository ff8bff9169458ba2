// main() of `hisha`: dispatch to a subcommand.
#include <cstdio>
#include <cstring>

#include "perft_command.h"

namespace {
void usage() {
    std::puts(
        "Hisha 0.1, a shogi system (GNU Shogi compatible)\n"
        "usage: hisha perft DEPTH [--sfen SFEN] [--divide]   count the legal move tree\n"
        "       hisha help                                   this text");
}
}  // namespace

int main(int argc, char** argv) {
    if (argc >= 2 && std::strcmp(argv[1], "perft") == 0)
        return hisha::app::perft_command(argc - 2, argv + 2);
    usage();
    bool asked = argc >= 2 && (std::strcmp(argv[1], "help") == 0 || std::strcmp(argv[1], "--help") == 0);
    return argc < 2 || asked ? 0 : 2;
}
