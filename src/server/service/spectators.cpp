// Service: who watches a game. Watchers are name keys in LiveGame::spectators; those counted are
// connected here and not the game's players (whose own pages watch too). When that list changes
// (someone starts or stops watching, a watcher's last connection goes or their first one comes)
// the game's players and spectators here get a Spectators event, so that a page shows the count
// without asking for it.
#include <algorithm>

#include "server/service/service.h"

namespace hisha::server::service {

void Service::watch(std::string_view user, std::int64_t game_id, bool on) {
    LiveGame* g = live(game_id);
    if (!g)
        return;
    std::string key = name_key(user);
    bool changed = on ? g->spectators.insert(key).second : g->spectators.erase(key) > 0;
    if (changed && online(key) && key != name_key(g->row.black) && key != name_key(g->row.white)) {
        emit_spectators(*g);
        flush();
    }
}

std::vector<std::string> Service::spectators_of(const LiveGame& g) const {
    std::vector<std::string> names;
    std::string b = name_key(g.row.black), w = name_key(g.row.white);
    for (const std::string& k : g.spectators)
        if (k != b && k != w && online(k)) {
            const UserRow* u = user(k);
            names.push_back(u ? u->name : k);
        }
    return names;
}

void Service::emit_spectators(const LiveGame& g) {
    Event e;
    e.kind = EventKind::Spectators;
    emit_local(g, e);
}

void Service::presence_changed(const std::string& key) {
    bool emitted = false;
    for (auto& [id, g] : games_)
        if (g->spectators.contains(key) && key != name_key(g->row.black) && key != name_key(g->row.white)) {
            emit_spectators(*g);
            emitted = true;
        }
    if (emitted)
        flush();
}

}  // namespace hisha::server::service
