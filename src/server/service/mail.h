// Mail notifications (issue 20), where the operator configures SMTP (hisha-server --smtp-host):
// correspondence play as Shoogi Server's mail-speed games began, told by mail. A player gives an
// address, confirmed by a link with a one-time token before anything else goes there, and
// chooses what is mailed: "your turn" in correspondence games (only while the player has no
// connection, one mail a game until they have looked or moved), challenges that name them,
// their games' ends, and the messages kept for them while away (TELL, SAY). Every mail carries a
// one-click unsubscribe link (and List-Unsubscribe); no player gets more than config.per_hour
// mails an hour.
//
// This is the event loop's side: the addresses, the choices and the queue in the store (a
// restart loses nothing). The network (net/mail_sender.h) takes due mails, sends them with its
// SMTP client on a thread of its own, and reports each outcome here: a failure is retried with
// a doubling delay, then given up; a refusal of the address (5xx) is given up at once. Both are
// logged.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "server/service/reply.h"
#include "server/store/mail_rows.h"
#include "server/store/records.h"

namespace hisha::server::store {
class Store;
}

namespace hisha::server::service {

class Environment;
class Service;
struct LiveGame;

/// The operator's SMTP settings (hisha-server --smtp-*). No host: no mail at all.
struct MailConfig {
    std::string host;
    int port = 25;
    std::string from;            // the sender's address (--smtp-from)
    std::string user, password;  // AUTH PLAIN or LOGIN when user is set (the password from a file)
    enum class Tls { Off, WhenOffered, Required };
    Tls tls = Tls::WhenOffered;  // STARTTLS
    std::string ca_file;         // certificates (PEM) trusted for STARTTLS instead of the system's
    std::string base_url;        // the web page's public address in links (https://shogi.example.org)
    std::string helo = "localhost";
    int per_hour = 10;           // mails to one player an hour at most
    int attempts = 8;            // tries before a mail is given up
    Millis retry_ms = 60'000;    // the first retry's delay, doubled each time
    Millis timeout_ms = 30'000;  // one SMTP conversation's step
    Millis confirm_lifetime_ms = 2 * 86'400'000LL;
    bool enabled() const { return !host.empty(); }
};

/// What a player may have mailed.
inline constexpr const char* MAIL_KINDS[] = {"turn", "challenge", "end", "message"};

/// A player's mail settings as the settings page shows them.
struct MailSettings {
    std::string address;
    bool confirmed = false;
    std::vector<std::string> kinds;
};

/// How sending one mail went (net/smtp_client.h).
struct MailOutcome {
    enum Kind { Sent, Transient, Permanent };
    Kind kind = Sent;
    std::string error;  // the server's reply or the connection's failure
};

class Mail {
public:
    Mail(Service& svc, store::Store& store, Environment& env, MailConfig config);
    const MailConfig& config() const { return config_; }

    // --- the player's side (JSON API, text protocol)
    Reply<MailSettings> settings(std::string_view user);
    /// A new address (a confirmation mail goes there; nothing else until it is confirmed), or
    /// "" to forget the address. A bad address is refused with the reason.
    Reply<MailSettings> set_address(std::string_view user, std::string_view address);
    /// What is mailed: a subset of MAIL_KINDS (an unknown kind is refused).
    Reply<MailSettings> set_kinds(std::string_view user, const std::vector<std::string>& kinds);
    /// The confirmation link's token: the player whose address it confirms.
    Reply<std::string> confirm(std::string_view token);
    /// The unsubscribe link's token: nothing more is mailed to that player (their name).
    Reply<std::string> unsubscribe(std::string_view token);

    // --- the service's hooks (Service calls them when mail is configured)
    void moved(const LiveGame& g);  // after a move (the mover has looked; the other may be told)
    void ended(const LiveGame& g);
    void challenged(const ChallengeRow& c);
    void message_left(const MessageRow& m);
    void looked(std::string_view user);  // a connection: the games mailed about are seen

    // --- the queue, for the network's sender
    /// Whether this server sends the queue's mail: on a database shared by several servers, the
    /// one that claimed it (Store::claim; another takes over when it stops); a single one does.
    bool sender_here();
    /// Whether other servers queue mail too (a shared database): the sender looks every second.
    bool shared() const;
    /// Due mails, at most `limit`, each leased for the time one attempt may take (not given
    /// again before; a restart retries it).
    std::vector<store::MailRow> take_due(int limit);
    /// When the next mail is due (0: none queued).
    Millis next_due();
    void done(store::MailRow m, const MailOutcome& o);
    /// Called when a mail is queued (the sender wakes up).
    std::function<void()> wake;
    /// {queued, sent, failed} (for the administrators' status).
    std::vector<int> counts();

private:
    /// Queues a mail to `p` (refused, and logged, past the hourly limit). Empty body: none.
    bool queue(const store::MailPlayerRow& p, const std::string& kind, std::int64_t game_id, const std::string& subject,
               const std::string& body);
    /// The player's row when mail of `kind` goes to a confirmed address and they are away.
    std::optional<store::MailPlayerRow> recipient(std::string_view user, std::string_view kind, bool away = true);
    std::string link(std::string_view fragment) const;
    std::string footer(const store::MailPlayerRow& p) const;
    std::string game_text(const LiveGame& g) const;
    std::string display_name(std::string_view user_key) const;

    Service& svc_;
    store::Store& store_;
    Environment& env_;
    MailConfig config_;
    std::uint64_t sequence_ = 0;  // Message-IDs
};

/// A random token (64 hex digits) and its stored hash.
std::string mail_token();
std::string mail_token_hash(std::string_view token);

}  // namespace hisha::server::service
