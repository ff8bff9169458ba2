// Bot: the engine searches on its own thread; everything else runs on the event loop.
#include "server/net/bots.h"

#include <algorithm>

#include "engine/engine.h"

namespace hisha::server::net {

Bot::Bot(service::Service& svc, asio::io_context& ioc, std::string name, int skill)
    : svc_(svc), ioc_(ioc), name_(std::move(name)), engine_(std::make_unique<engine::Engine>()) {
    engine_->set_option("USI_Hash", "16");
    engine_->set_option("Threads", "1");
    engine_->set_option("Skill", std::to_string(std::clamp(skill, 0, 20)));
}

Bot::~Bot() {
    stopped_ = true;
    engine_->stop();
    engine_->wait();
}

void Bot::start() {
    svc_.connect(name_, shared_from_this(), "bot");
    poll();
}

void Bot::poll() {
    if (stopped_)
        return;
    std::vector<std::int64_t> games, challenges;
    for (auto* g : svc_.games_of_everywhere(name_))
        games.push_back(g->row.id);
    // The challenges that name it (not those open to anyone: people posting "NEW *" want a
    // person), noted first: accepting one changes the list.
    for (auto* c : svc_.challenges_for(name_))
        if (service::name_key(c->pattern) == service::name_key(name_))
            challenges.push_back(c->id);
    for (auto id : games)
        consider(id);
    for (auto id : challenges)
        (void)svc_.accept_challenge(name_, id);
}

void Bot::stop() {
    stopped_ = true;
    engine_->stop();
}

void Bot::deliver(const service::Event& e) {
    if (stopped_)
        return;
    if (e.kind == service::EventKind::Notice && e.text.starts_with("challenge ")) {
        std::int64_t id = std::atoll(e.text.c_str() + 10);
        auto self = shared_from_this();
        asio::post(ioc_, [self, id] { (void)self->svc_.accept_challenge(self->name_, id); });
        return;
    }
    if (e.kind == service::EventKind::Move || e.kind == service::EventKind::GameStarted
        || e.kind == service::EventKind::Undo) {
        auto self = shared_from_this();
        std::int64_t id = e.game_id;
        asio::post(ioc_, [self, id] { self->consider(id); });
    }
}

void Bot::consider(std::int64_t id) {
    const service::LiveGame* g = svc_.game(id);
    if (!g || !g->active() || g->color_of(name_) != g->to_move())
        return;
    if (thinking_ == id || std::find(queue_.begin(), queue_.end(), id) != queue_.end())
        return;
    queue_.push_back(id);
    if (thinking_ == 0)
        think_next();
}

void Bot::think_next() {
    while (!queue_.empty() && !stopped_) {
        std::int64_t id = queue_.front();
        queue_.pop_front();
        const service::LiveGame* g = svc_.game(id);
        if (!g || !g->active() || g->color_of(name_) != g->to_move())
            continue;
        thinking_ = id;
        engine::Limits limits;
        core::Color us = g->to_move();
        if (g->row.tc.realtime()) {
            Millis used = svc_.turn_elapsed(*g, svc_.now());
            limits.time[us] = int(std::max<Millis>(0, g->row.remaining[us] - used));
            limits.time[~us] = int(g->row.remaining[~us]);
            limits.byoyomi = int(g->row.tc.byoyomi_ms);
            limits.inc[0] = limits.inc[1] = int(g->row.tc.increment_ms);
        } else {
            limits.movetime = 500;
        }
        int ply = int(g->row.moves.size());
        // The engine keeps its callback until the next search: a weak reference, or the bot
        // (which owns the engine) would keep itself alive, its engine searching past shutdown.
        std::weak_ptr<Bot> weak = weak_from_this();
        engine_->go(g->game.position(), limits, {}, [weak, &ioc = ioc_, id, ply](const engine::SearchResult& r) {
            core::Move best = r.best;
            asio::post(ioc, [weak, id, ply, best] {
                auto self = weak.lock();
                if (!self)
                    return;
                self->thinking_ = 0;
                const service::LiveGame* game = self->svc_.game(id);
                if (!self->stopped_ && game && game->active() && int(game->row.moves.size()) == ply) {
                    if (best == core::Move::win())
                        (void)self->svc_.declare(self->name_, id);
                    else if (!best)
                        (void)self->svc_.resign(self->name_, id);
                    else
                        (void)self->svc_.play(self->name_, id, best);
                }
                self->think_next();
            });
        });
        return;
    }
}

std::vector<std::pair<std::string, int>> parse_bots(const std::string& spec) {
    std::vector<std::pair<std::string, int>> out;
    std::size_t i = 0;
    while (i < spec.size()) {
        auto comma = spec.find(',', i);
        std::string item = spec.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
        auto eq = item.find('=');
        if (eq != std::string::npos)
            out.emplace_back(item.substr(0, eq), std::atoi(item.c_str() + eq + 1));
        if (comma == std::string::npos)
            break;
        i = comma + 1;
    }
    return out;
}

}  // namespace hisha::server::net
