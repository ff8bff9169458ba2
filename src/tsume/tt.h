// The solver's transposition table: entries keyed by the board (incl. side to move) and the
// attacker's hand, found in an overlapping window of slots. A proof answers every hand that
// dominates its proof hand and every longer length; a disproof every dominated hand and every
// shorter length. Disproofs that rest on a repetition of the current path live apart, keyed
// by the path. Memory is fixed at creation; the least-worked entries make room.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "core/hand.h"
#include "core/types.h"
#include "types.h"

namespace hisha::tsume {

class TranspositionTable {
public:
    /// A table of `megabytes` (at least 1); the repetition table takes a small part of it.
    explicit TranspositionTable(std::size_t megabytes);

    // --- queries
    /// What is known of (board, hand) for "mate within len"; `init_pn/dn` seed an unknown
    /// node. Sets first_visit when nothing was stored and `old` when the entry was last
    /// reached from a shallower depth (a possible cycle: the search extends thresholds). A
    /// node marked as repeating on some path is a disproof when `path_key` is that path.
    NodeResult look_up(core::Key board, core::Hand hand, int len, int depth, core::Key path_key, PnDn init_pn,
                       PnDn init_dn, bool& old) noexcept;
    /// Starts loading the window of `board` into the cache (children are looked up in a row):
    /// its tags and its first four entries (an entry goes to the first free slot of its window,
    /// so most are found there).
    void prefetch(core::Key board) const noexcept {
        std::size_t w = window(board);
        __builtin_prefetch(&tags_[w]);
        __builtin_prefetch(&entries_[w]);
        __builtin_prefetch(&entries_[w + 2]);
    }
    /// A disproof of the exact path (a repetition) for "mate within len", if one was recorded
    /// for len or a longer length: its rep_depth. A mark says "no mate within the length it
    /// was found for": a mark of a length-limited search says nothing of longer lengths.
    bool repetition(core::Key path_key, int len, int& rep_depth) const;

    // --- updates
    /// Stores the result of a search of (board, hand) at `depth`. A disproof that depends on
    /// the path above the node goes to the repetition table under `path_key`.
    void store(core::Key board, core::Hand hand, int depth, core::Key path_key, const NodeResult& r);
    /// Forgets everything (cheaply: entries of older generations count as empty).
    void new_search();

    // --- memory
    /// The table starts small inside its allocation (a short search touches little memory)
    /// and doubles when it fills; once it has all of it, the least-worked half is dropped.
    void make_room() noexcept;
    bool needs_room() const noexcept { return used_ > gc_threshold_; }
    /// Frees about half of the entries, the least-worked first.
    void collect_garbage() noexcept;
    /// Used entries per mille of the part in use.
    int hashfull() const noexcept { return int(used_ * 1000 / active_); }
    std::size_t bytes() const noexcept { return slots_ * (sizeof(Entry) + sizeof(std::uint16_t)); }
    /// The bytes of the part in use so far.
    std::size_t active_bytes() const noexcept { return active_ * (sizeof(Entry) + sizeof(std::uint16_t)); }

private:
    enum Kind : std::uint8_t { UNKNOWN, PROVEN, DISPROVEN };
    struct Entry {
        core::Key board;
        std::uint32_t hand;
        std::uint32_t pn;
        std::uint32_t dn;
        std::uint32_t amount;
        std::int16_t len;
        std::uint16_t min_depth;
        Kind kind;
        std::uint8_t may_repeat;
    };
    static_assert(sizeof(Entry) == 32);
    static constexpr std::size_t WINDOW = 16;

    // The high bits pick the window (the low bit of a board key is the side to move).
    std::size_t window(core::Key board) const noexcept { return std::size_t(((board >> 32) * buckets_) >> 32); }
    // A used slot's tag is 16 bits of its board key (never 0); a look-up reads the 32 bytes
    // of tags of its window and touches only the entries whose tag matches.
    static std::uint16_t tag_of(core::Key board) noexcept { return std::uint16_t((board >> 16) | 1); }
    /// Bit k set: slot w + k holds the tag (its entry may be one of the board's).
    std::uint32_t matches(std::size_t w, std::uint16_t tag) const noexcept;
    std::size_t slot_for(std::size_t w) noexcept;
    void put(std::size_t i, const Entry& e) noexcept;
    void drop(std::size_t i) noexcept;
    void remove_superseded(std::size_t w, core::Key board, const NodeResult& r) noexcept;
    void set_active(std::size_t active) noexcept;
    void grow() noexcept;
    void store_repetition(std::size_t w, core::Key board, core::Hand hand, int len, core::Key path_key, int rep);

    // Entries are left uninitialised (a slot is read only when its tag says it is used), so a
    // large table costs no time until it fills. WINDOW - 1 spare slots: windows never wrap.
    struct Free {
        void operator()(void* p) const noexcept;
    };
    std::unique_ptr<Entry[], Free> entries_;
    std::unique_ptr<std::uint16_t[], Free> tags_;  // 0: free
    std::size_t slots_ = 0;                        // allocated
    std::size_t active_ = 0;                       // in use: windows are spread over the first active_ slots
    std::size_t first_active_ = 0;                 // the size a search starts with
    std::size_t buckets_ = 0;
    std::size_t used_ = 0;
    std::size_t gc_threshold_ = 0;
    // Two generations: when the young one is full the old one is dropped.
    struct RepMark {
        std::int16_t rep_depth;
        std::int16_t len;  // the disproof says: no mate within len plies on this path
    };
    std::unordered_map<core::Key, RepMark> reps_[2];
    std::size_t rep_capacity_ = 0;
    int rep_young_ = 0;
};

}  // namespace hisha::tsume
