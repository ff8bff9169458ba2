// Scheduled CSA tournaments: the option's syntax, the pairing of a round, and the Service's
// rounds (their timers, the offered games, the log and the counts), the tournaments' lists and
// the public rating list.
#include "server/service/tournament.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <functional>
#include <map>

#include "server/service/log.h"
#include "server/service/pattern.h"
#include "server/service/service.h"

namespace hisha::server::service {

namespace {

constexpr Millis MAX_INTERVAL_MS = 7 * 86'400'000LL;

bool pattern_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c))
        || std::string_view("_-.@*?!<>^").find(c) != std::string_view::npos;
}

// splitmix64: a coin for each pair of a round from one seed.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

bool met_last(const Entrant& a, const Entrant& b) {
    return (!a.last_opponent.empty() && name_key(a.last_opponent) == name_key(b.name))
        || (!b.last_opponent.empty() && name_key(b.last_opponent) == name_key(a.name));
}

// Pairs of indexes into the sorted entrants.
using IndexPair = std::pair<std::size_t, std::size_t>;

// Swaps the pair k, which repeats a last game, with the nearest pair j for which neither new
// pair is a repeat; false when no pair will do.
bool swap_repeat(std::vector<IndexPair>& pairs, std::size_t k, const std::vector<Entrant>& e) {
    auto gap = [&](std::size_t a, std::size_t b) { return std::abs(e[a].rating - e[b].rating); };
    for (std::size_t d = 1; d < pairs.size(); ++d) {
        for (std::size_t j : {k + d, k - d}) {  // k - d wraps below 0 to a huge index: skipped
            if (j >= pairs.size())
                continue;
            auto [a, b] = pairs[k];
            auto [c, x] = pairs[j];
            using Option = std::array<IndexPair, 2>;
            std::array<Option, 2> options = {Option{IndexPair{a, c}, IndexPair{b, x}},
                                             Option{IndexPair{a, x}, IndexPair{b, c}}};
            std::sort(options.begin(), options.end(), [&](const Option& p, const Option& q) {
                return gap(p[0].first, p[0].second) + gap(p[1].first, p[1].second)
                     < gap(q[0].first, q[0].second) + gap(q[1].first, q[1].second);
            });
            for (auto& o : options) {
                if (met_last(e[o[0].first], e[o[0].second]) || met_last(e[o[1].first], e[o[1].second]))
                    continue;
                pairs[k] = o[0];
                pairs[j] = o[1];
                return true;
            }
        }
    }
    return false;
}

}  // namespace

Reply<TournamentSpec> parse_tournament(std::string_view text) {
    auto colon = text.rfind(':');
    if (colon == std::string_view::npos)
        return fail("--tournament needs PATTERN:INTERVAL (e.g. floodgate-600-10F*:30m)");
    std::string_view pattern = text.substr(0, colon), interval = text.substr(colon + 1);
    if (pattern.empty() || pattern.size() > 64 || !std::all_of(pattern.begin(), pattern.end(), pattern_char))
        return fail("--tournament needs a game-name pattern of at most 64 letters, digits, _ - . @ and * ? ! < > ^");
    if (!pattern_valid(pattern))
        return fail("--tournament needs a well-formed pattern: a group (<...>) is not closed (HELP PATTERNS)");
    TournamentSpec spec{std::string(pattern), 0};
    long long minutes = 0;
    auto [end, ec] = std::from_chars(interval.data(), interval.data() + interval.size(), minutes);
    if (ec == std::errc() && end == interval.data() + interval.size() && minutes > 0 && minutes <= 7 * 1440)
        spec.interval_ms = minutes * 60'000;
    else if (auto ms = Service::parse_duration(interval))
        spec.interval_ms = *ms;
    if (spec.interval_ms < 1000 || spec.interval_ms > MAX_INTERVAL_MS)
        return fail("--tournament needs an interval of 1s to 7d after the colon: 30 (minutes), 30m, 45s, 2h");
    return spec;
}

Millis next_round_at(Millis now, Millis interval_ms) { return (now / interval_ms + 1) * interval_ms; }

RoundPlan pair_round(std::vector<Entrant> entrants, std::uint64_t seed) {
    RoundPlan plan;
    if (entrants.size() % 2 == 1) {  // the last to come waits for the next round
        auto last = std::max_element(entrants.begin(), entrants.end(), [](const Entrant& a, const Entrant& b) {
            return a.since != b.since ? a.since < b.since : name_key(a.name) < name_key(b.name);
        });
        plan.waiting.push_back(last->name);
        entrants.erase(last);
    }
    std::sort(entrants.begin(), entrants.end(), [](const Entrant& a, const Entrant& b) {
        return a.rating != b.rating ? a.rating > b.rating : name_key(a.name) < name_key(b.name);
    });
    std::vector<IndexPair> pairs;
    for (std::size_t i = 0; i + 1 < entrants.size(); i += 2)
        pairs.emplace_back(i, i + 1);
    for (std::size_t k = 0; k < pairs.size(); ++k)
        if (met_last(entrants[pairs[k].first], entrants[pairs[k].second]))
            (void)swap_repeat(pairs, k, entrants);
    std::sort(pairs.begin(), pairs.end(), [](const IndexPair& p, const IndexPair& q) {
        return std::min(p.first, p.second) < std::min(q.first, q.second);
    });
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const Entrant& a = entrants[pairs[k].first];
        const Entrant& b = entrants[pairs[k].second];
        int balance_a = a.black_games - a.white_games, balance_b = b.black_games - b.white_games;
        bool a_black = balance_a != balance_b ? balance_a < balance_b : (mix(seed + k) & 1) == 0;
        plan.pairs.push_back(a_black ? Pairing{a.name, b.name} : Pairing{b.name, a.name});
    }
    return plan;
}

// --- the service's rounds

namespace {

// The timer of tournament i: game timers have positive ids.
std::int64_t timer_id(std::size_t i) { return -1 - std::int64_t(i); }

}  // namespace

void Service::start_tournaments() {
    tournaments_.clear();
    for (const TournamentSpec& spec : config_.tournaments) {
        tournaments_.push_back({spec, 0, 0, 0});
        schedule_round(tournaments_.size() - 1);
    }
}

void Service::schedule_round(std::size_t i) {
    TournamentState& t = tournaments_[i];
    t.next_round = next_round_at(env_.now(), t.spec.interval_ms);
    env_.schedule(timer_id(i), t.next_round);
}

const TournamentSpec* Service::tournament_of(std::string_view game_name) const {
    for (const TournamentState& t : tournaments_)
        if (pattern_matches(t.spec.pattern, game_name))
            return &t.spec;
    return nullptr;
}

void Service::on_tournament_timer(std::int64_t id) {
    std::size_t i = std::size_t(-1 - id);
    if (i >= tournaments_.size())
        return;
    if (env_.now() < tournaments_[i].next_round) {  // fired early
        env_.schedule(id, tournaments_[i].next_round);
        return;
    }
    run_round(i);
    schedule_round(i);
}

Entrant Service::entrant(const Waiting& w, const std::string& pattern) {
    Entrant e;
    e.name = w.user;
    e.since = w.since;
    if (const UserRow* u = user(w.user))
        e.rating = u->rating;
    bool last = true;
    for (const GameRow& g : store_.tournament_games(pattern, w.user, 100)) {
        if (g.status != GameStatus::Finished)
            continue;
        bool black = name_key(g.black) == name_key(w.user);
        if (last)
            e.last_opponent = black ? g.white : g.black;
        last = false;
        ++(black ? e.black_games : e.white_games);
    }
    return e;
}

void Service::run_round(std::size_t i) {
    TournamentState& t = tournaments_[i];
    ++t.rounds;
    // The players waiting under each game name of the pattern, in the order they came.
    std::map<std::string, std::vector<Entrant>> pools;
    std::size_t waiting = 0;
    for (const Waiting& w : waiting_)
        if (tournament_of(w.game_name) == &t.spec) {
            pools[w.game_name].push_back(entrant(w, t.spec.pattern));
            ++waiting;
        }
    std::string made, left;
    int pairs = 0;
    for (auto& [game_name, pool] : pools) {
        RoundPlan plan = pair_round(std::move(pool), std::uint64_t(env_.now()) ^ std::hash<std::string>{}(game_name));
        for (const Pairing& p : plan.pairs) {
            auto gid = offer_tournament_game(p, game_name, t.spec.pattern);
            made += (made.empty() ? "" : " ") + p.black + "-" + p.white;
            if (gid) {
                made += "#" + std::to_string(*gid);
                ++pairs;
            } else {
                made += "(" + gid.error() + ")";
            }
        }
        for (const std::string& name : plan.waiting)
            left += (left.empty() ? "" : " ") + name;
    }
    t.games += std::uint64_t(pairs);
    log_event("tournament_round", {{"tournament", t.spec.pattern},
                                   {"round", std::to_string(t.rounds)},
                                   {"waiting", std::to_string(waiting)},
                                   {"pairs", std::to_string(pairs)},
                                   {"games", made},
                                   {"left_waiting", left}});
}

Reply<std::int64_t> Service::offer_tournament_game(const Pairing& p, const std::string& game_name,
                                                   const std::string& pattern) {
    auto tc = csa_time_control(game_name);
    if (!tc)
        return fail("bad game name");
    std::erase_if(waiting_, [&](const Waiting& w) {
        return name_key(w.user) == name_key(p.black) || name_key(w.user) == name_key(p.white);
    });
    GameRow row;
    row.black = p.black;
    row.white = p.white;
    row.start_sfen = csa_start_sfen(game_name);
    row.tc = *tc;
    row.status = GameStatus::Offered;
    row.origin = "csa";
    row.csa_game_name = game_name;
    row.tournament = pattern;
    auto gid = insert_game(std::move(row), {});
    if (!gid) {  // both wait again for the next round
        Millis now = env_.now();
        waiting_.push_back({p.black, game_name, -1, now});
        waiting_.push_back({p.white, game_name, -1, now});
        return gid;
    }
    Event e;
    e.kind = EventKind::GameOffered;
    emit_game(*games_[*gid], e);
    flush();
    return gid;
}

std::vector<TournamentInfo> Service::tournaments() const {
    std::vector<TournamentInfo> out;
    for (const TournamentState& t : tournaments_) {
        TournamentInfo info{t.spec, t.next_round, t.rounds, t.games, {}};
        for (const Waiting& w : waiting_)
            if (tournament_of(w.game_name) == &t.spec)
                info.waiting.push_back({w.user, w.game_name});
        out.push_back(std::move(info));
    }
    return out;
}

Reply<std::vector<GameRow>> Service::tournament_games(std::string_view pattern, int limit) {
    auto it = std::find_if(tournaments_.begin(), tournaments_.end(),
                           [&](const TournamentState& t) { return t.spec.pattern == pattern; });
    if (it == tournaments_.end())
        return fail("no tournament " + std::string(pattern));
    return store_.tournament_games(pattern, {}, std::clamp(limit, 1, 1000));
}

std::vector<const UserRow*> Service::rating_list() const {
    std::vector<const UserRow*> out;
    for (auto& [key, u] : users_)
        if (u.wins + u.losses + u.draws > 0)
            out.push_back(&u);
    std::sort(out.begin(), out.end(), [](const UserRow* a, const UserRow* b) {
        return a->rating != b->rating ? a->rating > b->rating : name_key(a->name) < name_key(b->name);
    });
    return out;
}

}  // namespace hisha::server::service
