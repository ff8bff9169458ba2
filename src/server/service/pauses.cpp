// Vacations and adjournments (issue 20). A vacation stops the clock of each correspondence game
// of its player while it is their turn; an adjournment, agreed by both players, stops both clocks
// of a game (any time control) until both agree to resume. Neither changes a stored turn start:
// the time a turn used is the time since it started less the stored intervals that cover it
// (turn_elapsed), so the clocks read exactly the same after a restart.
#include "server/service/pauses.h"

#include <algorithm>
#include <ctime>

#include "core/numbers.h"
#include "server/service/log.h"
#include "server/service/service.h"
#include "server/service/utc_text.h"

namespace hisha::server::service {

Millis covered(Millis from, Millis to, std::vector<Span> spans) {
    for (Span& s : spans) {
        s.from = std::max(s.from, from);
        s.to = std::min(s.to, to);
    }
    std::erase_if(spans, [](const Span& s) { return s.to <= s.from; });
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.from < b.from; });
    Millis total = 0, reached = from;
    for (const Span& s : spans) {
        Millis start = std::max(s.from, reached);
        if (s.to > start) {
            total += s.to - start;
            reached = s.to;
        }
    }
    return total;
}

int utc_year(Millis t) {
    std::time_t secs = std::time_t(t / 1000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    return tm.tm_year + 1900;
}

Millis vacation_end(const store::VacationRow& v) { return v.ended != 0 ? std::min(v.ended, v.until) : v.until; }

bool vacation_on(const store::VacationRow& v, Millis now) { return v.started <= now && now < vacation_end(v); }

int vacation_days(const store::VacationRow& v, Millis now) {
    Millis used = std::min(now, vacation_end(v)) - v.started;
    return std::max<int>(1, int((used + DAY_MS - 1) / DAY_MS));
}

int vacation_days_used(const std::vector<store::VacationRow>& vs, Millis now) {
    int year = utc_year(now), days = 0;
    for (const auto& v : vs)
        if (utc_year(v.started) == year && v.started <= now)
            days += vacation_days(v, now);
    return days;
}

std::optional<Millis> parse_utc_date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-')
        return std::nullopt;
    auto y = core::to_number<int>(text.substr(0, 4));
    auto m = core::to_number<int>(text.substr(5, 2));
    auto d = core::to_number<int>(text.substr(8, 2));
    if (!y || !m || !d || *y < 1970 || *y > 9999 || *m < 1 || *m > 12 || *d < 1 || *d > 31)
        return std::nullopt;
    std::tm tm{};
    tm.tm_year = *y - 1900;
    tm.tm_mon = *m - 1;
    tm.tm_mday = *d;
    std::time_t t = timegm(&tm);
    std::tm back{};
    gmtime_r(&t, &back);
    if (back.tm_mday != *d)  // 2027-02-30
        return std::nullopt;
    return Millis(t) * 1000;
}

// --- the service's side

Millis Service::turn_elapsed(const LiveGame& g, Millis now) {
    std::vector<Span> spans;
    for (const auto& p : g.pauses)
        spans.push_back({p.started, p.ended != 0 ? p.ended : now});
    if (!g.row.tc.realtime())
        if (auto it = vacations_.find(name_key(g.player(g.to_move()))); it != vacations_.end())
            for (const auto& v : it->second)
                spans.push_back({v.started, vacation_end(v)});
    return now - g.row.turn_started - covered(g.row.turn_started, now, std::move(spans));
}

std::optional<Millis> Service::vacation_until(std::string_view user) {
    auto it = vacations_.find(name_key(user));
    if (it == vacations_.end())
        return std::nullopt;
    Millis now = env_.now();
    for (const auto& v : it->second)
        if (vacation_on(v, now))
            return vacation_end(v);
    return std::nullopt;
}

std::string Service::vacation_note(std::string_view pattern, bool correspondence) {
    const UserRow* u = correspondence && valid_name(pattern) ? user(pattern) : nullptr;
    auto until = u ? vacation_until(u->name) : std::nullopt;
    if (!until)
        return {};
    return u->name + " is on vacation until " + utc_text(*until, "%Y-%m-%d %H:%M UTC") + ": the clock of " + u->name
         + "'s turns stands still until then.";
}

VacationInfo Service::vacation(std::string_view user) {
    VacationInfo info;
    Millis now = env_.now();
    info.allowance = config_.vacation_days;
    if (auto it = vacations_.find(name_key(user)); it != vacations_.end()) {
        info.used = vacation_days_used(it->second, now);
        for (const auto& v : it->second) {
            info.started = v.started;
            info.until = vacation_end(v);
            info.on = vacation_on(v, now);
        }
    }
    info.left = std::max(0, info.allowance - info.used);
    return info;
}

Reply<VacationInfo> Service::start_vacation(std::string_view user, Millis until) {
    if (!this->user(user))
        return fail("no such player: " + std::string(user));
    if (config_.vacation_days <= 0)
        return fail("this server gives no vacation days");
    Millis now = env_.now();
    VacationInfo info = vacation(user);
    if (info.on)
        return fail("you are on vacation already, until " + utc_text(info.until, "%Y-%m-%d %H:%M UTC"));
    if (info.left <= 0)
        return fail("no vacation days left this year (" + std::to_string(info.allowance) + " used)");
    if (until != 0 && until <= now)
        return fail("the end of a vacation must be in the future");
    store::VacationRow v{0, name_key(user), now, now + Millis(info.left) * DAY_MS, 0};
    if (until != 0)
        v.until = std::min(v.until, until);
    if (!store_.save_vacation(v))
        return fail("storage error: " + store_.last_error());
    vacations_[v.player_key].push_back(v);
    log_event("vacation", {{"user", std::string(user)}, {"until", std::to_string(v.until)}});
    rearm_games_of(user);
    return vacation(user);
}

Reply<VacationInfo> Service::end_vacation(std::string_view user) {
    Millis now = env_.now();
    auto it = vacations_.find(name_key(user));
    store::VacationRow* on = nullptr;
    if (it != vacations_.end())
        for (auto& v : it->second)
            if (vacation_on(v, now))
                on = &v;
    if (!on)
        return fail("you are not on vacation");
    store::VacationRow changed = *on;
    changed.ended = now;
    if (!store_.save_vacation(changed))
        return fail("storage error: " + store_.last_error());
    *on = changed;
    log_event("vacation_end", {{"user", std::string(user)}});
    rearm_games_of(user);
    return vacation(user);
}

void Service::rearm_games_of(std::string_view user) {
    for (auto& [id, g] : games_)
        if (g->active() && !g->row.tc.realtime() && g->color_of(user))
            arm_timer(*g);
}

bool Service::reload_vacations(const LiveGame& g) {
    if (!store_.shared() || g.row.tc.realtime())
        return false;
    std::string key = name_key(g.player(g.to_move()));
    std::vector<store::VacationRow> theirs;
    for (auto& v : store_.vacations(g.row.turn_started - 2 * 366 * DAY_MS))
        if (v.player_key == key)
            theirs.push_back(std::move(v));
    vacations_[key] = std::move(theirs);
    return true;
}

void Service::load_pauses(LiveGame& g) {
    g.pauses = store_.pauses(g.row.id);
    g.offer = store_.adjourn_offer(g.row.id);
}

Reply<AgreeStep> Service::adjourn(std::string_view user, std::int64_t game_id) {
    auto s = seat(user, game_id, Need::Player);
    if (!s)
        return core::unexpected(s.error());
    LiveGame& g = *s->game;
    if (!g.active() || g.game.over())
        return fail("game " + std::to_string(game_id) + " is over");
    if (g.adjourned())
        return fail("game " + std::to_string(game_id) + " is adjourned already");
    return agree_step(g, s->color, false);
}

Reply<AgreeStep> Service::resume(std::string_view user, std::int64_t game_id) {
    auto s = seat(user, game_id, Need::Player);
    if (!s)
        return core::unexpected(s.error());
    if (!s->game->adjourned())
        return fail("game " + std::to_string(game_id) + " is not adjourned");
    return agree_step(*s->game, s->color, true);
}

namespace {

// Whether the game's stored offer is open: made for this state and this position.
// The row that removes a game's offer.
store::AdjournOfferRow no_offer(std::int64_t game_id) {
    store::AdjournOfferRow o;
    o.game_id = game_id;
    o.color = -1;
    return o;
}

bool offer_open(const LiveGame& g, bool resume) {
    return g.offer && g.offer->resume == resume && g.offer->ply == int(g.row.moves.size());
}

}  // namespace

Reply<AgreeStep> Service::agree_step(LiveGame& g, core::Color c, bool resume) {
    const std::string what = resume ? "resume" : "adjourn";
    const std::string id = std::to_string(g.row.id);
    const std::string& opponent = g.player(~c);
    Event e;
    e.kind = EventKind::Notice;
    e.from = g.player(c);
    if (offer_open(g, resume) && g.offer->color == int(c))
        return fail("you have offered to " + what + " game " + id + " already: " + opponent + " has to accept");
    if (!offer_open(g, resume)) {
        store::AdjournOfferRow o{g.row.id, int(c), resume, int(g.row.moves.size()), env_.now()};
        if (!store_.save_adjourn_offer(o))
            return fail("storage error: " + store_.last_error());
        g.offer = o;
        std::string cmd = resume ? "RESUME" : "ADJOURN";
        e.text = g.player(c) + " offers to " + what + " game " + id + " (" + cmd + " " + id + " accepts, DECLINE " + id
               + " declines)";
        emit_game(g, e);  // (other servers holding the game reread its adjournments)
        flush();
        return AgreeStep::Offered;
    }
    if (!resume) {
        if (auto r = adjourn_now(g, "agreed"); !r)
            return core::unexpected(r.error());
        return AgreeStep::Done;
    }
    store::PauseRow p = g.pauses.back();
    p.ended = env_.now();
    if (!store_.save_pause(p) || !store_.save_adjourn_offer(no_offer(g.row.id)))
        return fail("storage error: " + store_.last_error());
    g.pauses.back() = p;
    g.offer.reset();
    arm_timer(g);
    log_event("resume", {{"game", id}});
    e.text = "game " + id + " is resumed: the clocks run on as they stood";
    emit_game(g, e);
    flush();
    return AgreeStep::Done;
}

Reply<void> Service::adjourn_now(LiveGame& g, const std::string& why) {
    store::PauseRow p{g.row.id, env_.now(), 0};
    if (!g.pauses.empty() && g.pauses.back().started >= p.started)
        p.started = g.pauses.back().started + 1;  // two adjournments within a millisecond: keys stay apart
    if (!store_.save_pause(p) || !store_.save_adjourn_offer(no_offer(g.row.id)))
        return fail("storage error: " + store_.last_error());
    g.pauses.push_back(p);
    g.offer.reset();
    away_.erase(g.row.id);
    env_.cancel(g.row.id);
    std::string id = std::to_string(g.row.id);
    log_event("adjourn", {{"game", id}, {"why", why}});
    Event e;
    e.kind = EventKind::Notice;
    e.text = "game " + id + " is adjourned" + (why == "agreed" ? "" : " (" + why + ")")
           + ": the clocks stand still until both players RESUME it";
    emit_game(g, e);
    flush();
    return {};
}

Reply<void> Service::decline_offer(std::string_view user, std::int64_t game_id) {
    auto s = seat(user, game_id, Need::Player);
    if (!s)
        return core::unexpected(s.error());
    LiveGame& g = *s->game;
    bool resume = g.adjourned();
    std::string id = std::to_string(game_id);
    if (!g.active() || !offer_open(g, resume))
        return fail("there is no offer to decline in game " + id);
    if (g.offer->color == int(s->color))
        return fail("the offer in game " + id + " is your own: " + g.player(~s->color) + " may accept or decline it");
    if (!store_.save_adjourn_offer(no_offer(game_id)))
        return fail("storage error: " + store_.last_error());
    g.offer.reset();
    Event e;
    e.kind = EventKind::Notice;
    e.from = g.player(s->color);
    e.text = e.from + " declines to " + (resume ? "resume" : "adjourn") + " game " + id;
    emit_game(g, e);
    flush();
    return {};
}

}  // namespace hisha::server::service
