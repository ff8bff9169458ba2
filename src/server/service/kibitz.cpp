// Kibitz: a line in a game's chat from anyone logged in (a watcher mostly; SAY is the players'
// own, to the opponent), delivered at once to the game's players and to everyone watching it on
// this server, as a "say" event from its writer. Not kept for the absent: a chat of the moment.
#include "server/service/service.h"

namespace hisha::server::service {

Reply<void> Service::kibitz(std::string_view from, std::int64_t game_id, std::string_view text) {
    LiveGame* g = live(game_id);
    if (!g)
        return fail("no such game");
    if (text.empty())
        return fail("empty message");
    if (text.size() > config_.max_message)
        return fail("message too long");
    const UserRow* u = user(from);
    Event e;
    e.kind = EventKind::Say;
    e.from = u ? u->name : std::string(from);
    e.text = std::string(text);
    emit_local(*g, e);
    flush();
    return {};
}

}  // namespace hisha::server::service
