// The text protocol's commands. Replies are lines ending in CR LF; errors start with
// "Error: " and never close the connection. Every command of 003's COMMAND-LIST is here with
// its abbreviations, plus LOGIN/REGISTER/PASSWORD/QUIT, DECLARE and WATCH.
#include "server/proto/text_shell.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <ctime>
#include <utility>

#include "core/text.h"
#include "core/version.h"
#include "notation/coordinate.h"
#include "notation/encoding.h"
#include "notation/usi.h"
#include "notation/western.h"
#include "server/proto/help.h"
#include "server/proto/text_shell_words.h"
#include "server/service/pattern.h"

namespace hisha::server::proto {

using service::Event;
using service::EventKind;
using service::LiveGame;
using namespace text_words;

struct TextShell::Command {
    const char* name;
    const char* aliases;  // space-separated, upper case
    bool needs_login;
    void (TextShell::*handler)(const Args&);
    const char* usage;
};

namespace {

const TextShell::Command COMMANDS[] = {
    {"BOARD", "B REFRESH", true, &TextShell::cmd_board, "BOARD [-o] [gid]"},
    {"MOVES", "M", true, &TextShell::cmd_moves, "MOVES [-n] [gid]"},
    {"GAMES", "G", true, &TextShell::cmd_games, "GAMES"},
    {"STAT", "S", true, &TextShell::cmd_stat, "STAT"},
    {"NEW", "N", true, &TextShell::cmd_new,
     "NEW | NEW <num> | NEW <pattern> <move> [TIME <control>] [comment] | NEW [pattern] W[move] [TIME <control>] "
     "[comment]"},
    {"REMOVE", "", true, &TextShell::cmd_remove, "REMOVE <challenge number>"},
    {"PLAY", "", true, &TextShell::cmd_play, "PLAY <move-notation>"},
    {"HANDICAP", "", true, &TextShell::cmd_handicap, "HANDICAP piece1[,piece2,...]"},
    {"RESIGN", "", true, &TextShell::cmd_resign, "RESIGN"},
    {"UNDO", "U", true, &TextShell::cmd_undo, "UNDO [-o]"},
    {"IF", "CONDITIONAL", true, &TextShell::cmd_if, "IF [<his move> <your reply> [(...)] ... | -]"},
    {"ADJOURN", "", true, &TextShell::cmd_adjourn, "ADJOURN [gid]"},
    {"RESUME", "", true, &TextShell::cmd_resume, "RESUME [gid]"},
    {"DECLINE", "", true, &TextShell::cmd_decline, "DECLINE [gid]"},
    {"VACATION", "", true, &TextShell::cmd_vacation, "VACATION [START [YYYY-MM-DD] | END]"},
    {"SAY", "", true, &TextShell::cmd_say, "SAY message text"},
    {"SHOUT", "", true, &TextShell::cmd_shout, "SHOUT message text"},
    {"TELL", "", true, &TextShell::cmd_tell, "TELL <player.name>|. message text"},
    {"USER", "STATS", true, &TextShell::cmd_user, "USER [pattern ...]"},
    {"WHO", "W", false, &TextShell::cmd_who, "WHO [pattern]"},
    {"SET", "", true, &TextShell::cmd_set,
     "SET BLACK|WHITE|THREATENED|DRAGON|KANJI|PSTYLE|BSTYLE|STYLE|EMAIL|MAIL value"},
    {"HELP", "? H", false, &TextShell::cmd_help, "HELP [-n] <topic>"},
    {"PATTERNS", "PATTERN", false, &TextShell::cmd_patterns, "PATTERNS"},
    {"SHELL", "PUSH !", false, &TextShell::cmd_shell, "SHELL [command]"},
    {"LOGIN", "", false, &TextShell::cmd_login, "LOGIN <name> <password>"},
    {"REGISTER", "", false, &TextShell::cmd_register, "REGISTER <name> <password>"},
    {"PASSWORD", "", true, &TextShell::cmd_password, "PASSWORD <old> <new>"},
    {"QUIT", "EXIT BYE LOGOUT", false, &TextShell::cmd_quit, "QUIT"},
    {"DECLARE", "", true, &TextShell::cmd_declare, "DECLARE (entering-king declaration, CSA 27-point rule)"},
    {"WATCH", "OBSERVE", true, &TextShell::cmd_watch, "WATCH <gid> | WATCH -<gid>"},
    {"ADMIN", "", true, &TextShell::cmd_admin, "ADMIN HELP (administrators: bans, kicks, games, announcements)"},
};

const char* color_word(core::Color c) { return c == core::BLACK ? "Black" : "White"; }

// Whether the command's word a[i] is `flag` (BOARD -o, MOVES -n, HELP -n); if so, i moves past it.
bool take_flag(const TextShell::Args& a, std::size_t& i, std::string_view flag) {
    bool there = i < a.size() && upper(a[i]) == flag;
    if (there)
        ++i;
    return there;
}

std::string result_text(core::Winner w, core::EndReason r) {
    std::string s;
    if (w == core::Winner::Black)
        s = "Black wins";
    else if (w == core::Winner::White)
        s = "White wins";
    else if (w == core::Winner::Draw)
        s = "Draw";
    else
        s = "No result";
    if (r == core::EndReason::Disconnect && (w == core::Winner::Black || w == core::Winner::White))
        return s + ": " + (w == core::Winner::Black ? "White" : "Black") + " disconnected";
    return s + " by " + core::describe(r);
}

// A time control as NEW's TIME takes it: "10+30" (minutes, then seconds of byoyomi), or the
// server's own forms ("600-10", "600-10F", "300-0", "corr-3d").
std::optional<service::TimeControl> text_time_control(std::string_view text) {
    if (auto plus = text.find('+'); plus != std::string_view::npos) {
        auto minutes = to_int(text.substr(0, plus));
        auto seconds = to_int(text.substr(plus + 1));
        if (!minutes || !seconds || *minutes < 0 || *seconds < 0 || *minutes > 600 || *seconds > 3600
            || *minutes + *seconds == 0)
            return std::nullopt;
        return service::parse_time_control(std::to_string(*minutes * 60) + "-" + std::to_string(*seconds));
    }
    return service::parse_time_control(text);
}

std::string clock_text(service::Millis ms) {
    ms = std::max<service::Millis>(ms, 0);
    long s = long(ms / 1000);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

// "Clocks: Black 9:41, White 10:00 (then 30 s a move).": the main time left, the mover's running.
std::string clocks_line(const LiveGame& g, service::Millis elapsed) {
    service::Millis left[2] = {g.row.remaining[0], g.row.remaining[1]};
    if (g.active())
        left[g.to_move()] -= elapsed;
    std::string s = "Clocks: Black " + clock_text(left[0]) + ", White " + clock_text(left[1]);
    if (g.row.tc.kind == service::TimeKind::Byoyomi)
        s += " (then " + std::to_string(g.row.tc.byoyomi_ms / 1000) + " s a move)";
    return s + ".";
}

std::string game_result_text(const LiveGame& g) {
    core::Winner w = g.row.winner == "black" ? core::Winner::Black
                   : g.row.winner == "white" ? core::Winner::White
                   : g.row.winner == "draw"  ? core::Winner::Draw
                                             : core::Winner::None;
    return result_text(w, service::reason_from_name(g.row.reason));
}

}  // namespace

std::vector<TextCommandInfo> text_commands() {
    std::vector<TextCommandInfo> out;
    for (auto& c : COMMANDS)
        out.push_back({c.name, c.aliases, c.usage});
    return out;
}

TextShell::~TextShell() = default;

void TextShell::start() {
    line(std::string("Hisha shogi server ") + version() + ": the commands of Shoogi Server (HELP COMMAND-LIST).");
    line("LOGIN <name> <password>, or REGISTER <name> <password> for a new account.");
    prompt();
}

void TextShell::on_line_too_long() {
    error("line too long (at most 4096 bytes): ignored");
    prompt();
}

void TextShell::farewell(const std::string& why) { send("\r\n*** " + why + "\r\n"); }

void TextShell::on_disconnect() {
    closed_ = true;
    svc_.disconnect(shared_from_this());
}

// --- output

void TextShell::send(std::string_view text) {
    if (!closed_)
        out_(encode(std::string(text)));
}
void TextShell::line(std::string_view text) { send(std::string(text) + "\r\n"); }
void TextShell::error(std::string_view text) { line("Error: " + std::string(text)); }

void TextShell::prompt() {
    switch (mode_) {
    case Mode::Command: send("hisha> "); break;
    case Mode::ConfirmPlay: send("Play " + pending_display_ + "? <p,o,n,y> "); break;
    case Mode::Promote: send("Promote? (y/n) "); break;
    case Mode::ConfirmResign:
        send("Do you really want to resign game " + std::to_string(current_) + "? (yes/no) ");
        break;
    case Mode::LeaveMessage: send(pending_to_ + " is not online. Leave a message anyway? (yes/no) "); break;
    case Mode::More: send("-- More -- (p,o,y/<space>,<enter>,q/n) "); break;
    }
}

std::string TextShell::notice(const std::string& text) const {
    // SET PSTYLE: the king of a check notice named in romaji or kanji; as in 003, Black's king
    // is the gyoku ("jewel") and White's the oo.
    static const char* const NAMES[5][2] = {{"king", "king"},
                                            {"Gyokushoo", "Ooshoo"},
                                            {"Gyoku", "Oo"},
                                            {"\u7389\u5c06", "\u738b\u5c06"},
                                            {"\u7389", "\u738b"}};
    std::string style = user_.empty() ? "" : svc_.setting(user_, "PSTYLE");
    int st = style.size() == 1 && style[0] >= '1' && style[0] <= '4' ? style[0] - '0' : 0;
    auto at = text.find("'s king ");
    if (st == 0 || at == std::string::npos)
        return text;
    int white = text.starts_with("White") ? 1 : 0;
    return text.substr(0, at) + "'s " + NAMES[st][white] + text.substr(at + 7);
}

std::string TextShell::encode(std::string text) const {
    if (user_.empty())
        return text;
    std::string k = svc_.setting(user_, "KANJI");
    if (k == "2")
        return notation::from_utf8(text, notation::Encoding::EucJp);
    if (k == "3")
        return notation::from_utf8(text, notation::Encoding::ShiftJis);
    return text;
}

// --- input

void TextShell::on_line(std::string_view raw) {
    if (closed_)
        return;
    std::string cleaned;
    for (char c : raw)
        if (c == '\t')
            cleaned += ' ';
        else if (static_cast<unsigned char>(c) >= 32 && c != 127)
            cleaned += c;
    busy_ = in_line_ = true;
    if (mode_ != Mode::Command) {
        answer(cleaned);
    } else {
        dispatch(cleaned);
    }
    in_line_ = false;
    if (!waiting_)  // else its answer ends the command
        end_command();
}

void TextShell::end_command() {
    busy_ = false;
    if (!deferred_.empty())
        send(std::exchange(deferred_, {}));
    if (!closed_)
        prompt();
}

service::AuthDone TextShell::when_answered(std::function<void(const service::AuthReply&)> then) {
    waiting_ = true;
    pause_input();
    std::weak_ptr<TextShell> weak = shared_from_this();
    return [weak, then = std::move(then)](const service::AuthReply& r) {
        auto self = weak.lock();
        if (!self || self->closed_)
            return;
        then(r);
        self->waiting_ = false;
        if (!self->in_line_)  // answered later, not inside on_line
            self->end_command();
        self->resume_input();
    };
}

std::string TextShell::rest_of(std::string_view text, std::size_t words) const {
    std::size_t i = 0;
    for (std::size_t w = 0; w < words; ++w) {
        while (i < text.size() && text[i] == ' ')
            ++i;
        while (i < text.size() && text[i] != ' ')
            ++i;
    }
    while (i < text.size() && text[i] == ' ')
        ++i;
    return std::string(text.substr(i));
}

void TextShell::dispatch(std::string_view text) {
    std::string_view t = text;
    while (!t.empty() && t.front() == ' ')
        t.remove_prefix(1);
    if (t.empty())
        return;
    raw_line_ = std::string(t);
    // `.message` and `!command` need no blank after the sign.
    if (t[0] == '.') {
        if (user_.empty())
            return error("please LOGIN <name> <password> or REGISTER <name> <password> first");
        raw_line_ = "TELL . " + std::string(t.substr(1));
        return cmd_tell(split(raw_line_));
    }
    if (t[0] == '!' || t[0] == '?') {
        std::string head(1, t[0]);
        raw_line_ = head + " " + std::string(t.substr(1));
        t = raw_line_;
    }
    Args args = split(t);
    std::string name = upper(args[0]);
    for (auto& c : COMMANDS) {
        bool hit = name == c.name;
        for (auto& alias : split(c.aliases))
            hit |= name == alias;
        if (!hit)
            continue;
        if (c.needs_login && user_.empty())
            return error("please LOGIN <name> <password> or REGISTER <name> <password> first");
        (this->*c.handler)(args);
        return;
    }
    // 003: "when you do your move, you must do it with PLAY command".
    if (notation::looks_like_move(args[0]))
        return error("a move is played with the PLAY command: PLAY " + std::string(t));
    error("unknown command '" + args[0] + "' (HELP COMMAND-LIST lists the commands)");
}

// --- events

void TextShell::deliver(const Event& e) {
    if (closed_ || user_.empty())
        return;
    std::string g = "Game " + std::to_string(e.game_id);
    std::vector<std::string> out;
    switch (e.kind) {
    case EventKind::Move: {
        if (service::name_key(e.from) == service::name_key(user_) || !e.facts)
            return;  // the mover has had the reply
        out.push_back(g + ": " + e.from + " played " + e.facts->record.western + ".");
        for (auto& n : e.facts->record.notices)
            out.push_back(notice(n));
        // The notice shows the move: the player it reaches has seen it, whether or not the game
        // is loaded. Only UNDO asks, and only in correspondence games, so a real-time game's
        // relay costs no write for it; watchers have nothing to mark.
        if (const LiveGame* lg = svc_.game(e.game_id); lg && !lg->row.tc.realtime())
            svc_.mark_seen(user_, e.game_id);
        break;
    }
    case EventKind::Undo:
        if (service::name_key(e.from) == service::name_key(user_))
            return;
        out.push_back(g + ": " + e.from + " took back the last move.");
        break;
    case EventKind::GameEnded: out.push_back(g + " is over: " + result_text(e.winner, e.reason) + "."); break;
    case EventKind::GameStarted:
        if (service::name_key(e.from) == service::name_key(user_))
            return;
        out.push_back(e.text.empty() ? g + " has started." : e.text + ".");
        break;
    case EventKind::Say: out.push_back(e.from + " says (game " + std::to_string(e.game_id) + "): " + e.text); break;
    case EventKind::Shout: out.push_back(e.from + " shouts: " + e.text); break;
    case EventKind::Tell: out.push_back(e.from + " tells you: " + e.text); break;
    case EventKind::Notice: out.push_back(e.text); break;
    case EventKind::Announce: out.push_back("*** Announcement from " + e.from + ": " + e.text); break;
    default: return;
    }
    std::string text;
    for (auto& l : out)
        text += l + "\r\n";
    if (busy_) {
        deferred_ += text;
        return;
    }
    send("\r\n" + text);
    prompt();
}

// --- accounts

void TextShell::after_login(const UserRow& u) {
    user_ = u.name;
    svc_.connect(user_, shared_from_this(), "text", peer());
    line("Welcome, " + user_ + ".");
    auto msgs = svc_.take_messages(user_);
    if (!msgs.empty()) {
        line("You have " + std::to_string(msgs.size()) + " message" + (msgs.size() > 1 ? "s" : "") + ":");
        for (auto& m : msgs)
            line("  From " + m.from + " (" + time_text(m.at) + "): " + m.text);
    }
    // The current game is one of the player's open games, the first where it is their turn, as
    // a player coming back expects (not loaded yet: BOARD shows it, and loads it for PLAY).
    int mine = 0, open = 0;
    std::int64_t first_open = 0, first_turn = 0;
    for (auto* g : svc_.games_of(user_)) {
        if (!g->active())
            continue;
        ++open;
        first_open = first_open ? first_open : g->row.id;
        if (g->color_of(user_) == g->to_move()) {
            ++mine;
            first_turn = first_turn ? first_turn : g->row.id;
        }
    }
    if (mine)
        line("It is your turn in " + std::to_string(mine) + " game" + (mine > 1 ? "s" : "") + " (STAT lists them).");
    if (open) {
        current_ = first_turn ? first_turn : first_open;
        loaded_ = false;
        line("Current game: " + std::to_string(current_) + " (BOARD shows it).");
    }
}

void TextShell::cmd_login(const Args& a) { log_in(a, false); }
void TextShell::cmd_register(const Args& a) { log_in(a, true); }

void TextShell::log_in(const Args& a, bool registering) {
    if (!user_.empty())
        return error("you are logged in as " + user_);
    if (a.size() != 3)
        return error(registering ? "usage: REGISTER <name> <password>" : "usage: LOGIN <name> <password>");
    auto answered = when_answered([this, registering](const service::AuthReply& r) {
        if (!r.ok())
            return error(r.error);
        if (registering)
            line("Account " + r.user.name + " created.");
        after_login(r.user);
    });
    if (registering)
        svc_.start_register(peer(), a[1], a[2], answered);
    else
        svc_.start_login(peer(), a[1], a[2], answered);
}

void TextShell::cmd_password(const Args& a) {
    if (a.size() != 3)
        return error("usage: PASSWORD <old> <new>");
    svc_.start_password_change(peer(), user_, a[1], a[2], when_answered([this](const service::AuthReply& r) {
                                   if (!r.ok())
                                       return error(r.error);
                                   line("Password changed.");
                               }));
}

void TextShell::cmd_quit(const Args&) {
    line("Bye.");
    closed_ = true;
    if (!user_.empty())
        svc_.disconnect(shared_from_this());
    if (close_)
        close_();
}

// --- loading

std::optional<std::int64_t> TextShell::game_arg(const Args& a, std::size_t i) {
    if (i < a.size()) {
        auto id = to_int(a[i]);
        if (!id) {
            error("bad game id '" + a[i] + "'");
            return std::nullopt;
        }
        return id;
    }
    if (current_ == 0) {
        error("no current game: give a game id (STAT and GAMES list them)");
        return std::nullopt;
    }
    return current_;
}

bool TextShell::my_view_is_white(const LiveGame& g) const { return g.color_of(user_) == core::WHITE; }

BoardStyle TextShell::board_style() const {
    BoardStyle st;
    std::string bs = svc_.setting(user_, "BSTYLE");
    st.style = bs.empty() ? 0 : bs[0] - '0';
    st.old_dragon = svc_.setting(user_, "DRAGON") == "OLD";
    st.black_attr = attribute_code(svc_.setting(user_, "BLACK"));
    st.white_attr = attribute_code(svc_.setting(user_, "WHITE"));
    st.threatened_attr = attribute_code(svc_.setting(user_, "THREATENED"));
    for (auto* s : {&st.black_attr, &st.white_attr, &st.threatened_attr})
        if (*s == "?")
            s->clear();
    return st;
}

std::string TextShell::board_text(const core::Position& pos, bool from_white) const {
    return draw_board(pos, board_style(), from_white);
}

void TextShell::show_board(std::int64_t gid, bool other_view) {
    const LiveGame* g = svc_.game(gid);
    if (!g)
        return error("no such game: " + std::to_string(gid));
    bool white = my_view_is_white(*g);
    if (other_view)
        white = !white;
    std::string head = "Game " + std::to_string(gid) + ": " + g->row.black + " (Black) vs " + g->row.white
                     + " (White), " + g->row.tc.describe() + ", " + std::to_string(g->row.moves.size()) + " moves";
    line(head);
    if (g->row.tc.realtime())
        line(clocks_line(*g, svc_.turn_elapsed(*g, svc_.now())));
    send(board_text(g->game.position(), white));
    if (g->finished()) {
        line("Game over: " + game_result_text(*g) + ".");
    } else if (g->row.status == GameStatus::Offered) {
        line("Offered, waiting for agreement.");
    } else {
        core::Color stm = g->to_move();
        std::string turn = std::string(color_word(stm)) + " (" + g->player(stm) + ") to move.";
        if (g->row.tc.realtime())
            turn += " Clocks: Black " + std::to_string(g->row.remaining[0] / 1000) + " s, White "
                  + std::to_string(g->row.remaining[1] / 1000) + " s.";
        line(turn);
        if (std::string p = pause_text(*g); !p.empty())
            line(p);
        if (!g->log.empty())
            for (auto& n : g->log.back().notices)
                line(notice(n));
    }
}

const LiveGame* TextShell::game_after_flag(const Args& a, std::string_view flag, bool& flagged) {
    std::size_t i = 1;
    flagged = take_flag(a, i, flag);
    auto gid = game_arg(a, i);
    if (!gid)
        return nullptr;
    const LiveGame* g = svc_.game(*gid);
    if (!g)
        error("no such game: " + std::to_string(*gid));
    return g;
}

void TextShell::cmd_board(const Args& a) {
    bool other = false;
    const LiveGame* g = game_after_flag(a, "-O", other);
    if (!g)
        return;
    current_ = g->row.id;
    loaded_ = true;
    show_board(current_, other);
    svc_.mark_seen(user_, current_);
}

void TextShell::cmd_moves(const Args& a) {
    bool nonstop = false;
    const LiveGame* g = game_after_flag(a, "-N", nonstop);
    if (!g)
        return;
    std::int64_t id = g->row.id;
    current_ = id;
    loaded_ = false;
    std::vector<std::string> lines;
    lines.push_back("Game " + std::to_string(id) + ": " + g->row.black + " (Black) vs " + g->row.white + " (White), "
                    + g->row.tc.describe());
    for (auto& m : g->log) {
        char num[16];
        std::snprintf(num, sizeof num, "%4d.", m.ply + 1);
        lines.push_back(std::string(num) + " " + pad(m.western, 14) + pad(g->player(m.mover), 18)
                        + (m.at ? time_text(m.at) : ""));
        for (auto& n : m.notices)
            lines.push_back("      " + notice(n));
    }
    if (g->finished())
        lines.push_back("Game over: " + game_result_text(*g) + ".");
    auto done = [this, id] {
        if (current_ == id) {
            loaded_ = true;
            svc_.mark_seen(user_, id);
        }
    };
    pager_gid_ = id;
    if (nonstop) {
        for (auto& l : lines)
            line(l);
        done();
    } else {
        page(std::move(lines), done);
    }
}

// --- listing

void TextShell::cmd_games(const Args&) {
    auto games = svc_.active_games();
    if (games.empty())
        return line("No active games.");
    line("  Id  Black             White             Moves  To move  Time");
    for (auto* g : games) {
        char id[16];
        std::snprintf(id, sizeof id, "%4lld", static_cast<long long>(g->row.id));
        line(std::string(id) + "  " + pad(g->row.black, 18) + pad(g->row.white, 18)
             + pad(std::to_string(g->row.moves.size()), 7) + pad(color_word(g->to_move()), 9) + g->row.tc.describe()
             + pause_tag(*g));
    }
}

void TextShell::cmd_stat(const Args&) {
    auto games = svc_.games_of(user_);
    if (games.empty())
        return line("You are not playing any games (NEW lists challenges).");
    line("  Id  Opponent          You    Moves  Turn");
    for (auto* g : games) {
        core::Color me = *g->color_of(user_);
        char id[16];
        std::snprintf(id, sizeof id, "%4lld", static_cast<long long>(g->row.id));
        std::string turn = g->row.status == GameStatus::Offered ? "offered"
                         : g->to_move() == me                   ? "yours"
                                                                : "opponent's";
        int unseen = int(g->row.moves.size()) - g->row.seen[me];
        if (unseen > 0)
            turn += " (" + std::to_string(unseen) + " unseen)";
        turn += pause_tag(*g);
        line(std::string(id) + "  " + pad(g->player(~me), 18) + pad(color_word(me), 7)
             + pad(std::to_string(g->row.moves.size()), 7) + turn);
    }
}

// --- challenges

void TextShell::cmd_new(const Args& a) {
    if (a.size() == 1) {
        auto list = svc_.challenges_for(user_);
        if (list.empty())
            return line("No new games. Open one with NEW <pattern> <move> or NEW W.");
        line(" Num  Challenger        Plays  First move      For          Time      Comment");
        core::Position start;
        for (auto* c : list) {
            std::string fm = c->first_move;
            if (auto m = notation::parse_usi_move(start, fm))
                fm = notation::write_western(start, *m);
            if (c->challenger_color == 1)
                fm = "W" + fm;
            char num[16];
            std::snprintf(num, sizeof num, "%4lld", static_cast<long long>(c->id));
            line(std::string(num) + "  " + pad(c->challenger, 18) + pad(color_word(core::Color(c->challenger_color)), 7)
                 + pad(fm, 16) + pad(c->pattern, 13) + pad(c->tc.describe(), 10) + c->comment);
        }
        return;
    }
    if (a.size() == 2) {
        if (auto num = to_int(a[1])) {
            auto gid = svc_.accept_challenge(user_, *num);
            if (!gid)
                return error(gid.error());
            current_ = *gid;
            loaded_ = true;
            line("You accepted challenge " + std::to_string(*num) + ": game " + std::to_string(*gid) + ".");
            show_board(*gid, false);
            svc_.mark_seen(user_, *gid);
            return;
        }
    }
    // NEW <pattern> <move> [comment] | NEW <pattern> W[move] [comment] | NEW W[move] [comment]
    auto is_w = [](const std::string& s) { return !s.empty() && (s[0] == 'W' || s[0] == 'w'); };
    auto looks_move = [](const std::string& s) {
        return notation::looks_like_move(s) || upper(s).starts_with("HANDICAP:") || s.find('@') != std::string::npos;
    };
    // W, alone or followed by the move Black is to play first (no move notation starts with W):
    // NEW BART.BEGINNER WHANDICAP:L@1a is White's challenge with Black's first move forced.
    auto w_form = [&](const std::string& s) { return is_w(s) && (s.size() == 1 || looks_move(s.substr(1))); };
    std::string pattern = "*", first, comment;
    int color = 0;
    std::size_t comment_from = 0;
    if (a.size() >= 3 && (w_form(a[2]) || looks_move(a[2]))) {
        pattern = a[1];
        color = w_form(a[2]) ? 1 : 0;
        first = color == 1 ? a[2].substr(1) : a[2];
        comment_from = 3;
    } else if (w_form(a[1])) {
        color = 1;
        first = a[1].substr(1);
        comment_from = 2;
    } else {
        return error("usage: " + std::string(COMMANDS[4].usage));
    }
    // `W HANDICAP:L@1a` would make the forced move a comment: say how to write it instead.
    if (color == 1 && first.empty() && a.size() > comment_from && looks_move(a[comment_from]))
        return error("write Black's forced first move right after W, without a space: W" + a[comment_from]);
    // TIME <control> before the comment: a real-time game (or another correspondence pace).
    std::optional<service::TimeControl> tc;
    if (a.size() > comment_from && upper(a[comment_from]) == "TIME") {
        if (a.size() == comment_from + 1 || !(tc = text_time_control(a[comment_from + 1])))
            return error("usage: NEW ... TIME <minutes>+<seconds> | <seconds>-<byoyomi> | <seconds>-<increment>F | "
                         "corr-<days>d (HELP NEW)");
        comment_from += 2;
    }
    comment = rest_of(raw_line_, comment_from);
    auto id = svc_.new_challenge(user_, pattern, color, first, comment, tc);
    if (!id)
        return error(id.error());
    line("Challenge " + std::to_string(*id) + " added: you play " + color_word(core::Color(color)) + ", open to "
         + pattern + (tc ? ", " + tc->describe() : "") + ".");
    if (std::string note = svc_.vacation_note(pattern, !tc || !tc->realtime()); !note.empty())
        line(note);
}

void TextShell::cmd_remove(const Args& a) {
    if (a.size() != 2 || !to_int(a[1]))
        return error("usage: REMOVE <challenge number>");
    if (auto r = svc_.remove_challenge(user_, *to_int(a[1])); !r)
        return error(r.error());
    line("Challenge " + a[1] + " removed.");
}

// --- playing

bool TextShell::load_current(bool need_own) {
    if (current_ == 0) {
        error("no current game: load one with BOARD <gid> or MOVES <gid>");
        return false;
    }
    const LiveGame* g = svc_.game(current_);
    if (!g) {
        error("no such game");
        return false;
    }
    if (need_own && !g->color_of(user_)) {
        error("game " + std::to_string(current_) + " is not yours");
        return false;
    }
    if (!loaded_) {
        error("load the whole game first (BOARD, or MOVES -n)");
        return false;
    }
    return true;
}

void TextShell::cmd_play(const Args& a) {
    if (a.size() < 2)
        return error("usage: PLAY <move-notation>");
    if (!load_current(true))
        return;
    std::string text = rest_of(raw_line_, 1);
    auto m = svc_.check_move(user_, current_, text);  // the move is read here, once
    if (!m)
        return error(m.error());
    const LiveGame* g = svc_.game(current_);
    if (m->move == core::Move::null()) {  // a handicap removal
        pending_board_ = core::Move::none();
        pending_move_ = upper(text).starts_with("HANDICAP:") ? "HANDICAP:" + text.substr(9) : "HANDICAP:" + text;
        pending_display_ = pending_move_;
        mode_ = Mode::ConfirmPlay;
        return;
    }
    const core::Position& pos = g->game.position();
    core::Move mv = m->move;
    if (m->promotion_open && !mv.is_promotion() && !mv.is_drop() && notation::promotion_possible(pos, mv)
        && pos.is_legal(pos.make_move(mv.from(), mv.to(), true))) {
        pending_promote_ = mv;
        mode_ = Mode::Promote;
        return;
    }
    pending_board_ = mv;
    pending_display_ = notation::write_western(pos, mv);
    // On a clock the move is played at once: a confirmation would spend the player's time.
    if (g->row.tc.realtime())
        return do_play();
    mode_ = Mode::ConfirmPlay;
}

void TextShell::do_play() {
    // A board move as check_move() read it (not parsed again), or a handicap removal's text.
    auto r = pending_board_ ? svc_.play(user_, current_, pending_board_) : svc_.play(user_, current_, pending_move_);
    if (!r)
        return error(r.error());
    line("Game " + std::to_string(current_) + ": you played " + r->western + ".");
    for (auto& n : r->notices)
        line(notice(n));
    if (const LiveGame* g = svc_.game(current_); g && g->finished())
        line("Game over: " + game_result_text(*g) + ".");
}

void TextShell::cmd_handicap(const Args& a) {
    if (a.size() != 2)
        return error("usage: HANDICAP piece1[,piece2,...] (e.g. HANDICAP L@1a,R@8b)");
    Args play{"PLAY", "HANDICAP:" + a[1]};
    raw_line_ = "PLAY HANDICAP:" + a[1];
    cmd_play(play);
}

void TextShell::cmd_resign(const Args&) {
    if (!load_current(true))
        return;
    const LiveGame* g = svc_.game(current_);
    if (!g->active())
        return error("game " + std::to_string(current_) + " is over");
    mode_ = Mode::ConfirmResign;
}

void TextShell::cmd_undo(const Args& a) {
    bool other = a.size() > 1 && upper(a[1]) == "-O";
    if (a.size() > 2 || (a.size() == 2 && !other))
        return error("usage: UNDO [-o]");
    if (!load_current(true))
        return;
    if (auto r = svc_.undo(user_, current_, other); !r)
        return error(r.error());
    line("Game " + std::to_string(current_) + ": the last move was taken back.");
}

void TextShell::cmd_declare(const Args&) {
    if (!load_current(true))
        return;
    if (auto r = svc_.declare(user_, current_); !r)
        return error(r.error());
    line("Declaration accepted: you win game " + std::to_string(current_) + ".");
}

void TextShell::cmd_watch(const Args& a) {
    if (a.size() != 2)
        return error("usage: WATCH <gid> | WATCH -<gid>");
    bool off = a[1][0] == '-';
    auto id = to_int(off ? a[1].substr(1) : a[1]);
    if (!id || !svc_.game(*id))
        return error("no such game: " + a[1]);
    svc_.watch(user_, *id, !off);
    line(std::string(off ? "No longer watching" : "Watching") + " game " + std::to_string(*id) + ".");
}

void TextShell::cmd_help(const Args& a) {
    std::size_t i = 1;
    bool nonstop = take_flag(a, i, "-N");
    std::string topic = rest_of(raw_line_, i);
    if (topic.empty()) {
        topic = "COMMAND-LIST";
        nonstop = true;  // the list of commands is wanted whole, as a reference beside the prompt
    }
    std::string up = upper(topic);
    for (auto& c : COMMANDS)  // abbreviations name their command's topic
        for (auto& alias : split(c.aliases))
            if (up == alias && alias != "?" && alias != "!")
                up = c.name;
    std::vector<std::string> lines;
    auto add_text = [&](std::string_view section) {
        for (std::string_view l : text::lines(section))
            lines.emplace_back(l);
    };
    if (up == "*") {
        lines = help_index();
    } else if (up == "ALL") {
        add_text(help_text());
    } else {
        auto found = find_help(up);
        if (found.empty())
            return error("no help on '" + topic + "' (HELP * lists the topics)");
        for (auto* t : found)
            add_text(help_text().substr(t->begin, t->end - t->begin));
    }
    if (nonstop) {
        for (auto& l : lines)
            line(l);
    } else {
        pager_gid_ = 0;
        page(std::move(lines));
    }
}

void TextShell::cmd_patterns(const Args&) {
    raw_line_ = "HELP -n PATTERNS";
    cmd_help({"HELP", "-n", "PATTERNS"});
}

void TextShell::cmd_shell(const Args&) {
    line("Shell access is not offered: this server never runs commands for its clients.");
}

}  // namespace hisha::server::proto
