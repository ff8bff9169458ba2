// Transposition table: clusters of three 10-byte entries in 32 bytes, written without locks
// (a torn entry is caught by the 16-bit key check and by validating the move). Sized in MB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/move.h"
#include "core/types.h"
#include "value.h"

namespace hisha::engine {

enum Bound : std::uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

struct TTData {
    core::Move16 move;
    Value value;
    Value eval;
    Depth depth;
    Bound bound;
    bool is_pv;
};

class TranspositionTable {
public:
    TranspositionTable() { resize(16); }
    void resize(std::size_t mb);
    void clear();
    void new_search() { generation_ = std::uint8_t(generation_ + GENERATION_DELTA); }
    /// Looks the key up; returns whether it was found and a writer for the slot to use.
    struct Entry;
    bool probe(core::Key key, TTData& out, Entry*& slot) const;
    void store(Entry* slot, core::Key key, Value v, bool pv, Bound b, Depth d, core::Move16 m, Value ev);
    /// Starts loading the cluster of a key into the cache (before it is probed).
    void prefetch(core::Key key) const { __builtin_prefetch(cluster_of(key)); }
    /// Permille of a sample of entries written in this search.
    int hashfull() const;
    std::size_t size_mb() const { return mb_; }

    static constexpr std::uint8_t GENERATION_DELTA = 8;  // the low 3 bits hold pv and bound

    struct Entry {
        std::uint16_t key16;
        std::uint16_t move16;
        std::int16_t value16;
        std::int16_t eval16;
        std::uint8_t depth8;
        std::uint8_t genbound8;
    };
    static_assert(sizeof(Entry) == 10);

private:
    struct Cluster {
        Entry entry[3];
        char padding[2];
    };
    static_assert(sizeof(Cluster) == 32);

    __extension__ using U128 = unsigned __int128;
    Cluster* cluster_of(core::Key key) const { return &table_[std::size_t((U128(key) * cluster_count_) >> 64)]; }

    // Allocated on 2 MB boundaries and offered to the kernel as huge pages: a probe lands
    // anywhere in the table, and with 4 KB pages almost every probe is also a TLB miss.
    struct Free {
        void operator()(Cluster* p) const;
    };
    std::unique_ptr<Cluster[], Free> table_;
    std::size_t cluster_count_ = 0;
    std::size_t mb_ = 0;
    std::uint8_t generation_ = 0;
};

}  // namespace hisha::engine
