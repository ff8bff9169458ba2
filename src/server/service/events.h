// Events the service sends to connected players (and spectators). Each protocol formats them
// its own way; a Listener is a connection as the service sees it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/game.h"
#include "server/service/move_record.h"

namespace hisha::server::service {

enum class EventKind : std::uint8_t {
    GameOffered,   // a CSA match was found: both must agree
    GameRejected,  // an offered game was rejected (text: who rejected)
    GameStarted,
    Move,  // a move was played (also a handicap removal)
    Undo,  // the last move was taken back
    GameEnded,
    Say,  // from the opponent in a game
    Shout,
    Tell,
    Chat,        // CSA %%CHAT
    Notice,      // anything else worth a line (challenge accepted ...)
    Announce,    // an administrator's announcement to everyone connected (from: the administrator)
    Spectators,  // who watches the game changed (Service::spectators_of has them)
};

struct Event {
    EventKind kind = EventKind::Notice;
    std::int64_t game_id = 0;
    int ply = 0;       // Move: index of the move; Undo: the new length
    std::string from;  // who caused it (mover, sender)
    std::string text;  // message text, notice
    // Move: the entry played (a board move or a handicap removal) with its spellings and the
    // position after it, made once and shared by every listener.
    std::shared_ptr<const MoveFacts> facts;
    core::Winner winner = core::Winner::None;  // GameEnded
    core::EndReason reason = core::EndReason::None;
    std::string detail;
};

/// A connection that receives events. Called on the service's thread; must not block.
class Listener {
public:
    virtual ~Listener() = default;
    virtual void deliver(const Event& e) = 0;
    /// The server ends this connection's session (an administrator's KICK or ban, a revoked
    /// token): tell the client `why` and close. Called on the service's thread; the listener
    /// disconnects itself later, as when its client leaves.
    virtual void end_session(const std::string& why) { (void)why; }
};

}  // namespace hisha::server::service
