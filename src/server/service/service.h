// Service: Hisha's game server without sockets or SQL. Accounts, challenges, games under
// correspondence or real-time clocks, UNDO by Shoogi Server's rules, "seen" tracking,
// messages, WHO/USER, ratings and CSA matchmaking. One thread owns it (the server's event
// loop, like Redis): no locks, events are delivered after each operation completes.
#pragma once

#include <chrono>
#include <deque>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/game.h"
#include "server/service/attempt_limits.h"
#include "server/service/conditional.h"
#include "server/service/events.h"
#include "server/service/move_record.h"
#include "server/service/reply.h"
#include "server/service/tournament.h"
#include "server/store/pause_rows.h"
#include "server/store/records.h"
#include "server/store/store.h"

namespace hisha::server::service {

/// Real time and timers; the network layer implements it with Asio, tests with a fake.
class Environment {
public:
    virtual ~Environment() = default;
    virtual Millis now() = 0;  // epoch milliseconds
    /// Calls Service::on_timer(game_id) at `at` (replacing any earlier timer of that game). Ids
    /// below zero are the service's own timers (a tournament's next round).
    virtual void schedule(std::int64_t game_id, Millis at) = 0;
    virtual void cancel(std::int64_t game_id) = 0;
    /// Group commit: calls Service::commit() soon (after the work already queued), once per
    /// batch. Until then the network holds every reply. The default commits at once.
    virtual void request_commit() {}
    /// Runs `work` away from the loop (a password hash: it touches nothing of the service),
    /// then `done` on the loop. The default runs both at once.
    virtual void offload(std::function<void()> work, std::function<void()> done) {
        work();
        done();
    }
    /// A move was played: its acknowledgement and its relay to the opponent are made (group
    /// commit holds them until the batch is durable). `received`: when Service::play was given
    /// it (its line or request read and parsed, on the event loop). For /metrics.
    virtual void move_played(std::chrono::steady_clock::time_point received) { (void)received; }
};

struct Config {
    int default_days_per_move = 7;
    unsigned long long password_ops = 2;           // argon2id cost (crypto_pwhash_OPSLIMIT_INTERACTIVE)
    std::size_t password_mem = 64u << 20;          // bytes (MEMLIMIT_INTERACTIVE)
    Millis token_lifetime_ms = 30LL * 86'400'000;  // a web session (--session-lifetime)
    Millis guest_lifetime_ms = 86'400'000;         // a guest account and its session (--guest-lifetime; 0: no guests)
    std::size_t max_message = 1000;
    bool csa_auto_register = false;     // a CSA login with an unknown name creates it (else refused)
    int csa_max_moves = 256;            // CSA games end as drawn (#MAX_MOVES) after this many
                                        // moves, as on Floodgate (0: no limit)
    bool group_commit = false;          // batch writes; the network holds replies until commit()
    Millis csa_reconnect_grace_ms = 0;  // a CSA player who drops out of a game may log in again this
                                        // long (0: the game is lost at once, as on Floodgate)
    AttemptPolicy attempts;             // how often logins and registrations may be tried
    int hash_threads = 1;               // threads hashing and checking passwords (the network's)
    std::size_t hash_queue = 32;        // password hashes waiting or running at most; more: "busy"
    // Scheduled CSA tournaments (--tournament; tournament.h).
    std::vector<TournamentSpec> tournaments;
    int vacation_days = 30;             // each player's vacation days a calendar year (--vacation-days; 0: none)
    bool adjourn_disconnected = false;  // a CSA player not back within the reconnect grace has the game
                                        // adjourned instead of lost (--adjourn-disconnected)
};

/// A configured tournament as it stands (GET /api/tournaments).
struct TournamentInfo {
    TournamentSpec spec;
    Millis next_round = 0;  // epoch ms
    // Since the start: rounds run, games offered.
    std::uint64_t rounds = 0, games = 0;
    // (player, game name), in the order they came.
    std::vector<std::pair<std::string, std::string>> waiting;
};

/// How a login, registration or password change through start_login() and its kin came out.
struct AuthReply {
    enum class Status { Ok, Refused, Limited, Busy, Banned };
    Status status = Status::Ok;
    UserRow user;           // Ok: the account (after the change)
    std::string error;      // otherwise: why, for the user
    int retry_after_s = 0;  // Limited and Busy: when to try again
    bool ok() const { return status == Status::Ok; }
};
using AuthDone = std::function<void(const AuthReply&)>;

/// A game in memory: its row, the move list replayed through the core, and each entry typed.
struct LiveGame {
    GameRow row;
    core::Game game;
    std::vector<MoveRecord> log;           // row.moves typed, with their spellings (as many)
    bool agreed[2] = {false, false};       // CSA: AGREE received from black/white
    bool agreed_here[2] = {false, false};  // ... by this server (another server's is published)
    std::set<std::string> spectators;      // name keys
    // Its adjournments (the last one open while it is adjourned) and an open offer to adjourn or
    // resume it (pauses.cpp).
    std::vector<store::PauseRow> pauses;
    std::optional<store::AdjournOfferRow> offer;

    bool active() const { return row.status == GameStatus::Active; }
    bool finished() const { return row.status == GameStatus::Finished || row.status == GameStatus::Aborted; }
    /// The color `user` plays, if any (case-insensitive).
    std::optional<core::Color> color_of(std::string_view user) const;
    const std::string& player(core::Color c) const { return c == core::BLACK ? row.black : row.white; }
    core::Color to_move() const { return game.position().side_to_move(); }
    /// Time the side to move has before flagging, from the turn start.
    Millis deadline() const;
    /// Adjourned: both clocks stand still and no move is played until both agree to resume.
    bool adjourned() const { return active() && !pauses.empty() && pauses.back().ended == 0; }
};

/// A player's vacation allowance and the vacation in force (pauses.cpp).
struct VacationInfo {
    bool on = false;
    Millis started = 0, until = 0;          // the vacation in force (or the last one)
    int allowance = 0, used = 0, left = 0;  // days this calendar year (UTC)
};

/// An agreement's step: an offer made, or the opponent's offer accepted (done).
enum class AgreeStep { Offered, Done };

struct OnlineUser {
    std::string name;
    Millis since = 0;
    std::string protocol;
    int connections = 0;
};

/// One logged-in connection of this server, as an administrator sees it.
struct ConnectionInfo {
    std::string name, protocol, peer;
    Millis since = 0;
};

/// The answer to a command of an administrator's from anyone else.
inline constexpr const char* NOT_ADMIN = "you are not an administrator";

/// Who runs an administrator's command: the account, and its address for the audit log.
struct AdminActor {
    std::string name, peer;
};

/// The ban kinds: an account or an address (or a network of addresses).
enum class BanKind { User, Address };

enum class TellResult { Delivered, Offline, Stored };

/// A move checked before it is played (PLAY's confirmation prompt).
struct CheckedMove {
    core::Move move;              // null for a handicap removal
    bool promotion_open = false;  // a Western move that may promote and said neither + nor =
    std::string handicap;         // a handicap removal: its canonical text
};

/// Outcome of a move for the protocol: the canonical spellings and any check notices.
struct Played {
    core::Move move;
    std::string western, usi, csa;
    Millis spent_ms = 0;
    std::vector<std::string> notices;
    bool game_over = false;
};

class Puzzles;  // puzzles.h
class Mail;     // mail.h

class Service {
public:
    Service(store::Store& store, Environment& env, Config config = {});
    ~Service();
    /// Loads users, challenges and open games; resumes clocks (real-time clocks restart their
    /// turn now: time the server was down is not charged).
    Reply<void> start();

    // --- accounts
    /// The protocols' LOGIN, REGISTER and PASSWORD: limited per address `peer` and per account
    /// (config.attempts), the password hashed or checked by Environment::offload, `done` called
    /// on the loop (at once when refused, limited, or when config.hash_queue hashes are pending).
    void start_login(std::string peer, std::string name, std::string password, AuthDone done);
    void start_register(std::string peer, std::string name, std::string password, AuthDone done);
    void start_password_change(std::string peer, std::string user, std::string old_pw, std::string new_pw,
                               AuthDone done);
    /// Attempts refused by each limit and for a full hashing queue, since the start.
    const AttemptCounters& attempt_counters() const { return attempts_.counters(); }
    /// A new challenge or game of `user` (config.attempts.new_game_per_account): refused with
    /// "too many new games and challenges: retry in N s" when its bucket is empty (logged once
    /// until the account is let in again, counted). new_challenge, accept_challenge and csa_wait
    /// ask it first; a protocol that creates a game with create_game() asks it itself. Engine
    /// bots are not limited.
    Reply<void> admit_new_game(std::string_view user);
    /// A JSON API request of `peer` ("": a WebSocket message, counted by account only) by `user`
    /// ("": no login), before it is served: refused past --requests-per-address/-account (then
    /// limit_retry_after_s() says when to try again).
    Reply<void> admit_request(const std::string& peer, std::string_view user);
    /// After a refusal by admit_new_game (directly or through the calls above): when to try
    /// again, in seconds; 0 when the last call was not refused by it.
    int limit_retry_after_s() const { return limit_retry_after_s_; }
    /// Password hashes and checks offloaded and not back yet.
    std::size_t hashes_pending() const { return hashing_; }
    /// The same, at once on this thread and without limits (tests, tools).
    Reply<UserRow> register_user(std::string_view name, std::string_view password);
    Reply<UserRow> login(std::string_view name, std::string_view password);
    Reply<void> change_password(std::string_view user, std::string_view old_pw, std::string_view new_pw);
    /// A session token for the web API (valid for config.token_lifetime_ms).
    Reply<std::string> create_token(std::string_view user);
    /// The account of a token that is known, not expired, and whose account is not banned.
    std::optional<std::string> token_user(std::string_view token);
    /// Log out: the token is forgotten and the WebSockets it opened are closed.
    void revoke_token(std::string_view token);
    /// Log out everywhere: every token of the account is forgotten and its WebSockets closed.
    Reply<void> revoke_tokens_of(std::string_view user);
    const UserRow* user(std::string_view name) const;
    /// Users whose names match the pattern (003 PATTERNS), sorted by name.
    std::vector<const UserRow*> users(std::string_view pattern) const;
    Reply<void> set_setting(std::string_view user, std::string_view key, std::string_view value);
    std::string setting(std::string_view user, std::string_view key) const;
    static bool valid_name(std::string_view name);

    // --- guests (guests.cpp): a web visitor plays the bots, analyses and solves at once
    /// A temporary account "guest-XXXXXX" without a password for `peer` (limited per address
    /// like registrations, refused to banned addresses and when config.guest_lifetime_ms is 0).
    /// Its games against the bots are unrated; it may not post or accept challenges, play
    /// people, TELL or SHOUT. It and its sessions leave config.guest_lifetime_ms after it was
    /// made (expire_guests(), on a timer of the loop: GUEST_TIMER), unless it is in a game then.
    AuthReply create_guest(const std::string& peer);
    /// Whether `name` is a guest's account: the reserved prefix "guest-" and no password.
    bool is_guest(std::string_view name) const;
    static bool guest_name(std::string_view name);
    /// Refuses `what` ("post challenges") to a guest, with a reason that offers registration.
    Reply<void> refuse_guest(std::string_view user, std::string_view what) const;
    /// Deletes the guests older than config.guest_lifetime_ms that are in no game (their
    /// connections ended, their sessions and account rows deleted); how many.
    int expire_guests();
    /// The Environment's timer id of the guests' expiry (tournaments' are -1, -2 ...; games' > 0).
    static constexpr std::int64_t GUEST_TIMER = std::numeric_limits<std::int64_t>::min();
    /// How soon a guest kept past its time by a game in play is looked at again.
    static constexpr Millis GUEST_RECHECK_MS = 60'000;
    /// A guest who registered as `account`: its games become the account's, and the guest
    /// (its sessions too) is gone.
    Reply<void> adopt_guest(std::string_view guest, std::string_view account);
    /// Creates a bot account (an engine at a level) if it does not exist.
    Reply<void> ensure_bot(std::string_view name, std::string_view level);

    // --- presence and messages
    /// A logged-in connection: `peer` its address (bans, the administrators' list), `token` the
    /// session token that opened it (WebSocket; revoking the token ends it).
    void connect(std::string_view user, const std::shared_ptr<Listener>& l, std::string_view protocol,
                 std::string_view peer = {}, std::string_view token = {});
    void disconnect(const std::shared_ptr<Listener>& l);
    bool online(std::string_view user) const;
    std::vector<OnlineUser> who(std::string_view pattern = "*") const;
    /// Messages left while the user was offline; they are deleted as they are returned.
    std::vector<MessageRow> take_messages(std::string_view user);
    /// TELL: delivered when online; when offline, stored if `leave`, else Offline.
    Reply<TellResult> tell(std::string_view from, std::string_view to, std::string_view text, bool leave);
    /// SAY: to the opponent in a game of the sender.
    Reply<TellResult> say(std::string_view from, std::int64_t game_id, std::string_view text, bool leave);
    /// A line in game `game_id`'s chat from anyone (kibitz.cpp): to its players and watchers here.
    Reply<void> kibitz(std::string_view from, std::int64_t game_id, std::string_view text);
    Reply<int> shout(std::string_view from, std::string_view text);  // number reached
    /// The last player `user` sent a TELL to (TELL . and `.`).
    std::string last_tell(std::string_view user) const;
    void chat(std::string_view from, std::string_view text);  // CSA %%CHAT to every CSA client

    // --- challenges (003 NEW / REMOVE)
    /// A challenge open to `pattern`. As Black (`color` 0) `first_move` is played at once when
    /// accepted; as White it is the move the acceptor is forced to play first (may be empty).
    Reply<std::int64_t> new_challenge(std::string_view user, std::string_view pattern, int color,
                                      std::string_view first_move, std::string_view comment,
                                      std::optional<TimeControl> tc = std::nullopt);
    const std::vector<ChallengeRow>& challenges() const { return challenges_; }
    /// Challenges `user` may see: open to them, or their own.
    std::vector<const ChallengeRow*> challenges_for(std::string_view user) const;
    Reply<std::int64_t> accept_challenge(std::string_view user, std::int64_t id);
    Reply<void> remove_challenge(std::string_view user, std::int64_t id);

    // --- games
    /// A game by id (finished games are read from the store on demand). A game in play or
    /// offered stays where it is while it lasts; a finished one may leave memory at the end of
    /// the next operation that delivers events (flush) or at the next admit_request(): its
    /// pointer is not to be kept across a call that plays, ends, tells or admits anything.
    const LiveGame* game(std::int64_t id);
    /// The games in play, by id; on a database shared by several servers, those of every
    /// server (valid until the next call).
    std::vector<const LiveGame*> active_games();
    std::vector<const LiveGame*> games_of(std::string_view user) const;  // open games of the user
    /// Games in play held by this server (not those only another server serves).
    std::size_t games_in_progress() const;
    /// Games held in memory: those in play or offered, the most recently used finished ones
    /// (keep_finished_games()) and the finished ones that must stay (see there); the others
    /// are read from the store when asked for.
    std::size_t live_games() const { return games_.size(); }
    /// How many of the most recently used finished (or aborted) games stay in memory (64 by
    /// default, at least 1); the older ones leave it when an operation's events have been
    /// delivered or an API request is admitted. Besides them, a game whose end may still be
    /// taken back (a correspondence game whose last move its mover's opponent has not seen)
    /// stays while a spectator connected here watches it, and on a database shared by several
    /// servers until the stored game says it stands (another server's undo of it is told here
    /// as what changed since this copy).
    void keep_finished_games(std::size_t n) { finished_kept_ = n; }
    /// Moves played through play() since the start (bots' too).
    std::uint64_t moves_played() const { return moves_played_; }
    /// The user's open games, on a database shared by several servers those made or served by
    /// any of them too (held here from now on, kept up to date by their notifications).
    std::vector<const LiveGame*> games_of_everywhere(std::string_view user);
    /// Whether this server runs something only one server at a time may run (an engine bot);
    /// see store::Store::claim.
    bool claim(std::string_view what) { return store_.claim(std::string(what)); }
    /// Creates an active game directly (web API, bots, tests).
    Reply<std::int64_t> create_game(std::string_view black, std::string_view white, const TimeControl& tc,
                                    std::string_view origin, std::string_view handicap_move = {});
    /// Checks a move without playing it (PLAY's confirmation prompt): the move read once,
    /// to be played by play(user, id, move).
    Reply<CheckedMove> check_move(std::string_view user, std::int64_t game_id, std::string_view text);
    /// Plays a move in 003, USI or CSA notation (or a HANDICAP:... removal). With
    /// `illegal_loses` an illegal move ends the game (CSA); otherwise it is only refused.
    /// `comment` is kept with the move (a CSA engine's evaluation comment; check_comment()).
    Reply<Played> play(std::string_view user, std::int64_t game_id, std::string_view text, bool illegal_loses = false,
                       std::string_view comment = {});
    /// Why a move's comment cannot be kept (empty when it can): at most MAX_MOVE_COMMENT bytes of
    /// UTF-8 without control characters.
    static std::string check_comment(std::string_view comment);
    static constexpr std::size_t MAX_MOVE_COMMENT = 1024;
    /// Plays a move already read (check_move(), an engine's best move): not parsed again.
    Reply<Played> play(std::string_view user, std::int64_t game_id, core::Move move);
    Reply<void> resign(std::string_view user, std::int64_t game_id);
    /// Entering-king declaration by the side to move (CSA %KACHI): a wrong one loses.
    Reply<void> declare(std::string_view user, std::int64_t game_id);
    /// UNDO [-o] by 003's rules.
    Reply<void> undo(std::string_view user, std::int64_t game_id, bool opponents);
    /// The user has now seen every move of the game.
    void mark_seen(std::string_view user, std::int64_t game_id);
    /// Starts or stops `user` watching a game; a change of its spectators (spectators_of) is
    /// told to its players and spectators here as a Spectators event (spectators.cpp).
    void watch(std::string_view user, std::int64_t game_id, bool on);
    /// The names of those watching `g` now: connected here, its players left out.
    std::vector<std::string> spectators_of(const LiveGame& g) const;
    /// The timer of a game fired: judge its clock (an id below zero: a tournament's round).
    void on_timer(std::int64_t game_id);
    /// `user` loses a running game for `reason` (a lost CSA connection is EndReason::Disconnect,
    /// a refused resumption a resignation); a game still offered is aborted.
    void forfeit(std::string_view user, std::int64_t game_id, core::EndReason reason, std::string detail = {});

    // --- conditional moves (conditional.cpp, conditional.h)
    /// The tree `user` left in game `game_id` (empty when none or made for another position).
    Reply<ConditionalTree> conditional(std::string_view user, std::int64_t game_id);
    /// Stores `branches` for `user` while the opponent is to move, checked (conditional.h);
    /// replaces any tree (none: removes it). Stored in the database.
    Reply<ConditionalTree> set_conditional(std::string_view user, std::int64_t game_id,
                                           std::vector<ConditionalBranch> branches);
    Reply<void> clear_conditional(std::string_view user, std::int64_t game_id);

    // --- vacations and adjournments (pauses.cpp, pauses.h; issue 20)
    /// While a player is on vacation the clock of each correspondence game of theirs stands still
    /// whenever it is their turn; config.vacation_days a calendar year (UTC), each begun day counted.
    VacationInfo vacation(std::string_view user);
    /// Starts a vacation until `until` (epoch ms; 0: as long as the allowance lasts, and never
    /// beyond it); refused when on one already or with no day left.
    Reply<VacationInfo> start_vacation(std::string_view user, Millis until);
    Reply<VacationInfo> end_vacation(std::string_view user);
    /// When the vacation `user` is on now ends (nullopt: not on vacation).
    std::optional<Millis> vacation_until(std::string_view user);
    /// A correspondence challenge or game for `pattern` that is one player on vacation: what to
    /// tell the challenger ("" otherwise).
    std::string vacation_note(std::string_view pattern, bool correspondence);
    /// ADJOURN: offers to adjourn the game, or accepts the opponent's offer (then both clocks stop).
    Reply<AgreeStep> adjourn(std::string_view user, std::int64_t game_id);
    /// RESUME: offers to resume an adjourned game, or accepts the opponent's offer (the clocks run
    /// on as they stood).
    Reply<AgreeStep> resume(std::string_view user, std::int64_t game_id);
    /// Declines the opponent's offer to adjourn or resume.
    Reply<void> decline_offer(std::string_view user, std::int64_t game_id);
    /// The clock time the side to move has used in this turn: the time since the turn started but
    /// the adjournments and, in correspondence, their vacations.
    Millis turn_elapsed(const LiveGame& g, Millis now);

    // --- CSA matchmaking
    /// Waits for an opponent under a game name (floodgate-600-10F); `color` 0 Black, 1 White,
    /// -1 either. When one is found the game is offered to both (GameOffered).
    Reply<void> csa_wait(std::string_view user, std::string_view game_name, int color);
    void csa_cancel(std::string_view user);
    /// A CSA player's connection dropped during a game: with a reconnect grace the game goes on
    /// (the clock too) and is lost only if they are not back in time; without, it is lost now
    /// (EndReason::Disconnect).
    void csa_away(std::string_view user, std::int64_t game_id);
    /// A CSA login of a player who is away from a running game: that game (0: none), which
    /// they are back in.
    std::int64_t csa_return(std::string_view user);
    Reply<void> agree(std::string_view user, std::int64_t game_id);
    Reply<void> reject(std::string_view user, std::int64_t game_id);
    std::vector<std::pair<std::string, std::string>> csa_waiting() const;  // (user, game name)
    /// The move limit of a game (CSA games: config.csa_max_moves; 0 for none).
    int max_moves(const GameRow& row) const { return row.origin == "csa" ? config_.csa_max_moves : 0; }
    /// The start of a CSA game named with shogi-server's handicap prefix (hclance_, hcbishop_,
    /// hcrook_, hcrooklance_, hc2p_, hc4p_, hc6p_, hc8p_, hc10p_): the pieces are taken from
    /// Black, who moves first. The even start for other names.
    static std::string csa_start_sfen(std::string_view game_name);
    /// The time control of a CSA game name (NAME-TOTAL-BYOYOMI, NAME-TOTAL-INCF), in whole
    /// seconds as CSA charges them; nullopt when it has none or is longer than 64 characters.
    static std::optional<TimeControl> csa_time_control(std::string_view game_name);

    // --- scheduled tournaments (tournament.cpp). A CSA wait under a game name that matches a
    // tournament's pattern is not paired on arrival: every interval the players waiting under
    // each game name of the pattern are paired by rating (pair_round), the games offered as any
    // CSA game and rated; the game rows keep the tournament (GameRow::tournament).
    /// The tournament whose pattern the game name matches (the first configured), if any.
    const TournamentSpec* tournament_of(std::string_view game_name) const;
    std::vector<TournamentInfo> tournaments() const;
    /// The games of the tournament configured with `pattern` (in play or over), newest first,
    /// without their moves; an error when no tournament has that pattern.
    Reply<std::vector<GameRow>> tournament_games(std::string_view pattern, int limit);
    /// The public rating list: the accounts with at least one rated game, best rating first.
    std::vector<const UserRow*> rating_list() const;
    /// The finished games of `user`, the last ended first (at most `limit`), without their moves
    /// (the player page: its results, rating history and games).
    std::vector<store::ListedGame> player_games(std::string_view user, int limit) {
        return store_.player_games(user, limit);
    }

    // --- helpers shared with the protocols
    /// Parses a move in any notation the server accepts.
    static Reply<core::Move> parse_move(const core::Position& pos, std::string_view text);
    /// The move log of a game replayed from its start (replay(); a game in memory has it as
    /// LiveGame::log), up to the first entry that does not replay.
    static std::vector<MoveRecord> move_log(const GameRow& row);
    /// The position after the first `plies` entries of the move log (all when -1).
    static std::unique_ptr<core::Position> position_at(const GameRow& row, int plies = -1);
    Millis now() { return env_.now(); }
    /// Group commit: true while writes are waiting in an open batch (replies must wait too).
    bool batch_open() const { return store_.in_batch(); }
    /// Commits the open batch; false when the database refused it (nothing was acknowledged).
    /// `durable`: on disk when it returns; otherwise the caller makes it durable with the
    /// store's sync() (pipelined group commit) before it releases the replies.
    bool commit(bool durable = true);

    // --- other servers on the same database (PostgreSQL LISTEN/NOTIFY)
    /// A live event another server published: a game it changed is reloaded from the store
    /// and its new moves, undo, start or end are delivered to this server's players and
    /// spectators (the server that wrote last keeps the game's clock); a SHOUT or %%CHAT is
    /// passed on to this server's connections, a TELL or SAY to its recipient here; the
    /// challenges are reread when they changed; a CSA AGREE given on the other server counts.
    void on_remote(std::string_view payload);
    const Config& config() const { return config_; }
    /// The server is shutting down (SIGTERM): connections it closes now are not players leaving,
    /// so a CSA game in play is not lost by it (it goes on after the restart).
    void begin_shutdown() { shutting_down_ = true; }
    bool shutting_down() const { return shutting_down_; }

    // --- administration (admin.cpp). An administrator is an account listed by the store
    // (hisha-server admin grant NAME). Each action checks it, is logged (log event "admin")
    // and, when it changes something, kept in the audit log; a non-administrator gets
    // "you are not an administrator" (logged as "admin_refused").
    bool is_admin(std::string_view user);
    /// Whether `who` may run administrators' commands (the listings check it through this).
    Reply<void> authorize(const AdminActor& who, std::string_view action);
    /// Bans an account or an address (or network: "203.0.113.0/24") for `duration_ms` (0: until
    /// lifted): its logins are refused on every protocol, its connections (for an address, also
    /// new ones at accept) closed and its tokens revoked. Returns the ban as stored.
    Reply<BanRow> ban(const AdminActor& who, BanKind kind, std::string_view target, Millis duration_ms,
                      std::string_view reason);
    Reply<void> unban(const AdminActor& who, BanKind kind, std::string_view target);
    /// Closes every connection of an account here; the number closed.
    Reply<int> kick(const AdminActor& who, std::string_view user, std::string_view reason);
    /// Ends a game in play without a result (aborted, not rated).
    Reply<void> abort_game(const AdminActor& who, std::int64_t game_id, std::string_view reason);
    /// Ends a game in play with the administrator's result (rated as any result).
    Reply<void> adjudicate(const AdminActor& who, std::int64_t game_id, core::Winner winner, std::string_view reason);
    /// A message to everyone connected (on every server of a shared database); the number reached here.
    Reply<int> announce(const AdminActor& who, std::string_view text);
    /// Sets a new password (hashed on the offload threads) and revokes the account's tokens.
    void reset_password(const AdminActor& who, std::string name, std::string password,
                        std::function<void(Reply<void>)> done);
    /// The logged-in connections of this server, by name.
    std::vector<ConnectionInfo> connections() const;
    /// The bans in force (expired ones are dropped).
    std::vector<BanRow> bans();
    std::vector<AuditRow> audit_log(int limit) { return store_.audit(limit); }
    /// The queues and counters an administrator watches: the service's own (players, games,
    /// password hashes) and those the network adds (add_status_source: connections, jobs).
    std::vector<std::pair<std::string, std::string>> status();
    void add_status_source(std::function<void(std::vector<std::pair<std::string, std::string>>&)> source) {
        status_sources_.push_back(std::move(source));
    }
    /// The ban that refuses an account or an address now, if any.
    const BanRow* ban_of_user(std::string_view user);
    const BanRow* ban_of_address(std::string_view address);
    /// Reads an address or network for a ban: its canonical text, or an error.
    static Reply<std::string> parse_network(std::string_view text);
    /// Whether `address` (as a socket gives it, IPv4-mapped IPv6 included) is in the network `net`.
    static bool address_in(std::string_view address, std::string_view net);
    /// "7d", "12h", "30m", "45s": a duration for a ban or a session's lifetime; nullopt if not one.
    static std::optional<Millis> parse_duration(std::string_view text);

    /// The health check: whether the database answers now; why not in store_error().
    bool store_reachable() { return store_.reachable(); }
    const std::string& store_error() const { return store_.last_error(); }

    // --- tsume puzzles (puzzles.h; issue 20)
    /// Loads a puzzle file (`hisha puzzles` lines) as the set the JSON API serves.
    bool load_puzzles(const std::string& path, std::string& error);
    /// The loaded set, or none.
    Puzzles* puzzles() { return puzzles_.get(); }

    // --- mail notifications (mail.h; issue 20): set when the operator configured SMTP
    void set_mail(Mail* mail) { mail_ = mail; }
    Mail* mail() { return mail_; }

private:
    struct Waiting {
        std::string user, game_name;
        int color;
        Millis since = 0;  // when they began to wait
    };
    struct TournamentState {
        TournamentSpec spec;
        Millis next_round = 0;
        std::uint64_t rounds = 0, games = 0;
    };
    struct Connection {
        std::weak_ptr<Listener> listener;
        std::string user_key, protocol;
        Millis since;
        std::string peer, token_hash;  // the client's address; the session token of a WebSocket
    };

    LiveGame* live(std::int64_t id);
    /// A player's place in a live game: the game, and the colour the player has in it.
    struct Seat {
        LiveGame* game;
        core::Color color;
    };
    /// What an action asks of the game besides the user playing in it: nothing more, that it
    /// is not over, that it is the user's turn, or that it is an offered game (AGREE, REJECT).
    enum class Need { Player, Active, Turn, Offered };
    /// The user's seat in game `game_id`, or why the action cannot be done there.
    Reply<Seat> seat(std::string_view user, std::int64_t game_id, Need need);
    /// A shared database: the open games of a player that another server made or serves are
    /// held here from now on.
    void adopt_open_games(std::string_view user);
    /// Rereads a game from the store and delivers to this server's players and spectators
    /// what changed since the copy in memory (another server wrote it).
    void refresh(std::int64_t id);
    /// Writes this server's connections of a player where the other servers read WHO.
    void update_presence(const std::string& user_key);
    /// Online on another server sharing the database.
    bool online_elsewhere(std::string_view user) const;
    void reload_challenges();
    // The messages of on_remote, one kind each (remote.cpp).
    void remote_bans();
    void remote_announcement(std::string_view payload);
    void remote_broadcast(std::string_view payload);
    void remote_message(std::string_view payload);
    void remote_accepted(std::string_view payload);
    void remote_away(std::string_view payload);
    void remote_agree(std::string_view payload);
    /// Starts an offered CSA game that both players agreed to.
    Reply<void> start_agreed(LiveGame& g);
    UserRow* user_mut(std::string_view name);
    Reply<void> rebuild(LiveGame& g);
    Reply<std::int64_t> insert_game(GameRow row, std::vector<MoveRow> first_moves);
    Reply<void> save(LiveGame& g, int from_ply);
    /// A move to play: `text` to read, or `move` when it is read already.
    struct MoveInput {
        std::string_view text;
        core::Move move;
        std::string_view comment = {};
    };
    Reply<Played> play_once(std::string_view user, std::int64_t game_id, const MoveInput& in, bool illegal_loses);
    /// After a move played: the replies of the conditional trees it meets (conditional.cpp).
    void play_conditional(std::int64_t game_id);
    bool playing_conditional_ = false;
    /// Vacations by player key (the recent ones: loaded at start for the last two years).
    std::map<std::string, std::vector<store::VacationRow>> vacations_;
    void load_pauses(LiveGame& g);
    Reply<AgreeStep> agree_step(LiveGame& g, core::Color c, bool resume);
    /// Adjourns at once (an agreement, or a lost connection with config.adjourn_disconnected).
    Reply<void> adjourn_now(LiveGame& g, const std::string& why);
    /// Re-arms the timers of the correspondence games of `user` (a vacation began or ended).
    void rearm_games_of(std::string_view user);
    /// On a database shared by several servers, before a correspondence game is lost on time: the
    /// vacations of its player to move read again (one may have begun through another server).
    /// Whether they were.
    bool reload_vacations(const LiveGame& g);
    /// play_once's step 2: the move `side` sends, read once (a handicap removal, or a board move
    /// checked by the core); an illegal one ends the game when `illegal_loses`.
    Reply<MoveRecord> read_move(LiveGame& g, core::Color side, const MoveInput& in, bool illegal_loses);
    /// The Move event of the game's last entry (the position's facts from the game as it stands).
    Event move_event(const LiveGame& g, const MoveRecord& r, bool latest) const;
    Reply<void> resign_once(std::string_view user, std::int64_t game_id);
    Reply<void> declare_once(std::string_view user, std::int64_t game_id);
    Reply<void> undo_once(std::string_view user, std::int64_t game_id, bool opponents);
    /// Runs a command on a game; when its save lost a race to another server that left the
    /// game's moves as they were, once more on the game reread.
    template <class R, class Attempt>
    R again_after_race(std::int64_t game_id, Attempt attempt);
    void end_game(LiveGame& g, core::Winner w, core::EndReason r, std::string detail = {});
    void finalize_if_seen(LiveGame& g, std::vector<UserRow*>& changed);
    void apply_rating(LiveGame& g, std::vector<UserRow*>& changed);
    void arm_timer(LiveGame& g);
    /// A game begins: its clock runs and its players hear of it (GameStarted).
    void start_clock_and_announce(LiveGame& g);
    void emit_game(const LiveGame& g, Event e);
    void emit_local(const LiveGame& g, Event e);  // to this server's connections only
    void publish_pending();
    void emit_to(std::string_view user_key, const Event& e);
    void flush();
    std::string hash_password(std::string_view pw) const;
    Reply<void> check_new_account(std::string_view name, std::string_view password) const;
    AuthReply finish_login(const std::string& peer, const std::string& name, const std::string& checked_hash, bool ok);
    AuthReply finish_register(const std::string& name, const std::string& hash);
    AuthReply finish_password_change(const std::string& user, const std::string& checked_hash, bool ok,
                                     const std::string& new_hash);
    /// Answers `done` when the verdict refuses the attempt (and logs the first refusal).
    bool limited(const AttemptLimits::Verdict& v, const std::string& peer, std::string_view name, const AuthDone& done);
    /// Runs a password hash on the offload threads unless config.hash_queue are pending (then
    /// answers `done` busy and returns false).
    bool offload_hash(std::function<void()> work, std::function<void()> then, const AuthDone& done);
    /// Refuses a login or registration from a banned address or of a banned account.
    bool refused_by_ban(const std::string& peer, std::string_view name, const AuthDone& done);
    /// Ends the connections chosen by `which` (after collecting them: a listener may disconnect
    /// while it is told); the number ended.
    int end_sessions(const std::function<bool(const Connection&)>& which, const std::string& why);
    /// Logs an administrator's action and keeps it in the audit log.
    void audit(const AdminActor& who, std::string action, std::string target, std::string detail);
    void load_bans();
    // Tournaments (tournament.cpp). Their timers are the Environment's with ids below zero
    // (-1 - the tournament's index); games have positive ids.
    void start_tournaments();
    void schedule_round(std::size_t i);
    void on_tournament_timer(std::int64_t id);
    /// The rating history of the games rated before it was kept, once (rating_backfill.cpp).
    void backfill_rating_history();
    // The guests' expiry (guests.cpp): the timer set for the next guest due (0: none set).
    void schedule_guest_expiry();
    void on_guest_timer();
    Millis guest_timer_at_ = 0;
    void run_round(std::size_t i);
    /// A waiting player with their rating and their recent games in the tournament.
    Entrant entrant(const Waiting& w, const std::string& pattern);
    /// Offers the game of a pairing (both leave the waiting list; back on it when it fails).
    Reply<std::int64_t> offer_tournament_game(const Pairing& p, const std::string& game_name,
                                              const std::string& pattern);
    std::vector<TournamentState> tournaments_;
    std::optional<std::vector<BanRow>> bans_;  // loaded on first use; reloaded when another server changes them
    std::vector<std::function<void(std::vector<std::pair<std::string, std::string>>&)>> status_sources_;

    store::Store& store_;
    std::shared_ptr<Puzzles> puzzles_;  // hisha-server --puzzles
    Mail* mail_ = nullptr;              // hisha-server --smtp-host
    Environment& env_;
    Config config_;
    mutable std::map<std::string, UserRow> users_;  // by name key (another server's new users are read on demand)
    std::map<std::int64_t, std::unique_ptr<LiveGame>> games_;
    // The finished games held in games_, by their last use (touch_finished), so that they leave
    // it oldest first (retire_finished: at the end of an outermost flush, when the operation is
    // done with them, and in admit_request). Those that must stay (must_stay) wait in held_,
    // out of the count, until they no longer must or are used again.
    std::size_t finished_kept_ = 64;
    std::uint64_t finished_tick_ = 0;
    std::map<std::int64_t, std::uint64_t> finished_use_;                 // id -> last use
    std::deque<std::pair<std::int64_t, std::uint64_t>> finished_order_;  // (id, use), oldest first
    std::set<std::int64_t> held_;
    void touch_finished(const LiveGame& g);
    void retire_finished();
    bool must_stay(const LiveGame& g);
    bool watched_here(const LiveGame& g);
    /// `key` came online or went offline: the games it watches have a new spectators count.
    void presence_changed(const std::string& key);
    void emit_spectators(const LiveGame& g);
    /// by_key_, rebuilt first when the connections have changed.
    const std::map<std::string, std::vector<std::weak_ptr<Listener>>, std::less<>>& listeners_by_key();
    std::vector<std::unique_ptr<LiveGame>> listed_;  // active_games(): other servers' games, read for a list
    std::vector<ChallengeRow> challenges_;
    std::vector<Connection> connections_;  // after a change, set by_key_stale_
    // The listeners of connections_ by user key, in its order: rebuilt when it has changed
    // (emit_to runs twice a move).
    std::map<std::string, std::vector<std::weak_ptr<Listener>>, std::less<>> by_key_;
    bool by_key_stale_ = true;
    std::vector<Waiting> waiting_;
    std::map<std::string, std::string> last_tell_;
    std::vector<std::pair<std::weak_ptr<Listener>, Event>> pending_;
    bool flushing_ = false;
    std::set<std::int64_t> to_publish_;  // games changed, announced to other servers once durable
    std::set<std::int64_t> stale_;       // games another server wrote first: reread at next use
    struct Away {
        std::string user;
        Millis until = 0;
    };
    std::multimap<std::int64_t, Away> away_;  // CSA players gone from running games, by game
    AttemptLimits attempts_;
    int limit_retry_after_s_ = 0;
    bool shutting_down_ = false;
    std::uint64_t moves_played_ = 0;
    std::size_t hashing_ = 0;  // password hashes offloaded, not yet back
    double hash_ms_ = 100;     // how long one takes (moving average), for the busy answer's wait
    bool busy_logged_ = false;
};

/// The lower-case key of a name (names are case-insensitive).
std::string name_key(std::string_view name);
/// An argon2id hash of a password ("" when out of memory). Touches no shared state: any thread.
std::string password_hash(std::string_view pw, unsigned long long ops, std::size_t mem);
/// Whether `pw` is the password hashed in `hash`. Any thread.
bool password_matches(const std::string& hash, std::string_view pw);
/// Stable names of end reasons for storage and the JSON API ("checkmate", "time_up" ...).
const char* reason_name(core::EndReason r);
core::EndReason reason_from_name(std::string_view s);
/// The winner as games are stored and the JSON API names it: "black", "white", "draw", "".
const char* winner_name(core::Winner w);
core::Winner winner_from_name(std::string_view s);

}  // namespace hisha::server::service
