// Service: what other servers on the same database publish (PostgreSQL LISTEN/NOTIFY). Each
// message is a letter, a space and its fields (see publish() and its callers):
//   B                        the bans changed
//   P admin\ntext            an administrator's announcement
//   S from\ntext, C ...      a SHOUT, a %%CHAT
//   T to\nfrom\ntext          a TELL; Y game to\nfrom\ntext a SAY in a game
//   N game acceptor\ntext    a challenge accepted there
//   W game until user        a CSA player dropped out there (may come back within the grace);
//   R game user              they came back
//   K                        the challenges changed
//   A game color             a CSA AGREE given there
//   G game                   a game changed: reread it
#include <sstream>

#include "server/service/service.h"

namespace hisha::server::service {

void Service::on_remote(std::string_view payload) {
    if (payload == "B")
        return remote_bans();
    if (payload == "K")
        return reload_challenges();
    if (payload.size() < 2 || payload[1] != ' ')
        return;
    switch (payload[0]) {
    case 'P': return remote_announcement(payload);
    case 'S':
    case 'C': return remote_broadcast(payload);
    case 'T':
    case 'Y': return remote_message(payload);
    case 'N': return remote_accepted(payload);
    case 'W':
    case 'R': return remote_away(payload);
    case 'A': return remote_agree(payload);
    case 'G': return refresh(std::atoll(std::string(payload.substr(2)).c_str()));
    default: return;
    }
}

// Another server changed the bans: those in force here now too.
void Service::remote_bans() {
    load_bans();
    end_sessions(
        [&](const Connection& c) {
            const BanRow* b = ban_of_address(c.peer);
            return b || ban_of_user(c.user_key);
        },
        "banned by an administrator");
}

// "P admin\ntext": an announcement made on another server, to every connection here.
void Service::remote_announcement(std::string_view payload) {
    auto nl = payload.find('\n');
    if (nl == std::string_view::npos)
        return;
    Event e;
    e.kind = EventKind::Announce;
    e.from = std::string(payload.substr(2, nl - 2));
    e.text = std::string(payload.substr(nl + 1, config_.max_message));
    for (auto& c : connections_)
        if (!c.listener.expired() && c.protocol != "bot")
            pending_.push_back({c.listener, e});
    flush();
}

// "S from\ntext" (a SHOUT, to everyone) or "C from\ntext" (a %%CHAT, to the CSA players).
void Service::remote_broadcast(std::string_view payload) {
    auto nl = payload.find('\n');
    if (nl == std::string_view::npos)
        return;
    Event e;
    e.kind = payload[0] == 'S' ? EventKind::Shout : EventKind::Chat;
    e.from = std::string(payload.substr(2, nl - 2));
    e.text = std::string(payload.substr(nl + 1, config_.max_message));
    for (auto& c : connections_)
        if (!c.listener.expired() && (e.kind == EventKind::Shout || c.protocol == "csa"))
            pending_.push_back({c.listener, e});
    flush();
}

// "T to\nfrom\ntext" (a TELL) or "Y game to\nfrom\ntext" (a SAY), to its recipient if here.
void Service::remote_message(std::string_view payload) {
    auto nl = payload.find('\n');
    auto nl2 = nl == std::string_view::npos ? nl : payload.find('\n', nl + 1);
    if (nl2 == std::string_view::npos)
        return;
    std::string_view head = payload.substr(2, nl - 2);
    Event e;
    e.kind = payload[0] == 'T' ? EventKind::Tell : EventKind::Say;
    if (e.kind == EventKind::Say) {
        auto sp = head.find(' ');
        if (sp == std::string_view::npos)
            return;
        e.game_id = std::atoll(std::string(head.substr(0, sp)).c_str());
        head.remove_prefix(sp + 1);
    }
    e.from = std::string(payload.substr(nl + 1, nl2 - nl - 1));
    e.text = std::string(payload.substr(nl2 + 1, config_.max_message));
    emit_to(name_key(head), e);
    flush();
}

// "N game acceptor\ntext": a challenge accepted on another server; its players here hear of it.
void Service::remote_accepted(std::string_view payload) {
    auto nl = payload.find('\n');
    auto sp = payload.find(' ', 2);
    if (nl == std::string_view::npos || sp > nl)
        return;
    std::int64_t id = std::atoll(std::string(payload.substr(2, sp - 2)).c_str());
    std::string acceptor(payload.substr(sp + 1, nl - sp - 1));
    auto row = id > 0 && !games_.contains(id) ? store_.load_game(id) : std::nullopt;
    if (row && (online(row->black) || online(row->white))) {
        // Held here from its start (its forced first move, no result), so that the refresh
        // below announces what was played since, even the end, and nothing twice.
        auto g = std::make_unique<LiveGame>();
        g->row = std::move(*row);
        std::size_t start = 0;
        while (start < g->row.moves.size() && g->row.moves[start].forced)
            ++start;
        g->row.moves.resize(start);
        g->row.status = GameStatus::Active;
        g->row.winner.clear();
        g->row.reason.clear();
        if (rebuild(*g))
            games_[id] = std::move(g);
    }
    if (!games_.contains(id))
        return;
    Event e;
    e.kind = EventKind::GameStarted;
    e.from = acceptor;
    e.text = std::string(payload.substr(nl + 1, config_.max_message));
    emit_local(*games_[id], e);
    flush();
    refresh(id);
}

// "W game until user": a CSA player dropped out of a game on another server and may come back
// here within the grace; "R game user": they came back (somewhere).
void Service::remote_away(std::string_view payload) {
    std::istringstream in{std::string(payload.substr(2))};
    std::int64_t id = 0;
    Millis until = 0;
    std::string who;
    if (payload[0] == 'W')
        in >> id >> until >> who;
    else
        in >> id >> who;
    if (id <= 0 || who.empty())
        return;
    for (auto [a, end] = away_.equal_range(id); a != end; ++a)
        if (name_key(a->second.user) == name_key(who)) {
            away_.erase(a);
            break;
        }
    if (payload[0] == 'W')
        away_.emplace(id, Away{who, until});
    else if (auto it = games_.find(id); it != games_.end() && it->second->active())
        arm_timer(*it->second);  // its grace no longer counts here
}

// "A game color": a CSA AGREE given on another server.
void Service::remote_agree(std::string_view payload) {
    std::int64_t id = std::atoll(std::string(payload.substr(2)).c_str());
    auto sp = payload.rfind(' ');
    int color = sp > 2 ? std::atoi(std::string(payload.substr(sp + 1)).c_str()) : -1;
    auto it = games_.find(id);
    if (it == games_.end() || (color != 0 && color != 1) || it->second->row.status != GameStatus::Offered)
        return;
    LiveGame& g = *it->second;
    g.agreed[color] = true;
    // The server that received Black's AGREE starts the game (one server does).
    if (g.agreed[0] && g.agreed[1] && g.agreed_here[0])
        (void)start_agreed(g);
}

}  // namespace hisha::server::service
