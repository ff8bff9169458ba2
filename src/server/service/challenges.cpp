// Service: 003 challenges (NEW, NEW <num>, REMOVE) and CSA matchmaking (players waiting under
// a game name are paired, offered the game, and start when both agree).
#include <algorithm>
#include <cctype>

#include "core/handicap.h"

#include "server/service/mail.h"
#include "server/service/pattern.h"
#include "server/service/service.h"

namespace hisha::server::service {

namespace {

// The canonical stored form of a challenge's first move (USI or HANDICAP:...), checked in
// the even start position.
Reply<std::string> canonical_first_move(std::string_view text) {
    core::Position start;
    if (text.starts_with("HANDICAP:") || text.starts_with("handicap:") || text.find('@') != std::string_view::npos) {
        std::string t(text);
        if (!t.starts_with("HANDICAP:") && !t.starts_with("handicap:"))
            t = "HANDICAP:" + t;
        t.replace(0, 9, "HANDICAP:");
        return t;  // checked again when the game is created
    }
    auto m = Service::parse_move(start, text);
    if (!m)
        return fail(m.error());
    if (!start.is_legal(*m))
        return fail("illegal first move " + std::string(text));
    return core::to_usi(*m);
}

}  // namespace

Reply<std::int64_t> Service::new_challenge(std::string_view user, std::string_view pattern, int color,
                                           std::string_view first_move, std::string_view comment,
                                           std::optional<TimeControl> tc) {
    if (auto r = refuse_guest(user, "post challenges"); !r)
        return fail(r.error());
    if (auto r = admit_new_game(user); !r)
        return fail(r.error());
    const UserRow* u = this->user(user);
    if (!u)
        return fail("no such user");
    if (pattern.empty() || !pattern_valid(pattern))
        return fail("bad pattern '" + std::string(pattern) + "' (see HELP PATTERNS)");
    // A pattern that names only its author could never be accepted: nobody plays himself.
    if (pattern_is_literal(pattern) && name_key(pattern) == name_key(user))
        return fail("the pattern " + std::string(pattern) + " names only you: nobody else could accept it");
    if (color != 0 && color != 1)
        return fail("bad color");
    if (color == 0 && first_move.empty())
        return fail("as Black you must give your first move (NEW <pattern> <move>)");
    auto own = std::count_if(challenges_.begin(), challenges_.end(),
                             [&](const ChallengeRow& c) { return name_key(c.challenger) == name_key(user); });
    if (own >= 20)
        return fail("you have 20 open challenges already");
    ChallengeRow c;
    c.challenger = u->name;
    c.pattern = std::string(pattern);
    c.challenger_color = color;
    if (!first_move.empty()) {
        auto fm = canonical_first_move(first_move);
        if (!fm)
            return fail(fm.error());
        c.first_move = *fm;
        if (c.first_move.starts_with("HANDICAP:")) {
            // Validate the removal now so that accepting cannot fail.
            GameRow probe;
            probe.start_sfen = std::string(core::START_SFEN);
            probe.moves.push_back({0, c.first_move, 0, 0, true, false, {}});
            LiveGame g;
            g.row = probe;
            if (auto r = rebuild(g); !r)
                return fail("bad handicap: " + c.first_move);
        }
    }
    c.comment = std::string(comment.substr(0, 200));
    c.tc = tc ? *tc : TimeControl{};
    if (!tc)
        c.tc.days_per_move = config_.default_days_per_move;
    c.created = env_.now();
    if (!store_.insert_challenge(c))
        return fail("storage error: " + store_.last_error());
    challenges_.push_back(c);
    if (store_.shared())
        store_.publish("K");  // the other servers reread the challenges
    if (mail_)
        mail_->challenged(c);
    if (const UserRow* target = this->user(c.pattern);
        target && !target->bot.empty() && pattern_is_literal(c.pattern)) {
        Event e;  // a bot hears of a challenge that names it
        e.kind = EventKind::Notice;
        e.text = "challenge " + std::to_string(c.id);
        emit_to(name_key(target->name), e);
        flush();
    }
    return c.id;
}

std::vector<const ChallengeRow*> Service::challenges_for(std::string_view user) const {
    std::vector<const ChallengeRow*> out;
    for (auto& c : challenges_)
        if (name_key(c.challenger) == name_key(user) || pattern_matches(c.pattern, user))
            out.push_back(&c);
    return out;
}

Reply<std::int64_t> Service::accept_challenge(std::string_view user, std::int64_t id) {
    if (auto r = refuse_guest(user, "accept challenges"); !r)
        return fail(r.error());
    if (auto r = admit_new_game(user); !r)
        return fail(r.error());
    auto find = [&] {
        return std::find_if(challenges_.begin(), challenges_.end(), [&](const ChallengeRow& c) { return c.id == id; });
    };
    auto it = find();
    if (it == challenges_.end() && store_.shared()) {  // posted on another server a moment ago?
        reload_challenges();
        it = find();
    }
    if (it == challenges_.end())
        return fail("no challenge number " + std::to_string(id));
    const UserRow* u = this->user(user);
    if (!u)
        return fail("no such user");
    if (name_key(it->challenger) == name_key(user))
        return fail("that is your own challenge (REMOVE it instead)");
    if (!pattern_matches(it->pattern, u->name))
        return fail("challenge " + std::to_string(id) + " is not open to you");
    if (!this->user(it->challenger))
        return fail("the challenger no longer exists");
    GameRow row;
    bool challenger_black = it->challenger_color == 0;
    row.black = challenger_black ? it->challenger : u->name;
    row.white = challenger_black ? u->name : it->challenger;
    row.start_sfen = std::string(core::START_SFEN);
    row.tc = it->tc;
    row.origin = "text";
    std::vector<MoveRow> first;
    if (!it->first_move.empty()) {
        first.push_back({0, it->first_move, 0, 0, true, false, {}});
        row.seen[0] = row.seen[1] = 1;  // both know the forced first move
    }
    // Taken from the database first: of two servers accepting it at once, the one whose
    // DELETE removed the row makes the game; the other is told it is gone.
    ChallengeRow c = *it;
    if (!store_.delete_challenge(c.id)) {
        if (!store_.lost_race())
            return fail("storage error: " + store_.last_error());
        reload_challenges();
        return fail("challenge " + std::to_string(id) + " is no longer open (accepted or removed on another server)");
    }
    challenges_.erase(it);
    auto gid = insert_game(std::move(row), std::move(first));
    if (!gid) {
        if (store_.insert_challenge(c))  // still open, under a new number
            challenges_.push_back(c);
        return gid;
    }
    if (store_.shared())
        store_.publish("K");
    LiveGame& g = *games_[*gid];
    arm_timer(g);
    Event e;
    e.kind = EventKind::GameStarted;
    e.from = u->name;
    e.text = u->name + " accepted challenge " + std::to_string(c.id) + ": game " + std::to_string(*gid);
    emit_game(g, e);
    if (store_.shared())  // the challenger may be on another server (published before the game's "G")
        store_.publish("N " + std::to_string(*gid) + " " + u->name + "\n" + e.text);
    flush();
    return gid;
}

Reply<void> Service::remove_challenge(std::string_view user, std::int64_t id) {
    auto it = std::find_if(challenges_.begin(), challenges_.end(), [&](const ChallengeRow& c) { return c.id == id; });
    if (it == challenges_.end())
        return fail("no challenge number " + std::to_string(id));
    if (name_key(it->challenger) != name_key(user))
        return fail("challenge " + std::to_string(id) + " is not yours");
    if (!store_.delete_challenge(id)) {
        if (!store_.lost_race())
            return fail("storage error: " + store_.last_error());
        reload_challenges();
        return fail("challenge " + std::to_string(id) + " is no longer open (accepted on another server)");
    }
    challenges_.erase(it);
    if (store_.shared())
        store_.publish("K");
    return {};
}

// --- CSA matchmaking

Reply<void> Service::csa_wait(std::string_view user, std::string_view game_name, int color) {
    if (auto r = admit_new_game(user); !r)
        return r;
    const UserRow* u = this->user(user);
    if (!u)
        return fail("no such user");
    std::optional<TimeControl> tc = csa_time_control(game_name);
    if (!tc)
        return fail("bad game name " + std::string(game_name) + " (use NAME-TOTAL-BYOYOMI or NAME-TOTAL-INCF)");
    csa_cancel(user);
    Millis now = env_.now();
    if (tournament_of(game_name)) {
        // A tournament's player waits for its next round (on this server only: the round
        // pairs the players waiting here, with their colours chosen by the pairing).
        waiting_.push_back({u->name, std::string(game_name), -1, now});
        return {};
    }
    Waiting other;
    if (store_.shared()) {
        // Servers sharing the database pair through it: the rival may be on any of them.
        std::optional<WaitingRow> rival;
        if (!store_.csa_pair_or_wait({u->name, std::string(game_name), color}, rival))
            return fail("storage error: " + store_.last_error());
        if (!rival) {
            waiting_.push_back({u->name, std::string(game_name), color, now});
            return {};
        }
        other = {rival->name, rival->game_name, rival->color};
        std::erase_if(waiting_, [&](const Waiting& w) { return name_key(w.user) == name_key(other.user); });
    } else {
        auto rival = std::find_if(waiting_.begin(), waiting_.end(), [&](const Waiting& w) {
            return w.game_name == game_name && name_key(w.user) != name_key(user)
                && (w.color < 0 || color < 0 || w.color != color);
        });
        if (rival == waiting_.end()) {
            waiting_.push_back({u->name, std::string(game_name), color, now});
            return {};
        }
        other = *rival;
        waiting_.erase(rival);
    }
    bool other_black = other.color == 0 || (other.color < 0 && color != 0);
    GameRow row;
    row.black = other_black ? other.user : u->name;
    row.white = other_black ? u->name : other.user;
    row.start_sfen = csa_start_sfen(game_name);
    row.tc = *tc;
    row.status = GameStatus::Offered;
    row.origin = "csa";
    row.csa_game_name = std::string(game_name);
    auto gid = insert_game(std::move(row), {});
    if (!gid)
        return fail(gid.error());
    Event e;
    e.kind = EventKind::GameOffered;
    emit_game(*games_[*gid], e);
    flush();
    return {};
}

std::optional<TimeControl> Service::csa_time_control(std::string_view game_name) {
    if (game_name.size() > 64)
        return std::nullopt;
    std::optional<TimeControl> tc;
    for (auto dash = game_name.find('-'); dash != std::string_view::npos && !tc; dash = game_name.find('-', dash + 1))
        tc = parse_time_control(game_name.substr(dash + 1));
    if (tc)
        tc->csa_seconds = true;
    return tc;
}

std::string Service::csa_start_sfen(std::string_view game_name) {
    static constexpr std::pair<std::string_view, core::Handicap> PREFIXES[] = {
        {"hclance_", core::Handicap::Lance},         {"hcbishop_", core::Handicap::Bishop},
        {"hcrooklance_", core::Handicap::RookLance}, {"hcrook_", core::Handicap::Rook},
        {"hc2p_", core::Handicap::TwoPiece},         {"hc4p_", core::Handicap::FourPiece},
        {"hc6p_", core::Handicap::SixPiece},         {"hc8p_", core::Handicap::EightPiece},
        {"hc10p_", core::Handicap::TenPiece},
    };
    for (auto [prefix, h] : PREFIXES) {
        if (!game_name.starts_with(prefix))
            continue;
        // The core's handicap has White giving the pieces and moving first; shogi-server gives
        // them from Black: the board turned round (reversing the board field turns it by 180
        // degrees, a handicap start has no promoted pieces and no hands) with colours swapped.
        std::string_view sfen = core::handicap_info(h).sfen;
        std::string board(sfen.substr(0, sfen.find(' ')));
        std::reverse(board.begin(), board.end());
        for (char& c : board)
            if (std::isalpha(static_cast<unsigned char>(c)))
                c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : char(std::toupper(c));
        return board + " b - 1";
    }
    return std::string(core::START_SFEN);
}

void Service::csa_cancel(std::string_view user) {
    auto n = std::erase_if(waiting_, [&](const Waiting& w) { return name_key(w.user) == name_key(user); });
    if (n > 0 && store_.shared())
        store_.csa_unwait(user);
}

std::vector<std::pair<std::string, std::string>> Service::csa_waiting() const {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& w : waiting_)
        out.emplace_back(w.user, w.game_name);
    return out;
}

Reply<void> Service::agree(std::string_view user, std::int64_t game_id) {
    auto s = seat(user, game_id, Need::Offered);
    if (!s)
        return core::unexpected(s.error());
    auto [g, c] = *s;
    g->agreed[c] = true;
    g->agreed_here[c] = true;
    if (store_.shared())  // the opponent may be on another server
        store_.publish("A " + std::to_string(game_id) + " " + std::to_string(int(c)));
    // With the players on two servers, the one that received Black's AGREE starts the game
    // (it hears of White's from the other, which waits for the start): exactly one does.
    if (!g->agreed[0] || !g->agreed[1] || !g->agreed_here[0])
        return {};
    return start_agreed(*g);
}

Reply<void> Service::start_agreed(LiveGame& g) {
    g.row.status = GameStatus::Active;
    g.row.turn_started = env_.now();
    g.row.remaining[0] = g.row.remaining[1] = g.row.tc.main_ms;
    if (auto r = save(g, int(g.row.moves.size())); !r) {
        g.row.status = GameStatus::Offered;
        return r;
    }
    start_clock_and_announce(g);
    return {};
}

Reply<void> Service::reject(std::string_view user, std::int64_t game_id) {
    auto s = seat(user, game_id, Need::Offered);
    if (!s)
        return core::unexpected(s.error());
    auto [g, c] = *s;
    g->row.status = GameStatus::Aborted;
    g->row.reason = reason_name(core::EndReason::Abort);
    (void)save(*g, int(g->row.moves.size()));
    Event e;
    e.kind = EventKind::GameRejected;
    e.from = g->player(c);
    emit_game(*g, e);
    flush();
    return {};
}

}  // namespace hisha::server::service
