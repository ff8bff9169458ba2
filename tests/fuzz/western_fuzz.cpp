// libFuzzer target for the Western / PSN readers: any bytes go to read_psn_games, which must
// never crash and, on error, must name a line. Every game read must replay through the core,
// and writing it as PSN and as an xshogi game file and reading that back must give the same
// start, moves and winner. The first line also goes to parse_western (start position), and
// the whole input to the two diagram readers, whose output must read back to the same SFEN.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "fuzz_check.h"
#include "notation/diagram.h"
#include "notation/psn.h"
#include "notation/western.h"

using namespace hisha;
using namespace hisha::notation;

namespace {

void check_same_game(const GameRecord& rec, const std::string& written) {
    auto back = read_psn(written);
    if (!back)
        std::fprintf(stderr, "western_fuzz: written record does not read: %s\n%s\n", back.error().to_string().c_str(),
                     written.c_str());
    FUZZ_CHECK(back.has_value());
    FUZZ_CHECK(back->start_sfen == rec.start_sfen);
    FUZZ_CHECK(back->main_line() == rec.main_line());
    FUZZ_CHECK(back->result.winner == rec.result.winner);
}

void check_move(std::string_view line) {
    core::Position pos;
    auto m = parse_western(pos, line.substr(0, 40));
    if (!m) {
        FUZZ_CHECK(m.error().line > 0);
        return;
    }
    auto back = parse_western(pos, write_western(pos, *m));
    FUZZ_CHECK(back.has_value() && *back == *m);
}

// A diagram reader (bytes -> an SFEN) and its writer: what the reader refuses, it refuses at a
// line; what it reads is a position whose written diagram reads back to the same SFEN.
template <class Read, class Write>
void check_diagram(std::string_view bytes, Read read, Write write) {
    if (auto sfen = read(bytes)) {
        core::Position pos;
        FUZZ_CHECK(pos.set(*sfen, core::SfenRules::Relaxed).has_value());
        auto again = read(write(pos));
        FUZZ_CHECK(again.has_value() && *again == *sfen);
    } else
        FUZZ_CHECK(sfen.error().line > 0);
}

void check_diagrams(std::string_view bytes) {
    check_diagram(bytes, read_diagram, [](const core::Position& pos) { return write_diagram(pos); });
    check_diagram(bytes, read_xshogi_position, [](const core::Position& pos) { return write_xshogi_position(pos); });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view bytes(reinterpret_cast<const char*>(data), size);
    check_move(bytes.substr(0, bytes.find('\n')));
    check_diagrams(bytes);
    auto games = read_psn_games(bytes);
    if (!games) {
        FUZZ_CHECK(games.error().line > 0);
        return 0;
    }
    for (const auto& rec : *games) {
        FUZZ_CHECK(final_position(rec).has_value());
        check_same_game(rec, write_psn(rec));
        check_same_game(rec, write_xshogi_game(rec));
    }
    return 0;
}
