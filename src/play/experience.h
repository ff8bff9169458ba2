// The experience file: GNU Shogi's "hashfile" (positions and moves learned from previous
// games) kept as a file of positions the engine has searched, each with the best move, its
// score and the depth. Before each search the entries for the position and for the positions
// two plies ahead (the engine's next turns) are written into the engine's transposition table
// through its public probe/store interface, so the search starts from what past games taught;
// the engine itself is not changed. GNU's `-c size` creates the file (2^size entries), `-h`/`h`
// switch it off and on, `-t` prints its statistics, `hashdepth` sets the minimum depth and the
// number of moves from the start during which it is used.
//
// File layout (little-endian): "HISHAEXP" magic, u32 version (1), u32 capacity log2, u64 entry
// count, then 16-byte entries: u64 key, u16 move, i16 score (side to move), u8 depth, u8 0,
// u16 times seen.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/position.h"
#include "core/result.h"
#include "engine/tt.h"

namespace hisha::play {

class Experience {
public:
    struct Entry {
        core::Move16 move;
        std::int16_t score = 0;
        std::uint8_t depth = 0;
        std::uint16_t seen = 0;
    };

    /// The default path: $HISHA_HASHFILE, else ~/.hisha/hisha.hsh.
    static std::string default_path();

    /// Creates an empty file of 2^size_log2 entries (GNU's `-c size`), replacing any.
    core::Result<void, std::string> create(const std::string& path, int size_log2);
    /// Loads the file; a missing file is not an error (the experience stays closed).
    core::Result<void, std::string> open(const std::string& path);
    core::Result<void, std::string> save() const;
    bool is_open() const { return open_; }
    const std::string& path() const { return path_; }

    /// Learns a search result for the side to move of `pos`.
    void record(const core::Position& pos, core::Move best, int score, int depth);
    std::optional<Entry> find(core::Key key) const;
    /// Seeds the table with entries of depth >= min_depth for pos and the positions two plies
    /// on; returns how many entries were written.
    int seed(engine::TranspositionTable& tt, const core::Position& pos, int min_depth) const;

    std::size_t size() const { return table_.size(); }
    std::size_t capacity() const { return std::size_t(1) << capacity_log2_; }
    /// The statistics GNU's `-t` prints: path, entries, capacity, entries by depth.
    std::string statistics() const;

private:
    void evict_one();

    std::unordered_map<core::Key, Entry> table_;
    std::string path_;
    int capacity_log2_ = 16;
    bool open_ = false;
    bool dirty_ = false;
};

}  // namespace hisha::play
