// The record fixtures' common check (KIF, KI2): a published file reads, has moves, and replays
// through the rules.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/game.h"
#include "notation/encoding.h"
#include "notation/record.h"
#include "test_files.h"

namespace hisha::testing {

/// `b` holds what `a` does: start, headers, comments, moves (with their times when `times`:
/// KIF has them, KI2 not), variations and result.
inline void expect_same_lines(const std::vector<notation::MoveRecord>& a, const std::vector<notation::MoveRecord>& b,
                              bool times, const std::string& where) {
    ASSERT_EQ(a.size(), b.size()) << where;
    for (std::size_t i = 0; i < a.size(); ++i) {
        std::string at = where + " ply " + std::to_string(i + 1);
        EXPECT_EQ(a[i].move, b[i].move) << at;
        if (times) {
            EXPECT_EQ(a[i].time_ms, b[i].time_ms) << at;
        }
        EXPECT_EQ(a[i].comments, b[i].comments) << at;
        ASSERT_EQ(a[i].variations.size(), b[i].variations.size()) << at;
        for (std::size_t v = 0; v < a[i].variations.size(); ++v)
            expect_same_lines(a[i].variations[v].moves, b[i].variations[v].moves, times,
                              at + " variation " + std::to_string(v));
    }
}
inline void expect_same_record(const notation::GameRecord& a, const notation::GameRecord& b, bool times,
                               const std::string& where) {
    EXPECT_EQ(a.start_sfen, b.start_sfen) << where;
    ASSERT_EQ(a.headers.size(), b.headers.size()) << where;
    for (std::size_t i = 0; i < a.headers.size(); ++i) {
        EXPECT_EQ(a.headers[i].key, b.headers[i].key) << where;
        EXPECT_EQ(a.headers[i].value, b.headers[i].value) << where;
    }
    EXPECT_EQ(a.start_comments, b.start_comments) << where;
    expect_same_lines(a.moves, b.moves, times, where);
    EXPECT_EQ(a.result.winner, b.result.winner) << where;
    EXPECT_EQ(a.result.reason, b.result.reason) << where;
    EXPECT_EQ(a.result.actor, b.result.actor) << where;
    if (times) {
        EXPECT_EQ(a.result.time_ms, b.result.time_ms) << where;
    }
}

/// The record of the file at `path` as `read` gives it, with its moves played into `game`; a
/// record that does not read, has no move or does not replay fails the test.
template <class Read>
notation::GameRecord read_and_replay(Read read, const std::string& path, core::Game& game) {
    notation::GameRecord rec = parsed(read, slurp(path), path);
    EXPECT_FALSE(rec.moves.empty()) << path;
    auto replayed = notation::replay(rec, game);
    EXPECT_TRUE(replayed.has_value()) << path << ": " << (replayed ? "" : replayed.error().to_string());
    return rec;
}

/// The `count` records of `folder`: each reads and replays (every move), and written again by
/// `write` in UTF-8 and in Shift_JIS it is detected as such and reads back the same (the moves'
/// times too when `times`).
template <class Read, class Write>
void expect_fixtures_round_trip(const std::string& folder, std::size_t count, Read read, Write write, bool times) {
    auto files = files_in(folder);
    ASSERT_EQ(files.size(), count) << folder;
    for (const auto& path : files) {
        core::Game game;
        notation::GameRecord rec = read_and_replay(read, path, game);
        EXPECT_EQ(game.moves().size(), rec.moves.size()) << path;
        for (notation::Encoding enc : {notation::Encoding::Utf8, notation::Encoding::ShiftJis}) {
            std::string written = write(rec, enc);
            EXPECT_EQ(notation::detect_encoding(written), enc) << path;
            std::string where = path + " written as " + notation::encoding_name(enc);
            expect_same_record(rec, parsed(read, written, where), times, where);
        }
    }
}

}  // namespace hisha::testing
