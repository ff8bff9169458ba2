// Tsume puzzles on the server (puzzles.h).
#include "server/service/puzzles.h"

#include <algorithm>
#include <cmath>
#include <fstream>

#include "server/service/glicko.h"
#include "server/service/service.h"

namespace hisha::server::service {

namespace {

Rating to_glicko(const store::PuzzleRating& r) { return Rating{r.rating, r.deviation, r.volatility}; }

store::PuzzleRating from_glicko(const Rating& r, int plays) {
    return store::PuzzleRating{r.rating, r.deviation, r.volatility, plays};
}

}  // namespace

store::PuzzleRating Puzzles::first_rating(const puzzle::Puzzle& p) {
    store::PuzzleRating r;
    r.rating = 1100.0 + 100.0 * p.length;
    return r;
}

std::optional<std::vector<puzzle::Puzzle>> Puzzles::read(const std::string& path, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot read " + path;
        return std::nullopt;
    }
    std::vector<puzzle::Puzzle> out;
    std::set<std::string> ids;
    int n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line[0] == '#')
            continue;
        std::string why;
        auto p = puzzle::from_line(line, why);
        if (!p || !ids.insert(p->id).second) {
            error = path + ":" + std::to_string(n) + ": " + (p ? "the id " + p->id + " again" : why);
            return std::nullopt;
        }
        out.push_back(std::move(*p));
    }
    return out;
}

Puzzles::Puzzles(store::Store& store, std::vector<puzzle::Puzzle> set) : store_(store), set_(std::move(set)) {
    for (std::size_t i = 0; i < set_.size(); ++i) {
        index_[set_[i].id] = i;
        ratings_[set_[i].id] = first_rating(set_[i]);
    }
    for (auto& [id, r] : store_.puzzle_ratings())
        if (index_.count(id))
            ratings_[id] = r;
}

const puzzle::Puzzle* Puzzles::find(const std::string& id) const {
    auto it = index_.find(id);
    return it == index_.end() ? nullptr : &set_[it->second];
}

store::PuzzleRating Puzzles::rating(const std::string& id) const {
    std::lock_guard lock(mu_);
    return rating_of(id);
}

store::PuzzleRating Puzzles::rating_of(const std::string& id) const {
    auto it = ratings_.find(id);
    return it == ratings_.end() ? store::PuzzleRating{} : it->second;
}

store::PuzzleRating Puzzles::player(const std::string& player_key) {
    return store_.puzzle_player(player_key).value_or(store::PuzzleRating{});
}

bool Puzzles::done(const std::string& player_key, const std::string& id) {
    auto d = store_.puzzles_done(player_key);
    return std::find(d.begin(), d.end(), id) != d.end();
}

const puzzle::Puzzle* Puzzles::next(const std::string& player_key, bool guest) {
    std::lock_guard lock(mu_);
    std::vector<std::string> done_list = guest ? std::vector<std::string>() : store_.puzzles_done(player_key);
    std::set<std::string> done(done_list.begin(), done_list.end());
    if (auto it = guests_done_.find(player_key); guest && it != guests_done_.end())
        done = it->second;
    const double mine = guest ? store::PuzzleRating{}.rating : player(player_key).rating;
    const puzzle::Puzzle* best = nullptr;
    double best_gap = 0;
    for (const puzzle::Puzzle& p : set_) {
        if (done.count(p.id))
            continue;
        double gap = std::abs(rating_of(p.id).rating - mine);
        if (!best || gap < best_gap)
            best = &p, best_gap = gap;
    }
    return best;
}

Puzzles::Outcome Puzzles::rate(const std::string& player_key, bool guest, const puzzle::Puzzle& p, bool solved,
                               std::int64_t now) {
    Outcome o;
    o.before = o.after = guest ? store::PuzzleRating{} : player(player_key);
    if (guest) {
        if (guests_done_.size() >= 10000)
            guests_done_.clear();
        guests_done_[player_key].insert(p.id);
        return o;
    }
    if (done(player_key, p.id))
        return o;
    const store::PuzzleRating mine = o.before, its = rating_of(p.id);
    const double score = solved ? 1.0 : 0.0;
    store::PuzzleResult r;
    r.player_key = player_key;
    r.puzzle_id = p.id;
    r.solved = solved;
    r.at = now;
    r.player = from_glicko(glicko2_update(to_glicko(mine), to_glicko(its), score), mine.plays + 1);
    r.puzzle = from_glicko(glicko2_update(to_glicko(its), to_glicko(mine), 1.0 - score), its.plays + 1);
    o.stored = store_.save_puzzle_result(r);
    if (!o.stored)
        return o;
    o.rated = true;
    o.after = r.player;
    ratings_[p.id] = r.puzzle;
    return o;
}

Puzzles::Outcome Puzzles::attempt(const std::string& player_key, bool guest, const puzzle::Puzzle& p,
                                  const std::vector<std::string>& moves, std::int64_t now) {
    puzzle::Judgement j;
    {
        std::lock_guard lock(mu_);
        j = puzzle::judge(p, moves, solver_, budget_);
    }
    return record(player_key, guest, p, std::move(j), now);
}

Puzzles::Outcome Puzzles::record(const std::string& player_key, bool guest, const puzzle::Puzzle& p,
                                 puzzle::Judgement j, std::int64_t now) {
    std::lock_guard lock(mu_);
    Outcome o;
    if (j.kind == puzzle::Judgement::Correct || j.kind == puzzle::Judgement::Wrong)
        o = rate(player_key, guest, p, j.kind == puzzle::Judgement::Correct, now);
    else
        o.before = o.after = guest ? store::PuzzleRating{} : player(player_key);
    o.judgement = std::move(j);
    return o;
}

std::string Puzzles::hint(const puzzle::Puzzle& p, const std::vector<std::string>& moves, std::string& error) {
    std::lock_guard lock(mu_);
    return puzzle::hint_move(p, moves, solver_, budget_, error);
}

Puzzles::Outcome Puzzles::gave_up(const std::string& player_key, bool guest, const puzzle::Puzzle& p,
                                  std::int64_t now) {
    std::lock_guard lock(mu_);
    return rate(player_key, guest, p, false, now);
}

bool Service::load_puzzles(const std::string& path, std::string& error) {
    auto set = Puzzles::read(path, error);
    if (!set)
        return false;
    if (!store_.prepare_puzzles()) {
        error = "storage error: " + store_.last_error();
        return false;
    }
    puzzles_ = std::make_shared<Puzzles>(store_, std::move(*set));
    return true;
}

}  // namespace hisha::server::service
