// Transposition table (see tt.h). Look-ups scan one window of WINDOW slots: proofs and
// disproofs are matched by hand superiority and length, unknown entries by the exact hand
// and length (numbers of other lengths are not reused: bounds taken from them fed one another
// round transpositions of different depths and grew without any expansion). The victim of a
// full window is its least-worked entry, so the table keeps the expensive results.
#include "tt.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <sys/mman.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace hisha::tsume {

using core::Hand;
using core::Key;

namespace {
constexpr std::uint32_t to32(PnDn v) noexcept { return v >= 0xfffffff0u ? 0xfffffff0u : std::uint32_t(v); }
}  // namespace

namespace {
// Large tables in 2 MB pages where the system allows: look-ups go to random places of
// gigabytes, and with 4 KB pages nearly each one also misses the TLB (15-20% of the time of
// a long search). Small tables keep 4 KB pages: the kernel's work to assemble huge pages
// costs more than a short search gains.
void* allocate_large(std::size_t bytes) {
    constexpr std::size_t PAGE = 2 << 20, HUGE_FROM = std::size_t(512) << 20;
    bytes = (bytes + PAGE - 1) / PAGE * PAGE;
    void* p = std::aligned_alloc(PAGE, bytes);
#ifdef MADV_HUGEPAGE
    if (p && bytes >= HUGE_FROM)
        madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}
}  // namespace

void TranspositionTable::Free::operator()(void* p) const noexcept { std::free(p); }

TranspositionTable::TranspositionTable(std::size_t megabytes) {
    std::size_t bytes = std::max<std::size_t>(megabytes, 1) << 20;
    std::size_t rep_bytes = bytes / 20;
    slots_ = std::max<std::size_t>((bytes - rep_bytes) / (sizeof(Entry) + sizeof(std::uint16_t)), 2 * WINDOW);
    // Entries stay uninitialised (the tags say which are used). Without the memory asked
    // for, the table halves until it fits.
    while (true) {
        entries_.reset(static_cast<Entry*>(allocate_large(slots_ * sizeof(Entry))));
        tags_.reset(static_cast<std::uint16_t*>(allocate_large(slots_ * sizeof(std::uint16_t))));
        if ((entries_ && tags_) || slots_ <= 4 * WINDOW)
            break;
        slots_ /= 2;
    }
    // The first part: about FIRST_BYTES. Each size is at least twice the one before plus a
    // window (grow() relies on it), the last one all of the slots or nearly.
    constexpr std::size_t FIRST_BYTES = std::size_t(16) << 20;
    first_active_ = slots_;
    while ((first_active_ - (WINDOW - 1)) / 2 * (sizeof(Entry) + sizeof(std::uint16_t)) >= FIRST_BYTES)
        first_active_ = (first_active_ - (WINDOW - 1)) / 2;
    std::memset(tags_.get(), 0, first_active_ * sizeof(std::uint16_t));
    set_active(first_active_);
    rep_capacity_ = std::max<std::size_t>(rep_bytes / 64, 1024);  // ~64 bytes per map node
}

void TranspositionTable::set_active(std::size_t active) noexcept {
    active_ = active;
    buckets_ = active_ - (WINDOW - 1);
    gc_threshold_ = active_ * 9 / 10;
}

void TranspositionTable::new_search() {
    std::memset(tags_.get(), 0, active_ * sizeof(std::uint16_t));
    set_active(first_active_);
    used_ = 0;
    reps_[0].clear();
    reps_[1].clear();
}

void TranspositionTable::make_room() noexcept {
    if (2 * active_ + (WINDOW - 1) <= slots_)
        grow();
    else
        collect_garbage();
}

// Doubles the part in use (plus a window) and moves every entry to its window in the larger
// part. With at least twice the buckets, an entry of window w moves to a window at or above
// 2w, which for w >= WINDOW lies beyond its old slot (at most w + WINDOW - 1): walking the old
// slots downwards, every slot a move writes to has been walked already. The entries of the
// first 2 * WINDOW slots (all windows below WINDOW) are set aside first.
void TranspositionTable::grow() noexcept {
    std::size_t old_active = active_, next = 2 * active_ + (WINDOW - 1);
    std::memset(tags_.get() + old_active, 0, (next - old_active) * sizeof(std::uint16_t));
    constexpr std::size_t LOW = 2 * WINDOW;
    Entry low[LOW];
    std::size_t nlow = 0;
    for (std::size_t i = 0; i < LOW; ++i) {
        if (tags_[i]) {
            low[nlow++] = entries_[i];
            drop(i);
        }
    }
    set_active(next);
    for (std::size_t i = old_active; i-- > LOW;) {
        if (!tags_[i])
            continue;
        Entry e = entries_[i];
        drop(i);
        put(slot_for(window(e.board)), e);
    }
    for (std::size_t k = 0; k < nlow; ++k)
        put(slot_for(window(low[k].board)), low[k]);
}

std::uint32_t TranspositionTable::matches(std::size_t w, std::uint16_t tag) const noexcept {
    static_assert(WINDOW == 16);
#ifdef __SSE2__
    // The 32 bytes of tags compared at once (SSE2 is part of x86-64).
    __m128i t = _mm_set1_epi16(std::int16_t(tag));
    __m128i a = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&tags_[w])), t);
    __m128i b = _mm_cmpeq_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&tags_[w + 8])), t);
    return std::uint32_t(_mm_movemask_epi8(_mm_packs_epi16(a, b)));
#else
    std::uint32_t m = 0;
    for (std::size_t k = 0; k < WINDOW; ++k)
        m |= std::uint32_t(tags_[w + k] == tag) << k;
    return m;
#endif
}

NodeResult TranspositionTable::look_up(Key board, Hand hand, int len, int depth, Key path_key, PnDn init_pn,
                                       PnDn init_dn, bool& old) noexcept {
    std::size_t w = window(board);
    std::uint16_t tag = tag_of(board);
    Entry* exact = nullptr;
    for (std::uint32_t m = matches(w, tag); m; m &= m - 1) {
        Entry& e = entries_[w + std::size_t(__builtin_ctz(m))];
        if (e.board != board)
            continue;
        Hand eh(e.hand);
        if (e.kind == PROVEN) {
            if (e.len <= len && hand.dominates(eh))
                return NodeResult::make_proven(eh, e.len, e.amount);
        } else if (e.kind == DISPROVEN) {
            if (e.len >= len && eh.dominates(hand))
                return NodeResult::make_disproven(eh, e.len, e.amount);
        } else if (eh == hand && e.len == len) {
            exact = &e;
        }
    }
    if (!exact) {
        NodeResult r = NodeResult::make_unknown(init_pn, init_dn, hand, len, 1);
        r.first_visit = true;
        return r;
    }
    int rep = NO_REP;
    if (exact->may_repeat && repetition(path_key, len, rep))
        return NodeResult::make_disproven(hand, len, 1, rep);
    old = old || exact->min_depth < depth;
    exact->min_depth = std::uint16_t(std::min<int>(exact->min_depth, depth));
    return NodeResult::make_unknown(std::max<PnDn>(exact->pn, 1), std::max<PnDn>(exact->dn, 1), hand, len,
                                    exact->amount);
}

bool TranspositionTable::repetition(Key path_key, int len, int& rep_depth) const {
    for (const auto& m : reps_) {
        if (auto it = m.find(path_key); it != m.end() && it->second.len >= len) {
            rep_depth = it->second.rep_depth;
            return true;
        }
    }
    return false;
}

std::size_t TranspositionTable::slot_for(std::size_t w) noexcept {
    if (std::uint32_t free = matches(w, 0))
        return w + std::size_t(__builtin_ctz(free));
    std::size_t victim = w;
    for (std::size_t i = w + 1; i < w + WINDOW; ++i) {
        if (entries_[i].amount < entries_[victim].amount)
            victim = i;
    }
    return victim;
}

void TranspositionTable::put(std::size_t i, const Entry& e) noexcept {
    if (!tags_[i])
        ++used_;
    tags_[i] = tag_of(e.board);
    entries_[i] = e;
}

void TranspositionTable::drop(std::size_t i) noexcept {
    tags_[i] = 0;
    --used_;
}

// A new proof makes entries it answers redundant (and a disproof likewise).
void TranspositionTable::remove_superseded(std::size_t w, Key board, const NodeResult& r) noexcept {
    for (std::uint32_t m = matches(w, tag_of(board)); m; m &= m - 1) {
        std::size_t i = w + std::size_t(__builtin_ctz(m));
        const Entry& e = entries_[i];
        if (e.board != board)
            continue;
        Hand eh(e.hand);
        bool gone = r.proven() ? (e.kind != DISPROVEN && e.len >= r.len && eh.dominates(r.hand))
                               : (e.kind != PROVEN && e.len <= r.len && r.hand.dominates(eh));
        if (gone)
            drop(i);
    }
}

void TranspositionTable::store(Key board, Hand hand, int depth, Key path_key, const NodeResult& r) {
    std::size_t w = window(board);
    if (r.disproven() && r.rep_depth < depth) {
        store_repetition(w, board, hand, r.len, path_key, r.rep_depth);
        return;
    }
    if (r.final()) {
        remove_superseded(w, board, r);
        put(slot_for(w), Entry{board, r.hand.raw(), to32(r.pn), to32(r.dn), r.amount, std::int16_t(r.len),
                               std::uint16_t(depth), r.proven() ? PROVEN : DISPROVEN, 0});
        return;
    }
    for (std::uint32_t m = matches(w, tag_of(board)); m; m &= m - 1) {
        Entry& e = entries_[w + std::size_t(__builtin_ctz(m))];
        if (e.kind == UNKNOWN && e.board == board && e.hand == hand.raw() && e.len == r.len) {
            e.pn = to32(r.pn);
            e.dn = to32(r.dn);
            e.amount = std::max(e.amount, r.amount);
            e.min_depth = std::uint16_t(std::min<int>(e.min_depth, depth));
            return;
        }
    }
    put(slot_for(w), Entry{board, hand.raw(), to32(r.pn), to32(r.dn), r.amount, std::int16_t(r.len),
                           std::uint16_t(depth), UNKNOWN, 0});
}

void TranspositionTable::store_repetition(std::size_t w, Key board, Hand hand, int len, Key path_key, int rep) {
    // One mark per path: the one of the longest length (it answers the shorter ones too).
    // The mark must keep its length: the searches for the first mate alternate between
    // unlimited and length-limited searches of the same root, and a repetition disproof of a
    // limited search (no mate within len) read as one of the unlimited search once made
    // Shin Togenkyo, a 1205-ply mate, come out `nomate`.
    auto& young = reps_[rep_young_];
    RepMark mark{std::int16_t(rep), std::int16_t(len)};
    for (const auto& m : reps_)
        if (auto it = m.find(path_key); it != m.end() && it->second.len > len)
            mark = it->second;
    young[path_key] = mark;
    if (young.size() >= rep_capacity_ / 2) {
        rep_young_ ^= 1;
        reps_[rep_young_].clear();
    }
    // Other paths must search the node again; this one finds the mark and then the path.
    for (std::uint32_t m = matches(w, tag_of(board)); m; m &= m - 1) {
        Entry& e = entries_[w + std::size_t(__builtin_ctz(m))];
        if (e.kind == UNKNOWN && e.board == board && e.hand == hand.raw() && e.len == len) {
            e.may_repeat = 1;
            e.pn = std::min<std::uint32_t>(e.pn, 1);
            e.dn = std::min<std::uint32_t>(e.dn, 1);
            return;
        }
    }
    put(slot_for(w), Entry{board, hand.raw(), 1, 1, 1, std::int16_t(len), std::uint16_t(MAX_PLY), UNKNOWN, 1});
}

void TranspositionTable::collect_garbage() noexcept {
    // The median amount of a sample of used entries; entries at or below it are dropped.
    std::vector<std::uint32_t> sample;
    sample.reserve(4096);
    std::size_t step = std::max<std::size_t>(active_ / 16384, 1);
    for (std::size_t i = 0; i < active_ && sample.size() < 4096; i += step)
        if (tags_[i])
            sample.push_back(entries_[i].amount);
    if (sample.empty())
        return;
    auto mid = sample.begin() + std::ptrdiff_t(sample.size() / 2);
    std::nth_element(sample.begin(), mid, sample.end());
    std::uint32_t cut = *mid;
    for (std::size_t i = 0; i < active_; ++i) {
        if (!tags_[i])
            continue;
        if (entries_[i].amount <= cut)
            drop(i);
        else
            entries_[i].amount = std::max<std::uint32_t>(entries_[i].amount / 2, 1);  // age the survivors
    }
}

}  // namespace hisha::tsume
