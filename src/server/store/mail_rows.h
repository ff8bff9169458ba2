// The stored side of mail notifications (issue 20, service/mail.h): each player's address and
// choices, and the outgoing queue (kept until sent or given up, so that a restart loses
// nothing), with their columns for the row codec (row_codec.h).
#pragma once

#include <cstdint>
#include <string>

#include "server/store/row_codec.h"

namespace hisha::server::store {

/// A player's address and what they want mailed (mail_players).
struct MailPlayerRow {
    std::string player_key;
    std::string address;
    bool confirmed = false;
    std::string kinds;           // "turn,challenge,end,message": what is mailed
    std::string confirm_hash;    // the confirmation link's token, hashed ("" once confirmed)
    Millis confirm_expires = 0;  // until when that link confirms
    std::string unsubscribe;     // the token of every mail's unsubscribe link
    std::string notified;        // games mailed "your turn" not looked at since: ",12,40,"
};

/// A mail in the queue (mail_queue). state: QUEUED until sent (SENT) or given up (FAILED).
struct MailRow {
    static constexpr int QUEUED = 0, SENT = 1, FAILED = 2;
    std::int64_t id = 0;
    std::string player_key, address, kind;
    std::int64_t game_id = 0;
    std::string message;  // the whole message as sent (CRLF lines, headers and body)
    Millis created = 0, next_try = 0;
    int attempts = 0, state = QUEUED;
    std::string error;  // the last failure
    Millis sent = 0;
};

namespace rows {

template <>
inline constexpr TableInfo table<MailPlayerRow>{
    "mail_players", "player_key, address, confirmed, kinds, confirm_hash, confirm_expires, unsubscribe, notified",
    "player_key, address, confirmed, kinds, confirm_hash, confirm_expires, unsubscribe, notified"};
template <>
inline constexpr TableInfo table<MailRow>{
    "mail_queue", "id, player_key, address, kind, game_id, message, created, next_try, attempts, state, error, sent",
    "player_key, address, kind, game_id, message, created, next_try, attempts, state, error, sent"};

}  // namespace rows

// (In this namespace, where read_row() and put_new() find them by the row's type.)
template <rows::RowOf<MailPlayerRow> T, class F>
void fields(T& p, F&& f) {
    rows::each(f, p.player_key, p.address, p.confirmed, p.kinds, p.confirm_hash, p.confirm_expires, p.unsubscribe,
               p.notified);
}
/// Every column of mail_queue but the id.
template <rows::RowOf<MailRow> T, class F>
void fields(T& m, F&& f) {
    rows::each(f, m.player_key, m.address, m.kind, m.game_id, m.message, m.created, m.next_try, m.attempts, m.state,
               m.error, m.sent);
}

}  // namespace hisha::server::store
