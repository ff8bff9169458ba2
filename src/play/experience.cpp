// The experience file: reading, writing, learning and seeding the transposition table.
#include "experience.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/movegen.h"
#include "engine/value.h"

namespace hisha::play {

using namespace hisha::core;
using core::unexpected;

namespace {

constexpr char MAGIC[8] = {'H', 'I', 'S', 'H', 'A', 'E', 'X', 'P'};
constexpr std::uint32_t VERSION = 1;

template <typename T>
void put(std::string& out, T v) {
    for (std::size_t i = 0; i < sizeof(T); ++i)
        out += char((std::uint64_t(v) >> (8 * i)) & 0xff);
}

template <typename T>
T get(const unsigned char*& p) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i)
        v |= std::uint64_t(p[i]) << (8 * i);
    p += sizeof(T);
    return T(v);
}

void seed_one(engine::TranspositionTable& tt, Key key, const Experience::Entry& e) {
    engine::TTData data;
    engine::TranspositionTable::Entry* slot = nullptr;
    bool hit = tt.probe(key, data, slot);
    if (hit && data.depth >= e.depth)
        return;
    tt.store(slot, key, e.score, false, engine::BOUND_EXACT, e.depth, e.move, engine::VALUE_NONE);
}

}  // namespace

std::string Experience::default_path() {
    if (const char* p = std::getenv("HISHA_HASHFILE"); p && *p)
        return p;
    const char* home = std::getenv("HOME");
    return std::string(home && *home ? home : ".") + "/.hisha/hisha.hsh";
}

core::Result<void, std::string> Experience::create(const std::string& path, int size_log2) {
    if (size_log2 < 1 || size_log2 > 26)
        return unexpected("hashfile size " + std::to_string(size_log2) + " is outside 1..26 (2^size entries)");
    table_.clear();
    path_ = path;
    capacity_log2_ = size_log2;
    open_ = true;
    dirty_ = true;
    std::error_code ec;
    std::filesystem::path parent = std::filesystem::path(path).parent_path();
    if (!parent.empty())
        std::filesystem::create_directories(parent, ec);
    return save();
}

core::Result<void, std::string> Experience::open(const std::string& path) {
    path_ = path;
    open_ = false;
    table_.clear();
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return {};
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < 24 || std::memcmp(bytes.data(), MAGIC, 8) != 0)
        return unexpected(path + ": not a Hisha experience file");
    const unsigned char* p = reinterpret_cast<const unsigned char*>(bytes.data()) + 8;
    std::uint32_t version = get<std::uint32_t>(p);
    std::uint32_t log2 = get<std::uint32_t>(p);
    std::uint64_t count = get<std::uint64_t>(p);
    if (version != VERSION || log2 < 1 || log2 > 26 || bytes.size() != 24 + count * 16)
        return unexpected(path + ": damaged experience file");
    capacity_log2_ = int(log2);
    for (std::uint64_t i = 0; i < count; ++i) {
        Key key = get<std::uint64_t>(p);
        Entry e;
        e.move = Move16(get<std::uint16_t>(p));
        e.score = get<std::int16_t>(p);
        e.depth = get<std::uint8_t>(p);
        get<std::uint8_t>(p);
        e.seen = get<std::uint16_t>(p);
        table_[key] = e;
    }
    open_ = true;
    dirty_ = false;
    return {};
}

core::Result<void, std::string> Experience::save() const {
    if (!open_ || path_.empty())
        return {};
    std::string out(MAGIC, 8);
    put<std::uint32_t>(out, VERSION);
    put<std::uint32_t>(out, std::uint32_t(capacity_log2_));
    put<std::uint64_t>(out, table_.size());
    // Sorted by key so that the file does not depend on the hash map's order.
    std::map<Key, Entry> sorted(table_.begin(), table_.end());
    for (const auto& [key, e] : sorted) {
        put<std::uint64_t>(out, key);
        put<std::uint16_t>(out, e.move.raw());
        put<std::uint16_t>(out, std::uint16_t(e.score));
        put<std::uint8_t>(out, e.depth);
        put<std::uint8_t>(out, 0);
        put<std::uint16_t>(out, e.seen);
    }
    std::string tmp = path_ + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f || !f.write(out.data(), std::streamsize(out.size())))
            return unexpected("cannot write " + tmp);
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path_, ec);
    if (ec)
        return unexpected("cannot replace " + path_ + ": " + ec.message());
    return {};
}

void Experience::evict_one() {
    // The shallowest, least often seen entry makes room.
    auto victim = std::min_element(table_.begin(), table_.end(), [](const auto& a, const auto& b) {
        return std::pair(a.second.depth, a.second.seen) < std::pair(b.second.depth, b.second.seen);
    });
    if (victim != table_.end())
        table_.erase(victim);
}

void Experience::record(const Position& pos, Move best, int score, int depth) {
    if (!open_ || !best.is_ok() || depth <= 0)
        return;
    auto it = table_.find(pos.key());
    if (it == table_.end()) {
        if (table_.size() >= capacity())
            evict_one();
        it = table_.emplace(pos.key(), Entry{}).first;
    } else if (it->second.depth > depth) {
        it->second.seen = std::uint16_t(std::min(0xffff, it->second.seen + 1));
        return;
    }
    Entry& e = it->second;
    e.move = best.to_move16();
    e.score = std::int16_t(std::clamp(score, -engine::VALUE_MATE, engine::VALUE_MATE));
    e.depth = std::uint8_t(std::clamp(depth, 1, 200));
    e.seen = std::uint16_t(std::min(0xffff, e.seen + 1));
    dirty_ = true;
}

std::optional<Experience::Entry> Experience::find(Key key) const {
    auto it = table_.find(key);
    return it == table_.end() ? std::nullopt : std::optional<Entry>(it->second);
}

int Experience::seed(engine::TranspositionTable& tt, const Position& pos, int min_depth) const {
    if (!open_ || table_.empty())
        return 0;
    int seeded = 0;
    auto try_seed = [&](const Position& p) {
        if (auto e = find(p.key()); e && e->depth >= min_depth && p.to_move(e->move)) {
            seed_one(tt, p.key(), *e);
            ++seeded;
        }
    };
    auto p = pos.clone();
    try_seed(*p);
    for (const auto& m1 : MoveList<LEGAL>(*p)) {
        StateInfo st1;
        p->do_move(m1.move, st1);
        try_seed(*p);
        for (const auto& m2 : MoveList<LEGAL>(*p)) {
            StateInfo st2;
            p->do_move(m2.move, st2);
            try_seed(*p);
            p->undo_move(m2.move);
        }
        p->undo_move(m1.move);
    }
    return seeded;
}

std::string Experience::statistics() const {
    std::ostringstream s;
    s << "Experience file: " << (path_.empty() ? std::string("(none)") : path_) << (open_ ? "" : " (not in use)")
      << "\n";
    s << "Entries: " << table_.size() << " of " << capacity() << " (2^" << capacity_log2_ << ")\n";
    std::map<int, int> by_depth;
    for (const auto& [key, e] : table_)
        ++by_depth[e.depth];
    for (const auto& [d, n] : by_depth)
        s << "  depth " << d << ": " << n << "\n";
    return s.str();
}

}  // namespace hisha::play
