// Transposition table storage and replacement.
#include "tt.h"

#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hisha::engine {

namespace {
constexpr int DEPTH_OFFSET = -7;  // stored depth = depth - offset (qsearch depths are negative)
// The bits of a key kept in an entry to tell positions of one cluster apart. The cluster is
// chosen by the key's HIGH bits (cluster_of), so the check must come from the low end: the
// high 16 bits would be the same for every position of a cluster and tell nothing.
std::uint16_t check_bits(core::Key key) { return std::uint16_t(key); }
}  // namespace

void TranspositionTable::Free::operator()(Cluster* p) const { std::free(p); }

void TranspositionTable::resize(std::size_t mb) {
    mb = mb < 1 ? 1 : mb;
    std::size_t count = mb * 1024 * 1024 / sizeof(Cluster);
    if (count != cluster_count_) {
        constexpr std::size_t HUGE_PAGE = 2 * 1024 * 1024;
        std::size_t bytes = (count * sizeof(Cluster) + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
        table_.reset();  // the old table goes before the new one is taken
        void* mem = std::aligned_alloc(HUGE_PAGE, bytes);
        if (!mem)
            throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
        madvise(mem, bytes, MADV_HUGEPAGE);  // advice only: without huge pages the table still works
#endif
        table_.reset(static_cast<Cluster*>(mem));
        cluster_count_ = count;
    }
    mb_ = mb;
    clear();
}

void TranspositionTable::clear() {
    std::memset(static_cast<void*>(table_.get()), 0, cluster_count_ * sizeof(Cluster));
    generation_ = 0;
}

bool TranspositionTable::probe(core::Key key, TTData& out, Entry*& slot) const {
    Cluster* c = cluster_of(key);
    std::uint16_t k16 = check_bits(key);
    for (Entry& e : c->entry)
        if (e.key16 == k16 && e.depth8) {
            out = TTData{core::Move16(e.move16),         Value(e.value16),       Value(e.eval16),
                         Depth(e.depth8) + DEPTH_OFFSET, Bound(e.genbound8 & 3), bool(e.genbound8 & 4)};
            e.genbound8 = std::uint8_t(generation_ | (e.genbound8 & 7));  // refresh
            slot = &e;
            return true;
        }
    // Replace the entry with the least depth, preferring old generations.
    Entry* replace = &c->entry[0];
    auto worth = [&](const Entry& e) {
        return int(e.depth8) - 8 * int(std::uint8_t(generation_ - (e.genbound8 & 0xf8)) / GENERATION_DELTA);
    };
    for (Entry& e : c->entry)
        if (worth(e) < worth(*replace))
            replace = &e;
    slot = replace;
    out = TTData{core::Move16(), VALUE_NONE, VALUE_NONE, 0, BOUND_NONE, false};
    return false;
}

void TranspositionTable::store(Entry* e, core::Key key, Value v, bool pv, Bound b, Depth d, core::Move16 m, Value ev) {
    std::uint16_t k16 = check_bits(key);
    // Keep the old move when none is given for the same position.
    if (m.raw() || k16 != e->key16)
        e->move16 = m.raw();
    // Overwrite less valuable entries only (exact bounds and deeper searches win).
    if (b == BOUND_EXACT || k16 != e->key16 || d - DEPTH_OFFSET + 2 * pv > int(e->depth8) - 4) {
        e->key16 = k16;
        e->value16 = std::int16_t(v);
        e->eval16 = std::int16_t(ev);
        e->depth8 = std::uint8_t(d - DEPTH_OFFSET);
        e->genbound8 = std::uint8_t(generation_ | (std::uint8_t(pv) << 2) | b);
    }
}

int TranspositionTable::hashfull() const {
    int count = 0;
    for (std::size_t i = 0; i < 1000 && i < cluster_count_; ++i)
        for (const Entry& e : table_[i].entry)
            count += e.depth8 && (e.genbound8 & 0xf8) == generation_;
    return count / 3;
}

}  // namespace hisha::engine
