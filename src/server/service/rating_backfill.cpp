// Service: the rating history of the games rated before it was kept (migration 7 added the
// columns with 0 for them). Once per database, at start: the rating updates of those games are
// replayed in the order they ended (their last update, then their id) from every player's first
// rating, exactly as apply_rating() made them (one Glicko-2 period a game, both players from
// their ratings before it), and each game gets the ratings and deviations its players had after
// it. Games with a guest, a player since deleted or the same player twice were not rated and get
// none. The store records that it was done (Store::games_to_backfill is empty afterwards).
#include <map>

#include "server/service/glicko.h"
#include "server/service/log.h"
#include "server/service/service.h"

namespace hisha::server::service {

void Service::backfill_rating_history() {
    std::vector<GameRow> games = store_.games_to_backfill();
    std::map<std::string, Rating> ratings;  // by name key: each player's rating so far
    std::vector<GameRow> rated;
    for (GameRow& g : games) {
        const UserRow* b = user(g.black);
        const UserRow* w = user(g.white);
        if (!b || !w || b == w || is_guest(b->name) || is_guest(w->name))
            continue;
        Rating& rb = ratings[name_key(b->name)];
        Rating& rw = ratings[name_key(w->name)];
        core::Winner win = winner_from_name(g.winner);
        double score_b = win == core::Winner::Black ? 1.0 : win == core::Winner::White ? 0.0 : 0.5;
        Rating nb = glicko2_update(rb, rw, score_b), nw = glicko2_update(rw, rb, 1.0 - score_b);
        rb = nb;
        rw = nw;
        g.rating_after[0] = nb.rating;
        g.deviation_after[0] = nb.deviation;
        g.rating_after[1] = nw.rating;
        g.deviation_after[1] = nw.deviation;
        rated.push_back(std::move(g));
    }
    if (!store_.save_backfill(rated)) {
        log_failure("rating_backfill", "cannot write the rating history of older games: " + store_.last_error());
        return;
    }
    if (!games.empty())
        log_event("rating_backfill",
                  {{"games", std::to_string(games.size())}, {"rated", std::to_string(rated.size())}});
}

}  // namespace hisha::server::service
