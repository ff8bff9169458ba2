// Service: games. The move list is the truth (row.moves, durable before any reply); the core
// Game is rebuilt from it after an undo or a load. UNDO follows Shoogi Server's rules, clocks
// are judged by the server's own timer, ratings are applied once a result can no longer be
// taken back.
#include <algorithm>

#include "notation/encoding.h"
#include "notation/record.h"
#include "notation/western.h"
#include "server/service/glicko.h"
#include "server/service/log.h"
#include "server/service/mail.h"
#include "server/service/service.h"

namespace hisha::server::service {

using core::BLACK;
using core::WHITE;

namespace {

bool end_caused_by_move(core::EndReason r) {
    switch (r) {
    case core::EndReason::Checkmate:
    case core::EndReason::NoLegalMoves:
    case core::EndReason::Resignation:
    case core::EndReason::Sennichite:
    case core::EndReason::PerpetualCheck:
    case core::EndReason::Declaration:
    case core::EndReason::MoveLimit: return true;
    default: return false;
    }
}

}  // namespace

// --- loading and saving

Reply<void> Service::rebuild(LiveGame& g) {
    core::GameRules rules;
    rules.max_plies = max_moves(g.row);
    g.game = core::Game(rules);
    Replayed r = replay(g.row, g.game);
    g.log = std::move(r.log);
    if (!r.error.empty())
        return fail(r.error);
    if (g.row.status == GameStatus::Active && g.row.id > 0)
        load_pauses(g);  // its adjournments, as stored (by this server or another)
    return {};
}

LiveGame* Service::live(std::int64_t id) {
    if (stale_.contains(id))
        refresh(id);  // another server won a write race: take its state
    auto it = games_.find(id);
    if (it != games_.end()) {
        if (it->second->finished())
            touch_finished(*it->second);
        return it->second.get();
    }
    auto row = store_.load_game(id);
    if (!row)
        return nullptr;
    auto g = std::make_unique<LiveGame>();
    g->row = std::move(*row);
    if (!rebuild(*g))
        return nullptr;
    LiveGame* p = g.get();
    games_[id] = std::move(g);
    if (p->finished())
        touch_finished(*p);  // held until it is the oldest of the finished games kept
    return p;
}

const LiveGame* Service::game(std::int64_t id) { return live(id); }

std::vector<const LiveGame*> Service::active_games() {
    std::vector<const LiveGame*> out;
    for (auto& [id, g] : games_)
        if (g->active())
            out.push_back(g.get());
    listed_.clear();
    if (store_.shared()) {
        // Another server's games are read as they stand, for the list only: this server does
        // not hold them (their moves and ends are that server's to announce).
        for (auto& row : store_.open_games()) {
            if (games_.contains(row.id) || row.status != GameStatus::Active)
                continue;
            auto g = std::make_unique<LiveGame>();
            g->row = std::move(row);
            if (!rebuild(*g))
                continue;
            out.push_back(g.get());
            listed_.push_back(std::move(g));
        }
        std::sort(out.begin(), out.end(), [](const LiveGame* a, const LiveGame* b) { return a->row.id < b->row.id; });
    }
    return out;
}

std::vector<const LiveGame*> Service::games_of(std::string_view user) const {
    std::vector<const LiveGame*> out;
    for (auto& [id, g] : games_)
        if (!g->finished() && g->color_of(user))
            out.push_back(g.get());
    return out;
}

std::vector<const LiveGame*> Service::games_of_everywhere(std::string_view user) {
    adopt_open_games(user);
    return games_of(user);
}

bool Service::commit(bool durable) {
    publish_pending();  // inside the batch: the other servers hear of it when it commits
    return durable ? store_.batch_commit() : store_.batch_write();
}

Reply<void> Service::save(LiveGame& g, int from_ply) {
    g.row.updated = env_.now();
    if (config_.group_commit && !store_.in_batch()) {
        if (!store_.batch_begin())
            return fail("storage error: " + store_.last_error());
        env_.request_commit();
    }
    std::vector<UserRow*> changed;
    finalize_if_seen(g, changed);
    std::vector<UserRow> before;
    for (UserRow* u : changed)
        before.push_back(*u);
    if (!store_.save_game(g.row, from_ply, changed)) {
        for (std::size_t i = 0; i < changed.size(); ++i)
            *changed[i] = before[i];
        if (store_.lost_race()) {
            stale_.insert(g.row.id);
            return fail(store_.last_error() + "; reloading it, try again");
        }
        return fail("storage error: " + store_.last_error());
    }
    ++g.row.version;
    return {};
}

Reply<std::int64_t> Service::insert_game(GameRow row, std::vector<MoveRow> first_moves) {
    row.moves = std::move(first_moves);
    row.created = row.updated = row.turn_started = env_.now();
    if (row.tc.realtime())
        row.remaining[0] = row.remaining[1] = row.tc.main_ms;
    auto g = std::make_unique<LiveGame>();
    g->row = std::move(row);
    if (auto r = rebuild(*g); !r)
        return fail(r.error());
    for (std::size_t i = 0; i < g->row.moves.size(); ++i) {
        g->row.moves[i].ply = int(i);
        g->row.moves[i].at = g->row.created;
    }
    if (!store_.insert_game(g->row))
        return fail("storage error: " + store_.last_error());
    std::int64_t id = g->row.id;
    log_event("game_created", {{"game", std::to_string(id)},
                               {"black", g->row.black},
                               {"white", g->row.white},
                               {"time", g->row.tc.describe()},
                               {"origin", g->row.origin}});
    games_[id] = std::move(g);
    return id;
}

Reply<std::int64_t> Service::create_game(std::string_view black, std::string_view white, const TimeControl& tc,
                                         std::string_view origin, std::string_view handicap_move) {
    const UserRow* b = user(black);
    const UserRow* w = user(white);
    if (!b || !w)
        return fail("no such player");
    if (b == w)
        return fail("a player cannot play against himself");
    if ((is_guest(b->name) && w->bot.empty()) || (is_guest(w->name) && b->bot.empty()))
        return fail("guests play the engine only: create an account to play people");
    GameRow row;
    row.black = b->name;
    row.white = w->name;
    row.start_sfen = std::string(core::START_SFEN);
    row.tc = tc;
    row.origin = std::string(origin);
    std::vector<MoveRow> first;
    if (!handicap_move.empty()) {
        core::Position start;
        auto h = read_handicap(handicap_move, start);
        if (!h)
            return fail(h.error());
        h->forced = true;
        first.push_back(to_row(*h));
    }
    auto id = insert_game(std::move(row), std::move(first));
    if (!id)
        return id;
    start_clock_and_announce(*games_[*id]);
    return id;
}

void Service::start_clock_and_announce(LiveGame& g) {
    arm_timer(g);
    Event e;
    e.kind = EventKind::GameStarted;
    emit_game(g, e);
    flush();
}

// --- moves

Reply<Service::Seat> Service::seat(std::string_view user, std::int64_t game_id, Need need) {
    LiveGame* g = live(game_id);
    if (need == Need::Offered && (!g || g->row.status != GameStatus::Offered))
        return fail("no game offered");
    if (!g)
        return fail("no such game: " + std::to_string(game_id));
    auto c = g->color_of(user);
    if (!c)
        return fail(need == Need::Offered ? "that game is not yours"
                                          : "game " + std::to_string(game_id) + " is not yours");
    if ((need == Need::Active || need == Need::Turn) && (!g->active() || g->game.over()))
        return fail("game " + std::to_string(game_id) + " is over");
    if ((need == Need::Active || need == Need::Turn) && g->adjourned())
        return fail("game " + std::to_string(game_id) + " is adjourned: both players must RESUME it first");
    if (need == Need::Turn && g->to_move() != *c)
        return fail("it is not your turn");
    return Seat{g, *c};
}

Reply<CheckedMove> Service::check_move(std::string_view user, std::int64_t game_id, std::string_view text) {
    auto s = seat(user, game_id, Need::Turn);
    if (!s)
        return core::unexpected(s.error());
    LiveGame* g = s->game;
    CheckedMove out;
    if (is_handicap_text(text)) {
        if (!g->row.moves.empty())
            return fail("a handicap can only be the first move of an even game");
        if (auto h = read_handicap(text, g->game.position()); !h)
            return fail(h.error());
        out.move = core::Move::null();
        return out;
    }
    const core::Position& pos = g->game.position();
    auto m = parse_move(pos, text);
    if (!m)
        return fail(m.error());
    if (auto r = pos.check_move(*m); !r)
        return fail(notation::explain_illegal(pos, *m, r.error()));
    out.move = *m;
    auto spec = notation::parse_western_spec(text);
    out.promotion_open = spec && spec->promotion == notation::MoveSpec::Promotion::Open;
    return out;
}

// --- commands judged again after a lost write race (several servers on one database)

// A command's save fails when another server wrote the game's row after this server read it.
// When that write left the moves as they were (a player marked them seen through another
// server), nothing the player decided on has changed: the command is judged again on the row
// as it now stands instead of telling them to try again. When the moves changed, they are told
// (their command was meant for another position).
template <class R, class Attempt>
R Service::again_after_race(std::int64_t game_id, Attempt attempt) {
    if (!store_.shared())
        return attempt();
    std::size_t n = 0;
    std::string last;
    if (const LiveGame* g = live(game_id)) {
        n = g->row.moves.size();
        if (n)
            last = g->row.moves.back().text;
    }
    R r = attempt();
    if (r || !stale_.contains(game_id))
        return r;
    const LiveGame* g = live(game_id);  // rereads it
    if (!g || g->row.moves.size() != n || (n && g->row.moves.back().text != last))
        return r;
    log_event("race_retried", {{"game", std::to_string(game_id)}});
    return attempt();
}

Reply<Played> Service::play(std::string_view user, std::int64_t game_id, std::string_view text, bool illegal_loses,
                            std::string_view comment) {
    auto received = std::chrono::steady_clock::now();
    if (std::string why = check_comment(comment); !why.empty())
        return fail(why);
    MoveInput in{text, core::Move::none(), comment};
    auto r = again_after_race<Reply<Played>>(game_id, [&] { return play_once(user, game_id, in, illegal_loses); });
    if (r) {
        ++moves_played_;
        env_.move_played(received);
        if (!playing_conditional_)
            play_conditional(game_id);
    }
    return r;
}

Reply<Played> Service::play(std::string_view user, std::int64_t game_id, core::Move move) {
    auto received = std::chrono::steady_clock::now();
    if (!move.is_ok())
        return fail("no move given");
    MoveInput in{{}, move};
    auto r = again_after_race<Reply<Played>>(game_id, [&] { return play_once(user, game_id, in, false); });
    if (r) {
        ++moves_played_;
        env_.move_played(received);
        if (!playing_conditional_)
            play_conditional(game_id);
    }
    return r;
}

std::string Service::check_comment(std::string_view comment) {
    if (comment.size() > MAX_MOVE_COMMENT)
        return "a move's comment is " + std::to_string(comment.size()) + " bytes, more than "
             + std::to_string(MAX_MOVE_COMMENT);
    if (!notation::is_valid_utf8(comment))
        return "a move's comment must be UTF-8";
    for (unsigned char c : comment)
        if (c < 0x20 || c == 0x7f)
            return "a move's comment may not hold control characters";
    return {};
}

std::size_t Service::games_in_progress() const {
    std::size_t n = 0;
    for (auto& [id, g] : games_)
        n += g->active();
    return n;
}

Reply<void> Service::resign(std::string_view user, std::int64_t game_id) {
    return again_after_race<Reply<void>>(game_id, [&] { return resign_once(user, game_id); });
}

Reply<void> Service::declare(std::string_view user, std::int64_t game_id) {
    return again_after_race<Reply<void>>(game_id, [&] { return declare_once(user, game_id); });
}

Reply<void> Service::undo(std::string_view user, std::int64_t game_id, bool opponents) {
    // UNDO is judged on who has seen what, which a player's other connection on another
    // server may have changed without a move: judged on the row as stored.
    if (store_.shared())
        stale_.insert(game_id);
    return again_after_race<Reply<void>>(game_id, [&] { return undo_once(user, game_id, opponents); });
}

Reply<MoveRecord> Service::read_move(LiveGame& g, core::Color side, const MoveInput& in, bool illegal_loses) {
    MoveRecord rec;
    const core::Position& before_pos = g.game.position();
    if (!in.move && is_handicap_text(in.text)) {
        if (!g.row.moves.empty())
            return fail("a handicap can only be the first move of an even game");
        auto h = read_handicap(in.text, before_pos);
        if (!h)
            return fail(h.error());
        rec = std::move(*h);
    } else {
        Reply<core::Move> m = in.move ? Reply<core::Move>(in.move) : parse_move(before_pos, in.text);
        core::Result<void, core::IllegalMove> legal =
            m ? before_pos.check_move(*m) : core::Result<void, core::IllegalMove>{};
        if (!m || !legal) {
            std::string why = !m ? m.error() : notation::explain_illegal(before_pos, *m, legal.error());
            if (illegal_loses) {
                end_game(g, core::winner_of(~side), core::EndReason::IllegalMove, why);
                (void)save(g, int(g.row.moves.size()));
                flush();
            }
            return fail(why);
        }
        rec.move = *m;
        rec.mover = side;
    }
    return rec;
}

Reply<Played> Service::play_once(std::string_view user, std::int64_t game_id, const MoveInput& in, bool illegal_loses) {
    auto s = seat(user, game_id, Need::Turn);
    if (!s)
        return core::unexpected(s.error());
    LiveGame& g = *s->game;
    core::Color side = s->color;

    // Step 1. The clock: a move that arrives after the flag loses on time.
    Millis t = env_.now();
    Charge ch = charge_move(g.row.tc, g.row.remaining[side], turn_elapsed(g, t));
    if (ch.flagged && reload_vacations(g))  // a vacation begun through another server counts too
        ch = charge_move(g.row.tc, g.row.remaining[side], turn_elapsed(g, t));
    if (ch.flagged) {
        end_game(g, core::winner_of(~side), core::EndReason::TimeUp);
        (void)save(g, int(g.row.moves.size()));
        flush();
        return fail("time is up");
    }

    // Step 2. The move, read once: a handicap removal or a board move checked by the core;
    // spelled for every protocol, then played.
    const core::Position& before_pos = g.game.position();
    Reply<MoveRecord> read = read_move(g, side, in, illegal_loses);
    if (!read)
        return fail(read.error());
    MoveRecord rec = std::move(*read);
    core::Move previous = !g.log.empty() && g.log.back().board() ? g.log.back().move : core::Move::none();
    spell(rec, before_pos, previous);
    (void)apply(g.game, rec);  // legal: checked above

    // Step 3. Record it; a move replayed after an undo is locked against another undo.
    int ply = int(g.row.moves.size());
    rec.ply = ply;
    rec.spent_ms = ch.spent;
    rec.at = t;
    rec.locked = ply == g.row.undone_ply && rec.text == g.row.undone_text;
    rec.comment = std::string(in.comment);
    g.row.moves.push_back(to_row(rec));
    g.log.push_back(rec);
    g.row.undone_ply = -1;
    g.row.undone_text.clear();
    if (g.row.tc.realtime())
        g.row.remaining[side] = ch.remaining;
    g.row.turn_started = t;
    g.row.seen[side] = ply + 1;
    Played out;
    out.move = rec.move;
    out.western = rec.western;
    out.usi = rec.text;
    out.csa = rec.csa;
    out.spent_ms = ch.spent;
    out.notices = rec.notices;
    if (g.game.over()) {
        const auto& res = g.game.result();
        end_game(g, res.winner, res.reason, res.detail);
        out.game_over = true;
    }

    // Step 4. Durable before anyone hears of it.
    if (auto r = save(g, ply); !r) {
        g.row.moves.pop_back();
        g.row.status = GameStatus::Active;
        g.row.winner.clear();
        g.row.reason.clear();
        pending_.clear();
        (void)rebuild(g);
        return fail(r.error());
    }
    arm_timer(g);
    // Step 5. The event, with the position's facts worked out once for every listener. It goes
    // before any GameEnded that end_game queued.
    std::vector<std::pair<std::weak_ptr<Listener>, Event>> ended = std::move(pending_);
    pending_.clear();
    emit_game(g, move_event(g, g.log.back(), true));
    pending_.insert(pending_.end(), ended.begin(), ended.end());
    flush();
    if (mail_)
        mail_->moved(g);
    return out;
}

Event Service::move_event(const LiveGame& g, const MoveRecord& r, bool latest) const {
    auto facts = std::make_shared<MoveFacts>();
    facts->record = r;
    facts->latest = latest;
    if (latest) {
        facts->sfen = g.game.position().sfen();
        facts->check = g.game.position().in_check();
    }
    Event e;
    e.kind = EventKind::Move;
    e.ply = r.ply;
    e.from = g.player(r.mover);
    e.facts = std::move(facts);
    return e;
}

Reply<void> Service::resign_once(std::string_view user, std::int64_t game_id) {
    auto s = seat(user, game_id, Need::Active);
    if (!s)
        return core::unexpected(s.error());
    auto [g, c] = *s;
    int ply = int(g->row.moves.size());
    Millis t = env_.now();
    MoveRecord rec;
    rec.kind = MoveKind::Resign;
    rec.mover = c;
    rec.ply = ply;
    rec.at = t;
    rec.spent_ms = turn_elapsed(*g, t);
    spell(rec, g->game.position(), core::Move::none());
    if (g->row.tc.realtime() && g->to_move() == c)
        rec.spent_ms = charge_move(g->row.tc, g->row.remaining[c], rec.spent_ms).spent;
    rec.locked = ply == g->row.undone_ply && rec.text == g->row.undone_text;
    g->row.moves.push_back(to_row(rec));
    g->log.push_back(rec);
    g->row.seen[c] = ply + 1;
    g->game.resign(c);
    end_game(*g, core::winner_of(~c), core::EndReason::Resignation);
    if (auto r = save(*g, ply); !r) {
        g->row.moves.pop_back();
        g->row.status = GameStatus::Active;
        pending_.clear();
        (void)rebuild(*g);
        return r;
    }
    flush();
    return {};
}

Reply<void> Service::declare_once(std::string_view user, std::int64_t game_id) {
    auto s = seat(user, game_id, Need::Turn);
    if (!s)
        return core::unexpected(s.error());
    auto [g, c] = *s;
    Millis t = env_.now();
    int ply = int(g->row.moves.size());
    Charge ch = charge_move(g->row.tc, g->row.remaining[c], turn_elapsed(*g, t));
    if (ch.flagged) {
        end_game(*g, core::winner_of(~c), core::EndReason::TimeUp);
        (void)save(*g, ply);
        flush();
        return fail("time is up");
    }
    auto r = g->game.declare();
    if (!r) {
        end_game(*g, core::winner_of(~c), core::EndReason::IllegalMove,
                 std::string("declaration failed: ") + core::describe(r.error()));
        (void)save(*g, ply);
        flush();
        return fail(std::string("declaration failed: ") + core::describe(r.error()));
    }
    MoveRecord rec;
    rec.kind = MoveKind::Declare;
    rec.mover = c;
    rec.ply = ply;
    rec.spent_ms = ch.spent;
    rec.at = t;
    spell(rec, g->game.position(), core::Move::none());
    g->row.moves.push_back(to_row(rec));
    g->log.push_back(rec);
    end_game(*g, core::winner_of(c), core::EndReason::Declaration);
    (void)save(*g, ply);
    flush();
    return {};
}

Reply<void> Service::undo_once(std::string_view user, std::int64_t game_id, bool opponents) {
    auto s = seat(user, game_id, Need::Player);
    if (!s)
        return core::unexpected(s.error());
    LiveGame& g = *s->game;
    core::Color c = s->color;
    if (g.row.tc.realtime())
        return fail("UNDO is for correspondence games");
    if (g.row.moves.empty())
        return fail("there is no move to undo");
    int n = int(g.row.moves.size());
    const MoveRow& last = g.row.moves.back();
    core::Color mover = g.log.back().mover;
    // The first reason that holds whoever has seen what.
    if (last.forced)
        return fail("the first move forced with NEW cannot be undone");
    if (!opponents) {
        if (mover != c)
            return fail("the last move is your opponent's (UNDO -o undoes it)");
        if (g.row.seen[~c] >= n)
            return fail("your opponent has already seen your move");
    } else {
        if (mover == c)
            return fail("the last move is yours (UNDO without -o undoes it)");
        if (g.row.seen[c] < n)
            return fail("you have not seen that move yet (load the game with BOARD)");
    }
    if (last.locked)
        return fail("that move was played again after an undo: it cannot be undone any more");
    if (g.finished() && (!end_caused_by_move(reason_from_name(g.row.reason)) || g.row.rated_applied))
        return fail("game " + std::to_string(game_id) + " is over");

    MoveRow removed = last;
    GameRow saved = g.row;
    g.row.moves.pop_back();
    // Only a move the opponent took back (UNDO -o) is locked when its mover plays it again
    // (003: "although your opponent undid it, ... just play the same move again"); a mover who
    // takes back his own unseen move and plays it again may still take it back.
    g.row.undone_ply = opponents ? n - 1 : -1;
    g.row.undone_text = opponents ? removed.text : std::string();
    g.row.status = GameStatus::Active;
    g.row.winner.clear();
    g.row.reason.clear();
    g.row.seen[0] = std::min(g.row.seen[0], n - 1);
    g.row.seen[1] = std::min(g.row.seen[1], n - 1);
    g.row.seen[c] = n - 1;
    g.row.turn_started = env_.now();
    if (auto r = rebuild(g); !r) {
        g.row = saved;
        (void)rebuild(g);
        return r;
    }
    if (auto r = save(g, n - 1); !r) {
        g.row = saved;
        (void)rebuild(g);
        return r;
    }
    arm_timer(g);
    Event e;
    e.kind = EventKind::Undo;
    e.ply = n - 1;
    e.from = g.player(c);
    e.text = removed.text;
    emit_game(g, e);
    flush();
    return {};
}

void Service::mark_seen(std::string_view user, std::int64_t game_id) {
    // Once more after a lost race: the row, reread, may need it still (another server wrote
    // something else) or not (the player's connection there marked it).
    for (int attempt = 0; attempt < 2; ++attempt) {
        auto s = seat(user, game_id, Need::Player);
        if (!s)
            return;
        auto [g, c] = *s;
        int n = int(g->row.moves.size());
        bool pending_rating = g->finished() && !g->row.rated_applied;
        if (g->row.seen[c] >= n && !pending_rating)
            return;
        g->row.seen[c] = n;
        bool saved = bool(save(*g, n));
        flush();
        if (saved || !stale_.contains(game_id))
            return;
    }
}

// --- move logs

std::vector<MoveRecord> Service::move_log(const GameRow& row) {
    core::Game game;
    return replay(row, game).log;
}

std::unique_ptr<core::Position> Service::position_at(const GameRow& row, int plies) {
    core::Game game;
    (void)replay(row, game, plies);
    return game.position().clone();
}

// --- endings, ratings, timers

void Service::end_game(LiveGame& g, core::Winner w, core::EndReason r, std::string detail) {
    g.row.status = r == core::EndReason::Abort ? GameStatus::Aborted : GameStatus::Finished;
    g.row.winner = winner_name(w);
    g.row.reason = reason_name(r);
    log_event("game_end", {{"game", std::to_string(g.row.id)}, {"winner", g.row.winner}, {"reason", g.row.reason}});
    env_.cancel(g.row.id);
    away_.erase(g.row.id);
    Event e;
    e.kind = EventKind::GameEnded;
    e.winner = w;
    e.reason = r;
    e.detail = std::move(detail);
    e.ply = int(g.row.moves.size());
    emit_game(g, e);
    if (mail_)
        mail_->ended(g);
}

void Service::finalize_if_seen(LiveGame& g, std::vector<UserRow*>& changed) {
    if (g.row.status != GameStatus::Finished || g.row.rated_applied)
        return;
    core::EndReason r = reason_from_name(g.row.reason);
    bool undoable = !g.row.tc.realtime() && !g.row.moves.empty() && end_caused_by_move(r);
    if (undoable && !g.log.empty() && g.row.seen[~g.log.back().mover] < int(g.row.moves.size()))
        return;  // the mover may still take it back
    apply_rating(g, changed);
}

void Service::apply_rating(LiveGame& g, std::vector<UserRow*>& changed) {
    g.row.rated_applied = true;
    UserRow* b = user_mut(g.row.black);
    UserRow* w = user_mut(g.row.white);
    if (!b || !w || b == w || is_guest(b->name) || is_guest(w->name))  // a guest's games are unrated
        return;
    core::Winner win = winner_from_name(g.row.winner);
    double score_b = win == core::Winner::Black ? 1.0 : win == core::Winner::White ? 0.0 : 0.5;
    Rating rb{b->rating, b->deviation, b->volatility}, rw{w->rating, w->deviation, w->volatility};
    Rating nb = glicko2_update(rb, rw, score_b), nw = glicko2_update(rw, rb, 1.0 - score_b);
    b->rating = nb.rating;
    b->deviation = nb.deviation;
    b->volatility = nb.volatility;
    b->last_game = env_.now();
    w->rating = nw.rating;
    w->deviation = nw.deviation;
    w->volatility = nw.volatility;
    w->last_game = env_.now();
    g.row.rating_after[0] = nb.rating;  // the players' rating history
    g.row.deviation_after[0] = nb.deviation;
    g.row.rating_after[1] = nw.rating;
    g.row.deviation_after[1] = nw.deviation;
    if (win == core::Winner::Black) {
        ++b->wins;
        ++w->losses;
    } else if (win == core::Winner::White) {
        ++w->wins;
        ++b->losses;
    } else {
        ++b->draws;
        ++w->draws;
    }
    changed.push_back(b);
    changed.push_back(w);
}

void Service::arm_timer(LiveGame& g) {
    if (!g.active() || g.adjourned()) {
        env_.cancel(g.row.id);
        return;
    }
    // When the clock runs out, counting from now the time this turn has left; a player on
    // vacation (correspondence) has it from the end of the vacation.
    Millis now = env_.now();
    Millis at = now + g.deadline() - turn_elapsed(g, now) + (g.row.tc.csa_seconds ? 0 : 1);
    if (!g.row.tc.realtime())
        if (auto back = vacation_until(g.player(g.to_move())))
            at += *back - now;
    for (auto [a, end] = away_.equal_range(g.row.id); a != end; ++a)
        at = std::min(at, a->second.until);
    env_.schedule(g.row.id, at);
}

void Service::csa_away(std::string_view user, std::int64_t game_id) {
    LiveGame* g = live(game_id);
    if (g && g->active() && !g->adjourned() && config_.adjourn_disconnected && config_.csa_reconnect_grace_ms <= 0
        && g->color_of(user)) {
        (void)adjourn_now(*g, std::string(user) + " disconnected");
        return;
    }
    if (!g || !g->active() || config_.csa_reconnect_grace_ms <= 0)
        return forfeit(user, game_id, core::EndReason::Disconnect, "disconnected");
    auto [a, end] = away_.equal_range(game_id);
    for (; a != end; ++a)
        if (name_key(a->second.user) == name_key(user))
            break;
    if (a != end)
        away_.erase(a);
    away_.emplace(game_id, Away{std::string(user), env_.now() + config_.csa_reconnect_grace_ms});
    arm_timer(*g);
    if (store_.shared())  // they may come back through another server
        store_.publish("W " + std::to_string(game_id) + " "
                       + std::to_string(env_.now() + config_.csa_reconnect_grace_ms) + " " + std::string(user));
}

std::int64_t Service::csa_return(std::string_view user) {
    for (auto it = away_.begin(); it != away_.end(); ++it) {
        if (name_key(it->second.user) != name_key(user))
            continue;
        std::int64_t id = it->first;
        away_.erase(it);
        if (store_.shared())  // back (perhaps here, not where they left): no server forfeits it
            store_.publish("R " + std::to_string(id) + " " + std::string(user));
        LiveGame* g = live(id);
        if (!g || !g->active())
            return 0;
        arm_timer(*g);
        return id;
    }
    return 0;
}

void Service::on_timer(std::int64_t game_id) {
    if (game_id == GUEST_TIMER)
        return on_guest_timer();
    if (game_id < 0)
        return on_tournament_timer(game_id);
    for (auto [a, end] = away_.equal_range(game_id); a != end; ++a) {
        if (env_.now() >= a->second.until) {
            std::string user = a->second.user;
            away_.erase(a);
            if (LiveGame* g = live(game_id); config_.adjourn_disconnected && g && g->active() && !g->adjourned()) {
                (void)adjourn_now(*g, user + " disconnected");
                return;
            }
            return forfeit(user, game_id, core::EndReason::Disconnect, "disconnected");
        }
    }
    auto it = games_.find(game_id);
    if (it == games_.end() || !it->second->active())
        return;
    LiveGame& g = *it->second;
    core::Color side = g.to_move();
    if (g.adjourned())
        return;
    Charge ch = charge_move(g.row.tc, g.row.remaining[side], turn_elapsed(g, env_.now()));
    if (ch.flagged && reload_vacations(g))  // a vacation begun through another server counts too
        ch = charge_move(g.row.tc, g.row.remaining[side], turn_elapsed(g, env_.now()));
    if (!ch.flagged) {
        arm_timer(g);  // fired early
        return;
    }
    g.game.time_up(side);
    end_game(g, core::winner_of(~side), core::EndReason::TimeUp);
    (void)save(g, int(g.row.moves.size()));
    flush();
}

void Service::forfeit(std::string_view user, std::int64_t game_id, core::EndReason reason, std::string detail) {
    auto s = seat(user, game_id, Need::Player);
    if (!s)
        return;
    auto [g, c] = *s;
    if (g->row.status == GameStatus::Offered) {
        end_game(*g, core::Winner::None, core::EndReason::Abort, std::move(detail));
    } else if (g->active()) {
        end_game(*g, core::winner_of(~c), reason, std::move(detail));
    } else {
        return;
    }
    (void)save(*g, int(g->row.moves.size()));
    flush();
}

}  // namespace hisha::server::service
