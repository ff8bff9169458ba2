// Opening book: position -> candidate moves with weights (and moves never to play). Reads
// GNU Shogi's text book (openings from the start position, `#` lines between them, `?` after a
// move that must never be played, transpositions found through the position key) and an
// SFEN-keyed book (`sfen ...` lines each followed by `move weight` lines; YaneuraOu's
// `move ponder value depth count` lines read the same way). Builds a book from game records.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/position.h"
#include "core/result.h"
#include "notation/record.h"

namespace hisha::engine {

class Book {
public:
    struct Entry {
        core::Move16 move;
        int weight = 0;
        bool forbidden = false;
    };

    /// Reads a book in either format (detected from the content); adds to what is there.
    core::Result<void, core::ParseError> load(std::string_view text);
    core::Result<void, core::ParseError> load_file(const std::string& path);
    core::Result<void, core::ParseError> load_gnu(std::string_view text);
    core::Result<void, core::ParseError> load_sfen(std::string_view text);

    /// Adds weight to a move in a position (creating the entry).
    void add(const core::Position& pos, core::Move m, int weight = 1);
    void forbid(const core::Position& pos, core::Move m);
    /// The legal book moves of a position (forbidden ones excluded), best weight first.
    std::vector<Entry> moves(const core::Position& pos) const;
    /// A book move chosen at random with probability proportional to weight, or none.
    core::Move probe(const core::Position& pos, std::mt19937_64& rng) const;

    /// Adds the first `plies` moves of a record's main line (weight 1 per occurrence, the
    /// winner's moves count twice).
    void add_record(const notation::GameRecord& rec, int plies);
    /// Drops moves seen fewer than `min_weight` times.
    void prune(int min_weight);
    /// The book in the SFEN format (deterministic order).
    std::string to_text() const;

    std::size_t positions() const { return table_.size(); }
    bool empty() const { return table_.empty(); }
    void clear() {
        table_.clear();
        sfens_.clear();
    }

private:
    std::unordered_map<core::Key, std::vector<Entry>> table_;
    std::unordered_map<core::Key, std::string> sfens_;  // for writing
};

}  // namespace hisha::engine
